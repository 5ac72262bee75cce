// The classroom, second pass (issue #38): what a teacher at a 1920×1080 projector, a learner at
// 1280×720 and a student on a 390×844 phone see. Present after 10 Steps, with and without a
// lesson (caption, lanes and gauges apart, no horizontal overflow, Step on screen, the figures
// a class reads at least 20 px at 1920×1080); a lesson's click-a-pod question beside its pods;
// the Hint button (a hint that does not quote the answer); a wrong answer's feedback and Next in
// view; tap targets of at least 24 px on a phone (WCAG 2.2 target size). Measured as a person
// sees the page: boxes, font sizes, the viewport.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, fill, openApp } from '../lib/app.mjs';
import { screenshot, horizontalOverflow } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();

const SIZES = [[390, 844], [1280, 720], [1920, 1080]];

async function openAt(width, height, url = app.server.url) {
  const page = await openApp(app.browser.context, url);
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return page;
}

/** Whether the element is wholly inside the viewport. */
async function inViewport(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return !!box && box.width > 0 && box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
}

/** Whether a click at the element's centre reaches it (nothing drawn over it). */
async function reachable(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });
}

const overlap = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** The boxes of the caption, each lane and each gauge of the stage: none may cover another. */
async function stageBoxes(page) {
  const parts = {
    caption: byTestId('stage-caption'),
    lane: `${byTestId('stage')} ${byTestId('rs-lane')}`,
    'total gauge': `${byTestId('stage')} ${byTestId('budget-total')}`,
    'available gauge': `${byTestId('stage')} ${byTestId('budget-available')}`,
  };
  const boxes = [];
  for (const [what, sel] of Object.entries(parts)) {
    const loc = page.locator(sel);
    for (let i = 0; i < (await loc.count()); i++) {
      const box = await loc.nth(i).boundingBox();
      if (box && box.width > 0 && box.height > 0) boxes.push({ what: `${what} ${i + 1}`, ...box });
    }
  }
  return boxes;
}

/** The rendered size in CSS px of text (SVG text scaled by its viewBox included). */
async function renderedPx(locator) {
  return locator.evaluateAll((els) =>
    els
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const px = parseFloat(getComputedStyle(el).fontSize);
        const ctm = el instanceof SVGElement && el.getScreenCTM ? el.getScreenCTM() : null;
        return ctm ? px * Math.hypot(ctm.a, ctm.b) : px;
      }),
  );
}

async function stepTimes(page, n) {
  const step = page.locator(byTestId('step-button'));
  for (let i = 0; i < n; i++) {
    if (await step.isDisabled()) break;
    await step.click();
  }
}

