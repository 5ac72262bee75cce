//! A picture of the bounds: the pods that must stay available, the ones that may be down,
//! and the extra ones a surge allows.

use crate::bounds::pods;
use yew::prelude::*;

/// Above this many pods in total the strip draws proportional bands instead of one box a pod.
pub const MAX_DRAWN_PODS: i64 = 60;

/// What [`pod_strip`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct PodStripProps {
    /// Pods that always stay available.
    pub available: i64,
    /// Pods that may be unavailable.
    pub unavailable: i64,
    /// Extra pods above replicas.
    pub surge: i64,
}

/// The strip with its legend.
pub fn pod_strip(props: &PodStripProps) -> Html {
    let total = props.available + props.unavailable + props.surge;
    let segments = [
        ("available", props.available),
        ("unavailable", props.unavailable),
        ("surge", props.surge),
    ];
    let label = format!(
        "{} always available, up to {} may be unavailable, up to {} extra during the rollout",
        pods(props.available),
        pods(props.unavailable),
        pods(props.surge)
    );
    let strip = if total <= MAX_DRAWN_PODS {
        html! {
            <div class="pod-strip pod-strip-discrete" role="img" aria-label={label}>
                { for segments.iter().flat_map(|&(kind, n)| {
                    (0..n).map(move |_| html! { <span class={classes!("strip-cell", format!("strip-{kind}"))} /> })
                }) }
            </div>
        }
    } else {
        html! {
            <div class="pod-strip pod-strip-bands" role="img" aria-label={label}>
                { for segments.iter().filter(|(_, n)| *n > 0).map(|&(kind, n)| html! {
                    <span class={classes!("band", format!("strip-{kind}"))} style={format!("flex-grow: {n}")} />
                }) }
            </div>
        }
    };
    html! {
        <figure class="strip">
            { strip }
            <figcaption class="legend">
                <span class="legend-item"><span class="swatch strip-available" />{ format!("{} always available", pods(props.available)) }</span>
                <span class="legend-item"><span class="swatch strip-unavailable" />{ format!("{} may be down", props.unavailable) }</span>
                <span class="legend-item"><span class="swatch strip-surge" />{ format!("{} extra allowed", props.surge) }</span>
            </figcaption>
        </figure>
    }
}
