// What users see (issue #35): the Service in front of the lanes, its endpoints marked on the
// pods, the strip of served and failed requests a second, and why requests fail, all of it the
// core's traffic model. The readiness-probe lesson end to end (load 40 req/s, the proxies told
// 1 s after a change, an app answering 8 s after its start, `kubectl scale` 3 → 4 at 20 s:
// the new pod gets 10 req/s from 21 s to 27 s, 70 failed; with a readiness probe none), the
// stage at the three sizes, axe in both themes, the traffic settings, and <rollout-lab traffic>.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeAudit, byTestId, CUSTOM, fill, openApp } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';
import { panel, atStep, answer } from '../lib/lesson.mjs';

const app = servedApp();



/** The stage's Service and the new pod's endpoint mark, as data. */
async function service(page) {
  const s = page.locator(`${byTestId('stage')} ${byTestId('service')}`);
  const pod = page.locator(`${byTestId('stage')} [data-pod="web-rev1-00004"]`);
  return {
    at: Number(await s.getAttribute('data-at')),
    load: Number(await s.getAttribute('data-load')),
    failed: Number(await s.getAttribute('data-failed')),
    endpoint: await pod.getAttribute('data-endpoint'),
    sent: Number(await pod.getAttribute('data-sent')),
    podFailed: Number(await pod.getAttribute('data-failed')),
  };
}

describe('the readiness-probe lesson', () => {
  test('end to end: the prediction, the failing pod on the stage, the strip, the figure with a probe; three sizes; axe', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?lesson=readiness-probes`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await panel(page).waitFor();
    // The Service is on the stage from the start (the lesson's scenario models its requests).
    await page.locator(`${byTestId('stage')} ${byTestId('service')}`).waitFor();
    // Step 1: how many requests fail after `kubectl scale` to 4? 7 s × 10 req/s.
    let fb = await answer(page, '40');
    assert.equal(fb.correct, false);
    assert.match(fb.text, /40 is fewer than will fail/);
    assert.doesNotMatch(fb.text, /\b70\b/, 'the hint does not state the answer');
    fb = await answer(page, '70');
    assert.ok(fb.correct, fb.text);
    // Step 2: the first second with failures: the new pod is a ready endpoint, gets 10 req/s
    // and answers none; the caption says why in the core's words.
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 1);
    const s = await service(page);
    assert.deepEqual(s, { at: 21, load: 40, failed: 10, endpoint: 'ready', sent: 10, podFailed: 10 });
    const why = (await page.locator(byTestId('stage-traffic-why')).textContent()) ?? '';
    assert.match(why, /^Requests fail: sent 10 req\/s to web-rev1-00004: Ready as its container started at 20 s \(no readiness probe\), but the app answers from 8 s after the start \(28 s\)\.$/);
    const strip = page.locator(byTestId('traffic-strip'));
    assert.match((await page.locator(byTestId('traffic-now')).textContent()) ?? '', /^Second 21: 30 of 40 requests served, 10 failed\.$/);
    assert.equal(await strip.locator('.strip-failed').count() > 0, true, 'failures drawn on the strip');
    await screenshot(page, 'traffic-lesson-1280x720', { fullPage: false });
    // Step 3: every request served again: 70 failed; with a readiness probe, 0.
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 2);
    const text = (await page.locator(byTestId('lesson-text')).textContent()) ?? '';
    assert.match(text, /70 requests failed because of the scale-up/);
    assert.match(text, /with a readiness probe .*: 0 failed/);
    assert.equal((await service(page)).failed, 0);
    // Second 0 with no endpoint the proxies know (40), seconds 1–7 with the first three apps
    // booting (7 × 40), then the scale-up's 70.
    assert.equal(await strip.getAttribute('data-failed-so-far'), String(40 + 280 + 70));
    // The phone: no sideways scroll, the Service and the strip readable.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(`${byTestId('stage')} ${byTestId('service')}`).scrollIntoViewIfNeeded();
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal scroll at 390 px');
    await screenshot(page, 'traffic-stage-390x844', { fullPage: false });
    // Present at 1920×1080: the stage fills the screen, the strip under it.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator(byTestId('present-toggle')).click();
    await page.locator('.app.presenting').waitFor();
    assert.ok(await strip.isVisible());
    await screenshot(page, 'traffic-present-1920x1080', { fullPage: false });
    await page.locator(byTestId('present-toggle')).click();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await axeAudit(page, `the stage with traffic (${scheme})`);
    }
    assert.deepEqual(page.errors, []);
  });
});

describe('the traffic settings', () => {
  test('switched on, a pod capacity below the share: over capacity on the stage; the core refuses a load of 0 next to the field', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}${CUSTOM}`);
    await page.setViewportSize({ width: 1280, height: 720 });
    assert.equal(await page.locator(byTestId('traffic-strip')).count(), 0, 'off by default');
    await page.locator(byTestId('traffic-toggle')).check();
    await page.locator(byTestId('traffic-strip')).waitFor();
    await fill(page, 'load-input', '0');
    const error = page.locator('#load-error');
    await error.waitFor();
    assert.equal(await error.textContent(), 'Load (req/s): 0 is not a rate the model takes: give at least 1 request a second');
    // 90 req/s over 3 pods, 20 a pod at most: 10 over each pod's capacity once all are ready.
    await fill(page, 'load-input', '90');
    await fill(page, 'pod-capacity-input', '20');
    const s = page.locator(`${byTestId('stage')} ${byTestId('service')}`);
    // Round by round (the controllers are done once the pods are available; the proxies and
    // the load go on).
    for (let i = 0; i < 20 && (await s.getAttribute('data-served')) !== '60'; i++) {
      await page.locator(byTestId('step-round-button')).click();
    }
    assert.equal(await s.getAttribute('data-served'), '60');
    assert.equal(await s.getAttribute('data-failed'), '30');
    assert.match((await page.locator(byTestId('stage-traffic-why')).textContent()) ?? '', /got 30 req\/s and serves at most 20: 10 failed over its capacity/);
    // The share link keeps it.
    await page.locator(byTestId('copy-link-button')).click();
    const link = await page.locator(byTestId('share-link')).inputValue();
    const again = await openApp(app.browser.context, link);
    await again.locator(byTestId('traffic-strip')).waitFor();
    assert.equal(await again.locator(byTestId('load-input')).inputValue(), '90');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(again.errors, []);
  });
});

