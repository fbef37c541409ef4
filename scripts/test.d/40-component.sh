#!/usr/bin/env bash
# The WASI 0.2 components of the WIT worlds in wit/: build both (scripts/build-component.sh),
# check the binding crates (rustfmt, clippy on wasm32-wasip2, their unit test), then run the
# components on component runtimes from the npm registry:
#   - jco transpile: the responder and the verifier called through the WIT interfaces (Node);
#   - jco serve: the HTTP world on a loopback port, against the MCP conformance suite, the
#     fault tests (tests/component/faults.test.mjs: the Worker's faults, its refusal statuses
#     and bodies) and the judges of tests/judges/ (the official SDK 2.4 SkillsClient and MCP
#     Inspector 2.12 --verify, on both protocol eras), and, on the HTTP world built a second
#     time over tests/fixtures/active-skills/ (build/component/active/; the same target folder, so
#     only the catalog and the component crates are compiled again), what a page of another site can make a browser do with the
#     mirror when `SCOPES` grants private skills (tests/component/browsers.test.mjs).
# scripts/test.d/45-wasmtime.sh runs the HTTP tests again on `wasmtime serve`.
# Usage: 40-component.sh [--build-only | --tests-only]: the builds, lints and the crates' unit
# tests alone, or the Node tests alone (on the components the builds left in build/component/;
# scripts/test.sh runs them beside 45-wasmtime.sh's). No argument: both, in that order.
# The Node test files run two at a time: each starts its own runtime on a free port, and
# faults.test.mjs spends most of its minute waiting on the 10-second body deadline.
set -euo pipefail
cd "$(dirname "$0")/../.."

phase=${1:-all}
case "$phase" in
  all | --build-only | --tests-only) ;;
  *) echo "usage: 40-component.sh [--build-only | --tests-only]" >&2; exit 2 ;;
esac

if [[ "$phase" != --tests-only ]]; then
  bash scripts/build-component.sh
  # The HTTP world over a catalog with a private skill and active files, for browsers.test.mjs.
  SKILLS_DIR=tests/fixtures/active-skills COMPONENT_OUT=build/component/active bash scripts/build-component.sh

  crates=(-p skills-edge-component -p skills-edge-http-component)
  (
    cd component
    cargo fmt --check "${crates[@]}"
    cargo clippy --locked --target wasm32-wasip2 --all-targets "${crates[@]}" -- -D warnings
    cargo test --locked "${crates[@]}"
  )
fi
[[ "$phase" == --build-only ]] && exit 0

for f in build/component/skills-edge.wasm build/component/skills-edge-http.wasm build/component/active/skills-edge-http.wasm; do
  if [[ ! -f $f ]]; then
    echo "40-component.sh: $f is missing: build the components first (40-component.sh --build-only)" >&2
    exit 1
  fi
done
# faults.test.mjs first: its waits then overlap every other file.
node --test --test-timeout=300000 --test-force-exit --test-concurrency=2 \
  tests/component/faults.test.mjs \
  tests/component/worlds.test.mjs \
  tests/component/responder.test.mjs \
  tests/component/verifier.test.mjs \
  tests/component/http.test.mjs \
  tests/component/browsers.test.mjs \
  tests/component/judges.test.mjs
