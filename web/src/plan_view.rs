//! The Plan view: what `kubectl set image` will do to the Deployment in the manifest, before
//! it is applied. The manifest starts as the settings panel's Deployment and follows it until
//! edited; every keystroke re-forecasts it (the core's planner, as `rollout plan` and `plan()`);
//! a sweep over maxSurge × maxUnavailable (a heat map) and over replicas or minReadySeconds (a
//! line chart) runs in a Web Worker on the same wasm module (`plan-worker.js`), with a
//! progress bar and a Cancel button, so the page never waits for it.
//!
//! The cluster model is the settings panel's: with pods ready after 1 round of 5 s, the
//! manifest is planned with `readyAfter: 5`, `secondsPerRound: 5`, in settled rounds (the
//! controllers react at once, as in a real cluster).

use crate::plan_api::ModelOptions;
use crate::settings::Field;
use crate::state::Msg;
use rollout_core::api::IntOrString;
use rollout_core::plan::input::PlanOutput;
use rollout_core::plan::sweep::SweepRow;
use rollout_core::plan::Forecast;
use rollout_core::scenario::{ActionKind, DeploymentInput, Scenario};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A figure the sweeps are coloured and charted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// `durationSeconds` (lower is better; never completing is worst).
    Duration,
    /// `peakPods` (lower is better: capacity).
    Peak,
    /// `minAvailable` (higher is better).
    MinAvailable,
}

impl Figure {
    /// All, in menu order.
    pub const ALL: [Figure; 3] = [Figure::Duration, Figure::Peak, Figure::MinAvailable];

    /// The `<select>` value.
    pub fn key(self) -> &'static str {
        match self {
            Figure::Duration => "duration",
            Figure::Peak => "peak",
            Figure::MinAvailable => "min-available",
        }
    }

    /// Menu text.
    pub fn label(self) -> &'static str {
        match self {
            Figure::Duration => "Duration (s)",
            Figure::Peak => "Peak pods",
            Figure::MinAvailable => "Lowest availability",
        }
    }

    fn of_key(key: &str) -> Figure {
        Figure::ALL
            .into_iter()
            .find(|f| f.key() == key)
            .unwrap_or(Figure::Duration)
    }

    /// The figure of a forecast (`None`: the rollout never completes, or nothing to say).
    pub fn value(self, f: &Forecast) -> Option<i64> {
        match self {
            Figure::Duration => f.duration_seconds,
            Figure::Peak => Some(i64::from(f.peak_pods)),
            Figure::MinAvailable => f.min_available.map(i64::from),
        }
    }

    /// Whether a larger value is better.
    fn higher_is_better(self) -> bool {
        self == Figure::MinAvailable
    }
}

/// 0 for the best value of a sweep, 1 for the worst: 10 replicas, durations 60 s … 300 s,
/// a cell of 120 s is (120 − 60) / 240 = 0.25.
pub fn badness(figure: Figure, value: i64, (low, high): (i64, i64)) -> f64 {
    if high <= low {
        return 0.0;
    }
    let t = (value - low) as f64 / (high - low) as f64;
    if figure.higher_is_better() {
        1.0 - t
    } else {
        t
    }
}

/// The least and greatest value of `figure` over the rows.
pub fn value_range(rows: &[SweepRow], figure: Figure) -> Option<(i64, i64)> {
    let values = rows
        .iter()
        .filter_map(|r| r.forecast.as_ref().and_then(|f| figure.value(f)));
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((a, b)) => Some((a.min(v), b.max(v))),
    })
}

/// A YAML string scalar: JSON's double-quoted string when it needs quoting (`nginx:1.14.2`
/// does not, `25%` does not, `"yes"` does, and so does `"2"`, which YAML would read as a
/// number), else as it is.
fn scalar(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._/:%".contains(c))
        && !text.starts_with(['-', ':', '%', '.'])
        && !matches!(
            text,
            "true" | "false" | "yes" | "no" | "null" | "on" | "off"
        )
        && text.parse::<f64>().is_err()
        && !text.starts_with("0x")
        && !text.starts_with("0o");
    if plain {
        text.to_string()
    } else {
        Value::String(text.to_string()).to_string()
    }
}

/// The Deployment as a manifest (`kubectl apply -f` input) in YAML: 3 replicas of
/// nginx:1.14.2 with 25% / 25% give `replicas: 3`, `maxSurge: 25%`, `image: nginx:1.14.2`.
pub fn manifest_of(d: &DeploymentInput) -> String {
    use std::fmt::Write;
    let map = |m: Option<&rollout_core::api::StringMap>, indent: &str| -> String {
        match m {
            Some(m) if !m.is_empty() => m
                .iter()
                .map(|(k, v)| format!("{indent}{}: {}\n", scalar(k), scalar(v)))
                .collect(),
            _ => format!("{indent}app: {}\n", scalar(&d.name)),
        }
    };
    let labels = map(d.template_labels.as_ref(), "        ");
    let selector = match d.selector.as_ref() {
        Some(_) => map(d.selector.as_ref(), "      "),
        None => map(d.template_labels.as_ref(), "      "),
    };
    let name = scalar(&d.name);
    let mut out = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {}\n",
        d.replicas.unwrap_or(1)
    );
    if let Some(m) = d.min_ready_seconds {
        let _ = writeln!(out, "  minReadySeconds: {m}");
    }
    if let Some(p) = d.progress_deadline_seconds {
        let _ = writeln!(out, "  progressDeadlineSeconds: {p}");
    }
    let _ = write!(
        out,
        "  selector:\n    matchLabels:\n{selector}  strategy:\n"
    );
    let s = d.strategy.clone().unwrap_or_default();
    match s.type_.as_deref() {
        Some("Recreate") => out.push_str("    type: Recreate\n"),
        _ => {
            let v = |x: Option<IntOrString>| match x.unwrap_or_else(|| IntOrString::from("25%")) {
                IntOrString::Int(n) => n.to_string(),
                IntOrString::String(t) => scalar(&t),
            };
            let _ = write!(
                out,
                "    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: {}\n      maxUnavailable: {}\n",
                v(s.max_surge),
                v(s.max_unavailable)
            );
        }
    }
    let _ = write!(
        out,
        "  template:\n    metadata:\n      labels:\n{labels}    spec:\n      containers:\n      - name: {name}\n        image: {}\n",
        scalar(&d.image)
    );
    out
}

