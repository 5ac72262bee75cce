// The <rollout-lab> custom element (README, "On a documentation page"). wasm-bindgen copies this
// file into dist/snippets/…/js/element.js and the module's glue (rollout-lab.js) imports it, so
// importing rollout-lab.js defines the element, and that is all it does until an element comes
// near the viewport (`loading="eager"`: at once). Then the module is instantiated (once per base:
// the element's `data-base`, the page's `<meta name="rollout-lab-base">` or beside the module)
// and its `mountElement` draws the embed layout into the element's open shadow root
// (web/src/boot/element.rs).
//
// Until the lab is drawn the shadow root shows a placeholder of the height the lab will draw at
// for its attributes (rollout-lab-height.js: the default lab 440 px, 660 px when the element is
// narrower than 643 px, where the layout stacks) holding the element's own children (fallback
// content, a <slot>), so the page does not jump when the wasm arrives. A failed load shows what failed and a Retry button in the same box; nothing throws
// into the page. The element dispatches `rollout-step` (bubbles, composed; detail: the state
// `MountedLab.onStep` gives) after every change it draws. Moving an element in the document
// keeps its lab (the teardown waits a microtask and is cancelled when the element is connected
// again); `theme` is CSS (`:host([theme=dark])`, app.css; `inherit` follows the page's own
// theme through `data-page-theme`) and `autoplay` plays once the
// element is scrolled into view, unless the reader prefers reduced motion.

import { labHeight, NARROW_BELOW } from "./rollout-lab-height.js";

// This file sits at snippets/<crate>/js/element.js beside the glue: three levels down. In a
// bundle `import.meta.url` is the bundle's, or nothing (an iife bundle): then only `data-base`
// or the page's `<meta name="rollout-lab-base">` says where the module is (`baseOf`).
let directory = null;
try {
  directory = new URL("../../../", import.meta.url).href;
} catch {}

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
  return whenVisible(target, play, { threshold: 0.25 });
}

/** Calls `go` once `target` intersects the view widened by `options`; returns a stop function. */
function whenVisible(target, go, options) {
  if (typeof IntersectionObserver !== "function") {
    go();
    return () => {};
  }
  const io = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      io.disconnect();
      go();
    }
  }, options);
  io.observe(target);
  return () => io.disconnect();
}

/**
 * In an ?embed page shown in an iframe: posts `{type: "rollout-lab:resize", height}` to the
 * parent whenever the height of the content changes (README, "Embedding"). The layout is sized
 * by its content there (`html.embed-fit`, embed.css), so the height shrinks as well as grows.
 */
export function postHeightToParent() {
  if (globalThis.parent === globalThis || typeof ResizeObserver !== "function") return;
  document.documentElement.classList.add("embed-fit");
  let last = -1;
  const measure = () => {
    const app = document.querySelector(".app.embed");
    if (!app) return;
    const height = Math.ceil(app.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      parent.postMessage({ type: "rollout-lab:resize", height }, "*");
    }
  };
  const ro = new ResizeObserver(measure);
  const watch = () => {
    const app = document.querySelector(".app.embed");
    if (app) ro.observe(app);
  };
  new MutationObserver(watch).observe(document.body, { childList: true });
  watch();
  measure();
}

/** Styles of the host and of what the element script puts in its shadow root. */
const HOST_CSS = `:host{all:initial;display:block;position:relative;contain:layout paint style;container-type:inline-size}
:host([hidden]){display:none}
.rollout-lab-region:not(.is-ready){position:absolute;top:0;left:0;right:0;visibility:hidden}
.rollout-lab-region.is-ready~.rollout-lab-wait{display:none}
.rollout-lab-wait{box-sizing:border-box;height:var(--wide);display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.8em;padding:1em;font:14px/1.45 system-ui,sans-serif;color:#5b6478;border:1px solid #8883;border-radius:12px;text-align:center}
@container (max-width:${NARROW_BELOW - 1}px){.rollout-lab-wait{height:var(--narrow)}}
.rollout-lab-wait slot{display:block}
::slotted([data-rollout-lab-reserve]){height:auto!important}
.rollout-lab-error p{margin:0;color:#c02626}
.rollout-lab-error button{font:inherit;padding:.3em 1em;border-radius:8px;border:1px solid currentColor;background:none;color:inherit;cursor:pointer}`;

