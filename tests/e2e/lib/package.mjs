// The npm package as an author gets it (README, "Install"), for specs/package.test.mjs: dist/
// packed by `npm pack` (the command `scripts/dev.sh package` runs on the release dist/), or the
// tarball ROLLOUT_PACKAGE names, installed with the real tools from the npm registry at exact
// versions into fresh projects: a Vite + React 19 site rendered on the server (Vite's SSR build,
// prerendered as its static-site guide does) and TypeScript under three module resolutions; and
// a plain HTML page made from the unpacked tarball. Nothing here reads the source tree's
// web/kit: every file comes out of the tarball.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir } from './paths.mjs';
import { readmeSnippet } from './docsites.mjs';

/** The registry's packages the fresh projects install, at exact versions. */
export const VERSIONS = {
  vite: '8.3.8',
  '@vitejs/plugin-react': '6.3.0',
  react: '19.3.1',
  'react-dom': '19.3.1',
  typescript: '5.9.3',
  '@types/react': '19.3.0',
};

const tmp = (name) => fs.mkdtemp(path.join(os.tmpdir(), `rollout-${name}-`));

async function writeFiles(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
}

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The tarball: ROLLOUT_PACKAGE, else `npm pack` of dist/ into a fresh directory. */
export async function packedTarball() {
  if (process.env.ROLLOUT_PACKAGE) return path.resolve(process.env.ROLLOUT_PACKAGE);
  const out = await tmp('pack');
  const name = run('npm', ['pack', '--silent', '--pack-destination', out], distDir).trim().split('\n').pop();
  return path.join(out, name);
}

/** The tarball's files (paths inside `package/`), sorted. */
export function tarballFiles(tarball) {
  return run('tar', ['-tzf', tarball], os.tmpdir())
    .split('\n')
    .filter((l) => l && !l.endsWith('/'))
    .map((l) => l.replace(/^package\//, ''))
    .sort();
}

/** The tarball unpacked into a fresh directory: returns the package's folder. */
export async function unpacked(tarball) {
  const dir = await tmp('unpacked');
  run('tar', ['-xzf', tarball, '-C', dir], dir);
  return path.join(dir, 'package');
}

/**
 * A fresh Vite + React 19 project with the tarball installed (`npm install <tarball>` and the
 * registry's packages at VERSIONS), the README's component file (`<!-- test: react-labs -->`)
 * and the README's Vite steps: the package copied into public/rollout-lab/
 * (`<!-- test: vite-copy -->`), a client build, an SSR build of the server entry and the page
 * prerendered into dist/index.html. Returns `{dir, site, html}`: the project, the built site
 * (served at /) and the server-rendered HTML of the labs.
 */
export async function buildViteSite(tarball) {
  const dir = await tmp('vite');
  await writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'docs-with-rollout-lab', private: true, type: 'module' }, null, 2),
    'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Vite + React</title>
<style>body{font:16px/1.6 system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:1rem}</style></head>
<body><main><h1>Rollouts, rendered on the server</h1><p>A Deployment's rolling update, drawn by the real controllers.</p>
<div id="root"><!--app-html--></div><p>The text after the labs must not move while they load.</p></main>
<script type="module" src="/src/entry-client.jsx"></script></body></html>
`,
    'vite.config.js': `import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\nexport default defineConfig({ plugins: [react()] });\n`,
    'src/Labs.jsx': await readmeSnippet('react-labs'),
    'src/entry-client.jsx': `import { hydrateRoot } from "react-dom/client";\nimport Labs from "./Labs.jsx";\nhydrateRoot(document.getElementById("root"), <Labs />);\n`,
    'src/entry-server.jsx': `import { renderToString } from "react-dom/server";\nimport Labs from "./Labs.jsx";\nexport const render = () => renderToString(<Labs />);\n`,
  });
  const pinned = Object.entries(VERSIONS).map(([n, v]) => `${n}@${v}`);
  run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', '--loglevel=error', tarball, ...pinned], dir);
  // The README's step: the package's files served as static files, from public/rollout-lab/.
  const copy = await readmeSnippet('vite-copy');
  run('sh', ['-c', copy], dir);
  const vite = path.join(dir, 'node_modules', '.bin', 'vite');
  run(vite, ['build', '--logLevel', 'error'], dir);
  run(vite, ['build', '--ssr', 'src/entry-server.jsx', '--outDir', 'dist-server', '--logLevel', 'error'], dir);
  const { render } = await import(pathToFileURL(path.join(dir, 'dist-server', 'entry-server.js')).href);
  const html = render();
  const index = path.join(dir, 'dist', 'index.html');
  await fs.writeFile(index, (await fs.readFile(index, 'utf8')).replace('<!--app-html-->', html));
  return { dir, site: path.join(dir, 'dist'), html };
}

/** The TSX page the type checks compile: the component, the tag and the typed event. */
const PAGE_TSX = `import { useRef } from "react";
import { RolloutLab } from "rollout-lab/react";
import type { RolloutLabElement, RolloutStepEvent } from "rollout-lab";

export function Page() {
  const ref = useRef<RolloutLabElement>(null);
  const onStep = (e: RolloutStepEvent) => console.log(e.detail.round, e.detail.replicaSets.map((rs) => rs.available));
  return (
    <>
      <RolloutLab base="/rollout-lab/" preset="rolling-basic" controls={["step", "play"]} theme="inherit" style={{ maxWidth: 800 }} onRolloutStep={onStep} />
      <rollout-lab ref={ref} preset="recreate" buttons="step,round" chart="0" loading="eager" />
    </>
  );
}

export function Wrong() {
  // @ts-expect-error the theme is one of four
  return <RolloutLab theme="purple" />;
}
`;

/**
 * Runs the project's own `tsc --noEmit` (typescript from the registry) on PAGE_TSX under
 * `moduleResolution` `resolution` (`bundler`, `node16` or `node`), with the tarball installed
 * in node_modules. Returns `{status, output}`.
 */
export async function typecheck(dir, resolution) {
  const module = { bundler: 'esnext', node16: 'node16', node: 'esnext' }[resolution];
  const name = `tsconfig.${resolution}.json`;
  await writeFiles(dir, {
    'page.tsx': PAGE_TSX,
    [name]: JSON.stringify({
      compilerOptions: { strict: true, target: 'es2020', lib: ['es2020', 'dom'], jsx: 'react-jsx', module, moduleResolution: resolution, noEmit: true },
      files: ['page.tsx'],
    }),
  });
  try {
    const output = run(path.join(dir, 'node_modules', '.bin', 'tsc'), ['-p', name], dir);
    return { status: 0, output };
  } catch (e) {
    return { status: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * The README's plain HTML (`<!-- test: html-page -->`) as a page at /, with the unpacked
 * tarball's files at /rollout-lab/. Returns the directory.
 */
export async function buildHtmlFromTarball(tarball) {
  const dir = await tmp('html-pkg');
  await fs.cp(await unpacked(tarball), path.join(dir, 'rollout-lab'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain HTML</title></head>
<body style="font:16px/1.6 serif;margin:0 auto;max-width:50rem;padding:1rem"><main><h1>Rollouts</h1>${await readmeSnippet('html-page')}<p>The text after the labs.</p></main></body></html>`,
  );
  return dir;
}
