// The Races view (`?view=races`, issue #26) in real Chromium, against the traces of the real
// v1.28.4 controllers in ../shared/races (read here, never copied): stepping
// race-teach-expectations-real and -noexp through the view's buttons and keys shows, after every
// step, the trace's counts on the API server's truth and in both controllers' caches (the
// counterfactual "without expectations" beside the real controllers, its broken maxSurge
// included); the permalink in the address round-trips; Back and the timeline go back; a bad link
// is refused with a message; `?embed&view=races` and `<rollout-lab view="races">` draw it;
// axe-core finds nothing; nothing overflows a 390 px phone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { axeAudit, byTestId, openApp } from '../lib/app.mjs';
import { racesDir } from '../lib/paths.mjs';
import { servedApp } from '../lib/suite.mjs';
import { horizontalOverflow } from '../lib/screens.mjs';

const app = servedApp();
const require = createRequire(import.meta.url);

const fixture = async (dir, name) => JSON.parse(await fs.readFile(path.join(racesDir, dir, `${name}.json`), 'utf8'));

/** The step buttons' keys (1–6), as the page documents them. */
const KEYS = { 'sync-dc': '1', 'sync-rs': '2', 'deliver-dc': '3', 'deliver-rs': '4', kubelet: '5', tick: '6' };

/** What a trace says one place holds, as the view's cards give it. */
const brief = (rss) =>
  rss.map((r) => ({
    name: r.name,
    spec: r.specReplicas,
    active: r.pods.active,
    ready: r.pods.ready,
    terminating: r.pods.terminating,
    available: r.availableReplicas,
  }));

/** The view's cards, its Deployment line, expectations and broken promises, per mode. */
async function shown(page, mode) {
  return page.locator(byTestId(`race-mode-${mode}`)).evaluate((panel) => {
    const cards = (stage) =>
      [...panel.querySelectorAll(`[data-testid="${stage}"] [data-testid="race-rs"]`)].map((c) => {
        const d = c.dataset;
        // The numbers drawn must be the data's: each <dd> starts with its cached value.
        const drawn = [...c.querySelectorAll('dd > b')].map((b) => Number(b.textContent));
        return { name: d.name, spec: +d.spec, active: +d.active, ready: +d.ready, terminating: +d.terminating, available: +d.available, drawn };
      });
    const dep = panel.querySelector('[data-testid="race-deployment"]')?.dataset;
    return {
      truth: cards('race-truth'),
      dc: cards('race-dc-cache'),
      rs: cards('race-rs-cache'),
      deployment: dep && { generation: +dep.generation, observedGeneration: +dep.observed, specReplicas: +dep.replicas, updatedReplicas: +dep.updated, availableReplicas: +dep.available },
      expectations: Object.fromEntries(
        [...panel.querySelectorAll('[data-testid="race-expectation"]')].map((e) => [e.querySelector('.race-name').textContent, { add: +e.dataset.add, del: +e.dataset.del }]),
      ),
      violations: [...panel.querySelectorAll('[data-testid="race-violation"]')].map((v) => v.textContent.replace(/^Promise broken: /, '')),
    };
  });
}

/** Asserts the view's `mode` panel shows the trace's step `i` (truth, both caches, expectations, violations). */
async function assertStep(page, mode, trace, i) {
  const want = trace.steps[i];
  const got = await shown(page, mode);
  const what = `${trace.scenario.name} step ${i + 1} (${want.step})`;
  const counts = (cards) => cards.map(({ drawn, ...c }) => c);
  for (const c of [...got.truth, ...got.dc, ...got.rs]) {
    assert.deepEqual(c.drawn, [c.spec, c.active, c.ready, c.terminating, c.available], `${what}: the numbers drawn on ${c.name}`);
  }
  assert.deepEqual(counts(got.truth), brief(want.replicaSets), `${what}: the API server`);
  assert.deepEqual(counts(got.dc), brief(want.caches.deployment.replicaSets), `${what}: the Deployment controller's cache`);
  assert.deepEqual(counts(got.rs), brief(want.caches.replicaset.replicaSets), `${what}: the ReplicaSet controller's cache`);
  const { name, ...deployment } = want.caches.deployment.deployments[0];
  assert.deepEqual(got.deployment, deployment, `${what}: the cached Deployment ${name}`);
  // Without expectations the controller forgets them before each sync: its panel lists none
  // (issue #38), whatever its last sync wrote down in the trace.
  assert.deepEqual(got.expectations, mode === 'noexp' ? {} : want.expectations ?? {}, `${what}: expectations`);
  assert.deepEqual(got.violations, want.violations ?? [], `${what}: violations`);
}

/** Waits until the view has taken `n` steps. */
const atStep = (page, n) => page.locator(`${byTestId('races-view')}[data-steps="${n}"]`).waitFor({ timeout: 10_000 });

async function openRaces(query = '') {
  const page = await openApp(app.browser.context, `${app.server.url}?view=races${query}`);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.locator(byTestId('races-view')).waitFor();
  return page;
}

