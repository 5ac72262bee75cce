//! The Plan page (`?view=plan`), drawn: the manifest, the assumptions, the forecast and the
//! sweep (`crate::plan_source` holds what it computes: the manifest of the settings, the values
//! it edits in place and the input the planner reads).

use crate::components::assumptions::{assumptions, AssumptionsProps};
use crate::components::failure_forecast::FailureForecastPanel;
use crate::components::forecast_panel::forecast_panel;
use crate::components::sweep_panel::SweepPanel;
use crate::hooks::use_forecast::forecast_cost;
use crate::plan_api::ModelOptions;
use crate::plan_source::*;
use rollout_facade::api::IntOrString;
use rollout_facade::scenario::{DeploymentInput, Scenario};
use serde_json::{json, Value};
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`PlanView`]. Equal when the source and the visibility are: the app makes a new
/// `on_watch` on every render, and a step must not draw the Plan page behind the stage again
/// (issue #40); the one it keeps does the same (the dispatcher and the page's setter it holds
/// stay valid for the app's life).
#[derive(Properties, Clone)]
pub struct PlanViewProps {
    /// The scenario the settings panel describes (its first create is the Deployment).
    pub source: Option<Rc<Scenario>>,
    /// Whether the page is shown (it stays mounted behind the stage, keeping its text).
    pub visible: bool,
    /// "Watch it": the scenario of the manifest as planned (JSON), for the stage.
    pub on_watch: Callback<String>,
}

impl PartialEq for PlanViewProps {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source && self.visible == other.visible
    }
}

