// How tall a <rollout-lab> will draw, known before the module has loaded: one table, read by the
// element's placeholder (web/js/element.js imports this file beside it in dist/snippets/…), by
// the React component's server-rendered box (web/kit/react, which imports dist/'s copy,
// rollout-lab-height.js), and written out as the `:not(:defined)` style for pages that load
// the script themselves (`notDefinedCss`: the README's and the Hugo shortcode's copies are
// checked against it by the e2e tests). No DOM, no side effect: Node imports it to render on
// the server.
//
// The figures are the heights Chromium draws the embed layout at, at a preset's first step
// (`tests/e2e/bench/lab-heights.mjs` measures every combination; specs/element.test.mjs checks
// the reserved height against the drawn one): "wide" in a documentation column at 1280 px
// (760 to 864 px wide), "narrow" in a 390 px phone's column (358 px). The default lab is
// rolling-basic's 441 px at 760 px wide and 451 px at 800 to 864, and 599 px narrow (its first
// step shows a pending command, a line more), recreate's 427 px at 768 and 583 narrow: 440 and
// 592 are within 11 px of both. In between the chart's width changes its height (412 px at
// 643 px wide, 469 at 1,000), so a lab in a much narrower or wider column than these is
// reserved up to about 30 px more or less than it draws.

/** Below this width (px) of the element the embed layout stacks the cluster and the chart. */
export const NARROW_BELOW = 643;

/** Heights and what each part adds, in px: `[wide, narrow]`. */
export const HEIGHTS = {
  /**
   * The default lab with its chart and its "what just happened" line; wide with one row of
   * controls, narrow without any (they add `buttonRow` each).
   */
  lab: [440, 592],
  /** `chart="0"`: no pod chart (narrow, the chart is stacked below the cluster). */
  noChart: [-179, -289],
  /** `explain="0"`: no explanation line. */
  noExplain: [-19, -19],
  /**
   * Narrow, each row of buttons, three to a row: Back and Step take two places, Round, Play,
   * New image, Reset and the strategy one each. The default controls (Back, Step, Play, New
   * image, Reset: five places) are two rows: 592 + 2 × 34 = 660 px (rolling-basic: 667).
   */
  buttonRow: [0, 34],
  /**
   * The sliders (replicas, maxSurge, maxUnavailable): wide, one row for up to three (a lone
   * slider measures 9 px less); narrow, a row each. `step,replicas,maxSurge` on a phone:
   * 592 + 34 + 2 × 37 = 700 px (rolling-basic: 709).
   */
  slider: [41, 37],
  /** Wide, sliders and seven places of buttons or more: the buttons wrap to a second row. */
  crowded: [26, 0],
  /**
   * `traffic`: the Service's strip and the served/failed chart under the stage (measured with
   * rolling-basic, with and without the chart: 441 → 717 px and 262 → 538 wide, 667 → 1,001
   * and 379 → 712 narrow).
   */
  traffic: [276, 334],
  /** `view="races"`: the Races view at its first step (the walk-through's text changes it). */
  races: [938, 1582],
  /** `lesson`: a lesson's first step (its text changes it). */
  lesson: [716, 1165],
};

/** Whether an attribute's value switches something on (the core's `embed::is_on`). */
function isOn(value) {
  return value === null || value === undefined || !["0", "false", "no", "off"].includes(String(value).trim().toLowerCase());
}

/** The default controls (the core's `embed::DEFAULT_CONTROLS`). */
const DEFAULT_CONTROLS = ["step", "play", "image", "reset"];
/** Places a control takes in a narrow lab's row of buttons. */
const PLACES = { step: 2, round: 1, play: 1, image: 1, reset: 1, strategy: 1 };
const SLIDERS = new Set(["replicas", "maxsurge", "maxunavailable"]);

/**
 * The height the lab will draw at for an element's attributes (`attr(name)`: the value, or null
 * when absent), `{wide, narrow}` in px. For `buttons="step,play,replicas,maxSurge"` with the
 * chart: wide 440 + 41 = 481 px; narrow, Back, Step and Play fill one row of three places and
 * each slider has its own, 592 + 34 + 2 × 37 = 700 px.
 */
