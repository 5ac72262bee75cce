// Page helpers shared by the specs: open the app, fill its inputs, wait for its text.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';

/**
 * The fragment that opens the settings' own scenario ("Custom: from the settings") at its
 * start, nothing run: what a first visit opened before issue #22. A first visit (no fragment)
 * now opens rolling-basic with its Deployment running and `kubectl set image` a Step away.
 */
export const CUSTOM = '#p=custom';

/** `[data-testid="…"]` */
export const byTestId = (id) => `[data-testid="${id}"]`;

/**
 * Opens the app in a new page and waits until Yew has rendered it. Collects console errors and
 * uncaught exceptions into `page.errors` so a spec can assert there were none.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} url
 */
export async function openApp(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  await page.goto(url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  return Object.assign(page, { errors });
}

/** Replaces an input's text the way a user does (focus, select all, type), firing `input`. */
export async function fill(page, testid, text) {
  await page.locator(byTestId(testid)).fill(text);
}

/** The text of the element with this test id, once it exists. */
export async function text(page, testid) {
  return (await page.locator(byTestId(testid)).textContent({ timeout: 5_000 })) ?? '';
}

/**
 * Waits until the element's text satisfies `expected` (a string it must contain, or a RegExp),
 * then asserts it, so a failure reports the text actually shown.
 */
export async function expectText(page, testid, expected, timeout = 5_000) {
  const sel = byTestId(testid);
  const isRe = expected instanceof RegExp;
  await page
    .waitForFunction(
      ({ sel, src, flags, isRe }) => {
        const t = document.querySelector(sel)?.textContent;
        if (t == null) return false;
        return isRe ? new RegExp(src, flags).test(t) : t.includes(src);
      },
      { sel, src: isRe ? expected.source : expected, flags: isRe ? expected.flags : '', isRe },
      { timeout },
    )
    .catch(() => {});
  const actual = await page.locator(sel).textContent({ timeout: 1_000 }).catch(() => null);
  if (isRe) assert.match(actual ?? '<missing>', expected, `${sel}`);
  else assert.ok(actual?.includes(expected), `${sel}: expected to contain ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Every ReplicaSet card's data attributes, in page order. */
export async function rsCards(page) {
  return page.locator(byTestId('rs-card')).evaluateAll((cards) =>
    cards.map((c) => ({
      name: c.dataset.name,
      revision: c.dataset.revision,
      image: c.dataset.image,
      desired: Number(c.dataset.desired),
      current: Number(c.dataset.current),
      ready: Number(c.dataset.ready),
      available: Number(c.dataset.available),
      isNew: c.dataset.new === 'true',
    })),
  );
}

/** The round display: `{ round, time, steps, text }` from `data-round` / `data-time` /
 * `data-steps` (single syncs taken). */
export async function roundInfo(page) {
  return page.locator(byTestId('round')).evaluate((el) => ({
    round: Number(el.dataset.round),
    time: Number(el.dataset.time),
    steps: Number(el.dataset.steps),
    text: el.textContent ?? '',
  }));
}

/**
 * Runs whole rounds (the Round button, step-round-button) until the round display reaches
 * `round`: the state at the start of that round (at most `max` clicks). Step goes to the next
 * change, which may be several rounds later.
 */
export async function stepToRound(page, round, max = 50) {
  for (let i = 0; i < max; i++) {
    if ((await roundInfo(page)).round >= round) return;
    await page.locator(byTestId('step-round-button')).click();
  }
  throw new Error(`round ${round} not reached after ${max} rounds (at ${(await roundInfo(page)).round})`);
}

/** The clock: `{ seconds, round }` from `data-seconds` / `data-round`. */
export async function clock(page) {
  return page.locator(byTestId('clock')).evaluate((el) => ({
    seconds: Number(el.dataset.seconds),
    round: Number(el.dataset.round),
  }));
}

/** Waits until the round display shows `round`. */
export async function waitForRound(page, round, timeout = 15_000) {
  await page.waitForFunction(
    ({ sel, round }) => Number(document.querySelector(sel)?.dataset.round) === round,
    { sel: byTestId('round'), round },
    { timeout },
  );
}

/** Picks a preset from the menu and waits for the page to show it. */
export async function choosePreset(page, id) {
  await page.locator(byTestId('preset-select')).selectOption(id);
  await page.waitForFunction(
    ({ sel, id }) => document.querySelector(sel)?.value === id,
    { sel: byTestId('preset-select'), id },
  );
}

/** Runs with the End button until nothing more will happen (End is then disabled, as it is
 * while it runs: wait until it says "End" again). */
export async function runToEnd(page) {
  await page.locator(byTestId('end-button')).click();
  await page.waitForFunction(
    (sel) => {
      const b = document.querySelector(sel);
      return b?.disabled === true && !b.textContent.includes('Running');
    },
    byTestId('end-button'),
    { timeout: 30_000 },
  );
}

/** The text kubectl rollout status would print, without the trailing newline. */
export async function rolloutStatus(page) {
  return ((await page.locator(byTestId('rollout-status')).textContent()) ?? '').replace(/\n$/, '');
}

const axeSource = fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page and fails with each violation (rule, impact, up to four nodes)
 * named after `what`. `options` go to `axe.run` (e.g. `{ iframes: false }`).
 */
export async function axeAudit(page, what, options = {}) {
  await page.addScriptTag({ content: await axeSource });
  const result = await page.evaluate(async (opts) => {
    const r = await window.axe.run(document, opts);
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
  }, options);
  assert.deepEqual(result, [], `${what}: axe violations`);
}
