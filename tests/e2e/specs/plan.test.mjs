// The Plan page (`?view=plan`) and the module's plan() / sweep() in real Chromium, checked
// against the CLI: `rollout plan FILE --json` (the binary cargo builds) must give the same
// figures as the page's forecast and as plan() / sweep() for the same input; a sweep runs in a
// Web Worker with a progress bar while the page keeps forecasting, and can be cancelled; limits
// grey out the cells that break them and star the fastest of the rest; a cell edits only its
// two values in the user's text; "Watch it" opens the Deployment on the stage; bad input shows
// the API server's message.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { byTestId, openApp, axeAudit } from '../lib/app.mjs';
import { buildRollout } from '../lib/cli.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { servedApp, click } from '../lib/suite.mjs';
import { screenshot, horizontalOverflow } from '../lib/screens.mjs';

const app = servedApp();
let rollout; // the CLI binary
let tmp;

before(async () => {
  rollout = buildRollout();
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
  const names = { readyAfter: '--ready-after', pull: '--pull', appReady: '--app-ready', secondsPerRound: '--seconds-per-round', nodes: '--nodes', termination: '--termination', podQuota: '--pod-quota', image: '--image' };
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

/** Opens the Plan page, `?view=plan`, as a permalink or the header's Plan button leads there. */
const openPlan = async () => {
  const page = await openApp(app.browser.context, `${app.server.url}?view=plan`);
  await page.locator(byTestId('plan-view')).waitFor();
  return page;
};

/** The cells of the heat map with their figures and marks. */
const heatCells = (page) =>
  page.locator(byTestId('sweep-cell')).evaluateAll((els) =>
    els.map((e) => ({
      s: Number(e.dataset.maxSurge),
      u: Number(e.dataset.maxUnavailable),
      v: e.dataset.value,
      text: e.textContent,
      refused: e.dataset.refused === 'true',
      breaks: e.dataset.breaks === 'true',
      fastest: e.dataset.fastest === 'true',
      current: e.getAttribute('aria-current') === 'true',
    })),
  );

const sweepDone = (page) =>
  page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'done', byTestId('sweep-progress'), { timeout: 60_000 });

/** A manifest as people keep it: comments, flow style, keys in their own order, 12 replicas. */
const FLOW = [
  '# the web tier',
  'kind: Deployment',
  'apiVersion: apps/v1',
  'metadata: {name: shop, labels: {app: shop}}',
  'spec:',
  '  replicas: 12   # peak season',
  '  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}}',
  '  selector: {matchLabels: {app: shop}}',
  '  template:',
  '    metadata: {labels: {app: shop}}',
  '    spec:',
  '      containers: [{name: shop, image: "registry.example/shop:v1"}]',
  '',
].join('\n');

describe('Plan page', () => {
  test('its sweep workers start when the page is shown, one helper a core (2 to 4), and none on the stage', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    await page.waitForTimeout(500);
    assert.equal(page.workers().length, 0, 'the stage starts no worker');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
    const helpers = cores >= 2 ? Math.min(cores, 4) : 0;
    await click(page, 'plan-open');
    const deadline = Date.now() + 20_000;
    while (page.workers().length < 1 + helpers && Date.now() < deadline) await page.waitForTimeout(100);
    assert.equal(page.workers().length, 1 + helpers, 'the sweep worker and its helpers');
    // A sweep shares them and comes back whole, in the sweep's order (the heat map's cells).
    await typeManifest(page, FLOW);
    await click(page, 'sweep-run');
    await sweepDone(page);
    assert.equal(await page.locator(byTestId('sweep-cell')).count(), 121);
    assert.equal(page.workers().length, 1 + helpers, 'kept for the next sweep');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the header’s Plan button opens a page of its own; Back returns; the address keeps it', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    assert.equal(await page.locator(byTestId('plan-view')).isVisible(), false, 'not on the stage page');
    await click(page, 'plan-open');
    await page.locator(`${byTestId('plan-view')}:not([hidden])`).waitFor();
    assert.match(page.url(), /\?view=plan$/);
    assert.equal(await page.locator('.transport').count(), 0, 'no transport bar on the Plan page');
    assert.equal(await page.locator(byTestId('plan-open')).getAttribute('aria-current'), 'page');
    // The text typed here survives a visit to the stage and back.
    await typeManifest(page, manifest({ replicas: 7, surge: 1, unavailable: 0 }));
    await page.goBack();
    await page.locator('.transport').waitFor();
    assert.equal(await page.locator(byTestId('plan-view')).isVisible(), false);
    await page.goForward();
    await page.locator(`${byTestId('plan-view')}:not([hidden])`).waitFor();
    assert.match(await page.locator(byTestId('plan-manifest')).inputValue(), /replicas: 7/);
    await click(page, 'stage-open');
    await page.locator('.transport').waitFor();
    assert.doesNotMatch(page.url(), /view=plan/);
    // A permalink to the page opens it.
    const again = await openPlan();
    assert.equal(await again.locator('.transport').count(), 0);
    assert.deepEqual([...page.errors, ...again.errors], []);
    await page.close();
    await again.close();
  });

  test('its forecast agrees with rollout plan --json for the settings and two typed manifests', async () => {
    const page = await openPlan();
    const m = await model(page);
    // 1. The settings' Deployment, as the page writes it.
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
    const page = await openPlan();
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
    const page = await openPlan();
    const bad = manifest({ replicas: 3, surge: 0, unavailable: 0 });
    await typeManifest(page, bad);
    const r = await cli(bad, flags(await model(page)));
    assert.equal(r.code, 2);
    const shown = await page.locator(byTestId('plan-error')).textContent();
    assert.match(shown, /may not be 0 when `maxSurge` is 0/);
    assert.ok(r.stderr.includes(shown), `the CLI says ${r.stderr}; the view ${shown}`);
    assert.equal(await page.locator(byTestId('forecast')).count(), 0);
    assert.equal(await page.locator(byTestId('plan-watch')).isDisabled(), true, 'nothing to watch');
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

  test('a sweep runs in a worker with progress while the page keeps forecasting, and can be cancelled', async () => {
    const page = await openPlan();
    await typeManifest(page, manifest({ replicas: 100, surge: 5, unavailable: 5 }));
    await page.locator(byTestId('plan-size')).selectOption('20');
    await click(page, 'sweep-run');
    const progress = page.locator(byTestId('sweep-progress'));
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.done) > 0, byTestId('sweep-progress'));
    assert.equal(await progress.getAttribute('data-state'), 'running');
    // The main thread is free: a new manifest is forecast on the page while the sweep runs.
    const small = manifest({ replicas: 4, surge: 1, unavailable: 0 });
    await typeManifest(page, small);
    const want = await cli(small, flags(await model(page)));
    await page.waitForFunction(({ sel, peak }) => document.querySelector(sel)?.dataset.peakPods === String(peak), { sel: byTestId('forecast'), peak: want.json.peakPods });
    assert.deepEqual(await viewForecast(page), pick(want.json));
    assert.equal(await progress.getAttribute('data-state'), 'running', 'still sweeping after the forecast');
    const done = Number(await progress.getAttribute('data-done'));
    assert.ok(done < Number(await progress.getAttribute('data-total')));
    await click(page, 'sweep-cancel');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'stopped', byTestId('sweep-progress'));
    assert.match(await page.locator(byTestId('sweep-message')).textContent(), /cancelled after \d+ of 462/);
    assert.equal(await page.locator(byTestId('sweep-cell')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('an 11 × 11 heat map agrees with rollout plan --sweep; a cell shows duration and peak, and a click edits only its two values', async () => {
    const page = await openPlan();
    const text = manifest({ replicas: 6, surge: 1, unavailable: 1 });
    await typeManifest(page, text);
    await click(page, 'sweep-run');
    await sweepDone(page);
    const cells = await heatCells(page);
    assert.equal(cells.length, 121);
    const r = spawnSync(rollout, ['plan', (await cli(text)).file, '--json', '--sweep', 'maxSurge=0..10', '--sweep', 'maxUnavailable=0..10', ...flags(await model(page))], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout);
    for (const row of rows) {
      const c = cells.find((c) => c.s === row.settings.maxSurge && c.u === row.settings.maxUnavailable);
      assert.ok(c, JSON.stringify(row.settings));
      assert.equal(c.refused, row.forecast === null);
      if (row.forecast) {
        assert.equal(c.v, String(row.forecast.durationSeconds ?? 'null'), JSON.stringify(row.settings));
        const d = row.forecast.durationSeconds == null ? '∞' : `${row.forecast.durationSeconds}s`;
        assert.equal(c.text, `${d} ${row.forecast.peakPods}`, 'duration and peak together');
      }
    }
    assert.deepEqual(cells.filter((c) => c.current).map((c) => [c.s, c.u]), [[1, 1]]);
    // Colour by peak pods: the values change to the CLI's peaks.
    await page.locator(byTestId('plan-figure')).selectOption('peak');
    const cell = `${byTestId('sweep-cell')}[data-max-surge="3"][data-max-unavailable="2"]`;
    const peak = await page.locator(cell).getAttribute('data-value');
    assert.equal(peak, String(rows.find((x) => x.settings.maxSurge === 3 && x.settings.maxUnavailable === 2).forecast.peakPods));
    // The line chart over replicas has a point per value.
    assert.ok((await page.locator(byTestId('line-point')).count()) >= 10);
    // Focus (or hover) reads a cell out.
    await page.locator(cell).focus();
    assert.match(await page.locator(byTestId('sweep-readout')).textContent(), new RegExp(`^maxSurge 3, maxUnavailable 2: .*peak ${peak} pods`));
    // A click loads the cell into the manifest: those two values, nothing else.
    await page.locator(cell).click();
    await page.waitForFunction((sel) => document.querySelector(`${sel}[aria-current="true"]`)?.dataset.maxSurge === '3', byTestId('sweep-cell'));
    assert.equal(await page.locator(byTestId('plan-manifest')).inputValue(), text.replace('maxSurge: 1', 'maxSurge: 3').replace('maxUnavailable: 1', 'maxUnavailable: 2'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a person’s manifest: forecast, an assumption, limits, a cell loaded in its own style, Watch it', async () => {
    const page = await openPlan();
    await typeManifest(page, FLOW);
    let m = await model(page);
    let want = await cli(FLOW, flags(m));
    assert.equal(want.code, 0, want.stderr);
    await page.waitForFunction(({ sel, peak }) => document.querySelector(sel)?.dataset.peakPods === String(peak), { sel: byTestId('forecast'), peak: want.json.peakPods });
    assert.deepEqual(await viewForecast(page), pick(want.json));
    // An assumption changed here: a 20 s image pull (no probes: the pods are Ready once
    // pulled and running).
    await page.locator(byTestId('assume-pull')).fill('20');
    await page.waitForFunction((sel) => JSON.parse(document.querySelector(sel).dataset.model).pull === '20', byTestId('plan-model'));
    m = await model(page);
    want = await cli(FLOW, flags(m));
    await page.waitForFunction(({ sel, start }) => document.querySelector(sel)?.dataset.startRound === String(start), { sel: byTestId('forecast'), start: want.json.startRound });
    assert.deepEqual(await viewForecast(page), pick(want.json));
    // A sweep with limits: at most 24 pods, at least 11 available. (Pods without probes are
    // Ready once pulled: after the first waves every node has the image and the rest go at
    // once, each old pod terminating for 30 s beside its replacement, so no combination stays
    // under 22 pods; 12 running + 12 terminating = 24 is the bound that leaves a choice.)
    await click(page, 'sweep-run');
    await sweepDone(page);
    await page.locator(byTestId('limit-peak')).fill('24');
    await page.locator(byTestId('limit-available')).fill('11');
    await page.locator(byTestId('sweep-fastest')).waitFor();
    const r = spawnSync(rollout, ['plan', (await cli(FLOW)).file, '--json', '--sweep', 'maxSurge=0..10', '--sweep', 'maxUnavailable=0..10', ...flags(m)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout);
    const cells = await heatCells(page);
    const ok = (f) => f && f.peakPods <= 24 && (f.minAvailable ?? 0) >= 11;
    for (const row of rows) {
      const c = cells.find((c) => c.s === row.settings.maxSurge && c.u === row.settings.maxUnavailable);
      assert.equal(c.breaks, row.forecast !== null && !ok(row.forecast), `greyed: ${JSON.stringify(row)}`);
    }
    // The fastest allowed: shortest duration, then fewer pods, then more available, then first.
    const best = rows
      .filter((row) => ok(row.forecast) && row.forecast.durationSeconds != null)
      .sort((a, b) => a.forecast.durationSeconds - b.forecast.durationSeconds || a.forecast.peakPods - b.forecast.peakPods || b.forecast.minAvailable - a.forecast.minAvailable)[0];
    assert.ok(best, 'some combination keeps both limits');
    assert.deepEqual(cells.filter((c) => c.fastest).map((c) => [c.s, c.u]), [[best.settings.maxSurge, best.settings.maxUnavailable]]);
    // Load it: the two values change in the flow mapping; comments, order and 12 replicas stay.
    await page.locator(`${byTestId('sweep-cell')}[data-fastest="true"]`).click();
    const loaded = FLOW.replace('{maxUnavailable: 0, maxSurge: 1}', `{maxUnavailable: ${best.settings.maxUnavailable}, maxSurge: ${best.settings.maxSurge}}`);
    await page.waitForFunction(({ sel, text }) => document.querySelector(sel)?.value === text, { sel: byTestId('plan-manifest'), text: loaded });
    want = await cli(loaded, flags(m));
    await page.waitForFunction(({ sel, d }) => document.querySelector(sel)?.dataset.durationSeconds === String(d), { sel: byTestId('forecast'), d: want.json.durationSeconds });
    assert.deepEqual(await viewForecast(page), pick(want.json));
    assert.equal(want.json.durationSeconds, best.forecast.durationSeconds);
    // Watch it: the stage, with this Deployment as planned (12 replicas, the cell's settings).
    await click(page, 'plan-watch');
    await page.locator('.transport').waitFor();
    assert.doesNotMatch(page.url(), /view=plan/);
    assert.equal(await page.locator(byTestId('replicas-input')).inputValue(), '12');
    assert.equal(await page.locator(byTestId('max-surge-input')).inputValue(), String(best.settings.maxSurge));
    assert.equal(await page.locator(byTestId('max-unavailable-input')).inputValue(), String(best.settings.maxUnavailable));
    await page.waitForFunction((sel) => /shop/.test(document.querySelector(sel)?.textContent ?? ''), byTestId('stage'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('settings changed on the stage are offered to an edited manifest and applied in place', async () => {
    const page = await openPlan();
    await typeManifest(page, FLOW);
    await click(page, 'stage-open');
    await page.locator(byTestId('replicas-input')).fill('5');
    await click(page, 'plan-open');
    await page.locator(byTestId('plan-settings-changed')).waitFor();
    assert.match(await page.locator(byTestId('plan-settings-changed')).textContent(), /replicas 5/);
    assert.equal(await page.locator(byTestId('plan-manifest')).inputValue(), FLOW, 'left as it is until applied');
    await click(page, 'plan-apply-settings');
    await page.waitForFunction(({ sel, text }) => document.querySelector(sel)?.value === text, { sel: byTestId('plan-manifest'), text: FLOW.replace('replicas: 12 ', 'replicas: 5 ') });
    assert.equal(await page.locator(byTestId('plan-settings-changed')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('an HA Deployment whose surge pod fits no node never completes, with the scheduler\'s text, as rollout plan says; screenshots', async () => {
    // 3 replicas, one per node (required anti-affinity on the hostname), maxUnavailable 0: on
    // the page's 3 nodes the surge pod is Pending for good and the progress deadline fires.
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: checkout}',
      'spec:',
      '  replicas: 3',
      '  progressDeadlineSeconds: 120',
      '  selector: {matchLabels: {app: checkout}}',
      '  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}',
      '  template:',
      '    metadata: {labels: {app: checkout}}',
      '    spec:',
      '      affinity:',
      '        podAntiAffinity:',
      '          requiredDuringSchedulingIgnoredDuringExecution:',
      '          - labelSelector: {matchLabels: {app: checkout}}',
      '            topologyKey: kubernetes.io/hostname',
      '      containers: [{name: checkout, image: "registry.example/checkout:v1", resources: {requests: {cpu: 300m}}}]',
      '',
    ].join('\n');
    for (const [width, height] of [[1280, 720], [390, 844]]) {
      const page = await openPlan();
      await page.setViewportSize({ width, height });
      // The page starts from no assumption, as the CLI does: rollout plan's 3 nodes.
      const m = await model(page);
      await typeManifest(page, text);
      const want = await cli(text, flags(m));
      assert.equal(want.json.model.nodes, 3, 'planned on 3 nodes');
      assert.equal(want.code, 0, want.stderr);
      assert.equal(want.json.completeRound, null);
      assert.match(want.json.unschedulable.message, /^0\/3 nodes are available: 3 node\(s\) didn't match pod anti-affinity rules\. preemption: /);
      const stuck = page.locator(byTestId('plan-unschedulable'));
      await stuck.waitFor();
      assert.deepEqual(await viewForecast(page), pick(want.json));
      const shown = await stuck.textContent();
      assert.ok(shown.includes(want.json.unschedulable.reason), shown);
      assert.ok(shown.includes(want.json.unschedulable.message), shown);
      assert.equal(await stuck.getAttribute('data-pod'), 'checkout-rev2-00001');
      // plan() from the module says the same.
      const api = await page.evaluate(async ({ text, nodes }) => {
        const mod = await import('./rollout-lab.js');
        await mod.loadYaml();
        return mod.plan(text, nodes === undefined ? {} : { nodes }).unschedulable;
      }, { text, nodes: m.nodes });
      assert.equal(api.message, want.json.unschedulable.message);
      assert.equal(await horizontalOverflow(page), 0, 'nothing overflows the page');
      await stuck.scrollIntoViewIfNeeded();
      await screenshot(page, `plan-unschedulable-${width}x${height}`, { fullPage: false });
      if (width === 1280) {
        // Watch it: on the stage the surge pod stays Pending, unbound, its token saying why.
        await click(page, 'plan-watch');
        await page.locator('.transport').waitFor();
        await click(page, 'end-button');
        const pod = page.locator(`${byTestId('stage')} [data-pod="checkout-rev2-00001"]`);
        await pod.waitFor();
        await page.waitForFunction(
          ({ sel, msg }) => document.querySelector(sel)?.dataset.unschedulable === msg,
          { sel: `${byTestId('stage')} [data-pod="checkout-rev2-00001"]`, msg: want.json.unschedulable.message },
        );
        assert.equal(await pod.getAttribute('data-state'), 'pending');
        assert.equal(await pod.getAttribute('data-node'), '');
        assert.ok((await pod.getAttribute('aria-label')).endsWith(want.json.unschedulable.message));
        // Pointing at it reads out why.
        await pod.hover();
        await page.waitForFunction((msg) => document.body.textContent.includes(`Pending, not scheduled, registry.example/checkout:v2 · ${msg}`), want.json.unschedulable.message);
        await screenshot(page, 'stage-unschedulable-1280x720', { fullPage: false });
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  for (const [width, height, scheme] of [[1280, 720, 'light'], [1920, 1080, 'dark'], [390, 844, 'dark']]) {
    test(`${width}×${height} ${scheme}: the manifest, the assumptions, the figures and the sweep; screenshots`, async () => {
      const page = await openPlan();
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await typeManifest(page, FLOW);
      await click(page, 'sweep-run');
      await sweepDone(page);
      await page.locator(byTestId('limit-peak')).fill('14');
      assert.equal(await page.locator(byTestId('sweep-cell')).count(), 121);
      assert.equal(await horizontalOverflow(page), 0, 'nothing overflows the page');
      const outside = await page.locator(byTestId('sweep-cell')).evaluateAll((cells) =>
        cells.filter((c) => { const r = c.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; }).length,
      );
      assert.equal(outside, 0, 'cells outside the viewport');
      assert.equal(await page.locator('.transport').count(), 0, 'no transport bar over the page');
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `plan-page-${width}x${height}-${scheme}`, { fullPage: false });
      if (width < 1280) await screenshot(page, `plan-page-${width}x${height}-${scheme}-full`);
      if (width >= 1280) {
        // One screen: the editor, the assumptions, the figures, the controls and the whole heat map.
        for (const id of ['plan-manifest', 'plan-model', 'forecast', 'sweep-run', 'limit-peak', 'sweep-heatmap']) {
          const box = await page.locator(byTestId(id)).boundingBox();
          assert.ok(box && box.y >= 0 && box.y + box.height <= height + 1, `${id} on the first screen: ${JSON.stringify(box)}`);
        }
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('no axe-core violations on the Plan page, with a sweep and limits', async () => {
    const page = await openPlan();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await typeManifest(page, FLOW);
    await click(page, 'sweep-run');
    await sweepDone(page);
    await page.locator(byTestId('limit-peak')).fill('14');
    await page.locator(byTestId('sweep-fastest')).waitFor();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await axeAudit(page, `Plan page (${scheme})`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('the sweep if the new version fails (issue #34)', () => {
  test('the heat map colours by availability lost if it fails, as rollout plan --sweep --fail says', async () => {
    const page = await openPlan();
    const text = manifest({ replicas: 4, surge: 1, unavailable: 0 });
    await typeManifest(page, text);
    await page.locator(byTestId('plan-figure')).selectOption('lost-if-fails');
    // No failure yet: the page says how to get the figure.
    await page.locator(byTestId('lost-if-fails-hint')).waitFor();
    await page.locator(byTestId('plan-fail')).fill('pull');
    await page.locator(byTestId('fail-forecast')).waitFor();
    assert.equal(await page.locator(byTestId('lost-if-fails-hint')).count(), 0);
    await click(page, 'sweep-run');
    await sweepDone(page);
    const cells = await heatCells(page);
    assert.equal(cells.length, 121);
    const { fail, ...rest } = await model(page);
    assert.equal(fail, 'pull');
    const r = spawnSync(rollout, ['plan', (await cli(text)).file, '--json', '--sweep', 'maxSurge=0..10', '--sweep', 'maxUnavailable=0..10', '--fail', 'pull', ...flags(rest)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout);
    for (const row of rows) {
      const c = cells.find((c) => c.s === row.settings.maxSurge && c.u === row.settings.maxUnavailable);
      assert.equal(c.v, String(row.ifItFails?.capacityLost ?? 'null'), JSON.stringify(row.settings));
    }
    // An image that cannot be pulled: maxUnavailable 0 loses nothing, 2 loses 2 of 4.
    assert.equal(cells.find((c) => c.s === 1 && c.u === 0).v, '0');
    assert.equal(cells.find((c) => c.s === 1 && c.u === 2).v, '2');
    const title = await page.locator(`${byTestId('sweep-cell')}[data-max-surge="1"][data-max-unavailable="2"]`).getAttribute('title');
    assert.match(title, /; if it fails \(pull\): 2 of 4 lost for \d+ s/);
    await page.locator(byTestId('sweep-heatmap')).scrollIntoViewIfNeeded();
    await screenshot(page, 'plan-lost-if-fails-1280x720', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('what users see of the rollout (issue #35)', () => {
  test('the failed requests follow the load and the pod capacity typed, as rollout plan --json says, and colour the heat map', async () => {
    const page = await openPlan();
    const text = manifest({ replicas: 4, surge: 1, unavailable: 1 });
    await typeManifest(page, text);
    const traffic = page.locator(byTestId('plan-traffic'));
    await traffic.waitFor();
    const figures = async () => ({
      failed: Number(await traffic.getAttribute('data-failed-requests')),
      sent: Number(await traffic.getAttribute('data-sent-requests')),
      lowest: Number(await traffic.getAttribute('data-lowest-served')),
      shown: await page.locator(byTestId('plan-failed-requests')).textContent(),
    });
    /** Types `value` into the assumption `name` and waits for a new traffic figure. */
    const assume = async (name, value) => {
      const before = await traffic.getAttribute('data-sent-requests') + '/' + await traffic.getAttribute('data-failed-requests');
      await page.locator(byTestId(`assume-${name}`)).fill(String(value));
      await page.waitForFunction(
        ({ sel, before }) => {
          const d = document.querySelector(sel)?.dataset;
          return d && `${d.sentRequests}/${d.failedRequests}` !== before;
        },
        { sel: byTestId('plan-traffic'), before },
      );
      return figures();
    };
    // The defaults (100 req/s, 1 s endpoint delay, an exit at once, no readiness probe): each
    // deleted pod is still sent its share until the change reaches the proxies.
    const base = await figures();
    const cliBase = (await cli(text)).json.traffic;
    assert.equal(base.failed, cliBase.failed);
    assert.equal(base.sent, cliBase.sent);
    assert.ok(base.failed > 0, JSON.stringify(base));
    assert.equal(base.shown.replace(/\D/g, ''), String(base.failed));
    // The traffic assumptions are folded under a summary of what the forecast assumes.
    const group = page.locator(byTestId('assume-traffic'));
    assert.match(await group.locator('summary').textContent(), /Service and requests · 100 req\/s/);
    assert.equal(await page.locator(byTestId('assume-load')).isVisible(), false, 'closed at first');
    await group.locator('summary').click();
    await page.locator(byTestId('assume-load')).waitFor();
    // Four times the load: four times the requests sent to pods that no longer answer.
    const heavy = await assume('load', 400);
    const cliHeavy = (await cli(text, ['--load', '400'])).json.traffic;
    assert.equal(heavy.failed, cliHeavy.failed);
    assert.ok(heavy.failed > base.failed, `${heavy.failed} > ${base.failed}`);
    // A pod serves at most 50 req/s: 4 pods take 200 of the 400, the rest fail over capacity.
    const capped = await assume('podCapacity', 50);
    const cliCapped = (await cli(text, ['--load', '400', '--pod-capacity', '50'])).json.traffic;
    assert.equal(capped.failed, cliCapped.failed);
    assert.ok(capped.failed > heavy.failed && capped.lowest <= 0.5, JSON.stringify(capped));
    assert.match(await group.locator('summary').textContent(), /· 400 req\/s, capacity 50/);
    await page.locator(byTestId('forecast')).scrollIntoViewIfNeeded();
    await screenshot(page, 'plan-traffic-1280x720', { fullPage: false });
    // A load out of range is refused with the core's message, and nothing is lost.
    await page.locator(byTestId('assume-load')).fill('0');
    await page.locator(byTestId('plan-error')).waitFor();
    assert.match(await page.locator(byTestId('plan-error')).textContent(), /load/);
    await page.locator(byTestId('assume-load')).fill('400');
    await traffic.waitFor();
    assert.equal((await figures()).failed, capped.failed);
    // If the new image cannot be pulled: its failed requests, as rollout plan --fail pull says.
    await page.locator(byTestId('plan-fail')).fill('pull');
    const failing = page.locator(`${byTestId('fail-forecast')}[data-failed-requests]`);
    await failing.waitFor();
    const cliFail = (await cli(text, ['--load', '400', '--pod-capacity', '50', '--fail', 'pull'])).json.ifItFails;
    assert.equal(Number(await failing.getAttribute('data-failed-requests')), cliFail.failedRequests);
    await page.locator(byTestId('plan-fail')).fill('');
    // The heat map coloured by failed requests: the current settings' cell is the figure above.
    await page.locator(byTestId('plan-figure')).selectOption('failed-requests');
    await click(page, 'sweep-run');
    await sweepDone(page);
    const cells = await heatCells(page);
    assert.equal(cells.find((c) => c.s === 1 && c.u === 1).v, String(capped.failed));
    assert.ok(cells.some((c) => Number(c.v) !== capped.failed), 'the settings change the figure');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
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
    // part [k, n]: the combinations k, k + n … (the Plan page's workers share a sweep so);
    // the parts, dealt back in turn, are the whole sweep.
    const parts = await page.evaluate(async ({ man, options }) => {
      const m = await import('./rollout-lab.js');
      const axes = { maxSurge: '0..2', maxUnavailable: [0, 1, '25%'] };
      const seen = [];
      const a = m.sweep(man, axes, { ...options, part: [0, 2], onProgress: (d, t) => seen.push([d, t]) });
      const b = m.sweep(man, axes, { ...options, part: [1, 2] });
      const refused = [[2, 2], [0, 0], [0.5, 2], [0, 65], 'all', [0]].map((part) => {
        try {
          m.sweep(man, axes, { ...options, part });
          return 'no error';
        } catch (e) {
          return e.message;
        }
      });
      return { a, b, seen, refused };
    }, { man, options });
    assert.deepEqual([parts.a.length, parts.b.length], [5, 4]);
    assert.deepEqual(parts.seen.at(-1), [5, 5]);
    const dealt = swept.rows.map((_, i) => (i % 2 ? parts.b : parts.a)[Math.floor(i / 2)]);
    assert.deepEqual(dealt, swept.rows);
    for (const m of parts.refused) assert.match(m, /^Invalid plan options: part must be \[k, n\]/);
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
