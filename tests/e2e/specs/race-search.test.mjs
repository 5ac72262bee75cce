// "Find a race" in real Chromium, checked against the CLI: the module's findRace() in the page's
// worker (plan-worker.js, a `race` job) gives what `rollout races FILE --json` prints for the
// same scenario; its counterexample, replayed by `rollout trace`, breaks a promise at its last
// step; the real controllers have no race to depth 12; bad options throw (a state cap above
// the limit with the core's own message) without a trap; the panel in the Races view searches
// with progress, says the outcome, loads the counterexample (its last step breaking the
// promise), and Cancel terminates the worker and returns to idle; axe-core finds nothing.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { byTestId, openApp, axeAudit } from '../lib/app.mjs';
import { buildRollout } from '../lib/cli.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { servedApp, click } from '../lib/suite.mjs';

const app = servedApp();
const scenarios = path.join(repoRoot, '..', 'shared', 'races', 'scenarios');
let rollout;
let tmp;

before(async () => {
  rollout = buildRollout();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rollout-races-e2e-'));
});

/** `rollout ARGS…`: exit code, stdout, stderr. */
function run(args) {
  const r = spawnSync(rollout, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `rollout races FIXTURE --json ARGS…`, parsed. */
function races(fixture, args = []) {
  const r = run(['races', path.join(scenarios, `${fixture}.json`), '--json', ...args]);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

/** The trace `rollout trace` makes of FIXTURE with `schedule` instead of its own. */
async function replay(fixture, schedule) {
  const scenario = JSON.parse(await fs.readFile(path.join(scenarios, `${fixture}.json`), 'utf8'));
  const file = path.join(tmp, `${fixture}-${Math.random().toString(36).slice(2)}.json`);
  await fs.writeFile(file, JSON.stringify({ ...scenario, schedule }));
  const r = run(['trace', file]);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

/** Runs a `race` job in the page's worker: its progress messages and its last message. */
function inWorker(page, job) {
  return page.evaluate(
    (job) =>
      new Promise((resolve) => {
        const worker = new Worker('./plan-worker.js', { type: 'module' });
        const progress = [];
        worker.onerror = (e) => resolve({ error: `worker error: ${e.message}` });
        worker.onmessage = ({ data }) => {
          if (data.type === 'progress') return progress.push(data);
          worker.terminate();
          resolve({ ...data, progress });
        };
        worker.postMessage({ race: job });
      }),
    job,
  );
}


describe('Find a race', () => {
  test('findRace in the worker: without expectations the CLI’s race, replayed to a broken promise; the real controllers none to depth 12', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    const noexp = await inWorker(page, { scenario: 'expectations', options: { mode: 'noexp' } });
    assert.equal(noexp.type, 'race', JSON.stringify(noexp));
    assert.equal(noexp.error, undefined);
    const want = races('race-teach-expectations-noexp');
    assert.ok(want.violation, 'the CLI finds a race without expectations');
    assert.deepEqual(noexp.result, want, 'the walk-through’s id and the fixture give the same search');
    const { schedule, violations } = noexp.result.violation;
    assert.equal(schedule[0], 'setImage web:2');
    assert.equal(schedule.length, noexp.result.depth + 1);
    assert.ok(violations.some((v) => v.startsWith('maxSurge: ')), violations.join('; '));
    const trace = await replay('race-teach-expectations-noexp', schedule);
    const last = trace.steps.at(-1);
    assert.ok(last.violations?.length > 0, 'the replayed schedule breaks a promise at its last step');
    assert.deepEqual(last.violations, violations);
    assert.ok(trace.steps.slice(0, -1).every((s) => !s.violations?.length), 'and not before (the shortest)');

    // The real controllers: none to depth 12, the same states as the CLI, with progress on the way.
    const real = await inWorker(page, { scenario: 'expectations', options: { mode: 'real', depth: 12 } });
    assert.equal(real.error, undefined);
    const cli = races('race-teach-expectations-real', ['--depth', '12']);
    assert.deepEqual(real.result, cli);
    assert.deepEqual(real.result.violation, null);
    assert.equal(real.result.depth, 12);
    assert.ok(real.progress.length > 0, 'progress messages');
    assert.ok(real.progress.every((p, i) => i === 0 || p.states >= real.progress[i - 1].states), 'states only grow');
    assert.ok(real.progress.every((p) => p.done >= 1 && p.done <= 12), JSON.stringify(real.progress.slice(0, 3)));
    // A scenario object in a counterfactual, through the same job.
    const scenario = JSON.parse(await fs.readFile(path.join(scenarios, 'race-3-surge1-unav0-01-real.json'), 'utf8'));
    const obj = await inWorker(page, { scenario, options: { mode: 'noexp', depth: 8 } });
    assert.deepEqual(obj.result, races('race-3-surge1-unav0-01-noexp', ['--depth', '8']));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test('bad input throws a clear Error, a state cap above the limit the core’s message; no trap', async () => {
    const page = await openApp(app.browser.context, app.server.url);
    const thrown = await page.evaluate(async () => {
      const { findRace } = await import('./rollout-lab.js');
      const cases = [
        ['expectations', { maxStates: 20_000_001 }],
        ['expectations', { maxStates: 1e12 }],
        ['expectations', { depth: 3.5 }],
        ['expectations', { depth: 10_001 }],
        ['expectations', { mode: 'fast' }],
        ['expectations', { deep: 3 }],
        ['nope', {}],
        [{ name: 'x' }, {}],
        [{ schedule: ['jump'] }, {}],
        [undefined, {}],
        ['expectations', { depth: 30, maxStates: 1_000 }],
      ];
      const out = [];
      for (const [s, o] of cases) {
        try {
          findRace(s, o);
          out.push('no error');
        } catch (e) {
          out.push(`${e instanceof Error}: ${e.message}`);
        }
      }
      // onProgress returning false stops it; a good call still works after every refusal.
      try {
        findRace('expectations', { mode: 'real' }, () => false);
        out.push('no error');
      } catch (e) {
        out.push(`${e instanceof Error}: ${e.message}`);
      }
      out.push(findRace('conflict', { depth: 2 }).depth);
      return out;
    });
    const cap = run(['races', path.join(scenarios, 'race-teach-expectations-real.json'), '--max-states', '20000001']);
    assert.equal(cap.code, 2);
    const coreMessage = 'a state cap of 20000001 is above the limit of 20000000 states';
    assert.match(cap.err, new RegExp(coreMessage));
    assert.equal(thrown[0], `true: ${coreMessage}`);
    assert.equal(thrown[1], 'true: a state cap of 1000000000000 is above the limit of 20000000 states');
    assert.equal(thrown[2], 'true: findRace: depth 3.5 is not a whole number of at least 0');
    assert.equal(thrown[3], 'true: findRace: depth 10001 is more than 10,000, the most steps a schedule holds');
    assert.equal(thrown[4], 'true: findRace: mode `fast`: expected real, noexp, norv or guard');
    assert.equal(thrown[5], 'true: findRace: unknown option `deep`, expected one of depth, maxStates, mode');
    assert.equal(thrown[6], 'true: findRace: no walk-through `nope`; there are expectations, conflict, stale-status (or give a race scenario)');
    assert.match(thrown[7], /^true: Invalid race scenario: it has no schedule/);
    assert.match(thrown[8], /^true: Invalid race scenario: schedule\[0\]/);
    assert.equal(thrown[9], 'true: findRace: the race scenario is missing');
    assert.match(thrown[10], /^true: more than 1000 states before depth 30: no schedule of up to \d+ steps breaks a promise/);
    assert.equal(thrown[11], 'true: the search was cancelled');
    assert.equal(thrown[12], 2);
    assert.deepEqual(page.errors, [], 'no panic, no trap');
    await page.close();
  });

  test('in the Races view: finds the race and loads it, its last step breaking the promise; none for the real controllers; Cancel ends the worker', async () => {
    const page = await openApp(app.browser.context, `${app.server.url}?view=races&race=expectations`);
    const panel = page.locator(byTestId('race-search'));
    const outcome = page.locator(byTestId('race-outcome'));
    assert.equal(await page.locator(byTestId('race-depth')).inputValue(), '12');
    assert.equal(await outcome.getAttribute('role'), 'status');
    // Without expectations: the race, in words, and its schedule handed to on_found.
    await page.locator(byTestId('race-mode')).selectOption('noexp');
    await click(page, 'race-find');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.outcome === 'found', byTestId('race-outcome'), { timeout: 30_000 });
    const want = races('race-teach-expectations-noexp');
    const steps = want.violation.schedule.slice(1);
    assert.equal(
      (await outcome.textContent()).trim(),
      `Found a race in ${want.depth} steps: ${steps.join(', ')}. Broken: ${want.violation.violations.join('; ')}. (${want.states.toLocaleString('en-US')} states)`,
    );
    // Loaded into the view: the timeline is the counterexample, the counterfactual it was found
    // with is shown, and its last step breaks the promise the search named.
    await page.waitForFunction((n) => document.querySelector('[data-testid="races-view"]')?.dataset.steps === String(n), want.violation.schedule.length);
    const timeline = await page.locator(`${byTestId('race-timeline')} li`).allTextContents();
    assert.deepEqual(timeline.slice(1).map((t) => t.trim().replace(/^\d+ /, '')), want.violation.schedule);
    const noexp = page.locator(byTestId('race-mode-noexp'));
    assert.deepEqual(
      (await noexp.locator(byTestId('race-violation')).allTextContents()).map((t) => t.replace(/^Promise broken: /, '').trim()),
      want.violation.violations,
    );
    assert.equal(await page.locator(byTestId('race-mode-real')).locator(byTestId('race-violation')).count(), 0, 'the real controllers keep it');
    assert.equal(await panel.getAttribute('data-state'), 'idle');
    await axeAudit(page, 'a race found');
    // The real controllers: none to depth 12, with the CLI's count of states.
    await page.locator(byTestId('race-mode')).selectOption('real');
    await click(page, 'race-find');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.outcome === 'none', byTestId('race-outcome'), { timeout: 60_000 });
    const real = races('race-teach-expectations-real');
    assert.equal((await outcome.textContent()).trim(), `No race to depth 12: ${real.states.toLocaleString('en-US')} states.`);
    // Issue #38: no race on the real controllers is the point, and a counterfactual is offered.
    const why = (await page.locator(byTestId('race-none-why')).textContent()) ?? '';
    assert.match(why, /That is the point/);
    assert.match(why, /without expectations/);
    assert.equal(await page.locator(byTestId('race-progress')).getAttribute('data-states'), String(real.states));
    // Cancel: deeper, so it runs long enough; the worker is terminated and the panel is idle.
    await page.locator(byTestId('race-depth')).fill('30');
    await click(page, 'race-find');
    assert.equal(await panel.getAttribute('data-state'), 'running');
    assert.equal(await page.locator(byTestId('race-find')).isDisabled(), true);
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.dataset.states) > 0, byTestId('race-progress'), { timeout: 30_000 });
    assert.equal(page.workers().length, 1, 'the search runs in one worker');
    const closed = new Promise((resolve) => page.workers()[0].once('close', () => resolve('closed')));
    await axeAudit(page, 'a search running');
    await click(page, 'race-cancel');
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'idle', byTestId('race-search'));
    assert.match((await outcome.textContent()).trim(), /^Search cancelled at depth \d+ of 30 \([\d,]+ states visited\)\.$/);
    assert.equal(await outcome.getAttribute('data-outcome'), 'stopped');
    assert.equal(await page.locator(byTestId('race-cancel')).count(), 0);
    assert.equal(await page.locator(byTestId('race-find')).isDisabled(), false);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000));
    assert.equal(await Promise.race([closed, timeout]), 'closed', 'the worker is terminated');
    assert.equal(page.workers().length, 0);
    // A depth that is not a whole number disables the button and says why.
    await page.locator(byTestId('race-depth')).fill('0');
    assert.equal(await page.locator(byTestId('race-find')).isDisabled(), true);
    assert.equal(await page.locator(byTestId('race-depth-error')).textContent(), 'Depth: a whole number from 1 to 10,000.');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
