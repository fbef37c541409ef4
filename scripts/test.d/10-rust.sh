#!/usr/bin/env bash
# The Rust crate and its native command: formatting, lints, a warning-free wasm32 build of the
# library, every Rust test, then the Node tests that drive the built binary
# (tests/js/*.test.mjs, official MCP SDK client over stdio).
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo rustc --lib --target wasm32-unknown-unknown -- -D warnings
cargo test
cargo build --bin skills-edge
SKILLS_EDGE_BIN="${SKILLS_EDGE_BIN:-${CARGO_TARGET_DIR:-target}/debug/skills-edge}" node --test tests/js/*.test.mjs
