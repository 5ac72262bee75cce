//! The Races view (`?view=races`, issue #26): the API server's truth and each controller's
//! cache side by side as three small stages, the ReplicaSet controller's pending expectations
//! beside its cache, one button (and key) per step, the walk-through's note and the caption in
//! the controllers' words, a timeline, and the counterfactuals ("without expectations", "last
//! write wins") replayed on the same steps beside the real controllers. Everything it shows
//! comes from the core's race explorer (`crate::state::races`).

use crate::components::race_search::RaceSearchPanel;
use crate::state::races::{RaceLab, RaceMsg, KINDS};
use rollout_facade::embed::RaceLink;
use rollout_facade::races::{CacheView, Mode, PodCounts, RaceFrame, Seen, Step, WALKTHROUGHS};
use serde_json::Value;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`RacesView`].
#[derive(Properties, PartialEq, Clone)]
pub struct RacesViewProps {
    /// Where it starts (a permalink's walk-through and steps).
    #[prop_or_default]
    pub link: RaceLink,
    /// In the embed layout (an iframe's `?embed&view=races` or `<rollout-lab view="races">`):
    /// no document-wide keys, the address left alone, "Open in Rollout Lab" to `app_url`.
    #[prop_or_default]
    pub embed: bool,
    /// The full app's address, for "Open in Rollout Lab" in an embed.
    #[prop_or_default]
    pub app_url: Option<AttrValue>,
    /// The whole page (`?embed` in an iframe): its title is the page's `<h1>`.
    #[prop_or_default]
    pub page: bool,
    /// The level of its title's heading (2 in the app; the parts below it one level down
    /// each); 0 for no headings and no regions, as inside a `<rollout-lab>` without
    /// `heading-level`, whose view must not join the host page's outline (`level`). A page's
    /// (`page`) title is `<h1>` whatever this says.
    #[prop_or(2)]
    pub heading: u8,
}

/// The ARIA level of a title `depth` levels below the view's own at `heading`; `None` (no
/// heading) when `heading` is 0. The view's titles are `role="heading"` with this level, and
/// its parts `role="region"` only when it has headings.
fn level(heading: u8, depth: u8) -> Option<String> {
    (heading != 0).then(|| (heading + depth).min(6).to_string())
}

/// `role="heading"` when `level` is one.
fn heading_role(level: &Option<String>) -> Option<&'static str> {
    level.as_ref().map(|_| "heading")
}

/// A step kind in a learner's words.
fn words(step: &Step) -> &'static str {
    match step {
        Step::SyncDc => "Deployment controller syncs",
        Step::SyncRs => "ReplicaSet controller syncs",
        Step::DeliverDc => "Deployment controller's cache catches up",
        Step::DeliverRs => "ReplicaSet controller's cache catches up",
        Step::Kubelet => "Kubelet runs",
        Step::Tick => "One second passes",
        Step::SetImage(_) => "kubectl set image",
    }
}

/// Loads what "Find a race" found: its schedule as the steps taken, its mode shown, and brings
/// the stages (`modes`) into view, the search's panel being under them.
fn found(d: UseReducerDispatcher<RaceLab>, modes: NodeRef) -> Callback<(Vec<String>, Mode)> {
    Callback::from(move |(schedule, mode): (Vec<String>, Mode)| {
        let steps = schedule
            .iter()
            .filter_map(|t| Step::parse(t).ok())
            .collect();
        d.dispatch(RaceMsg::Load(steps, mode));
        if let Some(el) = modes.cast::<web_sys::Element>() {
            el.scroll_into_view();
        }
    })
}

