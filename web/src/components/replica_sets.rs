//! The ReplicaSets as cards (`kubectl get rs` counts, revision, image), each with its pods
//! drawn one by one, coloured and shaped by state, or as a density bar when there are many.

use crate::state::Snapshot;
use rollout_core::ui_support::DepartedPod;
use rollout_core::view::{PodState, PodView, ReplicaSetView};
use std::rc::Rc;
use yew::prelude::*;

/// Above this many pods a ReplicaSet's pods are drawn as a density bar, not one by one.
pub const DENSITY_THRESHOLD: usize = 500;
/// Above this many pods the individual pods are drawn small.
pub const SMALL_THRESHOLD: usize = 48;

/// Every state, in the order a pod goes through them.
pub const STATES: [PodState; 5] = [
    PodState::Pending,
    PodState::Running,
    PodState::Ready,
    PodState::Available,
    PodState::Terminating,
];

/// A CSS-friendly key of a state.
pub fn state_key(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "pending",
        PodState::Running => "running",
        PodState::Ready => "ready",
        PodState::Available => "available",
        PodState::Terminating => "terminating",
    }
}

/// How many pods are in each state, in [`STATES`] order.
pub fn count_states(pods: &[PodView]) -> [usize; 5] {
    let mut counts = [0; 5];
    for p in pods {
        if let Some(i) = STATES.iter().position(|s| *s == p.state) {
            counts[i] += 1;
        }
    }
    counts
}

/// `3 pods: 2 Available, 1 Pending`.
pub fn describe_pods(pods: &[PodView]) -> String {
    if pods.is_empty() {
        return "no pods".to_string();
    }
    let counts = count_states(pods);
    let parts: Vec<String> = STATES
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {}", s.label()))
        .collect();
    format!(
        "{} {}: {}",
        pods.len(),
        if pods.len() == 1 { "pod" } else { "pods" },
        parts.join(", ")
    )
}

/// The legend of pod states.
#[function_component(PodLegend)]
pub fn pod_legend() -> Html {
    html! {
        <ul class="pod-legend" aria-label="Pod states">
            { for STATES.iter().map(|s| html! {
                <li class="legend-item">
                    <span class={classes!("pod", "pod-sample", format!("pod-{}", state_key(*s)))} aria-hidden="true" />
                    { s.label() }
                </li>
            }) }
            <li class="legend-item">
                <span class="pod pod-sample pod-gone" aria-hidden="true" />{ "Deleted this step" }
            </li>
        </ul>
    }
}

/// Props of [`PodGrid`].
#[derive(Properties, PartialEq, Clone)]
pub struct PodGridProps {
    /// The ReplicaSet whose pods (by name) are drawn.
    pub rs: Rc<ReplicaSetView>,
    /// Pods of this ReplicaSet that the last step removed (they fade out).
    #[prop_or_default]
    pub departed: Vec<String>,
    /// The pod being inspected, if it is one of these.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
}