describe('<rollout-lab traffic>', () => {
  test('the element shows the Service, the endpoint marks and the strip; without the attribute it does not', async () => {
    const page = await app.browser.context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>traffic</title>
      <script type="module" src="./rollout-lab.js"></script></head><body><main><h1>Traffic</h1>
      <rollout-lab id="t" preset="rolling-basic" traffic controls="step,play,image" label="With the Service"></rollout-lab>
      <rollout-lab id="plain" preset="rolling-basic" label="Without"></rollout-lab></main></body></html>`;
    await page.route('**/traffic-element.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.server.url}traffic-element.html`);
    const strip = page.locator('#t').locator(byTestId('traffic-strip'));
    await strip.waitFor();
    const step = page.locator('#t').locator(byTestId('step-button'));
    for (let i = 0; i < 12 && !(await page.locator('#t').locator('[data-endpoint="ready"]').count()); i++) await step.click();
    assert.ok((await page.locator('#t').locator('[data-endpoint="ready"]').count()) > 0, 'endpoint marks on the cards');
    assert.equal(await page.locator('#plain').locator(byTestId('traffic-strip')).count(), 0);
    await page.locator('#t').scrollIntoViewIfNeeded();
    await screenshot(page, 'traffic-element-1280x900', { fullPage: false });
    await axeAudit(page, 'the element with traffic');
    assert.deepEqual(errors, []);
  });
});
