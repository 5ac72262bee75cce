// "Inside the controllers" in real Chromium: the object inspector following a ReplicaSet's
// annotations through a scale, the decision flow of syncDeployment on an image change and on a
// scale, a deletion explained by the ranking criterion that decided it, and a pod quota that
// makes creates fail (FailedCreate, ReplicaFailure) until it is lifted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { CUSTOM, byTestId, expectText, fill, openApp, rolloutStatus, rsCards, stepToRound, text } from '../lib/app.mjs';
import { servedApp, click } from '../lib/suite.mjs';

const app = servedApp();

/** The number of steps the panel was last drawn for (-1 before it is drawn). */
const panelSteps = (page) =>
  page.evaluate((sel) => Number(document.querySelector(sel)?.dataset.steps ?? -1), byTestId('inside-panel'));

/** Waits until the panel has been drawn for at least `steps` steps. */
async function panelAt(page, steps) {
  await page.waitForFunction(
    ({ sel, steps }) => Number(document.querySelector(sel)?.dataset.steps ?? -1) >= steps,
    { sel: byTestId('inside-panel'), steps },
    { timeout: 15_000 },
  );
}

/** One step, then waits for the page to redraw (and the panel to follow, when it is open). */
async function step(page) {
  const version = await page.locator('.app').getAttribute('data-version');
  const before = await panelSteps(page);
  await click(page, 'step-button');
  await page.waitForFunction((v) => document.querySelector('.app')?.dataset.version !== v, version);
  if (before >= 0) await panelAt(page, before + 1);
}

/** Steps (at most `max` times) until `check()` is true; fails otherwise. */
async function stepUntil(page, what, check, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await check()) return;
    await step(page);
  }
  assert.fail(`${what}: not seen within ${max} steps`);
}

/** `data-active` and `data-answer` of a flow node. */
const flowNode = (page, id) =>
  page.locator(`.flow-node[data-node="${id}"]`).evaluate((n) => ({ active: n.dataset.active, answer: n.dataset.answer }));

const caption = (page) => text(page, 'flow-caption');

