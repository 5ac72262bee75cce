// The <rollout-lab> custom element (README, "On a documentation page"). wasm-bindgen copies this
// file into dist/snippets/…/js/element.js and the module's glue (rollout-lab.js) imports it, so
// importing rollout-lab.js defines the element. Nothing is instantiated until an element is
// connected: then the module is instantiated (once per page) and its `mountElement` draws the
// embed layout into the element's open shadow root (web/src/element.rs). The element dispatches
// `rollout-step` (bubbles, composed; detail: the state `MountedLab.onStep` gives) after every
// change it draws. Moving an element in the document keeps its lab (the teardown waits a
// microtask and is cancelled when the element is connected again); `theme` is CSS only
// (`:host([theme=dark])`, app.css) and `autoplay` plays once the element is scrolled into view,
// unless the reader prefers reduced motion.

// This file sits at snippets/<crate>/js/element.js beside the glue: three levels down.
const directory = new URL("../../../", import.meta.url).href;

/** The URL of the directory rollout-lab.js was loaded from (app.css, embed.css, the app). */
export function moduleDirectory() {
  return directory;
}

/**
 * Calls `play` once `target` is scrolled into view (a quarter of it visible), unless the reader
 * prefers reduced motion; returns a function that stops watching. Inside an iframe the view is
 * the top-level page's, so an ?embed&autoplay iframe also waits to be seen.
 */
export function whenSeen(target, play) {
  if (globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return () => {};
  if (typeof IntersectionObserver !== "function") {
    play();
    return () => {};
  }
  const io = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        play();
      }
    },
    { threshold: 0.25 },
  );
  io.observe(target);
  return () => io.disconnect();
}

/**
 * In an ?embed page shown in an iframe: posts `{type: "rollout-lab:resize", height}` to the
 * parent whenever the height the page needs changes (README, "Embedding").
 */
export function postHeightToParent() {
  if (globalThis.parent === globalThis || typeof ResizeObserver !== "function") return;
  let last = -1;
  const measure = () => {
    const root = document.documentElement;
    const app = document.querySelector(".app.embed");
    const height = Math.ceil(Math.max(root.scrollHeight, app?.scrollHeight ?? 0));
    if (height !== last) {
      last = height;
      parent.postMessage({ type: "rollout-lab:resize", height }, "*");
    }
  };
  const ro = new ResizeObserver(measure);
  ro.observe(document.documentElement);
  new MutationObserver(() => {
    const app = document.querySelector(".app.embed");
    if (app) ro.observe(app);
  }).observe(document.body, { childList: true });
  measure();
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
/** Attributes that do not start the lab again: CSS (`theme`) or when to play (`autoplay`). */
const LIVE = new Set(["theme", "autoplay"]);

/** The element's class: made only where there is a DOM to define it in (not in a worker). */
function elementClass() {
  return class RolloutLabElement extends HTMLElement {
    static observedAttributes = OPTIONS;

    #lab = null;
    #generation = 0;
    #leaving = false;
    #unwatch = () => {};

    /** The mounted lab (`MountedLab` of the JavaScript API) once drawn, else null. */
    get lab() {
      return this.#lab;
    }

    connectedCallback() {
      this.#leaving = false;
      // Moved in the document (removed and inserted in one task): the lab goes on as it was.
      if (this.#lab) return;
      this.#start();
    }

    disconnectedCallback() {
      // Torn down a microtask later, unless connected again by then (a move).
      this.#leaving = true;
      queueMicrotask(() => {
        if (!this.#leaving || this.isConnected) return;
        this.#leaving = false;
        this.#generation++;
        this.#stop();
      });
    }

    attributeChangedCallback(name, before, after) {
      if (before === after || !this.isConnected || !this.#lab) return;
      if (name === "autoplay") this.#watch();
      // Any other changed attribute starts the lab again from the new options.
      else if (!LIVE.has(name)) this.#start();
    }

    /** With `autoplay` (not "0", "false", "no" or "off"), plays once the element is seen. */
    #watch() {
      this.#unwatch();
      this.#unwatch = () => {};
      const v = this.getAttribute("autoplay");
      if (v === null || ["0", "false", "no", "off"].includes(v.trim().toLowerCase())) return;
      this.#unwatch = whenSeen(this, () => this.#lab?.play());
    }

    #stop() {
      this.#unwatch();
      this.#unwatch = () => {};
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
        this.#watch();
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
  };
}

// The Plan view's Web Worker imports this module too (through the glue): it has no DOM, so
// no `HTMLElement` to extend and no element to define.
if (globalThis.customElements && !customElements.get("rollout-lab")) {
  customElements.define("rollout-lab", elementClass());
}
