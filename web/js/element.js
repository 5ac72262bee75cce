// The <rollout-lab> custom element (README, "On a documentation page"). wasm-bindgen copies this
// file into dist/snippets/…/js/element.js and the module's glue (rollout-lab.js) imports it, so
// importing rollout-lab.js defines the element. Nothing is instantiated until an element is
// connected: then the module is instantiated (once per page) and its `mountElement` draws the
// embed layout into the element's open shadow root (web/src/element.rs). The element dispatches
// `rollout-step` (bubbles, composed; detail: the state `MountedLab.onStep` gives) after every
// change it draws.

// This file sits at snippets/<crate>/js/element.js beside the glue: three levels down.
const directory = new URL("../../../", import.meta.url).href;

/** The URL of the directory rollout-lab.js was loaded from (app.css, embed.css, the app). */
export function moduleDirectory() {
  return directory;
}

let loaded;
/** The module, instantiated (once, however many elements ask). */
function load() {
  loaded ??= import(new URL("rollout-lab.js", directory).href).then(async (m) => {
    await m.default();
    return m;
  });
  return loaded;
}

const OPTIONS = ["preset", "link", "controls", "chart", "explain", "step", "app-url", "autoplay", "lesson", "theme", "label"];

class RolloutLabElement extends HTMLElement {
  static observedAttributes = OPTIONS;

  #lab = null;
  #generation = 0;

  /** The mounted lab (`MountedLab` of the JavaScript API) once drawn, else null. */
  get lab() {
    return this.#lab;
  }

  connectedCallback() {
    this.#start();
  }

  disconnectedCallback() {
    this.#generation++;
    this.#stop();
  }

  attributeChangedCallback(name, before, after) {
    // A changed attribute starts the lab again from the new options.
    if (before !== after && this.isConnected && this.#lab) this.#start();
  }

  #stop() {
    if (this.#lab) {
      this.#lab.unmount();
      this.#lab = null;
    }
  }

  async #start() {
    const generation = ++this.#generation;
    const m = await load();
    // Removed (or started again) while the module was loading.
    if (generation !== this.#generation || !this.isConnected) return;
    this.#stop();
    try {
      const lab = m.mountElement(this);
      lab.onStep((state) => {
        this.dispatchEvent(new CustomEvent("rollout-step", { detail: state, bubbles: true, composed: true }));
      });
      this.#lab = lab;
    } catch (e) {
      const shadow = this.shadowRoot ?? this.attachShadow({ mode: "open" });
      const p = document.createElement("p");
      p.className = "rollout-lab-error";
      p.setAttribute("role", "alert");
      p.textContent = `Rollout Lab: ${e instanceof Error ? e.message : e}`;
      const style = document.createElement("style");
      style.textContent = ":host{all:initial;display:block}.rollout-lab-error{margin:0;padding:1em;font:14px/1.4 system-ui,sans-serif;color:#c02626}";
      shadow.replaceChildren(style, p);
    }
  }
}

if (!customElements.get("rollout-lab")) customElements.define("rollout-lab", RolloutLabElement);
