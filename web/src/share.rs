//! Sharing a session: the permalink of a [`Lab`] and the lab a permalink restores, the lesson
//! a page's query asks for, and the iframe and element snippets of the Embed button. Pure
//! logic, tested natively; the encoding itself is `rollout_facade::share`, and what an embed
//! shows (`?embed&controls=…`, the element's attributes, `mount()`'s options) is
//! `rollout_facade::embed`'s.

use crate::settings::{first_create, kubernetes_of, Settings, StrategyKind};
use crate::state::{default_scenario, importable, Lab};
use rollout_facade::embed::EmbedOptions;
use rollout_facade::scenario::Scenario;
use rollout_facade::session::{Session, SESSION_LINK_VERSION};
use rollout_facade::share::{decode_link, parse_params, Link};
use rollout_facade::version::KubernetesVersion;

/// The settings that describe the session's Deployment once every command given so far has
/// been applied (the session's projection, by the stepper's own interpreter), as the settings
/// form shows them. `None` when it creates no Deployment.
pub fn settings_after(lab: &Lab) -> Option<Settings> {
    let session = lab.session();
    let (mut out, _) = Settings::from_scenario(session.scenario())?;
    if let Some(d) = session.projected_deployment() {
        out.replicas = d.spec.replicas.to_string();
        out.set_strategy(Some(d.spec.strategy.clone()));
        out.min_ready_seconds = d.spec.min_ready_seconds.to_string();
        if let Some(p) = d.spec.progress_deadline_seconds {
            out.progress_deadline_seconds = p.to_string();
        }
        if let Some(h) = d.spec.revision_history_limit {
            out.revision_history_limit = h.to_string();
        }
    }
    Some(out)
}

/// The permalink fragment (without `#`) of a session: its scenario with every action taken or
/// queued, the position (version 2: Steps taken, then single syncs; the core's
/// `Session::link`), the preset it started from, and the lesson followed.
pub fn link_of(lab: &Lab) -> String {
    with_lesson(session_link(lab), lesson_of(lab))
}

/// The core's version-2 permalink of the lab's session, with the lab's preset.
fn session_link(lab: &Lab) -> String {
    let mut session = lab.session().clone();
    session.set_preset(Some(lab.preset.clone()).filter(|p| !p.is_empty() && p != "custom"));
    session.link()
}

/// The link is version 2 (`v=2`): its position counts Steps, not single syncs.
fn is_v2(fragment: &str) -> bool {
    fragment
        .trim_start_matches('#')
        .split('&')
        .any(|kv| kv.trim() == format!("v={SESSION_LINK_VERSION}"))
}

/// The lesson a session follows and the step shown (0-based), if any.
pub fn lesson_of(lab: &Lab) -> Option<(&'static str, usize)> {
    match lab.guide.as_ref().map(|g| &g.guide) {
        Some(crate::lesson::Guide::Lesson { lesson, step }) => Some((lesson.id, *step)),
        _ => None,
    }
}

/// A permalink fragment that also reopens `lesson` at its step: `&lesson=ID&step=N`, N
/// 1-based, as [`lab_from_query`] reads it.
pub fn with_lesson(fragment: String, lesson: Option<(&str, usize)>) -> String {
    match lesson {
        Some((id, step)) => format!("{fragment}&lesson={id}&step={}", step + 1),
        None => fragment,
    }
}

/// What the share dialog needs of a session: its scenario as JSON (`json`, the Export text),
/// the steps taken, the preset it started from, a title and the lesson followed (the dialog,
/// in the rollout-lab module, makes the link).
pub fn session_of(lab: &Lab, json: String) -> ShareSession {
    ShareSession {
        json,
        link: session_link(lab),
        preset: lab.preset.clone(),
        title: title_of(lab),
        lesson: lesson_of(lab),
        compare: None,
    }
}

/// A permalink that names a preset and carries no scenario (`#p=rolling-basic&at=9`) opens the
/// preset as the app runs it (`crate::state::app_scenario`: under 1.37), not as the core's
/// list holds it (a scenario without `kubernetesVersion`: 1.28): its scenario is written in
/// (`s=`) before it is read. Any other fragment is returned as it is.
fn with_app_preset(fragment: &str) -> String {
    let params = parse_params(fragment);
    let preset = params
        .iter()
        .find(|(k, _)| k == "p")
        .and_then(|(_, id)| rollout_facade::presets::preset(id));
    match preset {
        Some(p) if !params.iter().any(|(k, _)| k == "s") => {
            let mut scenario = crate::state::app_scenario(p.scenario);
            // Left out as the app's own links leave it out (`encode_link`); read back from the preset.
            scenario.description.clear();
            format!(
                "s={}&{}",
                rollout_facade::share::encode_scenario(&scenario),
                fragment.trim_start_matches('#')
            )
        }
        _ => fragment.to_string(),
    }
}

