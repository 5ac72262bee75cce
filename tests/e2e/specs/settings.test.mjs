// The first screen in real Chromium against the dist/ that trunk just built: the title, the
// live readout of the resolved rolling-update bounds, the 0/0 rule, validation, and screenshots
// at desktop and phone sizes in light and dark.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { distDir, screenshotDir } from '../lib/paths.mjs';
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { byTestId, expectText, fill, openApp, text } from '../lib/app.mjs';

let server;
let browser;

/** Saves a full-page PNG under tests/e2e/screenshots/ and checks it is not blank. */
async function screenshot(page, name) {
  await fs.mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok((await fs.stat(file)).size > 5_000, `${file} looks empty`);
}

before(async () => {
  server = await serveDir(distDir);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('settings and bounds readout', () => {
  test('loads the wasm app with its title', async () => {
    const page = await openApp(browser.context, server.url);
    assert.equal(await page.title(), 'Rollout Lab');
    assert.equal((await page.locator('h1').textContent())?.trim(), 'Rollout Lab');
    assert.ok(server.requests.some((p) => p.endsWith('.wasm')), 'the page fetched a .wasm file');
    for (const [id, label] of [
      ['replicas-input', 'Replicas'],
      ['max-surge-input', 'maxSurge'],
      ['max-unavailable-input', 'maxUnavailable'],
    ]) {
      // Each input is reachable by its visible label.
      const input = page.getByLabel(label, { exact: true });
      assert.equal(await input.getAttribute('data-testid'), id);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('10 replicas with 25% / 25% resolve to a surge of 3 and 2 unavailable', async () => {
    const page = await openApp(browser.context, server.url);
    await fill(page, 'replicas-input', '10');
    await fill(page, 'max-surge-input', '25%');
    await fill(page, 'max-unavailable-input', '25%');
    await expectText(
      page,
      'bounds-summary',
      'maxSurge 25% of 10 → 3 (rounded up) · maxUnavailable 25% of 10 → 2 (rounded down) · pods stay between 8 and 13',
    );
    assert.equal(await text(page, 'surge-value'), '3');
    assert.equal(await text(page, 'unavailable-value'), '2');
    assert.equal(await text(page, 'range-value'), '8–13');
    assert.equal(await page.locator('.pod').count(), 13);
    assert.equal(await page.locator(byTestId('validation-message')).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('0 / 0 shows that Kubernetes uses maxUnavailable = 1', async () => {
    const page = await openApp(browser.context, server.url);
    await fill(page, 'replicas-input', '10');
    await fill(page, 'max-surge-input', '0');
    await fill(page, 'max-unavailable-input', '0');
    await expectText(page, 'zero-rule-note', 'maxUnavailable = 1');
    await expectText(page, 'bounds-summary', 'pods stay between 9 and 10');
    assert.equal(await text(page, 'unavailable-value'), '1');
    // And the note goes away once a surge is allowed again.
    await fill(page, 'max-surge-input', '1');
    await expectText(page, 'bounds-summary', 'pods stay between 10 and 11');
    assert.equal(await page.locator(byTestId('zero-rule-note')).count(), 0);
    await fill(page, 'max-surge-input', '0');
    await expectText(page, 'zero-rule-note', 'maxUnavailable = 1');
    await screenshot(page, 'settings-zero-rule-desktop-light');
    await page.close();
  });

  test('a malformed value shows a validation message', async () => {
    const page = await openApp(browser.context, server.url);
    await fill(page, 'max-unavailable-input', 'abc');
    await expectText(page, 'validation-message', 'maxUnavailable');
    assert.equal(await page.locator(byTestId('validation-message')).getAttribute('role'), 'alert');
    assert.equal(await page.locator(byTestId('max-unavailable-input')).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator(byTestId('bounds-summary')).count(), 0);
    await screenshot(page, 'settings-invalid-desktop-light');

    await fill(page, 'max-unavailable-input', '1');
    await fill(page, 'replicas-input', '-2');
    await expectText(page, 'validation-message', /Replicas can.t be negative/);
    await fill(page, 'replicas-input', '4');
    await expectText(page, 'bounds-summary', 'pods stay between 3 and 5');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('keyboard users see where focus is', async () => {
    const page = await openApp(browser.context, server.url);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el?.getAttribute('data-testid'), outline: style.outlineStyle, shadow: style.boxShadow };
    });
    assert.equal(focused.id, 'replicas-input');
    assert.ok(focused.outline !== 'none' || focused.shadow !== 'none', `no focus ring: ${JSON.stringify(focused)}`);
    await page.close();
  });
});

describe('layout and themes', () => {
  const sizes = [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ];
  const backgrounds = {};

  for (const scheme of ['light', 'dark']) {
    for (const [name, viewport] of sizes) {
      test(`${name} ${scheme}: fits the width and saves a screenshot`, async () => {
        const page = await openApp(browser.context, server.url);
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await fill(page, 'replicas-input', '10');
        await expectText(page, 'bounds-summary', 'pods stay between 8 and 13');
        const metrics = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          bg: getComputedStyle(document.body).backgroundColor,
          columns: getComputedStyle(document.querySelector('.layout')).gridTemplateColumns.split(' ').length,
        }));
        assert.ok(
          metrics.scrollWidth <= metrics.innerWidth,
          `horizontal overflow at ${viewport.width}px: ${metrics.scrollWidth} > ${metrics.innerWidth}`,
        );
        assert.equal(metrics.columns, name === 'desktop' ? 2 : 1, 'settings beside the readout only on wide screens');
        backgrounds[scheme] = metrics.bg;
        await screenshot(page, `settings-${name}-${scheme}`);
        await page.close();
      });
    }
  }

  test('dark and light use different backgrounds', () => {
    assert.ok(backgrounds.light && backgrounds.dark, 'both themes were rendered');
    assert.notEqual(backgrounds.light, backgrounds.dark);
  });
});
