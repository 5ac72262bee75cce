// Screenshots: full-page PNGs under tests/e2e/screenshots/, checked not to be blank.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { screenshotDir } from './paths.mjs';

/** Saves `<name>.png` (full page unless `fullPage: false`) and checks it has content. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  await fs.mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  // Let the pod and highlight animations finish so the picture shows the settled state.
  await page.waitForTimeout(1500);
  await page.screenshot({ path: file, fullPage });
  assert.ok((await fs.stat(file)).size > 5_000, `${file} looks empty`);
  return file;
}

/** The page's horizontal overflow in CSS pixels (0 when it fits). */
export async function horizontalOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
