// The largest runs the JavaScript API accepts, each in a fresh page of a release build
// (ROLLOUT_DIST) in Chromium: how long each takes and what the page then holds (the module's
// wasm memory, which never shrinks, so its peak; and the JavaScript heap holding the result).
// Issue #27: a run at the limits stays in bounded time and memory or is refused.
//
//   cd tests/e2e && ROLLOUT_DIST=/path/to/dist node bench/limits-bench.mjs
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';
import { serveDir } from '../lib/server.mjs';

const create = (replicas, extra = {}) => ({ round: 0, type: 'create', deployment: { name: 'web', image: 'nginx:1.14.2', replicas, ...extra } });
const jittered = (replicas, rounds, extra = {}) => ({
  rounds,
  secondsPerRound: 1,
  readyAfterRounds: 1,
  model: { readyJitterRounds: rounds, seed: 27 },
  ...extra,
  actions: [create(replicas)],
});
// [name, call, scenario]: 16 replicas + 4 surge × 100,000 rounds, 10,000 + 2,500 × 160 and
// 800 + 200 × 2,000 are each 2,000,000 pod-rounds, the work limit.
const CASES = [
  ['trace(): 16 replicas, 100,000 rounds, jitter 100,000', 'trace', jittered(16, 100_000)],
  ['trace(): 16 replicas, 100,000 settled rounds, jitter 100,000', 'trace', jittered(16, 100_000, { settle: true })],
  ['trace(): 10,000 replicas, 160 rounds, jitter 160, 5,000 nodes', 'trace', jittered(10_000, 160, { nodes: 5000 })],
  ['trace(): 10,000 replicas, 160 settled rounds, jitter 160, 5,000 nodes', 'trace', jittered(10_000, 160, { nodes: 5000, settle: true })],
  ['Simulation.run(): 800 replicas, 2,000 rounds, jitter 2,000', 'run', jittered(800, 2000)],
  ['Simulation.run(): 800 replicas, 2,000 settled rounds, jitter 2,000', 'run', jittered(800, 2000, { settle: true })],
  ['Simulation.run(): 10,000 replicas, 160 rounds, jitter 160', 'run', jittered(10_000, 160)],
  ['Simulation.run(): 10,000 replicas, 160 settled rounds, jitter 160', 'run', jittered(10_000, 160, { settle: true })],
  ['Simulation.run(): 10,000 replicas scaled to 0 and back every round, 160 rounds', 'run', {
    rounds: 160,
    actions: [create(10_000), ...Array.from({ length: 159 }, (_, i) => ({ round: i + 1, type: 'scale', replicas: i % 2 ? 10_000 : 0 }))],
  }],
  ['Simulation.run(): 10,000 replicas 100%/0, a new image every round, 100 rounds', 'run', {
    rounds: 100,
    actions: [create(10_000, { strategy: { type: 'RollingUpdate', maxSurge: '100%', maxUnavailable: 0 } }), ...Array.from({ length: 99 }, (_, i) => ({ round: i + 1, type: 'setImage', image: `nginx:${i}` }))],
  }],
  ['trace(): 10,000 replicas 100%/0, a new image every round, 100 rounds', 'trace', {
    rounds: 100,
    actions: [create(10_000, { strategy: { type: 'RollingUpdate', maxSurge: '100%', maxUnavailable: 0 } }), ...Array.from({ length: 99 }, (_, i) => ({ round: i + 1, type: 'setImage', image: `nginx:${i}` }))],
  }],
  ['new Simulation(): 10,000 replicas, 100,000 rounds (the issue\'s)', 'run', { rounds: 100_000, actions: [create(10_000)] }],
];

const server = await serveDir(distDir);
const browser = await launch();
try {
  for (const [name, call, scenario] of CASES.filter(([n]) => !process.env.ONLY || n.includes(process.env.ONLY))) {
    const page = await browser.context.newPage();
    await page.route('**/limits-bench.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>limits</title>' }));
    await page.goto(`${server.url}limits-bench.html`);
    const r = await page.evaluate(
      async ({ call, scenario }) => {
        const m = await import('./rollout-lab.js');
        const wasm = await m.default();
        const mb = (b) => Math.round(b / 2 ** 20);
        const before = wasm.memory.buffer.byteLength;
        const start = performance.now();
        let out;
        try {
          if (call === 'trace') {
            const t = m.trace(scenario);
            out = `${t.rounds.length} rounds`;
            globalThis.kept = t;
          } else {
            const s = new m.Simulation(scenario);
            s.run();
            out = `${s.steps} steps, ${s.round} rounds`;
            globalThis.kept = s;
          }
        } catch (e) {
          out = `${e.constructor.name}: ${String(e.message).slice(0, 160)}`;
        }
        const ms = Math.round(performance.now() - start);
        return { out, ms, wasmBefore: mb(before), wasm: mb(wasm.memory.buffer.byteLength), heap: mb(performance.memory.usedJSHeapSize) };
      },
      { call, scenario },
    );
    console.log(`${name}: ${r.out}; ${r.ms} ms; wasm memory ${r.wasmBefore} → ${r.wasm} MB, JS heap ${r.heap} MB`);
    await page.close();
  }
  // The app opened at a link's last step: the Lab keeps every step for stepping back.
  const maker = await browser.context.newPage();
  await maker.route('**/limits-bench.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>limits</title>' }));
  await maker.goto(`${server.url}limits-bench.html`);
  for (const [name, call, scenario] of CASES.filter(([n, c]) => c === 'run' && (!process.env.ONLY || n.includes(process.env.ONLY)))) {
    const link = await maker.evaluate(async (scenario) => {
      const m = await import('./rollout-lab.js');
      await m.default();
      try {
        const s = new m.Simulation(scenario);
        s.run();
        return m.encodeLink(scenario, Math.min(s.steps, 50_000));
      } catch {
        return undefined;
      }
    }, scenario);
    if (!link) continue;
    const page = await browser.context.newPage();
    const start = Date.now();
    await page.goto(`${server.url}#${link}`);
    const at = Number(new URLSearchParams(link).get("at"));
    // Either the step the link asks for, or the app's notice that it could not use the link.
    await page.waitForFunction(
      (at) => Number(document.querySelector('[data-testid="round"]')?.dataset.steps) === at || document.querySelector('[data-testid="notice"]'),
      at,
      { timeout: 120_000 },
    );
    const ms = Date.now() - start;
    const r = await page.evaluate(async () => {
      const wasm = await (await import('./rollout-lab.js')).default();
      return {
        steps: Number(document.querySelector('[data-testid="round"]')?.dataset.steps),
        notice: document.querySelector('[data-testid="notice"]')?.textContent,
        wasm: Math.round(wasm.memory.buffer.byteLength / 2 ** 20),
        heap: Math.round(performance.memory.usedJSHeapSize / 2 ** 20),
      };
    });
    const shown = r.notice ? `not shown: ${r.notice.slice(0, 140)}` : `${ms} ms to show step ${r.steps}`;
    console.log(`the app at a link's step ${at}, ${name.replace(/^.*?: /, '')}: ${link.length} characters; ${shown}; wasm memory ${r.wasm} MB, JS heap ${r.heap} MB`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
