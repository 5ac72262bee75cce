// Rollout Lab's web-app benchmark, in headless Debian Chromium against a release build.
//
//   scripts/dev.sh bench        (builds `trunk build --release` into a temporary dist/ first)
//   ROLLOUT_DIST=path/to/dist node tests/e2e/bench/ui-bench.mjs
//
// Measures what BENCHMARKS.md ("Web app") reports:
//   1. bundle size: every file the page loads, raw and gzip -9 (the wasm and JS are the budget);
//   2. time from navigation until step-button is enabled (performance.now() in the page, whose
//      origin is the navigation start), median of several cold loads;
//   3. time from a replicas-slider change (100 replicas) until the re-rendered view has been
//      painted (the change is dispatched in the page, then a MutationObserver sees the new
//      bounds text, then two requestAnimationFrame callbacks mark the next frame);
//   4. frame times while 1,000 pods animate (two ReplicaSets of 500 drawn pod by pod, playing a
//      rollout at 60 steps a second): requestAnimationFrame deltas over a few seconds; the same
//      with Compare on (a second stage of 500 replicas in lock-step);
//   5. the cost of a step, a round and "jump to the end" with 10,000 replicas (the tab must
//      not freeze: the longest single task is reported).
// Prints a JSON summary and a Markdown table. Headless Chromium here has no GPU: compositing is
// software, and rAF runs at the headless default of 60 Hz.
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';
import { bundle } from '../lib/bundle.mjs';
import { stepLatency, animationFrames } from './lib/measures.mjs';
import { median, pct, round1 } from './lib/stats.mjs';

const by = (id) => `[data-testid="${id}"]`;


/** Records when step-button first exists and is enabled, relative to navigation start. */
const READY_PROBE = `
  (() => {
    const check = () => {
      const b = document.querySelector('${by('step-button')}');
      if (b && !b.disabled) { window.__stepReady = performance.now(); return true; }
      return false;
    };
    if (check()) return;
    new MutationObserver((_, obs) => { if (check()) obs.disconnect(); })
      .observe(document, { childList: true, subtree: true, attributes: true });
  })();
`;

async function startup(context, url, runs = 7) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const page = await context.newPage();
    await page.addInitScript(READY_PROBE);
    await page.goto(url);
    await page.waitForFunction(() => window.__stepReady !== undefined, null, { timeout: 20_000 });
    times.push(await page.evaluate(() => window.__stepReady));
    await page.close();
  }
  return { runs: times.map(round1), median: round1(median(times)), max: round1(Math.max(...times)) };
}

