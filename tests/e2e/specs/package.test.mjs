// The npm package as a documentation author installs it (issue #39): dist/ packed by `npm pack`
// (or the tarball ROLLOUT_PACKAGE names: `scripts/dev.sh package` writes one), installed from
// the tarball, not the source tree, into fresh projects with the registry's real tools at exact
// versions (lib/package.mjs): a Vite + React 19 site rendered on the server and hydrated, and
// the README's plain HTML page. In Chromium each lab renders and steps, and the page does not
// shift while the wasm loads (CLS < 0.02 at 1280 and 390 px); the project's own TypeScript
// compiles the component under `bundler`, `node16` and `node` resolution. The release workflow
// is read as YAML (PyYAML, which mkdocs brings) and checked for what README says it does, and
// the size check (bench/budget.mjs) on a made-up dist/ enforces the lower of budget and ceiling.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { launch } from '../lib/browser.mjs';
import { screenshot } from '../lib/screens.mjs';
import { BUDGETS, CEILINGS, YAML_READER_MARK, bundle, listFiles } from '../lib/bundle.mjs';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import { serveSite } from '../lib/docsites.mjs';
import { buildHtmlFromTarball, buildViteSite, packedTarball, tarballFiles, typecheck } from '../lib/package.mjs';
import { distDir, repoRoot } from '../lib/paths.mjs';

