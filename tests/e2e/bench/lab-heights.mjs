// Measures the height a <rollout-lab> draws at for each combination of the attributes that
// change it (chart, explain, controls, the Races view), in an element 760 px wide (a docs
// page's column at 1280 px) and 358 px wide (a 390 px phone with its margins), in Debian's
// Chromium: the figures web/js/lab-height.js's table is derived from. Prints one line per
// combination: attributes, width, drawn height, reserved height, difference.
//   cd tests/e2e && ROLLOUT_DIST=/path/to/dist node bench/lab-heights.mjs
import { launch } from '../lib/browser.mjs';
import { distDir } from '../lib/paths.mjs';
import { serveDir } from '../lib/server.mjs';

const CONTROLS = (process.env.CONTROLS ?? ',step,step;round;play;image;reset,replicas,strategy,strategy;replicas,step;replicas;maxSurge,step;replicas;maxSurge;maxUnavailable,step;strategy;replicas;maxSurge;maxUnavailable,step;round;play;image;reset;strategy;replicas;maxSurge;maxUnavailable').split(',').map((c) => c.replaceAll(';', ','));
const combos = [];
for (const chart of (process.env.CHART ?? '1,0').split(','))
  for (const explain of (process.env.EXPLAIN ?? '1,0').split(','))
    for (const buttons of CONTROLS) combos.push({ preset: process.env.PRESET ?? 'rolling-basic', chart, explain, ...(buttons ? { buttons } : {}) });
combos.push({ view: 'races', race: 'expectations' });
combos.push({ lesson: 'rolling-update' });

const server = await serveDir(distDir);
const browser = await launch();
const page = await browser.context.newPage();
const { labHeight, NARROW_BELOW } = await import(`${distDir}/rollout-lab-height.js`);
const WIDTHS = (process.env.WIDTHS ?? '760,358').split(',').map(Number);
for (const width of WIDTHS) {
  const viewport = Math.max(390, width + 40);
  await page.setViewportSize({ width: viewport, height: 800 });
  const attrs = (c) => Object.entries(c).map(([k, v]) => `${k}="${v}"`).join(' ');
  const body = combos.map((c, i) => `<rollout-lab id="l${i}" loading="eager" ${attrs(c)} style="width:${width}px;margin-bottom:20px"></rollout-lab>`).join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><script type="module" src="./rollout-lab.js"></script></head><body style="margin:16px">${body}</body></html>`;
  await page.route('**/heights.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${server.url}heights.html`);
  await page.waitForFunction(
    (n) => [...document.querySelectorAll('rollout-lab')].filter((l) => l.shadowRoot?.querySelector('.rollout-lab-region.is-ready')).length === n,
    combos.length,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(800);
  const heights = await page.evaluate(() => [...document.querySelectorAll('rollout-lab')].map((l) => Math.round(l.getBoundingClientRect().height)));
  combos.forEach((c, i) => {
    const reserved = labHeight ? labHeight((k) => c[k] ?? null)[width < NARROW_BELOW ? 'narrow' : 'wide'] : NaN;
    console.log(`${JSON.stringify(c).replace('"preset":"rolling-basic",', '').padEnd(80)} ${String(width).padStart(4)} px wide: drawn ${heights[i]}, reserved ${reserved}, ${heights[i] - reserved}`);
  });
}
await browser.close();
await server.close();
