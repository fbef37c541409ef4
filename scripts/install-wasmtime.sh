#!/usr/bin/env bash
# Installs wasmtime-cli 48.0.8 (the `wasmtime serve` component runtime) from the crate
# registry, idempotently, through scripts/install-tool.sh: built once per machine into the
# shared cache (${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge/, keyed by version and features)
# and linked as .tools/bin/wasmtime; nothing is built when the cache has it. Only the features
# serving a wasi:http component needs are built (no pooling allocator, so serve it with
# `-O pooling-allocator=n`); a build from clean takes 10-15 minutes on two cores.
# Usage: scripts/install-wasmtime.sh   (prints the binary's path on stdout)
#   WASMTIME_OPT_LEVEL=N builds wasmtime with that opt-level (cargo's release default is 3; a
#   lower one compiles faster and runs slower, with the same behaviour); it is part of the
#   cache key, so each level is built once. Unset: the level-3 build when the cache has it,
#   else level 1.
set -euo pipefail
cd "$(dirname "$0")/.."

WASMTIME_VERSION=48.0.8

# These five features are the smallest set that compiles and serves: without `run` or
# `component-model-async` the build fails.
features=(--no-default-features --features run,serve,cranelift,component-model,component-model-async)
# Unset WASMTIME_OPT_LEVEL: a build at cargo's release level (3) already in the cache is used;
# otherwise (a fresh machine) wasmtime is built at opt-level 1, which LLVM compiles with less
# work (TESTING.md has the measured figures) and which passes the same tests.
if [ -z "${WASMTIME_OPT_LEVEL:-}" ] \
  && ! INSTALL_TOOL_PROBE=1 bash scripts/install-tool.sh wasmtime-cli "$WASMTIME_VERSION" wasmtime "${features[@]}"; then
  WASMTIME_OPT_LEVEL=1
fi
opt=()
if [ -n "${WASMTIME_OPT_LEVEL:-}" ] && [ "$WASMTIME_OPT_LEVEL" != 3 ]; then
  [[ "$WASMTIME_OPT_LEVEL" =~ ^[0-3]$ ]] \
    || { echo "install-wasmtime: WASMTIME_OPT_LEVEL must be 0, 1, 2 or 3, not '$WASMTIME_OPT_LEVEL'" >&2; exit 2; }
  opt=(--config "profile.release.opt-level=$WASMTIME_OPT_LEVEL")
fi
bin=$(bash scripts/install-tool.sh wasmtime-cli "$WASMTIME_VERSION" wasmtime "${features[@]}" \
  ${opt[@]+"${opt[@]}"})

version=$("$bin" --version)
case "$version" in
  "wasmtime $WASMTIME_VERSION"*) ;;
  *) echo "install-wasmtime: $bin reports '$version', expected wasmtime $WASMTIME_VERSION" >&2; exit 1 ;;
esac
echo "$bin"
