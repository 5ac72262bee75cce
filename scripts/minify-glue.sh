#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): trims the declarations (below), and in a release build minifies the module's JavaScript in
# trunk's staging directory before it is moved to dist/: the glue wasm-bindgen writes
# (rollout-lab.js), the snippets it imports (the element's script) and the Plan view's worker. Trunk's own minifier
# cannot parse the glue's last line (BENCHMARKS.md, "Planner in the browser"), so this uses
# terser, pinned in tests/e2e/package.json and installed by scripts/install-tools.sh.
# Exported names are kept (`--module` mangles only what is local), so `import { plan } from
# "./rollout-lab.js"` and the .d.ts stay true. Debug builds (trunk serve) are left as written.
set -euo pipefail

: "${TRUNK_STAGING_DIR:?trunk sets TRUNK_STAGING_DIR for its hooks}"

# Every build: wasm-bindgen declares `[Symbol.dispose]()` on each class of rollout-lab.d.ts,
# which compiles only with TypeScript's `lib: esnext`; dropped from the declarations (the glue
# still adds the method where the browser has Symbol.dispose, and `free()` is declared), so that
# the .d.ts compiles under a default tsconfig (README, "Packaging").
for d in "$TRUNK_STAGING_DIR"/*.d.ts; do
  [ -f "$d" ] && sed -i '/^ *\[Symbol\.dispose\]()/d' "$d"
done

[ "${TRUNK_PROFILE:-}" = release ] || exit 0
TERSER="${TRUNK_SOURCE_DIR:-.}/tests/e2e/node_modules/.bin/terser"
[ -x "$TERSER" ] || TERSER=$(command -v terser) || {
  echo "terser not found: run scripts/install-tools.sh build" >&2
  exit 1
}

# Not the React component: a bundler reads its `webpackIgnore` comment, and it is small.
find "$TRUNK_STAGING_DIR" -name '*.js' ! -name 'rollout-lab-react.js' -print0 | while IFS= read -r -d '' f; do
  "$TERSER" "$f" --module --compress passes=2 --mangle --comments false --output "$f.min"
  mv "$f.min" "$f"
done
