// Share, embed and import in real Chromium: a permalink restores the same step and state in a
// fresh page; damaged links load what they can and say what they ignored; the embed layout and
// the embedding demo page with its two iframes and its scripted instance; the JavaScript API
// (dist/rollout-lab.js) against the conformance traces, checked by the fixtures' compare.py; a
// real-looking `kubectl get deployment -o yaml` import; and the exports.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { conformanceDir, distDir, repoRoot } from '../lib/paths.mjs';
import { screenshot } from '../lib/screens.mjs';
import {
  CUSTOM,
  byTestId,
  expectText,
  fill,
  openApp,
  rolloutStatus,
  roundInfo,
  rsCards,
  stepToRound,
  text,
} from '../lib/app.mjs';
import { click, servedApp } from '../lib/suite.mjs';

const app = servedApp();
let tmp;

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rollout-share-'));
});

after(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** Opens a page that shows the embed layout (no h1), collecting errors like openApp. */
async function openEmbed(context, url, viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  await page.goto(url);
  await page.locator(byTestId('embed')).waitFor({ timeout: 15_000 });
  return Object.assign(page, { errors });
}

/** Moves a range input to a position, firing `input` as a user's drag does. */
async function setRange(locator, index) {
  await locator.evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, index);
}

/** Everything the page shows about the simulation that a restore must reproduce. */
async function snapshot(page) {
  return {
    info: await roundInfo(page),
    cards: await rsCards(page),
    status: await rolloutStatus(page),
    pending: await page
      .locator(byTestId('pending-action'))
      .evaluateAll((els) => els.map((e) => [e.dataset.type, e.dataset.round, e.textContent])),
    explanation: await text(page, 'explanation-headline'),
    replicas: await page.locator(byTestId('replicas-input')).inputValue(),
    maxSurge: await page.locator(byTestId('max-surge-input')).inputValue(),
    maxUnavailable: await page.locator(byTestId('max-unavailable-input')).inputValue(),
  };
}

/** Runs the fixtures' compare.py on two files; returns its last line. */
function compare(expected, actual) {
  let out;
  try {
    out = execFileSync('python3', [path.join(conformanceDir, 'compare.py'), expected, actual], { encoding: 'utf8' });
  } catch (e) {
    out = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  return out.trim().split('\n').at(-1);
}

const KUBECTL_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "2"
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"checkout","namespace":"shop"},"spec":{"replicas":6}}
  creationTimestamp: "2024-05-01T10:00:00Z"
  generation: 2
  labels:
    app: checkout
    team: payments
  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          .: {}
          f:kubectl.kubernetes.io/last-applied-configuration: {}
      f:spec:
        f:replicas: {}
    manager: kubectl-client-side-apply
    operation: Update
    time: "2024-05-01T10:00:00Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    manager: kube-controller-manager
    operation: Update
    subresource: status
    time: "2024-05-01T10:02:11Z"
  name: checkout
  namespace: shop
  resourceVersion: "48211"
  uid: 6f1d2c3b-8a9e-4c1f-b2d3-0e9f8a7b6c5d
spec:
  progressDeadlineSeconds: 600
  replicas: 6
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: checkout
  strategy:
    rollingUpdate:
      maxSurge: 2
      maxUnavailable: 0
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: checkout
        team: payments
    spec:
      containers:
      - image: registry.example.com/shop/checkout:3.4.1
        imagePullPolicy: IfNotPresent
        name: checkout
        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        readinessProbe:
          httpGet:
            path: /healthz
            port: http
          periodSeconds: 5
        resources:
          limits:
            memory: 256Mi
          requests:
            cpu: 100m
            memory: 128Mi
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      - image: envoyproxy/envoy:v1.30.1
        name: envoy
        resources: {}
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 6
  conditions:
  - lastTransitionTime: "2024-05-01T10:00:05Z"
    lastUpdateTime: "2024-05-01T10:00:05Z"
    message: Deployment has minimum availability.
    reason: MinimumReplicasAvailable
    status: "True"
    type: Available
  - lastTransitionTime: "2024-05-01T10:00:00Z"
    lastUpdateTime: "2024-05-01T10:02:11Z"
    message: ReplicaSet "checkout-7d9f8b6c5d" has successfully progressed.
    reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
  observedGeneration: 2
  readyReplicas: 6
  replicas: 6
  updatedReplicas: 6
