//! A lab mounted by JavaScript: [`mount`] into an element, [`mount_element`] into a
//! `<rollout-lab>`'s shadow root, [`mount_page`] for the app page, and the [`MountedLab`] they
//! return. Reading the options is here; drawing the lab is `crate::boot`'s.

use super::{error, js_of, json_of, listener_id, state_of, State};
use crate::boot::{self, page_directory};
use crate::components::embed::EmbedApp;
use crate::export::{chart_svg, trace_json};
use crate::hooks::use_controller::Controller;
use crate::js_input;
use crate::settings::Field;
use crate::share::link_of;
use crate::state::{importable, Frame, Lab, Msg};
use rollout_facade::embed::{EmbedOptions, Given};
use rollout_facade::limits;
use rollout_facade::scenario::Scenario;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::AppHandle;

/// The options of [`mount`].
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MountOptions {
    scenario: Option<serde_json::Value>,
    preset: Option<String>,
    /// A permalink fragment.
    link: Option<String>,
    /// Steps to take at once (with `lesson`: the lesson's step, from 1).
    step: Option<usize>,
    /// Follow this lesson (`rollout_facade::lessons`), from its step `step`.
    lesson: Option<String>,
    /// The Kubernetes version (`"1.28"` or `"1.37"`, the default) of what it starts; a `link`
    /// holds its own.
    k8s: Option<String>,
    /// Embed controls, as names or one comma-separated string.
    controls: Option<Controls>,
    chart: Option<bool>,
    explain: Option<bool>,
    /// The Service and its requests (off by default).
    traffic: Option<bool>,
    /// "Open in Rollout Lab" goes here (default: the page's directory; false: no link).
    app_url: Option<AppUrl>,
    /// The panels' heading level (`EmbedAppProps::heading`); a `<rollout-lab>`'s
    /// `heading-level`, not an option of `mount()`.
    #[serde(skip)]
    heading: Option<u8>,
}

impl MountOptions {
    /// What the embed shows, from `controls`, `chart`, `explain` and `traffic` (the core's one
    /// reading).
    fn embed(&self) -> EmbedOptions {
        let controls = self.controls.as_ref().map(|c| match c {
            Controls::List(l) => Given::List(l),
            Controls::Text(t) => Given::Text(t),
        });
        EmbedOptions::from_fields(controls, self.chart, self.explain, self.traffic)
    }
}