/// The object [`manifest_of`]'s YAML reads as, built directly: the Plan view plans the settings'
/// own manifest from it, so its first forecast needs no YAML reader (crate::yaml_reader). A
/// test reads the YAML with the core's reader and compares.
pub fn manifest_value_of(d: &DeploymentInput) -> Value {
    let map = |m: Option<&rollout_core::api::StringMap>| match m {
        Some(m) if !m.is_empty() => json!(m),
        _ => json!({ "app": d.name }),
    };
    let selector = match d.selector.as_ref() {
        Some(_) => map(d.selector.as_ref()),
        None => map(d.template_labels.as_ref()),
    };
    let mut spec = json!({ "replicas": d.replicas.unwrap_or(1) });
    if let Some(m) = d.min_ready_seconds {
        spec["minReadySeconds"] = json!(m);
    }
    if let Some(p) = d.progress_deadline_seconds {
        spec["progressDeadlineSeconds"] = json!(p);
    }
    spec["selector"] = json!({ "matchLabels": selector });
    let s = d.strategy.clone().unwrap_or_default();
    spec["strategy"] = match s.type_.as_deref() {
        Some("Recreate") => json!({ "type": "Recreate" }),
        _ => {
            let v = |x: Option<IntOrString>| match x.unwrap_or_else(|| IntOrString::from("25%")) {
                IntOrString::Int(n) => json!(n),
                IntOrString::String(t) => json!(t),
            };
            json!({ "type": "RollingUpdate", "rollingUpdate": {
                "maxSurge": v(s.max_surge), "maxUnavailable": v(s.max_unavailable) } })
        }
    };
    spec["template"] = json!({
        "metadata": { "labels": map(d.template_labels.as_ref()) },
        "spec": { "containers": [{ "name": d.name, "image": d.image }] },
    });
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": { "name": d.name },
        "spec": spec,
    })
}

/// What the Plan view plans for the manifest as typed: while it is the settings' own manifest,
/// that manifest's object ([`manifest_value_of`]); else the text, which is read (YAML through
/// the YAML reader's module, loaded when the text is first edited).
pub fn plan_input(text: &str, generated: &str, generated_value: Option<&Value>) -> Value {
    match generated_value {
        Some(v) if text == generated => v.clone(),
        _ => Value::String(text.to_string()),
    }
}

/// The Deployment a scenario creates.
fn created(s: &Scenario) -> Option<&DeploymentInput> {
    s.actions.iter().find_map(|a| match &a.kind {
        ActionKind::Create { deployment } => Some(deployment),
        _ => None,
    })
}

/// The settings' Deployment and cluster model, as the Plan view plans them.
pub fn source_of(s: &Scenario) -> Option<(String, ModelOptions)> {
    let d = created(s)?;
    let spr = s.seconds_per_round.max(1);
    let mut model = ModelOptions::default()
        .with("readyAfter", json!(i64::from(s.ready_after_rounds) * spr))
        .with("secondsPerRound", json!(spr))
        .with("nodes", json!(s.nodes.max(1)))
        .with("termination", json!(i64::from(s.termination_rounds) * spr))
        .with("badImage", json!(!s.never_ready_images.is_empty()));
    if let Some(q) = s.pod_quota {
        model = model.with("podQuota", json!(q));
    }
    Some((manifest_of(d), model))
}

/// The manifest (text, or the object [`plan_input`] gives) with its rolling update's maxSurge
/// and maxUnavailable set (a heat map cell loaded); `Err` when the text is not a manifest.
pub fn with_surge(
    input: &Value,
    surge: &IntOrString,
    unavailable: &IntOrString,
) -> Result<String, String> {
    let mut v = match input {
        Value::String(text) => {
            rollout_core::import::parse_manifest(&crate::yaml_reader::to_json(text)?)?
        }
        other => other.clone(),
    };
    let int_or = |x: &IntOrString| match x {
        IntOrString::Int(n) => json!(n),
        IntOrString::String(s) => json!(s),
    };
    let spec = v
        .get_mut("spec")
        .and_then(Value::as_object_mut)
        .ok_or("the manifest has no spec")?;
    spec.insert(
        "strategy".into(),
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": int_or(surge), "maxUnavailable": int_or(unavailable)}}),
    );
    Ok(rollout_core::yaml::text(&rollout_core::yaml::lines(&v)))
}

/// The line chart's values of an axis around the Deployment's own: replicas from 1 to twice
/// the current (at least 10) in at most 21 steps; minReadySeconds 0 … 60 s by 5.
pub fn line_values(axis: &str, replicas: i32) -> Vec<i32> {
    if axis == "minReadySeconds" {
        return (0..=60).step_by(5).collect();
    }
    let top = (replicas.saturating_mul(2)).clamp(10, 2_000);
    let step = ((top - 1) / 20 + 1).max(1);
    let mut v: Vec<i32> = (1..=top).step_by(step as usize).collect();
    if v.last() != Some(&top) {
        v.push(top);
    }
    v
}

/// The deployment's maxSurge and maxUnavailable as counts (`ResolveFenceposts`): 25% / 25% of
/// 3 replicas is 1 and 0.
pub fn current_cell(d: &DeploymentInput) -> Option<(i32, i32)> {
    let s = d.strategy.clone().unwrap_or_default();
    if s.type_.as_deref() == Some("Recreate") {
        return None;
    }
    let quarter = IntOrString::from("25%");
    rollout_core::deployment::util::resolve_fenceposts(
        Some(s.max_surge.as_ref().unwrap_or(&quarter)),
        Some(s.max_unavailable.as_ref().unwrap_or(&quarter)),
        d.replicas.unwrap_or(1),
    )
    .ok()
    .map(|(su, un)| {
        // ResolveFenceposts turns 0 / 0 into 0 / 1; the cell is the settings as written.
        let written = |x: &Option<IntOrString>| matches!(x, Some(IntOrString::Int(0)));
        if su == 0 && un == 1 && written(&s.max_unavailable) {
            (0, 0)
        } else {
            (su, un)
        }
    })
}

fn int_of(v: &Option<IntOrString>) -> Option<i32> {
    match v {
        Some(IntOrString::Int(n)) => Some(*n),
        _ => None,
    }
}

/// A sweep in the worker: what it has sent so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepState {
    /// Combinations done, of `total`.
    pub done: u32,
    /// Combinations in all.
    pub total: u32,
    /// Still running.
    pub running: bool,
    /// The heat map's rows.
    pub heat: Option<Rc<Vec<SweepRow>>>,
    /// The line chart's rows.
    pub line: Option<Rc<Vec<SweepRow>>>,
    /// The axis of the line chart.
    pub line_axis: String,
    /// The largest maxSurge and maxUnavailable of the heat map.
    pub size: i32,
    /// What went wrong, or that it was cancelled.
    pub message: Option<String>,
    /// Milliseconds the worker took.
    pub ms: Option<f64>,
    /// The manifest the sweep is of.
    pub manifest: String,
}