/// The Plan page.
#[function_component(PlanView)]
pub fn plan_view(props: &PlanViewProps) -> Html {
    let source = use_memo(props.source.clone(), |s| {
        s.as_ref().and_then(|s| source_of(s))
    });
    let (generated, settings_model) = (*source).clone().unwrap_or_default();
    let settings_d = use_memo(props.source.clone(), |s| {
        s.as_deref().and_then(created).cloned()
    });
    let generated_value = use_memo(settings_d.clone(), |d| generated_value_of(d));
    // A Plan page link (`#plan=…&before=…&o=…`, `rollout plan --format markdown`'s) gives the
    // manifest, the live version and the assumptions.
    let link = use_memo((), |_| page_link());
    // The manifest as typed, whether it still follows the settings, and the settings'
    // Deployment as last taken in (what "Apply" compares with).
    let text = use_state(|| {
        link.as_ref()
            .as_ref()
            .map_or_else(|| generated.clone(), |l| l.after.clone())
    });
    let follows = use_state(|| link.is_none());
    let seen = use_state(|| (*settings_d).clone());
    {
        let (text, follows, seen) = (text.clone(), follows.clone(), seen.clone());
        use_effect_with((generated.clone(), settings_d.clone()), move |(g, d)| {
            if *follows && !g.is_empty() {
                text.set(g.clone());
                seen.set((**d).clone());
            }
        });
    }
    let overrides = use_state(|| link_options(&link));
    // The Deployment chosen in a manifest that holds several (the picker sets it).
    let chosen = use_state(|| None::<String>);
    let model = with_overrides(&settings_model, &overrides);
    let model = match &*chosen {
        Some(name) => model.with("deployment", json!(name)),
        None => model,
    };
    // Why an edit of the text could not be made.
    let note = use_state(|| None::<String>);

    // Typed YAML is read by the YAML reader's module, loaded when the manifest is first
    // focused or edited (crate::yaml_reader); the forecasts are made again once it is there.
    let (yaml_ready, load_yaml) = crate::hooks::use_yaml_reader();
    // A link's manifests are text, YAML most often: the reader is loaded at once.
    crate::hooks::use_yaml_now(link.is_some(), &load_yaml);
    let input = plan_input(&text, &generated, (*generated_value).as_ref());
    let forecast = crate::hooks::use_forecast(&input, &text, &model, yaml_ready);
    let deployment = forecast.deployment.clone();
    let current = deployment.as_ref().as_ref().and_then(current_cell);

    let edit = edit_callback(&text, &follows, &note, &chosen);
    let on_pick = edit.reform(|(su, un): (i32, i32)| {
        vec![
            (MAX_SURGE, IntOrString::Int(su)),
            (MAX_UNAVAILABLE, IntOrString::Int(un)),
        ]
    });
    let changes = match (&*seen, &*settings_d) {
        (Some(old), Some(new)) if !*follows => {
            settings_changes(old, new, deployment.as_ref().as_ref())
        }
        _ => Vec::new(),
    };
    let take_settings = |apply: bool| take_settings(apply, &edit, &seen, &settings_d, &changes);
    let on_input = input_callback(&text, &follows, &load_yaml);
    let on_focus = load_yaml.reform(|_: FocusEvent| ());
    let reset = reset_callback(&text, &follows, &generated, &note);
    let on_assume = assume_callback(&overrides);
    let watch = watch_callback(&input, &model, &props.on_watch, &note);
    let planned = matches!(forecast.out, Some(Ok(_)));
    let changed: Vec<String> = changes
        .iter()
        .map(|(path, v)| format!("{} {v}", path[path.len() - 1]))
        .collect();

    html! {
        <@{if props.visible { "main" } else { "section" }} class="plan-page" id="plan" aria-labelledby="plan-title" data-testid="plan-view" hidden={!props.visible}>
            <div class="plan-head">
                <h2 class="panel-title" id="plan-title">{ "Plan: what will this rollout do?" }</h2>
                <p class="panel-sub">{ "kubectl set image, forecast by the same controllers before you apply it." }</p>
                <button type="button" class="btn btn-primary" data-testid="plan-watch" onclick={watch} disabled={!planned}
                    title="Open this Deployment on the stage and step through its rollout">{ "Watch it on the stage" }</button>
            </div>
            <div class="plan-layout">
                <section class="panel plan-edit" aria-label="Manifest and assumptions">
                    <label class="field-label" for="plan-manifest">{ "Deployment manifest (YAML or JSON)" }</label>
                    <textarea id="plan-manifest" class="plan-manifest" data-testid="plan-manifest" spellcheck="false"
                        value={(*text).clone()} oninput={on_input} onfocus={on_focus} rows="14" aria-describedby="plan-model" />
                    <crate::components::DeploymentPicker text={(*text).clone()} chosen={chosen.clone()} ready={yaml_ready} />
                    <div class="plan-source">
                        <span class="panel-sub" data-testid="plan-follows">{
                            if *follows { "Follows the settings panel until you edit it." } else { "Edited here." }
                        }</span>
                        if !*follows {
                            <button type="button" class="btn btn-small" data-testid="plan-reset" onclick={reset}>{ "Use the settings" }</button>
                        }
                    </div>
                    if !changed.is_empty() {
                        <div class="plan-notice" role="status" data-testid="plan-settings-changed">
                            <span>{ format!("The settings panel now says {}; this manifest was edited here, so it is left as it is.", changed.join(", ")) }</span>
                            <button type="button" class="btn btn-small" data-testid="plan-apply-settings" onclick={take_settings(true)}>{ "Apply to the manifest" }</button>
                            <button type="button" class="btn btn-small" onclick={take_settings(false)}>{ "Keep mine" }</button>
                        </div>
                    }
                    if let Some(n) = &*note {
                        <p class="plan-error" role="alert" data-testid="plan-edit-note">{ n.clone() }</p>
                    }
                    { assumptions(&AssumptionsProps { model: model.clone(), resolved: resolved_model(&forecast.out), on_change: on_assume.clone() }) }
                </section>
                <section class="panel plan-results" aria-label="Forecast">
                    <crate::components::change_panel::ChangePanel after={(*text).clone()} model={model.clone()} ready={yaml_ready}
                        load_yaml={load_yaml.clone()} initial={link.as_ref().as_ref().and_then(|l| l.before.clone())} />
                    if let Some(out) = &forecast.out {
                        { forecast_panel(out, forecast.ms) }
                        <FailureForecastPanel input={input.clone()} model={model.clone()} heavy={forecast.ms < 0.0} on_change={on_assume.clone()} />
                    } else {
                        <p class="panel-sub plan-pending" data-testid="forecast-pending" role="status">{ format!(
                            "Forecasting {} replicas in a worker (about {} pod-waves: too long to work out on each keystroke)…",
                            deployment.as_ref().as_ref().and_then(|d| d.replicas).unwrap_or(1),
                            deployment.as_ref().as_ref().map_or(0, forecast_cost)
                        ) }</p>
                    }
                </section>
                <SweepPanel text={AttrValue::from((*text).clone())} model={model.clone()} deployment={deployment.clone()}
                    {current} {on_pick} visible={props.visible} />
            </div>
        </@>
    }
}