describe('the Races view', () => {
  test('stepping race-teach-expectations-real with the buttons shows the trace after every step', async () => {
    const [scenario, trace] = await Promise.all([
      fixture('scenarios', 'race-teach-expectations-real'),
      fixture('traces', 'race-teach-expectations-real'),
    ]);
    const page = await openRaces();
    assert.equal(await page.locator(byTestId('race-walk')).inputValue(), 'expectations');
    for (const [i, step] of scenario.schedule.entries()) {
      // setImage is the walk-through's own: "Next"; every other step is its kind's button.
      await page.locator(byTestId(step in KEYS ? `race-step-${step}` : 'race-next')).click();
      await atStep(page, i + 1);
      await assertStep(page, 'real', trace, i);
    }
    // Back, and the timeline.
    await page.locator(byTestId('race-back')).click();
    await atStep(page, scenario.schedule.length - 1);
    await assertStep(page, 'real', trace, scenario.schedule.length - 2);
    await page.locator(`${byTestId('race-timeline')} button`).nth(3).click();
    await atStep(page, 3);
    await assertStep(page, 'real', trace, 2);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('without expectations beside the real controllers, stepped by keys: both traces, and 5 pods', async () => {
    const [scenario, real, noexp] = await Promise.all([
      fixture('scenarios', 'race-teach-expectations-noexp'),
      fixture('traces', 'race-teach-expectations-real'),
      fixture('traces', 'race-teach-expectations-noexp'),
    ]);
    const page = await openRaces('&race=expectations');
    await page.locator(byTestId('race-noexp')).click();
    await page.locator(byTestId('race-mode-noexp')).waitFor();
    let broken = false;
    for (const [i, step] of scenario.schedule.entries()) {
      await page.keyboard.press(KEYS[step] ?? 'n');
      await atStep(page, i + 1);
      await assertStep(page, 'real', real, i);
      await assertStep(page, 'noexp', noexp, i);
      broken ||= (noexp.steps[i].violations ?? []).length > 0;
    }
    assert.ok(broken, 'the noexp trace breaks a promise');
    assert.match(await page.locator(`${byTestId('race-mode-noexp')} ${byTestId('race-expectations')}`).textContent(), /none kept/);
    // Keys typed into the walk-through menu stay there; B and Backspace go back.
    await page.keyboard.press('b');
    await atStep(page, scenario.schedule.length - 1);
    await page.keyboard.press('Backspace');
    await atStep(page, scenario.schedule.length - 2);
    // The walk-through's note at step 6 speaks of the counterfactual, shown here; hidden, it
    // suggests turning it on instead.
    await page.locator(`${byTestId('race-timeline')} button`).nth(6).click();
    await atStep(page, 6);
    assert.match(await page.locator(byTestId('race-note')).textContent(), /watch that counterfactual break maxSurge/);
    await page.locator(byTestId('race-noexp')).click();
    await page.locator(byTestId('race-mode-noexp')).waitFor({ state: 'detached' });
    const note = await page.locator(byTestId('race-note')).textContent();
    assert.doesNotMatch(note, /watch that counterfactual/);
    assert.match(note, /Turn on/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the address is the permalink: it round-trips, and a bad one is refused with a message', async () => {
    const trace = await fixture('traces', 'race-teach-conflict-real');
    const page = await openRaces('&race=conflict');
    for (let i = 0; i < 3; i++) await page.locator(byTestId('race-next')).click();
    await atStep(page, 3);
    // The status update made from the copy read before the revision's write: 409 Conflict.
    assert.match(await page.locator(byTestId('race-error')).textContent(), /the object has been modified/);
    await page.locator(byTestId('race-next')).click();
    await atStep(page, 4);
    const search = await page.evaluate(() => location.search);
    assert.equal(search, '?view=races&race=conflict&steps=setImage%20web:2,deliver-dc,sync-dc,sync-dc');
    await assertStep(page, 'real', trace, 3);
    assert.match(await page.locator(byTestId('race-error')).textContent(), /"web-rev2" not found/);
    const again = await openRaces(search.replace('?view=races', ''));
    await atStep(again, 4);
    assert.equal(await again.locator(byTestId('race-walk')).inputValue(), 'conflict');
    await assertStep(again, 'real', trace, 3);
    // A counterfactual shown is in the address too, and a link opens with it shown.
    await again.locator(byTestId('race-norv')).click();
    await again.locator(byTestId('race-mode-norv')).waitFor();
    const shown = await again.evaluate(() => location.search);
    assert.equal(shown, `${search}&show=norv`);
    const third = await openRaces(shown.replace('?view=races', ''));
    await third.locator(byTestId('race-mode-norv')).waitFor();
    assert.equal(await third.locator(byTestId('race-norv')).getAttribute('aria-pressed'), 'true');
    assert.equal(await third.locator(byTestId('race-noexp')).getAttribute('aria-pressed'), 'false');
    assert.deepEqual([...page.errors, ...again.errors, ...third.errors], []);
    await third.close();
    await again.close();
    await page.close();
    for (const [query, why] of [
      ['&race=nope', /no walk-through "nope"/],
      ['&race=conflict&steps=sync-dc,fly', /unknown step "fly"/],
      ['&race=conflict&show=lww', /shows "lww", which is no counterfactual/],
    ]) {
      const bad = await openRaces(query);
      assert.match(await bad.locator(byTestId('race-notice')).textContent(), why);
      await atStep(bad, 0);
      assert.deepEqual(bad.errors, []);
      await bad.close();
    }
  });

  test('?embed&view=races and <rollout-lab view="races"> draw it in the embed layout', async () => {
    const trace = await fixture('traces', 'race-teach-conflict-real');
    const steps = 'setImage%20web:2,deliver-dc,sync-dc';
    const page = await openApp(app.browser.context, `${app.server.url}?embed&view=races&race=conflict&steps=${steps}`).catch(async () => {
      throw new Error('the ?embed page did not render');
    });
    await atStep(page, 3);
    await assertStep(page, 'real', trace, 2);
    assert.match(await page.locator(byTestId('race-open')).getAttribute('href'), /\?view=races&race=conflict&steps=setImage%20web:2,deliver-dc,sync-dc$/);
    await page.close();

    const host = await app.browser.context.newPage();
    const errors = [];
    host.on('pageerror', (e) => errors.push(String(e)));
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>races</title>
      <script type="module" src="./rollout-lab.js"></script></head>
      <body><main><h1>races</h1><rollout-lab id="plain" view="races" race="conflict" steps="${steps}" loading="eager"></rollout-lab>
      <rollout-lab id="outlined" view="races" race="expectations" heading-level="2" loading="eager"></rollout-lab></main></body></html>`;
    await host.route('**/races-element.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    await host.goto(`${app.server.url}races-element.html`);
    const view = host.locator('#plain').locator(byTestId('races-view'));
    await view.waitFor({ timeout: 15_000 });
    assert.equal(await view.getAttribute('data-steps'), '3');
    await host.locator('#plain').locator(byTestId('race-step-sync-dc')).click();
    await host.locator('#plain').locator(`${byTestId('races-view')}[data-steps="4"]`).waitFor();
    // The element leaves its host page's address alone.
    assert.equal(await host.evaluate(() => location.search), '');
    // Without heading-level it adds no heading and no region to the host page's outline (but
    // the element's own labelled region, element.js's); with
    // heading-level="2" its title is a level-2 heading and each part one level below.
    await host.locator('#outlined').locator(byTestId('race-mode-real')).waitFor();
    const outline = await host.evaluate(() => [...document.querySelectorAll('rollout-lab')].map((el) =>
      [...el.shadowRoot.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"], section, main, [role="region"]:not(.rollout-lab-region)')]
        .map((e) => [e.localName === 'p' || e.localName === 'div' ? e.getAttribute('aria-level') ?? e.getAttribute('role') : e.localName, e.textContent.trim()])));
    assert.deepEqual(outline[0], [], 'the element without heading-level');
    const headings = outline[1].filter(([level]) => /^\d$/.test(level)).slice(0, 6);
    assert.deepEqual(headings.map(([level]) => level), ['2', '3', '4', '4', '4', '5']);
    const titles = ['Races:', 'The real controllers', 'API server', "Deployment controller's cache", "ReplicaSet controller's cache", 'Expectations'];
    headings.forEach(([, text], i) => assert.ok(text.startsWith(titles[i]), `${text} starts with ${titles[i]}`));
    await axeAudit(host, 'two Races elements on a page');
    assert.deepEqual(errors, []);
    await host.close();
  });

  test('axe-core finds nothing, light and dark, and a 390 px phone does not scroll sideways', async () => {
    const axe = await fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    for (const scheme of ['light', 'dark']) {
      const page = await openRaces('&race=expectations&steps=setImage%20web:2,deliver-dc,sync-dc,deliver-rs,sync-rs,sync-rs');
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.locator(byTestId('race-noexp')).click();
      await page.locator(byTestId('race-violation')).first().waitFor();
      await page.addScriptTag({ content: axe });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document);
        return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
      });
      assert.deepEqual(violations, [], `Races view (${scheme})`);
      await page.close();
    }
    for (const query of ['?view=races&race=stale-status&steps=setImage%20web:2,deliver-dc,sync-dc,deliver-rs,sync-rs', '?embed&view=races']) {
      const page = await app.browser.context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${app.server.url}${query}`);
      await page.locator(byTestId('races-view')).waitFor();
      await page.locator(byTestId('race-noexp')).click();
      await page.locator(byTestId('race-norv')).click();
      await page.locator(byTestId('race-mode-norv')).waitFor();
      assert.equal(await horizontalOverflow(page), 0, `${query} at 390 px`);
      // The three stages stack.
      const xs = await page.locator(`${byTestId('race-mode-real')} .race-stage`).evaluateAll((s) => s.map((e) => e.getBoundingClientRect().x));
      assert.equal(new Set(xs).size, 1, `${query}: stacked at 390 px`);
      await page.close();
    }
  });
});
