// Rollout Lab's <rollout-lab> element as a React component, for MDX and Docusaurus pages
// (README, "In React and MDX"). Server-rendered, it writes the element with its attributes as
// strings (and its children as the fallback shown until the lab is drawn); in the browser it
// loads the module once from `base` (where Rollout Lab's dist/ is served: with Docusaurus,
// `useBaseUrl("/rollout-lab/")`), outside the bundle, and passes `rollout-step` events to
// `onRolloutStep` through a ref (React 19 would pass an `onRolloutStep` prop to the element as
// an `onrollout-step` listener, which never fires).
import { createElement, useEffect, useRef } from "react";

const loaded = new Map();

/** Imports `<base>rollout-lab.js` once per base; a failed import is tried again next time. */
function load(base) {
  const url = new URL("rollout-lab.js", new URL(base, document.baseURI)).href;
  if (!loaded.has(url)) {
    loaded.set(
      url,
      import(/* webpackIgnore: true */ /* @vite-ignore */ url).catch((e) => {
        loaded.delete(url);
        console.error(`Rollout Lab: could not load ${url}`, e);
      }),
    );
  }
  return loaded.get(url);
}

/** An attribute value: lists joined by commas, true as present, false and null as absent. */
function attribute(name, value) {
  if (value === false || value === null || value === undefined) return undefined;
  if (value === true) return "";
  if (Array.isArray(value)) return value.join(",");
  if (typeof value === "object") {
    console.error(`Rollout Lab: ${name} must be a string, not an object (ignored)`);
    return undefined;
  }
  return String(value);
}

/**
 * `<RolloutLab base="/rollout-lab/" preset="rolling-basic" controls="step,play" onRolloutStep={…} />`:
 * every attribute of the element as a prop (`controls` may be a list), `base` (default
 * "/rollout-lab/"), `onRolloutStep`, and `children` as fallback content.
 */
export function RolloutLab({ base = "/rollout-lab/", onRolloutStep, children, ...props }) {
  const ref = useRef(null);
  useEffect(() => {
    load(base);
  }, [base]);
  useEffect(() => {
    const element = ref.current;
    if (!element || !onRolloutStep) return undefined;
    element.addEventListener("rollout-step", onRolloutStep);
    return () => element.removeEventListener("rollout-step", onRolloutStep);
  }, [onRolloutStep]);
  const attributes = { ref, "data-base": base };
  for (const [name, value] of Object.entries(props)) {
    // `controls` as `buttons`: what a minifier of the server-rendered HTML leaves alone.
    const key = name === "controls" ? "buttons" : name === "className" ? "class" : name;
    const v = attribute(name, value);
    if (v !== undefined) attributes[key] = v;
  }
  return createElement("rollout-lab", attributes, children);
}

export default RolloutLab;
