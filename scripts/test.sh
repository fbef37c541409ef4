#!/usr/bin/env bash
# Runs every test of the project: installs what it needs (scripts/setup.sh), then each step
# in scripts/test.d/ in order. A step that fails stops the run with its exit status.
set -euo pipefail
cd "$(dirname "$0")/.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true
export NO_UPDATE_NOTIFIER=1 CI="${CI:-1}"

start=$SECONDS
bash scripts/setup.sh

# Tool and judge builds no step needs until late run in the background at the lowest priority,
# on the CPU the test steps leave idle (the end-to-end steps mostly wait on servers). The steps
# that need them call the same commands, which wait for these (a lock, or cargo's own) and then
# find the work done; a failure here resurfaces there, with its log.
mkdir -p target/prebuild
# A failing step ends the run: stop the background builds with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
prebuild() {
  local name=$1; shift
  ( nice -n 19 "$@" > "target/prebuild/$name.log" 2>&1 || echo "prebuild $name failed (see target/prebuild/$name.log)" >&2 ) &
}
prebuild wasmtime bash scripts/install-wasmtime.sh
prebuild rmcp env CARGO_TARGET_DIR="$(realpath -m "${CARGO_TARGET_DIR:-target}/rmcp")" \
  cargo test --locked --manifest-path tests/rmcp/Cargo.toml --no-run

for step in scripts/test.d/*.sh; do
  s=$SECONDS
  echo "==> ${step##*/}" >&2
  bash "$step"
  echo "<== ${step##*/}: ok ($((SECONDS - s)) s)" >&2
done
wait
echo "all tests passed ($((SECONDS - start)) s)" >&2