/// An "Open in Rollout Lab" address as given: http(s) or relative, never another scheme
/// (`javascript:alert(1)` would become the link's href).
fn app_url_checked(url: String) -> Result<String, JsError> {
    let scheme = url
        .find([':', '/', '?', '#'])
        .filter(|&i| url[i..].starts_with(':'))
        .map(|i| url[..i].trim().to_ascii_lowercase());
    match scheme.as_deref() {
        None | Some("http") | Some("https") => Ok(url),
        Some(s) => Err(error(format!(
            "Invalid app-url \"{url}\": an http(s) or relative address, not {s}:"
        ))),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Controls {
    List(Vec<String>),
    Text(String),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AppUrl {
    Url(String),
    Off(bool),
}

/// A lab mounted into an element by [`mount`]: drive it, read it, hear it, unmount it.
#[wasm_bindgen]
pub struct MountedLab {
    controller: Controller,
    handle: RefCell<Option<AppHandle<EmbedApp>>>,
}

/// The setting `set()` names: a field of the form, by its scenario key (`replicas`, `maxSurge`,
/// `readyAfterRounds`, …).
fn field_of(name: &str) -> Option<Field> {
    Field::SPEC
        .into_iter()
        .chain(Field::MODEL)
        .chain(Field::TRAFFIC)
        .find(|f| f.as_str() == name)
}

/// A lab's state for JavaScript: the simulation's, plus the settings' problems and the notice.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LabState<'a> {
    #[serde(flatten)]
    sim: State<'a>,
    preset: &'a str,
    playing: bool,
    notice: Option<&'a str>,
    problems: Option<String>,
    pending: Vec<String>,
    /// Why nothing more will happen (`null`: a step would still change something).
    settled: Option<rollout_facade::session::Settled>,
}

fn lab_state(lab: &Lab) -> Result<JsValue, JsError> {
    let session = lab.session();
    let problems = lab.problems();
    let frame = Frame::of(lab);
    let pending = frame.pending.into_iter().map(|p| p.command).collect();
    js_of(&LabState {
        sim: state_of(&session),
        preset: &lab.preset,
        playing: lab.playing,
        notice: lab.notice.as_deref(),
        problems: (!problems.is_empty()).then(|| problems.summary.clone()),
        pending,
        settled: frame.settled,
    })
}

#[wasm_bindgen]
impl MountedLab {
    fn send(&self, msg: Msg) -> Result<(), JsError> {
        if self.handle.borrow().is_none() || !self.controller.dispatch(msg) {
            return Err(error("this lab has been unmounted"));
        }
        Ok(())
    }

    fn read<R>(&self, f: impl FnOnce(&Lab) -> Result<R, JsError>) -> Result<R, JsError> {
        self.controller
            .with_lab(f)
            .unwrap_or_else(|| Err(error("this lab has been unmounted")))
    }

    /// One step: to the next change in the cluster (a controller's sync that changed an
    /// object, a kubelet pass, or the pending commands applied), running through the time in
    /// which nothing changes. Does nothing when nothing more will happen (`state().settled`
    /// says why). The `Simulation` class keeps single syncs.
    pub fn step(&self) -> Result<(), JsError> {
        self.send(Msg::Step)
    }

    /// Runs until nothing more will happen: the rollout complete, stalled (progress deadline
    /// exceeded, paused, blocked) or a limit reached; `state().notice` says which.
    pub fn end(&self) -> Result<(), JsError> {
        self.send(Msg::ToEnd)
    }

    /// One step back.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&self) -> Result<(), JsError> {
        self.send(Msg::StepBack)
    }

    /// The rest of this round (or a whole round at its start), changes or not.
    #[wasm_bindgen(js_name = stepRound)]
    pub fn step_round(&self) -> Result<(), JsError> {
        self.send(Msg::StepRound)
    }

    /// Back to the start of this round (or the previous one).
    #[wasm_bindgen(js_name = backRound)]
    pub fn back_round(&self) -> Result<(), JsError> {
        self.send(Msg::BackRound)
    }

    /// Starts playing: a step to the next change every half second at the default speed,
    /// until nothing more will happen.
    pub fn play(&self) -> Result<(), JsError> {
        if self.read(|l| Ok(l.playing))? {
            return Ok(());
        }
        self.send(Msg::TogglePlay)
    }

    /// Pauses.
    pub fn pause(&self) -> Result<(), JsError> {
        if !self.read(|l| Ok(l.playing))? {
            return Ok(());
        }
        self.send(Msg::TogglePlay)
    }

    /// Starts over from the current settings.
    pub fn reset(&self) -> Result<(), JsError> {
        self.send(Msg::Reset)
    }

    /// `kubectl set image` to the next version (as the "Roll out" button).
    #[wasm_bindgen(js_name = rollOut)]
    pub fn roll_out(&self) -> Result<(), JsError> {
        self.send(Msg::UpdateImage)
    }

    /// Sets a setting (`replicas`, `maxSurge`, `maxUnavailable`, `strategy`, `minReadySeconds`,
    /// `nodes`, `kubernetesVersion` …) as if typed, and applies it as kubectl would once the
    /// rollout has started (the cluster model and the Kubernetes version: on Reset).
    /// Returns the problem with the settings, if any (an invalid value is not applied).
    pub fn set(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | number")] value: JsValue,
    ) -> Result<Option<String>, JsError> {
        let name = js_input::text(&name, "set", "the setting's name").map_err(error)?;
        let value = match value.as_f64() {
            Some(n) => js_input::number(n),
            None => js_input::text(&value, "set", "the value").map_err(error)?,
        };
        if name == "kubernetesVersion" {
            // Like the cluster model: at once before the first step, on Reset afterwards.
            return match crate::settings::kubernetes_of(&value) {
                Ok(v) => self.send(Msg::SetKubernetes(v)).map(|()| None),
                Err(why) => Ok(Some(why)),
            };
        }
        let field = field_of(&name).ok_or_else(|| {
            error(format!(
                "there is no setting called `{}`",
                limits::prefix(&name, 40)
            ))
        })?;
        self.send(Msg::Edit(field, limits::prefix(&value, 200)))?;
        self.send(Msg::ApplySpec)?;
        self.read(|l| {
            let p = l.problems();
            Ok((!p.is_empty()).then(|| p.summary.clone()))
        })
    }

    /// The state now (as `Simulation.state()`, plus `preset`, `playing`, `notice`, `problems`
    /// and the `pending` commands).
    #[wasm_bindgen(unchecked_return_type = "RolloutLabState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        self.read(lab_state)
    }

    /// The session as a scenario (what Export gives, and `rollout trace` replays).
    pub fn scenario(&self) -> Result<JsValue, JsError> {
        self.read(|l| js_of(l.sim().scenario()))
    }

    /// The trace so far, in the conformance format.
    pub fn trace(&self) -> Result<JsValue, JsError> {
        self.read(|l| js_of(&l.sim().trace()))
    }

    /// The trace so far as JSON text.
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> Result<String, JsError> {
        self.read(|l| Ok(trace_json(&l.sim())))
    }

    /// The pod chart as a standalone SVG document.
    #[wasm_bindgen(js_name = chartSvg)]
    pub fn chart_svg(&self) -> Result<String, JsError> {
        self.read(|l| {
            let f = Frame::of(l);
            let band = f
                .cluster
                .deployments
                .first()
                .is_none_or(|d| d.strategy == "RollingUpdate");
            Ok(chart_svg(
                &f.chart,
                f.horizon,
                band,
                &format!("Pods over time: {}", f.deployment),
            ))
        })
    }

    /// The session's permalink fragment (without `#`).
    pub fn link(&self) -> Result<String, JsError> {
        self.read(|l| Ok(link_of(l)))
    }

    /// Calls `listener(state)` after every change has been drawn (a step, a step back, a
    /// reset, an edit …); returns an id for `offStep`.
    #[wasm_bindgen(js_name = onStep)]
    pub fn on_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(state: RolloutLabState) => void")]
        listener: JsValue,
    ) -> Result<u32, JsError> {
        let listener = js_input::function(&listener, "onStep").map_err(error)?;
        Ok(self.controller.subscribe(move |lab| {
            if let Ok(state) = lab_state(lab) {
                if let Err(e) = listener.call1(&JsValue::NULL, &state) {
                    web_sys::console::error_2(&"Rollout Lab: an onStep listener threw".into(), &e);
                }
            }
        }))
    }

    /// Stops calling a listener.
    #[wasm_bindgen(js_name = offStep)]
    pub fn off_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] id: JsValue,
    ) -> Result<(), JsError> {
        if let Some(id) = listener_id(&id)? {
            self.controller.unsubscribe(id);
        }
        Ok(())
    }

    /// Removes the lab from its element (emptied as soon as the current task ends). Further
    /// calls throw.
    pub fn unmount(&self) {
        if let Some(h) = self.handle.borrow_mut().take() {
            h.destroy();
        }
        self.controller.detach();
    }
}