/// The Races view.
#[function_component(RacesView)]
pub fn races_view(props: &RacesViewProps) -> Html {
    let lab = use_reducer(|| RaceLab::from_link(&props.link));
    let modes = use_node_ref();
    crate::hooks::use_race_keys(!props.embed, lab.dispatcher());
    {
        // The address is the permalink of this moment (the app page only).
        let (query, embed) = (lab.query(), props.embed);
        use_effect_with(query, move |q| {
            if !embed {
                crate::hooks::use_plan_page::set_query(&format!("?{q}"), false);
            }
        });
    }
    let send = |m: RaceMsg| {
        let d = lab.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(m.clone()))
    };
    let frames = lab.frames();
    let real = &frames[0];
    let h = if props.page { 1 } else { props.heading };
    let open = props
        .app_url
        .as_ref()
        .map(|base| format!("{base}?{}", lab.query()));
    html! {
        <@{if props.embed { "div" } else { "main" }} class={classes!("races-page", props.embed.then_some("races-embed"))}
            role={(props.embed && h != 0).then_some("region")} data-testid="races-view"
            aria-labelledby={(h != 0).then_some("races-title")} data-steps={real.steps_taken.to_string()}>
            { head(&lab, open, h) }
            if let Some(n) = &lab.notice {
                <div class="notice" role="alert" data-testid="race-notice">
                    <span>{ n.clone() }</span>
                    <button type="button" class="btn btn-small" onclick={send(RaceMsg::Dismiss)} aria-label="Dismiss">{ "OK" }</button>
                </div>
            }
            <div class="race-top">
                <div>
                    { controls(&lab, &send) }
                    { timeline(&lab, &send, h != 0) }
                </div>
                { story(&lab, real, h) }
            </div>
            { race_legend() }
            <div ref={modes.clone()} class={classes!("race-modes", (frames.len() > 1).then_some("race-modes-several"))}>
                { for frames.iter().map(|f| mode_panel(f, real, h)) }
            </div>
            // "Find a race", under the stages (they come first on a projector): the search in the
            // page's Worker, on this walk-through's cluster; a counterexample is loaded as the
            // steps taken, and the view shows it from the top.
            <div class="race-search-box">
                <p class="race-search-lead"><strong>{ "Find a race: " }</strong>
                    { "search every schedule of this cluster, to a depth, for one that breaks a promise." }</p>
                <RaceSearchPanel scenario={Rc::new(Value::String(lab.walk.id.to_string()))}
                    on_found={found(lab.dispatcher(), modes)} region={h != 0} />
            </div>
            { footnote(props.embed) }
        </@>
    }
}

/// The view's title: the `?embed` page's `<h1>`, a heading of the level asked for elsewhere.
const TITLE: &str = "Races: two controllers, two caches that lag";

/// The title, the walk-through picker and, in an embed, "Open in Rollout Lab".
fn head(lab: &UseReducerHandle<RaceLab>, open: Option<String>, heading: u8) -> Html {
    let title = level(heading, 0);
    let on_pick = {
        let d = lab.dispatcher();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            d.dispatch(RaceMsg::Pick(select.value()));
        })
    };
    html! {
        <div class="races-head">
            <div>
                if heading == 1 {
                    <h1 class="panel-title" id="races-title">{ TITLE }</h1>
                } else {
                    <p class="panel-title" id="races-title" role={heading_role(&title)} aria-level={title.clone()}>{ TITLE }</p>
                }
                <p class="panel-sub">{ lab.walk.summary }</p>
            </div>
            <label class="field-label" for="race-walk">{ "Walk-through" }</label>
            <select id="race-walk" class="field-input" data-testid="race-walk" onchange={on_pick}>
                { for WALKTHROUGHS.iter().map(|w| html! {
                    <option value={w.id} selected={w.id == lab.walk.id}>{ w.title }</option>
                }) }
            </select>
            if let Some(href) = open {
                <a class="btn btn-small" href={href} target="_blank" rel="noopener" data-testid="race-open">{ "Open in Rollout Lab" }</a>
            }
        </div>
    }
}

