#!/usr/bin/env bash
# rmcp 3.11.0, the official Rust MCP SDK, as a judge (tests/rmcp/, a crate with its own
# workspace and Cargo.lock, never a dependency of the library): its skills client connects to
# the native `skills-edge stdio` (child process) and to the Worker on `wrangler dev` (Streamable
# HTTP, a free 127.0.0.1 port, stopped afterwards), at 2026-07-28 (server/discover) and
# 2025-11-25 (initialize), both with a page size of 3. It lists every skill, reads every listed
# file and checks it with rmcp's SkillResource::verify and an independent SHA-256, compares
# skills/get with skills/list, and walks every directory under each skill root against the
# manifest. Needs the Worker built (scripts/build-worker.sh; 30-worker.sh runs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

if [[ ! -f worker/build/skills_edge_worker_bg.wasm ]]; then
  echo "32-rmcp.sh: worker/build/skills_edge_worker_bg.wasm is missing: build the Worker first" \
    "(bash scripts/build-worker.sh; scripts/test.d/30-worker.sh does)" >&2
  exit 1
fi

target=${CARGO_TARGET_DIR:-target}
bin=$(bash scripts/native-bin.sh)

# The judge's own target directory, so its dependencies (tokio, reqwest, rmcp) never share or
# invalidate the library's build.
cargo fmt --check --manifest-path tests/rmcp/Cargo.toml
s=$SECONDS
CARGO_TARGET_DIR=$(realpath -m "$target/rmcp") \
  cargo test --locked --manifest-path tests/rmcp/Cargo.toml --no-run
echo "32-rmcp.sh: the rmcp test crate built in $((SECONDS - s)) s" >&2

# Node 22 (the npm package `node`) runs wrangler, as in 30-worker.sh.
CARGO_TARGET_DIR=$(realpath -m "$target/rmcp") SKILLS_EDGE_BIN="$bin" \
  node_modules/.bin/node tests/rmcp/with-worker.mjs \
  cargo test --locked --manifest-path tests/rmcp/Cargo.toml -- --show-output
