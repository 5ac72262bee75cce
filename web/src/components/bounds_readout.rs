//! The resolved rolling-update bounds: how maxSurge and maxUnavailable round for this many
//! replicas, and the range the pod count stays in during a rollout.

use crate::bounds::Bounds;
use crate::components::pod_strip::{pod_strip, PodStripProps};
use rollout_facade::api::IntOrString;
use yew::prelude::*;

/// What [`bounds_readout`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct BoundsReadoutProps {
    /// The resolved bounds.
    pub bounds: Bounds,
}

fn how(value: &IntOrString, rounding: &str, replicas: i32) -> String {
    match value {
        IntOrString::Int(_) => "a fixed count".to_string(),
        IntOrString::String(p) => format!("{p} of {replicas}, rounded {rounding}"),
    }
}

/// Three figures, a pod strip and a one-line summary.
pub fn bounds_readout(props: &BoundsReadoutProps) -> Html {
    let b = &props.bounds;
    let unavailable_how = if b.zero_rule {
        "both came to 0, so the controller uses 1".to_string()
    } else {
        how(&b.max_unavailable, "down", b.replicas)
    };
    let stats = [
        (
            "surge",
            "maxSurge",
            b.surge.to_string(),
            how(&b.max_surge, "up", b.replicas),
        ),
        (
            "unavailable",
            "maxUnavailable",
            b.unavailable.to_string(),
            unavailable_how,
        ),
        (
            "range",
            "Pods in a rollout",
            format!("{}–{}", b.min_available, b.max_total),
            format!("≥ {} available, ≤ {} in all", b.min_available, b.max_total),
        ),
    ];
    html! {
        <div class="readout" aria-live="polite">
            <dl class="stats">
                { for stats.into_iter().map(|(key, name, value, detail)| html! {
                    <div class={classes!("stat", format!("stat-{key}"))} data-testid={format!("{key}-stat")}>
                        <dt class="stat-name">{ name }</dt>
                        <dd class="stat-value" data-testid={format!("{key}-value")}>{ value }</dd>
                        <dd class="stat-detail">{ detail }</dd>
                    </div>
                }) }
            </dl>
            { pod_strip(&PodStripProps {
                available: b.min_available,
                unavailable: i64::from(b.replicas) - b.min_available,
                surge: i64::from(b.surge),
            }) }
            if b.zero_rule {
                <p class="note" data-testid="zero-rule-note">
                    <strong>{ "Both resolve to 0. " }</strong>
                    { "A rollout could never start, so the controller uses maxUnavailable = 1: \
                       one old pod goes before a new one comes. (The API refuses 0 and 0 written \
                       literally; percentages that round to 0 get this rule.)" }
                </p>
            }
            <p class="summary" data-testid="bounds-summary">{ b.summary() }</p>
        </div>
    }
}