/// Next, Back, one button per step kind, the counterfactual switches.
fn controls(
    lab: &UseReducerHandle<RaceLab>,
    send: &dyn Fn(RaceMsg) -> Callback<MouseEvent>,
) -> Html {
    let x = &lab.explorer;
    let next = x.next_scripted();
    let switch = |mode: Mode| {
        let on = lab.shown.contains(&mode);
        let title = if mode == Mode::Guarded {
            "Replay the same steps with the controllers of Kubernetes 1.36 and later, whose ReplicaSet controller waits until its cache holds its own writes (the Deployment controller does not)".to_string()
        } else {
            format!(
                "Replay the same steps {}, beside the real controllers",
                mode.label()
            )
        };
        html! {
            <button type="button" class={classes!("btn", "btn-toggle", on.then_some("is-on"))} data-testid={format!("race-{}", mode.id())}
                aria-pressed={if on { "true" } else { "false" }} onclick={send(RaceMsg::Toggle(mode))}
                {title}>
                { crate::explain::capitalise(mode.label()) }
            </button>
        }
    };
    html! {
        <div class="race-controls" role="group" aria-label="Steps">
            <button type="button" class="btn btn-primary" data-testid="race-next" disabled={next.is_none()}
                onclick={send(RaceMsg::Next)} aria-keyshortcuts="N">
                { "Next in the walk-through" }
                <small>{ next.map_or_else(|| "(end of its schedule)".to_string(), |s| s.to_string()) }</small>
            </button>
            <button type="button" class="btn" data-testid="race-back" disabled={x.steps().is_empty()}
                onclick={send(RaceMsg::Back)} aria-keyshortcuts="B">{ "Back" }</button>
            <div class="race-switches" role="group" aria-label="Beside the real controllers">
                { switch(Mode::WithoutExpectations) }
                { switch(Mode::LastWriteWins) }
                { switch(Mode::Guarded) }
            </div>
            <div class="race-kinds">
                { for KINDS.iter().enumerate().map(|(i, k)| html! {
                    <button type="button" class="btn race-kind" data-testid={format!("race-step-{k}")}
                        onclick={send(RaceMsg::Step(k.clone()))} aria-keyshortcuts={(i + 1).to_string()}>
                        <span><kbd aria-hidden="true">{ i + 1 }</kbd>{ words(k) }</span><small>{ k.to_string() }</small>
                    </button>
                }) }
            </div>
        </div>
    }
}

/// The steps taken; a click goes back to just after one.
fn timeline(
    lab: &UseReducerHandle<RaceLab>,
    send: &dyn Fn(RaceMsg) -> Callback<MouseEvent>,
    landmark: bool,
) -> Html {
    let steps = lab.explorer.steps();
    let n = steps.len();
    let item = |i: usize, label: String| {
        html! {
            <li><button type="button" class="race-tick" aria-current={(i == n).then_some("step")}
                onclick={send(RaceMsg::GoTo(i))}>{ label }</button></li>
        }
    };
    html! {
        <div role={landmark.then_some("navigation")} aria-label={landmark.then_some("Steps taken")}>
            <ol class="race-timeline" data-testid="race-timeline">
                { item(0, "setup".to_string()) }
                { for steps.iter().enumerate().map(|(i, s)| item(i + 1, format!("{} {s}", i + 1))) }
            </ol>
        </div>
    }
}

/// The step just taken: the walk-through's note and the caption in the controllers' words.
fn story(lab: &RaceLab, f: &RaceFrame, heading: u8) -> Html {
    html! {
        <div class="race-story" role={(heading != 0).then_some("region")} aria-label={(heading != 0).then_some("What the step did")}>
            <p class="race-at" data-testid="race-at">
                <strong>{ match &f.step {
                    Some(s) => format!("Step {}: {s}", f.steps_taken),
                    None => "Just after the setup".to_string(),
                } }</strong>
                { format!(" · t = {} s", f.time) }
            </p>
            if let Some(note) = lab.note() {
                <p class="race-note" data-testid="race-note"><strong>{ "Watch: " }</strong>{ note }</p>
            }
            <ul class="race-caption" aria-live="polite" data-testid="race-caption">
                { for f.caption.iter().map(|l| html! { <li>{ l.clone() }</li> }) }
            </ul>
        </div>
    }
}

/// One mode: its errors and broken promises, what its caption says that the real one's does
/// not, and the three stages.
fn mode_panel(f: &RaceFrame, real: &RaceFrame, heading: u8) -> Html {
    let (title, stage_title) = (level(heading, 1), level(heading, 2));
    let key = f.mode.id();
    let own: Vec<&String> = f
        .caption
        .iter()
        .filter(|l| f.mode != Mode::Real && !real.caption.contains(l))
        .filter(|l| !l.starts_with("Promise broken"))
        .collect();
    html! {
        <div class={classes!("race-mode", format!("race-mode-{key}"))} role={(heading != 0).then_some("region")} data-testid={format!("race-mode-{key}")}
            aria-label={(heading != 0).then_some(f.mode.label())}>
            <p class="race-mode-title" role={heading_role(&title)} aria-level={title.clone()}>{ crate::explain::capitalise(f.mode.label()) }</p>
            if !own.is_empty() {
                <ul class="race-caption race-caption-own">{ for own.iter().map(|l| html! { <li>{ (*l).clone() }</li> }) }</ul>
            }
            { for f.errors.iter().map(|e| html! {
                <p class="race-alert race-error" data-testid="race-error"><strong>{ "Refused: " }</strong>{ e.clone() }</p>
            }) }
            { for f.violations.iter().map(|v| html! {
                <p class="race-alert race-violation" data-testid="race-violation"><strong>{ "Promise broken: " }</strong>{ v.clone() }</p>
            }) }
            <div class="race-stages">
                <div class="race-stage" data-testid="race-truth">
                    <p class="race-stage-title" role={heading_role(&stage_title)} aria-level={stage_title.clone()}>{ "API server " }<small>{ "(the truth)" }</small></p>
                    { for f.truth.iter().map(|t| rs_card(&t.name, &Seen { cached: t.spec_replicas, truth: None },
                        &Seen { cached: t.pods, truth: None }, &Seen { cached: t.available_replicas, truth: None }, None)) }
                </div>
                { cache_stage(&f.deployment_cache, "race-dc-cache", Html::default(), &stage_title) }
                { cache_stage(&f.replica_set_cache, "race-rs-cache", expectations(f, level(heading, 3)), &stage_title) }
            </div>
        </div>
    }
}

