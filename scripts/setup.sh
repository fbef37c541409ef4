#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently, from the crate registry, the npm
# registry and Debian's repositories only. Usage: scripts/setup.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml

need_browser=1
[ "${1:-}" = "--no-browser" ] && need_browser=0

for target in wasm32-unknown-unknown wasm32-wasip2; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
done
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed | grep -q '^clippy' || rustup component add clippy

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  # Not --locked: the CLI's own lockfile pins a crate version the registry mirror may lack.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ "$need_browser" = 1 ] && ! { command -v chromium >/dev/null && command -v chromedriver >/dev/null; }; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
