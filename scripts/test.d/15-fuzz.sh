#!/usr/bin/env bash
# Fuzz smoke run: builds every fuzz target (fuzz/, cargo-fuzz with libFuzzer and
# AddressSanitizer on the stable toolchain) and runs each for a bounded time from its committed
# seeds (FUZZ_SECONDS, 20 by default). Any crash, failed property or sanitizer report fails the
# step and leaves the input in fuzz/artifacts/. Long runs: scripts/fuzz.sh TARGET SECONDS.
# FUZZ_JOBS targets run at once (default: the number of CPUs), each for the full
# FUZZ_SECONDS on a core of its own; after a failure the other runs finish, then the step fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${FUZZ_SECONDS:-20}"
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
bash scripts/fuzz.sh --build
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
      bash scripts/fuzz.sh "$t" "$seconds" || return 1
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
