#!/usr/bin/env bash
# The Rust crates and the native command: formatting, one rust-version, no HTTP client or TLS
# in the library's own dependencies (the command's crate, cli/, has them), lints with warnings
# denied on every target (the host; wasm32 with the `js` feature, and with `web-verifier` alone
# as the package's verifier module builds it; the Worker; the component crates are linted in
# 40-component.sh), the documentation with warnings denied on the same targets, every Rust test,
# every benchmark once on small inputs (criterion's test mode), then the Node tests that drive the built binary (tests/js/*.test.mjs: the official MCP SDK
# client over stdio, frontmatter parity with yaml@2).
set -euo pipefail
cd "$(dirname "$0")/../.."

W=wasm32-unknown-unknown
# No merge conflict markers in anything committed.
if git grep -nE '^(<<<<<<<|>>>>>>>)( |$)' -- . ':!*.png'; then
  echo "10-rust.sh: merge conflict markers above; resolve them" >&2
  exit 1
fi
# rustfmt over every workspace of the repository (the components', the rmcp judge's, the fuzz
# targets', the benchmarks'), here at the start so a formatting slip fails in seconds.
cargo fmt --all -- --check
for m in component/Cargo.toml tests/rmcp/Cargo.toml fuzz/Cargo.toml \
  benches/worker/loadgen/Cargo.toml benches/worker/empty-rs/Cargo.toml; do
  cargo fmt --all --check --manifest-path "$m"
done
# The crates over rmcp (skills-edge-rmcp and its example server) are linted, documented and
# tested in 32-rmcp.sh, in the rmcp judge's target directory, where rmcp and tokio are built
# anyway: excluded here, so this step's target directory never compiles them.
RMCP_CRATES="--exclude skills-edge-rmcp --exclude skills-edge-rmcp-example"
bash scripts/check-rust-version.sh
# The library without the command's network stack: a library user (default features, on the
# host and on wasm32) compiles no HTTP client and no TLS; those are the command's crate's
# (cli/, skills-edge-cli).
for target in host "$W"; do
  tree=$(cargo tree -p skills-edge -e normal --prefix none --format '{p}' \
    $([ "$target" = host ] || echo --target "$target"))
  found=$(echo "$tree" | awk '{print $1}' | sort -u |
    grep -xE 'ureq|ureq-proto|rustls|rustls-pki-types|rustls-webpki|webpki-roots|ring' || true)
  if [ -n "$found" ]; then
    echo "10-rust.sh: the library skills-edge ($target) depends on the command's network stack: $(echo $found)" >&2
    echo "  fix: keep them in cli/Cargo.toml (skills-edge-cli), not in the library's [dependencies]" >&2
    exit 1
  fi
  # Nor rmcp's async stack: that is the crate skills-edge-rmcp's (rmcp/).
  found=$(echo "$tree" | awk '{print $1}' | sort -u | grep -xE 'rmcp|tokio|hyper|reqwest' || true)
  if [ -n "$found" ]; then
    echo "10-rust.sh: the library skills-edge ($target) depends on rmcp's async stack: $(echo $found)" >&2
    echo "  fix: keep them in rmcp/Cargo.toml (skills-edge-rmcp), not in the library's [dependencies]" >&2
    exit 1
  fi
done
cargo clippy --locked --workspace $RMCP_CRATES --all-targets -- -D warnings
cargo clippy -p skills-edge --lib --target "$W" --features js -- -D warnings
# The npm package's verifier module (`skills-edge/verifier`): the host part of the exports alone.
# `-p skills-edge` on each of these: without it the workspace's default members are selected,
# and the command's crate turns `command` on, so no feature set was checked alone.
cargo clippy -p skills-edge --lib --target "$W" --no-default-features --features web-verifier -- -D warnings
cargo clippy --target "$W" -p skills-edge-worker -- -D warnings
# A host-only user of the crate (no embedded catalog) builds and lints too.
cargo clippy -p skills-edge --lib --no-default-features -- -D warnings
export RUSTDOCFLAGS="-D warnings"
cargo doc --no-deps --workspace $RMCP_CRATES --quiet
cargo doc --no-deps -p skills-edge --lib --target "$W" --features js --quiet
cargo doc --no-deps -p skills-edge --lib --target "$W" --no-default-features --features web-verifier --quiet
cargo doc --no-deps --target "$W" -p skills-edge-worker --quiet
unset RUSTDOCFLAGS
cargo test --locked --workspace $RMCP_CRATES
# Every benchmark once, in criterion's test mode (each routine run once, checked to finish),
# on small inputs: a bench that no longer runs fails here, not when somebody next measures.
# Measuring is `cargo bench` (docs/performance.md).
CLIENT_BENCH_ENTRIES=2000 CLIENT_BENCH_DIRECTORIES=16 CLIENT_BENCH_CHILDREN=200 \
  PACK_BENCH_SKILLS=200 SEARCH_BENCH_SKILLS=200 SCALE_SKILLS=200 TEXT_BENCH_MEMBERS=2000 \
  TEXT_BENCH_REPLY_MIB=1 cargo test --locked --workspace $RMCP_CRATES --bench '*'
# The binary the Rust tests built (scripts/native-bin.sh finds it fresh).
SKILLS_EDGE_BIN=$(bash scripts/native-bin.sh) node --test --test-timeout=300000 --test-force-exit tests/js/*.test.mjs
