// The settings form in real Chromium against the dist/ that trunk just built: labels, the live
// bounds readout, the Kubernetes API's validation messages (and that a refused value is not
// applied), the focus ring, and that nothing is logged to the console.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, expectText, fill, openApp, rsCards, stepToRound, text } from '../lib/app.mjs';
import { screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();

describe('settings', () => {
  test('loads the wasm app; every control is reachable by its label', async () => {
    const page = await openApp(app.browser.context, app.server.url);
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
      ['replicas-slider', 'Replicas (slider)'],
      ['preset-select', 'Start from'],
    ]) {
      const control = page.getByLabel(label, { exact: true });
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
    const page = await openApp(app.browser.context, app.server.url);
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
    const page = await openApp(app.browser.context, app.server.url);
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
    const page = await openApp(app.browser.context, app.server.url);
    await fill(page, 'max-surge-input', '0%');
    await fill(page, 'max-unavailable-input', '10%');
    await expectText(page, 'zero-rule-note', 'maxUnavailable = 1');
    await expectText(page, 'bounds-summary', 'pods stay between 2 and 3');
    assert.equal(await page.locator(byTestId('validation-message')).count(), 0);
    await page.close();
  });

  test('malformed and out-of-range values name their field', async () => {
    const page = await openApp(app.browser.context, app.server.url);
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
    const page = await openApp(app.browser.context, app.server.url);
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
});
