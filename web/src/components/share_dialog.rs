//! The dialog behind "Copy link" and "Embed": the session's permalink (copied to the clipboard
//! and put in the address bar) or the `<iframe>` snippet that embeds it, with the controls to
//! show. Opened by the app page's buttons (`components/share_panel.rs`), drawn as a popover
//! under the button that opened it.

use crate::hooks::use_share_dialog::ShareOpen;
use crate::share::{
    app_address, element_snippet, fragment_of, iframe_snippet, link_url, ShareSession, Which,
};
use rollout_facade::embed::{Control, EmbedOptions};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Props of [`ShareDialog`].
#[derive(Properties, PartialEq, Clone)]
pub struct ShareDialogProps {
    /// Which dialog.
    pub which: Which,
    /// The app's address (no query, no fragment).
    pub page: AttrValue,
    /// The session's permalink fragment (without `#`).
    pub fragment: AttrValue,
    /// A title for the embed.
    pub title: AttrValue,
    /// Closes the dialog.
    pub on_close: Callback<()>,
}

/// The popover's contents.
#[function_component(ShareDialog)]
pub fn share_dialog(props: &ShareDialogProps) -> Html {
    let copied = use_state(|| None::<bool>);
    // The Embed dialog's snippet last copied ("iframe" or "element") and whether that worked.
    let snippet_copied = use_state(|| None::<(&'static str, bool)>);
    let options = use_state(EmbedOptions::default);
    let url = link_url(&props.page, &props.fragment);
    // Focus goes into the dialog (its text, selected, ready to copy).
    let field = use_node_ref();
    {
        let field = field.clone();
        use_effect_with((), move |_| {
            if let Some(el) = field.cast::<web_sys::HtmlElement>() {
                el.focus().ok();
            }
        });
    }
    {
        let (copied, url, which) = (copied.clone(), url.clone(), props.which);
        use_effect_with((), move |_| {
            if which == Which::Link {
                copy_text(url, move |ok| copied.set(Some(ok)));
            }
        });
    }
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let on_key = {
        let on_close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                on_close.emit(());
            }
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
            input.select();
        } else if let Some(area) = e.target_dyn_into::<HtmlTextAreaElement>() {
            area.select();
        }
    });
    let update = |f: fn(&mut EmbedOptions, Control), control: Control| update(&options, f, control);
    let toggle = |control: Control| update(toggle_control, control);
    let toggle_chart = update(|o, _| o.chart = !o.chart, Control::Step);
    let toggle_explain = update(|o, _| o.explain = !o.explain, Control::Step);

    let body = match props.which {
        Which::Link => link_body(*copied, &url, &field, &select_all),
        Which::Embed => {
            let snippet = iframe_snippet(&props.page, &props.fragment, &options, &props.title);
            let element = element_snippet(&props.page, &props.fragment, &options, &props.title);
            let preview = crate::share::iframe_src(&props.page, &props.fragment, &options);
            let copy = |which: &'static str, text: String| {
                let state = snippet_copied.clone();
                Callback::from(move |_: MouseEvent| {
                    let state = state.clone();
                    copy_text(text.clone(), move |ok| state.set(Some((which, ok))));
                })
            };
            let copy_label = |which: &str| match *snippet_copied {
                Some((w, true)) if w == which => "Copied",
                Some((w, false)) if w == which => "Select and copy it",
                _ => "Copy",
            };
            html! {
                <>
                    <fieldset class="share-controls">
                        <legend>{ "Controls to show" }</legend>
                        { for Control::ALL.iter().map(|c| html! {
                            <label class="check">
                                <input type="checkbox" checked={options.has(*c)} onchange={toggle(*c)}
                                    data-testid={format!("embed-control-{}", c.name())} />
                                { label(*c) }
                            </label>
                        }) }
                        <label class="check">
                            <input type="checkbox" checked={options.chart} onchange={toggle_chart} data-testid="embed-chart" />
                            { "Pod chart" }
                        </label>
                        <label class="check">
                            <input type="checkbox" checked={options.explain} onchange={toggle_explain} data-testid="embed-explain" />
                            { "What just happened" }
                        </label>
                    </fieldset>
                    <label class="field-label" for="embed-snippet">{ "Paste this into your page (800 × 500):" }</label>
                    <textarea id="embed-snippet" class="code-area" readonly=true rows="5" value={snippet.clone()}
                        data-testid="embed-snippet" onfocus={select_all.clone()} ref={field} />
                    <div class="share-actions">
                        <button type="button" class="btn btn-small" data-testid="copy-embed-snippet"
                            onclick={copy("iframe", snippet.clone())}>{ copy_label("iframe") }</button>
                        <a class="btn btn-small" href={preview} target="_blank" rel="noopener" data-testid="embed-preview">
                            { "Preview the embed" }
                        </a>
                    </div>
                    <label class="field-label" for="element-snippet">{ "Or, without an iframe, as an element:" }</label>
                    <textarea id="element-snippet" class="code-area" readonly=true rows="4" value={element.clone()}
                        data-testid="element-snippet" onfocus={select_all} />
                    <div class="share-actions">
                        <button type="button" class="btn btn-small" data-testid="copy-element-snippet"
                            onclick={copy("element", element.clone())}>{ copy_label("element") }</button>
                    </div>
                </>
            }
        }
    };
    html! {
        <div class="share-popover" role="dialog" aria-labelledby="share-title" onkeydown={on_key}
            data-testid="share-dialog">
            <div class="share-head">
                <h2 class="panel-title" id="share-title">
                    { if props.which == Which::Link { "Link to this moment" } else { "Embed this session" } }
                </h2>
                <button type="button" class="btn btn-small" onclick={close} aria-label="Close">{ "Close" }</button>
            </div>
            { body }
        </div>
    }
}

