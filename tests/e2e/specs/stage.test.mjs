// The stage (issue #11): the rollout at the top of the page, big enough for a classroom. One
// lane per ReplicaSet, a token per pod with its state, the rolling-update budget, the step's
// caption; presentation mode; reduced motion; an axe-core audit. Written against what the page
// shows (lanes, tokens, gauges, the status panel), not against step counts where avoidable.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, choosePreset, fill, openApp, rsCards, axeAudit } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { servedApp } from '../lib/suite.mjs';

const app = servedApp();

/** Every lane and its tokens, in page order. */
async function stageLanes(page, stage = 'stage') {
  return page.locator(`${byTestId(stage)} ${byTestId('rs-lane')}`).evaluateAll((lanes) =>
    lanes.map((l) => ({
      name: l.dataset.name,
      revision: l.dataset.revision,
      isNew: l.dataset.new === 'true',
      desired: Number(l.dataset.desired),
      ready: Number(l.dataset.ready),
      available: Number(l.dataset.available),
      pods: [...l.querySelectorAll('[data-testid="pod"]')].map((p) => ({
        name: p.dataset.pod,
        state: p.dataset.state,
        node: p.dataset.node,
      })),
    })),
  );
}

/** Whether the element is wholly inside the viewport (no scrolling needed). */
async function inViewport(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return box && box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
}

/** `3 desired | 1 updated | 4 total | 3 available | 1 unavailable` → numbers. */
async function replicasLine(page) {
  const text = (await page.locator(byTestId('replicas-line')).textContent()) ?? '';
  const n = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1]);
  return { total: n('total'), available: n('available'), text };
}

async function gauge(page, id) {
  const g = page.locator(`${byTestId('stage')} ${byTestId(id)}`);
  return { value: Number(await g.getAttribute('data-value')), limit: Number(await g.getAttribute('data-limit')) };
}

const step = (page) => page.locator(byTestId('step-button')).click();

/** From `#p=rolling-basic&at=40`, steps on (what a step is depends on the preset's timing)
 * until both ReplicaSets have pods: mid-rollout. */
async function midRollout(page) {
  for (let i = 0; i < 200; i++) {
    const lanes = await stageLanes(page);
    if (lanes.length === 2 && lanes.every((l) => l.pods.length > 0)) return;
    await step(page);
  }
  throw new Error('no mid-rollout state reached');
}

