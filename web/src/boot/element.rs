//! The `<rollout-lab>` custom element's Rust half: the shadow root it draws into, and where
//! the module's files are. The element itself is defined in JavaScript (`web/js/element.js`,
//! loaded by the module's glue, so importing `rollout-lab.js` defines it); once one is
//! connected it instantiates the module and calls `mountElement` (`crate::api`).
//!
//! Inside the shadow root (made by the element's script): a `<style>` that isolates the element
//! from its host page, `app.css` and `embed.css` linked from beside the module, a labelled
//! region the embed layout (`crate::embed`) is drawn into, and the placeholder shown until then. Yew registers its event listeners
//! on the root it renders into and reads `composedPath()`, so the lab's handlers work inside
//! the shadow root, and several elements on a page are independent roots of the one Yew.

use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement};

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

    /// The region of the element's shadow root to draw the lab into (made anew), with the
    /// element's styles and stylesheets.
    #[wasm_bindgen(js_name = shadowRegion, catch)]
    fn shadow_region(host: &HtmlElement) -> Result<Element, JsValue>;
}

/// The placeholder's height table (`web/js/rollout-lab-height.js`, README "React, MDX and
/// Docusaurus"), which the element's script imports from beside itself: declared here so that
/// wasm-bindgen copies it into `dist/snippets/…/js/` with `element.js`. Nothing in Rust reads it.
#[wasm_bindgen(module = "/js/rollout-lab-height.js")]
extern "C" {
    /// The element width (px) below which the embed layout stacks.
    #[allow(dead_code)]
    #[wasm_bindgen(thread_local_v2, js_name = NARROW_BELOW)]
    static NARROW_BELOW: f64;
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
/** A ReplicaSet as a lab's state lists it. */
export interface RolloutLabReplicaSet {
  name: string; revision: string; desired: number; current: number; ready: number; available: number;
  [field: string]: unknown;
}
/** What `MountedLab.onStep` gives and the `rollout-step` event carries as `detail`. */
export interface RolloutLabState {
  round: number; time: number; step: number; finished: boolean;
  replicaSets: RolloutLabReplicaSet[]; deployments: Record<string, unknown>[];
  preset: string | null; playing: boolean; notice: string | null; problems: string | null; pending: string[];
  [field: string]: unknown;
}
/** The `rollout-step` event of a `<rollout-lab>`. */
export type RolloutStepEvent = CustomEvent<RolloutLabState>;
/** The attributes of `<rollout-lab>` (README, "On a documentation page"), all strings in HTML. */
export interface RolloutLabAttributes {
  preset?: string; link?: string; buttons?: string; controls?: string | boolean; chart?: string; explain?: string;
  /** `traffic`: the Service in front of the pods and its requests (off unless present). */
  traffic?: string | boolean;
  step?: string | number; "app-url"?: string; autoplay?: string | boolean; lesson?: string;
  /** The Kubernetes version whose controllers run: "1.37" (the default) or "1.28"; a `link` holds its own. */
  k8s?: "1.37" | "1.28";
  theme?: "light" | "dark" | "auto" | "inherit"; label?: string; "heading-level"?: string | number;
  loading?: "lazy" | "eager"; "data-base"?: string; id?: string; class?: string; style?: string;
  /** `view="races"`: the Races view, at the walk-through `race` and the comma-separated `steps`,
   *  with the counterfactuals `show` (`"noexp"`, `"norv"`, comma-separated) beside the real ones. */
  view?: "races"; race?: string; steps?: string; show?: string;
}
/** `<rollout-lab>`, defined when this module is imported (README, "On a documentation page"). */
export interface RolloutLabElement extends HTMLElement {
  /** The lab once it is drawn (the handle `mount()` returns), else null. */
  readonly lab: MountedLab | null;
  addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: RolloutLabElement, ev: HTMLElementEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}
declare global {
  interface HTMLElementTagNameMap {
    'rollout-lab': RolloutLabElement;
  }
  interface HTMLElementEventMap {
    /** After every change the element draws. */
    'rollout-step': RolloutStepEvent;
  }
}
"#;

/// The region of `host`'s open shadow root the lab is drawn into, made anew after `app.css` and
/// `embed.css` linked from beside the module (`shadowRegion` in `web/js/element.js`, which also
/// keeps the element's placeholder shown until both stylesheets have loaded).
pub fn shadow_root(host: &HtmlElement) -> Result<Element, String> {
    shadow_region(host).map_err(|_| "this element cannot have a shadow root".to_string())
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
}