/** Slider changes between 90 and 100 replicas; each until the repainted frame. */
async function sliderLatency(context, url, changes = 30) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(by('step-button')).waitFor();
  const samples = await page.evaluate(async (changes) => {
    const slider = document.querySelector('[data-testid="replicas-slider"]');
    const stops = { 90: null, 100: null };
    // Find the slider positions of 90 and 100 replicas.
    for (let i = 0; i <= Number(slider.max); i++) {
      slider.value = String(i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      const v = Number(document.querySelector('[data-testid="replicas-input"]').value);
      if (v in stops) stops[v] = i;
    }
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // After the next frame's rendering steps: the rAF callback starts the frame that paints
    // the change, a task queued from it runs once that frame has been produced.
    const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const out = [];
    const dom = [];
    for (let k = 0; k < changes; k++) {
      const target = k % 2 === 0 ? 100 : 90;
      const summary = () => document.querySelector('[data-testid="bounds-summary"]')?.textContent ?? '';
      await frame();
      const t0 = performance.now();
      slider.value = String(stops[target]);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => {
        const done = () => summary().includes(`of ${target} `);
        if (done()) return resolve();
        const obs = new MutationObserver(() => {
          if (done()) {
            obs.disconnect();
            resolve();
          }
        });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      dom.push(performance.now() - t0);
      await painted();
      out.push(performance.now() - t0);
    }
    return { out, dom };
  }, changes);
  await page.close();
  const { out, dom } = samples;
  return {
    samples: out.length,
    median: round1(median(out)),
    p95: round1(pct(out, 95)),
    max: round1(Math.max(...out)),
    domMedian: round1(median(dom)),
    domMax: round1(Math.max(...dom)),
  };
}

/** 10,000 replicas: a step, a round, and the chunked runs to the end (creation, then a
 * rollout to a new image); the longest gap between frames shows whether the tab froze. */
async function bigDeployment(context, url) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await page.locator(by('step-button')).waitFor();
  await page.locator(by('replicas-input')).fill('10000');
  await page.locator(by('nodes-input')).fill('20');
  const result = await page.evaluate(async () => {
    const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
    const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const roundOf = () => Number($('round').dataset.round);
    // The longest gap between two animation frames while `run` is in progress.
    const watch = async (run) => {
      let last = performance.now();
      let worst = 0;
      let on = true;
      const tick = (t) => {
        worst = Math.max(worst, t - last);
        last = t;
        if (on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const t0 = performance.now();
      await run();
      const took = performance.now() - t0;
      on = false;
      return { took, worst };
    };
    const toEnd = () =>
      new Promise((resolve) => {
        $('end-button').click();
        const poll = () => ($('end-button').disabled && !$('end-button').textContent.includes('Running') ? resolve() : setTimeout(poll, 10));
        setTimeout(poll, 10);
      });
    const stepTimes = [];
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      $('step-button').click();
      await painted();
      stepTimes.push(performance.now() - t0);
    }
    const t0 = performance.now();
    $('step-round-button').click();
    await painted();
    const roundTime = performance.now() - t0;
    const create = await watch(toEnd);
    const created = [...document.querySelectorAll('[data-testid="rs-card"]')].map((c) => Number(c.dataset.current));
    $('update-image-button').click();
    await painted();
    const rollout = await watch(toEnd);
    const cards = [...document.querySelectorAll('[data-testid="rs-card"]')].map((c) => [c.dataset.name, Number(c.dataset.current), Number(c.dataset.available)]);
    return { stepTimes, roundTime, create, created, rollout, endRound: roundOf(), cards, status: $('rollout-status').textContent };
  });
  await page.close();
  return {
    stepMedian: round1(median(result.stepTimes)),
    stepMax: round1(Math.max(...result.stepTimes)),
    roundMs: round1(result.roundTime),
    createToEndMs: Math.round(result.create.took),
    createWorstFrameMs: round1(result.create.worst),
    podsCreated: result.created,
    rolloutToEndMs: Math.round(result.rollout.took),
    rolloutWorstFrameMs: round1(result.rollout.worst),
    endRound: result.endRound,
    cardsAtEnd: result.cards,
    rolloutStatus: result.status.trim(),
  };
}

async function userAgent(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  const ua = await page.evaluate(() => navigator.userAgent);
  await page.close();
  return ua;
}

const server = await serveDir(distDir);
const browser = await launch();
try {
  // UI_BENCH_ONLY=animation (etc.) runs one part, for quick experiments.
  const only = process.env.UI_BENCH_ONLY;
  if (only) {
    const parts = {
      startup,
      slider: sliderLatency,
      step: stepLatency,
      animation: animationFrames,
      compare: (c, u) => animationFrames(c, u, 5, true),
      big: bigDeployment,
    };
    console.log(JSON.stringify(await parts[only](browser.context, server.url), null, 2));
    process.exit(0);
  }
  const results = {
    chromium: await userAgent(browser.context, server.url),
    bundle: await bundle(distDir),
    startupMs: await startup(browser.context, server.url),
    sliderMs: await sliderLatency(browser.context, server.url),
    step100Ms: await stepLatency(browser.context, server.url),
    animation1000: await animationFrames(browser.context, server.url),
    compare500x2: await animationFrames(browser.context, server.url, 5, true),
    replicas10000: await bigDeployment(browser.context, server.url),
  };
  console.log(JSON.stringify(results, null, 2));
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const b = results.bundle.pages.app;
  console.log(`
| measure | result | target |
| --- | --- | --- |
| app page, gzip -9 | wasm + JS ${kb(b.wasmJsGzip)} (raw ${kb(b.wasmJsRaw)}); everything incl. CSS/HTML ${b.gzip} bytes | ≤ 600,000 bytes |
| navigation → step-button enabled | median ${results.startupMs.median} ms, max ${results.startupMs.max} ms | < 1 s |
| slider change → repainted view (100 replicas) | median ${results.sliderMs.median} ms, p95 ${results.sliderMs.p95} ms, max ${results.sliderMs.max} ms (DOM updated after median ${results.sliderMs.domMedian} ms) | < 50 ms |
| one step of a 100-replica rollout → repainted view | median ${results.step100Ms.median} ms, p95 ${results.step100Ms.p95} ms, max ${results.step100Ms.max} ms | |
| frame times, ${results.animation1000.podsDrawn} pods animating | median ${results.animation1000.median} ms, p95 ${results.animation1000.p95} ms, max ${results.animation1000.max} ms, ${results.animation1000.over50} over 50 ms (${results.animation1000.frames} frames) | p95 ≤ 17 ms, none > 50 ms |
| frame times, Compare at 500 replicas each (${results.compare500x2.podsDrawn} pods on the page) | median ${results.compare500x2.median} ms, p95 ${results.compare500x2.p95} ms, max ${results.compare500x2.max} ms, ${results.compare500x2.over50} over 50 ms | p95 ≤ 17 ms |
| 10,000 replicas: one step → repainted view | median ${results.replicas10000.stepMedian} ms, max ${results.replicas10000.stepMax} ms | no freeze |
| 10,000 replicas: one whole round | ${results.replicas10000.roundMs} ms | |
| 10,000 replicas: create all, then roll out a new image (End, chunked) | ${results.replicas10000.createToEndMs} ms + ${results.replicas10000.rolloutToEndMs} ms; longest gap between frames ${Math.max(results.replicas10000.createWorstFrameMs, results.replicas10000.rolloutWorstFrameMs)} ms | no freeze |
`);
} finally {
  await browser.close();
  await server.close();
}