/// The lab a permalink fragment describes, stepped to its step, with a notice saying what was
/// ignored. `None` when the fragment holds no session (the app then starts as usual).
pub fn lab_from_link(fragment: &str) -> Option<Lab> {
    // Compare's `cmp=` is Compare's to read (crate::hooks::use_compare).
    let fragment = with_app_preset(&crate::state::compare::with_param(fragment, None));
    if is_v2(&fragment) {
        let r = Session::from_link(&fragment, &default_scenario())?;
        if r.fell_back {
            return Some(default_with_notice(&r.ignored));
        }
        let preset = r.value.preset().unwrap_or("custom").to_string();
        let mut lab = Lab::from_session(r.value, &preset);
        if let Some(settings) = settings_after(&lab) {
            lab.applied = settings.clone();
            lab.settings = settings;
        }
        lab.notice = notice(&r.ignored, false);
        return Some(lab);
    }
    let r = decode_link(&fragment, &default_scenario())?;
    let Link {
        scenario,
        step,
        preset,
    } = r.value;
    Some(lab_from_parts(
        scenario,
        step,
        preset,
        r.ignored,
        r.fell_back,
    ))
}

/// The lab of a decoded permalink: its scenario (if within the app's limits) stepped to its
/// step, the settings as they were, and a notice listing what the decoding `ignored`.
pub fn lab_from_parts(
    scenario: Scenario,
    step: usize,
    preset: Option<String>,
    mut ignored: Vec<String>,
    mut fell_back: bool,
) -> Lab {
    if let Err(why) = importable(&scenario) {
        // ASCII lower case: Unicode case tables would cost the wasm about 10 KB.
        let why = why.trim_end_matches('.');
        let mut chars = why.chars();
        ignored.push(match chars.next() {
            Some(c) => c.to_ascii_lowercase().to_string() + chars.as_str(),
            None => String::new(),
        });
        fell_back = true;
    }
    if fell_back {
        return default_with_notice(&ignored);
    }
    let mut lab = Lab::from_scenario(scenario, preset.as_deref().unwrap_or("custom"));
    let taken = lab.fast_forward(step);
    if taken < step {
        ignored.push(format!(
            "step {step} is past the end of the scenario, which ends after step {taken}; showing the end"
        ));
    }
    let settings = settings_after(&lab);
    if let Some(settings) = settings {
        lab.applied = settings.clone();
        lab.settings = settings;
    }
    lab.notice = notice(&ignored, fell_back);
    lab
}

/// The default lab, with the notice of a link that could not be used.
fn default_with_notice(ignored: &[String]) -> Lab {
    let mut lab = Lab::default();
    lab.notice = notice(ignored, true);
    lab
}

/// The notice for what a link's reading ignored.
pub fn notice(ignored: &[String], fell_back: bool) -> Option<String> {
    if ignored.is_empty() {
        return None;
    }
    let list = ignored.join("; ");
    Some(if fell_back {
        format!(
            "This link could not be used ({list}), so Rollout Lab shows the default scenario instead."
        )
    } else {
        format!("Parts of this link were ignored: {list}. The rest of it is shown.")
    })
}

/// A short title for an embedded session: `web: 3 replicas, RollingUpdate 25% / 25%`.
pub fn title_of(lab: &Lab) -> String {
    let s = &lab.applied;
    let name = first_create(&lab.base).map_or("web", |d| d.name.as_str());
    let strategy = match s.strategy {
        StrategyKind::RollingUpdate => format!(
            "RollingUpdate, maxSurge {} / maxUnavailable {}",
            s.max_surge.trim(),
            s.max_unavailable.trim()
        ),
        StrategyKind::Recreate => "Recreate".to_string(),
    };
    format!("{name}: {} replicas, {strategy}", s.replicas.trim())
}

/// The address an iframe embeds a session at: `page?embed…` with the options, `&k8s=1.28`
/// when the session runs another release than the app's default, and the permalink.
pub fn iframe_src(page: &str, fragment: &str, options: &EmbedOptions) -> String {
    let k8s = k8s_of_link(fragment).map_or(String::new(), |v| format!("&k8s={v}"));
    format!("{page}?{}{k8s}#{fragment}", options.query())
}

