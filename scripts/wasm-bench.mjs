// Runs `rollout bench` compiled to wasm32-wasip1 under Node's WASI, to compare the core's speed
// in wasm with native. Usage: node scripts/wasm-bench.mjs ROLLOUT.wasm SCENARIO.json [N]
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import path from "node:path";

const [wasmPath, scenario, n = "20"] = process.argv.slice(2);
const dir = path.dirname(path.resolve(scenario));
const wasi = new WASI({
  version: "preview1",
  args: ["rollout", "bench", "/bench/" + path.basename(scenario), n],
  preopens: { "/bench": dir },
});
const module = await WebAssembly.compile(await readFile(wasmPath));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
wasi.start(instance);
