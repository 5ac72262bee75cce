// The speed a person feels (issue #40), against a baseline build, in headless Debian Chromium:
//
//   scripts/dev.sh bench     (builds this checkout and the baseline with trunk build --release)
//   ROLLOUT_DIST=dist ROLLOUT_BASELINE_DIST=base/dist node tests/e2e/bench/speed-bench.mjs
//
// Three targets, each measured on both builds in alternation (baseline, this, this, baseline,
// …) so that a busy or a quiet moment of the machine falls on both:
//   1. Step: a Step of a 100-replica rollout (3 nodes, 25 % / 25 %) until the repainted frame,
//      40 steps, median (bench/lib/measures.mjs, stepLatency). Target ≤ 16 ms.
//   2. Compare: the frame times while Compare plays two rollouts of 500 replicas at 60 steps a
//      second, p95 (animationFrames with Compare). Target ≤ 16.7 ms.
//   3. Sweep: the Plan page's first 21 × 21 sweep (441 forecasts, and the line chart's 21) of a
//      100-replica manifest, from "Run sweep" to the heat map (bench/speed-bench.mjs, sweep()).
//      Target ≤ 0.5 s on the slower host class, ≤ 0.3 s on the faster.
// Then one traced run of Step and Compare on each build: the renderer main thread's time by
// kind (script: JavaScript and the wasm it calls; style; layout; paint; gc; other), per step or
// per frame, for BENCHMARKS' explanation of where the time goes.
// SPEED_BENCH_ROUNDS (default 3) sets the alternations; SPEED_BENCH_ONLY=step|compare|sweep one.
import os from 'node:os';
import path from 'node:path';
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';
import { stepLatency, animationFrames } from './lib/measures.mjs';
import { median, round1 as r1, manifest100 as manifest } from './lib/stats.mjs';



/**
 * A 21 × 21 sweep as a user runs it: the Plan page opened, the manifest typed, a moment to
 * read the forecast (1.5 s), then "Run sweep" (size 0…20) until the heat map is drawn: from
 * the click to the progress saying done, which includes the line chart's 21 combinations too
 * (462 in all). Three sweeps on one page; the first is reported, the later ones beside it.
 */
async function sweep(context, url) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}?view=plan`);
  await page.locator('[data-testid="plan-view"]').waitFor();
  await page.locator('[data-testid="plan-manifest"]').fill(manifest(1, 0));
  await page.locator('[data-testid="forecast"]').waitFor();
  await page.locator('[data-testid="plan-size"]').selectOption('20');
  await page.waitForTimeout(1500);
  const runs = [];
  for (let i = 0; i < 3; i++) {
    runs.push(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const progress = () => document.querySelector('[data-testid="sweep-progress"]');
            const t0 = performance.now();
            document.querySelector('[data-testid="sweep-run"]').click();
            let started = false;
            const check = () => {
              const p = progress();
              started ||= p?.dataset.state === 'running';
              if (started && p.dataset.state === 'done') {
                resolve({ ms: performance.now() - t0, cells: document.querySelectorAll('[data-testid="sweep-cell"]').length });
              } else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
      ),
    );
  }
  await page.close();
  if (runs.some((r) => r.cells !== 441)) throw new Error(`a sweep drew ${runs.map((r) => r.cells)} cells, not 441`);
  return { pageMs: r1(runs[0].ms), later: runs.slice(1).map((r) => r1(r.ms)) };
}

const MEASURES = {
  step: { figure: (r) => r.median, run: (c, u) => stepLatency(c, u), target: 16, what: 'Step, 100 replicas: median ms to the repainted frame' },
  compare: { figure: (r) => r.p95, run: (c, u) => animationFrames(c, u, 5, true), target: 16.7, what: 'Compare, 500 replicas each: p95 frame time, ms' },
  sweep: { figure: (r) => r.pageMs, run: sweep, target: 500, what: '21 × 21 sweep, 100 replicas: ms from Run sweep to the heat map' },
};

const baselineDir = process.env.ROLLOUT_BASELINE_DIST;
const rounds = Number(process.env.SPEED_BENCH_ROUNDS ?? 3);
const only = process.env.SPEED_BENCH_ONLY;
const builds = [['this', distDir], ...(baselineDir ? [['baseline', path.resolve(baselineDir)]] : [])];
const servers = Object.fromEntries(await Promise.all(builds.map(async ([name, dir]) => [name, await serveDir(dir)])));
const browser = await launch();
const results = Object.fromEntries(builds.map(([name]) => [name, {}]));
try {
  for (const [key, m] of Object.entries(MEASURES)) {
    if (only && only !== key) continue;
    for (let i = 0; i < rounds; i++) {
      // Baseline first in even rounds, this build first in odd ones.
      const order = i % 2 ? [...builds].reverse() : builds;
      for (const [name] of order) {
        const r = await m.run(browser.context, servers[name].url);
        (results[name][key] ??= []).push(m.figure(r));
      }
    }
  }
  const traced = {};
  for (const [name] of builds) {
    if (!only || only === 'step') (traced[name] ??= {}).step = (await stepLatency(browser.context, servers[name].url, { trace: true })).mainThread;
    if (!only || only === 'compare') (traced[name] ??= {}).compare = (await animationFrames(browser.context, servers[name].url, 5, true, { trace: true })).mainThread;
  }
  const host = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`;
  console.log(JSON.stringify({ host, rounds, results, traced }, null, 1));
  console.log(`\nHost: ${host}\n`);
  console.log(`| target | goal | this build (median of ${rounds} runs) | baseline |`);
  console.log('| --- | --- | --- | --- |');
  for (const [key, m] of Object.entries(MEASURES)) {
    if (only && only !== key) continue;
    const cell = (name) => (results[name]?.[key] ? `${r1(median(results[name][key]))} (${results[name][key].join(', ')})` : '—');
    console.log(`| ${m.what} | ≤ ${m.target} | ${cell('this')} | ${cell('baseline')} |`);
  }
  console.log('\nMain thread per step (Step) or per frame (Compare), ms, traced run:\n');
  console.log('| build | measure | script | style | layout | paint | gc | other |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, t] of Object.entries(traced)) {
    for (const [k, v] of Object.entries(t)) console.log(`| ${name} | ${k} | ${v.script} | ${v.style} | ${v.layout} | ${v.paint} | ${v.gc} | ${v.other} |`);
  }
} finally {
  await browser.close();
  await Promise.all(Object.values(servers).map((s) => s.close()));
}