/// The `<iframe>` snippet that embeds a session: `page` is the app's address (without query or
/// fragment), `fragment` the session's permalink.
pub fn iframe_snippet(page: &str, fragment: &str, options: &EmbedOptions, title: &str) -> String {
    let src = iframe_src(page, fragment, options);
    format!(
        "<iframe src=\"{}\" width=\"800\" height=\"500\" style=\"border: 0; max-width: 100%;\" loading=\"lazy\" title=\"Rollout Lab: {}\"></iframe>",
        html_attr(&src),
        html_attr(title)
    )
}

/// The same session as a `<rollout-lab>` element, for a page that loads the module (README,
/// "On a documentation page"): the script tag (the module beside the app at `page`) and the
/// element with the permalink and the options as attributes.
pub fn element_snippet(page: &str, fragment: &str, options: &EmbedOptions, title: &str) -> String {
    let dir = &page[..page.rfind('/').map_or(0, |i| i + 1)];
    let mut attrs = format!(
        "link=\"#{}\" buttons=\"{}\"",
        html_attr(fragment),
        options.names()
    );
    if let Some(v) = k8s_of_link(fragment) {
        attrs.push_str(&format!(" k8s=\"{v}\""));
    }
    if !options.chart {
        attrs.push_str(" chart=\"0\"");
    }
    if !options.explain {
        attrs.push_str(" explain=\"0\"");
    }
    format!(
        "<script type=\"module\" src=\"{}rollout-lab.js\"></script>\n<rollout-lab {attrs} label=\"Rollout Lab: {}\"></rollout-lab>",
        html_attr(dir),
        html_attr(title)
    )
}

/// The address "Copy link" gives for a session's permalink `fragment`: `page#fragment`, with
/// `?k8s=1.28` when the session runs another release than the app's default, so the link says
/// it where a reader sees it (the scenario in the fragment says it too).
pub fn link_url(page: &str, fragment: &str) -> String {
    match k8s_of_link(fragment) {
        Some(v) => format!("{page}?k8s={v}#{fragment}"),
        None => format!("{page}#{fragment}"),
    }
}

/// The release a permalink's session runs when it is not the app's default (`1.28`).
fn k8s_of_link(fragment: &str) -> Option<&'static str> {
    link_kubernetes(fragment)
        .filter(|v| *v != KubernetesVersion::DEFAULT)
        .map(KubernetesVersion::as_str)
}

/// Escapes text for a double-quoted HTML attribute.
pub fn html_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The app's address for a page address: without query and fragment (and `index.html`).
pub fn app_address(href: &str) -> String {
    let end = href.find(['?', '#']).unwrap_or(href.len());
    let base = &href[..end];
    base.strip_suffix("index.html").unwrap_or(base).to_string()
}

/// The lab `?lesson=ID[&step=N]` or `?challenge=ID` asks for, in the query or in a
/// permalink's fragment (`#…&lesson=ID&step=N`, N 1-based); `None` without either, or for an
/// unknown id.
pub fn lab_from_query(search: &str) -> Option<Lab> {
    let query = search.strip_prefix('?').unwrap_or(search);
    let param = |key: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
    };
    if let Some(id) = param("lesson") {
        let step = param("step")
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(1);
        return Lab::from_lesson(id, step.saturating_sub(1));
    }
    Lab::from_challenge(param("challenge")?)
}

/// `search` (with its leading `lead`, `?` or `#`) without the parameters that open a lesson
/// or challenge (`lesson`, `step`, `challenge`): `?lesson=rolling-update&step=3` → ``,
/// `#v=2&p=x&lesson=bad-image&step=2` → `#v=2&p=x`.
pub fn without_guide(search: &str, lead: char) -> String {
    let body = search.strip_prefix(lead).unwrap_or(search);
    let kept: Vec<&str> = body
        .split('&')
        .filter(|kv| {
            let key = kv.split_once('=').map_or(*kv, |(k, _)| k);
            !kv.is_empty() && !matches!(key, "lesson" | "step" | "challenge")
        })
        .collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("{lead}{}", kept.join("&"))
    }
}

/// What `?lesson=ID` or `?challenge=ID` names when there is no such lesson or challenge:
/// `the unknown lesson `nope``, for the page's notice (`None` when the query names none).
pub fn unknown_in_query(search: &str) -> Option<String> {
    let query = search.strip_prefix('?').unwrap_or(search);
    query.split('&').find_map(|kv| {
        let (key, id) = kv.split_once('=')?;
        let id = rollout_facade::share::unescape(id);
        let known = match key {
            "lesson" => rollout_facade::lessons::lesson(&id).is_some(),
            "challenge" => rollout_facade::lessons::challenges::challenge(&id).is_some(),
            _ => return None,
        };
        (!known).then(|| {
            format!(
                "the unknown {key} `{}`",
                rollout_facade::limits::prefix(&id, 40)
            )
        })
    })
}