describe('Present after 10 Steps', () => {
  for (const lesson of [false, true]) {
    for (const [width, height] of SIZES) {
      const name = `${lesson ? 'with a lesson' : 'alone'} at ${width}×${height}`;
      test(name, async () => {
        const page = await openAt(width, height, lesson ? `${app.server.url}?lesson=rolling-update` : app.server.url);
        if (lesson) await page.locator(byTestId('lesson-panel')).waitFor();
        await page.locator(byTestId('present-toggle')).click();
        await page.locator('.app.presenting').waitFor();
        await stepTimes(page, 10);
        await page.waitForTimeout(400);
        await screenshot(page, `classroom-present-${lesson ? 'lesson' : 'alone'}-${width}x${height}`, { fullPage: false });
        assert.ok((await horizontalOverflow(page)) <= 0, `no horizontal overflow (${await horizontalOverflow(page)} px)`);
        const step = page.locator(byTestId('step-button'));
        await step.scrollIntoViewIfNeeded();
        assert.ok(await inViewport(page, step), 'Step is on screen');
        assert.ok(await reachable(step), 'nothing covers Step');
        const boxes = await stageBoxes(page);
        assert.ok(boxes.some((b) => b.what.startsWith('lane')), 'a lane is drawn');
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            assert.ok(!overlap(boxes[i], boxes[j]), `${boxes[i].what} and ${boxes[j].what} overlap: ${JSON.stringify([boxes[i], boxes[j]])}`);
          }
        }
        // The caption's text stays in its box (a shrunk caption's text ran over the lanes).
        const spills = await page.locator(byTestId('stage-caption')).evaluate((el) => el.scrollHeight - el.clientHeight);
        assert.ok(spills <= 1, `the caption's text spills ${spills} px out of its box`);
        for (const b of boxes.filter((b) => b.what.startsWith('lane'))) {
          assert.ok(b.height >= 60, `${b.what} keeps room for its pods (${b.height} px)`);
        }
        if (width === 1920) {
          const figures = {
            'the chart axis labels': `${byTestId('stage')} .chart-svg text`,
            'the chart legend': `${byTestId('stage')} .chart-legend`,
            'the gauge arithmetic': `${byTestId('stage')} .gauge-rule`,
            'the OLD/NEW badges': `${byTestId('stage')} .lane-badge`,
          };
          // The chart is on the screen, not scrolled out of the stage.
          assert.ok(await inViewport(page, page.locator(`${byTestId('stage')} .chart-svg`)), 'the chart is on screen');
          for (const [what, sel] of Object.entries(figures)) {
            const sizes = await renderedPx(page.locator(sel));
            assert.ok(sizes.length > 0, `${what} are shown`);
            const least = Math.min(...sizes);
            assert.ok(least >= 20, `${what}: ${least.toFixed(1)} px, at least 20 px for the back of a room`);
          }
        }
        assert.deepEqual(page.errors, []);
        await page.close();
      });
    }
  }
});

