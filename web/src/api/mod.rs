//! Rollout Lab's JavaScript API, the exports of the `rollout-lab` module (`dist/rollout-lab.js`,
//! with `dist/rollout-lab.d.ts` beside it):
//!
//! ```js
//! import init, { trace, Simulation, mount } from "./rollout-lab.js";
//! await init();                               // instantiates the wasm; starts nothing
//! const t = trace(scenario);                  // the whole trace, conformance format
//! const sim = new Simulation(scenario);       // step it yourself
//! sim.onStep((record, state) => console.log(record.kind, state.round));
//! sim.step(); sim.runRound(); sim.state(); sim.trace();
//! const lab = mount(document.querySelector("#demo"), { preset: "rolling-basic",
//!     controls: ["step", "replicas", "maxSurge"] });
//! lab.step(); lab.onStep((state) => …); lab.unmount();
//! ```
//!
//! Scenarios are plain objects (or JSON text) in the format of the conformance fixtures.
//! Values go in and out as plain JS objects (through JSON text). Bad input throws a JS
//! `Error` whose message is the validation message (naming the field); nothing here panics
//! on input. The app page and `?embed` boot from this module too ([`mount_page`]), and the
//! `<rollout-lab>` element draws itself with [`mount_element`].

pub mod lab;
pub mod races;

pub use lab::{mount, mount_element, mount_page, MountedLab};
pub use races::find_race;

use crate::export::{chart_svg, trace_json};
use crate::js_input;
use crate::state::default_scenario;
use rollout_facade::limits;
use rollout_facade::scenario::{Action, Scenario};
use rollout_facade::session::Session;
use rollout_facade::share::{decode_link, encode_link, Link};
use rollout_facade::sim::StepRecord;
use rollout_facade::view::{chart_series, cluster_view, ClusterView};
use serde::Serialize;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// A JS value (an object, or JSON text) as JSON: through `JSON.stringify` and serde_json's
/// reader (`js_input`), so a cyclic or deeply nested object is refused, not walked.
fn json_of(value: JsValue, what: &str) -> Result<serde_json::Value, JsError> {
    if let Some(text) = value.as_string() {
        return js_input::json_of_text(&text, what).map_err(error);
    }
    if value.is_undefined() || value.is_null() {
        return Err(error(format!("{what} is missing")));
    }
    js_input::json_of_object(&value, what).map_err(error)
}

/// Any serialisable value as a plain JS object (maps as objects, 64-bit numbers as numbers,
/// `None` as `null`): serde_json's text, read by `JSON.parse`. The text goes through the same
/// serializer the app's exports already use (pretty-printed JSON), so a value costs the module
/// one serializer, not a second one for JavaScript (BENCHMARKS.md, "One sort, one serializer").
fn js_of<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string_pretty(value).map_err(error)?;
    js_sys::JSON::parse(&text).map_err(|_| error("the value could not be read back as JSON"))
}

/// The limits the API keeps a scenario within, so that a call returns in reasonable time
/// (`rollout_facade::limits`: 10,000 replicas in any create or scale, 100,000 rounds).
fn within_limits(s: &Scenario) -> Result<(), String> {
    rollout_facade::limits::check_scenario(s)
}

/// Reads and validates a scenario.
fn scenario_of(value: JsValue) -> Result<Scenario, JsError> {
    let json = json_of(value, "the scenario")?;
    let s = Scenario::from_value(&json).map_err(|e| error(format!("Invalid scenario: {e}")))?;
    within_limits(&s).map_err(|e| error(format!("Invalid scenario: {e}")))?;
    Ok(s)
}

/// The version of Rollout Lab.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Runs a whole scenario and returns its trace in the conformance format: `{oracle, scenario,
/// rounds: [{round, time, actions?, errors?, events, deployments, replicaSets}]}`, exactly what
/// `rollout trace SCENARIO.json` prints.
#[wasm_bindgen]
pub fn trace(scenario: JsValue) -> Result<JsValue, JsError> {
    let s = scenario_of(scenario)?;
    js_of(&rollout_facade::sim::run_trace(s))
}

/// Reads a scenario, filling in the defaults (`rounds` 30, `nodes` 1 …); throws what is wrong
/// with it.
#[wasm_bindgen(js_name = parseScenario)]
pub fn parse_scenario(scenario: JsValue) -> Result<JsValue, JsError> {
    js_of(&scenario_of(scenario)?)
}

