// What the app page loads, and its gzip size: the budget of issue #4 (300 KB gzip for
// everything the page loads) in one place, for the benchmark and the test command's check.
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

/** The budget, in bytes of gzip -9. */
export const PAGE_BUDGET = 300_000;

/**
 * The page's files in `distDir` with their raw and gzip -9 sizes. The app page loads
 * index.html, app.css and the rollout-web module; the public module (rollout-lab.*), the share,
 * embed and internals stylesheets and the embedding demo load only on demand (README, "Two
 * modules"), so they are not part of the page's budget.
 */
export async function bundle(distDir) {
  const files = await fs.readdir(distDir);
  const rows = [];
  const onDemand = (f) =>
    f.startsWith('rollout-lab') || f.startsWith('embed') || f === 'share.css' || f === 'internals.css' || f.endsWith('.d.ts');
  for (const f of files.sort()) {
    if (onDemand(f)) continue;
    const body = await fs.readFile(path.join(distDir, f));
    rows.push({ file: f, bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  const sum = (pred, key) => rows.filter(pred).reduce((a, r) => a + r[key], 0);
  const code = (r) => r.file.endsWith('.wasm') || r.file.endsWith('.js');
  return {
    files: rows,
    wasmJsGzip: sum(code, 'gzip'),
    wasmJsRaw: sum(code, 'bytes'),
    allGzip: sum(() => true, 'gzip'),
  };
}