/// The lab an app or embed starts with: a permalink fragment wins, then a scenario, then a
/// preset (an unknown preset starts the default, saying so).
pub fn start_lab(link: Option<&str>, scenario: Option<&Scenario>, preset: Option<&str>) -> Lab {
    if let Some(lab) = link.and_then(lab_from_link) {
        return lab;
    }
    Lab::starting(scenario, preset).unwrap_or_else(|id| {
        let mut lab = Lab::default();
        lab.notice = Some(format!(
            "There is no preset called \"{id}\"; showing the default scenario."
        ));
        lab
    })
}

/// The lab the full app starts from: a lesson or challenge the fragment `hash` or the
/// query `search` names (`#…&lesson=ID&step=N`, `?lesson=ID`, `?challenge=ID`), else the
/// session of the permalink `hash` if there is one (a damaged one: what could be read, and a
/// notice); a permalink's scenario says its Kubernetes version, else the query's `k8s`
/// does ([`with_query_kubernetes`]). See `crate::boot::start_page`.
pub fn page_lab(hash: &str, search: &str) -> Option<Lab> {
    if let Some(lab) = link_lab(hash) {
        return Some(lab);
    }
    let lab = lab_from_query(search)
        .or_else(|| unknown_in_query(search).map(|why| default_with_notice(&[why])));
    with_query_kubernetes(lab, search)
}

/// The lab a permalink fragment holds: a lesson or challenge it reopens (under the Kubernetes
/// version of the scenario it carries) or its session; `None` without one.
pub fn link_lab(hash: &str) -> Option<Lab> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    match lab_from_query(fragment) {
        Some(lab) => Some(match link_kubernetes(fragment) {
            Some(k8s) => lab.at_kubernetes(k8s),
            None => lab,
        }),
        None => lab_from_link(hash),
    }
}

/// The Kubernetes version of the scenario a permalink fragment carries (`s=`; absent from
/// it: 1.28, as the scenario format says); `None` when it carries none.
fn link_kubernetes(fragment: &str) -> Option<KubernetesVersion> {
    parse_params(fragment)
        .iter()
        .any(|(k, _)| k == "s")
        .then(|| {
            decode_link(fragment, &default_scenario()).map_or(KubernetesVersion::DEFAULT, |r| {
                r.value.scenario.kubernetes_version
            })
        })
}

/// `k8s=` of a page's query (`?k8s=1.28`, `?embed&k8s=1.28`), read by the core's one reader;
/// `None` when the query has none.
pub fn kubernetes_in_query(search: &str) -> Option<Result<KubernetesVersion, String>> {
    let query = search.strip_prefix('?').unwrap_or(search);
    parse_params(query)
        .into_iter()
        .find(|(k, _)| k == "k8s")
        .map(|(_, v)| kubernetes_of(&v))
}

/// `lab` (the first visit when `None`) under the Kubernetes version the query `search` asks
/// for (`?k8s=1.28`), with the notice of a version Rollout Lab does not model; `lab` as it is
/// when the query names none.
pub fn with_query_kubernetes(lab: Option<Lab>, search: &str) -> Option<Lab> {
    match kubernetes_in_query(search) {
        None => lab,
        Some(Ok(k8s)) => Some(lab.unwrap_or_else(Lab::first_visit).at_kubernetes(k8s)),
        Some(Err(why)) => {
            let mut lab = lab.unwrap_or_else(Lab::first_visit);
            let extra = format!(
                "The link's k8s was ignored ({why}), so it shows Kubernetes {}.",
                lab.kubernetes()
            );
            lab.notice = Some(match lab.notice.take() {
                Some(n) => format!("{n} {extra}"),
                None => extra,
            });
            Some(lab)
        }
    }
}

/// Which dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The permalink.
    Link,
    /// The iframe snippet.
    Embed,
}