/// What [`import_manifest`] returns.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ImportedManifest {
    scenario: Scenario,
    unsupported: Vec<String>,
    notice: String,
}

/// Reads a Deployment manifest as `kubectl get deployment NAME -o yaml` (or `-o json`) prints
/// it, status and managedFields included: `{scenario, unsupported, notice}`, where
/// `unsupported` names every field that would change a rollout but is not modelled (a second
/// container …). Throws when it is not a Deployment. A file of several objects is read as
/// `kubectl apply -f` reads it; of several Deployments, `options.deployment` names the one to
/// import (`importManifest(text, {deployment: "frontend"})`). YAML needs the YAML reader:
/// `await loadYaml()` first.
#[wasm_bindgen(js_name = importManifest)]
pub fn import_manifest(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<JsValue>,
) -> Result<JsValue, JsError> {
    let text = js_input::text(&text, "importManifest", "the manifest").map_err(error)?;
    limits::check_manifest_text("the manifest", &text).map_err(error)?;
    let options = model_options(options.unwrap_or(JsValue::UNDEFINED))?;
    if let Some(other) = options.given().into_iter().find(|n| *n != "deployment") {
        return Err(error(format!(
            "importManifest takes the option deployment only, not {other}"
        )));
    }
    let pick = rollout_facade::import::Pick {
        name: options.deployment().map_err(error)?,
        how: crate::plan_api::CHOOSE_IMPORT,
    };
    let json = crate::yaml_reader::read(&text, pick).map_err(error)?;
    let unsupported = rollout_facade::import::import_named(&json, pick)
        .map_err(error)?
        .unsupported;
    let import = crate::export::scenario_from_manifest_named(&json, pick).map_err(error)?;
    js_of(&ImportedManifest {
        scenario: import.scenario,
        unsupported,
        notice: import.notice,
    })
}

/// Loads the YAML reader: a small module of its own (dist/rollout-yaml.js, without Yew), fetched
/// the first time YAML is read rather than with this one. `importText` and the app load it
/// themselves; `importManifest`, `plan` and `sweep` are synchronous, so await this once before
/// handing them YAML (JSON and preset ids need nothing); until then they throw "the YAML reader
/// is still loading". Resolves when YAML can be read.
#[wasm_bindgen(js_name = loadYaml)]
pub async fn load_yaml() -> Result<(), JsError> {
    crate::yaml_reader::load().await.map_err(error)
}

/// What [`import_text`] returns.
#[derive(Serialize)]
struct ImportedText {
    text: String,
    scenario: String,
    notice: String,
}

/// Reads what a user pasted, dropped or chose in the app's import box: `input` is text or a
/// `File`. A Deployment manifest (YAML or JSON, as kubectl prints it) becomes a scenario that
/// creates its Deployment; anything else must be a scenario. Resolves to `{text, scenario,
/// notice}` (`scenario` as JSON text, `notice` saying what was read and what left out);
/// rejects with what is wrong.
#[wasm_bindgen(js_name = importText)]
pub async fn import_text(input: JsValue) -> Result<JsValue, JsError> {
    let text = match input.as_string() {
        Some(t) => t,
        None => {
            let blob: web_sys::Blob = input
                .dyn_into()
                .map_err(|_| error("importText takes text or a File"))?;
            wasm_bindgen_futures::JsFuture::from(blob.text())
                .await
                .map_err(|_| error("the file could not be read"))?
                .as_string()
                .unwrap_or_default()
        }
    };
    limits::check_text("the text", &text).map_err(error)?;
    if crate::export::looks_like_manifest(&text) && crate::yaml_reader::is_yaml(&text) {
        crate::yaml_reader::load().await.map_err(error)?;
    }
    let (scenario, notice) = crate::export::import_text(&text).map_err(error)?;
    js_of(&ImportedText {
        text,
        scenario,
        notice,
    })
}