/** The host's open shadow root with its style and placeholder box (made once, kept). */
function shell(host) {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const child = (cls) => [...shadow.children].find((c) => c.classList.contains(cls));
  if (!child("rollout-lab-host")) {
    const style = document.createElement("style");
    style.className = "rollout-lab-host";
    style.textContent = HOST_CSS;
    shadow.prepend(style);
  }
  let wait = child("rollout-lab-wait");
  if (!wait) {
    wait = document.createElement("div");
    wait.className = "rollout-lab-wait";
    shadow.append(wait);
  }
  return { shadow, wait };
}

/**
 * Shows the placeholder: the element's own children (fallback content), else a short note, in
 * a box of the height the lab will draw at for the element's attributes (rollout-lab-height.js).
 */
function waiting(host) {
  const { wait } = shell(host);
  const { wide, narrow } = labHeight((name) => host.getAttribute(name));
  wait.style.setProperty("--wide", `${wide}px`);
  wait.style.setProperty("--narrow", `${narrow}px`);
  const slot = document.createElement("slot");
  slot.textContent = "Loading Rollout Lab…";
  wait.replaceChildren(slot);
}

/** Removes the lab's region and stylesheets from the shadow root (keeps style and placeholder). */
function clearLab(host) {
  for (const n of [...(host.shadowRoot?.children ?? [])]) {
    if (n.localName === "link" || n.classList.contains("rollout-lab-region")) n.remove();
  }
}

let numbered = 0;
const numbers = new WeakMap();

/**
 * Called by `mountElement` (web/src/element.rs): the region of `host`'s shadow root the lab is
 * drawn into, made anew, after `app.css` and `embed.css` linked from beside the module. The
 * region is a labelled `role="region"`: the `label` attribute, else "Rollout Lab" (the second
 * element of the page "Rollout Lab 2", and so on: landmarks' names are unique). It stays hidden
 * (the placeholder shown) until both stylesheets have loaded, so it never flashes unstyled.
 */
export function shadowRegion(host) {
  const { shadow, wait } = shell(host);
  clearLab(host);
  const region = document.createElement("div");
  region.className = "rollout-lab-region";
  region.setAttribute("role", "region");
  let label = host.getAttribute("label")?.trim();
  if (!label) {
    if (!numbers.has(host)) numbers.set(host, ++numbered);
    const n = numbers.get(host);
    label = n === 1 ? "Rollout Lab" : `Rollout Lab ${n}`;
  }
  region.setAttribute("aria-label", label);
  let pending = 2;
  const done = () => {
    if (--pending === 0) region.classList.add("is-ready");
  };
  for (const sheet of ["app.css", "embed.css"]) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(sheet, directory).href;
    // Shown once both have loaded (or failed: better unstyled than invisible).
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
    shadow.insertBefore(link, wait);
  }
  shadow.insertBefore(region, wait);
  return region;
}

/** Each base's glue (rollout-lab.js) import, and each base's instantiated module. */
const glues = new Map();
const modules = new Map();
/** How many imports of a base's glue failed: a new attempt asks with `?retry=N`. */
const attempts = new Map();

/**
 * The module of `base` (the folder of rollout-lab.js and its wasm: the element's `data-base`,
 * else where this script was loaded from), instantiated once per base however many elements
 * ask. Two bases are two modules, each with its own wasm memory: an element whose base is
 * wrong fails alone, and the others of the page go on (README, "Install"). A failure is not
 * kept: the next call tries again (a failed import is cached by its URL, so a new attempt asks
 * with `?retry=N`).
 */
function load(base) {
  let ready = modules.get(base);
  if (ready) return ready;
  ready = (async () => {
    await null; // the glue (which imports this file) finishes evaluating first
    let glue = glues.get(base);
    if (!glue) {
      const url = new URL("rollout-lab.js", base);
      const n = attempts.get(base) ?? 0;
      if (n) url.search = `?retry=${n}`;
      glue = import(url.href).catch((e) => {
        glues.delete(base);
        attempts.set(base, n + 1);
        const hint = base === directory ? `; if it is bundled: ${WHERE}` : "";
        throw new Error(`could not load ${url.href.replace(/\?.*/, "")} (${e?.message ?? e})${hint}`);
      });
      glues.set(base, glue);
    }
    const m = await glue;
    // Fetched only if the module is not instantiated yet; a failure names the file and the
    // server's answer ("failed to fetch Wasm: 404 Not Found fetching '…_bg.wasm'").
    await m.default({ module_or_path: new URL("rollout-lab_bg.wasm", base) });
    return m;
  })();
  modules.set(base, ready);
  ready.catch(() => {
    if (modules.get(base) === ready) modules.delete(base);
  });
  return ready;
}

