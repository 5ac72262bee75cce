// The planner in the browser (BENCHMARKS.md, "Planner in the browser (#13)"), in headless
// Debian Chromium against a release build:
//
//   trunk build --release --dist /tmp/plan-dist
//   ROLLOUT_DIST=/tmp/plan-dist node tests/e2e/bench/plan-bench.mjs
//
// 1. A 21 × 21 sweep (maxSurge 0..20 × maxUnavailable 0..20, 441 forecasts) of a 100-replica
//    manifest in the Plan view's Web Worker (web/js/plan-worker.js, the page's own module):
//    the worker's own time for the sweep (after its wasm is instantiated) and, from the page,
//    the time from posting the job to receiving the rows, worker start-up included. Both with
//    the planner's defaults (pods ready after 30 s, 1 s rounds, as `rollout plan`) and with
//    the app's default cluster model (ready after 5 s, 5 s rounds).
// 2. A keystroke in the Plan view's manifest (100 replicas): from the input event until Yew has
//    re-rendered the forecast (the next task), and the forecast's own time (data-ms).
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';
import { median, round1 as r1, manifest100 as manifest } from './lib/stats.mjs';

const by = (id) => `[data-testid="${id}"]`;
const max = (xs) => Math.max(...xs);


const server = await serveDir(distDir);
const browser = await launch({ viewport: { width: 1280, height: 720 } });
const page = await browser.context.newPage();
await page.goto(`${server.url}?view=plan`);
await page.locator(by('plan-view')).waitFor();
const results = {};

for (const [name, options] of [
  ['planner defaults (ready 30 s, 1 s rounds)', {}],
  ['app model (ready 5 s, 5 s rounds)', { readyAfter: 5, secondsPerRound: 5, nodes: 3, termination: 0 }],
]) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    runs.push(
      await page.evaluate(
        ({ input, options }) =>
          new Promise((resolve) => {
            const t0 = performance.now();
            const w = new Worker('./plan-worker.js', { type: 'module' });
            let rows = 0;
            let messages = 0;
            w.onmessage = (e) => {
              messages++;
              if (e.data.type === 'rows') rows = e.data.rows.length;
              if (e.data.type === 'done') {
                w.terminate();
                resolve({ worker: e.data.ms, page: performance.now() - t0, rows, messages });
              }
            };
            w.postMessage({ jobs: [{ key: 'heat', input, axes: { maxSurge: '0..20', maxUnavailable: '0..20' }, options, size: 441 }] });
          }),
        { input: manifest(1, 0), options },
      ),
    );
  }
  results[`sweep 21x21, ${name}`] = {
    rows: runs[0].rows,
    progressMessages: runs[0].messages,
    workerMs: runs.map((r) => r1(r.worker)),
    pageMs: runs.map((r) => r1(r.page)),
  };
}

// Keystrokes: maxSurge 1 ↔ 2 with maxUnavailable 0 (the slowest kind: 100 or 50 waves).
const area = page.locator(by('plan-manifest'));
await area.fill(manifest(1, 0));
await page.waitForTimeout(300);
const keys = [];
for (let i = 0; i < 20; i++) {
  const text = manifest(i % 2 ? 1 : 2, 0);
  keys.push(
    await page.evaluate(
      ({ sel, text, fsel }) =>
        new Promise((resolve) => {
          const el = document.querySelector(sel);
          const t0 = performance.now();
          el.value = text;
          el.dispatchEvent(new InputEvent('input', { bubbles: true }));
          setTimeout(() => {
            resolve({ total: performance.now() - t0, forecast: Number(document.querySelector(fsel)?.dataset.ms) });
          }, 0);
        }),
      { sel: by('plan-manifest'), text, fsel: by('forecast') },
    ),
  );
}
results['keystroke, 100 replicas, maxSurge 1|2 / maxUnavailable 0, app model'] = {
  totalMedianMs: r1(median(keys.map((k) => k.total))),
  totalMaxMs: r1(max(keys.map((k) => k.total))),
  forecastMedianMs: r1(median(keys.map((k) => k.forecast))),
  forecastMaxMs: r1(max(keys.map((k) => k.forecast))),
};
console.log(JSON.stringify(results, null, 2));
await browser.close();
await server.close();
