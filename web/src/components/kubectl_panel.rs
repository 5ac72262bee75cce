//! What a user does with kubectl: roll out a new image, scale, pause and resume, undo (to the
//! previous or a chosen revision), the legacy rollback annotation; the queue of pending
//! actions and the console with kubectl's answers.

use crate::components::Select;
use crate::state::{ConsoleEntry, Msg, PendingRow};
use rollout_facade::scenario::ActionKind;
use rollout_facade::ui_support::{kubectl_command, HistoryEntry};
use yew::prelude::*;

/// Props of [`KubectlPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct KubectlPanelProps {
    /// The Deployment's name.
    pub deployment: AttrValue,
    /// The image "Roll out" sets.
    pub next_image: AttrValue,
    /// Whether that image never becomes ready.
    pub next_image_broken: bool,
    /// The replicas field's text (what `kubectl scale` sends).
    pub replicas: AttrValue,
    /// Paused once the pending actions apply.
    pub paused: bool,
    /// `kubectl rollout history`.
    pub history: Vec<HistoryEntry>,
    /// Actions not applied yet.
    pub pending: Vec<PendingRow>,
    /// The console, oldest first.
    pub console: Vec<ConsoleEntry>,
    /// The round a new action would take effect in.
    pub next_round: u32,
    /// The pod quota once the pending actions apply (`None`: no quota).
    #[prop_or_default]
    pub quota: Option<i32>,
    /// Receives the commands.
    pub on_msg: Callback<Msg>,
}

/// The text in the quota's field (read when the button is pressed: no state to keep).
fn quota_field() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("quota-pods"))
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e).ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

/// The kubectl panel.
#[function_component(KubectlPanel)]
pub fn kubectl_panel(props: &KubectlPanelProps) -> Html {
    let revision = use_state(|| "0".to_string());
    let send = |msg: Msg| {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(msg.clone()))
    };
    let chosen: i64 = revision.parse().unwrap_or(0);
    let on_revision = {
        let revision = revision.clone();
        Callback::from(move |v: String| revision.set(v))
    };
    let mut options: Vec<(AttrValue, AttrValue)> =
        vec![("0".into(), "the previous revision".into())];
    for h in &props.history {
        options.push((
            h.revision.to_string().into(),
            format!(
                "revision {} ({}){}",
                h.revision,
                h.image,
                if h.current { " · current" } else { "" }
            )
            .into(),
        ));
    }
    let chosen_value: AttrValue = if options.iter().any(|(v, _)| v.as_str() == revision.as_str()) {
        (*revision).clone().into()
    } else {
        "0".into()
    };
    let name = &props.deployment;
    // Each button's title is the command it queues, in the core's words (`kubectl_command`).
    let command = |kind: ActionKind| kubectl_command(&kind, name);
    html! {
        <section class="panel kubectl" aria-labelledby="kubectl-title">
            <div class="panel-head">
                <h2 class="panel-title" id="kubectl-title">{ "kubectl" }</h2>
                <p class="panel-sub">{ format!("Commands take effect at the start of the next round (round {}); until then they are pending.", props.next_round) }</p>
            </div>
            <div class="kubectl-actions">
                <button type="button" class="btn btn-accent" data-testid="update-image-button"
                    onclick={send(Msg::UpdateImage)}
                    title={command(ActionKind::SetImage { name: None, image: props.next_image.to_string() })}>
                    <span class="btn-main">{ "Roll out new image" }</span>
                    <code class={classes!("btn-code", props.next_image_broken.then_some("is-broken"))}>
                        { props.next_image.clone() }
                        if props.next_image_broken { { " (never ready)" } }
                    </code>
                </button>
                <button type="button" class="btn" data-testid="scale-button" onclick={send(Msg::Scale)}
                    title={props.replicas.parse().map(|replicas| command(ActionKind::Scale { name: None, replicas })).unwrap_or_default()}>
                    <span class="btn-main">{ "Scale" }</span>
                    <code class="btn-code">{ format!("--replicas={}", props.replicas) }</code>
                </button>
                <button type="button" class="btn" data-testid="pause-button" disabled={props.paused}
                    onclick={send(Msg::PauseRollout)} title={command(ActionKind::Pause { name: None })}>
                    <span class="btn-main">{ "Pause" }</span><code class="btn-code">{ "rollout pause" }</code>
                </button>
                <button type="button" class="btn" data-testid="resume-button" disabled={!props.paused}
                    onclick={send(Msg::ResumeRollout)} title={command(ActionKind::Resume { name: None })}>
                    <span class="btn-main">{ "Resume" }</span><code class="btn-code">{ "rollout resume" }</code>
                </button>
                <div class="undo-group">
                    <button type="button" class="btn" data-testid="undo-button" onclick={send(Msg::Undo(chosen))}
                        title={command(ActionKind::Undo { name: None, to_revision: chosen })}>
                        <span class="btn-main">{ "Undo" }</span><code class="btn-code">{ "rollout undo" }</code>
                    </button>
                    <label class="visually-hidden" for="undo-revision">{ "Undo to" }</label>
                    <Select id="undo-revision" testid="undo-revision-select" value={chosen_value}
                        options={options} on_change={on_revision} class="undo-select" />
                </div>
            </div>
            { legacy_rollback(&send(Msg::LegacyRollback(chosen)), &command(ActionKind::Rollback { name: None, revision: chosen })) }
            { quota_controls(props) }
            { pending_actions(props) }
            { console(props) }
        </section>
    }
}

