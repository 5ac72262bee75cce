// The Plan view's sweeps, off the main thread: this worker loads the page's one wasm module
// (./rollout-lab.js, the same file the page runs) and calls its sweep() for each job it is
// sent, posting progress as it goes, shared among helper workers on a machine of several cores
// (below). The page cancels a sweep by terminating the worker, which ends its helpers too.
//
// In:  {warm: true}: start the helpers (below) ahead of the first sweep; nothing comes back.
// In:  {jobs: [{key, input, axes, options}]}
// Out: {type: "progress", done, total} (over all the jobs), {type: "rows", key, rows},
//      {type: "error", key, message}, then {type: "done", ms}.
// Or, for a forecast too long to compute on the page (a big Deployment, a keystroke):
// In:  {plan: {key, input, options}}   Out: {type: "plan", key, result} or {…, error}.
// Or, "Find a race" (findRace: a walk-through's id or a race scenario, {depth, maxStates, mode}):
// In:  {race: {scenario, options}}     Out: {type: "progress", done, states} (done: the depth
//      reached; at most one per 30 ms), then {type: "race", result, ms} or {type: "race", error}.

// The module also carries the <rollout-lab> element's script; it defines the element only where
// `customElements` exists, so importing it here defines nothing.

// The manifests it is sent are YAML as typed in the Plan view: the YAML reader's small module
// is loaded here too (the app's module reads JSON only), for sweeps and forecasts only.
// Both are loaded on first use: a worker that only shares out a sweep never loads them.
let module;
let withYaml;
const loaded = () =>
  (module ??= import("./rollout-lab.js").then(async (m) => {
    await m.default();
    return m;
  }));
const ready = () =>
  (withYaml ??= loaded().then(async (m) => {
    await m.loadYaml();
    return m;
  }));

/**
 * `post` at most once every 30 ms: enough for a smooth progress bar, few enough messages to be
 * cheap. (Returns nothing: findRace stops only on `false`.)
 */
function throttled(post) {
  let last = 0;
  return (...args) => {
    const now = performance.now();
    if (now - last >= 30) {
      last = now;
      post(...args);
    }
  };
}

async function race({ scenario, options }) {
  try {
    const { findRace } = await loaded();
    const started = performance.now();
    const result = findRace(
      scenario,
      options,
      throttled((done, states) => self.postMessage({ type: "progress", done, states })),
    );
    self.postMessage({ type: "race", result, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ type: "race", error: String(e?.message ?? e) });
  }
}

// A sweep is shared among helper workers (this same file, nested: `{part}` messages), one per
// core up to four, each computing every n-th combination (sweep()'s `part: [k, n]`); this
// worker only hands out the parts, adds up their progress and puts the rows back in order.
// For example 441 combinations on two cores: helper 0 computes 0, 2, 4 … 440 (221), helper 1
// computes 1, 3 … 439 (220); row j of helper k is combination k + 2j.
const MOST_HELPERS = 4;
// Below this many combinations a helper's start-up (its own module) costs more than it saves.
const PER_HELPER = 60;

function helpersFor(size) {
  const cores = Math.max(1, Math.min(MOST_HELPERS, navigator.hardwareConcurrency || 1));
  const wanted = Math.min(cores, Math.floor(size / PER_HELPER));
  return typeof Worker === "function" && wanted >= 2 ? wanted : 0;
}

/** One part of a sweep, in a helper: its progress and then its rows, posted to the parent. */
async function part({ job, k, n }) {
  try {
    // Inside the try: a module that failed to load is an answer too (the parent waits for one).
    const { sweep } = await ready();
    const rows = sweep(job.input, job.axes, {
      ...job.options,
      part: [k, n],
      onProgress: throttled((done) => self.postMessage({ type: "partProgress", done })),
    });
    self.postMessage({ type: "partRows", rows });
  } catch (e) {
    self.postMessage({ type: "partError", message: String(e?.message ?? e) });
  }
}

// The helpers, started on the first `warm` or sweep and kept until this worker ends (the page
// terminates it on cancel and when the Plan page goes; nested workers end with it).
const pool = [];

