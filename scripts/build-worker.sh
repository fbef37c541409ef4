#!/usr/bin/env bash
# Builds the Cloudflare Worker into worker/build/: the release wasm of the `skills-edge-worker`
# crate, its wasm-bindgen glue (--target web, loaded by worker/entry.mjs), then wasm-opt -Oz
# (binaryen from the npm registry); and its static assets, worker/build/assets/ (the inspector
# page, copied from the npm package's build when there is one). Needs the tools
# scripts/setup.sh installs.
# Usage: scripts/build-worker.sh   (NO_WASM_OPT=1 skips wasm-opt)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml
TARGET=wasm32-unknown-unknown
OUT=worker/build
WASM=${CARGO_TARGET_DIR:-target}/$TARGET/release/skills_edge_worker.wasm

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "error: wasm-bindgen $WASM_BINDGEN_VERSION is needed; run: bash scripts/setup.sh --no-browser" >&2
  exit 1
fi

cargo build --release --locked --target "$TARGET" -p skills-edge-worker
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
wasm-bindgen --target web --out-dir "$OUT.tmp" --no-typescript "$WASM"
if [ -z "${NO_WASM_OPT:-}" ]; then
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$OUT.tmp/skills_edge_worker_bg.wasm" -o "$OUT.tmp/skills_edge_worker_bg.opt.wasm"
  mv "$OUT.tmp/skills_edge_worker_bg.opt.wasm" "$OUT.tmp/skills_edge_worker_bg.wasm"
fi
# The skills inspector page (served at /inspector/ with INSPECTOR=on) from the npm package's
# build: its HTML (the import map pointed at ./lib/), module and styles, SkillsClient and the
# web build with its wasm. Without the package build the Worker answers 503 there.
mkdir -p "$OUT.tmp/assets"
if [ -f pkg/web/skills_edge_bg.wasm ]; then
  page="$OUT.tmp/assets/inspector"
  mkdir -p "$page/lib" "$page/web"
  sed 's#"skills-edge/client": "../lib/client-web.js"#"skills-edge/client": "./lib/client-web.js"#' \
    pkg/inspector/index.html > "$page/index.html"
  grep -q '"skills-edge/client": "./lib/client-web.js"' "$page/index.html" \
    || { echo "build-worker: the inspector page's import map was not found" >&2; exit 1; }
  cp pkg/inspector/inspector.js pkg/inspector/inspector.css "$page/"
  cp pkg/lib/client.js pkg/lib/client-web.js pkg/lib/transport.js "$page/lib/"
  cp pkg/web/skills_edge.js pkg/web/skills_edge_bg.wasm "$page/web/"
else
  echo "build-worker: pkg/web is not built (bash scripts/build-pkg.sh); the inspector page is left out" >&2
fi
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
raw=$(wc -c < "$OUT/skills_edge_worker_bg.wasm")
gz=$(gzip -9 -c "$OUT/skills_edge_worker_bg.wasm" | wc -c)
echo "worker: $OUT/skills_edge_worker_bg.wasm $raw bytes ($gz gzipped)" >&2
