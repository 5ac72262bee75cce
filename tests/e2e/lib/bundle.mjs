// What each kind of page fetches before its first render, and its gzip -9 size: the budgets of
// issue #39 (which replaced issue #16's) in one place, for the test command's check (bench/budget.mjs), the benchmark and
// the e2e test that compares these lists with what Chromium really fetches.
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Budgets, in bytes of gzip -9 (issue #39): 720,000 for the app page, for a page with one
 * element and for the ?embed page, 860,000 for all of dist/. Issue #16's 600,000 / 700,000 were
 * a line drawn before the lessons, the Plan page, probes, the Races view and Find a race existed;
 * each feature's cost since is measured in BENCHMARKS.md. The glue is minified by terser
 * (Trunk.toml's release hook), and the YAML reader is a small module of its own without Yew
 * (dist/rollout-yaml.js), fetched the first time YAML is read and so counted in dist/ but in no
 * page's first render.
 */
export const BUDGETS = {
  /** The app page (index.html). */
  app: 720_000,
  /** A page with one <rollout-lab> element: what the element loads (the page's own HTML aside). */
  element: 720_000,
  /** The ?embed page (index.html?embed, as an iframe shows it): the element's files and index.html. */
  embed: 720_000,
  /** Every file in dist/ together. */
  dist: 860_000,
};

/**
 * The ratchet below the budgets: what the test command enforces is the lower of a page's
 * ceiling and its budget, so a page under budget still may not grow past its ceiling unnoticed.
 * A ceiling is lowered with every cut and raised only by a feature's measured cost, stated in the
 * commit that adds it (issue #39). The history: the ceilings began as the size measured when a
 * page went over issue #16's budgets, plus a few KB. On 27 November 2026 the
 * lessons, first screen, Present, manifest, probe and Plan page work of issues #22 and #24 landed
 * at 651,454 / 646,818 / 769,172 bytes (app, element, dist; the ?embed page, counted since the
 * same day, at about 648,300), about 50 KB over, with no honest cut found that would pay for it (BENCHMARKS.md, "Over the budget, 27 November 2026"); issue #16 says to keep a clean
 * design and say so rather than buy bytes with a trick. The same day issue #27's work limit added
 * 2,430 (654,162 / 649,552 / 650,738 / 771,885 at the session's end, within these ceilings with
 * little to spare: the next change to the module brings its cut). The evening's cuts (one sort for every
 * ReplicaSet ordering, App and EmbedApp sharing their start-up, frame and icons) took the pages to
 * 652,252 / 647,642 / 648,828 / 769,927, and the ceilings down with them. bench/budget.mjs prints both figures on
 * every run; lower a ceiling with every cut, and remove it once its page is back under budget.
 * Issue #26's "Find a race" (findRace, the race engine in the module, its worker job and panel)
 * raised each ceiling by exactly what it measured: +26,693 on each page (+1 on the element page), +27,553 on dist
 * (BENCHMARKS.md, "Find a race in the browser"); the Races view links the same engine.
 * The Races view (issue #26: the core's race explorer, its walk-throughs and the view) added
 * 36,804 bytes to each page on its own branch; the race engine is the same one "Find a race" links.
 * The night's cuts (one sort, one serializer, sixteen stateless views as plain functions: about
 * 20 KB) paid for part of it: with both, the pages measured 676,338 / 671,725 / 672,914 / 794,990
 * (BENCHMARKS.md, "One sort, one serializer"). On 28 November an action read by its type rather
 * than through serde's internally tagged enum (-12.5 KB) and no float formatting in the module
 * (-6.6 KB) took them to 657,883 / 653,274 / 654,459 / 776,585 (BENCHMARKS.md, "Actions read by
 * their type, no float formatting"), and the ceilings are those plus a few hundred bytes.
 * Issue #37's scheduler (the filter plugins, nodes, the pod spec's placement rules and their
 * messages, all in the core the module links) raised each ceiling by what it measured on its
 * branch: 688,768 / 684,100 / 685,287 / 807,721 (+30,885 on the app page; BENCHMARKS.md,
 * "The scheduler's filters in the module"), plus a few hundred bytes; no cut was tried yet.
 * Issue #37 (items 1, 3-5: the change planner `plan::change` in the module for `plan({before,
 * after})` and the Plan page's "Compare with the live version", the Plan page link, the
 * assumptions as the CLI's fields, the kustomize and int32 messages) measured 675,797 / 671,069 /
 * 672,256 / 796,878 (+17,597 / +17,469 / +17,456 / +19,978), within issue #37's 720,000 a page;
 * no cut was made in that session and the growth is not yet split by part: the ceilings are
 * those plus a few hundred bytes.
 * Merged on 28 November 2026 with issue #34's failures on the stage, issue #38's classroom work
 * and issue #39's packaging, the release build measured 741,966 / 736,330 / 737,792 / 865,994:
 * over issue #39's budgets by 21,966 / 16,330 / 17,792 / 5,994 (BENCHMARKS.md, "Five
 * branches in one module"); the ceilings are those figures plus a few hundred bytes, and the
 * next cut lowers them.
 * On 7 December 2026 issue #34's last part (a slow app killed by its liveness probe, the
 * liveness-versus-readiness lesson, kubectl describe pod, the lost-if-it-fails colour), issue
 * #35 (endpoints/, traffic/, the Service on the stage, its strip, three lessons, the Plan page's
 * requests) and issue #36 (Kubernetes 1.37: version, terminatingReplicas, the ReplicaSet
 * guard in the Races view, the version setting and badge) measured 807,806 / 802,148 / 803,611 /
 * 932,752 (+65,840 / +65,818 / +65,819 / +66,758 against 25e356e; 804,519 on the app page
 * before the Plan page's requests and the Races view's guard column landed): over the budgets
 * by 87,806 / 82,148 / 83,611 / 72,752 (BENCHMARKS.md, "Failures, requests and 1.37 in the
 * module"). No cut was made; the ceilings are those figures plus a few hundred bytes.
 * Later that day two measured costs raised them: the Plan page's traffic assumptions folded
 * under a summary, its shorter traffic sentence and the warning naming its release (a fix:
 * the assumptions and figures fell off a 1280x720 screen), and issue #40's sweep shared among
 * warm helper workers (sweep()'s `part`, the worker kept between sweeps), with the Plan page
 * kept from redrawing on every step: 809,911 / 804,215 / 805,677 / 935,712 (+2,044 / +2,006 /
 * +2,005 / +2,899 against 807,867 / 802,209 / 803,672 / 932,813, CI's build of aade526; the
 * dist total also holds plan-worker.js's sharing). BENCHMARKS.md, "Speed a person feels (issue #40)".
 */
export const CEILINGS = {
  app: 810_350,
  element: 804_650,
  embed: 806_100,
  dist: 936_150,
};

/** The wasm modules dist/ may hold: the app's one module with Yew, and the YAML reader's. */
export const MODULES = { app: 'rollout-lab_bg.wasm', yaml: 'rollout-yaml_bg.wasm' };

/**
 * A message of yaml-rust2's parser, to tell where the reader is linked: in the YAML module, and
 * not in the app's.
 */
export const YAML_READER_MARK = 'did not find expected <document-start>';

/**
 * The module: its glue, its snippets (the element's script and the YAML reader's loader, which
 * the glue imports), the wasm. Not the YAML reader's module: nothing fetches it before YAML is read.
 */
function moduleFiles(all) {
  return ['rollout-lab.js', ...all.filter((f) => f.startsWith('snippets/') && f.endsWith('.js')), 'rollout-lab_bg.wasm'];
}

/**
 * The stylesheets dist/index.html links (`<link rel="stylesheet" href="./x.css">`), in order.
 * With `disabled: false`, only those not marked `disabled`: the app page's script enables the
 * disabled ones (stage.css, plan.css), an ?embed page leaves them unfetched.
 */
export function linkedStylesheets(indexHtml, { disabled = true } = {}) {
  const out = [];
  for (const tag of indexHtml.match(/<link\b[^>]*>/g) ?? []) {
    if (!/\brel=["']?stylesheet\b/.test(tag)) continue;
    if (!disabled && /\sdisabled\b/.test(tag)) continue;
    const href = tag.match(/\bhref=["']?([^"' >]+)/)?.[1];
    if (href) out.push(href.replace(/^\.\//, ''));
  }
  return out;
}

/**
 * What a page fetches before its first render. The app page: index.html, the stylesheets it
 * links (app.css, stage.css …) and the module (share.css and internals.css load when the share
 * dialog or "Inside the controllers" opens; embed.css only with ?embed). A page with a
 * <rollout-lab>: the module, and app.css and embed.css, which the element links in its shadow
 * root. The ?embed page: index.html, the module and the same two stylesheets (not the app
 * page's own, which index.html links `disabled`). None fetches the YAML reader (rollout-yaml.js
 * and its wasm) before its first render; the e2e test compares these lists with what Chromium
 * fetches.
 */
export function pageFiles(all, indexHtml) {
  return {
    app: ['index.html', ...linkedStylesheets(indexHtml), ...moduleFiles(all)],
    element: [...moduleFiles(all), 'app.css', 'embed.css'],
    embed: ['index.html', ...linkedStylesheets(indexHtml, { disabled: false }), 'embed.css', ...moduleFiles(all)],
    dist: all,
  };
}

/** Every file under `dir` (relative paths with `/`), sorted. */
export async function listFiles(dir, prefix = '') {
  const out = [];
  for (const e of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

/** Raw and gzip -9 sizes of each file in `distDir`, and the three pages' totals. */
export async function bundle(distDir) {
  const all = await listFiles(distDir);
  const sizes = new Map();
  for (const f of all) {
    const body = await fs.readFile(path.join(distDir, f));
    sizes.set(f, { file: f, bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
  }
  const pages = {};
  const indexHtml = await fs.readFile(path.join(distDir, 'index.html'), 'utf8');
  for (const [page, files] of Object.entries(pageFiles(all, indexHtml))) {
    const rows = files.map((f) => {
      const row = sizes.get(f);
      if (!row) throw new Error(`${f} is missing from ${distDir}`);
      return row;
    });
    const sum = (pred, key) => rows.filter(pred).reduce((a, r) => a + r[key], 0);
    const code = (r) => r.file.endsWith('.wasm') || r.file.endsWith('.js');
    pages[page] = {
      files: rows,
      gzip: sum(() => true, 'gzip'),
      raw: sum(() => true, 'bytes'),
      wasmJsGzip: sum(code, 'gzip'),
      wasmJsRaw: sum(code, 'bytes'),
      budget: BUDGETS[page],
      ceiling: CEILINGS[page] ?? BUDGETS[page],
      /**
       * What the check enforces: the ceiling, the ratchet. Below the budget it is the lower
       * line a page may not grow past; a page over its budget may not grow past the size its
       * features were measured at (DEVELOPERS.md: a budget missed is a figure to report).
       */
      limit: CEILINGS[page] ?? BUDGETS[page],
    };
  }
  return { files: [...sizes.values()], pages };
}