/// Downloads a session's trace (`what` = `"trace"`, JSON in the conformance format) or pod
/// chart (`"chart"`, SVG): the scenario (object or JSON text) replayed for `steps` steps.
#[wasm_bindgen(js_name = downloadSession)]
pub fn download_session(
    #[wasm_bindgen(unchecked_param_type = "string")] what: JsValue,
    scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] steps: JsValue,
) -> Result<(), JsError> {
    let what = js_input::text(&what, "downloadSession", "what to export").map_err(error)?;
    let steps = link_steps(&steps, "downloadSession")?;
    let sim = JsSimulation::new(scenario)?;
    sim.take(steps);
    let (text, name, mime) = match what.as_str() {
        "trace" => (
            sim.trace_json(),
            "rollout-lab-trace.json",
            "application/json",
        ),
        "chart" => (sim.chart_svg(), "rollout-lab-chart.svg", "image/svg+xml"),
        other => {
            return Err(error(format!(
                "cannot export `{}`: trace or chart",
                limits::prefix(other, 40)
            )))
        }
    };
    crate::files::download(name, mime, &text).map_err(error)
}

/// The permalink fragment (without `#`) of a scenario at a step: append it to the app's
/// address after `#`.
#[wasm_bindgen(js_name = encodeLink)]
pub fn encode_link_js(
    scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] step: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string")] preset: JsValue,
) -> Result<String, JsError> {
    let step = link_steps(&step, "encodeLink")?;
    let preset = js_input::optional_text(&preset, "encodeLink", "the preset").map_err(error)?;
    if let Some(p) = &preset {
        if rollout_facade::presets::preset(p).is_none() && p != "custom" {
            return Err(error(format!(
                "encodeLink: there is no preset called `{}`",
                limits::prefix(p, 40)
            )));
        }
    }
    Ok(encode_link(&Link {
        scenario: scenario_of(scenario)?,
        step,
        preset,
    }))
}

/// The id `onStep` returned (`None`: a number that no listener has).
fn listener_id(value: &JsValue) -> Result<Option<u32>, JsError> {
    let n = js_input::count(value, "offStep", "the id", u64::from(u32::MAX), "")
        .map_err(error)?
        .ok_or_else(|| error("offStep takes the id onStep returned, not undefined"))?;
    Ok(u32::try_from(n).ok())
}

/// A number of steps to replay: a whole number up to [`limits::MAX_LINK_STEPS`] (absent: 0).
fn link_steps(value: &JsValue, function: &str) -> Result<usize, JsError> {
    let n = js_input::count(
        value,
        function,
        "step",
        limits::MAX_LINK_STEPS as u64,
        ", the most steps a link replays",
    )
    .map_err(error)?;
    Ok(n.unwrap_or(0) as usize)
}

/// What [`decode_link_js`] returns.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DecodedLink {
    scenario: Scenario,
    step: usize,
    preset: Option<String>,
    ignored: Vec<String>,
    fell_back: bool,
}

/// Reads a permalink fragment (with or without `#`) as the app does: `{scenario, step, preset,
/// ignored, fellBack}`; what could not be read is listed in `ignored`, and with nothing usable
/// the scenario is the app's default. `undefined` when the fragment holds no session.
#[wasm_bindgen(js_name = decodeLink)]
pub fn decode_link_js(
    #[wasm_bindgen(unchecked_param_type = "string")] fragment: JsValue,
) -> Result<JsValue, JsError> {
    let fragment = js_input::text(&fragment, "decodeLink", "the link's fragment").map_err(error)?;
    limits::check_text("the link", &fragment).map_err(error)?;
    match decode_link(&fragment, &default_scenario()) {
        None => Ok(JsValue::UNDEFINED),
        Some(r) => js_of(&DecodedLink {
            scenario: r.value.scenario,
            step: r.value.step,
            preset: r.value.preset,
            ignored: r.ignored,
            fell_back: r.fell_back,
        }),
    }
}

/// A simulation's state as plain data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct State<'a> {
    #[serde(flatten)]
    cluster: ClusterView,
    at_round_start: bool,
    finished: bool,
    can_step_back: bool,
    last_step: Option<&'a StepRecord>,
}

fn state_of(session: &Session) -> State<'_> {
    let sim = session.sim();
    State {
        cluster: cluster_view(sim),
        at_round_start: sim.at_round_start(),
        finished: sim.finished(),
        can_step_back: session.can_step_back(),
        last_step: sim.last_step(),
    }
}