describe('a lesson never hides what its question is about', () => {
  test('1280×720: "Which pod … Click it" beside the pods; a wrong answer, the Hint and Next in view', async () => {
    const page = await openAt(1280, 720, `${app.server.url}?lesson=rolling-update&step=3`);
    const prompt = page.locator(byTestId('lesson-prompt'));
    await prompt.waitFor();
    assert.match(await prompt.textContent(), /Which pod/);
    const pods = page.locator(`${byTestId('stage')} ${byTestId('rs-lane')} [data-pod]`);
    await pods.first().waitFor();
    await screenshot(page, 'classroom-pod-question-1280x720', { fullPage: false });
    assert.ok(await inViewport(page, prompt), 'the question is on screen');
    const n = await pods.count();
    for (let i = 0; i < n; i++) assert.ok(await inViewport(page, pods.nth(i)), `pod ${i + 1} of ${n} is on screen with the question`);
    // The Hint button: where to look, never the pod that goes.
    await page.locator(byTestId('lesson-hint-button')).click();
    const hint = page.locator(byTestId('lesson-hint'));
    await hint.waitFor();
    assert.match(await hint.textContent(), /node/);
    assert.doesNotMatch(await hint.textContent(), /web-rev1-00001/, 'the hint does not name the answer');
    // A wrong answer: click a pod of the new ReplicaSet on the stage.
    await page.locator(`${byTestId('stage')} ${byTestId('rs-lane')}[data-new="true"] [data-pod]`).first().click();
    const wrong = page.locator(`${byTestId('lesson-feedback')}[data-correct="false"]`);
    await wrong.waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'classroom-wrong-answer-1280x720', { fullPage: false });
    assert.ok(await inViewport(page, wrong), 'the wrong answer\'s feedback is in view');
    assert.ok(await inViewport(page, page.locator(byTestId('lesson-next'))), 'Next is in view');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('1920×1080 presenting: a wrong answer\'s feedback and Next in view in the lesson column', async () => {
    const page = await openAt(1920, 1080, `${app.server.url}?lesson=rolling-update&step=1`);
    await page.locator(byTestId('lesson-answer')).waitFor();
    await page.locator(byTestId('present-toggle')).click();
    await page.locator('.app.presenting').waitFor();
    await fill(page, 'lesson-answer', '3');
    await page.locator(byTestId('lesson-check')).click();
    const wrong = page.locator(`${byTestId('lesson-feedback')}[data-correct="false"]`);
    await wrong.waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'classroom-present-wrong-1920x1080', { fullPage: false });
    assert.ok(await inViewport(page, wrong), 'the feedback is in view');
    assert.ok(await inViewport(page, page.locator(byTestId('lesson-next'))), 'Next is in view');
    assert.doesNotMatch(await wrong.textContent(), /never beyond/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

/** Visible buttons, links, inputs and summaries smaller than 24×24 px (and with no room
 * around them: WCAG 2.2's spacing exception is not taken). */
async function smallTargets(page, within = 'body') {
  return page.locator(within).first().evaluate((root) => {
    const els = root.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary, [role=button], [tabindex="0"]');
    const small = [];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // A closed <details>' content keeps its boxes (content-visibility: hidden): not a target.
      if (!el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })) continue;
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden') continue;
      // An inline link inside a sentence is exempt (WCAG 2.5.8 "inline").
      if (el.tagName === 'A' && s.display === 'inline' && el.parentElement && /^(P|LI|SPAN)$/.test(el.parentElement.tagName) && el.parentElement.textContent.trim() !== el.textContent.trim()) continue;
      if (r.width < 24 || r.height < 24) small.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
    return small;
  });
}

describe('tap targets on a phone (390×844)', () => {
  test('the first screen, the Lessons menu and the Races view: every target at least 24 px', async () => {
    const page = await openAt(390, 844);
    await page.locator(byTestId('step-button')).waitFor();
    const first = await page.evaluate(() => window.innerHeight);
    const onFirst = (await smallTargets(page)).length;
    const firstScreen = await page.evaluate((h) => {
      return [...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, summary')]
        .filter((el) => el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }))
        .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.top < h && (r.width < 24 || r.height < 24); })
        .map((el) => `${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${el.getBoundingClientRect().width.toFixed(0)}×${el.getBoundingClientRect().height.toFixed(0)}`);
    }, first);
    assert.deepEqual(firstScreen, [], `small targets on the first screen (${onFirst} on the whole page)`);
    await page.locator(`${byTestId('lessons-menu')} summary`).click();
    await page.locator('.lessons-menu-body').waitFor();
    await screenshot(page, 'classroom-lessons-menu-390x844', { fullPage: false });
    assert.deepEqual(await smallTargets(page, '.lessons-menu-body'), [], 'small targets in the Lessons menu');
    await page.close();
    const races = await openAt(390, 844, `${app.server.url}?view=races`);
    await races.locator(byTestId('races-view')).waitFor();
    // A legend names the pod dots' styles.
    assert.match(await races.locator(byTestId('race-legend')).textContent(), /Not ready.*Ready, not yet available.*Available.*Terminating/);
    await screenshot(races, 'classroom-races-390x844', { fullPage: false });
    assert.deepEqual(await smallTargets(races, byTestId('races-view')), [], 'small targets in the Races view');
    assert.deepEqual(races.errors, []);
    await races.close();
  });
});

