// The test command's size check on a release build (ROLLOUT_DIST): what the app page fetches
// before its first render, what a page with one <rollout-lab> element fetches, and everything in
// dist/, each gzip -9 against its budget (lib/bundle.mjs). Prints every file, each total and
// what is left; exits 1 when one is over.
import { distDir } from '../lib/paths.mjs';
import { bundle } from '../lib/bundle.mjs';

const b = await bundle(distDir);
for (const f of b.files) console.log(`${f.file.padEnd(44)} ${String(f.bytes).padStart(9)} raw ${String(f.gzip).padStart(9)} gzip`);
let over = false;
const wasm = b.files.filter((f) => f.file.endsWith('.wasm'));
if (wasm.length !== 1) {
  console.error(`expected one wasm module in ${distDir}, found ${wasm.map((f) => f.file).join(', ') || 'none'}`);
  over = true;
}
const names = { app: 'app page', element: 'element page', dist: 'dist total' };
for (const [page, p] of Object.entries(b.pages)) {
  const left = p.budget - p.gzip;
  if (left < 0) over = true;
  console.log(
    `${names[page]} ${p.gzip} bytes gzip -9 (budget ${p.budget}, ${left >= 0 ? `${left} to spare` : `${-left} over`}; ${p.files.length} files)`,
  );
}
process.exit(over ? 1 : 0);