/// Mounts the embeddable lab into `element`. Options (all optional): where to start
/// (`scenario`, `preset` or `link`, and `step`: steps to take at once), `controls` (names from
/// `step, round, play, image, reset, strategy, replicas, maxSurge, maxUnavailable`, as a list or
/// one comma-separated string), `chart` and `explain` (booleans, default true), `traffic` (the
/// Service and its requests, default false), `k8s` (the Kubernetes version, `"1.28"` or
/// `"1.37"`, the default; a `link` holds its own) and `appUrl`
/// (where "Open in Rollout Lab" goes: default the page's directory; false for no link). The
/// page must load `app.css` and `embed.css` from beside this module. Throws on a bad option or
/// scenario.
#[wasm_bindgen]
pub fn mount(
    #[wasm_bindgen(unchecked_param_type = "Element")] element: JsValue,
    options: JsValue,
) -> Result<MountedLab, JsError> {
    let element: web_sys::Element = element.dyn_into().map_err(|v| {
        error(format!(
            "mount takes an element to draw into, not {}",
            js_input::kind(&v)
        ))
    })?;
    let options: MountOptions = if options.is_undefined() || options.is_null() {
        MountOptions::default()
    } else {
        serde_json::from_value(json_of(options, "the options")?)
            .map_err(|e| error(format!("Invalid mount options: {e}")))?
    };
    if let Some(step) = options.step.filter(|&n| n > limits::MAX_LINK_STEPS) {
        return Err(error(format!(
            "Invalid mount options: step {step} is more than {}, the most steps a link replays",
            limits::group(limits::MAX_LINK_STEPS as i64)
        )));
    }
    let embed = options.embed();
    mount_with(element, options, embed, page_directory)
}

