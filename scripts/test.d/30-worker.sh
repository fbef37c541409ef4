#!/usr/bin/env bash
# End-to-end tests of the Cloudflare Worker on real workerd (wrangler dev): the official MCP
# conformance suite (also with the tools and prompts fallback on), the official SDK clients
# (v1 and v2, also through the fallback), the judges of tests/judges/ (the official SDK 2.4
# SkillsClient and MCP Inspector 2.12 --verify, on both protocol eras), raw HTTP probes,
# configuration, and a real browser (headless Chromium). Each test file starts its own
# `wrangler dev` on a free 127.0.0.1 port and stops its process group afterwards. Needs
# scripts/setup.sh (run by scripts/test.sh first).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

bash scripts/build-worker.sh
# Node 22 (the npm package `node`): the conformance suite needs it.
node_modules/.bin/node --test --test-concurrency=1 --test-reporter=spec \
  tests/e2e/http-probes.test.mjs \
  tests/e2e/config.test.mjs \
  tests/e2e/deploy.test.mjs \
  tests/e2e/sdk-client.test.mjs \
  tests/e2e/judges.test.mjs \
  tests/e2e/fallback.test.mjs \
  tests/e2e/conformance.test.mjs \
  tests/e2e/browser.test.mjs
