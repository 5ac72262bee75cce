//! What the Plan page assumes about the cluster, because a manifest does not say it: how long
//! a pod takes from creation to Ready, the nodes, the termination time, the round length.
//! Each starts from the settings panel's cluster and can be changed here; the forecast is
//! made again at once. (Timing read from the manifest's probes joins this list when the
//! planner reads them.)

use crate::plan_api::ModelOptions;
use serde_json::Value;
use yew::prelude::*;

/// What [`assumptions`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
pub struct AssumptionsProps {
    /// The model the forecast uses (the settings' with this page's changes).
    pub model: ModelOptions,
    /// An assumption changed: its option name (`readyAfter`) and the text typed.
    pub on_change: Callback<(&'static str, String)>,
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// The assumptions, each an input.
pub fn assumptions(props: &AssumptionsProps) -> Html {
    let m = &props.model;
    let field = |name: &'static str, label: &'static str, unit: &'static str| {
        let on_change = props.on_change.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_change.emit((name, input.value()));
        });
        let id = format!("assume-{name}");
        html! {
            <label class="assume" for={id.clone()}>
                <span>{ label }</span>
                <span class="assume-input">
                    <input {id} type="number" min="0" inputmode="numeric" data-testid={format!("assume-{name}")}
                        value={text_of(m.get(name))} {oninput} />
                    { unit }
                </span>
            </label>
        }
    };
    let bad_image = m.get("badImage") == Some(&Value::Bool(true));
    html! {
        <section class="plan-assumptions" id="plan-model" data-testid="plan-model" data-model={m.to_value().to_string()}
            aria-labelledby="assume-title">
            <h3 id="assume-title" class="assume-title">{ "Assumed, not read from the manifest" }</h3>
            <div class="assume-row">
                { field("readyAfter", "Pod ready after", "s") }
                { field("nodes", "Nodes", "") }
                { field("termination", "Terminating", "s") }
                { field("secondsPerRound", "Round", "s") }
            </div>
            <p class="panel-sub assume-note">{
                if bad_image { "Settled rounds (the controllers react at once). The new image never becomes ready." }
                else { "Settled rounds (the controllers react at once). Every pod takes the same time to be ready." }
            }</p>
        </section>
    }
}
