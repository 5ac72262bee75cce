//! The forecast of the manifest as typed, made again on each keystroke: on the page with the
//! core's planner (`rollout plan`, `plan()`), or in the worker (`crate::plan_worker`) when the
//! Deployment is big enough that working it out would hold the page.

use crate::plan_api::ModelOptions;
use crate::plan_worker::{start_plan, Remote, Running};
use rollout_facade::plan::input::PlanOutput;
use rollout_facade::scenario::DeploymentInput;
use serde_json::Value;
use std::rc::Rc;
use yew::prelude::*;

/// What the page knows of the manifest's forecast.
pub struct Forecasted {
    /// The manifest's Deployment, when the text reads as one.
    pub deployment: Rc<Option<DeploymentInput>>,
    /// The forecast, or why there is none; `None` while the worker works it out.
    pub out: Option<Result<PlanOutput, String>>,
    /// Milliseconds it took on the page (negative: made in the worker).
    pub ms: f64,
}

/// How much a forecast costs, roughly: pods × (waves of the rolling update + 3, for creating
/// the pods and their first becoming available). 100 replicas with maxSurge 1 and
/// maxUnavailable 0 is 100 waves, 10,300; it takes about 40 ms in the page.
pub fn forecast_cost(d: &DeploymentInput) -> i64 {
    let replicas = i64::from(d.replicas.unwrap_or(1).max(1));
    let waves = match crate::plan_source::current_cell(d) {
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

/// The forecast of `input` (what [`crate::plan_source::plan_input`] gives for `text`) in `model`;
/// made again when the YAML reader becomes ready.
#[hook]
pub fn use_forecast(
    input: &Value,
    text: &str,
    model: &ModelOptions,
    yaml_ready: bool,
) -> Forecasted {
    // Read once per keystroke: the Deployment and, unless it is heavy, the forecast.
    let read = use_memo(
        (input.clone(), model.clone(), yaml_ready),
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
                    rollout_facade::plan::input::plan_subject(&s, &notes).map(|(out, _, _)| out)
                });
                (out, crate::state::now_ms() - t0)
            });
            (Rc::new(deployment), heavy, planned)
        },
    );
    let remote = use_state(|| None as Remote);
    let worker = use_mut_ref(Running::default);
    {
        let (remote, worker) = (remote.clone(), worker.clone());
        use_effect_with(
            (text.to_string(), model.clone(), read.1),
            move |(text, model, heavy)| {
                if *heavy {
                    let key = format!("{text}{}", model.to_value());
                    start_plan(&worker, key, text, model, remote);
                } else {
                    worker.borrow_mut().stop();
                }
                let stop = worker.clone();
                move || stop.borrow_mut().stop()
            },
        );
    }
    let key = format!("{text}{}", model.to_value());
    let (out, ms) = match (&read.2, &*remote) {
        (Some((out, ms)), _) => (Some(out.clone()), *ms),
        (None, Some((k, out))) if *k == key => (Some(out.clone()), -1.0),
        _ => (None, -1.0),
    };
    Forecasted {
        deployment: read.0.clone(),
        out,
        ms,
    }
}
