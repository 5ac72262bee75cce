#!/usr/bin/env bash
# Rollout Lab's entry points.
#
#   scripts/dev.sh serve [TRUNK SERVE ARGS…]   build the app and serve it on http://127.0.0.1:8080
#                                              (e.g. --release, --port 9000); rebuilds on change
#   scripts/dev.sh test                        every check, in order, stopping at the first failure
#   scripts/dev.sh bench                       the speed targets (Step, Compare, a sweep) against a
#                                              baseline build, both release, headless Chromium;
#                                              BENCH_BASELINE=REV (default: below), BENCH_ALL=1
#                                              also runs the wider ui-bench (size, start-up, …)
#   scripts/dev.sh package                     release build of dist/, packed as release/
#                                              rollout-lab-<version>.tgz (npm) and .zip (the folder)
#
# Each installs whatever is missing first (scripts/install-tools.sh), run without a terminal, and
# can be run again and again. Honours CARGO_TARGET_DIR.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
# wasm-opt (npm binaryen 132) must win over Debian's older /usr/bin/wasm-opt, if any.
export PATH="$CARGO_HOME/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-auto}

bold() { printf '\033[1m%s\033[0m\n' "$*"; }

usage() {
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}

serve() {
  "$ROOT/scripts/install-tools.sh" build
  # trunk builds offline (Trunk.toml); fetch any crates the lock file names but the cache lacks.
  cargo fetch --quiet
  exec trunk serve "$@"
}

# ---- test ------------------------------------------------------------------------------------

LOGDIR=
declare -a SUMMARY=()
SUITE_START=$SECONDS

summary() {
  local status=$1
  echo
  bold "Summary"
  local line
  for line in "${SUMMARY[@]}"; do echo "  $line"; done
  printf '  %-34s %5ss\n' "total" "$((SECONDS - SUITE_START))"
  if [ "$status" = ok ]; then bold "All layers passed."; else bold "FAILED"; fi
}

# layer NAME CHECK COMMAND…: runs COMMAND with its output shown and kept in a log, then CHECK
# (a function given the log path) which must print what ran (e.g. "42 tests") or fail.
layer() {
  local name=$1 check=$2
  shift 2
  local log="$LOGDIR/$(echo "$name" | tr -c 'a-zA-Z0-9\n' '_').log"
  bold "==> $name"
  echo "    \$ $*"
  local start=$SECONDS status=0
  "$@" 2>&1 | tee "$log" || status=$?
  local took=$((SECONDS - start)) detail=""
  if [ "$status" = 0 ]; then
    detail=$("$check" "$log") || status=$?
  fi
  if [ "$status" != 0 ]; then
    SUMMARY+=("$(printf '%-34s %5ss  FAILED %s' "$name" "$took" "$detail")")
    summary failed
    echo "The output of the failed layer is in $log" >&2
    exit 1
  fi
  SUMMARY+=("$(printf '%-34s %5ss  ok %s' "$name" "$took" "$detail")")
}

no_check() { :; }

# Sums "N passed" over cargo's and wasm-bindgen-test-runner's "test result:" lines.
cargo_tests_ran() {
  local n
  n=$(sed -E 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^test result: ok\. [0-9]+ passed' |
    sed -E 's/^test result: ok\. ([0-9]+) passed.*/\1/' |
    awk '{ s += $1 } END { print s + 0 }')
  if [ "$n" -gt 0 ]; then echo "($n tests)"; else echo "(no tests ran)"; return 1; fi
}

# The wasm suite must have run in the browser, not just compiled.
wasm_tests_ran() {
  grep -q 'Running headless tests in Chrome' "$1" || { echo "(no headless Chrome run)"; return 1; }
  cargo_tests_ran "$1"
}

dist_built() {
  [ -f dist/index.html ] || { echo "(no dist/index.html)"; return 1; }
  # The one module at its stable names, its element script, the YAML reader's small module, the
  # packaging (README, "One module").
  local f
  for f in rollout-lab.js rollout-lab_bg.wasm rollout-lab.d.ts rollout-yaml.js rollout-yaml_bg.wasm \
    package.json app.css embed.css share.css internals.css embed-demo.html rollout-lab-height.js \
    rollout-lab-react.js rollout-lab-react.d.ts; do
    [ -f "dist/$f" ] || { echo "(no dist/$f)"; return 1; }
  done
  for f in element.js rollout-lab-height.js yaml.js; do
    ls dist/snippets/*/js/$f >/dev/null 2>&1 || { echo "(no dist/snippets/*/js/$f)"; return 1; }
  done
  local wasm
  wasm=$(find dist -name '*.wasm' | wc -l)
  [ "$wasm" = 2 ] || { echo "($wasm wasm files, expected 2: the app's and the YAML reader's)"; return 1; }
  echo "($(du -h dist/rollout-lab_bg.wasm | cut -f1) wasm, dev profile)"
}

