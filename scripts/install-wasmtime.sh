#!/usr/bin/env bash
# Installs wasmtime-cli 48.0.8 (the `wasmtime serve` component runtime) from the crate
# registry into the repository's .tools/ directory (git-ignored), idempotently: nothing is
# done when .tools/bin/wasmtime already reports that version. Only the features serving a
# wasi:http component needs are built (no pooling allocator, so serve it with
# `-O pooling-allocator=n`); a build from clean takes 10-15 minutes on two cores.
# Usage: scripts/install-wasmtime.sh   (prints the binary's path on stdout)
set -euo pipefail
cd "$(dirname "$0")/.."

WASMTIME_VERSION=48.0.8
root="$PWD/.tools"
bin="$root/bin/wasmtime"

# One install at a time (scripts/test.sh starts one in the background): a second caller waits
# for the first, then finds the binary in place.
mkdir -p "$root"
exec 9>"$root/wasmtime.lock"
flock 9

if [ "$("$bin" --version 2>/dev/null | awk '{print $2}')" != "$WASMTIME_VERSION" ]; then
  echo "install-wasmtime: building wasmtime-cli $WASMTIME_VERSION into $root (10-15 minutes)" >&2
  # These five features are the smallest set that compiles and serves: without `run` or
  # `component-model-async` the build fails.
  cargo install --root "$root" wasmtime-cli --version "$WASMTIME_VERSION" \
    --no-default-features --features run,serve,cranelift,component-model,component-model-async
fi

version=$("$bin" --version)
case "$version" in
  "wasmtime $WASMTIME_VERSION"*) ;;
  *) echo "install-wasmtime: $bin reports '$version', expected wasmtime $WASMTIME_VERSION" >&2; exit 1 ;;
esac
echo "$bin"
