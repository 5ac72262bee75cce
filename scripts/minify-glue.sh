#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): in a release build, minifies the module's JavaScript in
# trunk's staging directory before it is moved to dist/: the glue wasm-bindgen writes
# (rollout-lab.js), the snippets it imports (the element's script) and the Plan view's worker. Trunk's own minifier
# cannot parse the glue's last line (BENCHMARKS.md, "Planner in the browser"), so this uses
# terser, pinned in tests/e2e/package.json and installed by scripts/install-tools.sh.
# Exported names are kept (`--module` mangles only what is local), so `import { plan } from
# "./rollout-lab.js"` and the .d.ts stay true. Debug builds (trunk serve) are left as written.
set -euo pipefail

[ "${TRUNK_PROFILE:-}" = release ] || exit 0
: "${TRUNK_STAGING_DIR:?trunk sets TRUNK_STAGING_DIR for its hooks}"
TERSER="${TRUNK_SOURCE_DIR:-.}/tests/e2e/node_modules/.bin/terser"
[ -x "$TERSER" ] || TERSER=$(command -v terser) || {
  echo "terser not found: run scripts/install-tools.sh build" >&2
  exit 1
}

find "$TRUNK_STAGING_DIR" -name '*.js' -print0 | while IFS= read -r -d '' f; do
  "$TERSER" "$f" --module --compress passes=2 --mangle --comments false --output "$f.min"
  mv "$f.min" "$f"
done