`;

describe('permalinks', () => {
  test('a link restores the same step and state in a fresh page', async () => {
    // The settled default (1 s rounds, pods ready after 5 of them): Round runs the idle rounds
    // that Step skips, and the link carries the single syncs taken (`syncs=`), so the restored
    // page shows the same count (`data-steps`) as well as the same moment.
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await app.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    await fill(page, 'replicas-input', '5');
    await fill(page, 'max-surge-input', '1');
    await fill(page, 'max-unavailable-input', '0');
    await stepToRound(page, 3);
    await click(page, 'update-image-button');
    await stepToRound(page, 6);
    await click(page, 'step-button');
    await click(page, 'step-button');
    // A spec change after the start is queued as kubectl would send it.
    await fill(page, 'replicas-input', '7');
    await click(page, 'apply-button');
    const before = await snapshot(page);
    assert.equal(before.pending.length, 1, 'the scale is pending');

    await click(page, 'copy-link-button');
    await expectText(page, 'share-status', 'Copied to the clipboard');
    const link = await page.locator(byTestId('share-link')).inputValue();
    assert.ok(link.startsWith(`${app.server.url}#s=(`), link);
    assert.ok(link.length < 300, `compact: ${link.length} characters`);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    assert.equal(await page.evaluate(() => location.href), link, 'the address bar has it too');
    await screenshot(page, 'share-link-dialog', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();

    const from = app.server.requests.length;
    const fresh = await openApp(app.browser.context, link);
    await fresh.locator(byTestId('rs-card')).first().waitFor();
    assert.deepEqual(await snapshot(fresh), before);
    // The page's one module reads the link: one wasm file, fetched once.
    const loaded = app.server.requests.slice(from);
    assert.deepEqual(loaded.filter((r) => r.endsWith('.wasm')), ['/rollout-lab_bg.wasm'], `${loaded}`);
    assert.equal(await fresh.locator(byTestId('notice')).count(), 0);
    // The restored session goes on exactly like the original.
    await click(fresh, 'step-round-button');
    assert.equal((await roundInfo(fresh)).round, before.info.round + 1);
    assert.deepEqual(fresh.errors, []);
    await fresh.close();
  });

  test('a link made after idle rounds (settled default, Step only) reopens at the moment it showed', async () => {
    // Step skips the rounds in which nothing changes (pods ready after 5 of them); links of
    // version 2 count Steps, so they reopen where they were (format 1 counted single syncs).
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await app.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    await fill(page, 'replicas-input', '5');
    await fill(page, 'max-surge-input', '1');
    await fill(page, 'max-unavailable-input', '0');
    for (let i = 0; i < 4; i++) await click(page, 'step-button');
    await click(page, 'update-image-button');
    for (let i = 0; i < 5; i++) await click(page, 'step-button');
    const shown = async (p) => ({
      seconds: await p.locator(byTestId('clock')).getAttribute('data-seconds'),
      lanes: await p
        .locator(byTestId('rs-lane'))
        .evaluateAll((els) => els.map((e) => [e.dataset.name, e.dataset.ready, e.dataset.available])),
    });
    const before = await shown(page);
    assert.ok(before.lanes.length >= 2, `both ReplicaSets show: ${JSON.stringify(before.lanes)}`);
    assert.ok(Number(before.seconds) > 0, 'time has passed');
    await click(page, 'copy-link-button');
    await expectText(page, 'share-status', 'Copied to the clipboard');
    const link = await page.evaluate(() => location.href);
    assert.match(link, /&v=2/);
    assert.deepEqual(page.errors, []);
    await page.close();

    const fresh = await openApp(app.browser.context, link);
    await fresh.locator(byTestId('rs-lane')).first().waitFor();
    assert.deepEqual(await shown(fresh), before);
    assert.equal(await fresh.locator(byTestId('notice')).count(), 0);
    assert.deepEqual(fresh.errors, []);
    await fresh.close();
  });

  test('a damaged link loads what it can, says what it ignored, and never breaks the app', async () => {
    // One bad field and one bad action: the rest is used.
    const page = await openApp(
      app.browser.context,
      `${app.server.url}#s=(n:x,sp:0,nd:2,a:!((t:c,d:(n:web,i:'nginx:1.14.2',rp:5)),(r:2,t:teleport)))&at=7&zz=1`,
    );
    await expectText(page, 'notice', 'Parts of this link were ignored');
    const notice = await text(page, 'notice');
    assert.match(notice, /`secondsPerRound: 0` \(must be at least 1, so 1 is used\)/);
    assert.match(notice, /action 2 \(round 2\): unknown action type `teleport`/);
    assert.match(notice, /the unknown part `zz`/);
    assert.equal(await page.locator(byTestId('replicas-input')).inputValue(), '5');
    assert.equal(await page.locator(byTestId('nodes-input')).inputValue(), '2');
    // A link without a version counts single syncs.
    const info = await roundInfo(page);
    assert.equal(info.steps, 7);
    await screenshot(page, 'share-broken-link-notice', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();

    // Nothing usable: the default scenario, and a notice saying so.
    for (const hash of ['#s=((((%%%&at=banana', '#s=(a:!((t:si,i:x)))', '#s=(a:!((t:c,d:(n:web,i:a,rp:99999999))))']) {
      const p = await openApp(app.browser.context, `${app.server.url}${hash}`);
      await expectText(p, 'notice', 'This link could not be used');
      assert.match(await text(p, 'notice'), /shows the default scenario instead/);
      assert.equal(await p.locator(byTestId('replicas-input')).inputValue(), '3', hash);
      assert.equal((await roundInfo(p)).round, 0);
      await click(p, 'step-button');
      assert.ok((await roundInfo(p)).steps >= 1, 'the app still works');
      assert.deepEqual(p.errors, [], hash);
      await p.close();
    }
  });

  test('a link cut short keeps what it has', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 2);
    await click(page, 'update-image-button');
    await stepToRound(page, 4);
    await click(page, 'copy-link-button');
    const link = await page.locator(byTestId('share-link')).inputValue();
    await page.close();
    const cut = link.slice(0, link.indexOf(',t:si'));
    const p = await openApp(app.browser.context, cut);
    await expectText(p, 'notice', 'the link was cut short');
    assert.equal(await p.locator(byTestId('replicas-input')).inputValue(), '3');
    assert.deepEqual(p.errors, []);
    await p.close();
  });
});

