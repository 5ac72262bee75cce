//! The Plan page's failure question (issue #34): beside the forecast of the rollout that works,
//! the rollout where the new version's app fails as the `fail` option names it (`crash:after=5s`,
//! `probe:after=5s`, `readiness:from=30s,to=90s`, `slow:ready=45s`, `pull`: `rollout plan --fail`'s words): the
//! capacity lost and for how long, the pods stuck, when ProgressDeadlineExceeded is reported,
//! and the time to full availability after `kubectl rollout undo` then. Every figure is the
//! core's (`rollout_facade::plan::failure`).

use crate::plan_api::ModelOptions;
use rollout_facade::plan::failure::FailureForecast;
use serde_json::Value;
use yew::prelude::*;

/// Props of [`FailureForecastPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct FailureForecastProps {
    /// What is planned (as `plan()` takes it).
    pub input: Value,
    /// The model, with its `fail` option.
    pub model: ModelOptions,
    /// The forecast runs in the worker (too big to work out on each keystroke): so would this.
    pub heavy: bool,
    /// The failure typed: (`"fail"`, its text).
    pub on_change: Callback<(&'static str, String)>,
}

/// `12 s`, or `never` for a figure the core leaves empty.
fn seconds(v: Option<i64>, never: &str) -> String {
    v.map_or_else(|| never.to_string(), |s| format!("{s} s"))
}

/// The figures of one failing rollout.
fn figures(f: &FailureForecast) -> Html {
    let mut rows = vec![
        (
            "Capacity lost",
            format!(
                "{} of {} replicas (lowest {} available, for {} s)",
                f.capacity_lost, f.replicas, f.min_available, f.lowest_seconds
            ),
        ),
        (
            "Pods stuck",
            format!(
                "{} new pods not available, {} restarts",
                f.pods_stuck, f.restarts
            ),
        ),
        (
            "ProgressDeadlineExceeded",
            seconds(f.deadline_exceeded_seconds, "never reported")
                + if f.deadline_exceeded_seconds.is_some() {
                    " after the image is set"
                } else {
                    ""
                },
        ),
        (
            "kubectl rollout undo then",
            match (f.undo_seconds, f.deadline_exceeded_seconds) {
                (Some(s), _) => format!("all {} replicas available {s} s later", f.replicas),
                (None, Some(_)) => "not available again within the scenario".to_string(),
                (None, None) => "—".to_string(),
            },
        ),
    ];
    // What users see while it fails: the requests to the Service that failed, under the plan's
    // traffic assumptions (the core's `failedRequests` and `sentRequests`).
    if let (Some(failed), Some(sent)) = (f.failed_requests, f.sent_requests) {
        rows.push((
            "Failed requests",
            format!(
                "{} of {} ({:.1} %)",
                rollout_facade::limits::group(failed as i64),
                rollout_facade::limits::group(sent as i64),
                failed as f64 * 100.0 / sent.max(1) as f64
            ),
        ));
    }
    html! {
        <dl class="plan-figures" data-testid="fail-forecast"
            data-capacity-lost={f.capacity_lost.to_string()} data-min-available={f.min_available.to_string()}
            data-deadline-exceeded-seconds={f.deadline_exceeded_seconds.map(|s| s.to_string())}
            data-undo-seconds={f.undo_seconds.map(|s| s.to_string())}
            data-failed-requests={f.failed_requests.map(|n| n.to_string())}>
            { for rows.into_iter().map(|(dt, dd)| html! {
                <div class="plan-figure"><dt>{ dt }</dt><dd>{ dd }</dd></div>
            }) }
            if let Some(s) = f.completes_after_seconds {
                <p class="panel-sub">{ format!("The rollout completes anyway after {s} s: its pods are Ready before they fail.") }</p>
            }
        </dl>
    }
}

/// The failure field and the failing rollout's figures (or why there are none).
#[function_component(FailureForecastPanel)]
pub fn failure_forecast_panel(props: &FailureForecastProps) -> Html {
    let out = use_memo(
        (props.input.clone(), props.model.clone(), props.heavy),
        |(input, model, heavy)| (!heavy).then(|| crate::plan_api::if_it_fails(input, model)),
    );
    let text = match props.model.get("fail") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let oninput = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_change.emit(("fail", input.value()));
        })
    };
    html! {
        <div class="plan-failure" data-testid="plan-failure">
            <label class="field-label" for="plan-fail">{ "If the new version fails" }</label>
            <input id="plan-fail" class="field-input" type="text" spellcheck="false" data-testid="plan-fail"
                placeholder="crash:after=5s" value={text} {oninput} aria-describedby="plan-fail-hint" />
            <p class="field-hint" id="plan-fail-hint">{ "As rollout plan --fail and a scenario's model.failures name it: crash:after=5s, probe:after=5s, readiness:from=30s,to=90s, slow:ready=45s or pull." }</p>
            { match &*out {
                None => html! { <p class="panel-sub">{ "Worked out for Deployments small enough to forecast on the page." }</p> },
                Some(Ok(None)) => Html::default(),
                Some(Ok(Some(f))) => figures(f),
                Some(Err(e)) => html! { <p class="plan-error" role="alert" data-testid="plan-fail-error">{ e.clone() }</p> },
            } }
        </div>
    }
}
