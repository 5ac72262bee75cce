//! Events as `kubectl describe deployment` lists them (Type, Reason, Age, From, Message), with
//! the ReplicaSets' pod events on request.

use crate::state::EventRow;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`EventsTable`].
#[derive(Properties, PartialEq, Clone)]
pub struct EventsTableProps {
    /// Events about the Deployment.
    pub deployment_events: Vec<EventRow>,
    /// Every event.
    pub all_events: Vec<EventRow>,
    /// Events recorded in total.
    pub total: usize,
    /// The Deployment's name.
    pub name: AttrValue,
    /// The round the page shows (events of the last completed step are highlighted).
    pub round: u32,
}

/// The events panel.
#[function_component(EventsTable)]
pub fn events_table(props: &EventsTableProps) -> Html {
    let everything = use_state(|| false);
    let on_toggle = {
        let everything = everything.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            everything.set(input.checked());
        })
    };
    let rows = if *everything {
        &props.all_events
    } else {
        &props.deployment_events
    };
    let shown_of = if *everything { props.total } else { rows.len() };
    html! {
        <section class="panel events" aria-labelledby="events-title">
            <div class="panel-head">
                <h2 class="panel-title" id="events-title">{ "Events" }</h2>
                <label class="check">
                    <input type="checkbox" checked={*everything} onchange={on_toggle} data-testid="all-events-toggle" />
                    { "Include ReplicaSet events (pods created and deleted)" }
                </label>
            </div>
            <p class="panel-sub">
                if *everything {
                    { "kubectl get events: every object, oldest first." }
                } else {
                    { format!("kubectl describe deployment {}: its events, oldest first.", props.name) }
                }
            </p>
            // Focusable, so a keyboard scrolls it when it overflows (a phone).
            <div class="table-scroll events-scroll" tabindex="0" role="region" aria-label="The events, as a table">
                <table class="kubectl-table events-table">
                    <thead><tr>
                        <th scope="col">{ "Type" }</th><th scope="col">{ "Reason" }</th><th scope="col">{ "Age" }</th>
                        <th scope="col">{ "From" }</th>
                        if *everything { <th scope="col">{ "Object" }</th> }
                        <th scope="col">{ "Message" }</th>
                    </tr></thead>
                    <tbody>
                        if rows.is_empty() {
                            <tr><td colspan="6" class="empty">{ "<none>" }</td></tr>
                        }
                        { for rows.iter().map(|e| html! {
                            <tr class={classes!("event-row", (e.type_ == "Warning").then_some("is-warning"), (e.round + 1 >= props.round).then_some("is-recent"))}
                                data-testid="event-row" data-reason={e.reason.clone()} data-type={e.type_.clone()}>
                                <td>{ e.type_.clone() }</td>
                                <td class="mono">{ e.reason.clone() }</td>
                                <td>{ e.age.clone() }</td>
                                <td>{ e.from }</td>
                                if *everything { <td class="mono">{ e.object.clone() }</td> }
                                <td class="message">{ e.message.clone() }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if shown_of > rows.len() {
                <p class="more">{ format!("Showing the newest {} of {} events.", rows.len(), shown_of) }</p>
            }
        </section>
    }
}