/// The legacy server-side rollback: the `deprecated.deployment.rollback.to` annotation.
fn legacy_rollback(onclick: &Callback<MouseEvent>, command: &str) -> Html {
    html! {
        <details class="advanced">
            <summary>{ "Advanced: the legacy server-side rollback" }</summary>
            <p class="panel-sub">
                { "Before kubectl 1.9, " }<code>{ "rollout undo" }</code>
                { " set the annotation " }<code>{ "deprecated.deployment.rollback.to" }</code>
                { " and the Deployment controller copied the template itself, recording DeploymentRollback events. The controller still honours it." }
            </p>
            <button type="button" class="btn" data-testid="legacy-rollback-button" onclick={onclick.clone()}>
                { command.to_string() }
            </button>
        </details>
    }
}

/// A ResourceQuota on pods: create it with the field's N, delete it.
fn quota_controls(props: &KubectlPanelProps) -> Html {
    let lift = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on_msg.emit(Msg::SetQuota(None)))
    };
    html! {
        <details class="advanced" data-testid="quota-controls" open={props.quota.is_some()}>
            <summary>
                { "Cluster: a ResourceQuota on pods" }
                if let Some(q) = props.quota { <span class="badge badge-warn">{ format!("pods ≤ {q}") }</span> }
            </summary>
            <p class="panel-sub">
                { "With " }<code>{ "hard: pods=N" }</code>
                { ", creating a pod beyond N non-terminating pods is forbidden (exceeded quota): the ReplicaSet controller's slow start stops at the first failure, records FailedCreate and sets ReplicaFailure; removing the quota lets it recover." }
            </p>
            <div class="quota-row">
                <label for="quota-pods">{ "pods=" }</label>
                <input id="quota-pods" class="field-input quota-input" type="number" min="0" step="1"
                    inputmode="numeric" data-testid="quota-input" value="3" />
                <button type="button" class="btn btn-small" data-testid="quota-button"
                    onclick={props.on_msg.reform(|_: MouseEvent| Msg::SetQuota(Some(quota_field())))}>
                    { "kubectl create quota" }
                </button>
                <button type="button" class="btn btn-small" data-testid="lift-quota-button"
                    disabled={props.quota.is_none()} onclick={lift}>
                    { "kubectl delete quota" }
                </button>
            </div>
        </details>
    }
}

/// The actions queued for the next round, each with its Cancel.
fn pending_actions(props: &KubectlPanelProps) -> Html {
    html! {
        if !props.pending.is_empty() {
            <div class="pending">
                <h3 class="subhead">{ "Pending" }</h3>
                <ol class="pending-list" data-testid="pending-actions">
                    { for props.pending.iter().map(|p| {
                        let cancel = {
                            let on_msg = props.on_msg.clone();
                            let index = p.index;
                            Callback::from(move |_: MouseEvent| on_msg.emit(Msg::Cancel(index)))
                        };
                        html! {
                            <li class="pending-item" data-testid="pending-action" data-type={p.type_name} data-round={p.round.to_string()}>
                                <span class="pending-round">{ format!("round {}", p.round) }</span>
                                <code class="pending-command">{ p.command.clone() }</code>
                                <button type="button" class="btn btn-small" onclick={cancel}
                                    aria-label={format!("Cancel: {}", p.command)}>{ "Cancel" }</button>
                            </li>
                        }
                    }) }
                </ol>
            </div>
        }
    }
}

/// The console: each command and kubectl's answer.
fn console(props: &KubectlPanelProps) -> Html {
    html! {
        if !props.console.is_empty() {
            <div class="console" data-testid="kubectl-console" aria-live="polite" aria-label="kubectl output">
                { for props.console.iter().map(|c| html! {
                    <div class={classes!("console-entry", c.error.then_some("console-error"))}>
                        <div class="console-command">{ format!("$ {}", c.command) }</div>
                        if !c.output.is_empty() {
                            <div class="console-output">{ c.output.clone() }
                                if let Some(r) = c.round {
                                    <span class="console-note">{ format!("  (takes effect in round {r})") }</span>
                                }
                            </div>
                        }
                    </div>
                }) }
            </div>
        }
    }
}
