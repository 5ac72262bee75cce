// Rollout Lab's <rollout-lab> element as a React component, for MDX and Docusaurus pages
// (README, "React, MDX and Docusaurus"). Server-rendered, it writes the element with its
// attributes as strings and, inside, a box of the height the lab will draw at for those
// attributes (rollout-lab-height.js, the table the element's own placeholder reads) holding its
// children, the fallback shown until the lab is drawn: nothing below it moves when the module
// arrives. In the browser it
// loads the module once from `base` (where Rollout Lab's dist/ is served: with Docusaurus,
// `useBaseUrl("/rollout-lab/")`), outside the bundle, and passes `rollout-step` events to
// `onRolloutStep` through a ref (React 19 would pass an `onRolloutStep` prop to the element as
// an `onrollout-step` listener, which never fires).
import { createElement, useEffect, useRef } from "react";
import { labHeight, NARROW_BELOW } from "./rollout-lab-height.js";

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
export function RolloutLab({ base = "/rollout-lab/", onRolloutStep, children, style, ...props }) {
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
  // An inline-size container before the element is defined too (as its shadow root's style
  // makes it after), so the box below can tell a narrow column from a wide one.
  const own = style !== null && typeof style === "object" ? style : undefined;
  if (style !== undefined && !own) console.error("Rollout Lab: style must be an object of CSS properties (ignored)");
  const attributes = { ref, "data-base": base, style: { display: "block", containerType: "inline-size", ...own } };
  for (const [name, value] of Object.entries(props)) {
    // `controls` as `buttons`: what a minifier of the server-rendered HTML leaves alone.
    const key = name === "controls" ? "buttons" : name === "className" ? "class" : name;
    const v = attribute(name, value);
    if (v !== undefined) attributes[key] = v;
  }
  return createElement("rollout-lab", attributes, reserve(labHeight((name) => attributes[name] ?? null), children));
}

/**
 * The fallback's box, `height` the lab's expected height (`{wide, narrow}` in px), the
 * `narrow` one when the element is narrower than NARROW_BELOW (643 px), where the layout
 * stacks. With no stylesheet (a server render has none to rely on) the switch is one
 * container-relative `calc`: the element is an inline-size container (as it is once defined),
 * and `(100cqw - 642px) * 1000` is 0 or less at 642 px and below, and at least 1,000 px from
 * 643 px, so `clamp(0px, …, narrow - wide)` is all or nothing. For a lab of 500 px wide and
 * 780 px narrow: 780 - clamp(0, (760 - 642) × 1000, 280) = 500 px in a 760 px column, and
 * 780 - clamp(0, (358 - 642) × 1000, 280) = 780 px in a 358 px one. Once the element is
 * defined the children sit in its placeholder (of the same height) and the box has none.
 */
function reserve({ wide, narrow }, children) {
  const edge = NARROW_BELOW - 1;
  const height =
    narrow >= wide
      ? `calc(${narrow}px - clamp(0px, (100cqw - ${edge}px) * 1000, ${narrow - wide}px))`
      : `calc(${narrow}px + clamp(0px, (100cqw - ${edge}px) * 1000, ${wide - narrow}px))`;
  return createElement("div", { "data-rollout-lab-reserve": "", style: { height, boxSizing: "border-box", overflow: "hidden" } }, children);
}

export default RolloutLab;
