// What every spec file sets up: dist/ served over HTTP and one headless Chromium, both for the
// whole file (node:test before / after hooks), and a click by test id.
import { after, before } from 'node:test';
import { byTestId } from './app.mjs';
import { launch } from './browser.mjs';
import { distDir } from './paths.mjs';
import { serveDir } from './server.mjs';

/**
 * Registers the hooks and returns `{ server, browser }`, filled in once `before` has run
 * (`server.url`, `browser.context`).
 */
export function servedApp() {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await serveDir(distDir);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Clicks the element with this test id. */
export const click = (page, testid) => page.locator(byTestId(testid)).click();