describe('inside the controllers', () => {
  test('selecting a ReplicaSet shows its YAML; a scale changes its max-replicas annotation', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 2);
    const [card] = await rsCards(page);
    // Clicking the card's name opens the section and inspects it.
    await page.locator(`${byTestId('rs-card')}[data-name="${card.name}"] ${byTestId('rs-inspect')}`).click();
    await expectText(page, 'object-inspector', `name: ${card.name}`, 15_000);
    const yaml = await text(page, 'object-inspector');
    assert.match(yaml, /^apiVersion: apps\/v1\nkind: ReplicaSet\n/);
    // 3 replicas, maxSurge 25% → 1: max-replicas 3 + 1.
    assert.match(yaml, /deployment\.kubernetes\.io\/max-replicas: "4"/);
    assert.match(yaml, /deployment\.kubernetes\.io\/desired-replicas: "3"/);
    assert.match(yaml, /pod-template-hash: /);
    assert.match(yaml, /ownerReferences:/);
    assert.equal(await page.locator(`${byTestId('rs-card')}.rs-selected`).getAttribute('data-name'), card.name);

    // kubectl scale to 5: maxSurge 25% of 5 rounds up to 2, so max-replicas becomes 7; the
    // step that writes it marks the line as changed, with the old value.
    await fill(page, 'replicas-input', '5');
    await click(page, 'scale-button');
    await stepUntil(page, 'max-replicas 7', async () => /max-replicas: "7"/.test(await text(page, 'object-inspector')));
    const mark = page.locator(`${byTestId('object-inspector')} mark`, { hasText: 'max-replicas' });
    assert.equal(await mark.count(), 1, 'the changed annotation is marked');
    assert.match(await mark.getAttribute('data-was'), /4/);
    assert.match(await text(page, 'object-inspector'), /desired-replicas: "5"/);
    await screenshot(page, 'inside-replicaset-after-scale');
    // Dark, and a phone: the panel stacks into one column and nothing overflows sideways.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(byTestId('inside-section')).scrollIntoViewIfNeeded();
    assert.equal(await horizontalOverflow(page), 0);
    await screenshot(page, 'inside-phone-dark', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('the flow diagram takes the rolling path on an image change and the scaling path on a scale', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 3);
    await click(page, 'inside-toggle');
    await panelAt(page, 0);
    // Roll out a new image; the first syncDeployment that sees it takes the RollingUpdate way.
    await click(page, 'update-image-button');
    await stepUntil(page, 'a syncDeployment with the new template', async () => {
      const c = await caption(page);
      return c.startsWith('This step') && c.includes('syncDeployment') && (await flowNode(page, 'scale-up-new')).active === 'true';
    });
    assert.deepEqual(await flowNode(page, 'scaling-event'), { active: 'true', answer: 'no' });
    assert.deepEqual(await flowNode(page, 'recreate'), { active: 'true', answer: 'no' });
    assert.equal((await flowNode(page, 'scale')).active, 'false');
    assert.equal((await flowNode(page, 'recreate-scale-down')).active, 'false');
    // The text equivalent says the same.
    assert.match(await page.locator('.fd').first().textContent(), /Scaling event\? no/);
    await screenshot(page, 'inside-flow-rolling');

    // Let it finish, then scale: the next syncDeployment is a scaling event.
    await stepUntil(page, 'the rollout to finish', async () => /successfully rolled out/.test(await rolloutStatus(page)), 80);
    await fill(page, 'replicas-input', '6');
    await click(page, 'scale-button');
    await stepUntil(page, 'a syncDeployment scaling', async () => {
      const c = await caption(page);
      return c.startsWith('This step') && c.includes('syncDeployment') && (await flowNode(page, 'scale')).active === 'true';
    });
    assert.deepEqual(await flowNode(page, 'scaling-event'), { active: 'true', answer: 'yes' });
    assert.equal((await flowNode(page, 'scale-up-new')).active, 'false');
    assert.match(
      await page.locator('.flow-node[data-node="scaling-event"]').textContent(),
      /3 ≠ 6|6 ≠ 3|desired-replicas/,
      'the branch shows its live values',
    );
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a deletion is explained by its ranking criterion: the restarted, unready pod goes first', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await fill(page, 'ready-after-input', '2');
    await stepToRound(page, 4);
    const [card] = await rsCards(page);
    assert.equal(card.ready, 3);
    // Pick the middle pod on the stage, restart its container and scale to 2 in one round.
    const pods = page.locator(`${byTestId('stage')} [data-pod]`);
    assert.equal(await pods.count(), 3);
    const victim = await pods.nth(1).getAttribute('data-pod');
    await pods.nth(1).click();
    await expectText(page, 'object-inspector', `name: ${victim}`, 15_000);
    assert.match(await text(page, 'object-inspector'), /^apiVersion: v1\nkind: Pod\n/);
    await click(page, 'restart-pod-button');
    // A click in the panel reaches only its own handler (no share dialog opened).
    assert.equal(await page.locator('.share-host').count(), 0, 'no share dialog opened');
    await fill(page, 'replicas-input', '2');
    await click(page, 'scale-button');
    const pending = await page.locator(byTestId('pending-action')).evaluateAll((rows) => rows.map((r) => r.dataset.type));
    assert.deepEqual(pending, ['restartPod', 'scale']);

    await stepUntil(page, 'a deletion', async () => (await page.locator(byTestId('deletion-reason')).count()) > 0);
    const reason = page.locator(byTestId('deletion-reason')).first();
    assert.equal(await reason.getAttribute('data-pod'), victim);
    assert.equal(await reason.getAttribute('data-criterion'), 'readiness');
    assert.match(await reason.textContent(), /not ready/);
    await screenshot(page, 'inside-deletion-ranking');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('a pod quota makes creates fail (FailedCreate, ReplicaFailure) until it is lifted', async () => {
    const page = await openApp(app.browser.context, app.server.url + CUSTOM);
    await stepToRound(page, 3);
    await page.locator(`${byTestId('quota-controls')} summary`).click();
    await fill(page, 'quota-input', '3');
    await click(page, 'quota-button');
    await expectText(page, 'kubectl-console', 'kubectl create quota pods-quota --hard=pods=3');
    // A second quota of the same name is refused, as the API server would.
    await click(page, 'quota-button');
    await expectText(page, 'kubectl-console', 'Error from server (AlreadyExists)');
    await click(page, 'update-image-button');
    // FailedCreate is the ReplicaSet's event: show every object's events, not only the
    // Deployment's (what kubectl describe deployment lists).
    await page.locator(byTestId('all-events-toggle')).check();

    // 3 pods exist, the quota is 3: the surge pod (maxSurge 1, maxUnavailable 0) is refused.
    const hasEvent = async (reason) => (await page.locator(`${byTestId('event-row')}[data-reason="${reason}"]`).count()) > 0;
    const hasCondition = async (type) =>
      (await page.locator(`${byTestId('condition-row')}[data-type="${type}"][data-status="True"]`).count()) > 0;
    await stepUntil(page, 'FailedCreate', () => hasEvent('FailedCreate'), 20);
    assert.match(
      await page.locator(`${byTestId('event-row')}[data-reason="FailedCreate"]`).first().textContent(),
      /exceeded quota: pods-quota, requested: pods=1, used: pods=3, limited: pods=3/,
    );
    await stepUntil(page, 'ReplicaFailure on the Deployment', () => hasCondition('ReplicaFailure'), 20);
    const newCard = (await rsCards(page)).find((c) => c.isNew);
    assert.equal(newCard.current, 0);
    assert.match(await page.locator(`${byTestId('rs-card')}[data-new="true"]`).textContent(), /ReplicaFailure/);
    await screenshot(page, 'inside-quota-failed-create');

    // Lifting the quota: the ReplicaSet creates its pod, the condition goes, the rollout ends.
    await click(page, 'lift-quota-button');
    await expectText(page, 'kubectl-console', 'kubectl delete quota pods-quota');
    await stepUntil(page, 'recovery', async () => /successfully rolled out/.test(await rolloutStatus(page)), 60);
    assert.equal(await hasCondition('ReplicaFailure'), false);
    const cards = await rsCards(page);
    assert.equal(cards.find((c) => c.isNew).available, 3);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
