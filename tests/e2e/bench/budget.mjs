// The test command's size check on a release build (ROLLOUT_DIST): what the app page fetches
// before its first render, what a page with one <rollout-lab> element fetches, what an ?embed
// page fetches, and everything in
// dist/, each gzip -9 against its budget (lib/bundle.mjs). Prints every file, each total and
// what is left; exits 1 when one is over its limit (the lower of its budget and its ceiling, the
// ratchet lib/bundle.mjs keeps), or when dist/ holds other wasm than the app's module and the
// YAML reader's.
import { distDir } from '../lib/paths.mjs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { bundle, MODULES, YAML_READER_MARK } from '../lib/bundle.mjs';

const b = await bundle(distDir);
for (const f of b.files) console.log(`${f.file.padEnd(44)} ${String(f.bytes).padStart(9)} raw ${String(f.gzip).padStart(9)} gzip`);
let over = false;
// Exactly two wasm modules: the app's (the one with Yew) and the YAML reader's, which holds
// yaml-rust2 while the app's does not.
const wasm = b.files.filter((f) => f.file.endsWith('.wasm')).map((f) => f.file);
if (wasm.sort().join() !== [MODULES.app, MODULES.yaml].sort().join()) {
  console.error(`expected ${MODULES.app} and ${MODULES.yaml} in ${distDir}, found ${wasm.join(', ') || 'none'}`);
  over = true;
} else {
  const holds = async (f) => (await fs.readFile(path.join(distDir, f))).includes(YAML_READER_MARK);
  if (await holds(MODULES.app)) {
    console.error(`${MODULES.app} contains the YAML reader (yaml-rust2); it belongs in ${MODULES.yaml}`);
    over = true;
  }
  if (!(await holds(MODULES.yaml))) {
    console.error(`${MODULES.yaml} does not contain the YAML reader`);
    over = true;
  }
}
const names = { app: 'app page', element: 'element page', embed: '?embed page', dist: 'dist total' };
for (const [page, p] of Object.entries(b.pages)) {
  const left = p.budget - p.gzip;
  // The ceiling is the ratchet below (or, over budget, above) the budget: the lower one holds.
  const room = p.limit - p.gzip;
  if (room < 0) over = true;
  const ceiling = p.ceiling !== p.budget ? `, ceiling ${p.ceiling}, ${room >= 0 ? `${room} below the limit` : `${-room} OVER THE LIMIT`}` : '';
  console.log(
    `${names[page]} ${p.gzip} bytes gzip -9 (budget ${p.budget}, ${left >= 0 ? `${left} to spare` : `${-left} over`}${ceiling}; ${p.files.length} files)`,
  );
}
process.exit(over ? 1 : 0);
