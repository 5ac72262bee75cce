//! The Plan page's Web Worker protocol (`web/js/plan-worker.js`, which imports the same
//! module): a sweep's jobs go out, its progress and rows come back into [`SweepState`]; a big
//! Deployment's forecast runs there too, so a keystroke never holds the page; and "Find a
//! race" ([`start_race`]). Messages are read field by field (a serde deserializer for three
//! types would cost the page more).

use crate::plan_api::ModelOptions;
use crate::race_search::RaceMsg;
use rollout_facade::api::IntOrString;
use rollout_facade::plan::input::PlanOutput;
use rollout_facade::plan::sweep::SweepRow;
use rollout_facade::plan::Forecast;
use rollout_facade::races::{Counterexample, SearchReport};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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
/// The sweep panel's worker is started warm ([`warm`]) and kept between sweeps.
#[derive(Default)]
pub struct Running {
    worker: Option<web_sys::Worker>,
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    /// A job was sent and its last message has not come back.
    busy: bool,
}

impl Running {
    /// Terminates the worker, if one runs.
    pub fn stop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.terminate();
        }
        self._on_message = None;
        self.busy = false;
    }
}

/// Starts the sweep worker before any sweep (the Plan page's sweep panel appearing): it starts
/// its helpers, which load the module and the YAML reader and forecast a small sweep, so that
/// the first sweep a user runs finds them ready and their code already optimised
/// (`plan-worker.js`, `warm`). Does nothing while a worker is there.
pub fn warm(running: &Rc<RefCell<Running>>) {
    if running.borrow().worker.is_some() {
        return;
    }
    if spawn_worker(running, json!({"warm": true}), |_, _| {}).is_ok() {
        running.borrow_mut().busy = false;
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
        settings: rollout_facade::plan::sweep::Settings {
            replicas: whole_of(&s, "replicas").map(|n| n as i32),
            max_surge: int_or("maxSurge"),
            max_unavailable: int_or("maxUnavailable"),
            min_ready_seconds: whole_of(&s, "minReadySeconds").map(|n| n as i32),
        },
        forecast: forecast_of(&get(v, "forecast")),
        refused: get(v, "refused").as_string(),
        failed_requests: get(v, "failedRequests").as_f64().map(|n| n as u64),
        if_it_fails: failure_of(&get(v, "ifItFails")),
    }
}

/// A row's `ifItFails` (the sweep ran with a `fail` option), field by field.
fn failure_of(v: &JsValue) -> Option<rollout_facade::plan::failure::FailureForecast> {
    let int = |k: &str| whole_of(v, k).map(|n| n as i32);
    Some(rollout_facade::plan::failure::FailureForecast {
        failure: get(v, "failure").as_string()?,
        replicas: int("replicas")?,
        min_available: int("minAvailable")?,
        capacity_lost: int("capacityLost")?,
        lowest_seconds: whole_of(v, "lowestSeconds")?,
        pods_stuck: int("podsStuck").unwrap_or(0),
        restarts: int("restarts").unwrap_or(0),
        deadline_exceeded_seconds: whole_of(v, "deadlineExceededSeconds"),
        undo_seconds: whole_of(v, "undoSeconds"),
        completes_after_seconds: whole_of(v, "completesAfterSeconds"),
        failed_requests: whole_of(v, "failedRequests").map(|n| n as u64),
        sent_requests: whole_of(v, "sentRequests").map(|n| n as u64),
        notes: js_sys::Array::from(&get(v, "notes"))
            .iter()
            .filter_map(|n| n.as_string())
            .collect(),
    })
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
        unschedulable: unschedulable_of(&get(v, "unschedulable")),
        traffic: traffic_of(&get(v, "traffic")),
    })
}

/// `plan()`'s `traffic` (the requests to the Service over the rollout, with the assumptions),
/// field by field as [`forecast_of`] reads its forecast.
fn traffic_of(v: &JsValue) -> Option<rollout_facade::plan::traffic::TrafficForecast> {
    use rollout_facade::traffic::{TrafficModel, TrafficTotals};
    let a = get(v, "assumptions");
    let count = |k: &str| whole_of(v, k).map(|n| n as u64).unwrap_or(0);
    Some(rollout_facade::plan::traffic::TrafficForecast {
        assumptions: TrafficModel {
            load: whole_of(&a, "load")? as u32,
            pod_capacity: whole_of(&a, "podCapacity").map(|n| n as u32),
            endpoint_delay_seconds: whole_of(&a, "endpointDelaySeconds")?,
            exit_after_sigterm_seconds: whole_of(&a, "exitAfterSigtermSeconds")?,
            pre_stop_sleep_seconds: whole_of(&a, "preStopSleepSeconds")?,
        },
        totals: TrafficTotals {
            from: whole_of(v, "from")?,
            to: whole_of(v, "to")?,
            sent: count("sent"),
            served: count("served"),
            failed: count("failed"),
            failed_no_endpoint: count("failedNoEndpoint"),
            failed_not_answering: count("failedNotAnswering"),
            failed_over_capacity: count("failedOverCapacity"),
            lowest_served_fraction: get(v, "lowestServedFraction").as_f64()?,
            lowest_at: whole_of(v, "lowestAt"),
            seconds_with_failures: count("secondsWithFailures"),
        },
    })
}

