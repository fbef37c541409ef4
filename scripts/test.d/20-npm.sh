#!/usr/bin/env bash
# The npm package (pkg/): build it (its main module and its verifier module,
# `skills-edge/verifier`); run the wasm-bindgen-test suites in Node and in headless Chromium;
# pack it with `npm pack`, install the tarball into an empty temporary project and run the
# package tests there (tests/js/pkg, node --test): the server (its `fetch` with a session's
# scopes against what a page of another site can make a browser do with the mirror,
# tests/js/pkg/browsers.test.mjs with tests/lib/browser-probes.mjs), every verifier function and
# error code, SkillHost (also loading a third-party skill served by @olaservo/ext-skills,
# tests/js/peers/ext-skills.mjs), the verifier functions' and SkillHost's tests through both
# modules, the verifier module's exports, loading and size bound, every export called with
# wrong-typed and hostile arguments (no trap, state kept; the async functions reject, never throw), differential tests against
# node:crypto and yaml@2 and of the async functions (node:crypto, crypto.subtle) against the
# synchronous ones, a strict TypeScript check of the declarations, `npx skills-edge pack` against the native
# command (identical packs, identical refusals of hostile folders, damaged packs refused),
# `npx skills-edge keygen` and `--sign` against the native command (tests/js/pkg/sign-cli),
# `--oms-sign` against the native command (tests/js/pkg/oms-sign-cli), `npx skills-edge publish`
# and `gc` against the native command on wrangler's local R2 (tests/js/pkg/publish-cli), OpenSSF Model Signing
# signatures made by `model_signing sign key` checked by `verify --trust oms.pub` (npm and
# native) and SkillsClient (tests/js/pkg/oms), the
# judges of tests/judges/ against the installed SkillsServer (the official SDK 2.4 SkillsClient
# in-process, MCP Inspector 2.12 --verify over stdio, on both protocol eras), the conformance
# suite's host scenarios with tests/conformance-client.mjs, SkillsClient and `skills-edge
# verify` (npm and native, identical output) against SkillsServer over node:http, the SDK 2.4
# server, @olaservo/ext-skills and the tampering proxy (tests/js/peers), SkillsClient with the
# same results hashing in WebAssembly or with the platform digest, signed skills checked by
# SkillHost, SkillsClient and `verify --trust/--pins` (npm and native) against a signing server,
# a signed well-known source and a pack signed with `pack --sign` (tests/js/pkg/signatures);
# `skills-edge/sdk`'s packSkillSource (tests/js/pkg/sdk-source): every SkillSource method
# against a pack of skills/ and of tests/fixtures/private-skills for anonymous, wrong-scope and
# right-scope callers, attached to a real SDK 2.4 McpServer (SkillsExtension) on a loopback
# port and judged by the SDK 2.4 SkillsClient on both eras, and type-checked against the SDK's
# own SkillSource (tests/js/pkg/consumer-sdk.ts); then load the installed
# package in headless Chromium on plain-http pages (tests/js/browser), where the async functions
# and SkillsClient run with crypto.subtle on the loopback origin and fall back to WebAssembly
# on the other, the inspector page included (screenshots in target/screenshots/), and a page
# that only verifies with `skills-edge/verifier` (the .wasm bytes it fetched within the module's
# bound). Needs scripts/setup.sh (run by scripts/test.sh first).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
# wasm-bindgen-cli: scripts/test.sh builds it in the background; this waits for that build (or
# installs it when the step runs alone) and returns at once when it is in place.
bash scripts/install-wasm-bindgen.sh

bash scripts/build-pkg.sh
# The native command, to compare `npx skills-edge pack` with (tests/js/pkg/pack-cli.test.mjs).
SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh)

# wasm-bindgen-test: the same suite (tests/wasm/web.rs, part of the library's test build) in
# Node, then in Chromium.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
cargo test --target wasm32-unknown-unknown --features js --lib
WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" \
  cargo test --target wasm32-unknown-unknown --features js --lib
unset CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER

# The packed tarball, installed into an empty project, as a user gets it.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skills-edge-pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd pkg && npm pack --silent --pack-destination "$tmp" | tail -n 1)
app="$tmp/app"
mkdir -p "$app/test"
printf '{\n  "name": "skills-edge-consumer",\n  "private": true,\n  "type": "module"\n}\n' > "$app/package.json"
(cd "$app" && npm install "$tmp/$tarball" --no-audit --no-fund --offline --loglevel=error)
cp tests/js/pkg/*.mjs tests/js/pkg/*.ts "$app/test/"
export SKILLS_EDGE_REPO="$repo" SKILLS_EDGE_PKG="$app/node_modules/skills-edge"
export SKILLS_EDGE_BIN
# Two files at a time: most of them wait on child processes and servers, and each file is its
# own process with its own temporary folders and ports.
(cd "$app" && node --test --test-timeout=300000 --test-force-exit --test-concurrency=2 --test-reporter=spec test/*.test.mjs)
# The core suites once more on Node 22 (the npm package `node`).
(cd "$app" && "$repo/node_modules/.bin/node" --test --test-timeout=300000 --test-force-exit --test-concurrency=2 --test-reporter=dot \
  test/server.test.mjs test/verifier.test.mjs test/host.test.mjs test/error-codes.test.mjs \
  test/verifier-module.test.mjs)

# Headless Chromium on plain-http pages, serving the installed package's web build.
node --test --test-timeout=300000 --test-force-exit --test-reporter=spec tests/js/browser/*.test.mjs
