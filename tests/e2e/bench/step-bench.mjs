// Step to the next change at 1,000 replicas, in the app, in headless Debian Chromium (issue #15:
// within 50 ms). Against a release build:
//
//   trunk build --release --dist /tmp/dist-release && ROLLOUT_DIST=/tmp/dist-release node tests/e2e/bench/step-bench.mjs
//
// The app opens the permalink of a settled rollout of 1,000 replicas (maxSurge 25%, 1 s rounds,
// pods ready after 5 s, a 3 s grace period, 10 nodes; the image changes at round 10), written
// by the module's own encodeLink. Then Step is clicked in the page until it is disabled; each
// press is timed from the click (performance.now()) until the page shows the step (data-steps
// of the round display changed, seen by a MutationObserver) and the next frame has been painted
// (two requestAnimationFrame callbacks): the reducer's Session::step, the search for whether a
// further step exists (Session::settled, which disables Step), the frame and the render.
// Prints every press (with its headline) and the median, p90 and max as JSON.
import { serveDir } from '../lib/server.mjs';
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';

const SCENARIO = {
  name: 'bench-1000',
  rounds: 20,
  secondsPerRound: 1,
  settle: true,
  readyAfterRounds: 5,
  terminationRounds: 3,
  nodes: 10,
  actions: [
    { round: 0, type: 'create', deployment: { name: 'web', replicas: 1000, image: 'v1' } },
    { round: 10, type: 'setImage', image: 'v2' },
  ],
};

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const at = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];
const r1 = (x) => Math.round(x * 10) / 10;

const server = await serveDir(distDir);
const browser = await launch({ viewport: { width: 1280, height: 720 } });
try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  const hash = await page.evaluate(async (s) => `#${(await import('./rollout-lab.js')).encodeLink(s)}`, SCENARIO);
  await page.goto(`${server.url}${hash}`);
  await page.reload();
  await page.locator('[data-testid="step-button"]').waitFor();
  const presses = [];
  for (let i = 0; i < 200; i++) {
    const r = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const button = document.querySelector('[data-testid="step-button"]');
          const round = document.querySelector('[data-testid="round"]');
          if (button.disabled) return resolve(null);
          const before = round.dataset.steps;
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            if (round.dataset.steps === before) return;
            obs.disconnect();
            requestAnimationFrame(() =>
              requestAnimationFrame(() =>
                resolve({
                  ms: performance.now() - t0,
                  syncs: Number(round.dataset.steps) - Number(before),
                  headline: document.querySelector('[data-testid="explanation-headline"]')?.textContent ?? '',
                }),
              ),
            );
          });
          obs.observe(round, { attributes: true });
          button.click();
        }),
    );
    if (!r) break;
    presses.push(r);
  }
  const ms = presses.map((p) => p.ms);
  console.log(
    JSON.stringify(
      {
        presses: presses.map((p) => ({ ms: r1(p.ms), syncs: p.syncs, headline: p.headline.slice(0, 90) })),
        steps: presses.length,
        median: r1(at(ms, 0.5)),
        p90: r1(at(ms, 0.9)),
        max: r1(Math.max(...ms)),
      },
      null,
      1,
    ),
  );
} finally {
  await browser.close();
  await server.close();
}
