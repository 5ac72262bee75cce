//! The Plan view's Deployment menu: a pasted file of several Deployments (an all-in-one
//! release, `kubectl get deploy -o yaml`'s List) is planned for the one chosen here, as
//! `rollout plan --deployment NAME` and `plan(text, {deployment})` are. It shows only when the
//! manifest holds two or more; the names are the core's (`import::deployment_names`).

use super::Select;
use yew::prelude::*;

/// Props of [`DeploymentPicker`].
#[derive(Properties, PartialEq, Clone)]
pub struct DeploymentPickerProps {
    /// The manifest as typed (YAML or JSON).
    pub text: AttrValue,
    /// The Deployment chosen (`None`: none yet); cleared when the manifest no longer has it.
    pub chosen: UseStateHandle<Option<String>>,
    /// Whether YAML can be read yet (`yaml_reader::loaded`): the names are read again once it can.
    pub ready: bool,
}

/// The menu, when the manifest holds several Deployments.
#[function_component(DeploymentPicker)]
pub fn deployment_picker(props: &DeploymentPickerProps) -> Html {
    // Read again once the YAML reader has loaded (the first keystroke loads it).
    let names = use_memo((props.text.clone(), props.ready), |(text, _)| {
        crate::yaml_reader::names(text)
    });
    {
        let chosen = props.chosen.clone();
        use_effect_with(names.clone(), move |names| {
            if chosen.as_ref().is_some_and(|c| !names.contains(c)) {
                chosen.set(None);
            }
        });
    }
    if names.len() < 2 {
        return html! {};
    }
    let mut options = vec![(
        AttrValue::from(""),
        AttrValue::from(format!("Choose one of {} Deployments…", names.len())),
    )];
    options.extend(
        names
            .iter()
            .map(|n| (AttrValue::from(n.clone()), AttrValue::from(n.clone()))),
    );
    let on_change = {
        let chosen = props.chosen.clone();
        Callback::from(move |v: String| chosen.set((!v.is_empty()).then_some(v)))
    };
    html! {
        <div class="plan-picker" data-testid="deployment-picker">
            <label class="field-label" for="plan-deployment">{ "Deployment to plan" }</label>
            <Select id="plan-deployment" testid="plan-deployment"
                value={(*props.chosen).clone().unwrap_or_default()} {options} {on_change} />
        </div>
    }
}
