#!/usr/bin/env bash
# The Worker benchmark on bare workerd (see bench.mjs): installs what it needs, builds, runs.
# Usage: bash benches/worker/bench.sh [--vs REV] [--no-build] [--rounds 3] [--seconds 5] [--warmup 1]
#          [--connections 8] [--json FILE] [--inline-max BYTES] [--crossover] [--only CASES]
#          [--workers IDS]   (see bench.mjs)
#   --vs REV  also run the inline Worker of REV (a commit, tag or branch of this repository) in
#             the same interleaved rounds, and print this Worker's ratios against it. REV is
#             checked out in a git worktree under ${TMPDIR:-/tmp} and built there by its own
#             scripts (kept between runs; remove it with `git worktree remove`). With
#             --workers, name `baseline` among them.
set -euo pipefail
cd "$(dirname "$0")/../.."
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--vs" ]; then
    [ $# -ge 2 ] || { echo "bench.sh: --vs needs a revision, for example --vs HEAD~1" >&2; exit 2; }
    commit=$(git rev-parse --verify --quiet "$2^{commit}") || {
      echo "bench.sh: $2 is not a commit of this repository" >&2
      exit 2
    }
    other=${TMPDIR:-/tmp}/skills-edge-bench-${commit:0:12}
    [ -d "$other" ] || git worktree add --detach "$other" "$commit" >/dev/null
    args+=(--baseline "$other")
    shift 2
  else
    args+=("$1")
    shift
  fi
done
bash scripts/setup.sh --no-browser
exec node_modules/.bin/node benches/worker/bench.mjs ${args[@]+"${args[@]}"}
