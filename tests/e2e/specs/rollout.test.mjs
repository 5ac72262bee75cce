// Stepping through rollouts in real Chromium, checked against what Kubernetes does: the
// 01-rolling-3-surge25-unavail25 conformance trace round by round, step back, presets that get
// stuck, undo, pending actions, the explanation, keyboard control, and export / import.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { conformanceDir } from '../lib/paths.mjs';
import {
  CUSTOM,
  byTestId,
  choosePreset,
  expectText,
  fill,
  openApp,
  rolloutStatus,
  clock,
  roundInfo,
  rsCards,
  runToEnd,
  stepToRound,
  text,
  waitForRound,
} from '../lib/app.mjs';
import { servedApp, click } from '../lib/suite.mjs';

const app = servedApp();

describe('a rollout, step by step, as Kubernetes does it', () => {
  /**
   * Opens the app at the permalink of `scenario` (made by the module's own encodeLink), runs it
   * round by round with the Round button and compares every round with `trace`.
   */
  async function followTrace(trace) {
    const scenario = trace.scenario;
    const setImage = scenario.actions.find((a) => a.type === 'setImage');
    assert.equal(scenario.rounds, trace.rounds.length);
    // The link, written by the module's own encoder; then a fresh page opens it.
    const writer = await openApp(app.browser.context, app.server.url + CUSTOM);
    const hash = await writer.evaluate(async (s) => `#${(await import('./rollout-lab.js')).encodeLink(s)}`, scenario);
    await writer.close();
    const page = await openApp(app.browser.context, `${app.server.url}${hash}`);
    await page.locator(byTestId('clock')).waitFor();
    assert.equal(await page.locator(byTestId('preset-select')).inputValue(), 'custom');
    for (const expected of trace.rounds) {
      const r = expected.round;
      if (r === setImage.round) {
        const pending = page.locator(byTestId('pending-action'));
        assert.equal(await pending.count(), 1, 'the new image is pending');
        assert.equal(await pending.getAttribute('data-type'), 'setImage');
        assert.equal(await pending.getAttribute('data-round'), String(r));
      }
      await click(page, 'step-round-button');
      await waitForRound(page, r + 1);
      const now = await clock(page);
      assert.deepEqual(now, { round: r + 1, seconds: (r + 1) * scenario.secondsPerRound }, `clock after round ${r}`);
      const cards = await rsCards(page);
      const want = expected.replicaSets;
      assert.equal(cards.length, want.length, `round ${r}: ReplicaSet cards`);
      for (const w of want) {
        const card = cards.find((c) => c.name === w.name);
        assert.ok(card, `round ${r}: no card for ${w.name}`);
        assert.deepEqual(
          [card.desired, card.current, card.ready, card.available],
          [w.specReplicas, w.statusReplicas, w.readyReplicas, w.availableReplicas],
          `round ${r}, ${w.name}: DESIRED/CURRENT/READY/AVAILABLE`,
        );
        assert.equal(card.revision, w.revision, `round ${r}, ${w.name}: revision`);
      }
      if (r === setImage.round) assert.equal(await page.locator(byTestId('pending-action')).count(), 0);
    }
    assert.equal(await rolloutStatus(page), 'deployment "web" successfully rolled out');
    const last = trace.rounds.at(-1).deployments[0];
    const line = `${last.specReplicas} desired | ${last.updatedReplicas} updated | ${last.replicas} total | ${last.availableReplicas} available | ${last.unavailableReplicas} unavailable`;
    assert.equal((await text(page, 'replicas-line')).replace(/^Replicas: /, ''), line);
    for (const c of last.conditions) {
      const row = page.locator(`${byTestId('condition-row')}[data-type="${c.type}"]`);
      assert.equal(await row.getAttribute('data-status'), c.status);
      assert.equal(await row.getAttribute('data-reason'), c.reason);
    }
    const reasons = await page.locator(byTestId('event-row')).evaluateAll((rows) => rows.map((r) => r.dataset.reason));
    const deploymentEvents = trace.rounds.flatMap((r) => r.events.filter((e) => e.kind === 'Deployment'));
    assert.deepEqual(reasons, deploymentEvents.map((e) => e.reason));
    assert.deepEqual(page.errors, []);
    await page.close();
  }

  test('3 replicas, 25% / 25%, by link in lock-step: every round matches the 01-rolling-3-surge25-unavail25 trace', async () => {
    const file = path.join(conformanceDir, 'traces', '01-rolling-3-surge25-unavail25.json');
    const trace = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.ok(!trace.scenario.settle, 'the lock-step trace');
    await followTrace(trace);
  });

  test('the same scenario settled: every round matches 01-rolling-3-surge25-unavail25-settle', async () => {
    const file = path.join(conformanceDir, 'traces', 'settle', '01-rolling-3-surge25-unavail25-settle.json');
    const trace = JSON.parse(await fs.readFile(file, 'utf8'));
    assert.equal(trace.scenario.settle, true, 'the settled trace');
    await followTrace(trace);
  });

  test('the explanation names the function that decided, with its numbers and a link to its source', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'rolling-basic');
    await expectText(page, 'explanation', 'Nothing has run yet');
    await click(page, 'step-button');
    await expectText(page, 'explanation-headline', 'kubectl create deployment web --image=nginx:1.14.2 --replicas=3');
    assert.equal(await text(page, 'actor'), 'You (kubectl)');
    await click(page, 'step-button');
    assert.equal(await text(page, 'actor'), 'Deployment controller');
    await expectText(page, 'explanation-headline', 'Scaled up replica set web-rev1 to 3');
    await expectText(page, 'decisions', 'maxTotalPods = 3 + 1 = 4');
    // Later the Deployment controller waits for the surge pod to become available: found by
    // what it says (the preset runs in settled rounds of 1 s, so not at a fixed step).
    const waits = 'No scaling: minAvailable = 3 − 0 = 3';
    for (let i = 0; i < 300 && !(await text(page, 'explanation-headline')).includes(waits); i++) {
      await click(page, 'step-button');
    }
    await expectText(page, 'explanation-headline', waits);
    const link = page.locator('.decision a.fn', { hasText: 'reconcileOldReplicaSets' });
    assert.equal(
      await link.getAttribute('href'),
      'https://github.com/kubernetes/kubernetes/blob/v1.28.4/pkg/controller/deployment/rolling.go#L87',
    );
    // The stage's caption announces the step; the full explanation is read on demand, not live.
    assert.equal(await page.locator(byTestId('explanation')).getAttribute('aria-live'), null);
    await page.close();
  });

  test('step back restores the previous step exactly', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'rolling-basic');
    assert.equal(await page.locator(byTestId('step-back-button')).isDisabled(), true);
    // Mid-rollout: the step that created the new ReplicaSet.
    for (let i = 0; i < 200 && (await rsCards(page)).length < 2; i++) await click(page, 'step-button');
    const rolloutRound = (await roundInfo(page)).round;
    const before = { info: await roundInfo(page), cards: await rsCards(page), status: await rolloutStatus(page) };
    const headline = await text(page, 'explanation-headline');
    // Step on until a ReplicaSet's counts change, then back as many steps.
    let taken = 0;
    while (taken < 20 && JSON.stringify(await rsCards(page)) === JSON.stringify(before.cards)) {
      await click(page, 'step-button');
      taken++;
    }
    assert.notDeepEqual(await rsCards(page), before.cards, 'the steps after it changed something');
    for (let i = 0; i < taken; i++) await click(page, 'step-back-button');
    assert.deepEqual(
      { info: await roundInfo(page), cards: await rsCards(page), status: await rolloutStatus(page) },
      before,
    );
    assert.equal(await text(page, 'explanation-headline'), headline);
    // The timeline goes back to the start of a round (or the last moment before it that was
    // shown: rounds in which nothing happens are run through), and forward again.
    await page.locator(byTestId('timeline')).fill('2');
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.round) <= 2, byTestId('round'));
    assert.deepEqual((await rsCards(page)).map((c) => c.name), ['web-rev1']);
    await page.locator(byTestId('timeline')).fill(String(rolloutRound + 1));
    await page.waitForFunction(
      ({ sel, r }) => Number(document.querySelector(sel)?.dataset.round) >= r,
      { sel: byTestId('round'), r: rolloutRound + 1 },
    );
    assert.equal((await rsCards(page)).length, 2);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('Step goes to the next change; End runs until nothing more will happen', () => {
  /** What a step can change: pods on the stage, the ReplicaSets, the Deployment's status
   * (under 1.37, the app's default, also status.terminatingReplicas: a step in which the
   * ReplicaSet controller or the Deployment controller only counts a pod being deleted). */
  const picture = (page) =>
    page.evaluate(() => {
      const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
      return JSON.stringify({
        pods: all('[data-testid="pod"]', (p) => [p.dataset.pod, p.dataset.state, p.dataset.node]),
        rs: all('[data-testid="rs-card"]', (c) => [c.dataset.name, c.dataset.desired, c.dataset.current, c.dataset.ready, c.dataset.available, c.dataset.terminating]),
        status: document.querySelector('[data-testid="replicas-line"]')?.textContent,
        terminating: document.querySelector('[data-testid="deploy-terminating"]')?.dataset.terminating,
        conditions: all('[data-testid="condition-row"]', (r) => [r.dataset.type, r.dataset.status, r.dataset.reason]),
        rollout: document.querySelector('[data-testid="rollout-status"]')?.textContent,
      });
    });

  test('rolling-basic, stepped from the start until Step is disabled: every step shows a change and time only grows', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'rolling-basic');
    const step = page.locator(byTestId('step-button'));
    let before = await picture(page);
    let seconds = (await clock(page)).seconds;
    const start = seconds;
    let presses = 0;
    let later = 0;
    while (!(await step.isDisabled()) && presses < 300) {
      await step.click();
      presses++;
      const now = await picture(page);
      assert.notEqual(now, before, `step ${presses} changed nothing on the page`);
      const t = (await clock(page)).seconds;
      assert.ok(t >= seconds, `step ${presses}: the clock went back from ${seconds} to ${t}`);
      if (t > seconds && (await page.locator(byTestId('later')).count()) > 0) later++;
      seconds = t;
      before = now;
    }
    assert.ok(presses < 300, 'Step became disabled');
    assert.ok(seconds > start, `time passed (${seconds} s)`);
    assert.ok(later > 0, 'some steps said how much time passed');
    assert.equal(await rolloutStatus(page), 'deployment "web" successfully rolled out');
    const cards = await rsCards(page);
    const fresh = cards.find((c) => c.isNew);
    assert.equal(fresh.image, 'nginx:1.16.1');
    assert.equal(fresh.available, fresh.desired);
    assert.ok(cards.filter((c) => !c.isNew).every((c) => c.desired === 0 && c.current === 0));
    // Disabled, and saying why: visibly, in its title and to a screen reader.
    assert.equal(await page.locator(byTestId('settled')).getAttribute('data-outcome'), 'complete');
    await expectText(page, 'settled', 'nothing more will happen');
    assert.match((await step.getAttribute('title')) ?? '', /Nothing more will happen/);
    assert.equal(await step.getAttribute('aria-describedby'), 'settled-line');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('End on every preset stops at a complete or stalled rollout', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    const ids = await page.locator(`${byTestId('preset-select')} option`).evaluateAll((o) => o.map((e) => e.value));
    assert.ok(ids.length > 5, ids.join());
    for (const id of ids.filter((i) => i !== 'custom')) {
      await choosePreset(page, id);
      await runToEnd(page);
      const outcome = await page.locator(byTestId('settled')).getAttribute('data-outcome');
      const status = await rolloutStatus(page);
      assert.ok(['complete', 'deadline-exceeded', 'paused'].includes(outcome), `${id}: ${outcome}`);
      if (outcome === 'complete') assert.match(status, /successfully rolled out/, id);
      if (outcome === 'deadline-exceeded') assert.match(status, /exceeded its progress deadline/, id);
      if (outcome === 'paused') await expectText(page, 'settled', 'is paused');
      assert.equal(await page.locator(byTestId('step-button')).isDisabled(), true, `${id}: Step is disabled`);
      // Said once, by the status line: no notice repeats it, the caption says what End ran.
      await expectText(page, 'settled', 'nothing more will happen');
      assert.equal(await page.locator(byTestId('notice')).count(), 0, `${id}: no notice`);
      await expectText(page, 'stage-caption', /^End: /);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe('presets that get stuck', () => {
  test('a bad image: the rollout waits with one new pod that never becomes ready', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'bad-image-stuck');
    await runToEnd(page);
    const stuckRound = (await roundInfo(page)).round;
    assert.ok(stuckRound > 10, `End ran past the image change (round ${stuckRound})`);
    const cards = await rsCards(page);
    const fresh = cards.find((c) => c.isNew);
    const old = cards.find((c) => !c.isNew);
    assert.deepEqual([fresh.name, fresh.image, fresh.desired, fresh.current, fresh.ready], ['web-rev2', 'nginx:1.161', 1, 1, 0]);
    assert.deepEqual([old.name, old.desired, old.available], ['web-rev1', 3, 3]);
    // End runs until nothing more will happen: here the progress deadline passes, and says so.
    assert.equal(await rolloutStatus(page), 'error: deployment "web" exceeded its progress deadline');
    assert.equal(await page.locator(byTestId('settled')).getAttribute('data-outcome'), 'deadline-exceeded');
    assert.equal(await page.locator(byTestId('step-button')).isDisabled(), true);
    await expectText(page, 'settled', 'exceeded its progress deadline');
    const pending = page.locator('[data-name="web-rev2"] .pod-pending');
    assert.equal(await pending.count(), 1, 'the stuck pod is drawn as Pending');
    assert.match((await page.locator('[data-name="web-rev2"] .lane-pods').getAttribute('aria-label')) ?? '', /1 pod: 1 Pending/);

    // kubectl rollout undo brings revision 1 back as the new ReplicaSet.
    await click(page, 'undo-button');
    await expectText(page, 'kubectl-console', 'deployment.apps/web rolled back');
    // kubectl rollout undo is its own action (the template copied on the client side).
    assert.equal(await page.locator(byTestId('pending-action')).getAttribute('data-type'), 'undo');
    await stepToRound(page, stuckRound + 1);
    await runToEnd(page);
    assert.equal(await rolloutStatus(page), 'deployment "web" successfully rolled out');
    const after = await rsCards(page);
    const back = after.find((c) => c.isNew);
    assert.deepEqual([back.name, back.revision, back.image, back.available], ['web-rev1', '3', 'nginx:1.14.2', 3]);
    assert.ok(!(await page.locator(byTestId('event-row')).evaluateAll((r) => r.map((e) => e.dataset.reason))).includes('DeploymentRollback'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('progress deadline: Progressing turns False with ProgressDeadlineExceeded', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'progress-deadline');
    await runToEnd(page);
    const progressing = page.locator(`${byTestId('condition-row')}[data-type="Progressing"]`);
    assert.equal(await progressing.getAttribute('data-status'), 'False');
    assert.equal(await progressing.getAttribute('data-reason'), 'ProgressDeadlineExceeded');
    assert.equal(await rolloutStatus(page), 'error: deployment "web" exceeded its progress deadline');
    // Undo is refused while paused, with kubectl's message.
    await click(page, 'pause-button');
    await click(page, 'step-round-button');
    await click(page, 'undo-button');
    await expectText(page, 'kubectl-console', "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
    await page.close();
  });
});

describe('kubectl and the keyboard', () => {
  test('actions are pending until the next round and can be cancelled', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 3);
    await fill(page, 'replicas-input', '5');
    assert.equal(await page.locator('.badge-edited').first().textContent(), 'not applied yet');
    await click(page, 'scale-button');
    await expectText(page, 'kubectl-console', 'deployment.apps/web scaled');
    await click(page, 'pause-button');
    const pending = page.locator(byTestId('pending-action'));
    assert.deepEqual(await pending.evaluateAll((p) => p.map((e) => [e.dataset.type, e.dataset.round])), [
      ['scale', '3'],
      ['pause', '3'],
    ]);
    assert.equal(await page.locator(byTestId('pause-button')).isDisabled(), true);
    await pending.filter({ hasText: 'rollout pause' }).getByRole('button', { name: /Cancel/ }).click();
    assert.equal(await pending.count(), 1);
    await click(page, 'step-round-button');
    assert.equal(await pending.count(), 0);
    assert.equal((await rsCards(page))[0].desired, 5);
    // The legacy rollback annotation is there for the curious, and records its event.
    await click(page, 'update-image-button');
    await stepToRound(page, 8);
    await page.locator('summary', { hasText: 'legacy' }).click();
    await click(page, 'legacy-rollback-button');
    await stepToRound(page, 9);
    const reasons = await page.locator(byTestId('event-row')).evaluateAll((r) => r.map((e) => e.dataset.reason));
    assert.ok(reasons.includes('DeploymentRollback'), reasons.join());
    await page.close();
  });

  test('Space plays and pauses, the arrow keys step', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await choosePreset(page, 'rolling-basic');
    await page.locator('h1').click();
    // Single syncs taken (data-steps): a step to the next change takes one or more.
    const steps = async () => Number((await page.locator(byTestId('round')).getAttribute('data-steps')));
    await page.keyboard.press('ArrowRight');
    const first = await steps();
    assert.ok(first >= 1);
    await page.keyboard.press('ArrowRight');
    assert.ok((await steps()) > first);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await steps(), first);
    await page.keyboard.press('Shift+ArrowRight');
    assert.deepEqual([(await roundInfo(page)).round, (await roundInfo(page)).text.includes('round not started')], [1, true]);
    await page.locator(byTestId('speed-input')).fill('6');
    await page.locator('h1').click();
    // The key is handled at once; the page shows it at its next render (wait for that, up to 2 s).
    const pressed = (value) =>
      page.waitForFunction(
        ({ sel, value }) => document.querySelector(sel)?.getAttribute('aria-pressed') === value,
        { sel: byTestId('play-button'), value },
        { timeout: 2_000 },
      );
    await page.keyboard.press(' ');
    await pressed('true');
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.round) >= 3, byTestId('round'));
    await page.keyboard.press(' ');
    await pressed('false');
    const paused = await steps();
    await page.waitForTimeout(300);
    assert.equal(await steps(), paused, 'paused means paused');
    // Keys typed into a field stay in the field.
    await page.locator(byTestId('replicas-input')).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    assert.equal(await steps(), paused);
    assert.equal(await page.locator(byTestId('play-button')).getAttribute('aria-pressed'), 'false');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a session exports as a scenario that imports and replays the same', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 2);
    await click(page, 'update-image-button');
    await runToEnd(page);
    const cards = await rsCards(page);
    await page.locator('summary', { hasText: 'Scenario' }).click();
    const json = await page.locator(byTestId('scenario-json')).inputValue();
    const scenario = JSON.parse(json);
    assert.deepEqual(scenario.actions.map((a) => [a.round, a.type]), [[0, 'create'], [2, 'setImage']]);
    assert.ok((await page.locator(byTestId('download-link')).getAttribute('href')).startsWith('data:application/json'));
    await click(page, 'reset-button');
    await fill(page, 'import-textarea', json);
    await click(page, 'import-button');
    assert.equal(await page.locator(byTestId('preset-select')).inputValue(), 'imported');
    await runToEnd(page);
    assert.deepEqual(await rsCards(page), cards);
    await page.close();
  });
});
