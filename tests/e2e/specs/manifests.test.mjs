// The files people keep (../shared/manifests, read at test time, never copied) through the
// module's plan() in Chromium give what `rollout plan FILE --json` (the binary cargo builds)
// gives: the same forecast JSON, the same message for a Helm template or a broken file, and for
// a file of several Deployments the same names and, with `deployment`, the same forecast for
// each. The Plan view's Deployment menu plans the one chosen in a pasted file of several.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { byTestId, openApp } from '../lib/app.mjs';
import { buildRollout } from '../lib/cli.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { servedApp } from '../lib/suite.mjs';
import { screenshot, horizontalOverflow } from '../lib/screens.mjs';

const app = servedApp();
const manifestsDir = path.resolve(process.env.ROLLOUT_MANIFESTS_DIR ?? path.join(repoRoot, '..', 'shared', 'manifests'));
let rollout; // the CLI binary
let files; // every manifest file's name

before(async () => {
  rollout = buildRollout();
  files = (await fs.readdir(manifestsDir)).filter((f) => f !== 'PROVENANCE.md').sort();
  assert.ok(files.length >= 30, `${files.length} manifest files`);
});

/** `rollout plan FILE --json ARGS…`: `{json}` or `{message}` (stderr without `rollout plan: FILE: `). */
function cli(file, args = []) {
  const full = path.join(manifestsDir, file);
  const r = spawnSync(rollout, ['plan', full, '--json', ...args], { encoding: 'utf8' });
  if (r.status === 0) return { json: JSON.parse(r.stdout) };
  assert.equal(r.status, 2, r.stderr);
  const prefix = `rollout plan: ${full}: `;
  assert.ok(r.stderr.startsWith(prefix), r.stderr);
  return { message: r.stderr.slice(prefix.length).trimEnd() };
}

/** The names a "holds N Deployments: a, b; choose …" message lists, or null. */
const listed = (message) => message?.match(/holds \d+ Deployments: (.*?); choose/)?.[1].split(', ') ?? null;