/// Mounts the lab `options` describe into `element`, showing what `embed` says; "Open in
/// Rollout Lab" goes to `default_app` unless the options say otherwise.
fn mount_with(
    element: web_sys::Element,
    options: MountOptions,
    mut embed: EmbedOptions,
    default_app: impl Fn() -> String,
) -> Result<MountedLab, JsError> {
    let scenario = match options.scenario {
        Some(v) => {
            let s =
                Scenario::from_value(&v).map_err(|e| error(format!("Invalid scenario: {e}")))?;
            importable(&s).map_err(|e| error(format!("Invalid scenario: {e}")))?;
            Some(Rc::new(s))
        }
        None => None,
    };
    if let Some(p) = &options.preset {
        if rollout_facade::presets::preset(p).is_none() && p != "custom" {
            return Err(error(format!("there is no preset called `{p}`")));
        }
    }
    let k8s = match options.k8s.as_deref().map(crate::settings::kubernetes_of) {
        Some(Ok(v)) => v,
        Some(Err(why)) => return Err(error(format!("Invalid k8s: {why}"))),
        None => rollout_facade::version::KubernetesVersion::DEFAULT,
    };
    let lesson = match &options.lesson {
        Some(id) => Some(
            Lab::from_lesson_at(id, options.step.unwrap_or(1).saturating_sub(1), k8s)
                .ok_or_else(|| error(format!("there is no lesson called `{id}`")))?,
        ),
        None => None,
    };
    let steps = if lesson.is_some() {
        0
    } else {
        options.step.unwrap_or(0)
    };
    // As a link's `&at=`: more steps than a link may replay would hold the page.
    let limit = rollout_facade::share::MAX_LINK_STEPS;
    if steps > limit {
        return Err(error(format!(
            "Invalid step {steps}: at most {limit} steps are taken at once"
        )));
    }
    let mut lab = lesson.unwrap_or_else(|| {
        let lab = crate::share::start_lab(
            options.link.as_deref(),
            scenario.as_deref(),
            options.preset.as_deref(),
        );
        // A link's scenario says its version; a given scenario, a preset or the first visit
        // run under `k8s` (default 1.37).
        match (&options.link, &options.k8s, &scenario) {
            (Some(_), _, _) | (None, None, Some(_)) => lab,
            _ => lab.at_kubernetes(k8s),
        }
    });
    if embed.traffic {
        lab.show_traffic();
    }
    for _ in 0..steps {
        if lab.sim().finished() {
            break;
        }
        lab.update(Msg::Step);
    }
    // An unknown control is refused here; an unknown `view` (the `?embed` page notes it) is
    // not: the element shows the lab as if it had none.
    if let Some(unknown) = embed.unknown_controls() {
        return Err(error(format!("Invalid mount options: {unknown}")));
    }
    embed.ignored = Vec::new();
    let app_url = match options.app_url {
        None | Some(AppUrl::Off(true)) => Some(default_app()),
        Some(AppUrl::Url(u)) => Some(app_url_checked(u)?),
        Some(AppUrl::Off(false)) => None,
    };
    let (controller, handle) =
        boot::mount_embed(element, lab, embed, app_url, options.heading.unwrap_or(2));
    Ok(MountedLab {
        controller,
        handle: RefCell::new(Some(handle)),
    })
}

