//! A labelled text input with a hint line, its validation message and an "edited" badge.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What [`text_field`] draws (a plain function: it keeps no state).
#[derive(PartialEq, Clone)]
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
    /// The message about this input, if it is invalid.
    pub error: Option<AttrValue>,
    /// Show the error as the page's one `validation-message` (the full API message).
    pub primary_error: bool,
    /// The error is shown by the parent (below a pair of fields) with id `<id>-error`; this
    /// field only points at it.
    pub error_below: bool,
    /// A note that the value is not applied yet (e.g. "edited: press Apply").
    pub badge: Option<AttrValue>,
    /// Greyed out.
    pub disabled: bool,
    /// `inputmode` for on-screen keyboards (`text` or `numeric`).
    pub inputmode: AttrValue,
    /// Called with the new text on every keystroke.
    pub on_change: Callback<String>,
    /// Extra content under the input (a slider).
    pub extra: Html,
}

/// A labelled text input.
pub fn text_field(props: &TextFieldProps) -> Html {
    let oninput = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            on_change.emit(input.value());
        })
    };
    let hint_id = format!("{}-hint", props.id);
    let error_id = format!("{}-error", props.id);
    let described = if props.error.is_some() {
        format!("{hint_id} {error_id}")
    } else {
        hint_id.clone()
    };
    let invalid = props.error.is_some();
    html! {
        <div class={classes!("field", invalid.then_some("field-invalid"), props.disabled.then_some("field-disabled"))}>
            <div class="field-head">
                <label class="field-label" for={props.id.clone()}>{ props.label.clone() }</label>
                if let Some(badge) = &props.badge {
                    <span class="badge badge-edited">{ badge.clone() }</span>
                }
            </div>
            <input
                class="field-input"
                id={props.id.clone()}
                type="text"
                inputmode={props.inputmode.clone()}
                autocomplete="off"
                spellcheck="false"
                disabled={props.disabled}
                data-testid={props.testid.clone()}
                aria-describedby={described}
                aria-invalid={if invalid { "true" } else { "false" }}
                value={props.value.clone()}
                {oninput}
            />
            { props.extra.clone() }
            <p class="field-hint" id={hint_id}>{ props.hint.clone() }</p>
            if let Some(error) = props.error.as_ref().filter(|_| !props.error_below) {
                if props.primary_error {
                    <p class="validation" id={error_id} role="alert" data-testid="validation-message">
                        { error.clone() }
                    </p>
                } else {
                    <p class="validation validation-secondary" id={error_id}>{ error.clone() }</p>
                }
            }
        </div>
    }
}
