#!/usr/bin/env bash
# The Worker benchmark on bare workerd (see bench.mjs): installs what it needs, builds, runs.
# Usage: bash benches/worker/bench.sh [--no-build] [--rounds 3] [--seconds 5] [--warmup 1] [--connections 8] [--json FILE]
#          [--inline-max BYTES] [--crossover] [--only CASES] [--workers IDS]   (see bench.mjs)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh --no-browser
exec node_modules/.bin/node benches/worker/bench.mjs "$@"
