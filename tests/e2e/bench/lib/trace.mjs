// Where a page's main thread spends its time, from a Chrome trace (the DevTools timeline
// categories): each complete event's self time (its duration minus the events nested in it),
// summed by kind. "script" is JavaScript and the wasm it calls (Yew's diff and the core run
// inside the event handler's FunctionCall), "style" the style recalculation, "layout", "paint"
// (pre-paint, paint, layerize, commit), "gc" the collector, "other" the rest of the tasks.

const KIND = [
  [/^(FunctionCall|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks|EvaluateScript|v8\.|V8\.(?!GC)|FireIdleCallback|ProfileCall|v8\.compile|WebAssembly)/, 'script'],
  [/GC|V8\.GC/, 'gc'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation|InvalidateLayout|Document::recalcStyle|Document::updateStyle|StyleEngine)/, 'style'],
  [/^(Layout|UpdateLayout|LocalFrameView::(performLayout|layout)|Blink\.Layout)/, 'layout'],
  [/^(PrePaint|Paint|PaintImage|Layerize|UpdateLayer|CompositeLayers|Commit|RasterTask|Decode|IntersectionObserverController|Blink\.(PrePaint|Paint|CompositingInputs|Compositing)|PaintArtifactCompositor|LocalFrameView::(RunPaint|RunPrePaint|UpdateLifecyclePhases)|cc::|ProxyMain|LayerTreeHost)/, 'paint'],
];

const kindOf = (name) => KIND.find(([re]) => re.test(name))?.[1] ?? 'other';

/** Starts a trace of `page` over CDP; `stop()` returns its events. */
export async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  // The timeline's categories only (V8's own would fill the buffer from the workers), and a
  // buffer large enough that no event of the renderer's main thread is dropped.
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      recordMode: 'recordAsMuchAsPossible',
      includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    },
    bufferUsageReportingInterval: 1000,
  });
  return {
    stop: async () => {
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      await cdp.detach();
      return events;
    },
  };
}

/**
 * The renderer main thread's self time by kind, in ms, between `from` and `to` (performance.now()
 * values are not trace timestamps, so the whole trace is taken when they are absent).
 */
export function mainThreadTime(events) {
  // The page's renderer main thread: of the threads so named (one per renderer process), the
  // one with the most events.
  const count = new Map();
  for (const e of events) count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = events
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .sort((a, b) => (count.get(`${b.pid}:${b.tid}`) ?? 0) - (count.get(`${a.pid}:${a.tid}`) ?? 0))[0];
  if (!main) return null;
  const xs = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const out = { script: 0, gc: 0, style: 0, layout: 0, paint: 0, other: 0 };
  const names = {};
  const stack = [];
  const close = (until) => {
    while (stack.length && stack[stack.length - 1].end <= until) {
      const top = stack.pop();
      const self = top.dur - top.nested;
      out[top.kind] += self;
      names[top.name] = (names[top.name] ?? 0) + self;
    }
  };
  for (const e of xs) {
    close(e.ts);
    if (stack.length) stack[stack.length - 1].nested += e.dur;
    stack.push({ name: e.name, kind: kindOf(e.name), end: e.ts + e.dur, dur: e.dur, nested: 0 });
  }
  close(Infinity);
  const ms = (us) => Math.round(us / 100) / 10;
  const top = Object.entries(names)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14)
    .map(([n, us]) => `${n} ${ms(us)}`);
  return { ...Object.fromEntries(Object.entries(out).map(([k, v]) => [k, ms(v)])), top };
}
