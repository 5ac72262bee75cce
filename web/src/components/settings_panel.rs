//! The Deployment settings: replicas, maxSurge, maxUnavailable, and a few presets.

use crate::bounds::Field;
use crate::components::TextField;
use crate::state::{Action, Settings};
use yew::prelude::*;

/// Props of [`SettingsPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct SettingsPanelProps {
    /// The current settings.
    pub settings: Settings,
    /// The input the current validation message is about, if any.
    #[prop_or_default]
    pub invalid_field: Option<Field>,
    /// Receives every change.
    pub on_action: Callback<Action>,
}

/// Common `maxSurge` / `maxUnavailable` pairs: (label, surge, unavailable).
const PRESETS: [(&str, &str, &str); 4] = [
    ("Default", "25%", "25%"),
    ("Surge first", "1", "0"),
    ("Down first", "0", "1"),
    ("Double", "100%", "0"),
];

/// The settings form.
#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let s = &props.settings;
    let send = |make: fn(String) -> Action| {
        let on_action = props.on_action.clone();
        Callback::from(move |v: String| on_action.emit(make(v)))
    };
    let presets = PRESETS.iter().map(|&(label, surge, unavailable)| {
        let active = s.max_surge.trim() == surge && s.max_unavailable.trim() == unavailable;
        let onclick = {
            let on_action = props.on_action.clone();
            Callback::from(move |_: MouseEvent| {
                on_action.emit(Action::ApplyStrategy {
                    max_surge: surge.to_string(),
                    max_unavailable: unavailable.to_string(),
                })
            })
        };
        html! {
            <button
                type="button"
                class={classes!("chip", active.then_some("chip-active"))}
                aria-pressed={if active { "true" } else { "false" }}
                {onclick}
            >
                <span class="chip-label">{ label }</span>
                <span class="chip-values">{ format!("{surge} / {unavailable}") }</span>
            </button>
        }
    });
    let invalid = |f: Field| props.invalid_field == Some(f);
    html! {
        <section class="panel settings" aria-labelledby="settings-title">
            <h2 class="panel-title" id="settings-title">{ "Deployment" }</h2>
            <p class="panel-sub">{ "Replicas and the RollingUpdate strategy" }</p>
            <form class="fields" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <TextField
                    id="replicas"
                    label="Replicas"
                    hint="Desired pods, a whole number"
                    inputmode="numeric"
                    testid="replicas-input"
                    value={s.replicas.clone()}
                    invalid={invalid(Field::Replicas)}
                    on_change={send(Action::SetReplicas)}
                />
                <TextField
                    id="max-surge"
                    label="maxSurge"
                    hint="Extra pods above replicas: 1 or 25%"
                    testid="max-surge-input"
                    value={s.max_surge.clone()}
                    invalid={invalid(Field::MaxSurge)}
                    on_change={send(Action::SetMaxSurge)}
                />
                <TextField
                    id="max-unavailable"
                    label="maxUnavailable"
                    hint="Pods that may be down: 1 or 25%"
                    testid="max-unavailable-input"
                    value={s.max_unavailable.clone()}
                    invalid={invalid(Field::MaxUnavailable)}
                    on_change={send(Action::SetMaxUnavailable)}
                />
            </form>
            <div class="presets" role="group" aria-label="Strategy presets (maxSurge / maxUnavailable)">
                { for presets }
            </div>
        </section>
    }
}