/// `plan()`'s `unschedulable` (a rollout a pod that fits no node stops), if there is one.
fn unschedulable_of(v: &JsValue) -> Option<rollout_facade::plan::scheduling::Unschedulable> {
    let text = |k: &str| get(v, k).as_string();
    Some(rollout_facade::plan::scheduling::Unschedulable {
        reason: text("reason")?,
        pod: text("pod").unwrap_or_default(),
        pods: whole_of(v, "pods").unwrap_or(1) as usize,
        message: text("message").unwrap_or_default(),
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

/// Starts a worker on the plan-worker protocol's `message`; what it posts goes to `on_data`.
fn spawn_worker(
    running: &Rc<RefCell<Running>>,
    message: Value,
    on_data: impl FnMut(&JsValue, &std::rc::Weak<RefCell<Running>>) + 'static,
) -> Result<(), String> {
    running.borrow_mut().stop();
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("./plan-worker.js", &options)
        .map_err(|_| "This browser cannot start a Web Worker.".to_string())?;
    send(running, worker, message, on_data)
}

/// Sends `message` to `worker`, whose answers go to `on_data` from now on; `running` holds it,
/// busy until the job's last message.
fn send(
    running: &Rc<RefCell<Running>>,
    worker: web_sys::Worker,
    message: Value,
    mut on_data: impl FnMut(&JsValue, &std::rc::Weak<RefCell<Running>>) + 'static,
) -> Result<(), String> {
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
        busy: true,
    };
    Ok(())
}

/// Terminates the worker once the current message has been handled.
fn stop_soon(weak: &std::rc::Weak<RefCell<Running>>) {
    if let Some(r) = weak.upgrade() {
        gloo_timers::callback::Timeout::new(0, move || r.borrow_mut().stop()).forget();
    }
}

/// Starts the worker on sweep `jobs`; its messages go to `state`. An idle worker (warm, or
/// done with the last sweep) takes them; a busy one is replaced.
pub fn start_worker(
    running: &Rc<RefCell<Running>>,
    jobs: Value,
    state: UseReducerDispatcher<SweepState>,
) -> Result<(), String> {
    let on_data = move |data: &JsValue, weak: &std::rc::Weak<RefCell<Running>>| {
        if let Some(m) = worker_msg(data) {
            if matches!(m, WorkerMsg::Done(_)) {
                if let Some(r) = weak.upgrade() {
                    r.borrow_mut().busy = false;
                }
            }
            state.dispatch(m);
        }
    };
    let idle = {
        let r = running.borrow();
        r.worker.clone().filter(|_| !r.busy)
    };
    match idle {
        Some(worker) => send(running, worker, jobs, on_data),
        None => spawn_worker(running, jobs, on_data),
    }
}

/// A forecast computed in the worker: for which manifest and model, and what came back.
pub type Remote = Option<(String, Result<PlanOutput, String>)>;

/// Forecasts `input` in a worker (a big Deployment); the result goes to `remote` under `key`.
pub fn start_plan(
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

/// Strings of a JS array.
fn strings(v: &JsValue) -> Vec<String> {
    js_sys::Array::from(v)
        .iter()
        .filter_map(|s| s.as_string())
        .collect()
}

/// The report `findRace` returns (`{depth, states, violation}`), as the worker posts it.
fn report_of(v: &JsValue) -> Option<SearchReport> {
    let violation = get(v, "violation");
    Some(SearchReport {
        depth: whole_of(v, "depth")? as usize,
        states: whole_of(v, "states")? as usize,
        violation: violation.is_object().then(|| Counterexample {
            schedule: strings(&get(&violation, "schedule")),
            violations: strings(&get(&violation, "violations")),
        }),
    })
}

/// The race job's messages: `{type: "progress", done, states}`, then `{type: "race", result}`
/// or `{type: "race", error}`.
fn race_msg(data: &JsValue) -> Option<RaceMsg> {
    let kind = get(data, "type").as_string()?;
    Some(match kind.as_str() {
        "progress" => RaceMsg::Progress(
            whole_of(data, "done").unwrap_or(0) as usize,
            whole_of(data, "states").unwrap_or(0) as usize,
        ),
        "race" => match get(data, "error").as_string() {
            Some(e) => RaceMsg::Failed(e),
            None => report_of(&get(data, "result")).map_or_else(
                || RaceMsg::Failed("the worker's report could not be read".into()),
                RaceMsg::Done,
            ),
        },
        _ => return None,
    })
}

/// Searches `scenario` (what `findRace` takes: a walk-through's id or a race scenario) for a
/// race in a worker, with `findRace`'s `options`; its messages go to `on_msg`, and the worker
/// ends after its report.
pub fn start_race(
    running: &Rc<RefCell<Running>>,
    scenario: &Value,
    options: Value,
    on_msg: impl Fn(RaceMsg) + 'static,
) -> Result<(), String> {
    let job = json!({"race": {"scenario": scenario, "options": options}});
    spawn_worker(running, job, move |data, weak| {
        if let Some(m) = race_msg(data) {
            let done = !matches!(m, RaceMsg::Progress(..));
            on_msg(m);
            if done {
                stop_soon(weak);
            }
        }
    })
}
