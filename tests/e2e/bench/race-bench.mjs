// The race search in the browser (BENCHMARKS.md, "The race search"), in headless Debian
// Chromium against a release build, beside the native CLI:
//
//   trunk build --release --dist /tmp/race-dist
//   cargo build --release -p rollout-cli
//   ROLLOUT_DIST=/tmp/race-dist node tests/e2e/bench/race-bench.mjs [target/release/rollout]
//
// Each search runs in the page's worker (web/js/plan-worker.js, a `race` job calling
// findRace): the worker's own time for the search (`ms`, after its wasm is instantiated) and,
// from the page, post → report with the worker's start-up. Three runs each, the median:
// 1. race-teach-expectations-real to depth 12 (3 replicas, maxSurge 1, maxUnavailable 0, the
//    real controllers: no race; issue #26's target is under 30 s in the browser);
// 2. the same configuration without expectations (the race found);
// 3. the first to depth 16 (144,296 states), and the 10- and 5-replica configurations of
//    ../shared/races to depth 12 (the native table of BENCHMARKS.md, "Race search").
// States per second = distinct states visited / the worker's search time. With a `rollout`
// binary as argument, `rollout races FILE --json` natively too (wall time, three runs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { distDir, repoRoot } from '../lib/paths.mjs';

const scenarios = path.join(repoRoot, '..', 'shared', 'races', 'scenarios');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const rollout = process.argv[2];
const cases = [
  ['race-teach-expectations-real', 12],
  ['race-teach-expectations-noexp', 12],
  ['race-teach-expectations-real', 16],
  ['race-10-25pct-01-real', 12],
  ['race-5-surge2-unav1-graceful-01-real', 12],
];

const server = await serveDir(distDir);
const browser = await launch({ viewport: { width: 1280, height: 720 } });
const page = await browser.context.newPage();
await page.goto(server.url);
await page.locator('h1').waitFor();

for (const [name, depth] of cases) {
  const file = path.join(scenarios, `${name}.json`);
  const scenario = JSON.parse(await fs.readFile(file, 'utf8'));
  const runs = [];
  for (let i = 0; i < 3; i++) {
    runs.push(
      await page.evaluate(
        ({ scenario, depth }) =>
          new Promise((resolve) => {
            const t0 = performance.now();
            const w = new Worker('./plan-worker.js', { type: 'module' });
            let messages = 0;
            w.onmessage = ({ data }) => {
              if (data.type === 'progress') return void messages++;
              w.terminate();
              resolve({ ...data, messages, roundTrip: performance.now() - t0 });
            };
            w.postMessage({ race: { scenario, options: { depth } } });
          }),
        { scenario, depth },
      ),
    );
  }
  if (runs[0].error) throw new Error(`${name}: ${runs[0].error}`);
  const { states, violation } = runs[0].result;
  const ms = median(runs.map((r) => r.ms));
  const line = {
    scenario: name,
    depth,
    states,
    found: violation ? `${runs[0].result.depth} steps` : 'none',
    workerMs: Math.round(ms),
    roundTripMs: Math.round(median(runs.map((r) => r.roundTrip))),
    statesPerSecond: Math.round((states / ms) * 1000),
    progressMessages: runs[0].messages,
  };
  if (rollout) {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(rollout, ['races', file, '--depth', String(depth), '--json'], { encoding: 'utf8' });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0) throw new Error(r.stderr);
      const native = JSON.parse(r.stdout);
      if (JSON.stringify(native) !== JSON.stringify(runs[0].result)) throw new Error(`${name}: the browser and the CLI differ`);
    }
    line.nativeMs = Math.round(median(times));
    line.nativeStatesPerSecond = Math.round((states / median(times)) * 1000);
    line.wasmOverNative = Math.round((ms / median(times)) * 10) / 10;
  }
  console.log(JSON.stringify(line));
}
await browser.close();
await server.close();