# node --test writes TAP to a file next to the human-readable report: read the counts there.
E2E_TAP=
e2e_tests_ran() {
  local pass fail
  pass=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$E2E_TAP" | tail -1)
  fail=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$E2E_TAP" | tail -1)
  if [ -z "$pass" ] || [ "$pass" = 0 ] || [ "${fail:-1}" != 0 ]; then
    echo "(pass=${pass:-?} fail=${fail:-?})"
    return 1
  fi
  echo "($pass tests)"
}

e2e() {
  (cd tests/e2e && ROLLOUT_DIST="$ROOT/dist" node --test --test-concurrency=1 \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$E2E_TAP" \
    specs/)
}

# The official comparison: `rollout trace` on every conformance scenario, checked by the
# fixtures' own compare.py (the Rust suite checks the same in-process).
CONFORMANCE_DIR=${ROLLOUT_CONFORMANCE_DIR:-$ROOT/../shared/conformance}
RACES_DIR=${ROLLOUT_RACES_DIR:-$ROOT/../shared/races}
compare_py() {
  [ -d "$CONFORMANCE_DIR" ] || { echo "conformance fixtures not found at $CONFORMANCE_DIR" >&2; return 1; }
  cargo build --quiet -p rollout-cli
  local bin=${CARGO_TARGET_DIR:-$ROOT/target}/debug/rollout out sub f
  out=$(mktemp -d "${TMPDIR:-/tmp}/rollout-traces.XXXXXX")
  for sub in "" random settle; do
    mkdir -p "$out/$sub"
    for f in "$CONFORMANCE_DIR/scenarios/$sub"/*.json; do
      "$bin" trace "$f" >"$out/$sub/$(basename "$f")"
    done
    python3 "$CONFORMANCE_DIR/compare.py" --dir "$CONFORMANCE_DIR/traces/$sub" "$out/$sub"
  done
  # The race schedules (../shared/races): caches per controller, conflicts, expectations.
  [ -d "$RACES_DIR" ] || { echo "race fixtures not found at $RACES_DIR" >&2; return 1; }
  mkdir -p "$out/races"
  for f in "$RACES_DIR/scenarios"/*.json; do
    "$bin" trace "$f" >"$out/races/$(basename "$f")"
  done
  python3 "$CONFORMANCE_DIR/compare.py" --dir "$RACES_DIR/traces" "$out/races"
  rm -rf "$out"
}

# The four compare.py runs (named, random, settled, races) must close with "N passed, 0
# failed" and N > 0.
compare_passed() {
  local lines
  lines=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1")
  [ "$(echo "$lines" | grep -c ' 0 failed$')" = 4 ] || { echo "($lines)"; return 1; }
  ! echo "$lines" | grep -q '^0 passed' || { echo "(no traces compared)"; return 1; }
  echo "($(echo "$lines" | awk '{ s += $1 } END { print s }') traces)"
}

# `rollout plan --json` against the forecast reference (../shared/plan/plan_metrics.py) on every
# conformance trace with a setImage action, lock-step and settled.
PLAN_DIR=${ROLLOUT_PLAN_DIR:-$ROOT/../shared/plan}
plan_py() {
  [ -f "$PLAN_DIR/plan_metrics.py" ] || { echo "plan reference not found at $PLAN_DIR" >&2; return 1; }
  cargo build --quiet -p rollout-cli
  python3 "$ROOT/scripts/plan_check.py" "${CARGO_TARGET_DIR:-$ROOT/target}/debug/rollout" \
    "$PLAN_DIR/plan_metrics.py" "$CONFORMANCE_DIR" "" random settle
}

# The check closes with "plan: N agreed, 0 disagreed" and N > 0.
plan_agreed() {
  local line
  line=$(grep -E '^plan: [0-9]+ agreed, [0-9]+ disagreed$' "$1") || { echo "(no summary)"; return 1; }
  echo "$line" | grep -q ' 0 disagreed$' || { echo "(${line#plan: })"; return 1; }
  ! echo "$line" | grep -q '^plan: 0 agreed' || { echo "(nothing compared)"; return 1; }
  echo "($(echo "$line" | sed -E 's/^plan: ([0-9]+) agreed.*/\1/') forecasts)"
}

trunk_build() {
  # A failed build must not leave an older dist/ behind for the e2e suite to test.
  rm -rf dist
  trunk build
}

# The size budgets (issue #39, gzip -9): the app page, a page with one <rollout-lab> and the
# ?embed page at most 720,000 bytes each before their first render, all of dist/ at most
# 860,000; and no page past the ceiling tests/e2e/lib/bundle.mjs keeps for it (the ratchet,
# lowered with every cut). On a release build like the one that is served: the dev build's wasm
# says nothing.
page_budget() {
  local out="$LOGDIR/dist-release"
  rm -rf "$out"
  trunk build --release --dist "$out"
  (cd tests/e2e && ROLLOUT_DIST="$out" node bench/budget.mjs)
}

page_within_budget() {
  local lines out=""
  lines=$(grep -E '^(app page|element page|\?embed page|dist total) [0-9]+ bytes' "$1") || { echo "(no totals)"; return 1; }
  [ "$(echo "$lines" | wc -l)" = 4 ] || { echo "(expected four totals)"; return 1; }
  while read -r line; do
    out+="$(echo "$line" | sed -E 's/^(app page|element page|\?embed page|dist total) ([0-9]+) bytes.*\(budget ([0-9]+), ([^;]*);.*$/\1 \2 of \3, \4/'); "
  done <<<"$lines"
  echo "(${out%; })"
}

run_tests() {
  LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/rollout-test.XXXXXX")
  E2E_TAP="$LOGDIR/e2e.tap"
  # The wasm tests drive Debian's Chromium through its chromedriver.
  export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
  export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}

  layer "install tools" no_check "$ROOT/scripts/install-tools.sh" test
  layer "cargo fmt --check" no_check cargo fmt --all --check
  layer "clippy (native)" no_check cargo clippy --workspace --all-targets -- -D warnings
  layer "clippy (web, wasm32)" no_check \
    cargo clippy -p rollout-web --no-deps --target wasm32-unknown-unknown --all-targets -- -D warnings
  layer "cargo test (native)" cargo_tests_ran cargo test --workspace
  layer "conformance (compare.py)" compare_passed compare_py
  layer "forecasts (plan_metrics.py)" plan_agreed plan_py
  layer "cargo test (web, wasm32, Chromium)" wasm_tests_ran \
    cargo test -p rollout-web --target wasm32-unknown-unknown
  layer "trunk build" dist_built trunk_build
  layer "size budgets (trunk build --release)" page_within_budget page_budget
  layer "e2e (node --test, Chromium)" e2e_tests_ran e2e
  summary ok
}

