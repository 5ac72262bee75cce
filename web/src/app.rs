//! The root component: the header, the settings and the readout.

use crate::bounds;
use crate::components::{BoundsReadout, SettingsPanel};
use crate::state::Settings;
use yew::prelude::*;

/// Rollout Lab.
#[function_component(App)]
pub fn app() -> Html {
    let settings = use_reducer_eq(Settings::default);
    let result = bounds::resolve(&settings);
    let invalid_field = result.as_ref().err().and_then(|e| e.field);
    let on_action = {
        let dispatcher = settings.dispatcher();
        Callback::from(move |action| dispatcher.dispatch(action))
    };
    html! {
        <div class="app">
            <header class="app-header">
                <div class="brand">
                    <svg class="logo" viewBox="0 0 32 32" aria-hidden="true">
                        <rect x="3" y="9" width="8" height="14" rx="2" class="logo-old" />
                        <rect x="12" y="9" width="8" height="14" rx="2" class="logo-mid" />
                        <rect x="21" y="9" width="8" height="14" rx="2" class="logo-new" />
                    </svg>
                    <h1>{ "Rollout Lab" }</h1>
                </div>
                <p class="tagline">
                    { "How a Kubernetes Deployment rolls out, worked out by a Rust port of the \
                       Deployment controller's own code." }
                </p>
            </header>
            <main class="layout">
                <SettingsPanel settings={(*settings).clone()} {invalid_field} {on_action} />
                <BoundsReadout {result} />
            </main>
        </div>
    }
}
