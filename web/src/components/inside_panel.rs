//! "Inside the controllers"' panel: draws a [`crate::inside::InsideFrame`] in the app's section
//! (`components/inside_section.rs`) and sends its requests back as [`Request`]s.

use crate::components::flow_diagram::{flow_diagram, FlowDiagramProps};
use crate::components::object_inspector::ObjectInspector;
use crate::components::rs_internals::{replica_set_internals, ReplicaSetInternalsProps};
use crate::inside::{InsideFrame, PodFacts, Request};
use rollout_facade::scenario::ActionKind;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What [`inside_panel`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct InsidePanelProps {
    /// What to show.
    pub frame: Rc<InsideFrame>,
    /// Asks the app for something.
    pub on_request: Callback<Request>,
}

/// The pod's own controls: its deletion cost annotation and a container restart.
fn pod_actions(pod: &PodFacts, on_request: &Callback<Request>) -> Html {
    let input = NodeRef::default();
    let annotate = {
        let (input, on_request, name) = (input.clone(), on_request.clone(), pod.name.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let value = text.trim();
            let value = if value.is_empty() {
                None
            } else {
                match value.parse::<i32>() {
                    Ok(v) => Some(v),
                    // The input is numeric; anything else is left for the browser to flag.
                    Err(_) => return,
                }
            };
            on_request.emit(Request::Act(ActionKind::SetPodDeletionCost {
                pod: name.clone(),
                value,
            }));
        })
    };
    let restart = {
        let (on_request, name) = (on_request.clone(), pod.name.clone());
        Callback::from(move |_: MouseEvent| {
            on_request.emit(Request::Act(ActionKind::RestartPod { pod: name.clone() }))
        })
    };
    html! { <>
        if let Some(m) = &pod.unschedulable {
            <p class="inside-pod-reason" data-testid="pod-unschedulable" role="note">
                <code>{ "PodScheduled=False Unschedulable" }</code>{ ": " }{ m.clone() }
            </p>
        }
        if let Some(r) = pod.reason {
            <p class="inside-pod-reason" data-testid="pod-reason" role="note">
                { "STATUS " }<code>{ r }</code>{ ": the kubelet cannot pull the image, so the container never starts (kubectl get pods shows it)" }
            </p>
        }
        <form class="inside-pod-actions" onsubmit={annotate} aria-label={format!("Act on pod {}", pod.name)}>
            <label for="inside-cost">
                <code>{ "pod-deletion-cost" }</code>
            </label>
            <input id="inside-cost" ref={input} type="number" inputmode="numeric"
                min="-2147483648" max="2147483647" step="1"
                data-testid="deletion-cost-input"
                value={if pod.annotated { pod.deletion_cost.to_string() } else { String::new() }}
                placeholder="none" aria-describedby="inside-cost-help" />
            <button type="submit" class="btn btn-small" data-testid="deletion-cost-button">{ "Annotate" }</button>
            <button type="button" class="btn btn-small" data-testid="restart-pod-button" onclick={restart}>
                { format!("Restart its container ({} so far)", pod.restarts) }
            </button>
            <p class="inside-help" id="inside-cost-help">
                { "Lower cost is deleted first when the ReplicaSet scales down (empty removes the annotation). Both take effect at the start of the next round." }
            </p>
        </form>
    </> }
}

/// `kubectl describe pod NAME`, the core's printout of the pod's status and events, open by
/// default for a pod whose container restarted or waits (the State, Last State and Events
/// say why).
fn pod_describe(pod: &PodFacts) -> Html {
    let open = pod.restarts > 0 || pod.reason.is_some() || pod.describe.contains("Waiting");
    html! {
        <details class="inside-describe" open={open} data-testid="describe-pod">
            <summary><code>{ format!("$ kubectl describe pod {}", pod.name) }</code></summary>
            <pre class="inside-describe-out" tabindex="0"
                aria-label={format!("kubectl describe pod {} output", pod.name)}
                data-testid="describe-pod-output">{ pod.describe.clone() }</pre>
        </details>
    }
}

/// The three views side by side (stacked on narrow screens).
pub fn inside_panel(props: &InsidePanelProps) -> Html {
    let frame = &*props.frame;
    let on_pick = {
        let on_request = props.on_request.clone();
        Callback::from(move |e: Event| {
            let target: Option<web_sys::HtmlSelectElement> = e.target_dyn_into();
            if let Some(select) = target {
                on_request.emit(Request::Select(select.value()));
            }
        })
    };
    html! {
        <div class="inside" data-testid="inside-panel" data-steps={frame.steps.to_string()}>
            <div class="inside-col">
                <div class="inside-picker">
                    <label class="field-label" for="inside-object">{ "Object" }</label>
                    <select id="inside-object" class="field-input" data-testid="object-select" onchange={on_pick}>
                        { for frame.objects.iter().map(|(r, label)| html! {
                            <option value={r.clone()} selected={*r == frame.selected}>{ label.clone() }</option>
                        }) }
                    </select>
                </div>
                if let Some(pod) = &frame.pod {
                    { pod_actions(pod, &props.on_request) }
                    { pod_describe(pod) }
                }
                if let Some(m) = &frame.missing {
                    <p class="inside-missing" data-testid="object-missing">{ m.clone() }</p>
                }
                if !frame.lines.is_empty() {
                    <ObjectInspector title={AttrValue::from(frame.selected.clone())}
                        lines={frame.lines.clone()} changed={frame.changed.clone()} />
                }
            </div>
            <div class="inside-col">
                <section class="inside-flow" aria-labelledby="inside-flow-title">
                    <h3 id="inside-flow-title" class="inside-subtitle">{ "Decision flow" }</h3>
                    { match &frame.flow {
                        Some((flow, caption)) => html! {
                            <>
                                <p class="inside-caption" data-testid="flow-caption">{ caption.clone() }</p>
                                { flow_diagram(&FlowDiagramProps { flow: flow.clone() }) }
                            </>
                        },
                        None => html! {
                            <p class="inside-caption">{ "No controller has synced yet: step forward." }</p>
                        },
                    } }
                </section>
                <section class="inside-rs" aria-labelledby="inside-rs-title">
                    <h3 id="inside-rs-title" class="inside-subtitle">{ "ReplicaSet controller" }</h3>
                    if frame.syncs.is_empty() {
                        <p class="inside-caption">{ "No ReplicaSets yet." }</p>
                    }
                    { for frame.syncs.iter().map(|s| html! {
                        <div class={classes!("inside-sync", s.now.then_some("inside-sync-now"))} key={s.name.clone()}>
                            <p class="inside-caption">
                                { match (&s.report, s.now) {
                                    (None, _) => "Not synced yet.".to_string(),
                                    (Some(_), true) => format!("Synced in this step ({}).", s.step + 1),
                                    (Some(_), false) => format!("Last synced in step {}.", s.step + 1),
                                } }
                            </p>
                            { replica_set_internals(&ReplicaSetInternalsProps {
                                name: AttrValue::from(s.name.clone()),
                                report: s.report.clone(),
                                now: s.time,
                            }) }
                        </div>
                    }) }
                </section>
            </div>
        </div>
    }
}
