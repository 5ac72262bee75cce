// The test command's size check: a release build's page (ROLLOUT_DIST) must stay within the
// 300 KB gzip budget. Prints each file and the total; exits 1 when over.
import { distDir } from '../lib/paths.mjs';
import { bundle, PAGE_BUDGET } from '../lib/bundle.mjs';

const b = await bundle(distDir);
for (const f of b.files) console.log(`${f.file.padEnd(24)} ${String(f.bytes).padStart(9)} raw ${String(f.gzip).padStart(9)} gzip`);
const left = PAGE_BUDGET - b.allGzip;
console.log(`page total ${b.allGzip} bytes gzip -9 (budget ${PAGE_BUDGET}, ${left >= 0 ? `${left} to spare` : `${-left} over`})`);
if (!b.files.some((f) => f.file.endsWith('.wasm'))) {
  console.error(`no wasm in ${distDir}`);
  process.exit(1);
}
process.exit(left >= 0 ? 0 : 1);
