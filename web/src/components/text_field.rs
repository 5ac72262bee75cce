//! A labelled text input with a hint line.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`TextField`].
#[derive(Properties, PartialEq, Clone)]
pub struct TextFieldProps {
    /// The input's element id (the label points at it).
    pub id: AttrValue,
    /// The visible label.
    pub label: AttrValue,
    /// A short hint under the input.
    pub hint: AttrValue,
    /// The current text.
    pub value: AttrValue,
    /// `data-testid` of the input.
    pub testid: AttrValue,
    /// Marks the input as holding the value the validation message is about.
    #[prop_or_default]
    pub invalid: bool,
    /// `inputmode` for on-screen keyboards.
    #[prop_or(AttrValue::Static("text"))]
    pub inputmode: AttrValue,
    /// Called with the new text on every keystroke.
    pub on_change: Callback<String>,
}

/// A labelled text input.
#[function_component(TextField)]
pub fn text_field(props: &TextFieldProps) -> Html {
    let oninput = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_change.emit(input.value());
        })
    };
    let hint_id = format!("{}-hint", props.id);
    html! {
        <div class={classes!("field", props.invalid.then_some("field-invalid"))}>
            <label class="field-label" for={props.id.clone()}>{ props.label.clone() }</label>
            <input
                class="field-input"
                id={props.id.clone()}
                type="text"
                inputmode={props.inputmode.clone()}
                autocomplete="off"
                spellcheck="false"
                data-testid={props.testid.clone()}
                aria-describedby={hint_id.clone()}
                aria-invalid={if props.invalid { "true" } else { "false" }}
                value={props.value.clone()}
                {oninput}
            />
            <p class="field-hint" id={hint_id}>{ props.hint.clone() }</p>
        </div>
    }
}