describe('embedding', () => {
  test('?embed: a compact layout with the chosen controls and a way back to the full app', async () => {
    const url = `${app.server.url}?embed&controls=step,replicas,maxSurge#p=rolling-basic&at=3`;
    const page = await openEmbed(app.browser.context, url, { width: 800, height: 500 });
    // No page chrome: not the app's header nor its preset menu. The page's one h1 is the embed's
    // own title (the iframe page keeps its landmarks: a main and an h1).
    assert.equal(await page.locator('.app-header').count(), 0, 'no page chrome');
    assert.equal(await page.locator(byTestId('preset-select')).count(), 0, 'no page chrome');
    assert.deepEqual(await page.locator('h1').evaluateAll((h) => h.map((e) => e.dataset.testid)), ['embed-title']);
    assert.equal(await page.locator('main').count(), 1);
    assert.equal(await page.locator(byTestId('play-button')).count(), 0, 'only the chosen controls');
    assert.equal(await page.locator(byTestId('max-unavailable-slider')).count(), 0);
    assert.equal((await roundInfo(page)).steps, 3);
    // The layout fits the iframe: nothing scrolls.
    const overflow = await page.evaluate(() => [
      document.documentElement.scrollWidth - innerWidth,
      document.documentElement.scrollHeight - innerHeight,
    ]);
    assert.deepEqual(overflow, [0, 0]);
    // Stepping, and a slider that applies like kubectl.
    await click(page, 'step-button');
    const stepped = (await roundInfo(page)).steps;
    assert.ok(stepped > 3, 'a step to the next change: one sync or more');
    await setRange(page.locator(byTestId('max-surge-slider')), 2);
    await expectText(page, 'max-surge-slider-value', '2');
    await expectText(page, 'embed-pending', 'kubectl patch');
    await expectText(page, 'embed-title', 'maxSurge 2');
    const open = await page.locator(byTestId('open-in-lab')).getAttribute('href');
    assert.ok(open.startsWith(`${app.server.url}#s=(`), open);
    await screenshot(page, 'share-embed-800x500', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();

    // Every control at once still fits 800 × 500, in light and dark.
    for (const colorScheme of ['light', 'dark']) {
      const all = await openEmbed(
        app.browser.context,
        `${app.server.url}?embed&controls=step,round,play,image,reset,strategy,replicas,maxSurge,maxUnavailable#p=bad-image-stuck&at=40`,
        { width: 800, height: 500 },
      );
      await all.emulateMedia({ colorScheme });
      assert.deepEqual(
        await all.evaluate(() => [document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight]),
        [0, 0],
        colorScheme,
      );
      if (colorScheme === 'dark') await screenshot(all, 'share-embed-all-controls-dark', { fullPage: false });
      assert.deepEqual(all.errors, []);
      await all.close();
    }

    // "Open in Rollout Lab" opens the same session in the full app.
    const full = await openApp(app.browser.context, open);
    assert.equal((await roundInfo(full)).steps, stepped);
    const pending = await full.locator(byTestId('pending-action')).evaluateAll((els) => els.map((e) => e.dataset.type));
    assert.deepEqual(pending, ['setImage', 'setStrategy'], 'the preset\'s update and the slider\'s patch');
    assert.deepEqual(full.errors, []);
    await full.close();
  });

  test('the Embed button writes an iframe snippet for this session', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=5`);
    await click(page, 'embed-button');
    assert.match(await page.locator(byTestId('embed-snippet')).inputValue(), /\?embed#s=\(/, 'default controls');
    await page.locator(byTestId('embed-control-play')).uncheck();
    await page.locator(byTestId('embed-control-maxSurge')).check();
    const snippet = await page.locator(byTestId('embed-snippet')).inputValue();
    assert.match(snippet, /^<iframe src="[^"]+\?embed&amp;controls=step,image,reset,maxSurge#s=\(/);
    assert.match(snippet, /width="800" height="500"/);
    await screenshot(page, 'share-embed-dialog', { fullPage: false });
    const preview = await page.locator(byTestId('embed-preview')).getAttribute('href');
    await page.close();
    const embed = await openEmbed(app.browser.context, preview, { width: 800, height: 500 });
    assert.equal((await roundInfo(embed)).steps, 5);
    assert.equal(await embed.locator(byTestId('play-button')).count(), 0);
    assert.equal(await embed.locator(byTestId('max-surge-slider')).count(), 1);
    assert.deepEqual(embed.errors, []);
    await embed.close();
    // While comparing, Copy link carries B (`cmp=`); the embed shows one stage and does not.
    const cmp = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=5&cmp=RollingUpdate,1,0,3,0`);
    await cmp.locator(byTestId('stage-b')).waitFor();
    await click(cmp, 'copy-link-button');
    assert.match(await cmp.locator(byTestId('share-link')).inputValue(), /[#&]cmp=RollingUpdate,1,0,3,0/);
    await click(cmp, 'embed-button');
    assert.doesNotMatch(await cmp.locator(byTestId('embed-snippet')).inputValue(), /cmp=/);
    assert.doesNotMatch(await cmp.locator(byTestId('embed-preview')).getAttribute('href'), /cmp=/);
    assert.deepEqual(cmp.errors, []);
    await cmp.close();
  });

  test('the embedding demo: two iframes and an element step on their own, a fourth is driven by the page script', async () => {
    const page = await app.browser.context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(`console: ${msg.text()}`));
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${app.server.url}embed-demo.html`);
    await expectText(page, 'demo-trace-summary', 'complete 9 rounds after the image changes', 15_000);
    await expectText(page, 'demo-trace-summary', 'maxSurge 1 / maxUnavailable 0 takes 17 rounds');

    const frames = {};
    for (const id of ['demo-frame-a', 'demo-frame-b']) {
      await page.locator(byTestId(id)).scrollIntoViewIfNeeded();
      const f = page.frameLocator(byTestId(id));
      await f.locator(byTestId('embed')).waitFor({ timeout: 15_000 });
      frames[id] = f;
    }
    const steps = (f) => f.locator(byTestId('round')).getAttribute('data-steps');
    const a = frames['demo-frame-a'];
    const b = frames['demo-frame-b'];
    for (let i = 0; i < 3; i++) await a.locator(byTestId('step-button')).click();
    assert.equal(await steps(a), '3');
    assert.equal(await steps(b), '0', 'the other instance has not moved');
    for (let i = 0; i < 5; i++) await b.locator(byTestId('step-round-button')).click();
    assert.equal(await b.locator(byTestId('round')).getAttribute('data-round'), '5');
    assert.equal(await steps(a), '3');
    // Each instance runs its own strategy: after the image change, 25% / 25% lets one old pod
    // go at once; maxUnavailable 0 keeps all 4.
    for (let i = 0; i < 3; i++) await a.locator(byTestId('step-round-button')).click();
    const available = async (f) =>
      f.locator(byTestId('rs-card')).evaluateAll((cards) => cards.reduce((n, c) => n + Number(c.dataset.available), 0));
    assert.equal(await b.locator(byTestId('rs-card')).count(), 2, 'frame b is rolling out');
    assert.equal(await available(b), 4);

    // The scripted instance: page buttons call the API; an onStep listener writes the caption.
    await page.locator(byTestId('demo-scripted')).scrollIntoViewIfNeeded();
    await expectText(page, 'demo-caption', 'round 0, step 0: nothing created yet');
    await click(page, 'demo-next-round');
    await click(page, 'demo-next-round');
    await expectText(page, 'demo-caption', 'round 2, step');
    await expectText(page, 'demo-caption', 'web-rev1 0/3');
    await click(page, 'demo-rollout');
    await expectText(page, 'demo-caption', 'queued: kubectl set image deployment/web app=nginx:1.16.1');
    await click(page, 'demo-careful');
    await click(page, 'demo-next-round');
    await click(page, 'demo-next-round');
    await expectText(page, 'demo-caption', 'round 4');
    await expectText(page, 'demo-caption', 'web-rev2');
    const scripted = page.locator(byTestId('demo-scripted'));
    assert.match(await scripted.locator(byTestId('embed-title')).textContent(), /maxSurge 1 \/ maxUnavailable 0/);
    assert.equal(await scripted.locator(byTestId('round')).getAttribute('data-round'), '4');

    // The element: its own lab, and its rollout-step events write the caption under it.
    const element = page.locator(byTestId('demo-element'));
    await element.scrollIntoViewIfNeeded();
    const aSteps = await steps(a);
    for (let i = 0; i < 2; i++) await element.locator(byTestId('step-button')).click();
    await expectText(page, 'demo-element-caption', 'round 0, step 2');
    assert.equal(await element.locator(byTestId('round')).getAttribute('data-steps'), '2');
    assert.equal(await steps(a), aSteps, 'the iframes have not moved');
    assert.equal(await scripted.locator(byTestId('round')).getAttribute('data-round'), '4');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'share-embed-demo');
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('the JavaScript API (dist/rollout-lab.js)', () => {
  /** A blank page on the app's origin, for importing the module by hand. */
  async function blank() {
    const page = await app.browser.context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    await page.route('**/api-test.html', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>api</title><body><div id="here"></div></body>' }),
    );
    await page.goto(`${app.server.url}api-test.html`);
    return Object.assign(page, { errors });
  }

  test('the build ships the module at stable paths, with TypeScript declarations', async () => {
    for (const f of ['rollout-lab.js', 'rollout-lab_bg.wasm', 'rollout-lab.d.ts', 'app.css', 'share.css', 'embed.css', 'embed-demo.html', 'package.json']) {
      await fs.access(path.join(distDir, f));
    }
    // One wasm module with Yew (README, "One module"), and the YAML reader's small one.
    const wasm = (await fs.readdir(distDir)).filter((f) => f.endsWith('.wasm'));
    assert.deepEqual(wasm.sort(), ['rollout-lab_bg.wasm', 'rollout-yaml_bg.wasm']);
    // package.json points at the module and its declarations, and every file its exports name
    // exists (the package is the whole folder: no `files` list).
    const pkg = JSON.parse(await fs.readFile(path.join(distDir, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'rollout-lab');
    assert.deepEqual(pkg.exports['.'], { types: './rollout-lab.d.ts', import: './rollout-lab.js', default: './rollout-lab.js' });
    const targets = (v) => (typeof v === 'string' ? [v] : Object.values(v).flatMap(targets));
    for (const f of targets(pkg.exports)) await fs.access(path.join(distDir, f));
    const cargo = await fs.readFile(path.join(repoRoot, 'Cargo.toml'), 'utf8');
    assert.equal(pkg.version, cargo.match(/^version = "(.*)"$/m)[1], 'package.json has the workspace version');
    const dts = await fs.readFile(path.join(distDir, 'rollout-lab.d.ts'), 'utf8');
    for (const name of ['export function trace(', 'export function mount(', 'export class Simulation', 'export class MountedLab', 'export default function __wbg_init', 'RolloutLabElement', "'rollout-lab': RolloutLabElement", 'export function loadYaml(']) {
      assert.ok(dts.includes(name), `rollout-lab.d.ts declares ${name}`);
    }
  });

  test('trace() gives 01-rolling-3-surge25-unavail25 exactly as Kubernetes did (compare.py)', async () => {
    const name = '01-rolling-3-surge25-unavail25.json';
    const scenario = JSON.parse(await fs.readFile(path.join(conformanceDir, 'scenarios', name), 'utf8'));
    const page = await blank();
    const result = await page.evaluate(async (scenario) => {
      const m = await import('./rollout-lab.js');
      const mountedByImport = document.body.children.length;
      await m.default();
      const viaTrace = m.trace(scenario);
      // The same through a Simulation stepped by hand, with a listener on every step.
      const sim = new m.Simulation(JSON.stringify(scenario));
      let heard = 0;
      let lastRound = -1;
      const id = sim.onStep((record, state) => {
        heard += 1;
        lastRound = state.round;
      });
      sim.step();
      sim.runRound();
      sim.offStep(id);
      sim.run();
      return {
        mountedByImport,
        mountedAfterInit: document.body.children.length,
        viaTrace: JSON.stringify(viaTrace),
        viaSim: JSON.stringify(sim.trace()),
        heard,
        lastRound,
        steps: sim.steps,
        finished: sim.finished,
      };
    }, scenario);
    assert.equal(result.mountedByImport, 1, 'importing the module mounts nothing');
    assert.equal(result.mountedAfterInit, 1, 'nor does init()');
    assert.ok(result.heard > 1 && result.lastRound === 1, JSON.stringify(result));
    assert.ok(result.finished && result.steps > 20);
    const expected = path.join(conformanceDir, 'traces', name);
    for (const [label, json] of [['trace()', result.viaTrace], ['Simulation', result.viaSim]]) {
      const actual = path.join(tmp, `${label.replace(/\W/g, '')}-${name}`);
      await fs.writeFile(actual, json);
      assert.equal(compare(expected, actual), '1 passed, 0 failed', label);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('every hand-written conformance scenario traces through the API as Kubernetes did', async () => {
    const dir = path.join(conformanceDir, 'scenarios');
    const names = (await fs.readdir(dir)).filter((f) => f.endsWith('.json'));
    const scenarios = {};
    for (const n of names) scenarios[n] = JSON.parse(await fs.readFile(path.join(dir, n), 'utf8'));
    const page = await blank();
    const traces = await page.evaluate(async (scenarios) => {
      const m = await import('./rollout-lab.js');
      await m.default();
      return Object.fromEntries(Object.entries(scenarios).map(([n, s]) => [n, JSON.stringify(m.trace(s))]));
    }, scenarios);
    const out = path.join(tmp, 'all');
    await fs.mkdir(out, { recursive: true });
    for (const [n, json] of Object.entries(traces)) await fs.writeFile(path.join(out, n), json);
    const last = execFileSync('python3', [path.join(conformanceDir, 'compare.py'), '--dir', path.join(conformanceDir, 'traces'), out], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1);
    assert.equal(last, `${names.length} passed, 0 failed`);
    await page.close();
  });

  test('bad input throws an Error with the validation message, never a wasm trap', async () => {
    const page = await blank();
    const errors = await page.evaluate(async () => {
      const m = await import('./rollout-lab.js');
      await m.default();
      const attempt = (f) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${e instanceof Error ? 'Error' : typeof e}: ${e.message}`;
        }
      };
      const ok = { rounds: 3, actions: [{ round: 0, type: 'create', deployment: { name: 'web', image: 'a' } }] };
      const results = {
        badRounds: attempt(() => m.trace({ ...ok, rounds: 'x' })),
        typo: attempt(() => new m.Simulation({ ...ok, actions: [...ok.actions, { round: 1, type: 'setImage', imagee: 'b' }] })),
        notJson: attempt(() => m.trace('{ nope')),
        missing: attempt(() => m.trace()),
        huge: attempt(() => m.trace({ ...ok, actions: [{ round: 0, type: 'create', deployment: { name: 'web', image: 'a', replicas: 5000000 } }] })),
        badAction: attempt(() => new m.Simulation(ok).pushAction({ type: 'scale', replicas: 'many' })),
        badMount: attempt(() => m.mount(document.querySelector('#here'), { controls: ['warp'] })),
        badPreset: attempt(() => m.mount(document.querySelector('#here'), { preset: 'nope' })),
        notManifest: attempt(() => m.importManifest('{"kind":"Service","apiVersion":"v1","metadata":{"name":"x"}}')),
      };
      // After all that the module still works.
      results.stillWorks = m.trace(ok).rounds.length;
      return results;
    });
    assert.equal(errors.badRounds, 'Error: Invalid scenario: rounds: invalid type: string "x", expected u32');
    assert.match(errors.typo, /^Error: Invalid scenario: actions\[1\] \(round 1\): unknown field `imagee`/);
    assert.match(errors.notJson, /^Error: the scenario is not valid JSON/);
    assert.equal(errors.missing, 'Error: the scenario is missing');
    assert.match(errors.huge, /^Error: Invalid scenario: actions\[0\] \(round 0\): creates 5000000 replicas; Rollout Lab simulates at most 10,000 replicas/);
    assert.match(errors.badAction, /^Error: Invalid action: actions\[1\] \(round 0\)\.replicas: invalid type/);
    assert.equal(errors.badMount, 'Error: Invalid mount options: the unknown control `warp`');
    assert.equal(errors.badPreset, 'Error: there is no preset called `nope`');
    assert.equal(errors.notManifest, 'Error: kind is Service; Rollout Lab reads a Deployment');
    assert.equal(errors.stillWorks, 3);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('mount() puts a lab in an element that a script can drive, read and unmount', async () => {
    const page = await blank();
    const r = await page.evaluate(async () => {
      const m = await import('./rollout-lab.js');
      await m.default();
      const lab = m.mount(document.querySelector('#here'), { preset: 'rolling-basic', step: 2, controls: 'step,maxSurge', appUrl: false });
      const seen = [];
      lab.onStep((state) => seen.push(state.step));
      lab.step();
      const now = lab.state();
      await new Promise((r) => setTimeout(r, 50));
      const rendered = document.querySelector('[data-testid="round"]').dataset.steps;
      lab.set('maxSurge', '0');
      const problem = lab.set('maxUnavailable', '0');
      const link = lab.link();
      const decoded = m.decodeLink(link);
      const svg = lab.chartSvg();
      // end(): runs until nothing more will happen, and says which outcome.
      const before = lab.state().settled;
      lab.end();
      const ended = lab.state();
      lab.unmount();
      await new Promise((r) => setTimeout(r, 0));
      let after;
      try {
        lab.step();
      } catch (e) {
        after = e.message;
      }
      return {
        step: now.step,
        rendered,
        seen,
        problem,
        decodedStep: decoded.step,
        decodedPreset: decoded.preset,
        svg: svg.slice(0, 40),
        before,
        outcome: ended.settled?.outcome,
        notice: ended.notice,
        openLink: document.querySelectorAll('[data-testid="open-in-lab"]').length,
        empty: document.querySelector('#here').children.length,
        after,
      };
    });
    assert.equal(r.step, 3);
    assert.equal(r.rendered, '3');
    assert.ok(r.seen.includes(3), JSON.stringify(r.seen));
    assert.match(r.problem, /may not be 0 when `maxSurge` is 0/);
    assert.equal(r.decodedStep, 3);
    assert.equal(r.decodedPreset, 'rolling-basic');
    assert.ok(r.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
    assert.equal(r.before, null, 'mid-rollout, a step would still change something');
    assert.equal(r.outcome, 'complete');
    assert.match(r.notice, /successfully rolled out; nothing more will happen/);
    assert.equal(r.empty, 0, 'unmount empties the element');
    assert.equal(r.after, 'this lab has been unmounted');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('import and export', () => {
  test('kubectl get deployment -o yaml output starts the visualisation from its spec', async () => {
    const from = app.server.requests.length;
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await page.locator('summary', { hasText: 'Scenario' }).click();
    await click(page, 'step-button');
    const loaded = () => app.server.requests.slice(from);
    const wasm = () => loaded().filter((r) => r.endsWith('.wasm'));
    assert.deepEqual(wasm(), ['/rollout-lab_bg.wasm'], 'the YAML reader is not fetched before YAML is read');
    await fill(page, 'import-textarea', KUBECTL_YAML);
    await click(page, 'import-button');
    await expectText(page, 'notice', 'Imported Deployment "checkout": 6 replicas of registry.example.com/shop/checkout:3.4.1');
    const notice = await text(page, 'notice');
    assert.match(notice, /RollingUpdate with maxSurge 2 and maxUnavailable 0/);
    // What would change a rollout but is not modelled is reported, not silently dropped.
    assert.match(notice, /2 containers; Rollout Lab models one, so only the first \(checkout\) is used and envoy dropped/);
    assert.match(notice, /readinessProbe/);
    // YAML is read by the YAML reader's small module (no Yew), fetched the first time YAML is read.
    assert.deepEqual(wasm(), ['/rollout-lab_bg.wasm', '/rollout-yaml_bg.wasm'], `${loaded()}`);
    assert.doesNotMatch(notice, /managedFields|status\./, 'what a cluster adds is ignored quietly');
    assert.equal(await page.locator(byTestId('preset-select')).inputValue(), 'imported');
    assert.equal(await page.locator(byTestId('replicas-input')).inputValue(), '6');
    assert.equal(await page.locator(byTestId('max-surge-input')).inputValue(), '2');
    assert.equal(await page.locator(byTestId('max-unavailable-input')).inputValue(), '0');
    await stepToRound(page, 2);
    const cards = await rsCards(page);
    assert.deepEqual(
      cards.map((c) => [c.name, c.image, c.desired]),
      [['checkout-rev1', 'registry.example.com/shop/checkout:3.4.1', 6]],
    );
    // Exported, it is a scenario `rollout trace` accepts, with the manifest's labels.
    const scenario = JSON.parse(await page.locator(byTestId('scenario-json')).inputValue());
    assert.deepEqual(scenario.actions[0].deployment.templateLabels, { app: 'checkout', team: 'payments' });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a dropped or chosen JSON manifest imports too, and a wrong kind is refused', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await page.locator('summary', { hasText: 'Scenario' }).click();
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'default', uid: 'x', managedFields: [{ manager: 'kubectl' }] },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'api' } },
        strategy: { type: 'Recreate' },
        template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'api', image: 'api:1.0' }] } },
      },
      status: { replicas: 4, readyReplicas: 4 },
    };
    await page.locator(byTestId('import-file')).setInputFiles({
      name: 'api.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(manifest)),
    });
    await expectText(page, 'notice', 'Imported Deployment "api": 4 replicas of api:1.0, Recreate.');
    assert.equal(await page.locator(byTestId('strategy-select')).inputValue(), 'Recreate');
    // Dropping a file on the import box.
    await page.locator(byTestId('import-drop')).evaluate((el, text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'svc.yaml', { type: 'text/yaml' }));
      el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n');
    await expectText(page, 'notice', 'Could not read that manifest: kind is Service; Rollout Lab reads a Deployment');
    assert.equal(await page.locator(byTestId('preset-select')).inputValue(), 'imported', 'the refused import changed nothing');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the trace exports as JSON and the chart as SVG', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.locator('summary', { hasText: 'Scenario' }).click();
    const save = async (id) => {
      const [download] = await Promise.all([page.waitForEvent('download'), click(page, id)]);
      const file = path.join(tmp, download.suggestedFilename());
      await download.saveAs(file);
      return { name: download.suggestedFilename(), body: await fs.readFile(file, 'utf8') };
    };
    const trace = await save('download-trace');
    assert.equal(trace.name, 'rollout-lab-trace.json');
    const t = JSON.parse(trace.body);
    assert.equal(t.rounds.length, (await roundInfo(page)).round);
    assert.equal(t.scenario.actions[1].type, 'setImage');
    const chart = await save('download-chart');
    assert.equal(chart.name, 'rollout-lab-chart.svg');
    assert.match(chart.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(chart.body, /<title>Pods over time: web<\/title>/);
    assert.ok((chart.body.match(/<polyline/g) ?? []).length >= 4);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
