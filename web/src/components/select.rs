//! A `<select>` whose shown value always follows its prop (a `selected` attribute alone does
//! not move a select the user has already changed).

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`Select`].
#[derive(Properties, PartialEq, Clone)]
pub struct SelectProps {
    /// Element id (for a `<label for>`).
    pub id: AttrValue,
    /// `data-testid`.
    pub testid: AttrValue,
    /// The selected option's value.
    pub value: AttrValue,
    /// (value, label) pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    /// Called with the chosen value.
    pub on_change: Callback<String>,
    /// Extra classes.
    #[prop_or_default]
    pub class: Classes,
    /// `aria-describedby`.
    #[prop_or_default]
    pub describedby: Option<AttrValue>,
    /// `aria-label`, when there is no visible label.
    #[prop_or_default]
    pub aria_label: Option<AttrValue>,
    /// Greyed out.
    #[prop_or_default]
    pub disabled: bool,
}

/// A controlled select.
#[function_component(Select)]
pub fn select(props: &SelectProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.value.clone(), move |value| {
            if let Some(el) = node.cast::<HtmlSelectElement>() {
                if el.value() != value.as_str() {
                    el.set_value(value);
                }
            }
        });
    }
    let onchange = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            let el: HtmlSelectElement = e.target_unchecked_into();
            cb.emit(el.value());
        })
    };
    html! {
        <select
            ref={node}
            id={props.id.clone()}
            class={classes!("field-input", props.class.clone())}
            data-testid={props.testid.clone()}
            aria-describedby={props.describedby.clone()}
            aria-label={props.aria_label.clone()}
            disabled={props.disabled}
            {onchange}
        >
            { for props.options.iter().map(|(v, label)| html! {
                <option value={v.clone()} selected={*v == props.value}>{ label.clone() }</option>
            }) }
        </select>
    }
}