describe('plan() on the files people keep', () => {
  test('gives what rollout plan --json gives, file by file and Deployment by Deployment', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    await page.evaluate(async () => (await import('./rollout-lab.js')).loadYaml());
    const plan = (text, options) =>
      page.evaluate(
        async ({ text, options }) => {
          const m = await import('./rollout-lab.js');
          try {
            return { json: m.plan(text, options) };
          } catch (e) {
            return { message: e.message };
          }
        },
        { text, options },
      );
    let forecasts = 0;
    for (const file of files) {
      const text = await fs.readFile(path.join(manifestsDir, file), 'utf8');
      const want = cli(file);
      const got = await plan(text);
      const names = listed(want.message);
      if (names) {
        assert.deepEqual(listed(got.message), names, `${file}: ${got.message}`);
        assert.match(got.message, /choose one \(the Plan view's Deployment menu, or plan\(manifest, \{deployment: "NAME"\}\)\)$/);
        for (const name of names) {
          const one = cli(file, ['--deployment', name]);
          assert.ok(one.json, `${file} --deployment ${name}: ${one.message}`);
          assert.deepEqual(await plan(text, { deployment: name }), one, `${file} ${name}`);
          forecasts++;
        }
      } else {
        assert.deepEqual(got, want, file);
        if (want.json) forecasts++;
      }
    }
    assert.ok(forecasts >= 70, `${forecasts} forecasts`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the Plan page forecasts each file as the CLI and plan() do: the same JSON', async () => {
    // The page's own forecast (its forecast panel's data-plan-json), with no assumption
    // changed: rollout plan's defaults on every door.
    const page = await openApp(app.browser.context, `${app.server.url}?view=plan`);
    const area = page.locator(byTestId('plan-manifest'));
    await area.focus();
    let compared = 0;
    for (const file of files) {
      const want = cli(file);
      if (!want.json) continue;
      await area.fill(await fs.readFile(path.join(manifestsDir, file), 'utf8'));
      const expected = JSON.stringify(want.json);
      const same = await page
        .waitForFunction(
          ({ sel, expected }) => {
            const el = document.querySelector(sel);
            return el && JSON.stringify(JSON.parse(el.dataset.planJson)) === expected;
          },
          { sel: byTestId('forecast'), expected },
          { timeout: 15_000 },
        )
        .then(() => true, () => false);
      if (!same) {
        const shown = await page.locator(byTestId('forecast')).getAttribute('data-plan-json').catch(() => null);
        assert.deepEqual(shown && JSON.parse(shown), want.json, file);
      }
      compared++;
    }
    assert.ok(compared >= 20, `${compared} files compared`);
    assert.deepEqual(JSON.parse(await page.locator(byTestId('plan-model')).getAttribute('data-model')), {});
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('Plan page: a change (before → after)', () => {
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ]) {
    test(`a live version and an edited one agree with rollout plan OLD NEW (${width}×${height})`, async () => {
      // OLD: a shared file as it is; NEW: an environment variable added and replicas 3 → 5.
      const file = '10-argocd-guestbook-ui-deployment.yaml';
      const oldText = await fs.readFile(path.join(manifestsDir, file), 'utf8');
      const newText = oldText.replace(/replicas: \d+/, 'replicas: 5').replace(/(\n(\s*)- image: [^\n]+)/, '$1\n$2  env: [{name: GREETING, value: "hi"}]');
      assert.notEqual(newText, oldText);
      const dir = await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'rollout-change-'));
      const newFile = path.join(dir, 'new.yaml');
      await fs.writeFile(newFile, newText);
      const r = spawnSync(rollout, ['plan', path.join(manifestsDir, file), newFile, '--json'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const want = JSON.parse(r.stdout);
      assert.equal(want.change.kind, 'rolloutAndScale');

      const page = await openApp(app.browser.context, `${app.server.url}?view=plan`, { width, height });
      await page.setViewportSize({ width, height });
      const area = page.locator(byTestId('plan-manifest'));
      await area.focus();
      await area.fill(newText);
      await page.locator(byTestId('plan-change')).locator('summary').click();
      const before = page.locator(byTestId('plan-before'));
      await before.focus();
      await before.fill(oldText);
      const out = page.locator(byTestId('plan-change-out'));
      await out.waitFor();
      assert.deepEqual(JSON.parse(await out.getAttribute('data-change-json')), want);
      assert.equal(await out.getAttribute('data-kind'), 'rolloutAndScale');
      assert.match(await out.textContent(), /a rollout and a scale together: the pod template changed \(spec\.template\.spec\.containers\[guestbook-ui\]\.env\)/);
      // `plan({before, after})` gives the same.
      const api = await page.evaluate(async ({ before, after }) => (await import('./rollout-lab.js')).plan({ before, after }), { before: oldText, after: newText });
      assert.deepEqual(api, want);
      await out.scrollIntoViewIfNeeded();
      assert.equal(await horizontalOverflow(page), 0);
      await screenshot(page, `plan-change-${width}x${height}`, { fullPage: false });
      // The link the Markdown summary carries opens the same change on the Plan page.
      const md = spawnSync(rollout, ['plan', path.join(manifestsDir, file), newFile, '--format', 'markdown', '--link-base', `${app.server.url}`], { encoding: 'utf8' });
      assert.equal(md.status, 0, md.stderr);
      const link = md.stdout.match(/\[Open this forecast on the Plan page\]\((.*)\)/)[1];
      const linked = await openApp(app.browser.context, link, { width, height });
      const again = linked.locator(byTestId('plan-change-out'));
      await again.waitFor();
      assert.deepEqual(JSON.parse(await again.getAttribute('data-change-json')), want);
      assert.deepEqual([...page.errors, ...linked.errors], []);
      await page.close();
      await linked.close();
    });
  }
});

describe('Plan view', () => {
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ]) {
    test(`a pasted file of several Deployments is planned for the one chosen (${width}×${height})`, async () => {
      // The Plan page, as the header's Plan button opens it.
      const page = await openApp(app.browser.context, `${app.server.url}?view=plan`, { width, height });
      await page.setViewportSize({ width, height });
      const file = '14-k8s-examples-guestbook-all-in-one.yaml';
      const text = await fs.readFile(path.join(manifestsDir, file), 'utf8');
      const area = page.locator(byTestId('plan-manifest'));
      await area.focus();
      await area.fill(text);
      const picker = page.locator(byTestId('plan-deployment'));
      await picker.waitFor();
      const options = await picker.locator('option').allTextContents();
      assert.deepEqual(options, ['Choose one of 3 Deployments…', 'redis-master', 'redis-replica', 'frontend']);
      assert.match(await page.locator(byTestId('plan-error')).textContent(), /holds 3 Deployments: redis-master, redis-replica, frontend; choose one/);
      await picker.selectOption('frontend');
      await page.locator(byTestId('forecast')).waitFor();
      const model = JSON.parse(await page.locator(byTestId('plan-model')).getAttribute('data-model'));
      assert.equal(model.deployment, 'frontend');
      const flags = [];
      const names = { readyAfter: '--ready-after', pull: '--pull', appReady: '--app-ready', secondsPerRound: '--seconds-per-round', nodes: '--nodes', termination: '--termination', podQuota: '--pod-quota', image: '--image', deployment: '--deployment' };
      for (const [k, v] of Object.entries(model)) {
        if (k === 'badImage') {
          if (v) flags.push('--bad-image');
        } else flags.push(names[k], String(v));
      }
      const want = cli(file, flags).json;
      const shown = await page.locator(byTestId('forecast')).evaluate((el) => ({ ...el.dataset }));
      assert.equal(shown.peakPods, String(want.peakPods));
      assert.equal(shown.durationSeconds, String(want.durationSeconds));
      assert.match(await page.locator(byTestId('forecast')).textContent(), /read Deployment "frontend" \(document 6\); skipped 5 other objects: 3 × Service, 2 × Deployment/);
      await page.locator(byTestId('plan-view')).scrollIntoViewIfNeeded();
      await picker.scrollIntoViewIfNeeded();
      assert.equal(await horizontalOverflow(page), 0);
      await screenshot(page, `plan-picker-${width}x${height}`, { fullPage: false });
      // A file of one Deployment: the menu goes, and the choice with it.
      await area.fill(await fs.readFile(path.join(manifestsDir, '10-argocd-guestbook-ui-deployment.yaml'), 'utf8'));
      await page.waitForFunction((sel) => !document.querySelector(sel), byTestId('deployment-picker'));
      await page.waitForFunction((sel) => !JSON.parse(document.querySelector(sel).dataset.model).deployment, byTestId('plan-model'));
      await page.locator(byTestId('forecast')).waitFor();
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});
