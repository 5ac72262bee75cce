//! The Plan page's figures: how long `kubectl set image` takes for the manifest, the most
//! pods at once, the fewest available, whether the progress deadline is exceeded, why a
//! rollout never completes when a pod fits no node (the core's sentence and the scheduler's
//! text), and the planner's warnings; or the API server's message when the manifest is refused.

use rollout_facade::plan::input::PlanOutput;
use yew::prelude::*;

fn opt_attr(v: Option<impl std::fmt::Display>) -> String {
    v.map_or_else(|| "null".to_string(), |v| v.to_string())
}

/// What users see of the rollout (`plan()`'s `traffic`): the failed requests, the lowest
/// served fraction of the load and the core's sentence, with the load it assumed.
fn traffic_figures(t: &rollout_facade::plan::traffic::TrafficForecast) -> Html {
    let (n, a) = (&t.totals, &t.assumptions);
    let lowest = format!("{:.0} %", n.lowest_served_fraction * 100.0);
    html! {
        <div class="plan-traffic" data-testid="plan-traffic"
            data-failed-requests={n.failed.to_string()} data-sent-requests={n.sent.to_string()}
            data-lowest-served={n.lowest_served_fraction.to_string()}>
            <dl class="plan-figures">
                <div class="plan-figure"><dt>{ "Failed requests" }</dt><dd data-testid="plan-failed-requests">{ rollout_facade::limits::group(n.failed as i64) }</dd></div>
                <div class="plan-figure"><dt>{ "Lowest served" }</dt><dd data-testid="plan-lowest-served">{ lowest }</dd></div>
            </dl>
            // The load, and the rest of what is assumed, in the assumptions' "Service and
            // requests" (folded beside the manifest, where it is changed).
            <p class="panel-sub plan-traffic-summary">{ format!(
                "From second {} to {} at {} req/s: {}.",
                n.from, n.to, a.load, t.summary()
            ) }</p>
        </div>
    }
}

/// The forecast `out` (made in `ms` on the page; negative: in the worker).
pub fn forecast_panel(out: &Result<PlanOutput, String>, ms: f64) -> Html {
    let o = match out {
        Err(e) => {
            return html! { <div class="plan-error" role="alert" data-testid="plan-error">{ e.clone() }</div> }
        }
        Ok(o) => o,
    };
    let f = &o.forecast;
    let duration = f
        .duration_seconds
        .map_or("never completes".to_string(), |s| format!("{s} s"));
    html! {
        <div class="plan-forecast" data-testid="forecast" data-plan-json={serde_json::to_string(o).unwrap_or_default()}
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
                    ("Lowest availability", f.min_available.map_or("—".into(), |n| n.to_string())),
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
            if let Some(t) = &o.traffic {
                { traffic_figures(t) }
            }
            if let Some(u) = &o.unschedulable {
                <div class="plan-stuck" data-testid="plan-unschedulable" data-pod={u.pod.clone()}>
                    <p class="plan-stuck-reason">{ u.reason.clone() }</p>
                    <p class="plan-stuck-event"><code>{ u.message.clone() }</code></p>
                </div>
            }
            if !o.warnings.is_empty() {
                <ul class="plan-warnings" data-testid="plan-warnings">
                    { for o.warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }
                </ul>
            }
        </div>
    }
}
