#!/usr/bin/env bash
# Fuzz smoke run: builds every fuzz target (fuzz/, cargo-fuzz with libFuzzer and
# AddressSanitizer on the stable toolchain) and runs each for a bounded time from its committed
# seeds (FUZZ_SECONDS, 20 by default). Any crash, failed property or sanitizer report fails the
# step and leaves the input in fuzz/artifacts/. Long runs: scripts/fuzz.sh TARGET SECONDS.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${FUZZ_SECONDS:-20}"
targets=(respond frontmatter host pack compile uri headers http_head archive index)

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
for t in "${targets[@]}"; do
  rm -rf "fuzz/target/smoke/$t"
  FUZZ_WORK_CORPUS="fuzz/target/smoke/$t" FUZZ_LOG="fuzz/target/smoke/$t.log" \
    bash scripts/fuzz.sh "$t" "$seconds"
done
