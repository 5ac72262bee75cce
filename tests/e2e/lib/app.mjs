// Page helpers shared by the specs: open the app, fill its inputs, wait for its text.
import assert from 'node:assert/strict';

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
