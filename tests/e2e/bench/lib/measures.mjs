// The two things a person feels when stepping (issue #40), shared by ui-bench.mjs and
// speed-bench.mjs: a Step of a 100-replica rollout until the repainted frame, and the frame
// times while a rollout plays (optionally in Compare, two stages of 500 replicas). With
// `trace`, the steps or frames measured are also traced (bench/lib/trace.mjs) and the main
// thread's time by kind is returned beside the figures.
import { startTrace, mainThreadTime } from './trace.mjs';
import { median, pct, round1 } from './stats.mjs';

const by = (id) => `[data-testid="${id}"]`;

/** The main thread's time by kind over `n` steps or frames, as ms per step or frame. */
const perEach = (time, n) => ({
  ...Object.fromEntries(Object.entries(time).filter(([k]) => k !== 'top').map(([k, v]) => [k, round1(v / n)])),
  top: time.top,
});

/** A step of a 100-replica rollout: click → the repainted view. */
export async function stepLatency(context, url, { steps = 40, trace = false } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await page.locator(by('step-button')).waitFor();
  await page.locator(by('replicas-input')).fill('100');
  for (let i = 0; i < 3; i++) await page.locator(by('step-round-button')).click();
  await page.locator(by('update-image-button')).click();
  const tracer = trace ? await startTrace(page) : null;
  const out = await page.evaluate(async (steps) => {
    const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const times = [];
    for (let i = 0; i < steps; i++) {
      await painted();
      const button = document.querySelector('[data-testid="step-button"]');
      if (button.disabled) break; // nothing more will happen
      // A step goes to the next change: data-steps (single syncs taken) moves on.
      const before = document.querySelector('[data-testid="round"]').dataset.steps;
      const t0 = performance.now();
      button.click();
      await new Promise((resolve) => {
        const check = () => (document.querySelector('[data-testid="round"]').dataset.steps !== before ? resolve() : setTimeout(check, 0));
        check();
      });
      await painted();
      times.push(performance.now() - t0);
    }
    return times;
  }, steps);
  const time = tracer ? mainThreadTime(await tracer.stop()) : undefined;
  await page.close();
  return {
    samples: out.length,
    median: round1(median(out)),
    p95: round1(pct(out, 95)),
    max: round1(Math.max(...out)),
    ...(time ? { mainThread: perEach(time, out.length) } : {}),
  };
}

/** rAF deltas while a rollout of 2 × 500 individually drawn pods plays at 60 steps/s; with
 * `compare`, Compare is on and B (maxSurge 25%, the rest as A) plays beside it in lock-step:
 * two stages of 500 replicas each. */
export async function animationFrames(context, url, seconds = 5, compare = false, { trace = false } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await page.locator(by('step-button')).waitFor();
  await page.locator(by('replicas-input')).fill('500');
  await page.locator(by('max-surge-input')).fill('100%');
  await page.locator(by('max-unavailable-input')).fill('0');
  await page.locator(by('nodes-input')).fill('5');
  if (compare) {
    await page.locator(by('compare-toggle')).click();
    await page.locator(by('compare-max-surge')).fill('25%');
    await page.locator(by('stage-b')).waitFor();
  }
  // Three rounds: 500 pods created (one burst), scheduled, ready.
  for (let i = 0; i < 3; i++) await page.locator(by('step-round-button')).click();
  await page.locator(by('update-image-button')).click();
  await page.locator(by('speed-input')).fill('6'); // 60 steps/s
  // Keep the pods on screen while measuring (they are drawn on the stage).
  await page.locator(by(compare ? 'stage-b' : 'stage')).scrollIntoViewIfNeeded();
  if (process.env.UI_BENCH_DEBUG) await page.evaluate(() => { window.__slow = []; });
  const tracer = trace ? await startTrace(page) : null;
  const result = await page.evaluate(async (seconds) => {
    const deltas = [];
    let maxPods = 0;
    let last = performance.now();
    const end = last + seconds * 1000;
    document.querySelector('[data-testid="play-button"]').click();
    await new Promise((resolve) => {
      const tick = (t) => {
        deltas.push(t - last);
        if (t - last > 40 && window.__slow) window.__slow.push([Math.round(t - last), document.querySelector('[data-testid="explanation-headline"]')?.textContent.slice(0, 60)]);
        last = t;
        maxPods = Math.max(maxPods, document.querySelectorAll('.pod-grid .pod, .density-seg').length);
        if (t < end) requestAnimationFrame(tick);
        else resolve();
      };
      requestAnimationFrame(tick);
    });
    document.querySelector('[data-testid="play-button"]').click();
    return { deltas: deltas.slice(1), maxPods, round: document.querySelector('[data-testid="round"]').dataset.round, slow: window.__slow };
  }, seconds);
  const time = tracer ? mainThreadTime(await tracer.stop()) : undefined;
  await page.close();
  const d = result.deltas;
  return {
    frames: d.length,
    podsDrawn: result.maxPods,
    reachedRound: Number(result.round),
    median: round1(median(d)),
    p95: round1(pct(d, 95)),
    max: round1(Math.max(...d)),
    over50: d.filter((x) => x > 50).length,
    ...(result.slow ? { slow: result.slow } : {}),
    ...(time ? { mainThread: perEach(time, d.length) } : {}),
  };
}