/// A value as a cache sees it: the truth's beside it when they differ ("2 · truth 3").
fn seen(cached: i64, truth: Option<i64>) -> Html {
    html! { <>
        <b>{ cached }</b>
        if let Some(t) = truth {
            <span class="race-stale-val">{ format!(" · truth {t}") }</span>
        }
    </> }
}

/// One controller's cache: its Deployments (the Deployment controller's), its ReplicaSets,
/// those it has not seen, and `extra` (the expectations).
fn cache_stage(c: &CacheView, testid: &'static str, extra: Html, title: &Option<String>) -> Html {
    html! {
        <div class={classes!("race-stage", c.stale().then_some("is-stale"))} data-testid={testid}>
            <p class="race-stage-title" role={heading_role(title)} aria-level={title.clone()}>{ format!("{}'s cache", c.owner) }
                if c.stale() { <span class="race-stale-tag">{ "behind the API server" }</span> }
            </p>
            { for c.deployments.iter().map(|d| {
                let f = |label: &'static str, s: Seen<i64>| html! { <span>{ label }{ seen(s.cached, s.truth) }</span> };
                let w = |s: Seen<i32>| Seen { cached: i64::from(s.cached), truth: s.truth.map(i64::from) };
                html! {
                    <p class="race-deploy" data-testid="race-deployment" data-generation={d.generation.cached.to_string()}
                        data-observed={d.observed_generation.cached.to_string()} data-replicas={d.spec_replicas.cached.to_string()}
                        data-updated={d.updated_replicas.cached.to_string()} data-available={d.available_replicas.cached.to_string()}>
                        <span class="race-name">{ format!("Deployment {}", d.name) }</span>
                        { f("generation ", d.generation) }{ f("observed ", d.observed_generation) }
                        { f("replicas ", w(d.spec_replicas)) }{ f("updated ", w(d.updated_replicas) ) }
                        { f("available ", w(d.available_replicas)) }
                    </p>
                }
            }) }
            { for c.replica_sets.iter().map(|l| rs_card(&l.name, &l.spec_replicas, &l.pods, &l.available_replicas,
                l.deleted.then_some("deleted on the API server, still in this cache"))) }
            { for c.unseen.iter().map(|n| html! {
                <div class="race-rs race-unseen" data-testid="race-unseen" data-name={n.clone()}>
                    <span class="race-name">{ n.clone() }</span><em>{ "not in this cache yet" }</em>
                </div>
            }) }
            { extra }
        </div>
    }
}