/// A message from the worker.
pub enum WorkerMsg {
    /// Progress.
    Progress(u32, u32),
    /// A job's rows.
    Rows(String, Vec<SweepRow>),
    /// A job's error.
    Error(String),
    /// All jobs done.
    Done(f64),
    /// Start (fresh state).
    Start(Box<SweepState>),
    /// Cancelled.
    Cancel,
}

impl Reducible for SweepState {
    type Action = WorkerMsg;
    fn reduce(self: Rc<Self>, action: WorkerMsg) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            WorkerMsg::Progress(done, total) => {
                if !s.running {
                    return self;
                }
                s.done = done;
                s.total = total;
            }
            WorkerMsg::Rows(key, rows) => {
                if key == "heat" {
                    s.heat = Some(Rc::new(rows));
                } else {
                    s.line = Some(Rc::new(rows));
                }
            }
            WorkerMsg::Error(m) => s.message = Some(m),
            WorkerMsg::Done(ms) => {
                s.running = false;
                s.ms = Some(ms);
                s.done = s.total;
            }
            WorkerMsg::Start(fresh) => return Rc::new(*fresh),
            WorkerMsg::Cancel => {
                if !s.running {
                    return self;
                }
                s.running = false;
                s.message = Some(format!(
                    "Sweep cancelled after {} of {} combinations.",
                    s.done, s.total
                ));
            }
        }
        Rc::new(s)
    }
}

/// The worker running a sweep (terminated on cancel, on a new sweep and when the view goes).
#[derive(Default)]
struct Running {
    worker: Option<web_sys::Worker>,
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
}

impl Running {
    fn stop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
        self._on_message = None;
    }
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn whole_of(v: &JsValue, key: &str) -> Option<i64> {
    get(v, key).as_f64().map(|f| f as i64)
}

/// A forecast object as `plan()` and `sweep()` give it (read field by field: a serde
/// deserializer for three types would cost the page more than this).
fn forecast_of(v: &JsValue) -> Option<Forecast> {
    Some(Forecast {
        start_round: whole_of(v, "startRound")? as u32,
        complete_round: whole_of(v, "completeRound").map(|r| r as u32),
        duration_seconds: whole_of(v, "durationSeconds"),
        peak_pods: whole_of(v, "peakPods")? as i32,
        min_available: whole_of(v, "minAvailable").map(|n| n as i32),
        deadline_exceeded_round: whole_of(v, "deadlineExceededRound").map(|r| r as u32),
    })
}

/// One row of `sweep()`.
fn row_of(v: &JsValue) -> SweepRow {
    let s = get(v, "settings");
    let int_or = |k: &str| {
        let x = get(&s, k);
        match x.as_f64() {
            Some(n) => Some(IntOrString::Int(n as i32)),
            None => x.as_string().map(IntOrString::String),
        }
    };
    SweepRow {
        settings: rollout_core::plan::sweep::Settings {
            replicas: whole_of(&s, "replicas").map(|n| n as i32),
            max_surge: int_or("maxSurge"),
            max_unavailable: int_or("maxUnavailable"),
            min_ready_seconds: whole_of(&s, "minReadySeconds").map(|n| n as i32),
        },
        forecast: forecast_of(&get(v, "forecast")),
        refused: get(v, "refused").as_string(),
    }
}

/// The object `plan()` returns, as far as the view shows it.
fn plan_output_of(v: &JsValue) -> Option<PlanOutput> {
    Some(PlanOutput {
        forecast: forecast_of(v)?,
        deployment: get(v, "deployment").as_string().unwrap_or_default(),
        seconds_per_round: whole_of(v, "secondsPerRound").unwrap_or(1),
        settle: get(v, "settle").as_bool().unwrap_or(true),
        warnings: js_sys::Array::from(&get(v, "warnings"))
            .iter()
            .filter_map(|w| w.as_string())
            .collect(),
        model: None,
    })
}

fn worker_msg(data: &JsValue) -> Option<WorkerMsg> {
    let kind = get(data, "type").as_string()?;
    let num = |k: &str| get(data, k).as_f64().unwrap_or(0.0);
    Some(match kind.as_str() {
        "progress" => WorkerMsg::Progress(num("done") as u32, num("total") as u32),
        "rows" => WorkerMsg::Rows(
            get(data, "key").as_string().unwrap_or_default(),
            js_sys::Array::from(&get(data, "rows"))
                .iter()
                .map(|r| row_of(&r))
                .collect(),
        ),
        "error" => WorkerMsg::Error(get(data, "message").as_string().unwrap_or_default()),
        "done" => WorkerMsg::Done(num("ms")),
        _ => return None,
    })
}

fn js(v: &Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::UNDEFINED)
}

/// How much a forecast costs, roughly: pods × (waves of the rolling update + 3, for creating
/// the pods and their first becoming available). 100 replicas with maxSurge 1 and
/// maxUnavailable 0 is 100 waves, 10,300; it takes about 40 ms in the page.
pub fn forecast_cost(d: &DeploymentInput) -> i64 {
    let replicas = i64::from(d.replicas.unwrap_or(1).max(1));
    let waves = match current_cell(d) {
        Some((surge, unavailable)) => {
            let step = i64::from(surge.max(0) + unavailable.max(0)).max(1);
            (replicas + step - 1) / step
        }
        None => 1,
    };
    replicas * (waves + 3)
}

/// Above this cost a forecast runs in the worker, so a keystroke never holds the page (about
/// 150 ms of work in the page at 100 replicas' pace).
pub const PAGE_FORECAST_LIMIT: i64 = 40_000;

/// Starts a worker on the plan-worker protocol's `message`; what it posts goes to `on_data`.
fn spawn_worker(
    running: &Rc<RefCell<Running>>,
    message: Value,
    mut on_data: impl FnMut(&JsValue, &std::rc::Weak<RefCell<Running>>) + 'static,
) -> Result<(), String> {
    running.borrow_mut().stop();
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("./plan-worker.js", &options)
        .map_err(|_| "This browser cannot start the sweep's worker.".to_string())?;
    let weak = Rc::downgrade(running);
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            on_data(&e.data(), &weak)
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker
        .post_message(&js(&message))
        .map_err(|_| "The job could not be sent to its worker.".to_string())?;
    *running.borrow_mut() = Running {
        worker: Some(worker),
        _on_message: Some(on_message),
    };
    Ok(())
}