/**
 * The element's folder of rollout-lab.js and its wasm (README, "Packaging"): its `data-base`,
 * else the page's `<meta name="rollout-lab-base" content="…">` (one line for a bundle's
 * elements), else where this script was loaded from.
 */
function baseOf(host) {
  const b = host.getAttribute("data-base") || document.querySelector('meta[name="rollout-lab-base"]')?.content;
  if (b) return new URL(b.endsWith("/") ? b : `${b}/`, document.baseURI).href;
  if (directory) return directory;
  throw new Error(`bundled, it needs ${WHERE}`);
}

const WHERE = 'the folder rollout-lab.js is served from, as <meta name="rollout-lab-base" content="/rollout-lab/"> or data-base';

const OPTIONS = [
  "preset", "link", "controls", "buttons", "chart", "explain", "traffic", "step", "app-url", "autoplay", "lesson",
  "theme", "label", "heading-level", "loading", "data-base", "view", "race", "steps", "show", "k8s",
];
/** Attributes that do not start the lab again. */
const LIVE = new Set(["theme", "autoplay", "loading", "data-base"]);

/**
 * The attributes documentation themes mark their dark mode with, on <html> or <body>:
 * Docusaurus and PyData Sphinx (`data-theme` on <html>), Furo (`data-theme` on <body>),
 * Bootstrap (`data-bs-theme`), MkDocs Material (`data-md-color-scheme`: `slate` is its dark
 * palette, `default` its light one), and others' `data-mode`, `data-color-mode`,
 * `data-color-scheme`.
 */
const THEME_ATTRIBUTES = ["data-theme", "data-bs-theme", "data-md-color-scheme", "data-mode", "data-color-mode", "data-color-scheme"];
/** The theme an attribute's value says: `dark`, `light`, and MkDocs Material's palettes. */
function themeOf(attribute, value) {
  const v = value?.trim().toLowerCase();
  if (v === "dark" || v === "light") return v;
  if (attribute !== "data-md-color-scheme") return null;
  return v === "slate" ? "dark" : v === "default" ? "light" : null;
}

/** `dark` or `light` from a computed `color-scheme` that names only one ("dark", "only dark"). */
function schemeOf(el) {
  const words = getComputedStyle(el).colorScheme.split(/\s+/);
  const dark = words.includes("dark");
  return dark !== words.includes("light") ? (dark ? "dark" : "light") : null;
}

/**
 * For `theme="inherit"`: the host page's own theme, as its dark-mode toggle marks it on <html>
 * or <body> (`data-theme="dark"`, `data-md-color-scheme="slate"`, `data-bs-theme`, Tailwind's
 * and VitePress's `class="dark"` …, `data-theme="auto"` saying nothing), else a computed
 * `color-scheme` of only light or only dark on <body> or <html>; null when the page says
 * nothing (then: the reader's).
 */
function pageTheme() {
  const els = [document.documentElement, document.body].filter(Boolean);
  for (const el of els) {
    for (const a of THEME_ATTRIBUTES) {
      const t = themeOf(a, el.getAttribute(a));
      if (t) return t;
    }
    for (const t of ["dark", "light"]) {
      if ([t, `${t}-mode`, `theme-${t}`, `${t}-theme`].some((c) => el.classList.contains(c))) return t;
    }
  }
  for (const el of els.reverse()) {
    const t = schemeOf(el);
    if (t) return t;
  }
  return null;
}

/**
 * Keeps `data-page-theme` on `host` (app.css: `:host([theme=inherit][data-page-theme=dark])`)
 * following the page's theme while `theme="inherit"`; returns a function that stops.
 */
function inheritTheme(host) {
  if (host.getAttribute("theme") !== "inherit") {
    host.removeAttribute("data-page-theme");
    return () => {};
  }
  const apply = () => {
    const t = pageTheme();
    if (t) host.setAttribute("data-page-theme", t);
    else host.removeAttribute("data-page-theme");
  };
  const mo = new MutationObserver(apply);
  for (const el of [document.documentElement, document.body]) {
    if (el) mo.observe(el, { attributes: true, attributeFilter: ["class", "style", ...THEME_ATTRIBUTES] });
  }
  apply();
  return () => mo.disconnect();
}

