#!/usr/bin/env bash
# Deploying without Rust, and the release's dry runs. The npm package built by 20-npm.sh
# (scripts/build-pkg.sh, which also builds the prebuilt Worker into pkg/worker/) is packed with
# `npm pack`; tests/e2e/deploy-npm.test.mjs installs the tarball into a scratch project, runs
# `skills-edge worker` with a PATH that holds Node and wrangler but no cargo or rustc, serves
# the project it writes with `wrangler dev` on a free 127.0.0.1 port (the HTTP end-to-end
# checks: skills/list, skills/get, every file byte-exact, the mirror, --allowed-hosts), checks
# that the build options pass through and that `wrangler deploy --dry-run` bundles it under
# 1 MB gzip. Then `npm publish --dry-run` of the package and `cargo package --list` of the
# published crates (skills-edge, skills-edge-cli), whose file lists
# tests/js/release.test.mjs checks along with the metadata. Needs scripts/setup.sh and 20-npm.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

for f in pkg/web/skills_edge_bg.wasm pkg/worker/build/skills_edge_worker_bg.wasm; do
  if [[ ! -f $f ]]; then
    echo "37-deploy-npm.sh: $f is missing: build the npm package first" \
      "(bash scripts/build-pkg.sh; scripts/test.d/20-npm.sh does)" >&2
    exit 1
  fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skills-edge-deploy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tarball=$(cd pkg && npm pack --silent --pack-destination "$tmp" | tail -n 1)
# Node 22 (the npm package `node`), as for the other Worker tests.
SKILLS_EDGE_TARBALL="$tmp/$tarball" node_modules/.bin/node --test --test-timeout=300000 --test-force-exit --test-concurrency=1 \
  --test-reporter=spec tests/e2e/deploy-npm.test.mjs tests/e2e/docs-walk.test.mjs

# What a release would publish, without publishing (--allow-dirty: a working copy with edits
# lists the files it would package as they are).
(cd pkg && npm publish --dry-run --json --loglevel=error) > "$tmp/npm-publish.json"
cargo package --list --locked --allow-dirty -p skills-edge > "$tmp/skills-edge.files"
cargo package --list --locked --allow-dirty -p skills-edge-cli > "$tmp/cli.files"
SKILLS_EDGE_RELEASE_DIR="$tmp" node --test --test-timeout=300000 --test-force-exit --test-reporter=spec tests/js/release.test.mjs
