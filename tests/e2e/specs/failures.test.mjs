// Rollouts that go wrong (issue #34): a new image whose app crashes 5 s after each start,
// chosen in the settings the way a scenario's `model.failures` and `rollout plan --fail` name it.
// The stage shows the crash-looping pod's restarts and its back-off counting down, the caption
// says why the rollout waits, and `kubectl get pods` prints the pod as kubectl does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, CUSTOM, expectText, fill, openApp } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';
import { panel, atStep, answer } from '../lib/lesson.mjs';

const app = servedApp();

const step = (page) => page.locator(byTestId('step-button')).click();

/** The new ReplicaSet's pod on the stage (the second lane's first token), as data. */
async function newPod(page) {
  return page.locator(`${byTestId('stage')} ${byTestId('rs-lane')}`).evaluateAll((lanes) => {
    const lane = lanes.find((l) => l.dataset.new === 'true' && l.dataset.revision === '2');
    const p = lane?.querySelector('[data-testid="pod"]');
    return p
      ? { name: p.dataset.pod, reason: p.dataset.reason ?? null, restarts: Number(p.dataset.restarts ?? 0), backOff: p.dataset.backOff == null ? null : Number(p.dataset.backOff), badge: p.querySelector('.pod-restarts')?.textContent ?? null, countdown: p.querySelector('.pod-countdown')?.textContent ?? null }
      : null;
  });
}

/** The settings' scenario (3 replicas, 25% / 25%: maxUnavailable rounds down to 0, 1 s
 * rounds, pods ready 5 s after their start), the next image crashing 5 s after each start,
 * rolled out, then stepped until the new pod has restarted `restarts` times and waits. */
async function crashLoop(page, restarts) {
  await fill(page, 'failure-input', 'crash:after=5s');
  const available = page.locator(`${byTestId('stage')} ${byTestId('budget-available')}`);
  for (let i = 0; i < 40 && (await available.getAttribute('data-value').catch(() => null)) !== '3'; i++) await step(page);
  await page.locator(byTestId('update-image-button')).click();
  for (let i = 0; i < 200; i++) {
    const p = await newPod(page);
    if (p && p.restarts === restarts && p.reason === 'CrashLoopBackOff') return p;
    await step(page);
  }
  assert.fail(`no pod restarted ${restarts} times: ${JSON.stringify(await newPod(page))}`);
}

describe('a new image that crashes', () => {
  test('the stage shows the restarts and the back-off, kubectl get pods prints them as kubectl does', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}${CUSTOM}`);
    await page.setViewportSize({ width: 1280, height: 720 });
    const p = await crashLoop(page, 3);
    // Started at t, exits at t+5 (restarted at once: RESTARTS 1), t+10 (back-off 10 s → t+20),
    // t+25 (20 s → t+45), t+50 (40 s → t+90): the third restart's back-off is 40 s, so the
    // first moment it shows RESTARTS 3 in CrashLoopBackOff is its exit, 40 s left.
    assert.equal(p.badge, '↻3');
    assert.ok(p.backOff > 0 && p.backOff <= 40, `back-off left ${p.backOff}`);
    assert.equal(p.countdown, `${p.backOff}s`);
    const line = async () =>
      ((await page.locator(byTestId('get-pods')).textContent()) ?? '').split('\n').find((l) => l.startsWith(p.name)) ?? '';
    // kubectl's printPod: READY 0/1, STATUS the waiting reason, RESTARTS with the last exit's
    // age (kubectl ≥ 1.23), columns padded as its tab writer does.
    let row = await line();
    assert.match(row, /^web-rev2-\d{5}\s+0\/1\s+CrashLoopBackOff\s+3 \(\d+s ago\)\s+\d+s$/, row);
    // Step on 20 s into the 40 s back-off: `3 (20s ago)`, 20 s left on the token.
    for (let i = 0; i < 60; i++) {
      row = await line();
      if (row.includes('3 (20s ago)') || !row.includes('CrashLoopBackOff')) break;
      await page.locator(byTestId('step-round-button')).click();
    }
    assert.match(row, /^web-rev2-\d{5}\s+0\/1\s+CrashLoopBackOff\s+3 \(20s ago\)\s+\d+s$/, row);
    const now = await newPod(page);
    assert.equal(now.backOff, 20);
    assert.equal(now.countdown, '20s');
    // Why the rollout waits, in the core's words, with the same numbers.
    await expectText(page, 'budget-waiting', `The new pod ${p.name} restarted 3 times and is waiting 20 s (CrashLoopBackOff): it is not available, so maxUnavailable 0 holds the old pods.`);
    // The old pods stay available: 3 of at least 3.
    const available = page.locator(`${byTestId('stage')} ${byTestId('budget-available')}`);
    assert.equal(await available.getAttribute('data-value'), '3');
    await screenshot(page, 'crash-loop-stage-1280x720', { fullPage: false });
    await page.locator(byTestId('get-pods')).scrollIntoViewIfNeeded();
    await screenshot(page, 'crash-loop-get-pods-1280x720', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(byTestId('stage')).scrollIntoViewIfNeeded();
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal scroll at 390 px');
    await screenshot(page, 'crash-loop-stage-390x844', { fullPage: false });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator(byTestId('present-toggle')).click();
    await page.locator('.app.presenting').waitFor();
    await screenshot(page, 'crash-loop-present-1920x1080', { fullPage: false });
    assert.deepEqual(page.errors, []);
  });

  test('a failure the core cannot read is refused next to the field in its words', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}${CUSTOM}`);
    await fill(page, 'failure-input', 'crash');
    const error = page.locator('#failure-error');
    await error.waitFor();
    assert.equal(await error.textContent(), '"crash": `crash` needs after=DURATION');
    assert.deepEqual(page.errors, []);
  });
});