describe('a lesson on a phone and at the keyboard', () => {
  test('390×844: Step stays on screen with the pods; a tapped pod does not jump the page', async () => {
    const page = await openAt(390, 844, `${app.server.url}?lesson=rolling-update&step=3`);
    await page.locator(byTestId('lesson-prompt')).waitFor();
    const pod = page.locator(`${byTestId('stage')} ${byTestId('rs-lane')} [data-pod]`).first();
    await pod.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const step = page.locator(byTestId('step-button'));
    assert.ok(await inViewport(page, pod), 'a pod is on screen');
    assert.ok(await inViewport(page, step), 'Step is on screen with it (the sticky bar)');
    assert.ok(await reachable(pod), 'the sticky bar does not cover the pod');
    await screenshot(page, 'classroom-lesson-pods-390x844', { fullPage: false });
    const before = await page.evaluate(() => window.scrollY);
    await pod.click();
    await page.locator(byTestId('lesson-feedback')).waitFor();
    await page.waitForTimeout(400);
    const after = await page.evaluate(() => window.scrollY);
    assert.ok(Math.abs(after - before) < 844, `the page stays near the pod (scrollY ${before} → ${after})`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('1280×720: Show me leaves the focus on its answer, not the top of the page; Close clears the lesson from the address', async () => {
    const page = await openAt(1280, 720, `${app.server.url}?lesson=rolling-update&step=1`);
    await page.locator(byTestId('lesson-show-me')).click();
    const shown = page.locator(byTestId('lesson-shown'));
    await shown.waitFor();
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'lesson-shown', null, { timeout: 3_000 });
    assert.ok(await inViewport(page, shown), 'the answer is in view');
    await page.locator(byTestId('lesson-close')).click();
    await page.locator(byTestId('lesson-panel')).waitFor({ state: 'detached' });
    await page.waitForFunction(() => !location.search.includes('lesson'), null, { timeout: 3_000 });
    assert.doesNotMatch(page.url(), /lesson=|step=/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Play is disabled once nothing more will happen', async () => {
    const page = await openAt(1280, 720);
    await page.locator(byTestId('end-button')).click();
    await page.locator(byTestId('settled')).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="end-button"]')?.disabled, null, { timeout: 15_000 });
    assert.equal(await page.locator(byTestId('play-button')).isDisabled(), true);
    await page.close();
  });
});

describe('the end of a rollout', () => {
  test('the old lane looks the same stepped to the end or reached by End', async () => {
    const oldLane = (page) => page.locator(`${byTestId('stage')} ${byTestId('rs-lane')}[data-new="false"]`).first();
    const stepped = await openAt(1280, 720);
    const step = stepped.locator(byTestId('step-button'));
    for (let i = 0; i < 80 && !(await step.isDisabled()); i++) await step.click();
    assert.equal(await step.isDisabled(), true, 'stepped to the end');
    await stepped.waitForTimeout(1000);
    const a = await oldLane(stepped).boundingBox();
    const aText = await oldLane(stepped).innerText();
    const ended = await openAt(1280, 720);
    await ended.locator(byTestId('end-button')).click();
    await ended.waitForFunction(() => document.querySelector('[data-testid="step-button"]')?.disabled, null, { timeout: 15_000 });
    await ended.waitForTimeout(1000);
    const b = await oldLane(ended).boundingBox();
    assert.ok(Math.abs(a.height - b.height) <= 2, `the old lane is ${a.height} px stepped, ${b.height} px by End`);
    assert.equal(aText, await oldLane(ended).innerText());
    await stepped.close();
    await ended.close();
  });
});

describe('the quiz agrees with the stage', () => {
  test('each question is about the controller the next Step shows; Hint; a right second try says why it does not score', async () => {
    const page = await openAt(1280, 720);
    await page.locator(byTestId('quiz-toggle')).click();
    const step = page.locator(byTestId('step-button'));
    let checked = 0;
    for (let i = 0; i < 12 && checked < 4; i++) {
      const q = page.locator(byTestId('quiz-question'));
      if (await q.count()) {
        const prompt = (await q.textContent()) ?? '';
        const syncs = /syncs (web(?:-rev\d+)?)/.exec(prompt)?.[1];
        // The Hint: where to look, never the answer (checked against the expected answer below).
        await page.locator(byTestId('quiz-hint-button')).click();
        const hint = (await page.locator(byTestId('quiz-hint')).textContent()) ?? '';
        assert.ok(hint.length > 40, hint);
        // Wrong first, then right: the second try is right but does not score, and says so.
        await fill(page, 'quiz-answer', '12345');
        await page.locator(byTestId('quiz-check')).click();
        await page.locator(`${byTestId('quiz-feedback')}[data-correct="false"]`).waitFor();
        const kind = await q.getAttribute('data-kind');
        if (kind === 'number') {
          let right = null;
          for (const n of [0, 1, 2, 3, 4]) {
            await fill(page, 'quiz-answer', String(n));
            await page.locator(byTestId('quiz-check')).click();
            await page.waitForTimeout(100);
            if ((await page.locator(byTestId('quiz-feedback')).getAttribute('data-correct')) === 'true') { right = n; break; }
          }
          assert.notEqual(right, null, prompt);
          assert.match(await page.locator(byTestId('quiz-feedback')).textContent(), /second try \(the score counts first tries only\)/);
          assert.ok(!new RegExp(`\\b${right}\\b`).test(hint.replace(/web-rev\d+(-\d+)?|nginx:[\d.]+/g, '')), `the hint "${hint}" does not quote the answer ${right}`);
        }
        // The Step that follows is the sync the question named.
        await step.click();
        if (syncs) {
          const actor = (await page.locator(byTestId('stage-caption')).textContent()) ?? '';
          const controller = prompt.startsWith('The Deployment controller') ? /Deployment controller/ : /ReplicaSet controller/;
          assert.match(actor, controller, `asked "${prompt}", the Step showed "${actor}"`);
        }
        checked++;
      } else {
        await step.click();
      }
    }
    assert.ok(checked >= 3, `${checked} questions`);
    assert.match(await page.locator(byTestId('quiz-score')).textContent(), /^0 \/ \d+ right \(first tries\)$/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('the keyboard and the sticky playback bar', () => {
  test('1280×720: Shift+Tab up the page never lands on a control hidden under the bar', async () => {
    const page = await openAt(1280, 720, `${app.server.url}?lesson=rolling-update&step=3`);
    await page.locator(byTestId('lesson-prompt')).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator('footer, .footnote').last().click({ position: { x: 1, y: 1 } }).catch(() => {});
    const hidden = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Shift+Tab');
      const r = await page.evaluate(() => {
        const el = document.activeElement;
        const bar = document.querySelector('.transport');
        if (!el || !bar || bar.contains(el) || el === document.body) return null;
        const a = el.getBoundingClientRect();
        const b = bar.getBoundingClientRect();
        const under = a.bottom > b.top + 1 && a.top < b.bottom - 1 && a.right > b.left && a.left < b.right && getComputedStyle(bar).position === 'sticky';
        return under ? `${el.tagName} ${el.dataset.testid ?? ''} "${el.textContent.trim().slice(0, 30)}" at ${a.top.toFixed(0)} under the bar (${b.top.toFixed(0)}–${b.bottom.toFixed(0)})` : null;
      });
      if (r) hidden.push(r);
    }
    assert.deepEqual(hidden, [], 'controls focused under the sticky bar');
    await page.close();
  });
});

describe('one source of time', () => {
  test('the first visit: the clock, What just happened and the first Step agree', async () => {
    const page = await openAt(1280, 720);
    const clock = page.locator(byTestId('clock'));
    await clock.waitFor();
    const at = Number(await clock.getAttribute('data-seconds'));
    const mss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
    // What just happened names the last change's time, and says the clock has moved on.
    const told = (await page.locator(byTestId('explanation-time')).textContent()) ?? '';
    assert.match(told, new RegExp(`the clock is at ${mss(at)}`), told);
    await page.locator(byTestId('step-button')).click();
    await page.locator(byTestId('stage-caption')).filter({ hasText: 'kubectl set image' }).waitFor();
    const caption = (await page.locator(byTestId('stage-caption')).textContent()) ?? '';
    const now = Number(await clock.getAttribute('data-seconds'));
    // "N s later" only as far as the clock moved.
    const later = /(\d+) s later/.exec(caption);
    assert.equal(later ? Number(later[1]) : 0, now - at, `caption "${caption}", clock ${at} → ${now} s`);
    assert.match((await page.locator(byTestId('explanation-time')).textContent()) ?? '', new RegExp(`^${mss(now)} · round`));
    await page.close();
  });
});
