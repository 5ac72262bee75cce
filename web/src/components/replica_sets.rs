//! The ReplicaSets as cards (`kubectl get rs` counts, revision, image), each with its pods
//! drawn one by one (the stage's tokens, `pod_token`), or as a density bar when there are
//! many. The app page draws the pods on the stage and keeps only the cards' counts here; the
//! embed draws them in the cards.

use crate::components::pod_token::{
    density, describe_pods, pod_legend, pod_token, small_grid, with_ghosts, Look, Motion,
    DENSITY_ABOVE, SMALL_ABOVE,
};
use crate::state::Snapshot;
use rollout_facade::ui_support::DepartedPod;
use rollout_facade::view::ReplicaSetView;
use std::collections::HashMap;
use std::rc::Rc;
use yew::prelude::*;

/// Endpoint marks by pod name (`crate::state::traffic::marks`).
pub type Marks = Rc<HashMap<String, crate::state::traffic::EndpointMark>>;

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
    /// The pods as the Service's endpoints (an embed with `traffic` on), by pod name.
    #[prop_or_default]
    pub marks: Option<Marks>,
}

/// One ReplicaSet's pods, the same tokens as the stage's (`pod_token`): a tooltip each while
/// they are big enough to point at, a density bar above [`DENSITY_ABOVE`].
#[function_component(PodGrid)]
pub fn pod_grid(props: &PodGridProps) -> Html {
    let motion = use_mut_ref(Motion::default);
    let pods = &props.rs.pods;
    let small = pods.len() + props.departed.len() > SMALL_ABOVE;
    if pods.len() > DENSITY_ABOVE {
        motion.borrow_mut().update(pods, false, true);
        return density(pods, true);
    }
    let mut motion = motion.borrow_mut();
    let changes = motion.update(pods, !props.departed.is_empty(), small);
    if small {
        // Hundreds of small tokens change in place: one piece of HTML (see `small_grid`).
        return small_grid(
            pods,
            props.selected.as_deref(),
            "pod-grid pod-grid-small",
            &describe_pods(pods),
        );
    }
    let token = |p: &rollout_facade::view::PodView| {
        let title = if let Some(why) = &p.unschedulable {
            format!("{} · {} · not scheduled: {why}", p.name, p.state.label())
        } else if p.node.is_empty() {
            format!("{} · {} · not scheduled", p.name, p.state.label())
        } else {
            format!("{} · {} · {}", p.name, p.state.label(), p.node)
        };
        pod_token(
            p,
            Look {
                fresh: changes.fresh.contains(p.name.as_str()),
                now_ready: changes.now_ready.contains(p.name.as_str()),
                selected: props.selected.as_deref() == Some(p.name.as_str()),
                doomed: p.next_deletion,
                focus: None,
                title: Some(title),
                endpoint: props.marks.as_ref().and_then(|m| m.get(&p.name)).cloned(),
            },
        )
    };
    let items = with_ghosts(pods, &props.departed, token);
    html! {
        <div class={classes!("pod-grid", changes.batch)}
            role="img" aria-label={describe_pods(pods)}>
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
    /// The level of its name's heading (0: not a heading; `chart_panel::panel_tags`).
    #[prop_or(3)]
    pub heading: u8,
    /// The pods as the Service's endpoints (an embed with `traffic` on), by pod name.
    #[prop_or_default]
    pub marks: Option<Marks>,
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
            data-terminating={rs.terminating.map(|t| t.to_string())}
            data-new={rs.is_new.to_string()}
            aria-label={format!("ReplicaSet {}, revision {}, {}", rs.name, rs.revision, rs.image)}
        >
            <header class="rs-head">
                <div class="rs-title">
                    <@{crate::components::chart_panel::panel_tags(props.heading).1} class="rs-name">
                        <button type="button" class="rs-inspect" data-testid="rs-inspect"
                            aria-pressed={if card_selected { "true" } else { "false" }}
                            title="Inspect this ReplicaSet (Inside the controllers)">{ rs.name.clone() }</button>
                    </@>
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
                if let Some(t) = rs.terminating {
                    <div class="rs-count rs-count-terminating" title="status.terminatingReplicas (reported since Kubernetes 1.35)" data-testid="rs-terminating">
                        <dt>{ "TERMINATING" }</dt>
                        <dd>{ t }</dd>
                    </div>
                }
            </dl>
            if !empty && props.pods {
                <PodGrid rs={rs.clone()} departed={props.departed.clone()} selected={pod_selected} marks={props.marks.clone()} />
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
    /// The level of its heading; 0 for no heading and no region (`chart_panel::panel_tags`).
    #[prop_or(2)]
    pub heading: u8,
    /// The pods as the Service's endpoints (an embed with `traffic` on), by pod name.
    #[prop_or_default]
    pub marks: Option<Marks>,
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
    let (panel, title) = crate::components::chart_panel::panel_tags(props.heading);
    html! {
        <@{panel} class="panel replicasets" aria-labelledby="rs-title">
            <div class="panel-head">
                <@{title} class="panel-title" id="rs-title">{ if props.pods { "ReplicaSets and pods" } else { "ReplicaSets" } }</@>
                if props.pods {
                    { pod_legend() }
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
                    html! { <ReplicaSetCard key={rs.name.clone()} rs={rs.clone()} {departed} {changed} selected={props.selected.clone()} pods={props.pods} marks={props.marks.clone()}
                        heading={if props.heading == 0 { 0 } else { props.heading + 1 }} /> }
                }) }
            </div>
        </@>
    }
}
