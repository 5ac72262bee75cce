//! The Plan page's "compare with the live version": a second manifest, the live one, and what
//! `kubectl apply` of the page's manifest over it does (the core's `plan::change`, as
//! `rollout plan OLD NEW` and `plan({before, after})` say it): nothing, a scale, a rollout
//! (which pod template fields), both, a spec change, with its forecast. The words are the
//! core's; this only draws them.

use crate::plan_api::ModelOptions;
use serde_json::json;
use yew::prelude::*;

/// Props of [`ChangePanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ChangePanelProps {
    /// The page's manifest: the version to apply (`after`).
    pub after: String,
    /// The assumptions (the page's, over `rollout plan`'s defaults).
    pub model: ModelOptions,
    /// Whether the YAML reader is loaded (the forecast is made again once it is).
    pub ready: bool,
    /// Loads the YAML reader (on focus and input).
    pub load_yaml: Callback<()>,
    /// The live version a link gave, if any.
    #[prop_or_default]
    pub initial: Option<String>,
}

/// The live version's box and, once it holds a manifest, the change and its forecast.
#[function_component(ChangePanel)]
pub fn change_panel(props: &ChangePanelProps) -> Html {
    let before = use_state(|| props.initial.clone().unwrap_or_default());
    let planned = use_memo(
        (
            (*before).clone(),
            props.after.clone(),
            props.model.clone(),
            props.ready,
        ),
        |(before, after, model, _)| {
            (!before.trim().is_empty()).then(|| {
                crate::plan_api::plan_change(&json!({"before": before, "after": after}), model)
            })
        },
    );
    let oninput = {
        let (before, load) = (before.clone(), props.load_yaml.clone());
        Callback::from(move |e: InputEvent| {
            let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            load.emit(());
            before.set(t.value());
        })
    };
    let onfocus = props.load_yaml.reform(|_: FocusEvent| ());
    html! {
        <details class="plan-change" data-testid="plan-change" open={!before.is_empty()}>
            <summary>{ "Compare with the live version (before → after)" }</summary>
            <label class="field-label" for="plan-before">{ "The live Deployment (kubectl get deployment -o yaml, or the manifest it was applied from)" }</label>
            <textarea id="plan-before" class="plan-manifest" data-testid="plan-before" spellcheck="false" rows="8"
                value={(*before).clone()} {oninput} {onfocus} />
            { match &*planned {
                None => html! {},
                Some(Err(e)) => html! { <p class="plan-error" role="alert" data-testid="plan-change-error">{ e.clone() }</p> },
                Some(Ok(out)) => outcome(out),
            } }
        </details>
    }
}

/// What the change does, and its figures.
fn outcome(out: &rollout_facade::plan::change::ChangeOutput) -> Html {
    let f = &out.plan.forecast;
    let c = &out.change;
    html! {
        <div class="plan-change-out" data-testid="plan-change-out" data-kind={c.kind.clone()}
            data-change-json={serde_json::to_string(out).unwrap_or_default()}>
            <p class="plan-change-summary">{ &c.summary }</p>
            if !c.template_fields.is_empty() || !c.spec_fields.is_empty() {
                <ul class="plan-change-fields">
                    { for c.template_fields.iter().chain(&c.spec_fields).map(|f| html! { <li><code>{ f }</code></li> }) }
                </ul>
            }
            <dl class="plan-figures">
                { for [
                    ("Takes", f.duration_seconds.map_or("never completes".to_string(), |s| format!("{s} s"))),
                    ("Peak pods", f.peak_pods.to_string()),
                    ("Lowest availability", f.min_available.map_or("—".into(), |n| n.to_string())),
                ].into_iter().map(|(dt, dd)| html! { <div class="plan-figure"><dt>{ dt }</dt><dd>{ dd }</dd></div> }) }
            </dl>
        </div>
    }
}
