#!/usr/bin/env bash
# Builds the WASI 0.2 components of the WIT worlds in wit/ (crates in component/):
#   build/component/skills-edge.wasm       world skills-edge:mcp/skills       (responder + verifier)
#   build/component/skills-edge-http.wasm  world skills-edge:mcp/skills-http  (wasi:http server)
# then shrinks their core modules with wasm-opt (through `jco opt`; NO_WASM_OPT=1 skips it)
# and prints their sizes, raw and gzip -9.
# Usage: scripts/build-component.sh [--debug]
# COMPONENT_OUT=DIR puts the components in DIR instead of build/component (the component
# tests build the HTTP world a second time over another skills folder, SKILLS_DIR; only the
# catalog and the component crates are compiled again).
set -euo pipefail
cd "$(dirname "$0")/.."

T=wasm32-wasip2
profile=release
[ "${1:-}" = "--debug" ] && profile=debug
rustup target list --installed | grep -qx "$T" || rustup target add "$T"

# component/ is a workspace of its own; its .cargo/config.toml puts artifacts in target/
# (CARGO_TARGET_DIR, when set, overrides that, relative to the repository root).
target_dir=$(realpath -m "${CARGO_TARGET_DIR:-target}")
flag=()
[ "$profile" = release ] && flag=(--release)
(cd component && CARGO_TARGET_DIR="$target_dir" cargo build --locked "${flag[@]}" --target "$T")

out=${COMPONENT_OUT:-build/component}
mkdir -p "$out"
jco=node_modules/.bin/jco
for pair in skills_edge_component:skills-edge skills_edge_http_component:skills-edge-http; do
  src="$target_dir/$T/$profile/${pair%%:*}.wasm"
  dst="$out/${pair##*:}.wasm"
  if [ -x "$jco" ] && [ -z "${NO_WASM_OPT:-}" ] && [ "$profile" = release ]; then
    # wasm-opt works on core modules; `jco opt` runs it on each module inside the component
    # (binaryen from node_modules) and reassembles the component.
    "$jco" opt "$src" -o "$dst.tmp" -q -- -Oz --strip-debug
    mv "$dst.tmp" "$dst"
  else
    cp "$src" "$dst"
  fi
done

for f in "$out"/skills-edge.wasm "$out"/skills-edge-http.wasm; do
  printf '%-40s %8d bytes raw, %8d bytes gzip -9\n' "$f" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
done