/// A ReplicaSet card: name, spec, its pods as dots, available; stale values with the truth's.
fn rs_card(
    name: &str,
    spec: &Seen<i32>,
    pods: &Seen<PodCounts>,
    available: &Seen<i32>,
    tag: Option<&str>,
) -> Html {
    let counts = |p: &PodCounts| [p.active, p.ready, p.terminating];
    let c = counts(&pods.cached);
    let t = pods.truth.as_ref().map(counts);
    let part = |i: usize| t.map(|t| i64::from(t[i])).filter(|v| *v != i64::from(c[i]));
    let stale = spec.stale() || pods.stale() || available.stale();
    // Not ready, ready, available (as many of the ready ones as the ReplicaSet's status
    // counts available), terminating: the stage's styles, named by the legend.
    let avail = available.cached.clamp(0, c[1]);
    let dots = [
        ("pod-pending", c[0] - c[1]),
        ("pod-ready", c[1] - avail),
        ("pod-available", avail),
        ("pod-terminating", c[2]),
    ]
    .into_iter()
    .flat_map(|(class, n)| std::iter::repeat_n(class, n.clamp(0, 24) as usize));
    let rev = name.rsplit_once("-rev").map_or("", |(_, r)| r);
    html! {
        <div class={classes!("race-rs", stale.then_some("is-stale"), tag.is_some().then_some("is-deleted"))} data-testid="race-rs"
            data-name={name.to_string()} data-spec={spec.cached.to_string()} data-active={c[0].to_string()}
            data-ready={c[1].to_string()} data-terminating={c[2].to_string()} data-available={available.cached.to_string()}>
            <div class="race-rs-head"><span class="race-name">{ name.to_string() }</span>
                if !rev.is_empty() { <small>{ format!("revision {rev}") }</small> }
                if stale { <span class="race-stale-tag">{ "stale" }</span> }
            </div>
            if let Some(tag) = tag { <p class="race-deleted">{ tag }</p> }
            <div class="race-pods" aria-hidden="true">{ for dots.map(|class| html! { <span class={classes!("pod", class)}></span> }) }</div>
            <dl class="race-nums">
                <div><dt>{ "spec" }</dt><dd>{ seen(spec.cached.into(), spec.truth.map(i64::from)) }</dd></div>
                <div><dt>{ "pods" }</dt><dd>{ seen(c[0].into(), part(0)) }</dd></div>
                <div><dt>{ "ready" }</dt><dd>{ seen(c[1].into(), part(1)) }</dd></div>
                <div><dt>{ "terminating" }</dt><dd>{ seen(c[2].into(), part(2)) }</dd></div>
                <div><dt>{ "available" }</dt><dd>{ seen(available.cached.into(), available.truth.map(i64::from)) }</dd></div>
            </dl>
        </div>
    }
}

/// What the pod dots of the ReplicaSet cards mean (the stage's styles).
fn race_legend() -> Html {
    let item = |class: &'static str, label: &'static str| {
        html! {
            <li class="legend-item"><span class={classes!("pod", "pod-sample", class)} aria-hidden="true" />{ label }</li>
        }
    };
    html! {
        <ul class="pod-legend race-legend" data-testid="race-legend" aria-label="Pod dots">
            { item("pod-pending", "Not ready") }
            { item("pod-ready", "Ready, not yet available") }
            { item("pod-available", "Available") }
            { item("pod-terminating", "Terminating") }
        </ul>
    }
}

/// The ReplicaSet controller's pending expectations.
fn expectations(f: &RaceFrame, title: Option<String>) -> Html {
    html! {
        <div class="race-expect" data-testid="race-expectations">
            <p class="race-expect-title" role={heading_role(&title)} aria-level={title.clone()}>{ "Expectations" }</p>
            if f.mode == Mode::WithoutExpectations {
                <p class="race-quiet">{ "none kept: this controller forgets them before each sync" }</p>
            } else if f.expectations.is_empty() {
                <p class="race-quiet">{ "none pending" }</p>
            }
            // Without expectations the controller forgets them before each sync: whatever its
            // last sync wrote down (the trace records it) is nothing it waits for.
            { for f.expectations.iter().filter(|_| f.mode != Mode::WithoutExpectations).map(|e| html! {
                <p data-testid="race-expectation" data-add={e.add.to_string()} data-del={e.del.to_string()}>
                    <span class="race-name">{ e.replica_set.clone() }</span>{ ": " }{ e.text.clone() }
                    <small>{ format!(" (add {}, del {})", e.add, e.del) }</small>
                </p>
            }) }
        </div>
    }
}

/// The keys, and what is real and what is the model.
fn footnote(embed: bool) -> Html {
    html! {
        <p class="footnote race-foot">
            if !embed {
                { "Keys: N the walk-through's next step, B or Backspace back, 1–6 the step kinds. " }
            }
            { "syncDeployment, syncReplicaSet, their pod handlers and expectations, and the API server's 409 Conflict are the ported v1.28.4 code; \"the real controllers, 1.36+\" add the ReplicaSet controller's wait until its cache holds its own writes (KEP-5647; the Deployment controller has none). When each cache catches up is chosen by the schedule (the catch-up steps), not by a network." }
        </p>
    }
}
