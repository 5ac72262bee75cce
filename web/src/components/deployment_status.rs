//! The Deployment as kubectl shows it: `get deploy`, the replicas line and conditions of
//! `describe`, and what `rollout status` would print now. Changes since the previous step are
//! highlighted.

use crate::state::Snapshot;
use rollout_facade::ui_support::rollout_status_command;
use rollout_facade::view::{age, DeploymentView};
use std::rc::Rc;
use yew::prelude::*;

/// What [`deployment_status`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct DeploymentStatusProps {
    /// The Deployment (absent before it is created).
    pub deployment: Option<DeploymentView>,
    /// Its name (for messages when absent).
    pub name: AttrValue,
    /// The clock.
    pub now: i64,
    /// The Deployment before the last move.
    pub before: Option<Rc<Snapshot>>,
    /// `kubectl get pods` (the core's printer), or how many pods there are when too many to
    /// print.
    pub get_pods: Result<AttrValue, usize>,
    /// The Kubernetes release its controllers behave as.
    pub kubernetes: rollout_facade::version::KubernetesVersion,
}

/// `kubectl get pods`, beside `rollout status`: kubectl's own table (STATUS
/// `CrashLoopBackOff`, RESTARTS `3 (20s ago)` as the core prints them), or a count of the
/// pods when there are too many to print.
fn get_pods_box(get_pods: &Result<AttrValue, usize>) -> Html {
    html! {
        <div class="rollout-status-box get-pods-box">
            <div class="console-command">{ "$ kubectl get pods" }</div>
            { match get_pods {
                Ok(text) => html! { <pre class="rollout-status get-pods" data-testid="get-pods" tabindex="0" aria-label="kubectl get pods output">{ text.clone() }</pre> },
                Err(n) => html! { <p class="panel-sub" data-testid="get-pods-count">{ format!("{} pods: the table is printed up to {} pods.", crate::settings::group(*n as i64), crate::state::GET_PODS_UP_TO) }</p> },
            } }
        </div>
    }
}

/// The Deployment status panel.
pub fn deployment_status(props: &DeploymentStatusProps) -> Html {
    let Some(d) = &props.deployment else {
        return html! {
            <section class="panel status" aria-labelledby="status-title">
                <h2 class="panel-title" id="status-title">{ "Deployment" }</h2>
                <p class="empty">{ "No Deployment yet: the first step sends the pending " }<code>{ "kubectl create deployment" }</code>{ " to the API server." }</p>
                <div class="rollout-status-box">
                    <div class="console-command">{ format!("$ {}", rollout_status_command(&props.name)) }</div>
                    <pre class="rollout-status is-error" data-testid="rollout-status">{ rollout_facade::kubectl::check_err::not_found("deployments.apps", &props.name) + "\n" }</pre>
                </div>
                { get_pods_box(&props.get_pods) }
            </section>
        };
    };
    let o = &d.object;
    let s = &o.status;
    let changed = |cond: bool| cond.then_some("changed");
    let line_changed = props
        .before
        .as_ref()
        .is_some_and(|b| !b.replicas_line.is_empty() && b.replicas_line != d.replicas_line);
    let status_changed = props.before.as_ref().is_some_and(|b| {
        !b.rollout_status.is_empty() && b.rollout_status != d.rollout_status.message
    });
    let rs = &d.rollout_status;
    let status_class = if rs.error.is_some() {
        "is-error"
    } else if rs.done {
        "is-done"
    } else {
        "is-waiting"
    };
    html! {
        <section class="panel status" aria-labelledby="status-title">
            <div class="panel-head">
                <h2 class="panel-title" id="status-title">{ format!("Deployment {}", d.name) }</h2>
                <div class="chips">
                    <span class="chip-static" data-testid="deploy-strategy">{ o.spec.strategy.text() }</span>
                    if o.spec.paused {
                        <span class="chip-static chip-warn" data-testid="paused-badge">{ "paused" }</span>
                    }
                    <span class="chip-static">{ format!("generation {}", o.metadata.generation) }</span>
                    { crate::components::kubernetes_version(props.kubernetes) }
                </div>
            </div>
            <div class="table-scroll">
                <table class="kubectl-table" data-testid="get-deploy">
                    <caption class="visually-hidden">{ "kubectl get deployment" }</caption>
                    <thead><tr>
                        <th scope="col">{ "NAME" }</th><th scope="col">{ "READY" }</th>
                        <th scope="col">{ "UP-TO-DATE" }</th><th scope="col">{ "AVAILABLE" }</th><th scope="col">{ "AGE" }</th>
                    </tr></thead>
                    <tbody><tr>
                        <td>{ d.name.clone() }</td><td>{ d.ready_column.clone() }</td>
                        <td>{ s.updated_replicas }</td><td>{ s.available_replicas }</td>
                        <td>{ age(props.now - o.metadata.creation_timestamp) }</td>
                    </tr></tbody>
                </table>
            </div>
            <p class={classes!("replicas-line", changed(line_changed))} data-testid="replicas-line">
                <span class="label-inline">{ "Replicas: " }</span>{ d.replicas_line.clone() }
            </p>
            if let Some(t) = d.terminating {
                <p class="replicas-line" data-testid="deploy-terminating" data-terminating={t.to_string()}>
                    <span class="label-inline">{ "status.terminatingReplicas: " }</span><strong>{ t }</strong>
                    <span class="terminating-note">{ " pods of its ReplicaSets being deleted (reported since Kubernetes 1.35)" }</span>
                </p>
            }
            <div class="table-scroll">
                <table class="kubectl-table conditions">
                    <caption class="table-caption">{ "Conditions" }</caption>
                    <thead><tr>
                        <th scope="col">{ "Type" }</th><th scope="col">{ "Status" }</th>
                        <th scope="col">{ "Reason and message" }</th>
                    </tr></thead>
                    <tbody>
                        if d.conditions.is_empty() {
                            <tr><td colspan="3" class="empty">{ "None yet: the controller writes them in its status update." }</td></tr>
                        }
                        { for d.conditions.iter().map(|c| {
                            let is_changed = props.before.as_ref().is_some_and(|b| b.condition_changed(c));
                            html! {
                                <tr class={classes!("condition-row", changed(is_changed), format!("status-{}", c.status.to_ascii_lowercase()))}
                                    data-testid="condition-row" data-type={c.type_.clone()}
                                    data-status={c.status.clone()} data-reason={c.reason.clone()}>
                                    <th scope="row">{ c.type_.clone() }</th>
                                    <td><span class={classes!("cond-status", format!("cond-{}", c.status.to_ascii_lowercase()))}>{ c.status.clone() }</span></td>
                                    <td class="cond-detail">
                                        <span class="mono cond-reason">{ c.reason.clone() }</span>
                                        <span class="cond-message">{ c.message.clone() }</span>
                                    </td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            <div class={classes!("rollout-status-box", changed(status_changed))}>
                <div class="console-command">{ format!("$ {}", rollout_status_command(&d.name)) }</div>
                <pre class={classes!("rollout-status", status_class)} data-testid="rollout-status"
                    data-done={rs.done.to_string()}>{ rs.text() }</pre>
            </div>
            { get_pods_box(&props.get_pods) }
        </section>
    }
}
