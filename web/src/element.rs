//! The `<rollout-lab>` custom element's Rust half: the shadow root it draws into, and where
//! the module's files are. The element itself is defined in JavaScript (`web/js/element.js`,
//! loaded by the module's glue, so importing `rollout-lab.js` defines it); once one is
//! connected it instantiates the module and calls `mountElement` (`crate::api`).
//!
//! Inside the shadow root: a `<style>` that isolates the element from its host page
//! ([`HOST_CSS`]), `app.css` and `embed.css` linked from beside the module, and a labelled
//! region the embed layout (`crate::embed`) is drawn into. Yew registers its event listeners
//! on the root it renders into and reads `composedPath()`, so the lab's handlers work inside
//! the shadow root, and several elements on a page are independent roots of the one Yew.

use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement, ShadowRootInit, ShadowRootMode};

#[wasm_bindgen(module = "/js/element.js")]
extern "C" {
    /// The URL of the directory the module (`rollout-lab.js`) was loaded from.
    #[wasm_bindgen(js_name = moduleDirectory)]
    pub fn module_directory() -> String;

    /// Calls `play` once `target` is scrolled into view, unless the reader prefers reduced
    /// motion; returns a function that stops watching.
    #[wasm_bindgen(js_name = whenSeen)]
    pub fn when_seen(target: &Element, play: &js_sys::Function) -> js_sys::Function;

    /// In an iframe: posts `{type: "rollout-lab:resize", height}` to the parent whenever the
    /// page's height changes.
    #[wasm_bindgen(js_name = postHeightToParent)]
    pub fn post_height_to_parent();
}

/// A page's or element's colour theme: `light`, `dark`, or `auto` (the reader's system
/// setting); anything else is `auto`.
pub fn theme(value: &str) -> &'static str {
    match value.trim().to_ascii_lowercase().as_str() {
        "light" => "light",
        "dark" => "dark",
        _ => "auto",
    }
}

#[wasm_bindgen(typescript_custom_section)]
const ELEMENT_TS: &str = r#"
/** `<rollout-lab>`, defined when this module is imported (README, "On a documentation page"). */
export interface RolloutLabElement extends HTMLElement {
  /** The lab once it is drawn (the handle `mount()` returns), else null. */
  readonly lab: MountedLab | null;
}
declare global {
  interface HTMLElementTagNameMap {
    'rollout-lab': RolloutLabElement;
  }
  interface HTMLElementEventMap {
    /** After every change the element draws; `detail` is the state `MountedLab.onStep` gives. */
    'rollout-step': CustomEvent<any>;
  }
}
"#;

/// The element's own styles. `all: initial` stops the host page's inherited styles (fonts,
/// colours, line height, text alignment …) at the boundary; selectors of the host page do not
/// reach into a shadow root at all. The element is a block sized by the page's CSS, 500 px
/// high unless told otherwise (as the iframe embed).
pub const HOST_CSS: &str = ":host{all:initial;display:block;position:relative;\
height:500px;contain:content;overflow:hidden}\
:host([hidden]){display:none}\
.rollout-lab-region{height:100%;visibility:hidden}\
.rollout-lab-region.is-ready{visibility:visible}\
.rollout-lab-error{margin:0;padding:1em;font:14px/1.4 system-ui,sans-serif;color:#c02626}";

/// Whether an attribute's value switches something on: anything but `0`, `false`, `no` or
/// `off` (an attribute present without a value is on).
pub fn is_on(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

/// Empties `host`'s open shadow root (attaching one the first time) and fills it with the
/// styles and the region the lab is drawn into; returns the region. The region stays hidden
/// until both stylesheets have loaded, so the lab never flashes unstyled.
pub fn shadow_root(host: &HtmlElement) -> Result<Element, String> {
    let shadow = match host.shadow_root() {
        Some(s) => s,
        None => host
            .attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open))
            .map_err(|_| "this element cannot have a shadow root")?,
    };
    let document = host.owner_document().ok_or("no document")?;
    let make = |tag: &str| document.create_element(tag).map_err(|_| "no element");
    while let Some(child) = shadow.first_child() {
        shadow.remove_child(&child).ok();
    }
    let style = make("style")?;
    style.set_text_content(Some(HOST_CSS));
    shadow.append_child(&style).map_err(|_| "no shadow root")?;
    let region = make("div")?;
    region.set_class_name("rollout-lab-region");
    region.set_attribute("role", "region").ok();
    let label = host
        .get_attribute("label")
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| "Rollout Lab".into());
    region.set_attribute("aria-label", &label).ok();
    let directory = module_directory();
    let pending = std::rc::Rc::new(std::cell::Cell::new(2u8));
    for sheet in ["app.css", "embed.css"] {
        let link = make("link")?;
        link.set_attribute("rel", "stylesheet").ok();
        link.set_attribute("href", &format!("{directory}{sheet}"))
            .ok();
        // Shown once both have loaded (or failed: better unstyled than invisible). A link fires
        // `load` again when the element is moved in the document: counted once.
        let (pending, region) = (pending.clone(), region.clone());
        let mut counted = false;
        let done = Closure::<dyn FnMut()>::new(move || {
            if !std::mem::replace(&mut counted, true) {
                pending.set(pending.get().saturating_sub(1));
                if pending.get() == 0 {
                    region.class_list().add_1("is-ready").ok();
                }
            }
        });
        link.add_event_listener_with_callback("load", done.as_ref().unchecked_ref())
            .ok();
        link.add_event_listener_with_callback("error", done.as_ref().unchecked_ref())
            .ok();
        // Lives as long as the link (a few bytes per element mounted).
        done.forget();
        shadow.append_child(&link).map_err(|_| "no shadow root")?;
    }
    shadow.append_child(&region).map_err(|_| "no shadow root")?;
    Ok(region)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes() {
        assert_eq!(theme("dark"), "dark");
        assert_eq!(theme(" Light "), "light");
        assert_eq!(theme("auto"), "auto");
        assert_eq!(theme("purple"), "auto");
    }

    #[test]
    fn attribute_switches() {
        for on in ["", "1", "true", "yes", "on", "anything"] {
            assert!(is_on(on), "{on:?}");
        }
        for off in ["0", "false", "FALSE", " no ", "off"] {
            assert!(!is_on(off), "{off:?}");
        }
    }
}