/// Terminates the worker once the current message has been handled.
fn stop_soon(weak: &std::rc::Weak<RefCell<Running>>) {
    if let Some(r) = weak.upgrade() {
        gloo_timers::callback::Timeout::new(0, move || r.borrow_mut().stop()).forget();
    }
}

/// Starts the worker on sweep `jobs`; its messages go to `state`.
fn start_worker(
    running: &Rc<RefCell<Running>>,
    jobs: Value,
    state: UseReducerDispatcher<SweepState>,
) -> Result<(), String> {
    spawn_worker(running, jobs, move |data, weak| {
        if let Some(m) = worker_msg(data) {
            let done = matches!(m, WorkerMsg::Done(_));
            state.dispatch(m);
            if done {
                stop_soon(weak);
            }
        }
    })
}

/// A forecast computed in the worker: for which manifest and model, and what came back.
type Remote = Option<(String, Result<PlanOutput, String>)>;

/// Forecasts `input` in a worker (a big Deployment); the result goes to `remote` under `key`.
fn start_plan(
    running: &Rc<RefCell<Running>>,
    key: String,
    input: &str,
    model: &ModelOptions,
    remote: UseStateHandle<Remote>,
) {
    let job = json!({"plan": {"key": key, "input": input, "options": model.to_value()}});
    let k = key.clone();
    let started = spawn_worker(running, job, move |data, weak| {
        let result = match get(data, "error").as_string() {
            Some(e) => Err(e),
            None => plan_output_of(&get(data, "result"))
                .ok_or_else(|| "the worker's forecast could not be read".to_string()),
        };
        remote.set(Some((k.clone(), result)));
        stop_soon(weak);
    });
    if let Err(e) = started {
        web_sys::console::error_1(&e.into());
    }
}

/// The header's "Plan" button: scrolls the Plan view into view and focuses its manifest.
pub fn reveal_plan() -> Callback<MouseEvent> {
    Callback::from(|_: MouseEvent| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(el) = doc.get_element_by_id("plan") {
            el.scroll_into_view();
        }
        if let Some(area) = doc
            .get_element_by_id("plan-manifest")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            area.focus().ok();
        }
    })
}

/// Props of [`PlanView`].
#[derive(Properties, PartialEq, Clone)]
pub struct PlanViewProps {
    /// The scenario the settings panel describes (its first create is the Deployment).
    pub source: Option<Rc<Scenario>>,
    /// To load a heat map cell's settings into the settings panel.
    pub on_msg: Callback<Msg>,
}

fn fig_text(v: Option<impl std::fmt::Display>, unit: &str) -> String {
    v.map_or_else(|| "—".to_string(), |v| format!("{v}{unit}"))
}

fn opt_attr(v: Option<impl std::fmt::Display>) -> String {
    v.map_or_else(|| "null".to_string(), |v| v.to_string())
}

fn forecast_panel(out: &Result<PlanOutput, String>, ms: f64) -> Html {
    match out {
        Err(e) => html! {
            <div class="plan-error" role="alert" data-testid="plan-error">{ e.clone() }</div>
        },
        Ok(o) => {
            let f = &o.forecast;
            let duration = match f.duration_seconds {
                Some(s) => format!("{s} s"),
                None => "never completes".to_string(),
            };
            html! {
                <div class="plan-forecast" data-testid="forecast"
                    data-start-round={f.start_round.to_string()}
                    data-complete-round={opt_attr(f.complete_round)}
                    data-duration-seconds={opt_attr(f.duration_seconds)}
                    data-peak-pods={f.peak_pods.to_string()}
                    data-min-available={opt_attr(f.min_available)}
                    data-deadline-exceeded-round={opt_attr(f.deadline_exceeded_round)}
                    data-ms={if ms < 0.0 { "worker".to_string() } else { crate::chart::fmt(ms) }}>
                    <dl class="plan-figures">
                        { for [
                            ("Rollout takes", duration),
                            ("Peak pods", f.peak_pods.to_string()),
                            ("Lowest availability", fig_text(f.min_available, "")),
                            ("Deadline exceeded", f.deadline_exceeded_round.map_or("no".to_string(), |r| format!("round {r}"))),
                        ].into_iter().map(|(dt, dd)| html! {
                            <div class="plan-figure"><dt>{ dt }</dt><dd>{ dd }</dd></div>
                        }) }
                    </dl>
                    <p class="panel-sub plan-rounds">{ format!(
                        "Image set in round {}; {}; {} s rounds, settled.",
                        f.start_round,
                        f.complete_round.map_or("never complete".to_string(), |r| format!("complete in round {r}")),
                        o.seconds_per_round
                    ) }</p>
                    if !o.warnings.is_empty() {
                        <ul class="plan-warnings">
                            { for o.warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }
                        </ul>
                    }
                </div>
            }
        }
    }
}

