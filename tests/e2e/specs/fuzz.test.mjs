// A seeded fuzzer of the JavaScript API in Chromium (issue #27): mutated arguments through
// every exported function of dist/rollout-lab.js (version, loadYaml, trace, parseScenario,
// importManifest, importText, encodeLink, decodeLink, plan, sweep, findRace, downloadSession, mount,
// mountElement, every method and getter of Simulation and of a mounted lab, free included),
// and damaged links opened in the app (mountPage reading them). A call may return or throw an
// `Error` with a message; it fails the run when it traps (WebAssembly.RuntimeError), throws
// anything else (a glue TypeError, a non-Error), takes more than 10 s, or the page's memory
// (wasm memory + JavaScript heap) passes 1 GB. After the run a valid trace() must still
// succeed, and so must every function with valid arguments. SEED, CALLS and LINKS are in
// README's "Testing"; FUZZ_CALLS and FUZZ_LINKS change the counts (FUZZ_SEED the seed), and
// the figures of a run are printed as test diagnostics (BENCHMARKS.md, "The JavaScript API
// and links under fuzzing").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { servedApp } from '../lib/suite.mjs';
import { byTestId, openApp, roundInfo } from '../lib/app.mjs';

const app = servedApp();

const SEED = Number(process.env.FUZZ_SEED ?? 27);
const CALLS = Number(process.env.FUZZ_CALLS ?? 3000);
// 150 links take about four minutes on a busy 2-core machine: the test command opens 40, and
// BENCHMARKS.md has a run of 150 (FUZZ_LINKS=150).
const LINKS = Number(process.env.FUZZ_LINKS ?? 40);

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
  test(`${CALLS} seeded calls with mutated arguments: no trap, no raw error, no hang, under 1 GB`, { timeout: 900_000 }, async (t) => {
    const page = await blank();
    const result = await page.evaluate(
      async ({ seed, count }) => {
        const m = await import('./rollout-lab.js');
        const wasm = await m.default();
        await m.loadYaml();
        // The page's memory: the module's linear memory (it never shrinks: its peak) and the
        // JavaScript heap (Chromium's performance.memory, rounded).
        const memory = () => wasm.memory.buffer.byteLength + (performance.memory?.usedJSHeapSize ?? 0);
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
        // A race scenario (3 replicas), sometimes with a hostile step or switch.
        const race = () => ({
          name: 'race', rounds: 0, readyAfterRounds: 2, nodes: 2,
          actions: [{ round: 0, type: 'create', deployment: { name: 'web', replicas: 3, image: 'web:1', strategy: { type: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0 } } }],
          schedule: ['setImage web:2', ...(rnd() < 0.3 ? [hostile()] : [])],
          expectations: rnd() < 0.8 ? rnd() < 0.5 : hostile(),
        });
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
          ['version', () => m.version(hostile())],
          ['loadYaml', () => m.loadYaml(hostile())],
          ['trace', () => m.trace(arg())],
          ['parseScenario', () => m.parseScenario(arg())],
          ['importManifest', () => m.importManifest(arg(), hostile())],
          ['importText', () => m.importText(arg())],
          ['encodeLink', () => m.encodeLink(arg(), hostile(), hostile())],
          ['decodeLink', () => m.decodeLink(hostile())],
          ['plan', () => m.plan(arg(), rnd() < 0.5 ? undefined : { nodes: pick(hostileNumbers), secondsPerRound: pick(hostileNumbers) })],
          ['plan(options)', () => m.plan('rolling-basic', hostile())],
          ['sweep', () => m.sweep(arg(), pick([hostile(), { maxSurge: '0..2' }, ['replicas=1..3'], { replicas: '1..20000' }]), hostile())],
          // Race searches kept short (a small state cap or depth) when the subject is valid.
          ['findRace', () => m.findRace(
            pick([hostile(), 'expectations', 'stale-status', race()]),
            pick([hostile(), { depth: pick(hostileNumbers), maxStates: 2_000 }, { mode: pick(['real', 'noexp', 'norv', hostile()]), depth: 4 }, { maxStates: pick(hostileNumbers), depth: 3 }]),
            pick([undefined, hostile(), () => rnd() < 0.9]),
          )],
          ['downloadSession', () => m.downloadSession(pick([hostile(), 'nope']), arg(), hostile())],
          ['new Simulation', () => sims.push(new m.Simulation(arg()))],
          ['Simulation.advance', () => simulation().advance(hostile())],
          ['Simulation.pushAction', () => simulation().pushAction(hostile())],
          ['Simulation.onStep', () => simulation().onStep(hostile())],
          ['Simulation.offStep', () => simulation().offStep(hostile())],
          ['Simulation.step', () => simulation().step()],
          ['Simulation.runRound', () => simulation().runRound()],
          ['Simulation.run', () => simulation().run()],
          ['Simulation.stepBack', () => simulation().stepBack()],
          ['Simulation getters', () => { const x = simulation(); return [x.round, x.time, x.steps, x.finished]; }],
          ['Simulation.state', () => simulation().state()],
          ['Simulation.trace', () => simulation().trace()],
          ['Simulation.traceJson', () => simulation().traceJson()],
          ['Simulation.chartSvg', () => simulation().chartSvg()],
          ['Simulation.scenario', () => simulation().scenario()],
          ['Simulation.lastStep', () => simulation().lastStep()],
          // A freed simulation stays in the pool: every later call on it must throw an Error.
          ['Simulation.free', () => simulation().free()],
          ['mount', () => { const l = m.mount(here, hostile()); labs.push(l); }],
          ['mountElement', () => labs.push(m.mountElement(rnd() < 0.5 ? hostile() : hostElement(hostile())))],
          ['lab.set', () => lab().set(hostile(), hostile())],
          ['lab.onStep', () => lab().onStep(hostile())],
          ['lab.offStep', () => lab().offStep(hostile())],
          ...['step', 'end', 'stepBack', 'stepRound', 'backRound', 'play', 'pause', 'reset', 'rollOut', 'state', 'scenario', 'trace', 'traceJson', 'chartSvg', 'link'].map(
            (name) => [`lab.${name}`, () => lab()[name]()],
          ),
          ['lab.unmount', () => { const l = labs.pop(); if (l) l.unmount(); }],
          // A freed lab stays in the pool too.
          ['lab.free', () => lab().free()],
        ];
        // Any value as attribute text (String() of a symbol throws, of a deep array overflows).
        function text(value) {
          try {
            return typeof value === 'symbol' ? 'sym' : String(value);
          } catch {
            return 'x';
          }
        }
        // A <rollout-lab>-like host for mountElement, its attributes hostile.
        function hostElement(value) {
          const el = document.createElement('div');
          here.append(el);
          for (const name of ['preset', 'link', 'step', 'lesson', 'controls', 'chart', 'app-url', 'heading-level']) {
            if (rnd() < 0.3) el.setAttribute(name, text(value).slice(0, 5000));
          }
          return el;
        }
        const failures = [];
        const counts = {};
        const outcomes = { returned: 0, threwError: 0, trap: 0, otherThrow: 0, over10s: 0, over1GB: 0 };
        let slowest = { ms: 0, call: '' };
        let peak = memory();
        for (let i = 0; i < count; i++) {
          const [name, call] = pick(calls);
          counts[name] = (counts[name] ?? 0) + 1;
          const start = performance.now();
          try {
            const r = call();
            if (r instanceof Promise) await r;
            outcomes.returned++;
          } catch (e) {
            if (e instanceof WebAssembly.RuntimeError) {
              outcomes.trap++;
              failures.push(`#${i} ${name}: trap: ${String(e.message).slice(0, 200)}`);
            } else if (!(e instanceof Error) || e.constructor !== Error) {
              outcomes.otherThrow++;
              failures.push(`#${i} ${name}: ${e?.constructor?.name}: ${String(e?.message ?? e).slice(0, 200)}`);
            } else outcomes.threwError++;
          }
          const took = performance.now() - start;
          if (took > slowest.ms) slowest = { ms: Math.round(took), call: `#${i} ${name}` };
          if (took > 10_000) {
            outcomes.over10s++;
            failures.push(`#${i} ${name}: took ${Math.round(took)} ms`);
          }
          const now = memory();
          peak = Math.max(peak, now);
          if (now > 2 ** 30) {
            outcomes.over1GB++;
            failures.push(`#${i} ${name}: the page holds ${Math.round(now / 2 ** 20)} MB`);
          }
          if (failures.length > 20) break;
        }
        for (const l of labs) {
          try {
            l.unmount();
          } catch (e) {
            if (!(e instanceof Error) || e.constructor !== Error) failures.push(`unmount: ${e}`);
          }
        }
        // After the run: the module still works.
        const after = {
          trace: m.trace(valid()).rounds.length,
          sim: new m.Simulation(valid()).advance(5),
          link: m.decodeLink(m.encodeLink(valid(), 3)).step,
          manifest: m.importManifest(manifest).scenario.actions.length,
        };
        return {
          failures,
          counts,
          outcomes,
          slowest,
          after,
          peakMB: Math.round(peak / 2 ** 20),
          wasmMB: Math.round(wasm.memory.buffer.byteLength / 2 ** 20),
        };
      },
      { seed: SEED, count: CALLS },
    );
    t.diagnostic(`seed ${SEED}, ${CALLS} calls: ${JSON.stringify(result.outcomes)}; slowest ${result.slowest.ms} ms (${result.slowest.call}); peak ${result.peakMB} MB (wasm memory ${result.wasmMB} MB at the end)`);
    t.diagnostic(`calls per function: ${JSON.stringify(result.counts)}`);
    assert.deepEqual(result.failures, []);
    assert.ok(result.peakMB < 1024, `${result.peakMB} MB`);
    assert.deepEqual(result.after, { trace: 8, sim: 5, link: 3, manifest: 1 });
    assert.ok(result.slowest.ms < 10_000, `slowest call ${result.slowest.ms} ms`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${LINKS} seeded damaged links open in the app: no page error, a working Step, under 1 GB`, { timeout: 900_000 }, async (t) => {
    // Valid links to damage: presets at a step, and scenarios the module encodes.
    const maker = await blank();
    const sources = await maker.evaluate(async () => {
      const m = await import('./rollout-lab.js');
      await m.default();
      const create = (d) => ({ round: 0, type: 'create', deployment: { name: 'web', image: 'nginx:1.14.2', replicas: 5, ...d } });
      const scenarios = [
        { rounds: 30, secondsPerRound: 5, nodes: 3, actions: [create({}), { round: 4, type: 'setImage', image: 'nginx:1.16.1' }] },
        { rounds: 60, nodes: 2, readyAfterRounds: 3, actions: [create({ replicas: 12, strategy: { type: 'RollingUpdate', maxSurge: '50%', maxUnavailable: 0 } }), { round: 5, type: 'setImage', image: 'bad:1' }, { round: 20, type: 'undo' }] },
        { rounds: 40, terminationRounds: 2, podQuota: 7, actions: [create({ strategy: { type: 'Recreate' } }), { round: 3, type: 'scale', replicas: 9 }, { round: 6, type: 'setImage', image: 'nginx:2' }] },
      ];
      return [...scenarios.map((s, i) => m.encodeLink(s, 3 + i)), '#p=rolling-basic&at=5', '#p=bad-image-stuck&at=40', '#p=custom&at=2&v=2'];
    });
    await maker.close();
    let s = SEED >>> 0;
    const rnd = () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let x = s;
      x = Math.imul(x ^ (x >>> 15), x | 1);
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = (a) => a[Math.floor(rnd() * a.length)];
    const at = (n) => Math.floor(rnd() * n);
    const numbers = ['0', '-1', '1.5', 'NaN', '1e300', '2147483647', '2147483648', '4294967295', '4294967296', '99999999', '50000', '50001', '5000', '5001', '10000', '10001', '100000', '100001', '86401', ''];
    const junk = ["(", ")", "!", ":", ",", "'", "~", "%", "%E0%A4%A", "%00", "&", "=", "#", "(((((", "!(", "*", "\u00e9", "\ud83d\ude80"];
    const damage = (link) => {
      switch (at(9)) {
        case 0: { const i = at(link.length); return link.slice(0, i) + link.slice(i + 1 + at(20)); } // a slice cut out
        case 1: { const i = at(link.length); return link.slice(0, i) + pick(junk) + link.slice(i); } // junk put in
        case 2: return link.replace(/-?\d+(\.\d+)?/g, (d) => (rnd() < 0.3 ? pick(numbers) : d)); // hostile numbers
        case 3: return link.slice(0, at(link.length)); // cut short
        case 4: { const i = at(link.length); const j = i + 1 + at(30); return link.slice(0, j) + link.slice(i, j).repeat(1 + at(2000)) + link.slice(j); } // a slice repeated
        case 5: return link.replace(/\b(at|s|p|v|n|sp|nd|rp|i|t|r|a|d)[:=]/g, (k) => (rnd() < 0.3 ? pick(['zz', 'at', 'lesson', 'rp', 't', '']) + k.slice(-1) : k)); // keys renamed
        case 6: return link + pick(['&zz=1', '&lesson=nope', '&lesson=nope&step=99999999', '&v=99', '&at=banana', '&at=50001', '&at=4294967296', '&p=nope', '&s=', '&']);
        case 7: return pick(['#', '#s=', '#p=', '#at=3', '#s=((((%%%&at=banana', `#s=${'('.repeat(100_000)}`, `#s=(a:!(${'(t:c,d:(n:web,i:a,rp:10000)),'.repeat(600)}))`, `#p=rolling-basic&at=${'9'.repeat(400)}`]);
        default: return link.replace(/[a-z]/g, (c) => (rnd() < 0.05 ? String.fromCharCode(97 + at(26)) : c)); // letters flipped
      }
    };
    const links = [];
    for (let i = 0; i < LINKS; i++) {
      let link = pick(sources);
      for (let k = 1 + at(3); k > 0; k--) link = damage(link);
      links.push(link);
    }
    const figures = { opened: 0, notice: 0, stepped: 0, atTheEnd: 0, slowestMs: 0, slowest: '', peakMB: 0 };
    const failures = [];
    for (const [i, link] of links.entries()) {
      const start = Date.now();
      const page = await openApp(app.browser.context, `${app.server.url}${link.startsWith('#') ? '' : '#'}${link}`);
      try {
        figures.opened++;
        if (await page.locator(byTestId('notice')).count()) figures.notice++;
        const before = await roundInfo(page);
        const step = page.locator(byTestId('step-button'));
        if (await step.isEnabled()) {
          await step.click();
          const after = await roundInfo(page);
          if (after.steps > before.steps || after.round > before.round) figures.stepped++;
          else failures.push(`#${i} ${link.slice(0, 120)}: Step did not move (${JSON.stringify(before)})`);
        } else figures.atTheEnd++;
        const mb = await page.evaluate(async () => {
          const wasm = await (await import('./rollout-lab.js')).default();
          return Math.round((wasm.memory.buffer.byteLength + (performance.memory?.usedJSHeapSize ?? 0)) / 2 ** 20);
        });
        figures.peakMB = Math.max(figures.peakMB, mb);
        const took = Date.now() - start;
        if (took > figures.slowestMs) Object.assign(figures, { slowestMs: took, slowest: `#${i}` });
        if (took > 10_000) failures.push(`#${i} ${link.slice(0, 120)}: took ${took} ms`);
        if (mb > 1024) failures.push(`#${i} ${link.slice(0, 120)}: ${mb} MB`);
        if (page.errors.length) failures.push(`#${i} ${link.slice(0, 120)}: ${page.errors.join('; ').slice(0, 300)}`);
      } catch (e) {
        failures.push(`#${i} ${link.slice(0, 120)}: ${String(e.message).slice(0, 300)}`);
      }
      await page.close();
      if (failures.length > 10) break;
    }
    t.diagnostic(`seed ${SEED}, ${LINKS} damaged links: ${JSON.stringify(figures)}`);
    assert.deepEqual(failures, []);
    assert.equal(figures.opened, LINKS);
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
        mountElement5: attempt(() => m.mountElement(5)),
        mountElementNull: attempt(() => m.mountElement(null)),
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
    assert.equal(r.mountElement5, 'Error: mountElement takes an element, not a number');
    assert.equal(r.mountElementNull, 'Error: mountElement takes an element, not null');
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
