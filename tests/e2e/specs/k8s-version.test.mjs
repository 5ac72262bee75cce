// The Kubernetes release on the page (issue #36): the app runs 1.37 unless asked for 1.28. The
// stage says which release it shows, beside the Deployment, with a link to that release's
// controller source; under 1.37 the ReplicaSet lanes, the Deployment panel and the YAML count the
// pods being deleted (status.terminatingReplicas), under 1.28 nothing does. The settings switch
// applies on Reset once the rollout has started; `?k8s=1.28` and the share link keep 1.28; a
// `<rollout-lab k8s="1.28">` runs 1.28 and an unknown release is refused in words.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byTestId, expectText, openApp } from '../lib/app.mjs';
import { horizontalOverflow, screenshot } from '../lib/screens.mjs';
import { click, servedApp } from '../lib/suite.mjs';

const app = servedApp();

/** The stage's version badge: its text and where it links. */
async function badge(page, scope = byTestId('stage')) {
  const b = page.locator(`${scope} ${byTestId('k8s-version')}`).first();
  return { version: await b.getAttribute('data-version'), href: await b.getAttribute('href'), text: (await b.textContent()).replace(/\s+/g, ' ').trim() };
}

/** The stage's lanes' status.terminatingReplicas (null where a lane shows none). */
const laneTerminating = (page) =>
  page.locator(`${byTestId('stage')} ${byTestId('rs-lane')}`).evaluateAll((lanes) => lanes.map((l) => (l.dataset.terminating == null ? null : Number(l.dataset.terminating))));

/** Steps until a lane counts a terminating pod (at most `max` steps); returns the counts seen. */
async function stepUntilTerminating(page, max = 30) {
  for (let i = 0; i < max; i++) {
    const t = await laneTerminating(page);
    if (t.some((n) => n > 0)) return t;
    await click(page, 'step-button');
  }
  return laneTerminating(page);
}

