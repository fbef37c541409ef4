#!/usr/bin/env bash
# rmcp 3.11.0, the official Rust MCP SDK: as a judge (tests/rmcp/, a crate with its own
# workspace and Cargo.lock, never a dependency of the library), and as the server the crate
# skills-edge-rmcp (rmcp/) serves skills from.
#
# 1. skills-edge-rmcp and its example server (rmcp/examples/server): rustfmt, clippy with
#    warnings denied on every target (and on wasm32-unknown-unknown for the crate), rustdoc with warnings denied, the crate's tests
#    (rmcp/tests/handler.rs), and the example built twice, over the private fixture catalog
#    (tests/fixtures/private-skills, kept aside) and over skills/. All in the judge's target
#    directory, in one feature set (both packages in every command), so rmcp and tokio are
#    compiled there and never in the library's target directory (10-rust.sh excludes both).
# 2. The judge's skills client connects to the native `skills-edge stdio` (child process), to
#    the Worker on `wrangler dev` and to the example over stdio and Streamable HTTP, at
#    2026-07-28 (server/discover) and 2025-11-25 (initialize), all with a page size of 3. It
#    lists every skill, reads every listed file and checks it with rmcp's
#    SkillResource::verify and an independent SHA-256, compares skills/get with skills/list,
#    and walks every directory under each skill root against the manifest; against the private
#    example, an anonymous caller sees the public skills only and every hidden skill, file and
#    directory is refused as an absent one, and a caller with the test scopes header sees and
#    verifies every skill.
# 3. At the same time, with Node 22 (tests/rmcp/example.test.mjs): the conformance suite's
#    Skills scenarios in both eras and sep-2164-resource-not-found, the official SDK 2.4 client and MCP
#    Inspector judges, against the example over Streamable HTTP.
# Needs the Worker built (scripts/build-worker.sh; 30-worker.sh runs it).
# `--build-only` makes the lints and builds of 1 and the judge's build, and stops
# (scripts/test.sh runs it in the background early).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true

target=${CARGO_TARGET_DIR:-target}
# The judge's own target directory, so its dependencies (tokio, reqwest, rmcp) never share or
# invalidate the library's build; skills-edge-rmcp and its example build there too.
rtarget=$(realpath -m "$target/rmcp")
crates=(-p skills-edge-rmcp -p skills-edge-rmcp-example)
if [[ "${1:-}" == --build-only ]]; then
  # The lints with the step's own arguments (other arguments would check the crates again
  # there); each command runs even when one before it failed, and the first failure is the
  # exit status (the step itself then fails on it, with its message).
  status=0
  CARGO_TARGET_DIR=$rtarget cargo clippy --locked "${crates[@]}" --all-targets -- -D warnings || status=$?
  CARGO_TARGET_DIR=$rtarget cargo build --locked "${crates[@]}" --all-targets || status=$?
  CARGO_TARGET_DIR=$rtarget cargo test --locked --manifest-path tests/rmcp/Cargo.toml --no-run || status=$?
  # Last, and only once setup has added the target (scripts/test.sh starts this before setup).
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    CARGO_TARGET_DIR=$rtarget cargo clippy --locked -p skills-edge-rmcp --lib \
      --target wasm32-unknown-unknown -- -D warnings || status=$?
  fi
  exit "$status"
fi

if [[ ! -f worker/build/skills_edge_worker_bg.wasm ]]; then
  echo "32-rmcp.sh: worker/build/skills_edge_worker_bg.wasm is missing: build the Worker first" \
    "(bash scripts/build-worker.sh; scripts/test.d/30-worker.sh does)" >&2
  exit 1
fi

bin=$(bash scripts/native-bin.sh)
cargo fmt --check --manifest-path tests/rmcp/Cargo.toml

# 1. skills-edge-rmcp and its example, with one feature set in every command.
s=$SECONDS
CARGO_TARGET_DIR=$rtarget cargo clippy --locked "${crates[@]}" --all-targets -- -D warnings
# The crate builds for wasm32-unknown-unknown too (rmcp's `server` with uuid's `js`).
CARGO_TARGET_DIR=$rtarget cargo clippy --locked -p skills-edge-rmcp --lib --target wasm32-unknown-unknown -- -D warnings
echo "32-rmcp.sh: clippy of skills-edge-rmcp (host, wasm32) and its example in $((SECONDS - s)) s" >&2
CARGO_TARGET_DIR=$rtarget RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps -p skills-edge-rmcp --quiet
# The public surface of the library crates (issue 38: fewer than 400 items, each with a user
# outside its crate), counted from the documentation built above and in 10-rust.sh: no build
# of its own. The bound is issue 38's: fewer than 400 (the count is 398); an item added has
# to be paid for by one removed. Every public type also needs a runnable example of its own.
bash scripts/public-items.sh --no-build --max 400
s=$SECONDS
CARGO_TARGET_DIR=$rtarget SKILLS_DIR=$PWD/tests/fixtures/private-skills \
  cargo build --locked "${crates[@]}" --all-targets
private=$rtarget/skills-edge-rmcp-example-private
cp "$rtarget/debug/skills-edge-rmcp-example" "$private"
CARGO_TARGET_DIR=$rtarget cargo build --locked "${crates[@]}" --all-targets
example=$rtarget/debug/skills-edge-rmcp-example
echo "32-rmcp.sh: skills-edge-rmcp, its tests and the example (twice) built in $((SECONDS - s)) s" >&2
CARGO_TARGET_DIR=$rtarget cargo test --locked "${crates[@]}" --all-targets

s=$SECONDS
CARGO_TARGET_DIR=$rtarget cargo test --locked --manifest-path tests/rmcp/Cargo.toml --no-run
echo "32-rmcp.sh: the rmcp test crate built in $((SECONDS - s)) s" >&2

# 3. The JavaScript judges of the example, while the rmcp judge runs.
SKILLS_EDGE_RMCP_EXAMPLE_BIN=$example node_modules/.bin/node --test --test-timeout=300000 --test-force-exit tests/rmcp/example.test.mjs &
js=$!
# 2. Node 22 (the npm package `node`) runs wrangler, as in 30-worker.sh; with-worker.mjs also
# starts the example over HTTP, twice.
status=0
CARGO_TARGET_DIR=$rtarget SKILLS_EDGE_BIN="$bin" \
  SKILLS_EDGE_RMCP_EXAMPLE_BIN="$example" SKILLS_EDGE_RMCP_PRIVATE_BIN="$private" \
  node_modules/.bin/node tests/rmcp/with-worker.mjs \
  cargo test --locked --manifest-path tests/rmcp/Cargo.toml -- --show-output || status=$?
wait "$js" || status=$?
exit "$status"