/// `text` for HTML text and attribute values.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The heat map's cells as markup (a grid of up to 441 buttons is written as text rather
/// than built element by element: smaller code, and clicks, hovers and focus are handled once
/// on the grid, see `PlanView`). Rows are maxUnavailable (0 at the top), columns maxSurge.
fn heat_cells(rows: &[SweepRow], figure: Figure, size: i32, current: Option<(i32, i32)>) -> String {
    use std::fmt::Write;
    let range = value_range(rows, figure);
    let n = (size + 1) as usize;
    let mut out = String::from(r#"<div class="heat-corner" aria-hidden="true">U \ S</div>"#);
    for s in 0..n {
        let _ = write!(
            out,
            r#"<div class="heat-head" aria-hidden="true">{s}</div>"#
        );
    }
    for u in 0..n {
        let _ = write!(
            out,
            r#"<div class="heat-head" aria-hidden="true">{u}</div>"#
        );
        for row in (0..n).filter_map(|s| rows.get(s * n + u)) {
            let su = int_of(&row.settings.max_surge).unwrap_or(0);
            let un = int_of(&row.settings.max_unavailable).unwrap_or(0);
            let value = row.forecast.as_ref().and_then(|f| figure.value(f));
            let (class, style, text) = match (&row.forecast, value, range) {
                (None, _, _) => (" refused", String::new(), "×".to_string()),
                (Some(_), None, _) => (" never", String::new(), "∞".to_string()),
                (Some(_), Some(v), Some(r)) => (
                    "",
                    format!("--t:{}", crate::chart::fmt(badness(figure, v, r))),
                    v.to_string(),
                ),
                (Some(_), Some(v), None) => ("", String::new(), v.to_string()),
            };
            let title = match (&row.forecast, &row.refused) {
                (_, Some(why)) => format!("maxSurge {su}, maxUnavailable {un}: refused: {why}"),
                (Some(f), _) => format!(
                    "maxSurge {su}, maxUnavailable {un}: {}, peak {} pods, lowest availability {}",
                    f.duration_seconds
                        .map_or("never completes".into(), |s| format!("{s} s")),
                    f.peak_pods,
                    fig_text(f.min_available, "")
                ),
                _ => String::new(),
            };
            let is_current = current == Some((su, un));
            let title = esc(&title);
            let _ = write!(
                out,
                r#"<button type="button" role="gridcell" class="sweep-cell{class}{}" style="{style}" title="{title}" aria-label="{title}" data-testid="sweep-cell" data-max-surge="{su}" data-max-unavailable="{un}" data-value="{}"{}{}>{text}</button>"#,
                if is_current { " is-current" } else { "" },
                value.map_or("null".to_string(), |v| v.to_string()),
                if is_current {
                    r#" aria-current="true""#
                } else {
                    ""
                },
                if row.refused.is_some() {
                    r#" data-refused="true" disabled"#
                } else {
                    ""
                },
            );
        }
    }
    out
}

/// The line chart of `figure` against the swept axis, as SVG markup.
fn line_chart(rows: &[SweepRow], figure: Figure, axis: &str, current: Option<i32>) -> String {
    use crate::chart::fmt;
    use std::fmt::Write;
    let pts: Vec<(i64, Option<i64>)> = rows
        .iter()
        .map(|r| {
            let x = match axis {
                "minReadySeconds" => r.settings.min_ready_seconds,
                _ => r.settings.replicas,
            }
            .unwrap_or(0);
            (
                i64::from(x),
                r.forecast.as_ref().and_then(|f| figure.value(f)),
            )
        })
        .collect();
    let (w, h, l, r, t, b) = (440.0, 200.0, 44.0, 12.0, 12.0, 34.0);
    let x_max = pts.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    let x_min = pts.iter().map(|p| p.0).min().unwrap_or(0) as f64;
    let y_top = pts.iter().filter_map(|p| p.1).max().unwrap_or(1).max(1) as f64;
    let step = {
        let raw = (y_top / 4.0).max(1.0);
        let mut mag = 1.0;
        while mag * 10.0 <= raw {
            mag *= 10.0;
        }
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * mag)
            .find(|s| raw <= *s)
            .unwrap_or(10.0 * mag)
    };
    let y_max = (y_top / step).ceil() * step;
    let span = (x_max - x_min).max(1.0);
    let xp = |x: i64| fmt(l + (w - l - r) * (x as f64 - x_min) / span);
    let yp = |y: i64| fmt((h - b) - (h - b - t) * y as f64 / y_max);
    let label = if axis == "minReadySeconds" {
        "minReadySeconds"
    } else {
        "replicas"
    };
    let (x0, x1, y0) = (fmt(l), fmt(w - r), fmt(h - b));
    let mut out = format!(
        r#"<svg class="chart-svg plan-line" viewBox="0 0 {w} {h}" role="img" data-testid="sweep-line" aria-label="{} against {label}">"#,
        figure.label()
    );
    let mut v = 0.0;
    while v <= y_max + 0.5 {
        let y = yp(v as i64);
        let _ = write!(
            out,
            r#"<g class="grid"><line x1="{x0}" x2="{x1}" y1="{y}" y2="{y}"/><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
            fmt(l - 6.0),
            fmt((h - b) - (h - b - t) * v / y_max + 4.0),
            v as i64
        );
        v += step;
    }
    for p in pts.iter().step_by((pts.len() / 6).max(1)) {
        let _ = write!(
            out,
            r#"<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            xp(p.0),
            fmt(h - b + 16.0),
            p.0
        );
    }
    let _ = write!(
        out,
        r#"<text class="axis-title" x="{}" y="{}" text-anchor="middle">{label}</text><line class="axis" x1="{x0}" x2="{x1}" y1="{y0}" y2="{y0}"/>"#,
        fmt((l + w - r) / 2.0),
        fmt(h - 4.0)
    );
    if let Some(c) = current {
        let x = xp(i64::from(c));
        let _ = write!(
            out,
            r#"<line class="plan-line-current" x1="{x}" x2="{x}" y1="{}" y2="{y0}"/>"#,
            fmt(t)
        );
    }
    // Runs of points with a value (a rollout that never completes breaks the line).
    for run in pts.split(|p| p.1.is_none()).filter(|r| !r.is_empty()) {
        let points: Vec<String> = run
            .iter()
            .map(|(x, y)| format!("{},{}", xp(*x), yp(y.unwrap_or(0))))
            .collect();
        let _ = write!(
            out,
            r#"<polyline class="series series-new" points="{}"/>"#,
            points.join(" ")
        );
    }
    for (x, y) in &pts {
        let _ = match y {
            Some(y) => write!(
                out,
                r#"<circle class="plan-point" cx="{}" cy="{}" r="3" data-testid="line-point" data-x="{x}" data-value="{y}"><title>{label} {x}: {y}</title></circle>"#,
                xp(*x),
                yp(*y)
            ),
            None => write!(
                out,
                r#"<text class="plan-never" x="{}" y="{}" text-anchor="middle" data-testid="line-point" data-x="{x}" data-value="null">∞<title>{label} {x}: never completes</title></text>"#,
                xp(*x),
                fmt(t + 10.0)
            ),
        };
    }
    out.push_str("</svg>");
    out
}

/// The sweep cell an event happened in: its maxSurge, maxUnavailable and description.
fn cell_of(e: &Event) -> Option<(i32, i32, String)> {
    let el = e
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-testid=sweep-cell]")
        .ok()??;
    let num = |k: &str| el.get_attribute(k)?.parse::<i32>().ok();
    Some((
        num("data-max-surge")?,
        num("data-max-unavailable")?,
        el.get_attribute("title").unwrap_or_default(),
    ))
}

