#!/usr/bin/env bash
# Runs every test of the project: installs what it needs (scripts/setup.sh), then each step
# in scripts/test.d/ in order, the end-to-end steps that only wait on their servers side by side
# (the plan below). A step that fails stops the run with its exit status. Each step prints its
# time, and the total is printed at the end. TESTING.md describes the steps.
#
# Usage: scripts/test.sh [--quick]
#   --quick  the edit-test loop, a few minutes on a warm machine: formatting, every Rust test,
#            the Node tests of the native command (tests/js/*.test.mjs) and one Worker smoke
#            test (the Worker built as 30-worker.sh builds it, then tests/e2e/http-probes.test.mjs
#            on wrangler dev). No lints, docs, fuzzing, npm package, browser or component
#            runtime: run the whole command before you send a change.
set -euo pipefail
cd "$(dirname "$0")/.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true
export NO_UPDATE_NOTIFIER=1 CI="${CI:-1}"

quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

start=$SECONDS
# Runs "$@" as the step NAME, with its time. A step still running after STEP_TIMEOUT seconds
# (default 1800; every step takes a fraction of it) is stopped and fails, naming itself, so a
# hung server cannot take the run past its limit unnamed.
step() {
  local name=$1 s=$SECONDS rc=0; shift
  echo "==> $name" >&2
  timeout --kill-after=30 "${STEP_TIMEOUT:-1800}" "$@" || rc=$?
  if [ "$rc" = 124 ]; then
    echo "<== $name: stopped after ${STEP_TIMEOUT:-1800} s (STEP_TIMEOUT): a test or server hung" >&2
  fi
  [ "$rc" = 0 ] || return "$rc"
  echo "<== $name: ok ($((SECONDS - s)) s)" >&2
}

if [ "$quick" = 1 ]; then
  step setup.sh bash scripts/setup.sh --no-browser
  quick_rust() {
    cargo fmt --all -- --check
    # The crates over rmcp are 32-rmcp.sh's (as in 10-rust.sh).
    cargo test --workspace --exclude skills-edge-rmcp --exclude skills-edge-rmcp-example
  }
  quick_node() {
    SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) node --test --test-timeout=300000 --test-force-exit tests/js/*.test.mjs
  }
  quick_worker() {
    SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) bash scripts/build-worker.sh --inline-max 0
    node_modules/.bin/node --test --test-timeout=300000 --test-force-exit --test-reporter=spec tests/e2e/http-probes.test.mjs
  }
  step "quick: Rust tests" quick_rust
  step "quick: Node tests" quick_node
  step "quick: Worker smoke" quick_worker
  echo "quick tests passed ($((SECONDS - start)) s); the whole suite: bash scripts/test.sh" >&2
  exit 0
fi

# Tool and judge builds no step needs until late run in the background at the lowest priority,
# on the CPU the other work leaves idle (setup mostly waits on downloads, the tests of 10-rust
# and 20-npm and the end-to-end steps on child processes and servers). They start before setup,
# which needs none of them, one after another in the order the steps need them: a step that
# waits for one (the same command, behind a lock or cargo's own) then gives it the whole CPU
# the run leaves, rather than a share with builds needed later. A failure here resurfaces in
# the step that needs the build, with its log. cargo-fuzz is built once per machine
# (scripts/install-tool.sh keeps it in a cache outside the clone); wasmtime is a download
# (scripts/install-wasmtime.sh, in 45-wasmtime.sh).
mkdir -p target/prebuild
# A failing step ends the run: stop the background builds with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
prebuild() {
  local name=$1; shift
  nice -n 19 "$@" > "target/prebuild/$name.log" 2>&1 || echo "prebuild $name failed (see target/prebuild/$name.log)" >&2
}
(
  # wasm-bindgen-cli (about 90 s of two cores on a fresh machine): first needed by 20-npm.sh,
  # which waits for it; setup leaves it to this build.
  prebuild wasm-bindgen bash scripts/install-wasm-bindgen.sh
  # cargo-fuzz, then every fuzz target (fuzz/target/, a target folder of its own, so it never
  # waits on another build's lock): first needed by the fuzz runs beside 30-worker.
  prebuild fuzz bash scripts/test.d/15-fuzz.sh --build-only
  # The rmcp judge and the crate skills-edge-rmcp with its example share target/rmcp/:
  # 32-rmcp.sh --build-only makes what that step builds, in its order, and nothing else.
  prebuild rmcp bash scripts/test.d/32-rmcp.sh --build-only
) &

# Runs the steps given (each `NAME [ARGS]` of scripts/test.d/) at the same time, each timed as a
# step; when one fails, the others finish, then the first failure's status ends the run.
together() {
  local pids=() status=0 pid rc
  for s in "$@"; do
    # shellcheck disable=SC2086 # NAME and its arguments, split on purpose.
    step "$s" bash scripts/test.d/$s &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || { rc=$?; [ "$status" != 0 ] || status=$rc; }
  done
  return "$status"
}

# The steps in order. The end-to-end steps after 30-worker.sh mostly wait on their servers (and
# faults.test.mjs on the components' 10-second body deadline), so independent ones run side by
# side, each group sharing no files and no cargo target folder:
# - 32-rmcp (its builds done by the background build below, in target/rmcp/) beside the
#   components' builds and lints (40-component --build-only, the CPU the judges leave);
# - then the four steps that build nothing, at once: 35-example and 37-deploy-npm (both need
#   only 20-npm's and 30-worker's builds; 35's walk of the oauth-provider README rebuilds
#   worker/build/, which 32-rmcp serves, so after it), and the components' tests on jco serve
#   (40-component --tests-only) and on wasmtime serve (45-wasmtime), whose longest file waits
#   on the 10-second body deadline most of its minute.
# After 10-rust.sh every step takes the native command it built (SKILLS_EDGE_BIN), so no step
# asks cargo for it while another step's build holds target/. TESTING.md has the figures.
plan=(10-rust.sh 15-fuzz.sh 20-npm.sh 30-worker.sh 32-rmcp.sh 35-example.sh 37-deploy-npm.sh
  40-component.sh 45-wasmtime.sh)
for f in scripts/test.d/*.sh; do
  [[ " ${plan[*]} " == *" ${f##*/} "* ]] \
    || { echo "scripts/test.sh: ${f##*/} is not in the plan; add it there" >&2; exit 1; }
done
step setup.sh bash scripts/setup.sh --no-wasm-bindgen
step 10-rust.sh bash scripts/test.d/10-rust.sh
SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh)
export SKILLS_EDGE_BIN
step 20-npm.sh bash scripts/test.d/20-npm.sh
# The fuzz runs (two at a time) at the lowest priority beside 30-worker, whose tests mostly
# wait on wrangler and workerd: the runs take the cores those leave idle, and yield them
# whenever a test needs them. Sharing the cores, a run executes about half the inputs it would
# alone in the same time, so each runs 30 s here (FUZZ_SECONDS, when set, still rules): about
# 330 s in all, beside 30-worker's 250 s, where alone they took 200 s after it.
export FUZZ_NICE=19 FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
together "15-fuzz.sh --runs-only" 30-worker.sh
unset FUZZ_NICE FUZZ_SECONDS
together 32-rmcp.sh "40-component.sh --build-only"
together 35-example.sh 37-deploy-npm.sh "40-component.sh --tests-only" 45-wasmtime.sh
wait
echo "all tests passed ($((SECONDS - start)) s)" >&2