let browser;
let tarball;
before(async () => {
  tarball = await packedTarball();
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens `url` at `viewport`, collecting uncaught errors and layout shifts (CLS). */
async function open(url, viewport = { width: 1280, height: 720 }) {
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The server has no favicon: that 404 is a failed resource, not an error of the page.
    if ((msg.type() === 'error' || msg.type() === 'warning') && !/Failed to load resource/.test(msg.text())) errors.push(`console.${msg.type()}: ${msg.text()}`);
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

const labs = (page) => page.locator('rollout-lab');
const steps = (page, n) => labs(page).nth(n).locator('[data-testid="round"]').evaluate((el) => Number(el.dataset.steps));
const drawn = (page) =>
  page.waitForFunction(
    () => {
      const all = [...document.querySelectorAll('rollout-lab')];
      return all.length > 0 && all.every((l) => l.shadowRoot?.querySelector('.rollout-lab-region.is-ready [data-testid="step-button"]'));
    },
    null,
    { timeout: 30_000 },
  );

async function stepAndWait(page, n) {
  const before = await steps(page, n);
  await labs(page).nth(n).locator('[data-testid="step-button"]').click();
  await page.waitForFunction(
    ({ n, before }) => Number(document.querySelectorAll('rollout-lab')[n].shadowRoot.querySelector('[data-testid="round"]').dataset.steps) !== before,
    { n, before },
  );
}

/**
 * Both labs of `url` render and step independently; with the wasm held back 1.5 s, nothing on
 * the page shifts at 1280 × 720 or 390 × 844 (CLS < 0.02), and the text after the labs is where
 * it was before they were drawn.
 */
function rendersWithoutShift(name, env) {
  test(`${name}: both labs render and step`, async () => {
    const page = await open(env.server.url(''));
    await drawn(page);
    await stepAndWait(page, 0);
    await stepAndWait(page, 0);
    await stepAndWait(page, 1);
    assert.deepEqual([await steps(page, 0), await steps(page, 1)], [2, 1]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    test(`${name} at ${viewport.width} px: CLS < 0.02 while the wasm loads`, async () => {
      env.server.wasm.delay = 1500;
      let page;
      try {
        page = await open(env.server.url(''), viewport);
        await page.locator('rollout-lab').first().waitFor();
        const after = () => page.locator('p', { hasText: 'The text after the labs' }).evaluate((p) => Math.round(p.getBoundingClientRect().top + scrollY));
        const before = await after();
        await drawn(page);
        await page.waitForTimeout(500);
        const cls = await page.evaluate(() => window.cls);
        assert.ok(cls < 0.02, `CLS ${cls.toFixed(4)}`);
        // Two labs, each within about 12 px of its table height (a preset's first step may show
        // a line more or less than the table's).
        const moved = (await after()) - before;
        assert.ok(Math.abs(moved) <= 30, `the text after the labs moved ${moved} px when they were drawn`);
      } finally {
        env.server.wasm.delay = 0;
      }
      await screenshot(page, `package-${name.toLowerCase().replace(/\W+/g, '-')}-${viewport.width}`, { fullPage: false });
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
}

describe('the packed tarball', () => {
  test('holds every file of dist/ and nothing else but its package.json', async () => {
    const files = tarballFiles(tarball);
    assert.deepEqual(files, await listFiles(distDir));
    for (const f of ['rollout-lab.js', 'rollout-lab_bg.wasm', 'rollout-lab.d.ts', 'rollout-lab-react.js', 'rollout-lab-react.d.ts', 'rollout-lab-height.js', 'app.css', 'embed.css', 'hugo/layouts/shortcodes/rollout-lab.html']) {
      assert.ok(files.includes(f), f);
    }
    assert.ok(files.some((f) => /^snippets\/[^/]+\/js\/element\.js$/.test(f)));
    assert.match(path.basename(tarball), /^rollout-lab-\d+\.\d+\.\d+\.tgz$/);
  });
});

describe('a Vite + React 19 site rendered on the server, with the package from the tarball', () => {
  const env = {};
  before(async () => {
    const built = await buildViteSite(tarball);
    Object.assign(env, built, { server: await serveSite(built.site, '/') });
  });
  after(() => env.server?.close());

  test('the server renders each element with a box of its lab\'s height around the fallback', () => {
    const boxes = [...env.html.matchAll(/<rollout-lab [^>]*>\s*<div data-rollout-lab-reserve="" style="([^"]*)"/g)].map((m) => m[1]);
    assert.equal(boxes.length, 2, env.html);
    for (const style of boxes) assert.match(style, /height:calc\(\d+px [-+] clamp\(0px, \(100cqw - 642px\) \* 1000, \d+px\)\)/);
    assert.notEqual(boxes[0], boxes[1], 'chart="0" reserves its own height');
  });

  rendersWithoutShift('Vite', env);

  for (const resolution of ['bundler', 'node16', 'node']) {
    test(`TypeScript compiles the component under moduleResolution "${resolution}"`, async () => {
      const result = await typecheck(env.dir, resolution);
      assert.equal(result.status, 0, result.output);
    });
  }
});

describe("the README's plain HTML page, with the tarball's files", () => {
  const env = {};
  before(async () => {
    env.server = await serveSite(await buildHtmlFromTarball(tarball), '/');
  });
  after(() => env.server?.close());

  rendersWithoutShift('HTML', env);
});

describe('the release workflow', () => {
  test('.github/workflows/release.yml is valid YAML that builds, attaches and publishes as README says', () => {
    const file = path.join(repoRoot, '.github', 'workflows', 'release.yml');
    const json = execFileSync('python3', ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', file], { encoding: 'utf8' });
    const wf = JSON.parse(json);
    // PyYAML reads the bare key `on` as true (YAML 1.1), as GitHub's own reader does not.
    assert.deepEqual(wf.true ?? wf.on, { push: { tags: ['v*'] } });
    assert.equal(wf.permissions.contents, 'write');
    const job = wf.jobs.release;
    assert.ok(job['runs-on']);
    assert.equal(job.env.NPM_TOKEN, '${{ secrets.NPM_TOKEN }}');
    const runs = job.steps.map((s) => s.run ?? '').join('\n');
    assert.ok(job.steps.every((s) => Boolean(s.run) !== Boolean(s.uses)), 'each step runs a command or uses an action');
    assert.match(runs, /^\s*scripts\/dev\.sh package$/m);
    assert.match(runs, /gh release upload "\$GITHUB_REF_NAME" release\/rollout-lab-\*\.tgz release\/rollout-lab-\*\.zip/);
    const publish = job.steps.find((s) => /npm publish/.test(s.run ?? ''));
    assert.equal(publish.if, "env.NPM_TOKEN != ''");
    assert.equal(publish.env.NODE_AUTH_TOKEN, '${{ secrets.NPM_TOKEN }}');
    // The package is the one `scripts/dev.sh package` packs, and the tag must name its version.
    assert.match(runs, /require\("\.\/web\/package\.json"\)\.version/);
  });
});

describe('the size check (bench/budget.mjs)', () => {
  /** A dist/ whose app wasm is `wasmBytes` random bytes (gzip cannot shrink them). */
  async function fakeDist(wasmBytes) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rollout-budget-'));
    const files = {
      'index.html': '<link rel="stylesheet" href="./app.css">',
      'app.css': 'a{}',
      'embed.css': 'b{}',
      'rollout-lab.js': 'export default 1;',
      'rollout-lab_bg.wasm': crypto.randomBytes(wasmBytes),
      'rollout-yaml_bg.wasm': YAML_READER_MARK,
    };
    for (const [f, body] of Object.entries(files)) await fs.writeFile(path.join(dir, f), body);
    return dir;
  }
  const check = (dir) => {
    try {
      return { status: 0, out: execFileSync('node', [path.join(repoRoot, 'tests', 'e2e', 'bench', 'budget.mjs')], { env: { ...process.env, ROLLOUT_DIST: dir }, encoding: 'utf8' }) };
    } catch (e) {
      return { status: e.status, out: `${e.stdout}${e.stderr}` };
    }
  };

  test("issue #39's budgets, and the ceiling (the ratchet) is what fails a page", async () => {
    assert.deepEqual(BUDGETS, { app: 720_000, element: 720_000, embed: 720_000, dist: 860_000 });
    // Over the app page's ceiling: the check fails and says so.
    const overDir = await fakeDist(CEILINGS.app + 5_000);
    const { pages } = await bundle(overDir);
    assert.equal(pages.app.limit, CEILINGS.app);
    assert.ok(pages.app.gzip > pages.app.limit, JSON.stringify(pages.app));
    const over = check(overDir);
    assert.equal(over.status, 1, over.out);
    assert.match(over.out, new RegExp(`^app page ${pages.app.gzip} bytes gzip -9 \\(budget 720000, \\d+ (to spare|over), ceiling ${CEILINGS.app}, \\d+ OVER THE LIMIT`, 'm'));
    // Between the budget and the ceiling: a page over its budget passes only below the size
    // its features were measured at, and the line says how far over the budget it is; a page
    // under its budget but over a lower ceiling fails.
    const lo = Math.min(CEILINGS.app, BUDGETS.app);
    const hi = Math.max(CEILINGS.app, BUDGETS.app);
    if (hi - lo > 10_000) {
      const between = check(await fakeDist(Math.round((lo + hi) / 2)));
      if (CEILINGS.app > BUDGETS.app) {
        assert.equal(between.status, 0, between.out);
        assert.match(between.out, /^app page \d+ bytes gzip -9 \(budget 720000, \d+ over, ceiling \d+, \d+ below the limit/m);
      } else {
        assert.equal(between.status, 1, between.out);
      }
    }
    // Under both: the check passes and says what is left.
    const under = check(await fakeDist(Math.min(CEILINGS.element, BUDGETS.element) - 20_000));
    assert.equal(under.status, 0, under.out);
    assert.match(under.out, /^dist total \d+ bytes gzip -9 \(budget 860000, \d+ to spare, ceiling \d+, \d+ below the limit/m);
  });
});