/// A simulation to step from JavaScript: `new Simulation(scenario)`. One step is one
/// controller sync, the round's actions, or a kubelet pass (lock-step, as the conformance
/// traces count), taken through the core's `Session` like every other front end's
/// ([`Session::single_sync`], [`Session::step_back`], [`Session::push_action`]).
#[wasm_bindgen(js_name = Simulation)]
pub struct JsSimulation {
    session: RefCell<Session>,
    listeners: RefCell<Vec<(u32, js_sys::Function)>>,
    next_id: Cell<u32>,
}

#[wasm_bindgen(js_class = Simulation)]
impl JsSimulation {
    /// A simulation of `scenario` (an object or JSON text) at the start of round 0. Throws
    /// the validation message when the scenario is not valid.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: JsValue) -> Result<JsSimulation, JsError> {
        let s = scenario_of(scenario)?;
        // Every step is kept for stepBack, as in the app: at most 2,000 rounds (`trace()`
        // keeps none and runs up to 100,000).
        if s.rounds > limits::MAX_INTERACTIVE_ROUNDS {
            return Err(error(format!(
                "Invalid scenario: rounds: {} is more than {}, the most rounds a Simulation keeps every step of (a limit for the page's speed; trace() runs up to {})",
                s.rounds,
                limits::group(i64::from(limits::MAX_INTERACTIVE_ROUNDS)),
                limits::group(i64::from(limits::MAX_ROUNDS))
            )));
        }
        let session = Session::new(s).map_err(|e| error(format!("Invalid scenario: {e}")))?;
        Ok(JsSimulation {
            session: RefCell::new(session),
            listeners: RefCell::new(Vec::new()),
            next_id: Cell::new(0),
        })
    }

    fn notify(&self) -> Result<(), JsValue> {
        let listeners: Vec<js_sys::Function> = self
            .listeners
            .borrow()
            .iter()
            .map(|(_, f)| f.clone())
            .collect();
        if listeners.is_empty() {
            return Ok(());
        }
        let (record, state) = {
            let session = self.session.borrow();
            (
                js_of(&session.sim().last_step())?,
                js_of(&state_of(&session))?,
            )
        };
        for f in listeners {
            f.call2(&JsValue::NULL, &record, &state)?;
        }
        Ok(())
    }

    /// Takes one step and returns its record (`{round, time, index, kind, path, decisions,
    /// events, errors, …}`), or `undefined` when every round has run. Listeners hear it.
    pub fn step(&self) -> Result<JsValue, JsValue> {
        let record = {
            let mut session = self.session.borrow_mut();
            match session.single_sync() {
                Some(r) => js_of(r)?,
                None => return Ok(JsValue::UNDEFINED),
            }
        };
        self.notify()?;
        Ok(record)
    }

    /// Goes back one step; false at the start.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&self) -> bool {
        self.session.borrow_mut().step_back()
    }

    /// Runs to the end of the current round (listeners hear every step).
    #[wasm_bindgen(js_name = runRound)]
    pub fn run_round(&self) -> Result<(), JsValue> {
        let round = self.session.borrow().sim().round();
        loop {
            let moved = {
                let mut session = self.session.borrow_mut();
                session.sim().round() == round && session.single_sync().is_some()
            };
            if !moved {
                return Ok(());
            }
            self.notify()?;
        }
    }

    /// Takes up to `steps` steps (fewer when the scenario ends first) and returns how many it
    /// took. Listeners are not called: this is for getting to a point quickly. `steps` is a
    /// whole number up to 50,000 (a link's limit).
    pub fn advance(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] steps: JsValue,
    ) -> Result<u32, JsError> {
        let steps = link_steps(&steps, "advance")?;
        Ok(self.take(steps) as u32)
    }

    /// Takes up to `steps` steps; how many it took.
    fn take(&self, steps: usize) -> usize {
        let mut session = self.session.borrow_mut();
        let mut taken = 0;
        while taken < steps && session.single_sync().is_some() {
            taken += 1;
        }
        taken
    }

    /// Runs every remaining round (listeners hear every step).
    pub fn run(&self) -> Result<(), JsValue> {
        while !self.session.borrow().sim().finished() {
            self.run_round()?;
        }
        Ok(())
    }

    /// The round the next step belongs to.
    #[wasm_bindgen(getter)]
    pub fn round(&self) -> u32 {
        self.session.borrow().sim().round()
    }

    /// The simulated clock, in seconds.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.session.borrow().sim().now() as f64
    }

    /// Steps taken.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> u32 {
        self.session.borrow().sim().steps_taken() as u32
    }

    /// Whether every round has run.
    #[wasm_bindgen(getter)]
    pub fn finished(&self) -> bool {
        self.session.borrow().sim().finished()
    }

    /// The cluster now: `{round, time, step, deployments, replicaSets, atRoundStart, finished,
    /// canStepBack, lastStep}` (each Deployment with the object, its READY column, conditions
    /// and `kubectl rollout status`; each ReplicaSet with its counts and pods).
    pub fn state(&self) -> Result<JsValue, JsError> {
        js_of(&state_of(&self.session.borrow()))
    }

    /// The trace so far (completed rounds), in the conformance format.
    pub fn trace(&self) -> Result<JsValue, JsError> {
        js_of(&self.session.borrow().sim().trace())
    }

    /// The trace so far as (pretty) JSON text, as `rollout trace` prints it.
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> String {
        trace_json(self.session.borrow().sim())
    }

    /// The first Deployment's pod chart so far, as a standalone SVG document.
    #[wasm_bindgen(js_name = chartSvg)]
    pub fn chart_svg(&self) -> String {
        let session = self.session.borrow();
        let sim = session.sim();
        let d = sim.api().deployments().next().cloned();
        let name = d
            .as_ref()
            .map_or_else(String::new, |d| d.metadata.name.clone());
        let band = d.is_none_or(|d| d.spec.strategy.type_name() == "RollingUpdate");
        chart_svg(
            &chart_series(sim, &name),
            sim.scenario().rounds,
            band,
            &format!("Pods over time: {name}"),
        )
    }

    /// The scenario, with the actions pushed so far.
    pub fn scenario(&self) -> Result<JsValue, JsError> {
        js_of(self.session.borrow().sim().scenario())
    }

    /// The last step's record (`undefined` before the first).
    #[wasm_bindgen(js_name = lastStep)]
    pub fn last_step(&self) -> Result<JsValue, JsError> {
        match self.session.borrow().sim().last_step() {
            Some(r) => js_of(r),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Queues an action (`{type: "setImage", image: "nginx:1.16.1"}`, `{type: "scale",
    /// replicas: 5}` …, without `round`) for the start of the next round; returns that round.
    #[wasm_bindgen(js_name = pushAction)]
    pub fn push_action(&self, action: JsValue) -> Result<u32, JsError> {
        let mut json = json_of(action, "the action")?;
        let round = self.session.borrow().sim().next_action_round();
        if let Some(o) = json.as_object_mut() {
            o.insert("round".into(), round.into());
        }
        let index = self.session.borrow().sim().scenario().actions.len();
        let action =
            Action::from_value(index, &json).map_err(|e| error(format!("Invalid action: {e}")))?;
        let mut probe = self.session.borrow().sim().scenario().clone();
        probe.actions.push(action.clone());
        within_limits(&probe).map_err(|e| error(format!("Invalid action: {e}")))?;
        Ok(self.session.borrow_mut().push_action(action.kind))
    }

    /// Calls `listener(record, state)` after every step; returns an id for `offStep`.
    #[wasm_bindgen(js_name = onStep)]
    pub fn on_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(record: any, state: any) => void")]
        listener: JsValue,
    ) -> Result<u32, JsError> {
        let listener = js_input::function(&listener, "onStep").map_err(error)?;
        let id = self.next_id.get() + 1;
        self.next_id.set(id);
        self.listeners.borrow_mut().push((id, listener));
        Ok(id)
    }

    /// Stops calling a listener.
    #[wasm_bindgen(js_name = offStep)]
    pub fn off_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] id: JsValue,
    ) -> Result<(), JsError> {
        let id = listener_id(&id)?;
        self.listeners.borrow_mut().retain(|(i, _)| Some(*i) != id);
        Ok(())
    }
}

