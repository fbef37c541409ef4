#!/usr/bin/env bash
# Runs every test of the project: installs what it needs (scripts/setup.sh), then each step
# in scripts/test.d/ in order. A step that fails stops the run with its exit status. Each step
# prints its time, and the total is printed at the end. TESTING.md describes the steps.
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
# Runs "$@" as the step NAME, with its time.
step() {
  local name=$1 s=$SECONDS; shift
  echo "==> $name" >&2
  "$@"
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
    SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) node --test tests/js/*.test.mjs
  }
  quick_worker() {
    SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) bash scripts/build-worker.sh --inline-max 0
    node_modules/.bin/node --test --test-reporter=spec tests/e2e/http-probes.test.mjs
  }
  step "quick: Rust tests" quick_rust
  step "quick: Node tests" quick_node
  step "quick: Worker smoke" quick_worker
  echo "quick tests passed ($((SECONDS - start)) s); the whole suite: bash scripts/test.sh" >&2
  exit 0
fi

# Tool and judge builds no step needs until late run in the background at the lowest priority,
# on the CPU the other work leaves idle (setup mostly waits on downloads, the end-to-end steps
# on servers). They start before setup, which needs none of them. The steps that need them call
# the same commands, which wait for these (a lock, or cargo's own) and then find the work done;
# a failure here resurfaces there, with its log. wasmtime-cli and cargo-fuzz are built once per
# machine (scripts/install-tool.sh keeps them in a cache outside the clone).
mkdir -p target/prebuild
# A failing step ends the run: stop the background builds with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
prebuild() {
  local name=$1; shift
  ( nice -n 19 "$@" > "target/prebuild/$name.log" 2>&1 || echo "prebuild $name failed (see target/prebuild/$name.log)" >&2 ) &
}
prebuild wasmtime bash scripts/install-wasmtime.sh
prebuild cargo-fuzz bash scripts/fuzz.sh --install
# The rmcp judge and the crate skills-edge-rmcp with its example share target/rmcp/: 32-rmcp.sh
# --build-only makes what that step builds, in its order, and nothing else.
prebuild rmcp bash scripts/test.d/32-rmcp.sh --build-only

step setup.sh bash scripts/setup.sh
for s in scripts/test.d/*.sh; do
  step "${s##*/}" bash "$s"
done
wait
echo "all tests passed ($((SECONDS - start)) s)" >&2
