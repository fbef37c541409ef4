#!/usr/bin/env bash
# End-to-end tests of the Cloudflare Worker on real workerd (wrangler dev): the official MCP
# conformance suite, the official SDK client, raw HTTP probes, configuration, a real browser
# (headless Chromium), file bytes in Static Assets (every file read back, asset paths refused,
# missing and truncated assets), and a generated catalog at the spec's limits. The Worker is
# built with `--inline-max 0`: every non-empty file is a Static Asset, so the whole suite runs
# against the assets-backed Worker. Each test file starts its own `wrangler dev` on a free
# 127.0.0.1 port and stops its process group afterwards. Needs scripts/setup.sh (run by
# scripts/test.sh first).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

bash scripts/build-worker.sh --inline-max 0
# Node 22 (the npm package `node`): the conformance suite needs it.
node_modules/.bin/node --test --test-concurrency=1 --test-reporter=spec \
  tests/e2e/http-probes.test.mjs \
  tests/e2e/config.test.mjs \
  tests/e2e/deploy.test.mjs \
  tests/e2e/sdk-client.test.mjs \
  tests/e2e/conformance.test.mjs \
  tests/e2e/browser.test.mjs \
  tests/e2e/assets.test.mjs \
  tests/e2e/scale.test.mjs