/// One ReplicaSet's pods.
#[function_component(PodGrid)]
pub fn pod_grid(props: &PodGridProps) -> Html {
    // Hooks first, unconditionally (see the grid below for what it remembers).
    let memory = use_mut_ref(|| (std::collections::HashMap::<String, PodState>::new(), 0u32));
    let pods = &props.rs.pods;
    let label = describe_pods(pods);
    if pods.len() > DENSITY_THRESHOLD {
        memory.borrow_mut().0.clear();
        let counts = count_states(pods);
        return html! {
            <div class="pod-density" data-testid="pod-density">
                <div class="density-bar" role="img" aria-label={label}>
                    { for STATES.iter().zip(counts).filter(|(_, n)| *n > 0).map(|(s, n)| html! {
                        <span class={classes!("density-seg", format!("pod-{}", state_key(*s)))}
                            style={format!("flex-grow: {n}")} title={format!("{n} {}", s.label())} />
                    }) }
                </div>
                <ul class="density-counts">
                    { for STATES.iter().zip(counts).filter(|(_, n)| *n > 0).map(|(s, n)| html! {
                        <li><span class={classes!("pod", "pod-sample", format!("pod-{}", state_key(*s)))} aria-hidden="true" />
                            <strong>{ crate::settings::group(n as i64) }</strong>{ format!(" {}", s.label()) }</li>
                    }) }
                </ul>
                <p class="density-note">{ format!("{} pods: drawn as a density bar above {DENSITY_THRESHOLD} per ReplicaSet.", crate::settings::group(pods.len() as i64)) }</p>
            </div>
        };
    }
    // What changed since this grid last drew: new pods fade and grow in, pods that just
    // became ready pulse, and departed pods (merged back in by name, so they stay where they
    // were) shrink away. One animation on the grid drives them all through inherited custom
    // properties: starting hundreds of per-pod CSS animations at once costs far more.
    let (fresh, now_ready, batch) = {
        let mut m = memory.borrow_mut();
        let mut fresh = std::collections::HashSet::new();
        let mut now_ready = std::collections::HashSet::new();
        for p in pods {
            match m.0.get(&p.name) {
                None => {
                    fresh.insert(p.name.clone());
                }
                Some(before) => {
                    let ready = |s: PodState| matches!(s, PodState::Ready | PodState::Available);
                    if ready(p.state) && !ready(*before) {
                        now_ready.insert(p.name.clone());
                    }
                }
            }
        }
        if !fresh.is_empty() || !now_ready.is_empty() || !props.departed.is_empty() {
            m.1 = m.1.wrapping_add(1);
        }
        m.0 = pods.iter().map(|p| (p.name.clone(), p.state)).collect();
        (fresh, now_ready, m.1)
    };
    let small = pods.len() + props.departed.len() > SMALL_THRESHOLD;
    let mut items: Vec<Html> = Vec::with_capacity(pods.len() + props.departed.len());
    let mut gone = props.departed.iter().peekable();
    let ghost = |name: &str| {
        html! {
            <span key={name.to_string()} class="pod pod-gone" title={(!small).then(|| format!("{name} · deleted"))} />
        }
    };
    for p in pods {
        while let Some(g) = gone.peek() {
            if g.as_str() < p.name.as_str() {
                items.push(ghost(g));
                gone.next();
            } else {
                break;
            }
        }
        // A tooltip per pod while they are big enough to point at; hundreds of small pods
        // rely on the grid's summary (and save a DOM attribute each).
        let title = (!small).then(|| {
            if p.node.is_empty() {
                format!("{} · {} · not scheduled", p.name, p.state.label())
            } else {
                format!("{} · {} · {}", p.name, p.state.label(), p.node)
            }
        });
        let class = classes!(
            "pod",
            format!("pod-{}", state_key(p.state)),
            fresh.contains(&p.name).then_some("pod-new"),
            now_ready.contains(&p.name).then_some("pod-now-ready"),
            (props.selected.as_deref() == Some(p.name.as_str())).then_some("pod-selected"),
        );
        // `data-pod`: a click on the pod inspects it (handled once, by the ReplicaSet list).
        items.push(
            html! { <span key={p.name.clone()} {class} {title} data-pod={p.name.clone()} /> },
        );
    }
    for g in gone {
        items.push(ghost(g));
    }
    html! {
        <div class={classes!("pod-grid", small.then_some("pod-grid-small"), if batch % 2 == 0 { "batch-a" } else { "batch-b" })}
            role="img" aria-label={label}>
            { for items }
        </div>
    }
}

/// Props of [`ReplicaSetCard`].
#[derive(Properties, PartialEq, Clone)]
pub struct ReplicaSetCardProps {
    /// The ReplicaSet.
    pub rs: Rc<ReplicaSetView>,
    /// Its pods that the last step removed.
    #[prop_or_default]
    pub departed: Vec<String>,
    /// Which of DESIRED, CURRENT, READY, AVAILABLE changed in the last move.
    #[prop_or_default]
    pub changed: [bool; 4],
    /// The inspected object (`kind/name`), if any.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    /// Draw its pods.
    #[prop_or(true)]
    pub pods: bool,
}