/// The Plan view.
#[function_component(PlanView)]
pub fn plan_view(props: &PlanViewProps) -> Html {
    let source = use_memo(props.source.clone(), |s| {
        s.as_ref().and_then(|s| source_of(s))
    });
    let generated = source
        .as_ref()
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default();
    let model = source
        .as_ref()
        .as_ref()
        .map(|(_, m)| m.clone())
        .unwrap_or_default();
    let chosen = use_state(|| None::<String>); // of several Deployments (DeploymentPicker)
    let model = match &*chosen {
        Some(name) => model.with("deployment", json!(name)),
        None => model,
    };
    let generated_value = use_memo(props.source.clone(), |s| {
        s.as_deref().and_then(created).map(manifest_value_of)
    });
    // The manifest as typed, and whether it still follows the settings.
    let text = use_state(|| generated.clone());
    let follows = use_state(|| true);
    {
        let (text, follows) = (text.clone(), follows.clone());
        use_effect_with(generated.clone(), move |g| {
            if *follows && !g.is_empty() {
                text.set(g.clone());
            }
        });
    }
    let figure = use_state(|| Figure::Duration);
    let size = use_state(|| 10i32);
    let line_axis = use_state(|| "replicas".to_string());
    let sweep = use_reducer(SweepState::default);
    let running = use_mut_ref(Running::default);
    {
        let running = running.clone();
        use_effect_with((), move |_| move || running.borrow_mut().stop());
    }

    // Typed YAML is read by the YAML reader's module, loaded when the manifest is first
    // focused or edited (crate::yaml_reader); the forecasts are made again once it is there.
    let yaml_ready = use_state(crate::yaml_reader::loaded);
    let load_yaml = {
        let yaml_ready = yaml_ready.clone();
        Callback::from(move |_: ()| {
            if !*yaml_ready {
                let yaml_ready = yaml_ready.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if crate::yaml_reader::load().await.is_ok() {
                        yaml_ready.set(true);
                    }
                });
            }
        })
    };
    let input = plan_input(&text, &generated, generated_value.as_ref().as_ref());
    // The manifest as typed, read once per keystroke: its Deployment (the heat map's marker,
    // the cost below) and the forecast, on this thread. A big Deployment is forecast in the
    // worker instead, so that typing never holds the page.
    let read = use_memo(
        (input.clone(), model.clone(), *yaml_ready),
        |(input, model, _)| {
            let subject = crate::plan_api::subject_of(input, model);
            let deployment = subject.as_ref().ok().and_then(|(s, _)| s.deployment().ok());
            let heavy = deployment
                .as_ref()
                .is_some_and(|d| forecast_cost(d) > PAGE_FORECAST_LIMIT);
            // `plan()` of the same input and model, without reading the text a second time.
            let planned = (!heavy).then(|| {
                let t0 = crate::state::now_ms();
                let out = subject.and_then(|(s, notes)| {
                    rollout_core::plan::input::plan_subject(&s, &notes).map(|(out, _, _)| out)
                });
                (out, crate::state::now_ms() - t0)
            });
            (Rc::new(deployment), heavy, planned)
        },
    );
    let (deployment, heavy) = (read.0.clone(), read.1);
    let remote = use_state(|| None::<(String, Result<PlanOutput, String>)>);
    let plan_worker = use_mut_ref(Running::default);
    {
        let (remote, plan_worker) = (remote.clone(), plan_worker.clone());
        use_effect_with(
            ((*text).clone(), model.clone(), heavy),
            move |(text, model, heavy)| {
                if *heavy {
                    let key = format!("{text}{}", model.to_value());
                    start_plan(&plan_worker, key, text, model, remote);
                } else {
                    plan_worker.borrow_mut().stop();
                }
                let stop = plan_worker.clone();
                move || stop.borrow_mut().stop()
            },
        );
    }
    let remote_key = format!("{}{}", *text, model.to_value());
    let (out, ms) = match (&read.2, &*remote) {
        (Some((out, ms)), _) => (Some(out), *ms),
        (None, Some((key, out))) if *key == remote_key => (Some(out), -1.0),
        _ => (None, -1.0),
    };

    let current = deployment.as_ref().as_ref().and_then(current_cell);

    let on_input = {
        let (text, follows, load_yaml) = (text.clone(), follows.clone(), load_yaml.clone());
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            load_yaml.emit(());
            follows.set(false);
            text.set(area.value());
        })
    };
    let on_focus = load_yaml.reform(|_: FocusEvent| ());
    let reset = {
        let (text, follows, generated) = (text.clone(), follows.clone(), generated.clone());
        Callback::from(move |_: MouseEvent| {
            follows.set(true);
            text.set(generated.clone());
        })
    };
    let on_figure = {
        let figure = figure.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            figure.set(Figure::of_key(&s.value()));
        })
    };
    let on_size = {
        let size = size.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            size.set(s.value().parse().unwrap_or(10));
        })
    };
    let on_axis = {
        let axis = line_axis.clone();
        Callback::from(move |e: Event| {
            let s: web_sys::HtmlSelectElement = e.target_unchecked_into();
            axis.set(s.value());
        })
    };
    let run = {
        let (text, model, size, axis, sweep, running) = (
            text.clone(),
            model.clone(),
            size.clone(),
            line_axis.clone(),
            sweep.clone(),
            running.clone(),
        );
        let deployment = deployment.clone();
        Callback::from(move |_: MouseEvent| {
            let n = *size;
            let input = Value::String((*text).clone());
            let heat_axes =
                json!({"maxSurge": format!("0..{n}"), "maxUnavailable": format!("0..{n}")});
            let replicas = deployment
                .as_ref()
                .as_ref()
                .and_then(|d| d.replicas)
                .unwrap_or(1);
            let values = line_values(&axis, replicas);
            let line_axes = json!({ axis.as_str(): values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",") });
            // The worker checks the axes as `sweep()` does: a bad manifest or a Recreate
            // Deployment comes back as the job's error.
            let heat_size = (n + 1) * (n + 1);
            let jobs = json!({"jobs": [
                {"key": "heat", "input": input, "axes": heat_axes, "options": model.to_value(), "size": heat_size},
                {"key": "line", "input": input, "axes": line_axes, "options": model.to_value(), "size": values.len()},
            ]});
            let fresh = SweepState {
                running: true,
                size: n,
                total: (heat_size as usize + values.len()) as u32,
                line_axis: (*axis).clone(),
                manifest: (*text).clone(),
                ..SweepState::default()
            };
            sweep.dispatch(WorkerMsg::Start(Box::new(fresh)));
            if let Err(e) = start_worker(&running, jobs, sweep.dispatcher()) {
                sweep.dispatch(WorkerMsg::Error(e));
                sweep.dispatch(WorkerMsg::Done(0.0));
            }
        })
    };
    let cancel = {
        let (sweep, running) = (sweep.clone(), running.clone());
        Callback::from(move |_: MouseEvent| {
            running.borrow_mut().stop();
            sweep.dispatch(WorkerMsg::Cancel);
        })
    };
    // What is planned for the manifest as typed, for the heat map's (memoised) click handler.
    let input_now = use_mut_ref(|| Value::Null);
    input_now.borrow_mut().clone_from(&input);
    let on_pick = {
        let (text, on_msg, input_now) = (text.clone(), props.on_msg.clone(), input_now.clone());
        Callback::from(move |(su, un): (i32, i32)| {
            let typed = input_now.borrow().clone();
            if let Ok(t) = with_surge(&typed, &IntOrString::Int(su), &IntOrString::Int(un)) {
                text.set(t);
            }
            on_msg.emit(Msg::Edit(Field::MaxSurge, su.to_string()));
            on_msg.emit(Msg::Edit(Field::MaxUnavailable, un.to_string()));
        })
    };

    let readout = use_state(|| None::<String>);
    let on_read = {
        let readout = readout.clone();
        Callback::from(move |t: String| readout.set(Some(t)))
    };
    let s = &*sweep;
    let fig = *figure;
    // The heat map is written again only when its rows, figure or marked cell change, not on
    // every keystroke in the manifest (441 cells at 21 × 21).
    let heat = use_memo(
        (s.heat.clone(), fig, s.size, current),
        |(rows, fig, size, current)| {
            rows.as_ref()
                .map(|rows| AttrValue::from(heat_cells(rows, *fig, *size, *current)))
        },
    );
    let on_grid_click = {
        let on_pick = on_pick.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((su, un, _)) = cell_of(&e) {
                on_pick.emit((su, un));
            }
        })
    };
    let on_grid_over = {
        let on_read = on_read.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some((_, _, t)) = cell_of(&e) {
                on_read.emit(t);
            }
        })
    };
    let on_grid_focus = {
        let on_read = on_read.clone();
        Callback::from(move |e: FocusEvent| {
            if let Some((_, _, t)) = cell_of(&e) {
                on_read.emit(t);
            }
        })
    };
    let stale = s.heat.is_some() && s.manifest != *text;
    let model_line = format!(
        "Cluster model from the settings: pods ready {} s after creation, {} s rounds (settled), {} nodes, terminating {} s{}.",
        model.get("readyAfter").map_or("30".into(), |v| v.to_string()),
        model.get("secondsPerRound").map_or("1".into(), |v| v.to_string()),
        model.get("nodes").map_or("3".into(), |v| v.to_string()),
        model.get("termination").map_or("30".into(), |v| v.to_string()),
        if model.get("badImage") == Some(&json!(true)) { ", the new image never becomes ready" } else { "" },
    );
    let current_line = deployment
        .as_ref()
        .as_ref()
        .and_then(|d| match s.line_axis.as_str() {
            "minReadySeconds" => Some(d.min_ready_seconds.unwrap_or(0)),
            _ => d.replicas,
        });

    html! {
        <section class="panel plan-view" id="plan" aria-labelledby="plan-title" data-testid="plan-view">
            <div class="panel-head">
                <h2 class="panel-title" id="plan-title">{ "Plan: what will this rollout do?" }</h2>
                <p class="panel-sub">{ "The forecast of kubectl set image for the manifest below, worked out by the same controllers before you apply it." }</p>
            </div>
            <div class="plan-grid">
                <div class="plan-col">
                    <label class="field-label" for="plan-manifest">{ "Deployment manifest (YAML or JSON)" }</label>
                    <textarea id="plan-manifest" class="plan-manifest" data-testid="plan-manifest" spellcheck="false"
                        value={(*text).clone()} oninput={on_input} onfocus={on_focus} rows={text.lines().count().clamp(10, 28).to_string()} aria-describedby="plan-model" />
                    <crate::components::DeploymentPicker text={(*text).clone()} chosen={chosen.clone()} ready={*yaml_ready} />
                    <div class="plan-source">
                        <span class="panel-sub" data-testid="plan-follows">{
                            if *follows { "Follows the settings panel; edit it to try anything else." } else { "Edited here; the settings panel no longer changes it." }
                        }</span>
                        if !*follows {
                            <button type="button" class="btn btn-small" data-testid="plan-reset" onclick={reset}>{ "Use the settings" }</button>
                        }
                    </div>
                    <p class="panel-sub" id="plan-model" data-testid="plan-model" data-model={model.to_value().to_string()}>{ model_line }</p>
                </div>
                <div class="plan-col">
                    if let Some(out) = out {
                        { forecast_panel(out, ms) }
                    } else {
                        <p class="panel-sub plan-pending" data-testid="forecast-pending" role="status">{ format!(
                            "Forecasting {} replicas in a worker (about {} pod-waves: too long to work out on each keystroke)…",
                            deployment.as_ref().as_ref().and_then(|d| d.replicas).unwrap_or(1),
                            deployment.as_ref().as_ref().map_or(0, forecast_cost)
                        ) }</p>
                    }
                </div>
            </div>
            <div class="plan-sweep">
                <div class="plan-controls">
                    <label class="field-label">{ "Colour by " }
                        <select data-testid="plan-figure" onchange={on_figure}>
                            { for Figure::ALL.iter().map(|f| html! { <option value={f.key()} selected={*f == fig}>{ f.label() }</option> }) }
                        </select>
                    </label>
                    <label class="field-label">{ "maxSurge × maxUnavailable " }
                        <select data-testid="plan-size" onchange={on_size}>
                            <option value="10" selected={*size == 10}>{ "0…10 (11 × 11)" }</option>
                            <option value="20" selected={*size == 20}>{ "0…20 (21 × 21)" }</option>
                        </select>
                    </label>
                    <label class="field-label">{ "Line chart over " }
                        <select data-testid="plan-axis" onchange={on_axis}>
                            <option value="replicas" selected={*line_axis == "replicas"}>{ "replicas" }</option>
                            <option value="minReadySeconds" selected={*line_axis == "minReadySeconds"}>{ "minReadySeconds" }</option>
                        </select>
                    </label>
                    <button type="button" class="btn btn-primary" data-testid="sweep-run" onclick={run} disabled={s.running}>{ "Run sweep" }</button>
                    if s.running {
                        <button type="button" class="btn" data-testid="sweep-cancel" onclick={cancel}>{ "Cancel" }</button>
                    }
                </div>
                if s.running || s.total > 0 {
                    <div class="sweep-status">
                        <progress data-testid="sweep-progress" max={s.total.max(1).to_string()} value={s.done.to_string()}
                            data-done={s.done.to_string()} data-total={s.total.to_string()}
                            data-state={if s.running { "running" } else if s.message.is_some() && s.heat.is_none() { "stopped" } else { "done" }}
                            aria-label="Sweep progress" />
                        <span class="panel-sub" data-testid="sweep-status">{
                            if s.running { format!("{} of {} combinations, in a worker…", s.done, s.total) }
                            else { s.ms.map_or(String::new(), |ms| format!("{} combinations in {} ms (worker).", s.total, ms.round() as i64)) }
                        }</span>
                    </div>
                }
                if let Some(m) = &s.message {
                    <p class="plan-error" role="alert" data-testid="sweep-message">{ m.clone() }</p>
                }
                if stale {
                    <p class="panel-sub">{ "The manifest changed since this sweep; run it again to update." }</p>
                }
                <div class="plan-grid">
                    if let Some(map) = (*heat).clone() {
                        <figure class="plan-figure-box">
                            <figcaption class="panel-sub">{ format!("{} by maxSurge (across) and maxUnavailable (down); the outlined cell is the manifest's; click a cell to load it.", fig.label()) }</figcaption>
                            <div class="sweep-heatmap" data-testid="sweep-heatmap" role="grid" style={format!("--n:{}", s.size + 1)}
                                aria-label={format!("{} by maxSurge (across) and maxUnavailable (down)", fig.label())}
                                onclick={on_grid_click} onmouseover={on_grid_over} onfocusin={on_grid_focus}>
                                { Html::from_html_unchecked(map) }
                            </div>
                            <p class="panel-sub heat-readout" data-testid="sweep-readout" aria-live="polite">{
                                (*readout).clone().unwrap_or_else(|| "Hover over or focus a cell to read it.".into())
                            }</p>
                            <p class="heat-legend panel-sub" aria-hidden="true">
                                <span class="heat-key"><span class="heat-swatch best" />{ "best" }</span>
                                <span class="heat-key"><span class="heat-swatch worst" />{ "worst" }</span>
                                <span class="heat-key"><span class="heat-swatch never">{ "∞" }</span>{ "never completes" }</span>
                                <span class="heat-key"><span class="heat-swatch refused">{ "×" }</span>{ "refused by the API" }</span>
                            </p>
                        </figure>
                    }
                    if let Some(rows) = &s.line {
                        <figure class="plan-figure-box">
                            <figcaption class="panel-sub">{ format!("{} against {}", fig.label(), s.line_axis) }</figcaption>
                            { Html::from_html_unchecked(line_chart(rows, fig, &s.line_axis, current_line).into()) }
                        </figure>
                    }
                </div>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_become_a_manifest_the_planner_reads() {
        let s = crate::state::default_scenario();
        let (text, model) = source_of(&s).unwrap();
        assert!(text.contains("maxSurge: 25%"), "{text}");
        let out = crate::plan_api::plan(&Value::String(text.clone()), &model).unwrap();
        // 3 replicas, pods ready after 5 s in settled 1 s rounds: available in round 5, image
        // set in 6.
        assert_eq!(out.forecast.start_round, 6);
        assert!(out.forecast.complete_round.is_some());
        let loaded = with_surge(
            &Value::String(text.clone()),
            &IntOrString::Int(2),
            &IntOrString::Int(0),
        )
        .unwrap();
        let (subject, _) = crate::plan_api::subject_of(&Value::String(loaded), &model).unwrap();
        assert_eq!(current_cell(&subject.deployment().unwrap()), Some((2, 0)));
    }

    #[test]
    fn the_settings_manifest_object_is_what_its_yaml_reads_as() {
        let mut d = created(&crate::state::default_scenario()).unwrap().clone();
        let check = |d: &DeploymentInput| {
            let text = manifest_of(d);
            let read = rollout_core::import::parse_manifest(&text).unwrap();
            assert_eq!(read, manifest_value_of(d), "{text}");
            let input = plan_input(&text, &text, Some(&manifest_value_of(d)));
            assert!(input.is_object());
        };
        check(&d);
        // Numbers-as-text stay text ("2" is quoted), counts stay numbers.
        d.template_labels = Some(
            [
                ("app".to_string(), "web".to_string()),
                ("v".to_string(), "2".to_string()),
            ]
            .into_iter()
            .collect(),
        );
        d.min_ready_seconds = Some(5);
        d.progress_deadline_seconds = Some(600);
        d.strategy = Some(rollout_core::scenario::StrategyInput {
            type_: Some("RollingUpdate".into()),
            max_surge: Some(IntOrString::Int(2)),
            max_unavailable: Some(IntOrString::from("10%")),
            ..Default::default()
        });
        check(&d);
        d.strategy = Some(rollout_core::scenario::StrategyInput {
            type_: Some("Recreate".into()),
            ..Default::default()
        });
        check(&d);
        // Text that is not the settings' manifest is planned as text.
        assert_eq!(
            plan_input("x", "y", Some(&json!({}))),
            Value::String("x".into())
        );
    }

    #[test]
    fn the_current_cell_is_the_settings_as_counts() {
        let (text, model) = source_of(&crate::state::default_scenario()).unwrap();
        let (subject, _) = crate::plan_api::subject_of(&Value::String(text), &model).unwrap();
        // 25% of 3: surge rounds up to 1, unavailable down to 0.
        assert_eq!(current_cell(&subject.deployment().unwrap()), Some((1, 0)));
    }

    #[test]
    fn big_slow_rollouts_cost_more_than_the_page_forecasts() {
        let d = |replicas: i32, surge: i32, unavailable: i32| DeploymentInput {
            name: "web".into(),
            replicas: Some(replicas),
            image: "a".into(),
            strategy: Some(rollout_core::scenario::StrategyInput {
                max_surge: Some(IntOrString::Int(surge)),
                max_unavailable: Some(IntOrString::Int(unavailable)),
                ..Default::default()
            }),
            ..DeploymentInput::default()
        };
        // 100 replicas one at a time: 100 waves of 100 pods, on the page.
        assert_eq!(forecast_cost(&d(100, 1, 0)), 10_300);
        assert!(forecast_cost(&d(250, 1, 0)) > PAGE_FORECAST_LIMIT);
        // 10,000 replicas in waves of 2,500 + 2,500: 2 waves, but 10,000 pods: the worker.
        assert_eq!(forecast_cost(&d(10_000, 2_500, 2_500)), 50_000);
        assert!(forecast_cost(&d(3, 1, 0)) < 100);
    }

    #[test]
    fn badness_runs_from_the_best_to_the_worst() {
        assert_eq!(badness(Figure::Duration, 120, (60, 300)), 0.25);
        assert_eq!(badness(Figure::MinAvailable, 10, (0, 10)), 0.0);
        assert_eq!(badness(Figure::Peak, 5, (5, 5)), 0.0);
    }

    #[test]
    fn line_values_span_the_setting() {
        assert_eq!(line_values("replicas", 3), (1..=10).collect::<Vec<_>>());
        let v = line_values("replicas", 100);
        assert!(
            v.len() <= 22 && v[0] == 1 && *v.last().unwrap() == 200,
            "{v:?}"
        );
        assert_eq!(line_values("minReadySeconds", 3).len(), 13);
    }
}
