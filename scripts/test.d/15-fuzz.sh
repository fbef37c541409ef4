#!/usr/bin/env bash
# Fuzz smoke run: builds every fuzz target (fuzz/, cargo-fuzz with libFuzzer and
# AddressSanitizer on the stable toolchain) and runs each for a bounded time from its committed
# seeds (FUZZ_SECONDS, 20 by default). Any crash, failed property or sanitizer report fails the
# step and leaves the input in fuzz/artifacts/. Long runs: scripts/fuzz.sh TARGET SECONDS.
# FUZZ_JOBS targets run at once (default: the number of CPUs), each for the full
# FUZZ_SECONDS; after a failure the other runs finish, then the step fails.
# --build-only builds the targets; --runs-only runs them (built already). scripts/test.sh builds
# them in their own step and runs them at the lowest priority beside 30-worker, whose tests
# mostly wait on their servers (TESTING.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

phase=${1:-}
case "$phase" in
  "" | --build-only | --runs-only) ;;
  *) echo "usage: 15-fuzz.sh [--build-only | --runs-only]" >&2; exit 2 ;;
esac
seconds="${FUZZ_SECONDS:-20}"
# FUZZ_NICE: the runs' niceness (0 by default; scripts/test.sh sets 19).
niceness="${FUZZ_NICE:-0}"
[[ "$niceness" =~ ^[0-9]+$ ]] || { echo "15-fuzz: FUZZ_NICE must be 0 to 19, not '$niceness'" >&2; exit 2; }
jobs="${FUZZ_JOBS:-$(nproc)}"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "15-fuzz: FUZZ_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
targets=(respond frontmatter host pack compile uri headers http_head sse reply client archive index auth decimal access json oms release search origin)

# Every target must be in the list above.
for f in fuzz/fuzz_targets/*.rs; do
  t=$(basename "$f" .rs)
  [[ " ${targets[*]} " == *" $t "* ]] || { echo "15-fuzz: $f is not in the smoke list" >&2; exit 1; }
done
# One build of all targets first (cargo builds them in parallel); each run then finds its
# target fresh.
if [[ "$phase" != --runs-only ]]; then
  bash scripts/fuzz.sh --build
fi
[[ "$phase" == --build-only ]] && exit 0
# Each run starts from the committed seeds alone (not from what long runs kept), so the step
# takes the same time in every checkout.
# Lane i runs targets i, i + jobs, ... one after another and stops at its first failure; the
# lanes run side by side.
lane() {
  local i
  for ((i = $1; i < ${#targets[@]}; i += jobs)); do
    local t=${targets[i]}
    rm -rf "fuzz/target/smoke/$t"
    FUZZ_WORK_CORPUS="fuzz/target/smoke/$t" FUZZ_LOG="fuzz/target/smoke/$t.log" \
      nice -n "$niceness" bash scripts/fuzz.sh "$t" "$seconds" || return 1
  done
}
pids=()
for ((l = 0; l < jobs && l < ${#targets[@]}; l++)); do
  lane "$l" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do
  wait "$pid" || failed=1
done
if [ "$failed" != 0 ]; then
  echo "15-fuzz: a fuzz target failed (its report is above; inputs in fuzz/artifacts/)" >&2
  exit 1
fi
