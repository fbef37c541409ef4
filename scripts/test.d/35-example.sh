#!/usr/bin/env bash
# The examples. examples/js-worker/: a hand-written TypeScript MCP Worker that adds skills with
# the npm package's SkillsServer (tests/e2e/js-worker.test.mjs). It packs skills/ with
# `skills-edge pack`, type-checks the example, serves it with `wrangler dev` on a free
# 127.0.0.1 port, and runs the conformance suite's Skills scenarios (2026-07-28), the official
# SDK client, the judges of tests/judges/ (the official SDK 2.4 SkillsClient and MCP Inspector
# 2.12 --verify, on both protocol eras) and raw HTTP probes against it; wrangler's process
# group is stopped afterwards. examples/node-sdk/: an MCP server made with the official
# TypeScript SDK 2.4 on Node that adds skills through the SDK's SkillsExtension over
# `skills-edge/sdk` (tests/e2e/node-sdk.test.mjs): packed with `skills-edge pack`, started on
# a free 127.0.0.1 port, the conformance suite's three Skills scenarios and the judges on both
# eras, its own tool called; stopped afterwards.
# examples/agents-worker/: an MCP server built with the Agents SDK's createMcpHandler and an
# official TypeScript SDK 2.4 McpServer, behind @cloudflare/workers-oauth-provider, serving a
# pack through the SDK's Skills extension and skills-edge/sdk's packSkillSource
# (tests/e2e/agents-worker.test.mjs): its skills packed, the example type-checked, one
# `wrangler dev` start, the SDK client's OAuth flow with and without the private skill's
# scope, the SDK judge on both eras per token, the example's tool, the private skill absent as
# an unknown one without the scope, MCP Inspector --verify with the token and the conformance
# suite's skills scenarios through a proxy adding it.
# The three files run at the same time (each mostly waits on its server and the judges' child
# processes). Then the examples' READMEs are walked, block by block (docs-walk-examples.test.mjs).
# Needs the npm package built in pkg/ (scripts/build-pkg.sh, run by 20-npm.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

if [[ ! -f pkg/web/skills_edge_bg.wasm ]]; then
  echo "35-example.sh: pkg/web/skills_edge_bg.wasm is missing: build the npm package first" \
    "(bash scripts/build-pkg.sh; scripts/test.d/20-npm.sh does)" >&2
  exit 1
fi
# Node 22 (the npm package `node`): the conformance suite needs it.
node_modules/.bin/node --test --test-timeout=300000 --test-force-exit --test-concurrency=3 --test-reporter=spec \
  tests/e2e/js-worker.test.mjs tests/e2e/node-sdk.test.mjs tests/e2e/agents-worker.test.mjs
# Then the examples' READMEs walked step by step (tests/e2e/docs-walk-examples.test.mjs): their
# blocks run as written from the repository root, so after the files above, which write the
# same packs. oauth-provider's README rebuilds worker/build/ (scripts/build-worker.sh), which
# packs with SKILLS_EDGE_BIN: the native command the Rust tests built.
SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) node_modules/.bin/node --test --test-timeout=300000 --test-force-exit --test-reporter=spec \
  tests/e2e/docs-walk-examples.test.mjs
