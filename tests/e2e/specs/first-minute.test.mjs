// A newcomer's and a teacher's first minute (issue #22): the first screen shows a rollout a
// Step or two away, one status line that is always current (and offers what to do once the
// rollout is done), gauges that say when the Deployment's status lags the pods, presentation
// mode with a lesson on one 1920×1080 screen, menus that fit a phone, and Compare by moments.
// Written as a user acts: clicks and keys, assertions on what is visible.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, fill, openApp, runToEnd, axeAudit } from '../lib/app.mjs';
import { screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();


/** Whether the element is wholly inside the viewport (no scrolling needed). */
async function inViewport(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return !!box && box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
}

/** The stage's lanes: `{ name, isNew, available }` (available: pods drawn Available). */
async function lanes(page, stage = 'stage') {
  return page.locator(`${byTestId(stage)} ${byTestId('rs-lane')}`).evaluateAll((ls) =>
    ls.map((l) => ({
      name: l.dataset.name,
      isNew: l.dataset.new === 'true',
      available: l.querySelectorAll('[data-testid="pod"][data-state="available"]').length,
    })),
  );
}

/** The page's visible text (what a reader sees, hidden elements left out). */
const visibleText = (page) => page.evaluate(() => document.body.innerText);

async function openAt(width, height, url = app.server.url) {
  const page = await openApp(app.browser.context, url);
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return page;
}

describe('the first screen', () => {
  for (const [width, height] of [[1280, 720], [390, 844]]) {
    test(`${width}×${height}: a rollout in progress within 3 Steps, the next action above the fold`, async () => {
      const page = await openAt(width, height);
      const step = page.locator(byTestId('step-button'));
      // The Deployment runs; the image change is what Step does next, and says so.
      await page.locator(byTestId('rs-lane')).first().waitFor();
      assert.equal((await lanes(page)).length, 1);
      assert.equal((await lanes(page))[0].available, 3, 'three available pods');
      await page.locator(byTestId('stage-caption')).filter({ hasText: 'kubectl set image' }).waitFor();
      assert.ok(await inViewport(page, step), 'Step is above the fold');
      assert.ok(await inViewport(page, page.locator(byTestId('stage-caption'))), 'the caption is above the fold');
      assert.equal(await step.isDisabled(), false);
      await screenshot(page, `first-visit-${width}x${height}`, { fullPage: false });
      await axeAudit(page, `first visit ${width}×${height}`);
      let presses = 0;
      while ((await lanes(page)).length < 2 && presses < 3) {
        await step.click();
        presses++;
      }
      assert.equal((await lanes(page)).length, 2, `a new ReplicaSet after ${presses} Steps`);
      const status = page.locator(byTestId('status-line'));
      assert.equal(await status.getAttribute('data-state'), 'progressing');
      assert.match(await status.textContent(), /In progress: Waiting for deployment "web" rollout to finish/);
      assert.equal(await step.isDisabled(), false, 'Step never greys out before a rollout was seen');
      await screenshot(page, `first-visit-rolling-${width}x${height}`, { fullPage: false });
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test('?embed with no preset opens on the same running Deployment', async () => {
    const page = await app.browser.context.newPage();
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`${app.server.url}?embed`);
    const cards = () => page.locator(byTestId('rs-card'));
    await cards().first().waitFor();
    assert.equal(await cards().count(), 1);
    assert.equal(await cards().first().getAttribute('data-available'), '3', 'the Deployment runs');
    for (let i = 0; i < 3 && (await cards().count()) < 2; i++) await page.locator(byTestId('step-button')).click();
    assert.equal(await cards().count(), 2, 'a rollout within 3 Steps');
    await page.close();
  });
});

describe('one status line', () => {
  test('End: said once; the disabled Step offers another image or Reset; a new rollout clears it', async () => {
    const page = await openAt(1280, 720);
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await runToEnd(page);
    const step = page.locator(byTestId('step-button'));
    assert.equal(await step.isDisabled(), true);
    assert.match((await step.getAttribute('title')) ?? '', /Roll out another image, or Reset/);
    const text = await visibleText(page);
    assert.equal(text.split('nothing more will happen').length - 1, 1, `said once:\n${text.slice(0, 800)}`);
    assert.equal(await page.locator(byTestId('notice')).count(), 0);
    assert.match(await page.locator(byTestId('stage-caption')).textContent(), /^End: /);
    assert.match(await page.locator(byTestId('clock')).textContent(), /at rest/);
    const rollOut = page.locator(byTestId('settled-roll-out'));
    assert.ok(await inViewport(page, rollOut), 'the next action is in view');
    assert.ok(await inViewport(page, page.locator(byTestId('settled-reset'))));
    await screenshot(page, 'status-line-done-1280x720', { fullPage: false });
    await axeAudit(page, 'status line at the end');
    assert.match(await rollOut.textContent(), /^Roll out nginx:/);
    await rollOut.click();
    // The image change is pending: Step is on, nothing says it is over.
    assert.equal(await step.isDisabled(), false);
    assert.doesNotMatch(await visibleText(page), /nothing more will happen/);
    await step.click();
    await step.click();
    assert.doesNotMatch(await page.locator(byTestId('clock')).textContent(), /at rest/);
    assert.equal(await page.locator(byTestId('status-line')).getAttribute('data-state'), 'progressing');
    assert.doesNotMatch(await visibleText(page), /nothing more will happen/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('the gauges agree with the stage', () => {
  test('never "short" beside as many available pods as required; a lagging status says why', async () => {
    const page = await openAt(1280, 720, `${app.server.url}#p=rolling-basic`);
    const step = page.locator(byTestId('step-button'));
    let lagged = 0;
    for (let i = 0; i < 120 && !(await step.isDisabled()); i++) {
      await step.click();
      const g = page.locator(`${byTestId('stage')} ${byTestId('budget-available')}`);
      if ((await g.count()) === 0) continue;
      const limit = Number(await g.getAttribute('data-limit'));
      const onStage = (await lanes(page)).reduce((n, l) => n + l.available, 0);
      const words = await g.textContent();
      if (onStage >= limit) assert.doesNotMatch(words, /short/, `step ${i + 1}: ${onStage} available pods on the stage`);
      assert.equal(Number(await g.getAttribute('data-live')), onStage, 'the bar counts the pods on the stage');
      for (const id of ['budget-total', 'budget-available']) {
        const gauge = page.locator(`${byTestId('stage')} ${byTestId(id)}`);
        const [value, live] = [Number(await gauge.getAttribute('data-value')), Number(await gauge.getAttribute('data-live'))];
        const behind = page.locator(`${byTestId('stage')} ${byTestId(`${id}-behind`)}`);
        if (value !== live) {
          lagged++;
          assert.match(await behind.textContent(), new RegExp(`status counts ${value} yet, the stage shows ${live}: the (Deployment|ReplicaSet) controller has not synced`));
          if (lagged === 1) await screenshot(page, 'gauges-behind-1280x720', { fullPage: false });
        } else {
          assert.equal(await behind.count(), 0);
        }
      }
    }
    assert.ok(lagged > 0, 'the status lagged the pods at some step, and said so');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('presentation mode with a lesson', () => {
  test('1920×1080: the lesson beside both lanes, both gauges, the caption and the answer box; Page Down drives it', async () => {
    const page = await openAt(1920, 1080, `${app.server.url}?lesson=rolling-update`);
    await page.locator(byTestId('lesson-panel')).waitFor();
    await page.locator(byTestId('present-toggle')).click();
    await page.locator('.app.presenting').waitFor();
    const stepOf = async () => (await page.locator('.lesson-count').textContent()) ?? '';
    // Page Down through the lesson to a question asked mid-rollout (two lanes).
    let moved = 0;
    for (let i = 0; i < 15; i++) {
      if ((await lanes(page)).length >= 2 && (await page.locator(byTestId('lesson-answer')).count()) > 0) break;
      const before = await stepOf();
      await page.keyboard.press('PageDown');
      await page.waitForFunction((b) => document.querySelector('.lesson-count')?.textContent !== b, before, { timeout: 5_000 }).catch(() => {});
      if ((await stepOf()) !== before) moved++;
    }
    assert.ok(moved > 0, 'Page Down moved the lesson on');
    assert.ok((await lanes(page)).length >= 2, 'two lanes');
    await screenshot(page, 'present-lesson-1920x1080', { fullPage: false });
    const answer = page.locator(byTestId('lesson-answer'));
    const visible = {
      'both lanes': page.locator(`${byTestId('stage')} ${byTestId('rs-lane')}`),
      'the total gauge': page.locator(`${byTestId('stage')} ${byTestId('budget-total')}`),
      'the available gauge': page.locator(`${byTestId('stage')} ${byTestId('budget-available')}`),
      'the caption': page.locator(byTestId('stage-caption')),
      'the answer box': answer,
      'the chart': page.locator(`${byTestId('stage')} .chart`),
    };
    for (const [what, loc] of Object.entries(visible)) {
      const n = await loc.count();
      assert.ok(n > 0, `${what} is there`);
      for (let i = 0; i < n; i++) assert.ok(await inViewport(page, loc.nth(i)), `${what} (${i + 1}) is inside the viewport`);
    }
    const size = (sel) => page.locator(sel).first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const [answerPx, textPx] = [await size(byTestId('lesson-answer')), await size(byTestId('lesson-text'))];
    assert.ok(answerPx >= textPx * 0.85, `the answer box's type (${answerPx}px) is at the lesson's scale (${textPx}px)`);
    // The caption is not clipped: its whole text fits its box.
    const clipped = await page.locator(byTestId('stage-caption')).evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    assert.equal(clipped, false, 'the caption is not clipped');
    await axeAudit(page, 'presentation with a lesson');
    const before = await stepOf();
    await page.keyboard.press('PageUp');
    await page.waitForFunction((b) => document.querySelector('.lesson-count')?.textContent !== b, before, { timeout: 5_000 });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('a phone', () => {
  test('390 px: the menus and dialogs other than Lessons fit the width', async () => {
    const page = await openAt(390, 844);
    await page.locator(byTestId('rs-lane')).first().waitFor();
    /** Elements that reach past the right edge (or start left of 0), by their test id or tag. */
    const overflowing = () =>
      page.evaluate(() => {
        const w = window.innerWidth;
        return [...document.querySelectorAll('body *')]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) return false;
            if (el.closest('.visually-hidden, [hidden], .lessons-menu')) return false;
            // Inside a scroll box that itself fits (a wide table scrolls sideways in its box).
            for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
              const o = getComputedStyle(p).overflowX;
              if ((o === 'auto' || o === 'scroll') && p.getBoundingClientRect().right <= w + 0.5) return false;
            }
            return r.right > w + 0.5 || r.left < -0.5;
          })
          .map((el) => el.dataset.testid || `${el.tagName.toLowerCase()}.${el.className}`)
          .slice(0, 8);
      });
    assert.deepEqual(await overflowing(), [], 'the page itself');
    for (const opener of ['copy-link-button', 'embed-button']) {
      await page.locator(byTestId(opener)).click();
      const dialog = page.locator('[role="dialog"]').last();
      await dialog.waitFor();
      assert.deepEqual(await overflowing(), [], `with ${opener}'s dialog open`);
      await screenshot(page, `phone-${opener}-390x844`, { fullPage: false });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' }).catch(() => {});
    }
    // The preset menu: a native select, as wide as the page allows.
    const select = page.locator(byTestId('preset-select'));
    assert.ok(await inViewport(page, select) || (await select.boundingBox()).width <= 390);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('Compare by moments both stages share', () => {
  test('Step takes A and B to the same clock; the figures that differ are marked beside the stages', async () => {
    const page = await openAt(1280, 720);
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await page.locator(byTestId('compare-toggle')).click();
    await page.locator(byTestId('stage-b')).waitFor();
    await fill(page, 'compare-max-surge', '0');
    await fill(page, 'compare-max-unavailable', '1');
    await page.locator(`${byTestId('compare-figs-b')} [data-differs="true"]`).first().waitFor();
    const clocks = async () =>
      page.evaluate(() => [...document.querySelectorAll('[data-testid="clock"]')].map((c) => Number(c.dataset.seconds)));
    for (let i = 0; i < 4; i++) {
      await page.locator(byTestId('step-button')).click();
      await page.waitForFunction(() => {
        const c = [...document.querySelectorAll('[data-testid="clock"]')].map((e) => e.dataset.seconds);
        return c.length === 2 && c[0] === c[1];
      });
      const [a, b] = await clocks();
      assert.equal(a, b, `after Step ${i + 1}: both stages at the same moment`);
    }
    await screenshot(page, 'compare-moments-1280x720', { fullPage: false });
    // 3 + maxSurge 1 vs 3 + 0: B's peak differs from A's, and so does the lowest availability.
    for (const side of ['a', 'b']) {
      for (const key of ['peak', 'lowest']) {
        const fig = page.locator(`${byTestId(`compare-figs-${side}`)} ${byTestId(`compare-fig-${key}`)}`);
        assert.equal(await fig.getAttribute('data-differs'), 'true', `${side} ${key} is marked`);
        assert.ok(await inViewport(page, fig), `${side}'s ${key} is above the fold`);
        assert.match(await fig.textContent(), /differs: [AB] \d+/);
      }
    }
    await axeAudit(page, 'Compare with figures');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