describe('the Kubernetes release on the page', () => {
  test('the stage shows 1.37 with terminatingReplicas; the switch to 1.28 applies on Reset and takes them away', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    await page.setViewportSize({ width: 1280, height: 720 });
    let b = await badge(page);
    assert.equal(b.version, '1.37');
    assert.equal(b.text, "Kubernetes 1.37 (the controllers' source in v1.37.0)");
    assert.equal(b.href, 'https://github.com/kubernetes/kubernetes/tree/v1.37.0/pkg/controller/deployment');
    assert.equal(await page.locator(byTestId('kubernetes-select')).inputValue(), '1.37');
    // The first visit's `kubectl set image` is a Step away: step into the rollout until an old
    // pod is deleted and the old ReplicaSet's status counts it.
    const counts = await stepUntilTerminating(page);
    assert.ok(counts.some((n) => n > 0), `a lane counts a terminating pod: ${counts}`);
    const lane = page.locator(`${byTestId('stage')} ${byTestId('lane-terminating')}`).filter({ hasText: /terminating [1-9]/ }).first();
    assert.match(await lane.innerText(), /^terminating [1-9]\d*$/);
    // The Deployment's status sums its ReplicaSets' once its controller has synced after
    // theirs (a Step later: each Step is one controller's change).
    const deploy = page.locator(byTestId('deploy-terminating'));
    const sums = async () => [Number(await deploy.getAttribute('data-terminating')), (await laneTerminating(page)).reduce((a, n) => a + (n ?? 0), 0)];
    let [ofDeployment, ofLanes] = await sums();
    for (let i = 0; i < 3 && ofDeployment !== ofLanes; i++) {
      await click(page, 'step-button');
      [ofDeployment, ofLanes] = await sums();
    }
    assert.ok(ofLanes > 0 && ofDeployment === ofLanes, `the Deployment ${ofDeployment}, its ReplicaSets ${ofLanes}`);
    await expectText(page, 'deploy-terminating', `status.terminatingReplicas: ${ofDeployment}`);
    await screenshot(page, 'k8s-137-stage-1280x720', { fullPage: false });
    // The card of that ReplicaSet and the YAML "Inside the controllers" prints say the same.
    const name = await page
      .locator(`${byTestId('stage')} ${byTestId('rs-lane')}[data-terminating]:not([data-terminating="0"])`)
      .first()
      .getAttribute('data-name');
    const card = page.locator(`${byTestId('rs-card')}[data-name="${name}"]`);
    const n = await card.getAttribute('data-terminating');
    assert.equal(await card.locator(`${byTestId('rs-terminating')} dd`).innerText(), n);
    await card.locator(byTestId('rs-inspect')).click();
    await expectText(page, 'object-inspector', `name: ${name}`, 15_000);
    assert.match(await page.locator(byTestId('object-inspector')).innerText(), new RegExp(`\n  terminatingReplicas: ${n}\n`));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(byTestId('stage')).scrollIntoViewIfNeeded();
    assert.ok((await horizontalOverflow(page)) <= 0, 'no horizontal scroll at 390 px');
    await screenshot(page, 'k8s-137-stage-390x844', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Once started, the release changes on Reset, as the rest of the cluster model does.
    await page.locator(byTestId('kubernetes-select')).selectOption('1.28');
    await expectText(page, 'kubernetes-hint', 'only before the first step');
    assert.equal((await badge(page)).version, '1.37', 'not before Reset');
    await click(page, 'reset-button');
    b = await badge(page);
    assert.equal(b.text, "Kubernetes 1.28 (the controllers' source in v1.28.4)");
    assert.equal(b.href, 'https://github.com/kubernetes/kubernetes/tree/v1.28.4/pkg/controller/deployment');
    await expectText(page, 'kubernetes-hint', 'no status.terminatingReplicas');
    // The same rollout, and no lane, no Deployment panel counts terminating pods.
    for (let i = 0; i < 12; i++) await click(page, 'step-button');
    assert.deepEqual((await laneTerminating(page)).filter((n) => n != null), []);
    assert.equal(await page.locator(byTestId('deploy-terminating')).count(), 0);
    await screenshot(page, 'k8s-128-stage-1280x720', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('?k8s=1.28 opens 1.28, the share link keeps it, ?embed&k8s=1.28 too; an unknown release is said', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?k8s=1.28`);
    assert.equal((await badge(page)).version, '1.28');
    assert.equal(await page.locator(byTestId('kubernetes-select')).inputValue(), '1.28');
    await click(page, 'step-button');
    await click(page, 'step-button');
    await click(page, 'copy-link-button');
    const link = await page.locator(byTestId('share-link')).inputValue();
    assert.ok(link.startsWith(`${app.server.url}?k8s=1.28#s=(`), link);
    assert.equal(await page.evaluate(() => location.href), link, 'the address bar has it too');
    const again = await openApp(app.browser.context, link);
    assert.equal((await badge(again)).version, '1.28');
    assert.equal(
      await again.locator(byTestId('round')).getAttribute('data-steps'),
      await page.locator(byTestId('round')).getAttribute('data-steps'),
    );
    await again.close();
    await page.close();

    const embed = await openApp(app.browser.context, `${app.server.url}?embed&k8s=1.28`);
    assert.equal((await badge(embed, byTestId('embed'))).version, '1.28');
    await embed.close();

    const bad = await openApp(app.browser.context, `${app.server.url}?k8s=1.30`);
    assert.equal((await badge(bad)).version, '1.37');
    await expectText(bad, 'notice', 'unknown Kubernetes version `1.30`; Rollout Lab models 1.37 and 1.28');
    assert.deepEqual(bad.errors, []);
    await bad.close();
  });

  test('the Races view: a fourth column, the real controllers 1.36+, and what their guard does not change', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?view=races&race=stale-status`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await click(page, 'race-guard');
    assert.equal(await page.locator(byTestId('race-guard')).getAttribute('aria-pressed'), 'true');
    assert.match(await page.evaluate(() => location.search), /show=guard/);
    // To the Deployment controller's sync on its stale cache: the 1.36+ controllers do the same.
    for (let i = 0; i < 12; i++) await click(page, 'race-next');
    await expectText(page, 'race-note', 'the Deployment controller has no such guard');
    const truth = (mode) => page.locator(`${byTestId(`race-mode-${mode}`)} ${byTestId('race-truth')}`).innerText();
    assert.equal(await truth('guard'), await truth('real'));
    assert.equal(await page.locator(`${byTestId('race-mode-guard')} ${byTestId('race-violation')}`).count(), 0);
    await page.locator(byTestId('race-mode-guard')).scrollIntoViewIfNeeded();
    await screenshot(page, 'k8s-races-guard-1280x720', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('<rollout-lab k8s="1.28"> runs 1.28 beside a 1.37 one; an unknown release is refused', async () => {
    const page = await app.browser.context.newPage();
    const body = `<rollout-lab id="old" preset="rolling-basic" k8s="1.28" label="Old"></rollout-lab>
      <rollout-lab id="new" preset="rolling-basic" label="New"></rollout-lab>
      <rollout-lab id="bad" k8s="2.0" label="Bad"></rollout-lab>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>k8s</title><script type="module" src="./rollout-lab.js"></script></head><body>${body}</body></html>`;
    await page.route('**/k8s-element.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(`${app.server.url}k8s-element.html`);
    await page.setViewportSize({ width: 1280, height: 2400 });
    const version = (id) => page.locator(`#${id}`).locator(byTestId('k8s-version')).getAttribute('data-version');
    await page.locator('#old').locator(byTestId('k8s-version')).waitFor();
    await page.locator('#new').locator(byTestId('k8s-version')).waitFor();
    assert.equal(await version('old'), '1.28');
    assert.equal(await version('new'), '1.37');
    assert.equal(await page.evaluate(() => document.getElementById('old').lab.scenario().kubernetesVersion), undefined, '1.28 is the format\'s default');
    assert.equal(await page.evaluate(() => document.getElementById('new').lab.scenario().kubernetesVersion), '1.37');
    const alert = page.locator('#bad').locator('[role="alert"]');
    await alert.waitFor();
    assert.match(await alert.textContent(), /unknown Kubernetes version `2\.0`; Rollout Lab models 1\.37 and 1\.28/);
    // Both start where the preset starts; stepped on, the 1.37 lab's cards count a pod being
    // deleted, the 1.28 lab's never show the field.
    const steps = (id) => page.evaluate((id) => document.getElementById(id).lab.state().step, id);
    assert.equal(await steps('old'), await steps('new'));
    const terminating = (id) => page.locator(`#${id}`).locator(byTestId('rs-card')).evaluateAll((cards) => cards.map((c) => c.dataset.terminating ?? null));
    let seen = [];
    for (let i = 0; i < 30 && !seen.some((t) => Number(t) > 0); i++) {
      await page.evaluate(() => ['old', 'new'].forEach((id) => document.getElementById(id).lab.step()));
      seen = await terminating('new');
      assert.deepEqual((await terminating('old')).filter((t) => t != null), []);
    }
    assert.ok(seen.some((t) => Number(t) > 0), `a 1.37 card counts a terminating pod: ${seen}`);
    await page.locator('#new').scrollIntoViewIfNeeded();
    await screenshot(page, 'k8s-element-137-cards', { fullPage: false });
    // The JavaScript API switches a lab's release the way the settings do (on reset() once started).
    const problem = await page.evaluate(() => document.getElementById('new').lab.set('kubernetesVersion', '1.29'));
    assert.match(problem, /unknown Kubernetes version `1\.29`/);
    await page.evaluate(() => {
      const lab = document.getElementById('new').lab;
      lab.set('kubernetesVersion', '1.28');
      lab.reset();
    });
    await page.waitForFunction(() => document.getElementById('new').shadowRoot.querySelector('[data-testid="k8s-version"]')?.dataset.version === '1.28');
    await screenshot(page, 'k8s-elements', { fullPage: false });
    await page.close();
  });
});
