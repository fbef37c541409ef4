#!/usr/bin/env bash
# End-to-end tests of the Cloudflare Worker on real workerd (wrangler dev): the official MCP
# conformance suite (also with the tools and prompts fallback on), the official SDK clients
# (v1 and v2, also through the fallback), the judges of tests/judges/ (the official SDK 2.4
# SkillsClient and MCP Inspector 2.12 --verify, on both protocol eras), raw HTTP probes,
# faults (clients that go away mid-body, slow and mis-sized bodies, 1000 requests in flight,
# very large headers, the parking ring's overflow; also on bare `workerd serve`),
# configuration, a real browser (headless Chromium), file bytes in Static Assets (every file
# read back, asset paths refused, missing and truncated assets), a generated catalog at the
# spec's limits, a private catalog (tests/fixtures/private-skills/, AUTH_MODE=jwt) through the
# SDK client, the Inspector, the conformance suite and the raw HTTP probes with tokens, the
# Worker behind @cloudflare/workers-oauth-provider (examples/oauth-provider: the full OAuth
# flow with the official SDK client, scopes deciding what is listed), the identity providers'
# recipes of docs/private.md (tokens shaped as Auth0, Okta, Entra ID, Keycloak and Access
# document them, one Worker per recipe on bare workerd; the oauth-provider recipe composed from
# the npm package's worker/skills.mjs on wrangler dev), the npm `skills` installer
# installing every mirrored skill byte-exact, and the host side against the Worker:
# SkillsClient on both eras, `skills-edge verify` (native and npm, identical output),
# signatures (the Worker is built with a fresh signing key; Python's securesystemslib verifies
# every envelope; `verify --trust` refuses each tampering in transit; an OpenSSF Model Signing
# Worker made by `npx skills-edge worker --oms-sign`, whose skills the `skills` installer
# installs and `model_signing verify key` accepts, refusing tampering) and the inspector page
# (from another origin through CORS, and served by the Worker with INSPECTOR=on; screenshots in
# target/screenshots/). The Worker is built with `--inline-max 0`: every non-empty file is a
# Static Asset, so the whole suite runs against the assets-backed Worker. Each test file
# starts its own `wrangler dev` on a free 127.0.0.1 port and stops its process group
# afterwards. Needs scripts/setup.sh (run by scripts/test.sh first) and the npm package built
# (20-npm.sh): the page's files and SkillsClient come from pkg/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

if [[ ! -f pkg/web/skills_edge_bg.wasm ]]; then
  echo "30-worker.sh: pkg/web/skills_edge_bg.wasm is missing: build the npm package first" \
    "(bash scripts/build-pkg.sh; scripts/test.d/20-npm.sh does)" >&2
  exit 1
fi
# The native command: it packs the skills folder for the Worker (build-worker.sh), and its
# `skills-edge verify` is compared with the npm package's.
SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh)
export SKILLS_EDGE_BIN
# Signed: a key made by `skills-edge keygen` (target/signing/, a fresh one each run); every
# test below runs against the signed Worker, and signed.test.mjs checks the signatures.
rm -rf target/signing
"$SKILLS_EDGE_BIN" keygen --out target/signing
SKILLS_SIGNING_KEY=target/signing/signing.key bash scripts/build-worker.sh --inline-max 0
# Node 22 (the npm package `node`): the conformance suite needs it. The longest files come
# first (r2: its many wrangler starts; signed-oms: a Worker of its own), so they run beside
# the others instead of at the end of the step.
node_modules/.bin/node --test --test-timeout=300000 --test-force-exit --test-concurrency=2 --test-reporter=spec \
  tests/e2e/r2.test.mjs \
  tests/e2e/signed-oms.test.mjs \
  tests/e2e/r2-outage.test.mjs \
  tests/e2e/publish-workflow.test.mjs \
  tests/e2e/bench-r2.test.mjs \
  tests/e2e/http-probes.test.mjs \
  tests/e2e/faults.test.mjs \
  tests/e2e/config.test.mjs \
  tests/e2e/auth.test.mjs \
  tests/e2e/auth-providers.test.mjs \
  tests/e2e/auth-provider-npm.test.mjs \
  tests/e2e/provider.test.mjs \
  tests/e2e/private.test.mjs \
  tests/e2e/deploy.test.mjs \
  tests/e2e/sdk-client.test.mjs \
  tests/e2e/judges.test.mjs \
  tests/e2e/fallback.test.mjs \
  tests/e2e/conformance.test.mjs \
  tests/e2e/browser.test.mjs \
  tests/e2e/assets.test.mjs \
  tests/e2e/mirror-installer.test.mjs \
  tests/e2e/scale.test.mjs \
  tests/e2e/client.test.mjs \
  tests/e2e/signed.test.mjs