/// Edits the manifest in place (`with_values`: the values only, every other byte kept); what
/// cannot be edited is said in the note.
fn edit_callback(
    text: &UseStateHandle<String>,
    follows: &UseStateHandle<bool>,
    note: &UseStateHandle<Option<String>>,
    chosen: &UseStateHandle<Option<String>>,
) -> Callback<Vec<Change>> {
    let (text, follows, note, chosen) =
        (text.clone(), follows.clone(), note.clone(), chosen.clone());
    Callback::from(move |changes: Vec<Change>| {
        match with_values(&text, chosen.as_deref(), &changes) {
            Ok(t) => {
                if t != *text {
                    follows.set(false);
                    text.set(t);
                }
                note.set(None);
            }
            Err(e) => note.set(Some(format!("The manifest is left as it is: {e}."))),
        }
    })
}

/// "Apply to the manifest" (`apply`) or "Keep mine": the settings' Deployment is taken in.
fn take_settings(
    apply: bool,
    edit: &Callback<Vec<Change>>,
    seen: &UseStateHandle<Option<DeploymentInput>>,
    now: &Rc<Option<DeploymentInput>>,
    changes: &[Change],
) -> Callback<MouseEvent> {
    let (edit, seen, now, changes) = (edit.clone(), seen.clone(), now.clone(), changes.to_vec());
    Callback::from(move |_: MouseEvent| {
        if apply {
            edit.emit(changes.clone());
        }
        seen.set((*now).clone());
    })
}

/// Typing in the manifest: it no longer follows the settings (and YAML needs the reader).
fn input_callback(
    text: &UseStateHandle<String>,
    follows: &UseStateHandle<bool>,
    load_yaml: &Callback<()>,
) -> Callback<InputEvent> {
    let (text, follows, load_yaml) = (text.clone(), follows.clone(), load_yaml.clone());
    Callback::from(move |e: InputEvent| {
        let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
        load_yaml.emit(());
        follows.set(false);
        text.set(area.value());
    })
}

/// "Use the settings": the manifest follows the settings panel again.
fn reset_callback(
    text: &UseStateHandle<String>,
    follows: &UseStateHandle<bool>,
    generated: &str,
    note: &UseStateHandle<Option<String>>,
) -> Callback<MouseEvent> {
    let (text, follows, generated, note) = (
        text.clone(),
        follows.clone(),
        generated.to_string(),
        note.clone(),
    );
    Callback::from(move |_: MouseEvent| {
        follows.set(true);
        note.set(None);
        text.set(generated.clone());
    })
}

/// "Watch it on the stage": the manifest as planned, as a scenario for the stage.
fn watch_callback(
    input: &Value,
    model: &ModelOptions,
    on_watch: &Callback<String>,
    note: &UseStateHandle<Option<String>>,
) -> Callback<MouseEvent> {
    let (input, model, on_watch, note) =
        (input.clone(), model.clone(), on_watch.clone(), note.clone());
    Callback::from(move |_: MouseEvent| {
        let scenario = crate::plan_api::subject_of(&input, &model)
            .and_then(|(s, _)| s.scenario(&Default::default()))
            .and_then(|s| serde_json::to_string(&s).map_err(|e| e.to_string()));
        match scenario {
            Ok(json) => on_watch.emit(json),
            Err(e) => note.set(Some(e)),
        }
    })
}

/// The cluster model the last forecast resolved (a manifest's), for the assumptions' defaults.
fn resolved_model(
    out: &Option<Result<rollout_facade::plan::input::PlanOutput, String>>,
) -> Option<rollout_facade::plan::manifest::ResolvedModel> {
    match out {
        Some(Ok(o)) => o.model.clone(),
        _ => None,
    }
}

/// An assumption typed: the option over the defaults (the bad image a boolean).
fn assume_callback(overrides: &UseStateHandle<ModelOptions>) -> Callback<(&'static str, String)> {
    let overrides = overrides.clone();
    Callback::from(move |(name, value): (&'static str, String)| {
        let value = if name == "badImage" {
            json!(value == "true")
        } else {
            json!(value)
        };
        overrides.set((*overrides).clone().with(name, value));
    })
}

/// The Plan page link in the address, if there is one (`#plan=…`).
fn page_link() -> Option<rollout_facade::share::PlanLink> {
    let hash = web_sys::window()?.location().hash().ok()?;
    rollout_facade::share::decode_plan_link(&hash)
}

/// A link's assumptions as the page's options (none: the defaults).
fn link_options(link: &Option<rollout_facade::share::PlanLink>) -> ModelOptions {
    link.as_ref()
        .and_then(|l| ModelOptions::from_value(l.options.clone()).ok())
        .unwrap_or_default()
}

/// The settings' own manifest as an object (planned without the YAML reader).
fn generated_value_of(d: &Option<DeploymentInput>) -> Option<Value> {
    d.as_ref()
        .map(rollout_facade::plan::manifest::manifest_value)
}
