#!/usr/bin/env bash
# Installs wasm-bindgen-cli (wasm-bindgen and wasm-bindgen-test-runner) at the version of the
# `wasm-bindgen` pin in Cargo.toml, from the crate registry into cargo's bin folder, once per
# machine (about 90 s of two cores from clean, registry download aside). Nothing happens when
# it is installed. Two choices make that build about a quarter lighter (175 CPU-seconds where
# the defaults take 230, measured), with no effect on what the tests check:
# - no default features: they add rustls and ring (TLS with C code to compile), and the test
#   runner only talks plain HTTP to the chromedriver on this machine;
# - opt-level 1 for this install (CARGO_PROFILE_RELEASE_OPT_LEVEL): wasm-bindgen takes about
#   0.25 s on the package's 3 MB module either way (measured).
# One install at a time: scripts/test.sh starts it in the background before setup, and
# 20-npm.sh calls it again, which waits for that install and then finds the tool in place.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml

installed() { [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ]; }
installed && exit 0
cache="${SKILLS_EDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge}"
mkdir -p "$cache"
exec 9>"$cache/wasm-bindgen-cli.lock"
flock 9
installed && exit 0
# Not --locked: the CLI's own lockfile pins a crate version the registry mirror may lack.
CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features
installed || { echo "install-wasm-bindgen: wasm-bindgen $WASM_BINDGEN_VERSION is not on PATH after cargo install (is cargo's bin folder on PATH?)" >&2; exit 1; }
