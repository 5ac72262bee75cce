// Liveness versus readiness (issue #34): the same slow app (it answers 45 s after each start)
// under a template with a livenessProbe (every 10 s, failureThreshold 3) restarts for ever;
// under the template without it, its readinessProbe waits and the pod joins. The lesson asks
// for the rounds, the stage shows the killed pod's restarts, and the Inside view prints
// `kubectl describe pod` from the pod's status.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, expectText, fill, openApp } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';
import { panel, atStep, answer } from '../lib/lesson.mjs';

const app = servedApp();

const lessonText = async (page) => (await page.locator(byTestId('lesson-text')).textContent()) ?? '';
const next = (page) => page.locator(byTestId('lesson-next')).click();

describe('the liveness-vs-readiness lesson', () => {
  test('end to end: the kill predicted, the restarts on the stage and in kubectl describe pod, the fixed template joins', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?lesson=liveness-vs-readiness`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await panel(page).waitFor();
    // Step 0: the numbers come from the core: 45 s to answer, 10 s × 3 of patience.
    const intro = await lessonText(page);
    assert.match(intro, /needs 45 s after each start/);
    assert.match(intro, /every 10 s, failureThreshold 3, so 30 s of patience/);
    // The new pod is created at 10 s; liveness ticks at 10 (not yet running), 20, 30, 40 s:
    // killed and restarted at 40 s, round 40 (1 s rounds).
    let fb = await answer(page, '55');
    assert.equal(fb.correct, false);
    assert.match(fb.text, /liveness probe runs every 10 s/);
    assert.doesNotMatch(fb.text, /\b40\b/, 'the hint does not state the answer');
    fb = await answer(page, '40');
    assert.ok(fb.correct, fb.text);
    await next(page);
    await atStep(page, 1);
    const killed = await lessonText(page);
    assert.match(killed, /failed 3 times in a row/);
    assert.match(killed, /RESTARTS 1\./);
    // The old pods all serve: 3 available = minAvailable 3.
    assert.match(killed, /3 pods are available, the 3 maxUnavailable 0 requires/);
    const pod = page.locator(`${byTestId('stage')} [data-pod^="web-rev2-"]`).first();
    assert.equal(await pod.getAttribute('data-restarts'), '1');
    // The step's caption says what the kubelet did.
    await expectText(page, 'explanation-headline', /Killed web-rev2-00001's container \(it failed its liveness probe\), started web-rev2-00001's container\./);
    await expectText(page, 'budget-waiting', /^The new pod web-rev2-00001 was killed by its liveness probe, restarted once and is not ready: it is not available, so maxUnavailable 0 holds the old pods\.$/);
    await screenshot(page, 'liveness-lesson-killed-1280x720', { fullPage: false });
    await next(page);
    await atStep(page, 2);
    // Kills at 40, 70, 100, 130 s, each restart at once; the kill at 160 s finds the
    // container before exited 30 s ago, within its 40 s back-off: restarted at 200 s.
    fb = await answer(page, '160');
    assert.equal(fb.correct, false);
    fb = await answer(page, '200');
    assert.ok(fb.correct, fb.text);
    await next(page);
    await atStep(page, 3);
    assert.match(await lessonText(page), /CrashLoopBackOff/);
    assert.equal(await pod.getAttribute('data-restarts'), '5');

    // The killed pod in the Inside view: kubectl describe pod, printed from its status.
    await page.locator(byTestId('inside-toggle')).click();
    await page.locator(byTestId('object-select')).selectOption('pod/web-rev2-00001');
    const describeOut = page.locator(byTestId('describe-pod-output'));
    await describeOut.waitFor();
    const described = (await describeOut.textContent()) ?? '';
    assert.match(described, /Restart Count:\s+5/);
    assert.match(described, /Last State:\s+Terminated/);
    assert.match(described, /Exit Code:\s+137/);
    assert.match(described, /Liveness probe failed/);
    assert.match(described, /Container shop failed liveness probe, will be restarted/);
    await describeOut.scrollIntoViewIfNeeded();
    await screenshot(page, 'liveness-describe-pod-1280x720', { fullPage: false });
    await page.locator(byTestId('inside-toggle')).click();

    // The phone: the stage with the killed pod fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(byTestId('stage')).scrollIntoViewIfNeeded();
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal scroll at 390 px');
    await screenshot(page, 'liveness-lesson-stage-390x844', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 720 });

    // The template without the livenessProbe: its first pod is created at 210 s; readiness
    // fails at 210, 220, 230, 240, 250 s and succeeds at 260 s, after the app answers (255 s).
    await next(page);
    await atStep(page, 4);
    fb = await answer(page, '255');
    assert.equal(fb.correct, false);
    fb = await answer(page, '260');
    assert.ok(fb.correct, fb.text);
    await next(page);
    await atStep(page, 5);
    const joined = await lessonText(page);
    assert.match(joined, /Ready at t = 260 s/);
    assert.match(joined, /RESTARTS 0/);
    assert.match(joined, /\(\d+ Unhealthy events\)/);
    await next(page);
    await atStep(page, 6);
    assert.match(await lessonText(page), /successfully rolled out/);
    await screenshot(page, 'liveness-lesson-complete-1280x720', { fullPage: false });
    assert.deepEqual(page.errors, []);
  });
});
