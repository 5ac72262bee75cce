// The Plan view's sweeps, off the main thread: this worker loads the page's one wasm module
// (./rollout-lab.js, the same file the page runs) and calls its sweep() for each job it is
// sent, posting progress as it goes. The page cancels a sweep by terminating the worker.
//
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
const loaded = import("./rollout-lab.js").then(async (m) => {
  await m.default();
  return m;
});
const ready = loaded.then(async (m) => {
  await m.loadYaml();
  return m;
});

async function race({ scenario, options }) {
  let last = 0;
  try {
    const { findRace } = await loaded;
    const started = performance.now();
    const result = findRace(scenario, options, (done, states) => {
      const now = performance.now();
      if (now - last >= 30) {
        last = now;
        self.postMessage({ type: "progress", done, states });
      }
    });
    self.postMessage({ type: "race", result, ms: performance.now() - started });
  } catch (e) {
    self.postMessage({ type: "race", error: String(e?.message ?? e) });
  }
}

self.onmessage = async (event) => {
  if (event.data.race) {
    await race(event.data.race);
    return;
  }
  const { sweep, plan } = await ready;
  if (event.data.plan) {
    const { key, input, options } = event.data.plan;
    try {
      self.postMessage({ type: "plan", key, result: plan(input, options) });
    } catch (e) {
      self.postMessage({ type: "plan", key, error: String(e?.message ?? e) });
    }
    return;
  }
  const jobs = event.data.jobs;
  const started = performance.now();
  const total = jobs.reduce((n, j) => n + (j.size ?? 0), 0);
  let before = 0;
  let last = 0;
  for (const job of jobs) {
    try {
      const rows = sweep(job.input, job.axes, {
        ...job.options,
        onProgress: (done) => {
          const now = performance.now();
          // At most one message per 30 ms: enough for a smooth bar, few enough to be cheap.
          if (now - last >= 30) {
            last = now;
            self.postMessage({ type: "progress", done: before + done, total });
          }
        },
      });
      before += rows.length;
      self.postMessage({ type: "progress", done: before, total });
      self.postMessage({ type: "rows", key: job.key, rows });
    } catch (e) {
      self.postMessage({ type: "error", key: job.key, message: String(e?.message ?? e) });
    }
  }
  self.postMessage({ type: "done", ms: performance.now() - started });
};