/// Copies `text` to the clipboard, then tells `done` whether that worked.
fn copy_text(text: String, done: impl FnOnce(bool) + 'static) {
    spawn_local(async move {
        let ok = match web_sys::window() {
            Some(w) => JsFuture::from(w.navigator().clipboard().write_text(&text))
                .await
                .is_ok(),
            None => false,
        };
        done(ok);
    });
}

/// What a control is, in the dialog's words (the core names it, `Control::name`; the words
/// are this dialog's).
fn label(c: Control) -> &'static str {
    match c {
        Control::Step => "Step and Back",
        Control::Round => "Whole rounds",
        Control::Play => "Play / pause",
        Control::Reset => "Reset",
        Control::Image => "Roll out a new image",
        Control::Replicas => "replicas slider",
        Control::MaxSurge => "maxSurge slider",
        Control::MaxUnavailable => "maxUnavailable slider",
        Control::Strategy => "Strategy menu",
    }
}

/// A change of the embed's options by `f` for `control`.
fn update(
    options: &UseStateHandle<EmbedOptions>,
    f: fn(&mut EmbedOptions, Control),
    control: Control,
) -> Callback<Event> {
    let options = options.clone();
    Callback::from(move |_: Event| {
        let mut o = (*options).clone();
        f(&mut o, control);
        options.set(o);
    })
}

/// A control on or off (the controls kept in their order).
fn toggle_control(o: &mut EmbedOptions, c: Control) {
    if o.has(c) {
        o.controls.retain(|x| *x != c);
    } else {
        o.controls.push(c);
        o.controls = Control::ALL
            .into_iter()
            .filter(|x| o.controls.contains(x))
            .collect();
    }
}

/// The link dialog: whether the link was copied, and the link.
fn link_body(
    copied: Option<bool>,
    url: &str,
    field: &NodeRef,
    select_all: &Callback<FocusEvent>,
) -> Html {
    html! {
        <>
            <p class="share-status" data-testid="share-status" role="status">
                { match copied {
                    None => "Copying…",
                    Some(true) => "Copied to the clipboard. The address bar has it too.",
                    Some(false) => "Copy it from here (or from the address bar):",
                } }
            </p>
            <input class="field-input mono" type="text" readonly=true value={url.to_string()} ref={field.clone()}
                aria-label="Link to this session" data-testid="share-link" onfocus={select_all.clone()} />
            <p class="share-note">{ "The link holds the whole session: the Deployment spec, the cluster model, every command and the step you are at. Opening it replays the session to this step." }</p>
        </>
    }
}

/// Prepares the dialog for `session` under `anchor` (the button pressed). The link dialog
/// also puts the link in the address bar.
pub fn open_share(
    which: Which,
    anchor: &Element,
    session: &ShareSession,
) -> Result<ShareOpen, String> {
    let fragment = fragment_of(session, which)?;
    let title = session.title.as_str();
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let page = app_address(&window.location().href().unwrap_or_default());
    if which == Which::Link {
        if let Ok(h) = window.history() {
            h.replace_state_with_url(&JsValue::NULL, "", Some(&link_url(&page, &fragment)))
                .ok();
        }
    }
    // The dialog's stylesheet, beside the page (the app page does not load it up front).
    crate::load_stylesheet("rollout-share-css", "share.css");
    let host = document.create_element("div").map_err(|_| "no element")?;
    host.set_class_name("share-host");
    let rect = anchor.get_bounding_client_rect();
    let width = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .unwrap_or(1024.0);
    // Under the button, kept inside the window (the dialog is at most 34em, about 550 px, wide).
    let left = rect.left().min(width - 560.0).max(8.0) + window.scroll_x().unwrap_or(0.0);
    host.set_attribute(
        "style",
        &format!(
            // Positioned inline: share.css may still be loading when the dialog takes focus.
            "position: absolute; z-index: 30; top: {}px; left: {}px",
            crate::chart::whole(rect.bottom() + window.scroll_y().unwrap_or(0.0) + 8.0),
            crate::chart::whole(left)
        ),
    )
    .ok();
    document
        .body()
        .ok_or("no body")?
        .append_child(&host)
        .map_err(|_| "no body")?;
    Ok(ShareOpen {
        which,
        page: page.into(),
        fragment: fragment.into(),
        title: title.to_string().into(),
        host,
    })
}

/// The open dialog, drawn into its element through a portal: part of the Yew tree that holds
/// it (the app's), whatever the element's place in the page.
pub fn share_portal(open: &ShareOpen, on_close: Callback<()>) -> Html {
    create_portal(
        html! {
            <ShareDialog which={open.which} page={open.page.clone()} fragment={open.fragment.clone()}
                title={open.title.clone()} {on_close} />
        },
        open.host.clone(),
    )
}