#[wasm_bindgen(typescript_custom_section)]
const PLAN_TYPES: &'static str = r#"
/** The cluster model a manifest is planned in (the `rollout plan` flags; scenarios take none). */
export interface PlanOptions {
  /** @deprecated A pod is Ready once its containers run and its readiness probes succeed: read as `pull` (with a warning saying so). */
  readyAfter?: string | number;
  /** Pulling the image onto a node that lacks it: "30s", "1m30s" or seconds (default 0 s); a pod without probes is Ready once it is pulled and running. */
  pull?: string | number;
  /** A container's start to its app answering its probes (default 0 s). */
  appReady?: string | number;
  /** Simulated seconds per settled round (default 1). */
  secondsPerRound?: number;
  /** Nodes the pods are spread over (default 3). */
  nodes?: number;
  /** Graceful termination (default: the manifest's terminationGracePeriodSeconds, else 30 s). */
  termination?: string | number;
  /** The new image (default: the next version of the current one). */
  image?: string;
  /** The new image never becomes ready. */
  badImage?: boolean;
  /** A pods ResourceQuota in the namespace. */
  podQuota?: number;
  /** Each node's allocatable CPU, a quantity: "1", "500m" (default 4). */
  nodeCpu?: string | number;
  /** Each node's allocatable memory, a quantity: "4Gi" (default 16Gi). */
  nodeMemory?: string | number;
  /** Zones the nodes take turns in, topology.kubernetes.io/zone (default 1). */
  zones?: number;
  /** The nodes instead of nodes/nodeCpu/nodeMemory/zones: `kubectl get nodes -o json` (object or text) or [{name, cpu, memory, pods, labels}]. */
  nodeList?: object | string;
  /** How the new version's app fails, as `rollout plan --fail` names it: "crash:after=5s", "probe:after=5s", "readiness:from=30s,to=90s", "slow:ready=45s" or "pull" (scenarios too); the result then has `ifItFails`. */
  fail?: string;
  /** Requests a second to a Service in front of it, spread evenly over the endpoints the proxies send to (default 100; the result's `traffic`). */
  load?: number;
  /** Requests a second one pod serves at most; the excess fails (default: no limit). */
  podCapacity?: number;
  /** An endpoint change reaching the proxies (default 1 s). */
  endpointDelay?: string | number;
  /** The app exiting once it gets SIGTERM (default 0 s). */
  exitAfterSigterm?: string | number;
  /** The preStop sleep before SIGTERM (default: the manifest's, else none). */
  preStop?: string | number;
}
/** The requests to a Service in front of the rollout (README, "What users see: a Service and its requests"): the assumptions and the figures from the image being set (`from`) to `to` (excluded), seconds on the forecast's clock. */
export interface PlanTraffic {
  assumptions: { load: number; podCapacity?: number; endpointDelaySeconds: number; exitAfterSigtermSeconds: number; preStopSleepSeconds: number };
  from: number; to: number; sent: number; served: number; failed: number;
  failedNoEndpoint: number; failedNotAnswering: number; failedOverCapacity: number;
  lowestServedFraction: number; lowestAt: number | null; secondsWithFailures: number;
}
/** `rollout plan --fail`'s `ifItFails` (README, "If it fails"). */
export interface IfItFails {
  failure: string; replicas: number; minAvailable: number; capacityLost: number; lowestSeconds: number;
  podsStuck: number; restarts: number; deadlineExceededSeconds: number | null; undoSeconds: number | null;
  completesAfterSeconds: number | null;
  /** The requests a Service in front of it fails from the image being set to the deadline, and those sent (the plan's traffic assumptions). */
  failedRequests?: number; sentRequests?: number;
}
/** What to plan: a preset id, a scenario (object or JSON text) or a Deployment manifest (YAML or JSON text, or an object). YAML text needs the YAML reader: `await loadYaml()` once first. */
export type PlanInput = string | object;
/** The forecast figures (README, "rollout plan"); null where there is nothing to say. */
export interface Forecast {
  startRound: number;
  completeRound: number | null;
  durationSeconds: number | null;
  peakPods: number;
  minAvailable: number | null;
  deadlineExceededRound: number | null;
}
/** What `rollout plan --json` prints. */
export interface PlanResult extends Forecast {
  deployment: string;
  secondsPerRound: number;
  settle: boolean;
  warnings: string[];
  /** Why the rollout never completes when a pod fits no node (the scheduler's FailedScheduling text). */
  unschedulable?: { reason: string; pod: string; pods: number; message: string };
  /** With the `fail` option: the rollout where the new version fails so. */
  ifItFails?: IfItFails;
  /** The requests to a Service in front of it over the rollout. */
  traffic?: PlanTraffic;
  /** A manifest's cluster model, defaults filled in. */
  model?: {
    readyAfterSeconds: number; secondsPerRound: number; nodes: number; terminationSeconds: number;
    terminationFrom: string; oldImage: string; newImage: string; badImage: boolean;
    podQuota: number | null; notes: string[];
    /** How the pods start: read from the manifest, assumed, and a new pod's start-up (seconds after admission). */
    startup: {
      read: { containers: { name: string; readinessProbe?: Probe; startupProbe?: Probe; livenessProbe?: Probe }[];
        initContainers: string[]; sidecars: string[]; terminationGracePeriodSeconds: number | null };
      assumed: { pullSeconds: number; appReadySeconds: number };
      timing: "probes" | "containersStarted"; runningSeconds: number; readySeconds: number | null;
      containerStarts: { name: string; started: number | null; ready: number | null; neverBecause?: string }[];
    };
  };
}
/** A probe's timing, Kubernetes' defaults filled in. */
export interface Probe { initialDelaySeconds: number; periodSeconds: number; successThreshold: number; failureThreshold: number; }
/** A sweep's axes: {maxSurge: "0..10", maxUnavailable: [0, 1, "25%"]} (also replicas, minReadySeconds), or the CLI's ["maxSurge=0..10", …]. */
export type SweepAxes = Partial<Record<"maxSurge" | "maxUnavailable" | "replicas" | "minReadySeconds", string | number | (string | number)[]>> | string[];
/** The values a combination gives the Deployment. */
export interface SweepSettings { replicas?: number; maxSurge?: number | string; maxUnavailable?: number | string; minReadySeconds?: number; }
/** One combination, as `rollout plan --sweep … --json` lists it. */
export interface SweepRow { settings: SweepSettings; forecast: Forecast | null; refused?: string; /** With a `fail` option: the combination's rollout where the new version fails so. */ ifItFails?: IfItFails; /** The requests a Service in front of it fails over the rollout (the plan's traffic assumptions). */ failedRequests?: number; }
/** Called after each combination. */
export type SweepProgress = (done: number, total: number) => void;
/** What `kubectl apply` of the new manifest does to the live one (`rollout plan OLD NEW`). */
export interface PlanChange {
  kind: "nothing" | "scale" | "rollout" | "rolloutAndScale" | "spec";
  summary: string; podTemplateHashChanges: boolean; templateFields: string[]; specFields: string[];
}
/** Forecasts a rollout without a cluster: what `rollout plan --json` prints. Throws the API server's message or one naming the option. */
export function plan(input: PlanInput, options?: PlanOptions): PlanResult;
/** Plans a change: `{before, after}` (the live manifest and the new one, text or objects): what `rollout plan OLD NEW --json` prints. */
export function plan(input: { before: PlanInput; after: PlanInput }, options?: PlanOptions): PlanResult & { change: PlanChange };
/** Forecasts every combination of `axes`: what `rollout plan --sweep … --json` prints. Runs on the calling thread. */
export function sweep(input: PlanInput, axes: SweepAxes, options?: SweepProgress | (PlanOptions & { onProgress?: SweepProgress; part?: [number, number] })): SweepRow[];
"#;

