// Screenshots of the main states (start, mid-rollout, stuck, done) in light and dark, at
// laptop and phone sizes and with large text; no horizontal overflow anywhere; pods are told
// apart by more than hue; themes differ. The PNGs land in tests/e2e/screenshots/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CUSTOM, byTestId, choosePreset, openApp, runToEnd, stepToRound } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();

const sizes = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

/** The states worth a picture, each reached from a fresh page. */
const states = {
  start: async () => {},
  'mid-rollout': async (page) => {
    await choosePreset(page, 'rolling-basic');
    await stepToRound(page, 7);
    for (let i = 0; i < 3; i++) await page.locator(byTestId('step-button')).click();
  },
  stuck: async (page) => {
    await choosePreset(page, 'bad-image-stuck');
    await runToEnd(page);
  },
  done: async (page) => {
    await choosePreset(page, 'rolling-basic');
    await runToEnd(page);
  },
};

describe('layout and themes', () => {
  const backgrounds = {};
  for (const scheme of ['light', 'dark']) {
    for (const [size, viewport] of Object.entries(sizes)) {
      test(`${size} ${scheme}: every state fits the width; screenshots`, async () => {
        for (const [name, reach] of Object.entries(states)) {
          if (size === 'phone' && name === 'start') continue;
          const page = await openApp(app.browser.context, app.server.url + CUSTOM);
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: scheme });
          await reach(page);
          assert.ok((await horizontalOverflow(page)) <= 0, `${name}: horizontal overflow at ${viewport.width}px`);
          backgrounds[scheme] = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          await screenshot(page, `${name}-${size}-${scheme}`, { fullPage: size === 'desktop' });
          assert.deepEqual(page.errors, []);
          await page.close();
        }
      });
    }
  }

  test('dark and light use different backgrounds', () => {
    assert.ok(backgrounds.light && backgrounds.dark, 'both themes were rendered');
    assert.notEqual(backgrounds.light, backgrounds.dark);
  });

  test('large text for projectors scales the page and still fits', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await page.setViewportSize({ width: 1280, height: 800 });
    await choosePreset(page, 'rolling-basic');
    await stepToRound(page, 8);
    const size = () => page.locator('.headline').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const normal = await size();
    const toggle = page.locator(byTestId('large-text-toggle'));
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.ok((await size()) >= normal * 1.25, 'text is larger');
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal overflow with large text');
    await screenshot(page, 'mid-rollout-projector-light', { fullPage: false });
    await page.close();
  });

  test('pod states differ in shape or outline, not only in colour, and have a legend', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    const looks = await page.locator('.pod-legend .pod-sample').evaluateAll((pods) =>
      pods.map((p) => {
        const s = getComputedStyle(p);
        return [s.borderStyle, s.borderRadius, s.backgroundImage === 'none' ? 'flat' : 'pattern', s.opacity, `outline ${s.outlineStyle}`].join(' ');
      }),
    );
    assert.equal(looks.length, 7);
    assert.equal(new Set(looks).size, looks.length, `legend swatches must differ without colour: ${looks.join(' | ')}`);
    const labels = await page.locator('.pod-legend li').allTextContents();
    assert.deepEqual(labels, ['Pending', 'Running, not ready', 'Ready', 'Available', 'Terminating', 'Deleted next', 'Deleted this step']);
    await page.close();
  });
});
