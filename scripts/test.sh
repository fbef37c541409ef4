#!/usr/bin/env bash
# Runs every test of the project: installs what it needs (scripts/setup.sh), then each step
# in scripts/test.d/ in order. A step that fails stops the run with its exit status.
set -euo pipefail
cd "$(dirname "$0")/.."
export CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_SEND_METRICS=false WRANGLER_HIDE_BANNER=true
export NO_UPDATE_NOTIFIER=1 CI="${CI:-1}"

start=$SECONDS
bash scripts/setup.sh
for step in scripts/test.d/*.sh; do
  s=$SECONDS
  echo "==> ${step##*/}" >&2
  bash "$step"
  echo "<== ${step##*/}: ok ($((SECONDS - s)) s)" >&2
done
echo "all tests passed ($((SECONDS - start)) s)" >&2
