//! The live readout of the resolved rolling-update bounds.

use crate::bounds::{Bounds, Invalid};
use crate::components::PodStrip;
use rollout_core::api::IntOrString;
use yew::prelude::*;

/// Props of [`BoundsReadout`].
#[derive(Properties, PartialEq, Clone)]
pub struct BoundsReadoutProps {
    /// The resolved bounds, or why there are none.
    pub result: Result<Bounds, Invalid>,
}

/// Resolved bounds: three figures, a pod strip and a one-line summary.
#[function_component(BoundsReadout)]
pub fn bounds_readout(props: &BoundsReadoutProps) -> Html {
    let body = match &props.result {
        Err(invalid) => html! {
            <p class="validation" role="alert" data-testid="validation-message">
                { invalid.message.clone() }
            </p>
        },
        Ok(b) => ok_body(b),
    };
    html! {
        <section class="panel readout" aria-labelledby="readout-title">
            <h2 class="panel-title" id="readout-title">{ "Rolling-update bounds" }</h2>
            <p class="panel-sub">{ "As the Deployment controller resolves them" }</p>
            <div aria-live="polite">{ body }</div>
        </section>
    }
}

fn how(value: &IntOrString, rounding: &str, replicas: i32) -> String {
    match value {
        IntOrString::Int(_) => "a fixed count".to_string(),
        IntOrString::String(p) => format!("{p} of {replicas}, rounded {rounding}"),
    }
}

fn ok_body(b: &Bounds) -> Html {
    let unavailable_how = if b.zero_rule {
        "both were 0, so Kubernetes uses 1".to_string()
    } else {
        how(&b.max_unavailable, "down", b.replicas)
    };
    let stats = [
        (
            "maxSurge",
            b.surge.to_string(),
            how(&b.max_surge, "up", b.replicas),
            "surge",
        ),
        (
            "maxUnavailable",
            b.unavailable.to_string(),
            unavailable_how,
            "unavailable",
        ),
        (
            "Pods during a rollout",
            format!("{}–{}", b.min_available, b.max_total),
            format!(
                "≥ {} available · ≤ {} in total",
                b.min_available, b.max_total
            ),
            "range",
        ),
    ];
    html! {
        <>
            <dl class="stats">
                { for stats.into_iter().map(|(name, value, detail, key)| html! {
                    <div class={classes!("stat", format!("stat-{key}"))} data-testid={format!("{key}-stat")}>
                        <dt class="stat-name">{ name }</dt>
                        <dd class="stat-value" data-testid={format!("{key}-value")}>{ value }</dd>
                        <dd class="stat-detail">{ detail }</dd>
                    </div>
                }) }
            </dl>
            <PodStrip
                available={b.min_available}
                unavailable={i64::from(b.replicas) - b.min_available}
                surge={i64::from(b.surge)}
            />
            if b.zero_rule {
                <p class="note" data-testid="zero-rule-note">
                    <strong>{ "Both resolve to 0. " }</strong>
                    { "A rollout could then never start, so Kubernetes uses maxUnavailable = 1: \
                       it takes one old pod down before it adds a new one." }
                </p>
            }
            <p class="summary" data-testid="bounds-summary">{ b.summary() }</p>
        </>
    }
}