# ---- bench -----------------------------------------------------------------------------------

# The commit the speed targets are measured against (issue #40): main before its changes.
BENCH_BASELINE_DEFAULT=aade526

bench() {
  "$ROOT/scripts/install-tools.sh" test
  cargo fetch --quiet
  local out base rev
  out=$(mktemp -d "${TMPDIR:-/tmp}/rollout-bench.XXXXXX")
  rev=${BENCH_BASELINE:-$BENCH_BASELINE_DEFAULT}
  bold "==> trunk build --release (this checkout, into $out/dist)"
  trunk build --release --dist "$out/dist"
  # The baseline from its own worktree (git worktree, removed afterwards), same toolchain, in
  # a target directory of its own (kept for the next bench): cargo tells sources apart by
  # their times, so the baseline's artifacts in the checkout's directory could be taken for
  # the checkout's own at its next build.
  bold "==> trunk build --release (baseline $rev, into $out/base-dist)"
  base="$out/base-src"
  git worktree add --detach --quiet "$base" "$rev"
  ln -s "$ROOT/tests/e2e/node_modules" "$base/tests/e2e/node_modules"
  (cd "$base" && CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/bench-baseline" \
    trunk build --release --dist "$out/base-dist")
  git worktree remove --force "$base"
  bold "==> node tests/e2e/bench/speed-bench.mjs (this build against $rev, alternating)"
  (cd tests/e2e && ROLLOUT_DIST="$out/dist" ROLLOUT_BASELINE_DIST="$out/base-dist" \
    node bench/speed-bench.mjs) | tee "$out/speed-bench.txt"
  if [ "${BENCH_ALL:-}" = 1 ]; then
    bold "==> node tests/e2e/bench/ui-bench.mjs"
    (cd tests/e2e && ROLLOUT_DIST="$out/dist" node bench/ui-bench.mjs) | tee "$out/ui-bench.txt"
  fi
  echo "Results also in $out"
}

# ---- package ---------------------------------------------------------------------------------

# The release build of dist/ as the two things an author downloads (README, "Install"): the npm
# package (`npm pack` of dist/, whose package.json is web/package.json) and a zip of the static
# folder (Python's zipfile), unpacking to rollout-lab/. Into $ROLLOUT_RELEASE_DIR (default
# release/); prints both paths. .github/workflows/release.yml runs this on a tag.
package() {
  "$ROOT/scripts/install-tools.sh" build
  cargo fetch --quiet
  rm -rf dist
  trunk build --release
  local version out tmp
  version=$(node -p 'require("./dist/package.json").version')
  out=${ROLLOUT_RELEASE_DIR:-$ROOT/release}
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  rm -f "$out/rollout-lab-$version.tgz" "$out/rollout-lab-$version.zip"
  (cd dist && npm pack --silent --pack-destination "$out" >/dev/null)
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/rollout-zip.XXXXXX")
  cp -R dist "$tmp/rollout-lab"
  (cd "$tmp" && python3 -m zipfile -c "$out/rollout-lab-$version.zip" rollout-lab/)
  rm -rf "$tmp"
  echo "$out/rollout-lab-$version.tgz"
  echo "$out/rollout-lab-$version.zip"
}

case "${1:-}" in
  serve) shift; serve "$@" ;;
  package) shift; [ $# = 0 ] || { usage >&2; exit 2; }; package ;;
  bench) shift; [ $# = 0 ] || { usage >&2; exit 2; }; bench ;;
  test) shift; [ $# = 0 ] || { usage >&2; exit 2; }; run_tests ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