/// Draws the lab of a `<rollout-lab>` element into its shadow root (made here, with the
/// stylesheets it needs): the element's attributes are `mount`'s options (`preset`, `link`,
/// `buttons` or `controls` (empty, as a minifier leaves `controls="step,play"`: the default
/// controls), `chart="0"`, `explain="0"`, `traffic`, `step`, `app-url`, `lesson` (with `step`: the
/// lesson's step, from 1), `k8s` (`1.28` or `1.37`), `heading-level` (default none); `theme` is CSS on the host and
/// `autoplay` the element script's, which plays once the element is scrolled into view). The element's script (`web/js/element.js`) calls it
/// once the element is connected and the module instantiated, and keeps the handle.
#[wasm_bindgen(js_name = mountElement)]
pub fn mount_element(
    #[wasm_bindgen(unchecked_param_type = "HTMLElement")] host: JsValue,
) -> Result<MountedLab, JsError> {
    let host: web_sys::HtmlElement = host.dyn_into().map_err(|v| {
        error(format!(
            "mountElement takes an element, not {}",
            crate::js_input::kind(&v)
        ))
    })?;
    let attr = |name: &str| host.get_attribute(name);
    let step = match attr("step") {
        Some(v) => Some(
            v.trim()
                .parse::<usize>()
                .map_err(|_| error(format!("Invalid step=\"{v}\": a number of steps")))?,
        ),
        None => None,
    };
    let options = MountOptions {
        scenario: None,
        preset: attr("preset"),
        link: attr("link"),
        step,
        lesson: attr("lesson"),
        k8s: attr("k8s"),
        app_url: match attr("app-url") {
            Some(v) if !rollout_facade::embed::is_on(&v) => Some(AppUrl::Off(false)),
            Some(v) => Some(AppUrl::Url(v)),
            None => None,
        },
        heading: Some(match attr("heading-level") {
            Some(v) => match v.trim().parse::<u8>() {
                Ok(n) if n <= 6 => n,
                _ => {
                    return Err(error(format!(
                        "Invalid heading-level=\"{v}\": 1 to 6, or 0 for none"
                    )))
                }
            },
            None => 0,
        }),
        ..MountOptions::default()
    };
    // `buttons` or `controls`, `chart`, `explain`, `traffic`, `view`, `race`, `steps`, `show`: the core's reading.
    let embed = EmbedOptions::from_attributes(attr);
    let root = boot::element::shadow_root(&host).map_err(error)?;
    // `autoplay` is the element's script's: it plays once the element is seen.
    mount_with(root, options, embed, boot::element::module_directory)
}

/// What the app's page (`index.html`) runs once the module is instantiated: with `?embed` in
/// the address, the embed layout with the controls the query asks for; otherwise the full app
/// (`crate::boot::start_page`).
#[wasm_bindgen(js_name = mountPage)]
pub fn mount_page() -> Result<(), JsError> {
    boot::start_page().map_err(error)
}