describe('the crash-loop lesson', () => {
  test('end to end: the capacity kept, the next restart predicted, the pod restarting on the stage, the deadline', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?lesson=crash-loop`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await panel(page).waitFor();
    // Step 1: 3 replicas, maxSurge 1, maxUnavailable 0: at least 3 − 0 = 3 available, so the
    // old ReplicaSet keeps all 3 (the capacity left).
    let fb = await answer(page, '2');
    assert.equal(fb.correct, false);
    assert.doesNotMatch(fb.text, /\b3 replicas\b.*will ask/);
    fb = await answer(page, '3');
    assert.ok(fb.correct, fb.text);
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 1);
    assert.match(await page.locator(byTestId('lesson-text')).textContent(), /RESTARTS 1\./);
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 2);
    // Started at 10 s, the app crashes 5 s after each start: exit 15 (restart at once), exit 20
    // (+10 s → restart 30), exit 35 (+20 s → restart 55): the third restart is in round 55
    // (1 s rounds).
    fb = await answer(page, '45');
    assert.equal(fb.correct, false);
    assert.match(fb.text, /too early/);
    assert.match(fb.text, /10 s at first and doubling/);
    assert.doesNotMatch(fb.text, /\b55\b/, 'the hint does not state the answer');
    fb = await answer(page, '55');
    assert.ok(fb.correct, fb.text);
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 3);
    assert.match(await page.locator(byTestId('lesson-text')).textContent(), /last exit at t = 35 s/);
    const pod = page.locator(`${byTestId('stage')} [data-pod^="web-rev2-"]`).first();
    assert.equal(await pod.getAttribute('data-restarts'), '3');
    await screenshot(page, 'crash-lesson-1280x720', { fullPage: false });
    await page.locator(byTestId('lesson-next')).click();
    await atStep(page, 4);
    assert.match(await page.locator(byTestId('lesson-text')).textContent(), /ProgressDeadlineExceeded/);
    assert.deepEqual(page.errors, []);
  });
});

describe('?embed', () => {
  test('the cards show the crash loop and the foot says why the rollout waits', async () => {
    // 1 replica of web:1, then web:2 crashing 5 s after each start (maxUnavailable 0, 1 s
    // rounds): started at 10 s, restarts at 15, 30 and 55 s, then waits until 100 s.
    const scenario = {
      name: 'crash', rounds: 200, secondsPerRound: 1, readyAfterRounds: 10, terminationRounds: 0, nodes: 1, settle: true,
      model: { failures: { 'web:2': 'crash:after=5s' } },
      actions: [
        { round: 0, type: 'create', deployment: { name: 'web', replicas: 1, image: 'web:1', strategy: { type: 'RollingUpdate', maxSurge: 1, maxUnavailable: 0 } } },
        { round: 10, type: 'setImage', image: 'web:2' },
      ],
    };
    const home = await openApp(app.browser.context, app.server.url);
    const link = await home.evaluate(async (scenario) => {
      const m = await import('./rollout-lab.js');
      await m.default();
      return m.encodeLink(scenario);
    }, scenario);
    const page = await openApp(app.browser.context, `${app.server.url}?embed#${link}`);
    await page.setViewportSize({ width: 800, height: 500 });
    const pod = page.locator('[data-pod^="web-rev2-"]').first();
    // Step until it has restarted 3 times and crashed again (60 s): CrashLoopBackOff.
    const at = async () => [await pod.getAttribute('data-restarts').catch(() => null), await pod.getAttribute('data-reason').catch(() => null)].join(' ');
    for (let i = 0; i < 100 && (await at()) !== '3 CrashLoopBackOff'; i++) {
      await page.locator(byTestId('step-button')).click();
    }
    assert.equal(await pod.getAttribute('data-restarts'), '3');
    assert.equal(await pod.getAttribute('data-reason'), 'CrashLoopBackOff');
    await expectText(page, 'budget-waiting', /^The new pod web-rev2-00001 restarted 3 times and is waiting \d+ s \(CrashLoopBackOff\): it is not available, so maxUnavailable 0 holds the old pods\.$/);
    await screenshot(page, 'crash-loop-embed-800x500', { fullPage: false });
    assert.deepEqual(page.errors, []);
  });
});
