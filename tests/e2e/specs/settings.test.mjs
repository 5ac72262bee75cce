// The settings form in real Chromium against the dist/ that trunk just built: labels, the live
// bounds readout, the Kubernetes API's validation messages (and that a refused value is not
// applied), the focus ring, and that nothing is logged to the console.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CUSTOM, byTestId, clock, expectText, fill, openApp, rolloutStatus, rsCards, stepToRound, text } from '../lib/app.mjs';
import { screenshot } from '../lib/screens.mjs';
import { click, servedApp } from '../lib/suite.mjs';

const app = servedApp();

describe('settings', () => {
  test('loads the wasm app; every control is reachable by its label', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    assert.equal(await page.title(), 'Rollout Lab');
    assert.equal((await page.locator('h1').textContent())?.trim(), 'Rollout Lab');
    assert.ok(app.server.requests.some((p) => p.endsWith('.wasm')), 'the page fetched a .wasm file');
    for (const [id, label] of [
      ['replicas-input', 'Replicas'],
      ['max-surge-input', 'maxSurge'],
      ['max-unavailable-input', 'maxUnavailable'],
      ['strategy-select', 'Strategy'],
      ['ready-after-input', 'Pod ready delay (rounds)'],
      ['nodes-input', 'Nodes'],
      ['termination-input', 'Graceful termination (rounds)'],
      ['seconds-per-round-input', 'Seconds per round'],
      ['never-ready-toggle', 'New image never becomes ready'],
      ['reaction-select', 'Controller reaction'],
      ['replicas-slider', 'Replicas (slider)'],
      ['preset-select', 'Start from'],
    ]) {
      // Visible ones: the Plan page, mounted but hidden behind the stage, has a Nodes of its own.
      const control = page.getByLabel(label, { exact: true }).filter({ visible: true });
      assert.equal(await control.getAttribute('data-testid'), id, `label ${label}`);
    }
    // The rarer fields are one click away, also labelled.
    await page.locator('summary', { hasText: 'minReadySeconds' }).click();
    for (const [id, label] of [
      ['min-ready-input', 'minReadySeconds'],
      ['progress-deadline-input', 'progressDeadlineSeconds'],
      ['history-limit-input', 'revisionHistoryLimit'],
    ]) {
      assert.equal(await page.getByLabel(label, { exact: true }).getAttribute('data-testid'), id);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('10 replicas with 25% / 25% resolve to a surge of 3 and 2 unavailable', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await fill(page, 'replicas-input', '10');
    await expectText(
      page,
      'bounds-summary',
      'maxSurge 25% of 10 → 3 (rounded up) · maxUnavailable 25% of 10 → 2 (rounded down) · pods stay between 8 and 13',
    );
    assert.equal(await text(page, 'surge-value'), '3');
    assert.equal(await text(page, 'unavailable-value'), '2');
    assert.equal(await text(page, 'range-value'), '8–13');
    // The slider follows the text field, and the other way round.
    assert.equal(await page.locator(byTestId('replicas-slider')).getAttribute('aria-valuetext'), '10');
    await page.locator(byTestId('replicas-slider')).fill('31'); // stop 31 = 100 replicas
    await expectText(page, 'bounds-summary', 'pods stay between 75 and 125');
    assert.equal(await page.locator(byTestId('replicas-input')).inputValue(), '100');
    assert.equal(await page.locator(byTestId('validation-message')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('maxSurge 0 and maxUnavailable 0: the API refuses it and the old value stays', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await fill(page, 'max-surge-input', '0');
    await fill(page, 'max-unavailable-input', '0');
    await expectText(
      page,
      'validation-message',
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: ' +
        'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    );
    const message = page.locator(byTestId('validation-message'));
    assert.equal(await message.getAttribute('role'), 'alert');
    // Next to the control it is about, which says it is invalid.
    const unavailable = page.locator(byTestId('max-unavailable-input'));
    assert.equal(await unavailable.getAttribute('aria-invalid'), 'true');
    assert.match((await unavailable.getAttribute('aria-describedby')) ?? '', /max-unavailable-error/);
    assert.equal(await message.getAttribute('id'), 'max-unavailable-error');
    assert.equal(await page.locator(byTestId('max-surge-input')).getAttribute('aria-invalid'), 'false');
    await screenshot(page, 'validation-desktop-light');

    // Not applied: the Deployment is created with maxSurge 0 (valid on its own) and the
    // maxUnavailable it had before, 25%.
    await stepToRound(page, 1);
    assert.equal(await text(page, 'deploy-strategy'), 'RollingUpdate maxSurge 0 maxUnavailable 25%');
    assert.equal((await rsCards(page))[0].desired, 3);

    // After the start the same refusal applies to an update: Apply is refused by the API.
    await fill(page, 'max-unavailable-input', '1');
    await fill(page, 'max-unavailable-input', '0');
    await expectText(page, 'validation-message', 'may not be 0 when `maxSurge` is 0');
    await page.locator(byTestId('apply-button')).click();
    await expectText(page, 'kubectl-console', 'error: Deployment.apps "web" is invalid');
    assert.equal(await page.locator(byTestId('pending-action')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('percentages that only resolve to 0 get the controller\'s maxUnavailable = 1 rule', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await fill(page, 'max-surge-input', '0%');
    await fill(page, 'max-unavailable-input', '10%');
    await expectText(page, 'zero-rule-note', 'maxUnavailable = 1');
    await expectText(page, 'bounds-summary', 'pods stay between 2 and 3');
    assert.equal(await page.locator(byTestId('validation-message')).count(), 0);
    await page.close();
  });

  test('malformed and out-of-range values name their field', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await fill(page, 'max-unavailable-input', 'abc');
    await expectText(page, 'validation-message', 'spec.strategy.rollingUpdate.maxUnavailable');
    await fill(page, 'max-unavailable-input', '1');
    await fill(page, 'replicas-input', '-2');
    await expectText(page, 'validation-message', 'spec.replicas: Invalid value: -2: must be greater than or equal to 0');
    await fill(page, 'replicas-input', '20000');
    await expectText(page, 'validation-message', 'at most 10,000 replicas');
    await fill(page, 'replicas-input', '4');
    await expectText(page, 'bounds-summary', 'pods stay between 3 and 5');
    await fill(page, 'nodes-input', '0');
    await expectText(page, 'validation-message', 'Nodes must be between 1 and 50 (got 0).');
    assert.equal(await page.locator(byTestId('nodes-input')).getAttribute('aria-invalid'), 'true');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('keyboard users see where focus is', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el?.getAttribute('data-testid'), outline: style.outlineStyle, shadow: style.boxShadow };
    });
    assert.equal(focused.id, 'preset-select');
    assert.ok(focused.outline !== 'none' || focused.shadow !== 'none', `no focus ring: ${JSON.stringify(focused)}`);
    await page.locator(byTestId('step-button')).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(ring, 'none');
    await page.close();
  });

  /**
   * Rolls out the next image from the moment the first rollout is complete, a round at a time,
   * and returns how many rounds that took and how many of them ended with the Deployment's
   * status behind its ReplicaSets' (available pods the Deployment controller has not counted).
   */
  async function rollOutNextImage(page) {
    const done = /successfully rolled out/;
    const stepRound = async () => {
      const before = (await clock(page)).round;
      await click(page, 'step-round-button');
      await page.waitForFunction(
        ({ sel, before }) => Number(document.querySelector(sel)?.dataset.round) > before,
        { sel: byTestId('clock'), before },
      );
    };
    for (let i = 0; !done.test(await rolloutStatus(page)); i++) {
      assert.ok(i < 60, 'the first rollout completes');
      await stepRound();
    }
    await click(page, 'update-image-button');
    const start = (await clock(page)).round;
    let trailing = 0;
    let seenProgress = false;
    for (let i = 0; ; i++) {
      assert.ok(i < 60, 'the image update completes');
      await stepRound();
      const status = await rolloutStatus(page);
      if (!done.test(status)) seenProgress = true;
      const rsAvailable = (await rsCards(page)).reduce((n, c) => n + c.available, 0);
      const line = await text(page, 'replicas-line');
      const deployAvailable = Number(/(\d+) available/.exec(line)?.[1]);
      if (deployAvailable !== rsAvailable) trailing++;
      if (seenProgress && done.test(status)) break;
    }
    return { rounds: (await clock(page)).round - start, trailing };
  }

  test('controller reaction: instant by default, one round per hop trails by rounds, kept in the link', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    const select = page.locator(byTestId('reaction-select'));
    // Settled is what people meet: the default scenario reacts at once, in 1 s rounds.
    assert.equal(await select.inputValue(), 'instant');
    await expectText(page, 'reaction-mode', 'instant reactions (settled rounds)');
    assert.equal(await page.locator(byTestId('seconds-per-round-input')).inputValue(), '1');
    const instant = await rollOutNextImage(page);
    assert.equal(instant.trailing, 0, 'settled rounds end with the status caught up');
    // After the start the mode waits for Reset, as the other cluster-model settings do.
    await select.selectOption('per-hop');
    await expectText(page, 'reaction-hint', 'only before the first step: Reset to start over with it');
    await expectText(page, 'reaction-mode', 'instant reactions');
    await click(page, 'reset-button');
    await expectText(page, 'reaction-mode', 'one round per hop');
    await expectText(page, 'reaction-hint', 'waits a round');
    assert.equal(await page.locator(byTestId('reaction-mode')).getAttribute('data-instant'), 'false');

    const perHop = await rollOutNextImage(page);
    assert.ok(
      perHop.rounds > instant.rounds,
      `one round per hop takes more rounds: ${perHop.rounds} vs ${instant.rounds} instant`,
    );
    assert.ok(perHop.trailing > 0, 'the Deployment status trails its ReplicaSets by rounds');

    // The permalink keeps the mode: a reload reopens the same moment, still one round per hop.
    await click(page, 'copy-link-button');
    const link = await page.locator(byTestId('share-link')).inputValue();
    assert.match(link, /#s=\(/);
    assert.doesNotMatch(link, /settle/, 'lock-step is the format\'s default: no settle in the link');
    const at = await clock(page);
    const fresh = await openApp(app.browser.context, link);
    await fresh.locator(byTestId('clock')).waitFor();
    assert.deepEqual(await clock(fresh), at);
    assert.equal(await fresh.locator(byTestId('reaction-select')).inputValue(), 'per-hop');
    await expectText(fresh, 'reaction-mode', 'one round per hop');
    await fresh.reload();
    await fresh.locator(byTestId('clock')).waitFor();
    assert.equal(await fresh.locator(byTestId('reaction-select')).inputValue(), 'per-hop');
    assert.deepEqual(fresh.errors, []);
    await fresh.close();

    // And back to instant: the link says so.
    await page.locator(`${byTestId('share-dialog')} button[aria-label="Close"]`).click();
    await select.selectOption('instant');
    await click(page, 'reset-button');
    await expectText(page, 'reaction-mode', 'instant reactions (settled rounds)');
    await click(page, 'copy-link-button');
    assert.match(await page.locator(byTestId('share-link')).inputValue(), /settle/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