export function labHeight(attr) {
  const pick = (i) => {
    if (attr("view")?.trim() === "races") return HEIGHTS.races[i];
    if (attr("lesson")?.trim()) return HEIGHTS.lesson[i];
    const given = (attr("buttons") ?? attr("controls") ?? "").trim();
    const names = given ? given.split(",").map((c) => c.trim().toLowerCase()) : DEFAULT_CONTROLS;
    const unique = [...new Set(names)];
    const places = unique.reduce((n, c) => n + (PLACES[c] ?? 0), 0);
    const sliders = unique.filter((c) => SLIDERS.has(c)).length;
    let h = HEIGHTS.lab[i];
    if (!isOn(attr("chart"))) h += HEIGHTS.noChart[i];
    if (!isOn(attr("explain"))) h += HEIGHTS.noExplain[i];
    // Off by default (the core's `embed`): present and not "0", "false", "no" or "off".
    if (attr("traffic") !== null && attr("traffic") !== undefined && isOn(attr("traffic"))) h += HEIGHTS.traffic[i];
    h += Math.ceil(places / 3) * HEIGHTS.buttonRow[i];
    if (sliders) h += i === 0 ? HEIGHTS.slider[0] : sliders * HEIGHTS.slider[1];
    if (sliders && places >= 7) h += HEIGHTS.crowded[i];
    return h;
  };
  return { wide: pick(0), narrow: pick(1) };
}

/**
 * The style that reserves a lab's height before the element is defined (README, "On a
 * documentation page"): the table above as CSS, with a flag per attribute that changes it
 * (chart, explain, each slider, traffic) and the width class by the viewport (660 px: a 643 px element
 * plus a page's margins), since before its script has run the element has no shadow root to
 * measure itself with. Buttons are counted as the default controls' two rows when `buttons` is
 * absent and as one row otherwise; once defined, the element's placeholder counts them exactly.
 */
export function notDefinedCss() {
  const [w, n] = [0, 1].map((i) => ({
    lab: HEIGHTS.lab[i], traffic: HEIGHTS.traffic[i], chart: -HEIGHTS.noChart[i], explain: -HEIGHTS.noExplain[i], row: HEIGHTS.buttonRow[i], slider: HEIGHTS.slider[i],
  }));
  const off = (a) => `:is([${a}="0"],[${a}=false i],[${a}=no i],[${a}=off i])`;
  const sel = "rollout-lab:not(:defined)";
  return `${sel} { display: block; --rl-chart: 1; --rl-explain: 1; --rl-rows: 2; --rl-s1: 0; --rl-s2: 0; --rl-s3: 0; --rl-traffic: 0;
  min-height: calc(${w.lab - w.chart - w.explain}px + ${w.chart}px * var(--rl-chart) + ${w.explain}px * var(--rl-explain) + ${w.slider}px * max(var(--rl-s1), var(--rl-s2), var(--rl-s3)) + ${w.traffic}px * var(--rl-traffic)); }
${sel}${off("chart")} { --rl-chart: 0; }
${sel}${off("explain")} { --rl-explain: 0; }
${sel}[traffic] { --rl-traffic: 1; }
${sel}${off("traffic")} { --rl-traffic: 0; }
${sel}[buttons] { --rl-rows: 1; }
${sel}[buttons*=replicas i] { --rl-s1: 1; }
${sel}[buttons*=maxsurge i] { --rl-s2: 1; }
${sel}[buttons*=maxunavailable i] { --rl-s3: 1; }
@media (max-width: 660px) {
  ${sel} { min-height: calc(${n.lab - n.chart - n.explain}px + ${n.chart}px * var(--rl-chart) + ${n.explain}px * var(--rl-explain) + ${n.row}px * var(--rl-rows) + ${n.slider}px * (var(--rl-s1) + var(--rl-s2) + var(--rl-s3)) + ${n.traffic}px * var(--rl-traffic)); }
}`;
}