/**
 * Elements whose module failed to load, with their base: once one element loads that base's
 * module (Retry), the others of the same base start too.
 */
const stalled = new Map();

/** The element's class: made only where there is a DOM to define it in (not in a worker). */
function elementClass() {
  return class RolloutLabElement extends HTMLElement {
    static observedAttributes = OPTIONS;

    #lab = null;
    #failed = false;
    #generation = 0;
    #leaving = false;
    #unwatch = () => {};
    #unlazy = () => {};
    #untheme = () => {};

    /** The mounted lab (`MountedLab` of the JavaScript API) once drawn, else null. */
    get lab() {
      return this.#lab;
    }

    connectedCallback() {
      this.#leaving = false;
      this.#untheme();
      this.#untheme = inheritTheme(this);
      // Moved in the document (removed and inserted in one task): the lab goes on as it was.
      if (this.#lab) return;
      waiting(this);
      this.#unlazy();
      if (this.getAttribute("loading") === "eager") this.#start();
      // Lazy: nothing is fetched until the element is within about a screen of the view.
      else this.#unlazy = whenVisible(this, () => this.#start(), { rootMargin: "600px 0px" });
    }

    disconnectedCallback() {
      // Torn down a microtask later, unless connected again by then (a move).
      this.#leaving = true;
      queueMicrotask(() => {
        if (!this.#leaving || this.isConnected) return;
        this.#leaving = false;
        this.#generation++;
        this.#unlazy();
        this.#untheme();
        this.#stop();
        stalled.delete(this);
        this.#failed = false;
        this.shadowRoot?.replaceChildren();
      });
    }

    attributeChangedCallback(name, before, after) {
      if (before === after || !this.isConnected) return;
      if (name === "autoplay") {
        if (this.#lab) this.#watch();
      } else if (name === "theme") {
        this.#untheme();
        this.#untheme = inheritTheme(this);
      } else if (name === "loading") {
        if (after === "eager" && !this.#lab && !this.#failed) {
          this.#unlazy();
          this.#start();
        }
      } else if (!LIVE.has(name) && (this.#lab || this.#failed)) {
        // Any other changed attribute starts the lab again from the new options (after a
        // failure too: `preset="nope"` corrected recovers).
        this.#start();
      }
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
        const lab = this.#lab;
        this.#lab = null;
        lab.unmount();
        // The Rust side holds the `rollout-step` listener (and so this element) until freed.
        lab.free?.();
      }
      clearLab(this);
    }

    async #start() {
      const generation = ++this.#generation;
      this.#unlazy();
      let m;
      let base;
      try {
        base = baseOf(this);
        m = await load(base);
      } catch (e) {
        if (generation === this.#generation && this.isConnected) this.#fail(e, base ?? true);
        return;
      }
      stalled.delete(this);
      for (const [other, b] of stalled) if (b === base) other.#retry();
      // Removed (or started again) while the module was loading.
      if (generation !== this.#generation || !this.isConnected) return;
      this.#stop();
      waiting(this);
      try {
        const lab = m.mountElement(this);
        lab.onStep((state) => {
          this.dispatchEvent(new CustomEvent("rollout-step", { detail: state, bubbles: true, composed: true }));
        });
        this.#lab = lab;
        this.#failed = false;
        this.#watch();
      } catch (e) {
        clearLab(this);
        this.#fail(e);
      }
    }

    /** Shows the placeholder again and loads (or mounts) once more. */
    #retry() {
      stalled.delete(this);
      waiting(this);
      this.#start();
    }

    /**
     * Shows what failed in the placeholder's box, with Retry when loading failed (`retry`: the
     * base it failed to load from, or true when the base itself could not be worked out).
     */
    #fail(e, retry) {
      this.#failed = true;
      if (retry) stalled.set(this, retry);
      const { wait } = shell(this);
      const box = document.createElement("div");
      box.className = "rollout-lab-error";
      box.setAttribute("role", "alert");
      const p = document.createElement("p");
      p.textContent = `Rollout Lab: ${e instanceof Error ? e.message : e}`;
      box.append(p);
      if (retry) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Retry";
        button.addEventListener("click", () => this.#retry());
        box.append(button);
      }
      wait.replaceChildren(box);
    }
  };
}

// The Plan view's Web Worker imports this module too (through the glue): it has no DOM, so
// no `HTMLElement` to extend and no element to define.
if (globalThis.customElements && !customElements.get("rollout-lab")) {
  customElements.define("rollout-lab", elementClass());
}