describe('the stage', () => {
  test('at 1280×720 the stage, both lanes, the caption and Step are in view; tokens ≥ 32 px', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await midRollout(page);
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    const lanes = page.locator(byTestId('rs-lane'));
    assert.equal(await lanes.count(), 2);
    for (const [what, loc] of [
      ['stage', page.locator(byTestId('stage'))],
      ['old lane', lanes.nth(0)],
      ['new lane', lanes.nth(1)],
      ['caption', page.locator(byTestId('stage-caption'))],
      ['Step button', page.locator(byTestId('step-button'))],
      ['budget gauges', page.locator(byTestId('budget-total'))],
    ]) {
      assert.ok(await inViewport(page, loc), `${what} is in the viewport without scrolling`);
    }
    // Layout sizes (a pod that has just been created may still be growing in: its bounding
    // box is scaled down by the animation's transform, its layout box is not).
    const sizes = await page.locator(`${byTestId('stage')} ${byTestId('pod')}`).evaluateAll((pods) =>
      pods.map((p) => Math.min(p.offsetWidth, p.offsetHeight)),
    );
    assert.ok(sizes.length >= 3, `pods drawn: ${sizes.length}`);
    assert.ok(Math.min(...sizes) >= 32, `tokens at least 32 px: ${sizes}`);
    // The old lane first, the new one set apart.
    const [old, fresh] = await stageLanes(page);
    assert.deepEqual([old.name, old.isNew, fresh.name, fresh.isNew], ['web-rev1', false, 'web-rev2', true]);
    assert.notEqual(
      await lanes.nth(0).evaluate((l) => getComputedStyle(l).borderColor),
      await lanes.nth(1).evaluate((l) => getComputedStyle(l).borderColor),
    );
    assert.match(await page.locator(byTestId('stage-caption')).textContent(), /^(Deployment controller|ReplicaSet controller|Kubelet and scheduler|You \(kubectl\)): /);
    assert.equal(await page.locator(byTestId('stage-caption')).getAttribute('aria-live'), 'polite');
    // One picture of the pods: the ReplicaSet cards below keep their counts, not a second grid.
    assert.equal(await page.locator(`${byTestId('rs-card')} .pod`).count(), 0);
    await screenshot(page, 'stage-1280x720-light', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a step is announced once: of the polite live regions only the caption changes', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await midRollout(page);
    const live = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[aria-live="polite"], [role="status"], [role="log"]')]
          .filter((el) => el.getAttribute('aria-live') !== 'off')
          .map((el) => [el.dataset.testid || el.className, el.textContent]),
      );
    for (let i = 0; i < 3; i++) {
      const before = await live();
      const steps = await page.locator(byTestId('round')).getAttribute('data-steps');
      await step(page);
      await page.waitForFunction(
        ([id, s]) => document.querySelector(`[data-testid="${id}"]`)?.dataset.steps !== s,
        ['round', steps],
      );
      const after = await live();
      const changed = after.filter(([who, text]) => !before.some(([w, t]) => w === who && t === text));
      assert.deepEqual(changed.map(([who]) => who), ['stage-caption'], `announced: ${JSON.stringify(changed)}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a new pod arrives Pending in the new lane; an old one terminates, then goes', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    await page.setViewportSize({ width: 1280, height: 720 });
    // Deleted pods stay Terminating for 2 rounds.
    await fill(page, 'termination-input', '2');
    const seen = { pendingNew: null, terminating: new Set(), gone: null };
    for (let i = 0; i < 400 && !seen.gone; i++) {
      await step(page);
      const lanes = await stageLanes(page);
      const cards = await rsCards(page);
      // The lanes say what the cards (kubectl get rs) say.
      for (const lane of lanes) {
        const card = cards.find((c) => c.name === lane.name);
        assert.ok(card, `a card for ${lane.name}`);
        assert.deepEqual([lane.desired, lane.ready, lane.available], [card.desired, card.ready, card.available], lane.name);
      }
      const fresh = lanes.find((l) => l.isNew && l.name !== 'web-rev1');
      const pending = fresh?.pods.find((p) => p.state === 'pending');
      if (pending && !seen.pendingNew) seen.pendingNew = pending.name;
      const old = lanes.find((l) => l.name === 'web-rev1');
      for (const p of old?.pods ?? []) if (p.state === 'terminating') seen.terminating.add(p.name);
      const names = new Set((old?.pods ?? []).map((p) => p.name));
      seen.gone = [...seen.terminating].find((n) => !names.has(n)) ?? null;
    }
    assert.ok(seen.pendingNew?.startsWith('web-rev2-'), 'a Pending pod appeared in the new lane');
    assert.ok(seen.terminating.size > 0, 'an old pod was Terminating');
    assert.ok(seen.gone, 'and later left its lane');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the budget gauges show the Deployment’s total and available pods against its limits', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    let checked = 0;
    for (let i = 0; i < 60 && !(await page.locator(byTestId('step-button')).isDisabled()); i++) {
      await step(page);
      if ((await page.locator(byTestId('budget-total')).count()) === 0) continue;
      const { total, available, text } = await replicasLine(page);
      const t = await gauge(page, 'budget-total');
      const a = await gauge(page, 'budget-available');
      assert.deepEqual([t.value, a.value], [total, available], `gauges against "${text}"`);
      assert.deepEqual([t.limit, a.limit], [4, 3], '3 + maxSurge 1, 3 − maxUnavailable 0');
      checked++;
    }
    assert.ok(checked > 10, `checked ${checked} steps`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('pods are reachable by keyboard and name their node', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    const first = page.locator(`${byTestId('rs-lane')}[data-name="web-rev1"] ${byTestId('pod')}`).first();
    await first.focus();
    const round = await page.locator(byTestId('round')).getAttribute('data-round');
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => document.activeElement?.dataset.pod);
    assert.ok(focused && focused !== (await first.getAttribute('data-pod')), `focus moved to the next pod (${focused})`);
    assert.equal(await page.locator(byTestId('round')).getAttribute('data-round'), round, 'the arrow key did not step');
    const node = await page.locator(`[data-pod="${focused}"]`).getAttribute('data-node');
    assert.match(await page.locator('.pod-readout').textContent(), new RegExp(`${focused}: .*on ${node}`));
    assert.match(await page.locator(`[data-pod="${focused}"]`).getAttribute('aria-label'), new RegExp(`on ${node}`));
    await page.close();
  });
});

describe('presentation mode', () => {
  test('at 1920×1080 the stage fills most of the screen; leaving restores the page', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.locator(byTestId('rs-lane')).first().waitFor();
    const before = await page.locator(byTestId('stage')).boundingBox();
    assert.ok(await page.locator(byTestId('replicas-input')).isVisible(), 'settings shown');
    const toggle = page.locator(byTestId('present-toggle'));
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await page.locator('.app.presenting').waitFor();
    const vp = page.viewportSize();
    const box = await page.locator(byTestId('stage')).boundingBox();
    assert.ok((box.width * box.height) / (vp.width * vp.height) >= 0.6, `stage covers ${Math.round((100 * box.width * box.height) / (vp.width * vp.height))}% of the screen`);
    for (const id of ['stage-caption', 'step-button', 'chart', 'budget-total']) {
      assert.ok(await inViewport(page, page.locator(byTestId(id))), `${id} in view`);
    }
    assert.equal(await page.locator(byTestId('replicas-input')).count(), 0, 'settings hidden');
    const caption = await page.locator(byTestId('stage-caption')).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(caption >= 28, `caption type is large: ${caption}px`);
    await step(page);
    await screenshot(page, 'present-1920x1080-light', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'present-1920x1080-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
    // Leave with the button …
    await toggle.click();
    await page.locator('.app.presenting').waitFor({ state: 'detached' });
    assert.ok(await page.locator(byTestId('replicas-input')).isVisible(), 'settings back');
    const after = await page.locator(byTestId('stage')).boundingBox();
    assert.ok(Math.abs(after.height - before.height) < 40, `the stage is its old size again (${before.height} → ${after.height})`);
    // … and P toggles, Escape leaves.
    await page.locator('body').press('p');
    await page.locator('.app.presenting').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.app.presenting').waitFor({ state: 'detached' });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('at 1280×720 too', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.locator(byTestId('present-toggle')).click();
    await page.locator('.app.presenting').waitFor();
    const box = await page.locator(byTestId('stage')).boundingBox();
    assert.ok((box.width * box.height) / (1280 * 720) >= 0.6);
    for (const id of ['stage-caption', 'step-button', 'chart']) {
      assert.ok(await inViewport(page, page.locator(byTestId(id))), `${id} in view`);
    }
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'present-1280x720-light', { fullPage: false });
    await page.close();
  });
});

describe('motion', () => {
  /** Steps through the rollout; after each step, what slides and what animates on the stage. */
  async function watchRollout(page) {
    const seen = { sliding: 0, animations: new Set(), transitions: new Set(), idle: false };
    for (let i = 0; i < 400 && !seen.idle && !(await page.locator(byTestId('step-button')).isDisabled()); i++) {
      await step(page);
      // The slides start in the animation frame after the step (FLIP reads positions there).
      const r = await page.evaluate(async () => {
        await new Promise((resolve) => requestAnimationFrame(() => resolve()));
        const stage = document.querySelector('[data-testid="stage"]');
        const moving = [...stage.querySelectorAll('[data-pod][style], [data-testid="rs-lane"][style]')];
        return {
          sliding: moving.filter((el) => el.style.transition.includes('transform') || el.style.transform).length,
          animations: [...stage.querySelectorAll('.lane-pods, [data-testid="rs-lane"]')].map((g) => getComputedStyle(g).animationName),
          transitions: [...stage.querySelectorAll('[data-pod], .gauge-fill')].map((p) => getComputedStyle(p).transitionDuration),
          idle: !!stage.querySelector('[data-name="web-rev1"].lane-idle'),
          podless: !stage.querySelector('[data-name="web-rev1"] [data-pod]'),
        };
      });
      seen.sliding += r.sliding;
      r.animations.forEach((a) => seen.animations.add(a));
      r.transitions.forEach((t) => seen.transitions.add(t));
      seen.idle = r.idle;
      seen.podless = r.podless;
    }
    // Its last pods may go in the last step (then their ghosts fade and no step follows).
    assert.ok(seen.idle || seen.podless, 'the old lane emptied');
    return seen;
  }

  test('lanes and pods slide to their new places; with reduced motion nothing moves', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    const moving = await watchRollout(page);
    assert.ok(moving.sliding > 0, 'the new lane slides up when the old one empties (FLIP)');
    assert.ok([...moving.animations].some((a) => a.startsWith('batch-')), `lanes animate: ${[...moving.animations]}`);
    assert.ok([...moving.transitions].some((t) => t !== '0s'), 'colours and gauges transition');
    await page.close();

    const still = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    await still.emulateMedia({ reducedMotion: 'reduce' });
    const r = await watchRollout(still);
    assert.equal(r.sliding, 0, 'nothing slides');
    assert.deepEqual([...r.animations], ['none']);
    assert.deepEqual([...r.transitions], ['0s']);
    assert.deepEqual(still.errors, []);
    await still.close();
  });
});

describe('phone', () => {
  for (const scheme of ['light', 'dark']) {
    test(`390×844 ${scheme}: the stage comes first, tokens ≥ 24 px, no overflow`, async () => {
      const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator(byTestId('rs-lane')).first().waitFor();
      assert.equal(await horizontalOverflow(page), 0);
      const stageTop = (await page.locator(byTestId('stage')).boundingBox()).y;
      for (const id of ['update-image-button', 'explanation', 'replicas-input']) {
        const box = await page.locator(byTestId(id)).first().boundingBox();
        if (box) assert.ok(box.y > stageTop, `${id} comes after the stage`);
      }
      const sizes = await page.locator(byTestId('pod')).evaluateAll((pods) => pods.map((p) => p.offsetWidth));
      assert.ok(Math.min(...sizes) >= 24, `tokens ≥ 24 px: ${sizes}`);
      await screenshot(page, `stage-390x844-${scheme}`, { fullPage: false });
      await page.close();
    });
  }

  test('1280×720 dark', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await screenshot(page, 'stage-1280x720-dark', { fullPage: false });
    await page.close();
  });
});

describe('a scale-down marks the pods that go next', () => {
  test('the marked pods are the ones the ReplicaSet controller deletes next, and only they', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    // Deleted pods stay Terminating a while, so "deleted" reads as terminating or gone.
    await fill(page, 'termination-input', '2');
    let checked = 0;
    for (let i = 0; i < 300 && checked < 2; i++) {
      const marked = await page.locator(`${byTestId('stage')} [data-doomed]`).evaluateAll((els) =>
        els.map((e) => ({ name: e.dataset.pod, lane: e.closest('[data-testid="rs-lane"]').dataset.name })));
      await step(page);
      if (marked.length === 0) continue;
      const lane = marked[0].lane;
      // A mark is drawn (a ring, not only a colour) and told to screen readers.
      // Step on until that lane's ReplicaSet controller has acted: its marked pods terminate or
      // go, and every pod it deletes was marked.
      const before = new Set(marked.map((m) => m.name));
      for (let j = 0; j < 50; j++) {
        const lanes = await stageLanes(page);
        const pods = lanes.find((l) => l.name === lane)?.pods ?? [];
        const live = new Set(pods.filter((p) => p.state !== 'terminating').map((p) => p.name));
        const deleted = [...before].filter((n) => !live.has(n));
        if (deleted.length > 0) {
          assert.deepEqual(deleted.sort(), [...before].sort(), `${lane}: every marked pod went together`);
          checked++;
          break;
        }
        await step(page);
      }
    }
    assert.ok(checked >= 1, `scale-downs followed: ${checked}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a marked pod has a dashed ring and says so', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    for (let i = 0; i < 200 && (await page.locator('[data-doomed]').count()) === 0; i++) await step(page);
    const pod = page.locator(`${byTestId('stage')} [data-doomed]`).first();
    assert.equal(await pod.evaluate((el) => getComputedStyle(el).outlineStyle), 'dashed');
    assert.match(await pod.getAttribute('aria-label'), /deleted next/);
    const lane = pod.locator('xpath=ancestor::*[@data-testid="rs-lane"]');
    assert.match(await lane.locator('.lane-delta-down').textContent(), /\d+ to delete/);
    await page.close();
  });
});

describe('compare side by side', () => {
  /** Both gauges of a stage. */
  async function budget(page, stage) {
    const g = async (id) => {
      const el = page.locator(`${byTestId(stage)} ${byTestId(id)}`);
      return { value: Number(await el.getAttribute('data-value')), limit: Number(await el.getAttribute('data-limit')) };
    };
    return { total: await g('budget-total'), available: await g('budget-available') };
  }

  /** A's and B's clocks (`data-seconds`): B's is the one inside `stage-b`. */
  async function clocks(page) {
    const all = await page.locator(byTestId('clock')).evaluateAll((els) =>
      els.map((el) => ({ b: !!el.closest('[data-testid="stage-b"]'), seconds: Number(el.dataset.seconds) })),
    );
    return { a: all.find((c) => !c.b)?.seconds, b: all.find((c) => c.b)?.seconds };
  }

  test('maxSurge 1 / maxUnavailable 0 against 25% / 25% on 10 replicas', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await fill(page, 'replicas-input', '10');
    await page.locator(byTestId('compare-toggle')).click();
    await page.locator(byTestId('stage-b')).waitFor();
    assert.equal(await page.locator(byTestId('compare-toggle')).getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator(byTestId('compare-replicas')).inputValue(), '10', 'B starts as a copy of A');
    await fill(page, 'compare-max-surge', '1');
    await fill(page, 'compare-max-unavailable', '0');
    // The figures: B, one pod at a time and never below 10 available, takes longer.
    const row = async (side) => page.locator(byTestId(`compare-figures-${side}`)).evaluate((r) => ({
      rounds: Number(r.dataset.rounds), peak: Number(r.dataset.peak), min: Number(r.dataset.minAvailable),
    }));
    const [a, b] = [await row('a'), await row('b')];
    assert.ok(b.rounds > a.rounds, `B completes later: A ${a.rounds} rounds, B ${b.rounds}`);
    assert.equal(b.min, 10, 'B never has fewer than 10 available');
    assert.ok(b.peak >= 11 && b.peak < a.peak, `peaks: A ${a.peak}, B ${b.peak}`);
    // The permalink carries B's settings.
    assert.match(await page.evaluate(() => location.hash), /cmp=RollingUpdate,1,0,10,0/);
    // Whole rounds of A, idle ones included (nothing happens before the image changes): B's
    // clock reads A's after each, though B takes no sync to get there.
    for (let i = 0; i < 3; i++) {
      await page.locator(byTestId('step-round-button')).click();
      const c = await clocks(page);
      assert.equal(c.b, c.a, `after Round ${i + 1}: A's clock ${c.a} s, B's ${c.b} s`);
    }
    // Step both: A's gauges say 10 + 3 / 10 − 2, B's 10 + 1 / 10 − 0, and B keeps within them
    // while both follow one clock.
    let seen = 0;
    let ended = false;
    let full = false;
    let clockMoved = 0;
    for (let i = 0; i < 400 && !ended; i++) {
      const before = (await clocks(page)).a;
      await step(page);
      // Compare by time: after every Step of A, B shows the same moment on its own clock.
      const c = await clocks(page);
      assert.equal(c.b, c.a, `after step ${i + 1}: A's clock ${c.a} s, B's ${c.b} s`);
      if (c.a > before) clockMoved++;
      if ((await page.locator(`${byTestId('stage-b')} ${byTestId('budget-total')}`).count()) === 0) continue;
      const [ga, gb] = [await budget(page, 'stage'), await budget(page, 'stage-b')];
      assert.deepEqual([ga.total.limit, ga.available.limit], [13, 8]);
      assert.deepEqual([gb.total.limit, gb.available.limit], [11, 10]);
      // Once all 10 are available, B never has fewer (maxUnavailable 0).
      if (full) assert.ok(gb.available.value >= 10, `B available ${gb.available.value}`);
      full ||= gb.available.value >= 10;
      seen++;
      ended = await page.locator(byTestId('step-button')).isDisabled();
    }
    assert.ok(seen > 5, `steps checked: ${seen}`);
    assert.ok(clockMoved > 3, `the clock moved on ${clockMoved} steps`);
    assert.ok(ended, 'A completed');
    // The figures table gives the time to complete in seconds.
    const secs = async (side) => Number(await page.locator(byTestId(`compare-figures-${side}`)).getAttribute('data-seconds'));
    assert.ok((await secs('b')) > (await secs('a')), `B takes longer: A ${await secs('a')} s, B ${await secs('b')} s`);
    // A is done first; B steps on alone to its own end.
    const stepB = page.locator(byTestId('compare-step-b'));
    let more = 0;
    for (; more < 400 && (await stepB.count()) > 0; more++) {
      await stepB.click();
      const gb = await budget(page, 'stage-b');
      assert.ok(gb.available.value >= 10, `B available ${gb.available.value}`);
    }
    assert.ok(more > 0, 'B went on after A was done');
    // B's lanes, compared with the same settings run as the page's own Deployment.
    const bLanes = (await stageLanes(page, 'stage-b')).map((l) => [l.name, l.desired, l.ready, l.available]);
    await screenshot(page, 'compare-1280x720-light', { fullPage: false });
    const other = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic`);
    await fill(other, 'replicas-input', '10');
    await fill(other, 'max-surge-input', '1');
    await fill(other, 'max-unavailable-input', '0');
    for (let i = 0; i < 600 && !(await other.locator(byTestId('step-button')).isDisabled()); i++) await step(other);
    const own = (await stageLanes(other)).map((l) => [l.name, l.desired, l.ready, l.available]);
    assert.deepEqual(bLanes, own, 'stage-b ends where the same settings end on their own');
    assert.deepEqual(page.errors, []);
    await other.close();
    // Leaving Compare removes B and its parameter.
    await page.locator(byTestId('compare-toggle')).click();
    assert.equal(await page.locator(byTestId('stage-b')).count(), 0);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /cmp=/);
    await page.close();
  });

  test('side by side at 1280×720, stacked at 390 px; the copied link reopens Compare with B', async () => {
    const shots = process.env.SHOTS_CMP;
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.locator(byTestId('compare-toggle')).click();
    await page.locator(byTestId('stage-b')).waitFor();
    await fill(page, 'compare-max-surge', '1');
    await fill(page, 'compare-max-unavailable', '0');
    await step(page);
    const c = await clocks(page);
    assert.equal(c.b, c.a, `A's clock ${c.a} s, B's ${c.b} s`);
    await page.evaluate(() => window.scrollTo(0, 0));
    const [a, b] = [await page.locator(byTestId('stage')).boundingBox(), await page.locator(byTestId('stage-b')).boundingBox()];
    assert.ok(Math.abs(a.y - b.y) < 2, `one row: A at y ${a.y}, B at y ${b.y}`);
    assert.ok(a.x + a.width <= b.x, `no overlap: A ends at ${a.x + a.width}, B starts at ${b.x}`);
    assert.ok(await inViewport(page, page.locator(`${byTestId('stage')} ${byTestId('stage-caption')}`)), 'A’s caption in view');
    assert.ok(await inViewport(page, page.locator(`${byTestId('stage-b')} ${byTestId('rs-lane')}`).first()), 'B’s lane in view');
    assert.ok(await inViewport(page, page.locator(byTestId('step-button'))), 'Step in view');
    assert.equal(await horizontalOverflow(page), 0);
    if (shots) await page.screenshot({ path: `${shots}/compare-1280x720-light.png` });
    // Copy link: the link carries B's settings and reopens Compare with them.
    await page.locator(byTestId('copy-link-button')).click();
    const link = await page.locator(byTestId('share-link')).inputValue();
    assert.match(link, /[#&]cmp=RollingUpdate,1,0,3,0(&|$)/, link);
    const again = await openApp(app.browser.context, link);
    await again.locator(byTestId('stage-b')).waitFor();
    assert.equal(await again.locator(byTestId('compare-max-surge')).inputValue(), '1');
    assert.equal(await again.locator(byTestId('compare-max-unavailable')).inputValue(), '0');
    assert.equal(await again.locator(byTestId('notice')).count(), 0, 'cmp= is not reported as ignored');
    if (shots) {
      for (const scheme of ['light', 'dark']) {
        await again.setViewportSize({ width: 1920, height: 1080 });
        await again.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await again.evaluate(() => window.scrollTo(0, 0));
        await again.waitForTimeout(300);
        await again.screenshot({ path: `${shots}/compare-1920x1080-${scheme}.png` });
      }
      await again.emulateMedia({ colorScheme: 'dark' });
      await again.setViewportSize({ width: 1280, height: 720 });
      await again.evaluate(() => window.scrollTo(0, 0));
      await again.screenshot({ path: `${shots}/compare-1280x720-dark.png` });
    }
    // A phone: the stages stack, A first.
    await again.emulateMedia({ colorScheme: 'light' });
    await again.setViewportSize({ width: 390, height: 844 });
    const [pa, pb] = [await again.locator(byTestId('stage')).boundingBox(), await again.locator(byTestId('stage-b')).boundingBox()];
    assert.ok(pa.y + pa.height <= pb.y, `stacked: A ends at ${pa.y + pa.height}, B starts at ${pb.y}`);
    assert.equal(await horizontalOverflow(again), 0);
    if (shots) {
      await again.evaluate(() => window.scrollTo(0, 0));
      await again.screenshot({ path: `${shots}/compare-390x844.png` });
      await again.locator(byTestId('stage-b')).scrollIntoViewIfNeeded();
      await again.screenshot({ path: `${shots}/compare-390x844-b.png` });
    }
    assert.deepEqual(page.errors, []);
    assert.deepEqual(again.errors, []);
    await again.close();
    await page.close();
  });

  test('a permalink with cmp= opens Compare; a bad variant gets the API’s message', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&cmp=RollingUpdate,2,0,3,0`);
    await page.locator(byTestId('stage-b')).waitFor();
    assert.equal(await page.locator(byTestId('compare-max-surge')).inputValue(), '2');
    // End and Step back keep both stages at one clock.
    await page.locator(byTestId('end-button')).click();
    await page.locator(byTestId('settled')).waitFor();
    let c = await clocks(page);
    assert.ok(c.a > 0, `End moved the clock: ${c.a} s`);
    assert.equal(c.b, c.a, `after End: A's clock ${c.a} s, B's ${c.b} s`);
    await page.locator(byTestId('step-back-button')).click();
    c = await clocks(page);
    assert.equal(c.b, c.a, `after Step back: A's clock ${c.a} s, B's ${c.b} s`);
    await fill(page, 'compare-max-surge', '0');
    await fill(page, 'compare-max-unavailable', '0');
    assert.match(await page.locator(byTestId('compare-problem')).textContent(), /may not be 0 when `maxSurge` is 0/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('accessibility (axe-core)', () => {


  test('no violations mid-rollout, in light and dark, and in presentation mode', async () => {
    for (const scheme of ['light', 'dark']) {
      const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.locator(byTestId('rs-lane')).first().waitFor();
      await axeAudit(page, `app page mid-rollout (${scheme})`);
      await page.locator(byTestId('present-toggle')).click();
      await page.locator('.app.presenting').waitFor();
      await axeAudit(page, `presentation mode (${scheme})`);
      await page.close();
    }
  });

  test('no violations with Inside open, in Compare, and in the embed layout', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}#p=rolling-basic&at=40`);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.locator(byTestId('rs-lane')).first().waitFor();
    await page.locator(byTestId('inside-toggle')).click();
    await page.locator(byTestId('inside-panel')).waitFor();
    await axeAudit(page, 'Inside open');
    await page.locator(byTestId('compare-toggle')).click();
    await page.locator(byTestId('stage-b')).waitFor();
    await step(page);
    await axeAudit(page, 'Compare');
    await page.close();
    const embed = await app.browser.context.newPage();
    await embed.goto(`${app.server.url}?embed#p=rolling-basic&at=40`);
    await embed.emulateMedia({ reducedMotion: 'reduce' });
    await embed.locator(byTestId('step-button')).waitFor();
    await embed.locator(byTestId('step-button')).click();
    await axeAudit(embed, 'embed');
    await embed.close();
  });
});