/** At least `n` helpers, each warmed up (its module loaded, a small sweep run) as it starts. */
function helpers(n) {
  while (pool.length < n) {
    const h = new Worker(new URL(import.meta.url), { type: "module" });
    h.postMessage({ warmUp: true });
    pool.push(h);
  }
  return pool.slice(0, n);
}

// What a helper forecasts to warm up: a small sweep of a 100-replica rollout runs the same
// controllers, kubelet and traffic code a user's sweep does, long enough for the engine to
// optimise the hot functions (a first sweep in a fresh worker runs unoptimised code for a
// good part of its time; BENCHMARKS, issue #40).
const WARM_UP = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata: {name: warm}",
  "spec:",
  "  replicas: 100",
  "  selector: {matchLabels: {app: warm}}",
  "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}",
  "  template:",
  "    metadata: {labels: {app: warm}}",
  "    spec: {containers: [{name: warm, image: warm:1}]}",
].join("\n");

async function warmUp() {
  try {
    const { sweep } = await ready();
    sweep(WARM_UP, { maxSurge: "1..2", maxUnavailable: "0..1" });
  } catch {
    // Only a warm-up: a sweep that fails here fails again, with its message, when asked.
  }
}

/** A sweep job shared among the `helpers`; resolves to its rows in the sweep's order. */
function shared(helpers, job, onProgress) {
  const n = helpers.length;
  return new Promise((resolve, reject) => {
    const done = new Array(n).fill(0);
    const parts = new Array(n);
    let left = n;
    let error = null;
    const sum = () => done.reduce((a, b) => a + b, 0);
    // Every helper answers (its rows or its error) before the job settles, so that no late
    // answer is taken for the next job's.
    const answered = () => {
      if (--left > 0) return;
      if (error) return reject(new Error(error));
      // Row j of part k is combination k + n·j.
      const rows = [];
      const most = Math.max(...parts.map((p) => p.length));
      for (let j = 0; j < most; j++) {
        for (const p of parts) if (j < p.length) rows.push(p[j]);
      }
      resolve(rows);
    };
    helpers.forEach((h, k) => {
      h.onerror = (e) => reject(new Error(e.message || "a sweep helper failed to start"));
      h.onmessage = ({ data }) => {
        if (data.type === "partProgress") {
          done[k] = data.done;
          onProgress(sum());
        } else if (data.type === "partRows") {
          parts[k] = data.rows;
          done[k] = data.rows.length;
          onProgress(sum());
          answered();
        } else if (data.type === "partError") {
          error ??= data.message;
          parts[k] = [];
          answered();
        }
      };
      h.postMessage({ part: { job, k, n } });
    });
  });
}

self.onmessage = async (event) => {
  if (event.data.race) {
    await race(event.data.race);
    return;
  }
  if (event.data.part) {
    await part(event.data.part);
    return;
  }
  if (event.data.warmUp) {
    await warmUp();
    return;
  }
  if (event.data.warm) {
    // One core: this worker sweeps alone, and warms up itself.
    const n = helpersFor(Infinity);
    if (n) helpers(n);
    else await warmUp();
    return;
  }
  const jobs = event.data.jobs;
  const started = performance.now();
  const total = jobs?.reduce((n, j) => n + (j.size ?? 0), 0) ?? 0;
  const n = jobs ? helpersFor(total) : 0;
  const shares = n ? helpers(n) : [];
  const { sweep, plan } = n ? {} : await ready();
  if (event.data.plan) {
    const { key, input, options } = event.data.plan;
    try {
      self.postMessage({ type: "plan", key, result: plan(input, options) });
    } catch (e) {
      self.postMessage({ type: "plan", key, error: String(e?.message ?? e) });
    }
    return;
  }
  let before = 0;
  const progress = throttled((done) => self.postMessage({ type: "progress", done: before + done, total }));
  for (const job of jobs) {
    try {
      const rows = n
        ? await shared(shares, job, progress)
        : sweep(job.input, job.axes, { ...job.options, onProgress: progress });
      before += rows.length;
      self.postMessage({ type: "progress", done: before, total });
      self.postMessage({ type: "rows", key: job.key, rows });
    } catch (e) {
      self.postMessage({ type: "error", key: job.key, message: String(e?.message ?? e) });
    }
  }
  self.postMessage({ type: "done", ms: performance.now() - started });
};