/// Plain data of a JS value (JSON text stays text: it may be a manifest or a preset id).
fn plain(value: JsValue, what: &str) -> Result<serde_json::Value, JsError> {
    if let Some(text) = value.as_string() {
        limits::check_text(what, &text).map_err(error)?;
        return Ok(serde_json::Value::String(text));
    }
    if value.is_undefined() || value.is_null() {
        return Ok(serde_json::Value::Null);
    }
    js_input::json_of_object(&value, what).map_err(error)
}

fn model_options(value: JsValue) -> Result<crate::plan_api::ModelOptions, JsError> {
    crate::plan_api::ModelOptions::from_value(plain(value, "the options")?).map_err(error)
}

/// Forecasts a rollout without a cluster: `input` is a preset id, a scenario (its last
/// `setImage`) or a Deployment manifest, planned in the cluster model of `options`. Returns
/// what `rollout plan --json` prints; throws the API server's message or one naming the
/// option. YAML text needs the YAML reader loaded (`await loadYaml()` once).
/// (Its TypeScript declaration is in `PLAN_TYPES`, where `options` can be optional.)
#[wasm_bindgen(skip_typescript)]
pub fn plan(input: JsValue, options: Option<JsValue>) -> Result<JsValue, JsError> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let input = plain(input, "the scenario or manifest")?;
    let options = model_options(options)?;
    if crate::plan_api::is_change(&input) {
        let out = crate::plan_api::plan_change(&input, &options).map_err(error)?;
        return js_of(&out);
    }
    let out = crate::plan_api::plan(&input, &options).map_err(error)?;
    match crate::plan_api::if_it_fails(&input, &options).map_err(error)? {
        // `rollout plan --fail … --json`: the plan with `ifItFails` beside its forecast.
        Some(f) => {
            let mut v = serde_json::to_value(&out).map_err(|e| error(e.to_string()))?;
            v["ifItFails"] = serde_json::to_value(&f).map_err(|e| error(e.to_string()))?;
            js_of(&v)
        }
        None => js_of(&out),
    }
}