/// A session as the share dialog needs it, taken when a button is pressed.
#[derive(Clone, Debug, PartialEq)]
pub struct ShareSession {
    /// Its scenario as JSON (the Export text).
    pub json: String,
    /// Its permalink fragment (version 2, `crate::share::link_of` without the lesson).
    pub link: String,
    /// The preset it started from.
    pub preset: String,
    /// A title for an embed.
    pub title: String,
    /// The lesson followed and its step (0-based): the link reopens it there.
    pub lesson: Option<(&'static str, usize)>,
    /// Compare's variant (B) while comparing: the link reopens Compare with it.
    pub compare: Option<crate::settings::Settings>,
}

/// The permalink fragment (without `#`) of a session for `which` dialog: its scenario run for
/// its steps, the preset it started from, `&lesson=ID&step=N` when it follows a lesson and, in
/// the link only, `&cmp=…` while comparing (an embed shows one stage: it has no Compare).
pub fn fragment_of(session: &ShareSession, which: Which) -> Result<String, String> {
    Scenario::from_json(&session.json).map_err(|e| e.to_string())?;
    let link = with_lesson(session.link.clone(), session.lesson);
    Ok(match (&session.compare, which) {
        (Some(v), Which::Link) => crate::state::compare::with_param(&link, Some(v)),
        _ => link,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_points() {
        assert_eq!(start_lab(None, None, Some("recreate")).preset, "recreate");
        let lab = start_lab(None, None, Some("nope"));
        assert_eq!(lab.preset, "custom");
        assert!(lab.notice.unwrap().contains("no preset called \"nope\""));
        let lab = start_lab(Some("#p=rolling-basic&at=3"), None, Some("recreate"));
        assert_eq!(
            (lab.preset.as_str(), lab.sim().steps_taken()),
            ("rolling-basic", 3)
        );
        let s = rollout_facade::presets::preset("recreate")
            .unwrap()
            .scenario;
        assert_eq!(
            start_lab(Some("#nothing"), Some(&s), None).preset,
            "imported"
        );
        // Nothing given: the first visit, its Deployment running and the image change due.
        let lab = start_lab(None, None, None);
        assert_eq!(lab.preset, rollout_facade::presets::FIRST_VISIT);
        assert!(lab.started() && lab.session().can_step());
        assert_eq!(lab.session().pending().len(), 1);
        assert_eq!(start_lab(None, None, Some("custom")).sim().steps_taken(), 0);
    }

    /// `?k8s=1.28` starts the page under 1.28 (the first visit, a lesson); a permalink keeps
    /// the version of its session; a version Rollout Lab does not model is said, not guessed.
    #[test]
    fn the_kubernetes_version_in_the_address_and_in_links() {
        use rollout_facade::version::KubernetesVersion as K;
        let first = page_lab("", "?k8s=1.28").unwrap();
        assert_eq!(first.kubernetes(), K::V1_28);
        assert_eq!(first.preset, rollout_facade::presets::FIRST_VISIT);
        assert!(first.started() && first.session().can_step());
        assert!(
            page_lab("", "").is_none(),
            "the app's own first visit: 1.37"
        );
        assert_eq!(page_lab("", "?k8s=v1.37.0").unwrap().kubernetes(), K::V1_37);
        let lesson = page_lab("", "?lesson=recreate&step=2&k8s=1.28").unwrap();
        assert_eq!(lesson.kubernetes(), K::V1_28);
        assert!(lesson.guide.is_some());
        // A preset's short link (`#p=…&at=…`) opens the preset as the app runs it.
        let short = page_lab("#p=rolling-basic&at=3", "").unwrap();
        assert_eq!(
            (short.kubernetes(), short.preset.as_str()),
            (K::V1_37, "rolling-basic")
        );
        assert_eq!(short.sim().steps_taken(), 3);
        let long = page_lab(&format!("#{}", link_of(&short)), "").unwrap();
        assert_eq!(long.sim().scenario(), short.sim().scenario());
        let bad = page_lab("", "?k8s=1.30").unwrap();
        assert_eq!(bad.kubernetes(), K::V1_37);
        let said = bad.notice.unwrap();
        assert!(
            said.contains("1.30") && said.contains("1.37 and 1.28"),
            "{said}"
        );
        // The share link keeps the version: the scenario it carries says it.
        for k in K::ALL {
            let mut lab = Lab::from_preset("rolling-basic").unwrap().at_kubernetes(k);
            lab.update(Msg::UpdateImage);
            lab.update(Msg::Step);
            let link = link_of(&lab);
            let back = page_lab(&format!("#{link}"), "").unwrap();
            assert_eq!(back.kubernetes(), k, "{link}");
            assert_eq!(back.settings.kubernetes, k);
            assert_eq!(back.sim().steps_taken(), lab.sim().steps_taken());
            // The link wins over the address's k8s (it holds the whole session).
            let other = if k == K::V1_28 {
                "?k8s=1.37"
            } else {
                "?k8s=1.28"
            };
            assert_eq!(
                page_lab(&format!("#{link}"), other).unwrap().kubernetes(),
                k
            );
            // "Copy link", the iframe and the element say a release other than the default.
            let page = "https://example.com/lab/";
            let (url, iframe, element) = (
                link_url(page, &link),
                iframe_src(page, &link, &EmbedOptions::default()),
                element_snippet(page, &link, &EmbedOptions::default(), "t"),
            );
            if k == K::V1_28 {
                assert_eq!(url, format!("{page}?k8s=1.28#{link}"));
                assert_eq!(iframe, format!("{page}?embed&k8s=1.28#{link}"));
                assert!(element.contains(" k8s=\"1.28\""), "{element}");
                assert_eq!(kubernetes_in_query("?k8s=1.28"), Some(Ok(K::V1_28)));
            } else {
                assert_eq!(url, format!("{page}#{link}"));
                assert_eq!(iframe, format!("{page}?embed#{link}"));
                assert!(!element.contains("k8s="), "{element}");
                assert!(link.contains("k8s:'1.37'"), "the scenario says it: {link}");
            }
            // A lesson's link reopens the lesson under its version.
            let lesson = Lab::from_lesson_at("recreate", 1, k).unwrap();
            let back = page_lab(&format!("#{}", link_of(&lesson)), "").unwrap();
            assert_eq!((back.kubernetes(), back.guide.is_some()), (k, true));
        }
    }

    #[test]
    fn a_lesson_link_reopens_the_lesson_at_its_step() {
        assert_eq!(without_guide("?lesson=rolling-update&step=3", '?'), "");
        assert_eq!(without_guide("?view=plan&challenge=x", '?'), "?view=plan");
        assert_eq!(
            without_guide("#v=2&p=x&lesson=bad-image&step=2", '#'),
            "#v=2&p=x"
        );
        assert_eq!(without_guide("", '#'), "");
        let lab = lab_from_query("?lesson=rolling-update&step=3").unwrap();
        let link = link_of(&lab);
        assert!(link.ends_with("&lesson=rolling-update&step=3"), "{link}");
        let back = lab_from_query(&link).unwrap();
        assert_eq!(back.guide, lab.guide);
        assert_eq!(back.sim().steps_taken(), lab.sim().steps_taken());
        assert!(lab_from_query("?challenge=tight-band")
            .unwrap()
            .guide
            .is_some());
        assert!(lab_from_query("?lesson=nope").is_none());
        assert_eq!(
            unknown_in_query("?lesson=nope").as_deref(),
            Some("the unknown lesson `nope`")
        );
        assert_eq!(unknown_in_query("?lesson=rolling-update"), None);
        assert_eq!(unknown_in_query("?embed"), None);
        assert!(lab_from_query("p=rolling-basic&at=3").is_none());
    }

    /// The share dialog's link (made from the Export text, as the app makes it) carries the
    /// lesson and its step too, and opens where the session was.
    #[test]
    fn the_share_dialog_link_carries_the_lesson_and_step() {
        let mut lab = lab_from_query("?lesson=proportional-scaling&step=2").unwrap();
        lab.update(Msg::LessonNext);
        let json = serde_json::to_string_pretty(lab.sim().scenario()).unwrap();
        let session = session_of(&lab, json.clone());
        assert_eq!(session.lesson, Some(("proportional-scaling", 2)));
        let fragment = fragment_of(&session, Which::Link).unwrap();
        assert!(
            fragment.ends_with("&lesson=proportional-scaling&step=3"),
            "{fragment}"
        );
        assert_eq!(fragment, link_of(&lab));
        let back = lab_from_query(&fragment).unwrap();
        assert_eq!(back.guide, lab.guide);
        assert_eq!(back.sim().steps_taken(), lab.sim().steps_taken());
        // Outside a lesson, no lesson in the link.
        let plain = Lab::from_preset("rolling-basic").unwrap();
        let fragment = fragment_of(&session_of(&plain, json), Which::Link).unwrap();
        assert!(!fragment.contains("lesson="), "{fragment}");
    }

    /// While comparing, the link reopens Compare with B (`cmp=`); the embed, which shows one
    /// stage, does not carry it.
    #[test]
    fn only_the_link_carries_compare() {
        let lab = Lab::from_preset("rolling-basic").unwrap();
        let json = serde_json::to_string_pretty(lab.sim().scenario()).unwrap();
        let mut variant = crate::settings::Settings::from_scenario(lab.sim().scenario())
            .unwrap()
            .0;
        variant.max_surge = "1".into();
        let session = ShareSession {
            compare: Some(variant),
            ..session_of(&lab, json)
        };
        let link = fragment_of(&session, Which::Link).unwrap();
        assert!(link.contains("&cmp=RollingUpdate,1,"), "{link}");
        let embed = fragment_of(&session, Which::Embed).unwrap();
        assert!(!embed.contains("cmp="), "{embed}");
        assert_eq!(embed, crate::state::compare::with_param(&link, None));
    }
    use crate::settings::Field;
    use crate::state::{Frame, Msg};

    /// What a lab shows, with the count of single syncs (a version-2 link carries it, so the
    /// restored session runs the idle rounds its original ran rather than skipping them).
    fn shown(lab: &Lab) -> impl PartialEq + std::fmt::Debug {
        let f = Frame::of(lab);
        (
            f.round,
            f.time,
            f.steps,
            f.cluster.clone(),
            f.pending.clone(),
        )
    }

    fn run_rounds(lab: &mut Lab, n: u32) {
        for _ in 0..n {
            lab.update(Msg::StepRound);
        }
    }

    #[test]
    fn a_session_survives_its_link() {
        let mut lab = Lab::default();
        lab.update(Msg::Edit(Field::Replicas, "5".into()));
        lab.update(Msg::Edit(Field::MaxSurge, "1".into()));
        lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
        run_rounds(&mut lab, 3);
        lab.update(Msg::UpdateImage);
        run_rounds(&mut lab, 2);
        lab.update(Msg::Step);
        lab.update(Msg::Edit(Field::Replicas, "7".into()));
        lab.update(Msg::ApplySpec);
        lab.update(Msg::Step);
        let link = link_of(&lab);
        let back = lab_from_link(&format!("#{link}")).expect("a session");
        assert_eq!(back.notice, None);
        assert_eq!(back.preset, "custom");
        assert_eq!(*back.sim().scenario(), *lab.sim().scenario());
        assert_eq!(shown(&back), shown(&lab));
        assert_eq!(back.settings.replicas, "7");
        assert_eq!(back.settings.max_surge, "1");
        assert_eq!(back.settings, back.applied);
        assert!(!back.settings.spec_differs(&lab.applied));
    }

    /// Steps skip idle rounds, so a link that counted single syncs reopened earlier: after
    /// 3 Rounds, Update image, 3 Rounds, Step, Step (5 replicas, surge 1, unavailable 0)
    /// web-rev2 had 1 ready pod, and a format-1 link reopened it with 0. Version 2 keeps it.
    #[test]
    fn a_link_after_idle_rounds_reopens_at_the_moment_it_showed() {
        let mut lab = Lab::default();
        lab.update(Msg::Edit(Field::Replicas, "5".into()));
        lab.update(Msg::Edit(Field::MaxSurge, "1".into()));
        lab.update(Msg::Edit(Field::MaxUnavailable, "0".into()));
        run_rounds(&mut lab, 3);
        lab.update(Msg::UpdateImage);
        run_rounds(&mut lab, 3);
        lab.update(Msg::Step);
        lab.update(Msg::Step);
        let link = link_of(&lab);
        assert!(link.contains("&v=2"), "{link}");
        let back = lab_from_link(&format!("#{link}")).expect("a session");
        assert_eq!(back.notice, None);
        let (a, b) = (Frame::of(&lab), Frame::of(&back));
        let rev2 = |f: &Frame| {
            f.replica_sets
                .iter()
                .find(|r| r.name == "web-rev2")
                .map(|r| (r.ready, r.available))
        };
        assert_eq!(rev2(&a), Some((1, 1)), "the moment the repro shows");
        assert_eq!(rev2(&b), rev2(&a));
        assert_eq!((b.round, b.time), (a.round, a.time));
        assert_eq!(shown(&back), shown(&lab));
        let pods = |l: &Lab| {
            l.sim()
                .api()
                .pods()
                .map(|p| (**p).clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(pods(&back), pods(&lab));
    }

    #[test]
    fn the_controller_reaction_survives_the_link() {
        // The default is settled; one round per hop shows in the link and reopens so.
        let default = link_of(&Lab::default());
        for instant in [false, true] {
            let mut lab = Lab::default();
            lab.update(Msg::SetInstantReactions(instant));
            run_rounds(&mut lab, 4);
            let link = link_of(&lab);
            assert_eq!(link.contains("settle"), instant, "{link}");
            let back = lab_from_link(&format!("#{link}")).unwrap();
            assert_eq!(back.session().instant_reactions(), instant, "{link}");
            assert_eq!(back.settings.instant_reactions, instant);
            assert_eq!(Frame::of(&back).cluster, Frame::of(&lab).cluster);
        }
        assert!(default.contains("settle"), "{default}");
        // A link without `settle` (every link made before settled rounds) stays lock-step.
        let old = lab_from_link(
            "#s=(n:rollout-lab,nd:3,a:!((t:c,d:(n:web,i:'nginx:1.14.2',rp:3))))&at=4",
        )
        .unwrap();
        assert!(!old.session().instant_reactions());
    }

    #[test]
    fn presets_keep_their_name() {
        let mut lab = Lab::from_preset("bad-image-stuck").unwrap();
        run_rounds(&mut lab, 6);
        let back = lab_from_link(&link_of(&lab)).unwrap();
        assert_eq!(back.preset, "bad-image-stuck");
        assert_eq!(shown(&back), shown(&lab));
        let short = lab_from_link("#p=recreate&at=7").unwrap();
        assert_eq!(short.preset, "recreate");
        assert_eq!(short.sim().steps_taken(), 7);
    }

    #[test]
    fn broken_links_say_so_and_fall_back() {
        let lab = lab_from_link("#s=(n:x,a:!((t:teleport)))&at=5").unwrap();
        let notice = lab.notice.clone().unwrap();
        assert!(
            notice.starts_with("This link could not be used ("),
            "{notice}"
        );
        assert!(
            notice.ends_with("shows the default scenario instead."),
            "{notice}"
        );
        assert_eq!(*lab.sim().scenario(), default_scenario());
        assert_eq!(lab.sim().steps_taken(), 0);

        let lab = lab_from_link("#s=(n:x,sp:-3,a:!((t:c,d:(n:web,i:a,rp:2))))&at=999").unwrap();
        let notice = lab.notice.clone().unwrap();
        assert!(
            notice.starts_with("Parts of this link were ignored: `secondsPerRound: -3`"),
            "{notice}"
        );
        assert!(
            notice.contains("step 999 is past the end of the scenario"),
            "{notice}"
        );
        assert!(lab.sim().finished());
        assert_eq!(lab.settings.replicas, "2");

        let lab = lab_from_link("#s=(a:!((t:c,d:(n:web,i:a,rp:2000000))))&at=3").unwrap();
        let notice = lab.notice.clone().unwrap();
        assert!(
            notice.starts_with("This link could not be used (that scenario cannot be shown: "),
            "{notice}"
        );
        assert_eq!(lab.sim().steps_taken(), 0);

        assert!(lab_from_link("").is_none());
        assert!(lab_from_link("#top").is_none());
    }

    #[test]
    fn the_iframe_snippet() {
        let lab = Lab::default();
        let page = app_address("https://example.com/lab/index.html?x#s=old");
        assert_eq!(page, "https://example.com/lab/");
        let snippet = iframe_snippet(
            &page,
            &link_of(&lab),
            &EmbedOptions::default(),
            &title_of(&lab),
        );
        assert!(
            snippet.starts_with("<iframe src=\"https://example.com/lab/?embed#s=(n:rollout-lab,"),
            "{snippet}"
        );
        assert!(snippet.contains("width=\"800\" height=\"500\""));
        assert!(snippet.contains("title=\"Rollout Lab: web: 3 replicas, RollingUpdate, maxSurge 25% / maxUnavailable 25%\""), "{snippet}");
    }

    #[test]
    fn the_element_snippet() {
        let lab = Lab::default();
        let mut options = EmbedOptions::default();
        options.set_controls(&mut ["step", "maxSurge"].into_iter());
        options.chart = false;
        let fragment = link_of(&lab);
        let snippet = element_snippet(
            "https://example.com/lab/",
            &fragment,
            &options,
            &title_of(&lab),
        );
        let (script, element) = snippet.split_once('\n').unwrap();
        assert_eq!(
            script,
            "<script type=\"module\" src=\"https://example.com/lab/rollout-lab.js\"></script>"
        );
        assert!(
            element.starts_with(&format!(
                "<rollout-lab link=\"#{}\" buttons=\"step,maxSurge\" chart=\"0\" label=\"Rollout Lab: web: 3 replicas",
                html_attr(&fragment)
            )),
            "{element}"
        );
        assert!(element.ends_with("\"></rollout-lab>"));
        // An app served as a page of its own: the module is beside it.
        assert!(
            element_snippet("https://example.com/lab/app", "p=x", &options, "t").starts_with(
                "<script type=\"module\" src=\"https://example.com/lab/rollout-lab.js\">"
            )
        );
    }
}
