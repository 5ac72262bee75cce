//! "What just happened": the last step explained, with links into the Kubernetes source. The
//! headline is a polite live region, so screen readers announce every step.

use crate::components::clock::m_ss;
use crate::explain::{Explanation, FnLink};
use crate::state::StepNote;
use rollout_facade::ui_support::deployment_controller_dir;
use yew::prelude::*;

/// What [`explanation_panel`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct ExplanationPanelProps {
    /// The last step (absent before the first).
    pub explanation: Option<Explanation>,
    /// What the step to the next change added: the time that passed, the syncs that changed
    /// nothing on the way.
    pub note: Option<StepNote>,
    /// What the first step will apply (before the first step).
    pub first_command: Option<AttrValue>,
    /// The clock (seconds): when it has moved on past the step shown with no change (a first
    /// visit at 0:10 whose last change was at 0:06), the panel says so, so the two agree.
    pub now: i64,
}

fn fn_link(f: &FnLink) -> Html {
    match &f.url {
        Some(url) => html! {
            <a class="fn" href={url.clone()} target="_blank" rel="noopener noreferrer"
                title={format!("{} in {} (Kubernetes v1.28.4)", f.name, f.file.unwrap_or(""))}>
                { f.name.clone() }
            </a>
        },
        None => html! { <span class="fn fn-plain">{ f.name.clone() }</span> },
    }
}

/// The explanation panel.
pub fn explanation_panel(props: &ExplanationPanelProps) -> Html {
    let Some(e) = &props.explanation else {
        return html! {
            <section class="panel explanation" aria-labelledby="explain-title">
                <div class="panel-head">
                    <h2 class="panel-title" id="explain-title">{ "What just happened" }</h2>
                </div>
                <div class="explain-live" data-testid="explanation">
                    <p class="headline">{ "Nothing has run yet." }</p>
                </div>
                <p class="explain-intro">
                    { "Each step is the next thing that changes in the cluster: your kubectl commands reach the API server, the " }
                    <a href={deployment_controller_dir()} target="_blank" rel="noopener noreferrer">{ "Deployment controller" }</a>
                    { " syncs the Deployment, the ReplicaSet controller syncs each ReplicaSet, or the kubelet starts and stops pods. Syncs that change nothing are listed with the step that follows them. Press Step (or →) to begin." }
                </p>
                if let Some(cmd) = &props.first_command {
                    <p class="explain-next">{ "The first step applies " }<code>{ cmd.clone() }</code></p>
                }
            </section>
        };
    };
    let later = props.note.as_ref().map(|n| n.seconds_later);
    let checked = props
        .note
        .as_ref()
        .map(|n| n.checked.clone())
        .unwrap_or_default();
    let notes = props
        .note
        .as_ref()
        .map(|n| n.notes.clone())
        .unwrap_or_default();
    html! {
        <section class={classes!("panel", "explanation", format!("actor-{}", e.actor.key()))} aria-labelledby="explain-title">
            <div class="panel-head">
                <h2 class="panel-title" id="explain-title">{ "What just happened" }</h2>
                <span class={classes!("actor-badge", format!("actor-badge-{}", e.actor.key()))} data-testid="actor">
                    { e.actor.label() }
                </span>
            </div>
            <div class="explain-live" data-testid="explanation">
                <p class="explain-title">
                    <span class="explain-step" data-testid="explanation-time">{ format!("{} · round {}", m_ss(e.time), e.round) }
                        if props.now > e.time && props.note.is_none() {
                            { format!(" · no change since, the clock is at {}", m_ss(props.now)) }
                        }
                    </span>
                    <span class="explain-what mono">{ e.title.clone() }</span>
                </p>
                <p class="headline" data-testid="explanation-headline">
                    if let Some(s) = later.filter(|s| *s > 0) {
                        <strong class="later" data-testid="later">{ format!("{} later: ", crate::explain::seconds(s)) }</strong>
                    }
                    { e.headline.clone() }
                </p>
                if let Some(change) = props.note.as_ref().and_then(|n| n.status_change.clone()) {
                    <p class="status-change" data-testid="status-change">{ change }</p>
                }
            </div>
            if !notes.is_empty() {
                <ul class="step-notes" role="note" data-testid="step-notes">
                    { for notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                </ul>
            }
            if !e.path.is_empty() && e.path.iter().any(|f| f.url.is_some()) {
                <ol class="call-path" aria-label="Kubernetes functions entered, in order">
                    { for e.path.iter().map(|f| html! { <li>{ fn_link(f) }</li> }) }
                </ol>
            }
            if !e.decisions.is_empty() {
                <ul class="decisions" data-testid="decisions">
                    { for e.decisions.iter().map(|d| html! {
                        <li class="decision">
                            { fn_link(&d.function) }
                            if let Some(file) = d.function.file {
                                <span class="fn-file">{ file }</span>
                            }
                            <p class="decision-text">{ d.text.clone() }</p>
                        </li>
                    }) }
                </ul>
            }
            if !e.details.is_empty() {
                <ul class="details">
                    { for e.details.iter().map(|d| html! { <li>{ d.clone() }</li> }) }
                </ul>
            }
            if !checked.is_empty() {
                <div class="checked">
                    <h3 class="subhead">{ "Checked on the way, nothing to change" }</h3>
                    <ul data-testid="checked">{ for checked.iter().map(|c| html! { <li>{ c.clone() }</li> }) }</ul>
                </div>
            }
            if !e.events.is_empty() {
                <div class="step-events">
                    <h3 class="subhead">{ "Events recorded" }</h3>
                    <ul>{ for e.events.iter().take(8).map(|ev| html! { <li class="mono">{ ev.clone() }</li> }) }</ul>
                    if e.events.len() > 8 {
                        <p class="more">{ format!("and {} more", e.events.len() - 8) }</p>
                    }
                </div>
            }
            if !e.errors.is_empty() {
                <div class="step-errors" role="note">
                    <h3 class="subhead">{ "Errors" }</h3>
                    <ul>{ for e.errors.iter().map(|er| html! { <li class="mono">{ er.clone() }</li> }) }</ul>
                </div>
            }
        </section>
    }
}
