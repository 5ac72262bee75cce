// A seeded fuzzer of the JavaScript API in Chromium (issue #27): mutated arguments through
// every exported function of dist/rollout-lab.js (trace, parseScenario, importManifest,
// importText, encodeLink, decodeLink, plan, sweep, mount and every method of Simulation and of
// a mounted lab). A call may return or throw an `Error` with a message; it fails the run when
// it traps (WebAssembly.RuntimeError), throws anything else (a glue TypeError, a non-Error),
// or takes more than 10 s. After the run a valid trace() must still succeed, and so must every
// function with valid arguments. SEED and CALLS are in README's "Testing".
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();

const SEED = 27;
const CALLS = 3000;

async function blank() {
  const page = await app.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  await page.route('**/fuzz-test.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>fuzz</title><body><div id="here"></div></body>' }),
  );
  await page.goto(`${app.server.url}fuzz-test.html`);
  return Object.assign(page, { errors });
}

describe('the JavaScript API under fuzzing', () => {
  test(`${CALLS} seeded calls with mutated arguments: no trap, no raw error, no hang`, { timeout: 600_000 }, async () => {
    const page = await blank();
    const result = await page.evaluate(
      async ({ seed, count }) => {
        const m = await import('./rollout-lab.js');
        await m.default();
        await m.loadYaml();
        // mulberry32: a small seeded generator, so a failure reproduces.
        let s = seed >>> 0;
        const rnd = () => {
          s = (s + 0x6d2b79f5) >>> 0;
          let t = s;
          t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        };
        const pick = (a) => a[Math.floor(rnd() * a.length)];
        const valid = () => ({
          rounds: 8,
          secondsPerRound: 5,
          nodes: 2,
          actions: [
            { round: 0, type: 'create', deployment: { name: 'web', image: 'nginx:1.14.2', replicas: 3 } },
            { round: 3, type: 'setImage', image: 'nginx:1.16.1' },
          ],
        });
        const cyclic = () => {
          const o = { a: 1, actions: [] };
          o.self = o;
          return o;
        };
        const deep = (n, obj) => {
          let v = obj ? {} : [];
          for (let i = 0; i < n; i++) v = obj ? { a: v } : [v];
          return v;
        };
        const bomb = (() => {
          let y = 'lol0: &a0 "lol"\n';
          for (let i = 1; i <= 9; i++) y += `lol${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
          return y;
        })();
        const manifest =
          'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.14.2\n';
        const hostileNumbers = [0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31 - 1, 2 ** 32, 2 ** 53, 1e300, 10_000, 10_001, 5_000, 5_001, 100_000, 100_001, 50_000, 50_001];
        const hostile = () =>
          pick([
            () => undefined,
            () => null,
            () => pick(hostileNumbers),
            () => '',
            () => 'x'.repeat(1 + Math.floor(rnd() * 200_000)),
            () => 'rolling-basic',
            () => '#s=%7B&at=3',
            () => bomb,
            () => manifest,
            () => '{"kind":"Deployment"',
            () => ({}),
            () => [],
            () => true,
            () => 10n,
            () => Symbol('s'),
            () => () => 1,
            () => cyclic(),
            () => deep(100_000, rnd() < 0.5),
            () => valid(),
            () => mutated(),
          ])();
        // A valid scenario with one field replaced by something hostile.
        const fields = ['rounds', 'secondsPerRound', 'nodes', 'readyAfterRounds', 'terminationRounds', 'podQuota', 'model'];
        const actionFields = ['replicas', 'image', 'type', 'round', 'strategy', 'maxSurge'];
        function mutated() {
          const v = valid();
          if (rnd() < 0.5) v[pick(fields)] = rnd() < 0.7 ? pick(hostileNumbers) : hostile();
          else {
            const d = v.actions[0].deployment;
            const f = pick(actionFields);
            if (f === 'maxSurge') d.strategy = { type: 'RollingUpdate', maxSurge: pick([1.5, '1.5', 2 ** 31 - 1, '200000000%']) };
            else d[f] = rnd() < 0.7 ? pick(hostileNumbers) : hostile();
          }
          return v;
        }
        const here = document.querySelector('#here');
        const labs = [];
        const sims = [];
        const simulation = () => (sims.length && rnd() < 0.8 ? pick(sims) : (sims.push(new m.Simulation(valid())), sims.at(-1)));
        const lab = () => (labs.length && rnd() < 0.8 ? pick(labs) : (labs.push(m.mount(here, { preset: 'rolling-basic' })), labs.at(-1)));
        const arg = () => (rnd() < 0.8 ? hostile() : valid());
        const calls = [
          ['trace', () => m.trace(arg())],
          ['parseScenario', () => m.parseScenario(arg())],
          ['importManifest', () => m.importManifest(arg())],
          ['importText', () => m.importText(arg())],
          ['encodeLink', () => m.encodeLink(arg(), hostile(), hostile())],
          ['decodeLink', () => m.decodeLink(hostile())],
          ['plan', () => m.plan(arg(), rnd() < 0.5 ? undefined : { nodes: pick(hostileNumbers), secondsPerRound: pick(hostileNumbers) })],
          ['plan(options)', () => m.plan('rolling-basic', hostile())],
          ['sweep', () => m.sweep(arg(), pick([hostile(), { maxSurge: '0..2' }, ['replicas=1..3'], { replicas: '1..20000' }]), hostile())],
          ['new Simulation', () => sims.push(new m.Simulation(arg()))],
          ['Simulation.advance', () => simulation().advance(hostile())],
          ['Simulation.pushAction', () => simulation().pushAction(hostile())],
          ['Simulation.onStep', () => simulation().onStep(hostile())],
          ['Simulation.offStep', () => simulation().offStep(hostile())],
          ['Simulation.step', () => simulation().step()],
          ['Simulation.run', () => simulation().run()],
          ['Simulation.stepBack', () => simulation().stepBack()],
          ['Simulation.state', () => simulation().state()],
          ['mount', () => { const l = m.mount(here, hostile()); labs.push(l); }],
          ['lab.set', () => lab().set(hostile(), hostile())],
          ['lab.onStep', () => lab().onStep(hostile())],
          ['lab.step', () => lab().step()],
          ['lab.unmount', () => { const l = labs.pop(); if (l) l.unmount(); }],
          ['downloadSession', () => m.downloadSession(pick([hostile(), 'nope']), arg(), hostile())],
        ];
        const failures = [];
        const counts = {};
        let slowest = 0;
        for (let i = 0; i < count; i++) {
          const [name, call] = pick(calls);
          counts[name] = (counts[name] ?? 0) + 1;
          const start = performance.now();
          try {
            const r = call();
            if (r instanceof Promise) await r;
          } catch (e) {
            const raw = e instanceof WebAssembly.RuntimeError || !(e instanceof Error) || e.constructor !== Error;
            if (raw) failures.push(`#${i} ${name}: ${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 200)}`);
          }
          const took = performance.now() - start;
          slowest = Math.max(slowest, took);
          if (took > 10_000) failures.push(`#${i} ${name}: took ${Math.round(took)} ms`);
          if (failures.length > 20) break;
        }
        for (const l of labs) l.unmount();
        // After the run: the module still works.
        const after = {
          trace: m.trace(valid()).rounds.length,
          sim: new m.Simulation(valid()).advance(5),
          link: m.decodeLink(m.encodeLink(valid(), 3)).step,
          manifest: m.importManifest(manifest).scenario.actions.length,
        };
        return { failures, counts, slowest, after };
      },
      { seed: SEED, count: CALLS },
    );
    assert.deepEqual(result.failures, []);
    assert.deepEqual(result.after, { trace: 8, sim: 5, link: 3, manifest: 1 });
    assert.ok(result.slowest < 10_000, `slowest call ${result.slowest} ms`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the cases of issue #27 throw clear Errors and leave the module working', async () => {
    const page = await blank();
    const r = await page.evaluate(async () => {
      const m = await import('./rollout-lab.js');
      await m.default();
      await m.loadYaml();
      const attempt = (f) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${e.constructor.name}: ${e.message}`;
        }
      };
      const ok = { rounds: 3, actions: [{ round: 0, type: 'create', deployment: { name: 'web', image: 'a' } }] };
      const cyclic = { a: 1 };
      cyclic.self = cyclic;
      let deep = [];
      for (let i = 0; i < 100_000; i++) deep = [deep];
      let bomb = 'lol0: &a0 "lol"\n';
      for (let i = 1; i <= 9; i++) bomb += `lol${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
      const withField = (f, v) => ({ ...ok, [f]: v });
      const replicas = (n) => ({ ...ok, actions: [{ round: 0, type: 'create', deployment: { name: 'web', image: 'a', replicas: n } }] });
      const started = performance.now();
      const out = {
        cyclicTrace: attempt(() => m.trace(cyclic)),
        cyclicPlan: attempt(() => m.plan(cyclic)),
        cyclicParse: attempt(() => m.parseScenario(cyclic)),
        cyclicSim: attempt(() => new m.Simulation(cyclic)),
        deepTrace: attempt(() => m.trace(deep)),
        deepPlan: attempt(() => m.plan(deep)),
        deepSim: attempt(() => new m.Simulation(deep)),
        decode5: attempt(() => m.decodeLink(5)),
        decodeObject: attempt(() => m.decodeLink({})),
        decodeUndefined: attempt(() => m.decodeLink(undefined)),
        import5: attempt(() => m.importManifest(5)),
        encodePreset5: attempt(() => m.encodeLink(ok, 3, 5)),
        encodeHugeStep: attempt(() => m.encodeLink(ok, 50_001)),
        encodeStepText: attempt(() => m.encodeLink(ok, 'x')),
        encodeMaxStep: attempt(() => m.encodeLink(ok, 50_000)),
        onStep5: attempt(() => new m.Simulation(ok).onStep(5)),
        advanceMinus: attempt(() => new m.Simulation(ok).advance(-1)),
        nodesMax: attempt(() => m.trace(withField('nodes', 4294967295))),
        nodes5000: attempt(() => m.trace(withField('nodes', 5000))),
        nodes5001: attempt(() => m.trace(withField('nodes', 5001))),
        planNodes: attempt(() => m.plan('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.14.2\n', { nodes: 2147483647 })),
        rounds100000: attempt(() => m.parseScenario(withField('rounds', 100_000))),
        rounds100001: attempt(() => m.trace(withField('rounds', 100_001))),
        spr86400: attempt(() => m.parseScenario(withField('secondsPerRound', 86_400))),
        spr86401: attempt(() => m.trace(withField('secondsPerRound', 86_401))),
        replicas10000: attempt(() => m.parseScenario(replicas(10_000))),
        replicas10001: attempt(() => m.trace(replicas(10_001))),
        bigSimulation: attempt(() => new m.Simulation({ ...replicas(10_000), rounds: 100_000 })),
        bomb: attempt(() => m.importManifest(bomb)),
      };
      out.elapsed = performance.now() - started;
      out.stillWorks = m.trace(ok).rounds.length;
      out.yamlStillRead = m.importManifest('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.14.2\n').scenario.actions.length;
      return out;
    });
    for (const k of ['cyclicTrace', 'cyclicPlan', 'cyclicParse', 'cyclicSim']) assert.match(r[k], /^Error: .*cannot be read as JSON: TypeError: Converting circular structure/, k);
    for (const k of ['deepTrace', 'deepPlan', 'deepSim']) assert.match(r[k], /^Error: .*(cannot be read as JSON: RangeError|recursion limit exceeded)/, `${k}: ${r[k]}`);
    assert.equal(r.decode5, "Error: decodeLink takes the link's fragment as text, not a number");
    assert.equal(r.decodeObject, "Error: decodeLink takes the link's fragment as text, not an object");
    assert.equal(r.decodeUndefined, "Error: decodeLink takes the link's fragment as text, not undefined");
    assert.equal(r.import5, 'Error: importManifest takes the manifest as text, not a number');
    assert.equal(r.encodePreset5, 'Error: encodeLink takes the preset as text, not a number');
    assert.equal(r.encodeHugeStep, 'Error: encodeLink: step 50001 is more than 50,000, the most steps a link replays');
    assert.equal(r.encodeStepText, 'Error: encodeLink: step must be a whole number, not a string');
    assert.equal(r.encodeMaxStep, 'no error');
    assert.equal(r.onStep5, 'Error: onStep takes a function, not a number');
    assert.equal(r.advanceMinus, 'Error: advance: step -1 is not a whole number of at least 0');
    assert.match(r.nodesMax, /^Error: Invalid scenario: nodes: 4294967295 is more than 5,000, the most nodes Kubernetes supports/);
    assert.equal(r.nodes5000, 'no error');
    assert.match(r.nodes5001, /^Error: Invalid scenario: nodes: 5001 is more than 5,000/);
    assert.match(r.planNodes, /^Error: nodes: 2147483647 is more than 5,000/);
    assert.equal(r.rounds100000, 'no error');
    assert.match(r.rounds100001, /^Error: Invalid scenario: rounds: 100001 is more than 100,000/);
    assert.equal(r.spr86400, 'no error');
    assert.match(r.spr86401, /^Error: Invalid scenario: secondsPerRound: 86401 is more than 86,400/);
    assert.equal(r.replicas10000, 'no error');
    assert.match(r.replicas10001, /creates 10001 replicas; Rollout Lab simulates at most 10,000 replicas, a limit for the page's speed/);
    assert.match(r.bigSimulation, /^Error: Invalid scenario: 100,000 rounds with up to 12,500 pods at once \(replicas \+ maxSurge of each Deployment at its largest\) make 1,250,000,000 pod-rounds; Rollout Lab simulates at most 2,000,000 pod-rounds in one run, a limit for the page's speed/);
    assert.match(r.bomb, /^Error: the YAML contains excessive aliasing|^Error: the YAML expands to more than/);
    assert.ok(r.elapsed < 5_000, `the refusals took ${r.elapsed} ms`);
    assert.equal(r.stillWorks, 3);
    assert.equal(r.yamlStillRead, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