/// One ReplicaSet.
#[function_component(ReplicaSetCard)]
pub fn replica_set_card(props: &ReplicaSetCardProps) -> Html {
    let rs = &props.rs;
    let counts = [
        ("DESIRED", rs.desired, "spec.replicas"),
        ("CURRENT", rs.current, "status.replicas"),
        ("READY", rs.ready, "status.readyReplicas"),
        ("AVAILABLE", rs.available, "status.availableReplicas"),
    ];
    let empty = rs.desired == 0 && rs.pods.is_empty() && props.departed.is_empty();
    let selected = props.selected.as_deref().and_then(|s| s.split_once('/'));
    let card_selected = selected == Some(("replicaset", rs.name.as_str()));
    let pod_selected = match selected {
        Some(("pod", name)) => Some(AttrValue::from(name.to_string())),
        _ => None,
    };
    html! {
        <article
            class={classes!("rs-card", if rs.is_new { "rs-new" } else { "rs-old" }, empty.then_some("rs-empty"), card_selected.then_some("rs-selected"))}
            data-testid="rs-card"
            data-name={rs.name.clone()}
            data-revision={rs.revision.clone()}
            data-image={rs.image.clone()}
            data-desired={rs.desired.to_string()}
            data-current={rs.current.to_string()}
            data-ready={rs.ready.to_string()}
            data-available={rs.available.to_string()}
            data-new={rs.is_new.to_string()}
            aria-label={format!("ReplicaSet {}, revision {}, {}", rs.name, rs.revision, rs.image)}
        >
            <header class="rs-head">
                <div class="rs-title">
                    <h3 class="rs-name">
                        <button type="button" class="rs-inspect" data-testid="rs-inspect"
                            aria-pressed={if card_selected { "true" } else { "false" }}
                            title="Inspect this ReplicaSet (Inside the controllers)">{ rs.name.clone() }</button>
                    </h3>
                    <span class={classes!("badge", if rs.is_new { "badge-new" } else { "badge-old" })}>
                        { if rs.is_new { "new" } else { "old" } }
                    </span>
                </div>
                <div class="rs-meta">
                    <span>{ format!("revision {}", rs.revision) }</span>
                    <code class="rs-image">{ rs.image.clone() }</code>
                </div>
            </header>
            <dl class="rs-counts">
                { for counts.iter().zip(props.changed).map(|((name, value, field), changed)| html! {
                    <div class={classes!("rs-count", changed.then_some("changed"))} title={*field}>
                        <dt>{ *name }</dt>
                        <dd>{ *value }</dd>
                    </div>
                }) }
            </dl>
            if !empty && props.pods {
                <PodGrid rs={rs.clone()} departed={props.departed.clone()} selected={pod_selected} />
            }
            if let Some(f) = &rs.failure {
                <p class="rs-failure" role="note"><strong>{ "ReplicaFailure: " }</strong>{ f.clone() }</p>
            }
            if let (Some(d), Some(m)) = (&rs.desired_annotation, &rs.max_annotation) {
                <p class="rs-annotations">
                    <span title="deployment.kubernetes.io/desired-replicas">{ format!("desired-replicas {d}") }</span>
                    <span title="deployment.kubernetes.io/max-replicas">{ format!("max-replicas {m}") }</span>
                </p>
            }
        </article>
    }
}

/// Props of [`ReplicaSets`].
#[derive(Properties, PartialEq, Clone)]
pub struct ReplicaSetsProps {
    /// In creation order.
    pub replica_sets: Rc<Vec<Rc<ReplicaSetView>>>,
    /// Pods the last step removed.
    pub departed: Vec<DepartedPod>,
    /// The state before the last move.
    pub before: Option<Rc<Snapshot>>,
    /// The inspected object (`kind/name`), if any.
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    /// Called with `replicaset/NAME` or `pod/NAME` when a card or a pod is clicked.
    #[prop_or_default]
    pub on_select: Callback<String>,
    /// Draw each card's pods (the app page draws them on the stage instead).
    #[prop_or(true)]
    pub pods: bool,
}

/// What a click inside the ReplicaSet list points at: a pod, else a card.
fn clicked_object(e: &MouseEvent) -> Option<String> {
    let target: web_sys::Element = e.target_dyn_into()?;
    if let Some(pod) = target.closest("[data-pod]").ok().flatten() {
        return Some(format!("pod/{}", pod.get_attribute("data-pod")?));
    }
    let card = target.closest("[data-testid=rs-card]").ok().flatten()?;
    Some(format!("replicaset/{}", card.get_attribute("data-name")?))
}

/// Every ReplicaSet, newest first.
#[function_component(ReplicaSets)]
pub fn replica_sets(props: &ReplicaSetsProps) -> Html {
    html! {
        <section class="panel replicasets" aria-labelledby="rs-title">
            <div class="panel-head">
                <h2 class="panel-title" id="rs-title">{ if props.pods { "ReplicaSets and pods" } else { "ReplicaSets" } }</h2>
                if props.pods {
                    <PodLegend />
                }
            </div>
            if props.replica_sets.is_empty() {
                <p class="empty">{ "No ReplicaSets yet. The Deployment controller creates the first one in its first sync." }</p>
            }
            <div class="rs-list" onclick={
                let on_select = props.on_select.clone();
                Callback::from(move |e: MouseEvent| {
                    if let Some(object) = clicked_object(&e) {
                        on_select.emit(object);
                    }
                })
            }>
                { for props.replica_sets.iter().rev().map(|rs| {
                    let departed: Vec<String> = props.departed.iter()
                        .filter(|d| d.replica_set == rs.name)
                        .map(|d| d.name.clone())
                        .collect();
                    let changed = props.before.as_ref().map_or([false; 4], |b| {
                        b.counts_changed(&rs.name, [rs.desired, rs.current, rs.ready, rs.available])
                    });
                    html! { <ReplicaSetCard key={rs.name.clone()} rs={rs.clone()} {departed} {changed} selected={props.selected.clone()} pods={props.pods} /> }
                }) }
            </div>
        </section>
    }
}