/// Forecasts every combination of `axes` for `input` (as [`plan`]), calling `options` (a
/// progress callback, or `{onProgress, part, ...PlanOptions}`) after each; returns what
/// `rollout plan --sweep … --json` prints. Runs on the calling thread: the app runs it in Web
/// Workers (`plan-worker.js`), which share one sweep with `part: [k, n]`: only the
/// combinations k, k + n, k + 2n … of the sweep's order (for example `[1, 2]` of 441: the 220
/// odd ones), progress counted over those.
#[wasm_bindgen(skip_typescript)]
pub fn sweep(input: JsValue, axes: JsValue, options: Option<JsValue>) -> Result<JsValue, JsError> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let (progress, part, options) = match options.dyn_ref::<js_sys::Function>() {
        Some(f) => (Some(f.clone()), JsValue::UNDEFINED, JsValue::UNDEFINED),
        None if options.is_object() => {
            let copy = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
            let take = |key: &str| {
                let v = js_sys::Reflect::get(&copy, &key.into()).unwrap_or(JsValue::UNDEFINED);
                js_sys::Reflect::delete_property(&copy, &key.into()).ok();
                v
            };
            let f = take("onProgress").dyn_into::<js_sys::Function>().ok();
            let part = take("part");
            (f, part, copy.into())
        }
        None => (None, JsValue::UNDEFINED, options),
    };
    let input = plain(input, "the scenario or manifest")?;
    let axes = plain(axes, "the axes")?;
    let prepared =
        crate::plan_api::Prepared::new(&input, &axes, &model_options(options)?).map_err(error)?;
    let (k, n) = part_of(part)?;
    let mine: Vec<usize> = (k..prepared.len()).step_by(n).collect();
    let total = mine.len();
    let mut rows = Vec::with_capacity(total);
    for (done, &i) in mine.iter().enumerate() {
        rows.push(prepared.row(i));
        if let Some(f) = &progress {
            f.call2(
                &JsValue::NULL,
                &((done + 1) as u32).into(),
                &(total as u32).into(),
            )
            .map_err(|e| error(format!("onProgress threw: {}", js_text(&e))))?;
        }
    }
    js_of(&rows)
}

/// The most workers one sweep is shared among (`part`'s n).
const MOST_PARTS: u32 = 64;

/// `sweep()`'s `part: [k, n]` (absent: `[0, 1]`, the whole sweep), or the reason it is not one.
fn part_of(part: JsValue) -> Result<(usize, usize), JsError> {
    let whole = |v: &serde_json::Value| v.as_u64().filter(|&x| x <= u64::from(MOST_PARTS));
    match plain(part, "part")? {
        serde_json::Value::Null => Ok((0, 1)),
        serde_json::Value::Array(a) => {
            match (a.len(), a.first().and_then(whole), a.get(1).and_then(whole)) {
                (2, Some(k), Some(n)) if k < n => Ok((k as usize, n as usize)),
                _ => Err(part_refused()),
            }
        }
        _ => Err(part_refused()),
    }
}

fn part_refused() -> JsError {
    error(format!(
        "Invalid plan options: part must be [k, n], whole numbers with 0 ≤ k < n ≤ {MOST_PARTS}"
    ))
}

fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "an error".into())
}
