// The Plan view and the module's plan() / sweep() in real Chromium, checked against the CLI:
// `rollout plan FILE --json` (the binary cargo builds) must give the same figures as the view's
// forecast and as plan() / sweep() for the same input; a sweep runs in a Web Worker with a
// progress bar while the Step button still works, and can be cancelled; a cell loads its
// settings; bad input shows the API server's message.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { byTestId, openApp, roundInfo } from '../lib/app.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { servedApp, click } from '../lib/suite.mjs';
import { screenshot, horizontalOverflow } from '../lib/screens.mjs';

const app = servedApp();
let rollout; // the CLI binary
let tmp;

before(async () => {
  const out = execFileSync('cargo', ['build', '-q', '-p', 'rollout-cli', '--message-format=json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  rollout = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .find((m) => m.reason === 'compiler-artifact' && m.executable && m.target?.name === 'rollout')?.executable;
  assert.ok(rollout, 'cargo built the rollout binary');
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rollout-plan-e2e-'));
});

/** `rollout plan FILE --json ARGS…` where FILE holds `text` (or is a preset id). */
async function cli(text, args = [], { preset = false } = {}) {
  let file = text;
  if (!preset) {
    file = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.txt`);
    await fs.writeFile(file, text);
  }
  const r = spawnSync(rollout, ['plan', file, '--json', ...args], { encoding: 'utf8' });
  return { code: r.status, json: r.status === 0 ? JSON.parse(r.stdout) : undefined, stderr: r.stderr, file };
}

/** The plan options of the view's model as `rollout plan` flags. */
function flags(model) {
  const out = [];
  const names = { readyAfter: '--ready-after', secondsPerRound: '--seconds-per-round', nodes: '--nodes', termination: '--termination', podQuota: '--pod-quota', image: '--image' };
  for (const [k, v] of Object.entries(model)) {
    if (k === 'badImage') {
      if (v) out.push('--bad-image');
    } else out.push(names[k], String(v));
  }
  return out;
}

const FIGURES = ['startRound', 'completeRound', 'durationSeconds', 'peakPods', 'minAvailable', 'deadlineExceededRound'];
const pick = (o) => Object.fromEntries(FIGURES.map((k) => [k, o[k]]));

/** The view's forecast from its data attributes (null stays null). */
const viewForecast = (page) =>
  page.locator(byTestId('forecast')).evaluate((el) => {
    const n = (v) => (v === 'null' ? null : Number(v));
    const d = el.dataset;
    return {
      startRound: n(d.startRound),
      completeRound: n(d.completeRound),
      durationSeconds: n(d.durationSeconds),
      peakPods: n(d.peakPods),
      minAvailable: n(d.minAvailable),
      deadlineExceededRound: n(d.deadlineExceededRound),
    };
  });

const manifest = ({ name = 'web', replicas, surge, unavailable, minReady, deadline, strategy = 'RollingUpdate' }) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  replicas: ${replicas}`,
    ...(minReady != null ? [`  minReadySeconds: ${minReady}`] : []),
    ...(deadline != null ? [`  progressDeadlineSeconds: ${deadline}`] : []),
    '  selector:',
    `    matchLabels: {app: ${name}}`,
    '  strategy:',
    `    type: ${strategy}`,
    ...(strategy === 'RollingUpdate' ? ['    rollingUpdate:', `      maxSurge: ${surge}`, `      maxUnavailable: ${unavailable}`] : []),
    '  template:',
    `    metadata: {labels: {app: ${name}}}`,
    '    spec:',
    `      containers: [{name: ${name}, image: "registry.example/${name}:v1"}]`,
    '',
  ].join('\n');

/**
 * Types `text` into the view's manifest and waits for a forecast (or an error) of it: the first
 * time, once the YAML reader's module, which the focus starts loading, is there.
 */
async function typeManifest(page, text) {
  await page.locator(byTestId('plan-manifest')).fill(text);
  await page.waitForFunction(
    ({ sel, text }) => document.querySelector(sel)?.value === text,
    { sel: byTestId('plan-manifest'), text },
  );
  await page.waitForFunction(
    (sel) => !document.querySelector(sel)?.textContent.includes('YAML reader is still loading'),
    byTestId('plan-view'),
  );
}

const model = async (page) => JSON.parse(await page.locator(byTestId('plan-model')).getAttribute('data-model'));

describe('Plan view', () => {
  test('its forecast agrees with rollout plan --json for the settings and two typed manifests', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    await page.locator(byTestId('plan-view')).waitFor();
    const m = await model(page);
    // 1. The settings' Deployment, as the view writes it.
    const generated = await page.locator(byTestId('plan-manifest')).inputValue();
    assert.match(generated, /kind: Deployment/);
    let want = await cli(generated, flags(m));
    assert.equal(want.code, 0, want.stderr);
    assert.deepEqual(await viewForecast(page), pick(want.json));
    // 2 and 3: typed manifests, each forecast on the keystroke that completes it.
    for (const spec of [
      { replicas: 10, surge: 3, unavailable: 2 },
      { replicas: 100, surge: '10%', unavailable: 0, minReady: 10 },
    ]) {
      const text = manifest(spec);
      await typeManifest(page, text);
      want = await cli(text, flags(m));
      assert.equal(want.code, 0, want.stderr);
      await page.waitForFunction(
        ({ sel, peak }) => document.querySelector(sel)?.dataset.peakPods === String(peak),
        { sel: byTestId('forecast'), peak: want.json.peakPods },
      );
      assert.deepEqual(await viewForecast(page), pick(want.json), JSON.stringify(spec));
    }
    assert.match(await page.locator(byTestId('plan-follows')).textContent(), /Edited here/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a big Deployment is forecast in the worker, with the same figures', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    // 250 replicas, one pod at a time: 250 waves, too long for a keystroke on the page.
    const text = manifest({ replicas: 250, surge: 1, unavailable: 0 });
    await typeManifest(page, text);
    const want = await cli(text, flags(await model(page)));
    assert.equal(want.code, 0, want.stderr);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ms === 'worker', byTestId('forecast'), { timeout: 30_000 });
    assert.deepEqual(await viewForecast(page), pick(want.json));
    // Back to a small one: on the page again, at once.
    await typeManifest(page, manifest({ replicas: 5, surge: 1, unavailable: 0 }));
    await page.waitForFunction((sel) => /^[0-9.]+$/.test(document.querySelector(sel)?.dataset.ms ?? ''), byTestId('forecast'));
    assert.equal(await page.locator(byTestId('forecast-pending')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad input shows the API server message, as rollout plan prints it', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    const bad = manifest({ replicas: 3, surge: 0, unavailable: 0 });
    await typeManifest(page, bad);
    const r = await cli(bad, flags(await model(page)));
    assert.equal(r.code, 2);
    const shown = await page.locator(byTestId('plan-error')).textContent();
    assert.match(shown, /may not be 0 when `maxSurge` is 0/);
    assert.ok(r.stderr.includes(shown), `the CLI says ${r.stderr}; the view ${shown}`);
    assert.equal(await page.locator(byTestId('forecast')).count(), 0);
    await typeManifest(page, 'kind: Deployment\nspec: [');
    await page.locator(byTestId('plan-error')).waitFor();
    // A Recreate Deployment has no maxSurge to sweep: the worker says so, as sweep() does.
    await typeManifest(page, manifest({ replicas: 3, strategy: 'Recreate' }));
    await click(page, 'sweep-run');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state !== 'running', byTestId('sweep-progress'), { timeout: 30_000 });
    assert.match(await page.locator(byTestId('sweep-message')).textContent(), /uses the Recreate strategy, which has no maxSurge/);
    assert.deepEqual(page.errors, [], 'no panic, no trap');
    await page.close();
  });

  test('a sweep runs in a worker with progress while Step works, and can be cancelled', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    await typeManifest(page, manifest({ replicas: 100, surge: 5, unavailable: 5 }));
    await page.locator(byTestId('plan-size')).selectOption('20');
    // Syncs taken, not the round: the default scenario is settled, so its first Steps all
    // happen in round 0.
    const before = (await roundInfo(page)).steps;
    await click(page, 'sweep-run');
    const progress = page.locator(byTestId('sweep-progress'));
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.done) > 0, byTestId('sweep-progress'));
    assert.equal(await progress.getAttribute('data-state'), 'running');
    // The main thread is free: Step steps while the sweep runs.
    for (let i = 0; i < 4; i++) await click(page, 'step-button');
    await page.waitForFunction(
      ({ sel, before }) => Number(document.querySelector(sel)?.dataset.steps) > before,
      { sel: byTestId('round'), before },
    );
    assert.equal(await progress.getAttribute('data-state'), 'running', 'still sweeping after the steps');
    const done = Number(await progress.getAttribute('data-done'));
    assert.ok(done < Number(await progress.getAttribute('data-total')));
    await click(page, 'sweep-cancel');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'stopped', byTestId('sweep-progress'));
    assert.match(await page.locator(byTestId('sweep-message')).textContent(), /cancelled after \d+ of 462/);
    assert.equal(await page.locator(byTestId('sweep-cell')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('an 11 × 11 heat map agrees with rollout plan --sweep, and a click loads its settings', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    const text = manifest({ replicas: 6, surge: 1, unavailable: 1 });
    await typeManifest(page, text);
    await click(page, 'sweep-run');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'done', byTestId('sweep-progress'), { timeout: 30_000 });
    const cells = await page.locator(byTestId('sweep-cell')).evaluateAll((els) =>
      els.map((e) => ({ s: Number(e.dataset.maxSurge), u: Number(e.dataset.maxUnavailable), v: e.dataset.value, refused: e.dataset.refused === 'true', current: e.getAttribute('aria-current') === 'true' })),
    );
    assert.equal(cells.length, 121);
    const r = spawnSync(rollout, ['plan', (await cli(text)).file, '--json', '--sweep', 'maxSurge=0..10', '--sweep', 'maxUnavailable=0..10', ...flags(await model(page))], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout);
    for (const row of rows) {
      const c = cells.find((c) => c.s === row.settings.maxSurge && c.u === row.settings.maxUnavailable);
      assert.ok(c, JSON.stringify(row.settings));
      assert.equal(c.refused, row.forecast === null);
      if (row.forecast) assert.equal(c.v, String(row.forecast.durationSeconds ?? 'null'), JSON.stringify(row.settings));
    }
    assert.deepEqual(cells.filter((c) => c.current).map((c) => [c.s, c.u]), [[1, 1]]);
    // Colour by peak pods: the values change to the CLI's peaks.
    await page.locator(byTestId('plan-figure')).selectOption('peak');
    const peak = await page.locator(`${byTestId('sweep-cell')}[data-max-surge="3"][data-max-unavailable="2"]`).getAttribute('data-value');
    assert.equal(peak, String(rows.find((x) => x.settings.maxSurge === 3 && x.settings.maxUnavailable === 2).forecast.peakPods));
    // The line chart over replicas has a point per value.
    assert.ok((await page.locator(byTestId('line-point')).count()) >= 10);
    // Focus (or hover) reads a cell out.
    await page.locator(`${byTestId('sweep-cell')}[data-max-surge="3"][data-max-unavailable="2"]`).focus();
    assert.match(await page.locator(byTestId('sweep-readout')).textContent(), new RegExp(`^maxSurge 3, maxUnavailable 2: .*peak ${peak} pods`));
    // A click loads the cell: the settings panel's fields, the manifest and the marked cell.
    await page.locator(`${byTestId('sweep-cell')}[data-max-surge="3"][data-max-unavailable="2"]`).click();
    assert.equal(await page.locator(byTestId('max-surge-input')).inputValue(), '3');
    assert.equal(await page.locator(byTestId('max-unavailable-input')).inputValue(), '2');
    assert.match(await page.locator(byTestId('plan-manifest')).inputValue(), /maxSurge: 3\n\s*maxUnavailable: 2/);
    await page.waitForFunction((sel) => document.querySelector(`${sel}[aria-current="true"]`)?.dataset.maxSurge === '3', byTestId('sweep-cell'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  for (const [width, height, scheme] of [[1280, 720, 'light'], [1920, 1080, 'dark'], [390, 844, 'dark']]) {
    test(`${width}×${height} ${scheme}: the forecast and a finished heat map fit the width; screenshots`, async () => {
      const page = await openApp(app.browser.context, app.server.url);
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await typeManifest(page, manifest({ replicas: 10, surge: 2, unavailable: 1 }));
      await click(page, 'sweep-run');
      await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'done', byTestId('sweep-progress'), { timeout: 30_000 });
      assert.equal(await page.locator(byTestId('sweep-cell')).count(), 121);
      assert.equal(await horizontalOverflow(page), 0, 'nothing overflows the page');
      // Every cell is on screen width-wise (the heat map is not cut off on a phone).
      const outside = await page.locator(byTestId('sweep-cell')).evaluateAll((cells) =>
        cells.filter((c) => { const r = c.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; }).length,
      );
      assert.equal(outside, 0, 'cells outside the viewport');
      // Scrolled to (the header's Plan button, then the heat map as a link would), each stops
      // below the sticky transport bar, not under it.
      const clear = (testid) => page.evaluate(({ sel, bar }) => {
        const t = document.querySelector(sel).getBoundingClientRect().top;
        return [Math.round(t), Math.round(document.querySelector(bar).getBoundingClientRect().bottom)];
      }, { sel: byTestId(testid), bar: '.transport' });
      await click(page, 'plan-open');
      await page.waitForTimeout(800);
      const [viewTop, barBottom] = await clear('plan-view');
      assert.ok(viewTop >= barBottom - 2, `the Plan view (top ${viewTop}) is below the transport bar (bottom ${barBottom})`);
      await screenshot(page, `plan-forecast-${width}x${height}-${scheme}`, { fullPage: false });
      await page.locator(byTestId('sweep-heatmap')).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      const [mapTop, bar] = await clear('sweep-heatmap');
      assert.ok(mapTop >= bar - 2, `the heat map (top ${mapTop}) is below the transport bar (bottom ${bar})`);
      await screenshot(page, `plan-heatmap-${width}x${height}-${scheme}`, { fullPage: false });
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});

describe('plan() and sweep() from the module', () => {
  test('agree with rollout plan --json on a preset, a conformance scenario and a manifest', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    const scenarioText = await fs.readFile(path.join(repoRoot, '..', 'shared', 'conformance', 'scenarios', '05-rollover.json'), 'utf8');
    const man = manifest({ replicas: 12, surge: '25%', unavailable: 1 });
    const options = { readyAfter: '20s', nodes: 2, termination: '10s' };
    // YAML is read by the YAML reader's own module: plan() is synchronous, so it says so until
    // loadYaml() has loaded it (JSON and preset ids need nothing).
    const early = await page.evaluate(async (man) => {
      const m = await import('./rollout-lab.js');
      const before = (() => {
        try {
          return JSON.stringify(m.plan(man));
        } catch (e) {
          return e.message;
        }
      })();
      await m.loadYaml();
      return before;
    }, man);
    assert.match(early, /the YAML reader is still loading/);
    const cases = [
      { input: 'rolling-basic', cli: await cli('rolling-basic', [], { preset: true }) },
      { input: scenarioText, cli: await cli(scenarioText) },
      { input: man, options, cli: await cli(man, ['--ready-after', '20s', '--nodes', '2', '--termination', '10s']) },
    ];
    for (const c of cases) {
      assert.equal(c.cli.code, 0, c.cli.stderr);
      const got = await page.evaluate(async ({ input, options }) => {
        const m = await import('./rollout-lab.js');
        return m.plan(input, options);
      }, c);
      assert.deepEqual(got, c.cli.json, String(c.input).slice(0, 40));
    }
    // The scenario as an object, not text, gives the same.
    const asObject = await page.evaluate(async (t) => (await import('./rollout-lab.js')).plan(JSON.parse(t)), scenarioText);
    assert.deepEqual(asObject, cases[1].cli.json);
    // sweep(): the rows of --sweep … --json, with progress.
    const file = (await cli(man)).file;
    const r = spawnSync(rollout, ['plan', file, '--json', '--sweep', 'maxSurge=0..2', '--sweep', 'maxUnavailable=0,1,25%', '--ready-after', '20s', '--nodes', '2', '--termination', '10s'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const swept = await page.evaluate(async ({ man, options }) => {
      const m = await import('./rollout-lab.js');
      const seen = [];
      const rows = m.sweep(man, { maxSurge: '0..2', maxUnavailable: [0, 1, '25%'] }, { ...options, onProgress: (d, t) => seen.push([d, t]) });
      return { rows, seen };
    }, { man, options });
    assert.deepEqual(swept.rows, JSON.parse(r.stdout));
    assert.equal(swept.seen.length, 9);
    assert.deepEqual(swept.seen.at(-1), [9, 9]);
    // Bad input throws the message, never a trap.
    const errors = await page.evaluate(async (man) => {
      const m = await import('./rollout-lab.js');
      const msg = (f) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${e.constructor.name}: ${e.message}`;
        }
      };
      return [
        msg(() => m.plan({ name: 'x', actions: [] })),
        msg(() => m.plan(man, { readyAfter: 'soon' })),
        msg(() => m.sweep(man, { maxSurge: '0..x' })),
        msg(() => m.sweep(man, { maxSurge: '0..200', maxUnavailable: '0..200' })),
        msg(() => m.plan('rolling-basic', { nodes: 2 })),
      ];
    }, man);
    assert.match(errors[0], /^Error: .*no setImage action/);
    assert.match(errors[1], /^Error: readyAfter "soon"/);
    assert.match(errors[2], /^Error: sweep axis maxSurge=0\.\.x: "x" is not a whole number/);
    assert.match(errors[3], /^Error: sweep: 40401 combinations; a sweep runs at most 10000/);
    assert.match(errors[4], /^Error: nodes describes the cluster of a manifest/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
