#!/usr/bin/env bash
# Builds the native `skills-edge` command (crate skills-edge-cli, cli/) for the tests and prints
# its absolute path. It is the binary the Rust tests run (10-rust.sh's `cargo test --workspace`
# without the two rmcp crates puts it in target/debug/): `cargo build -p skills-edge-cli` would
# compile it, ring, rustls and serde a second time, because without the dev-dependencies some of
# their features differ, and so would a `--workspace` that takes in the rmcp crates (their
# features unify into the library's, and rmcp and tokio would be compiled here too). After
# 10-rust.sh this finds everything fresh. SKILLS_EDGE_BIN, when set, is printed instead and
# nothing is built. Usage: bin=$(bash scripts/native-bin.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${SKILLS_EDGE_BIN:-}" ]; then
  realpath -m "$SKILLS_EDGE_BIN"
  exit 0
fi
cargo test --locked --workspace --exclude skills-edge-rmcp --exclude skills-edge-rmcp-example --no-run --quiet >&2
realpath -m "${CARGO_TARGET_DIR:-target}/debug/skills-edge"
