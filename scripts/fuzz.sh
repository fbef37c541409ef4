#!/usr/bin/env bash
# Runs one fuzz target (fuzz/fuzz_targets/TARGET.rs) for SECONDS seconds with libFuzzer and
# AddressSanitizer, on the stable toolchain. Usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER ARGS…]
#
# * Installs cargo-fuzz when it is missing (crate registry only; scripts/install-tool.sh: built
#   once per machine into a shared cache, linked as .tools/bin/cargo-fuzz).
# * Builds with optimisations plus debug assertions and overflow checks (`-O -a`), in fuzz/target.
# * Reads the committed seeds in fuzz/corpus/TARGET and keeps what it finds in
#   fuzz/target/corpus/TARGET (not committed; FUZZ_WORK_CORPUS names another directory), so
#   long runs resume where they stopped.
# * Prints executions, exec/s, coverage (cov, ft) and corpus size from libFuzzer's final
#   statistics; the whole log is in fuzz/target/logs/TARGET.log (or FUZZ_LOG).
# * A crash (a failed property, a panic, a sanitizer report, a timeout) leaves its input in
#   fuzz/artifacts/TARGET/ and makes the script fail. Reproduce it with
#   `RUSTC_BOOTSTRAP=1 .tools/bin/cargo-fuzz run -O -a TARGET fuzz/artifacts/TARGET/<file>`.
#
# `scripts/fuzz.sh --build` only installs cargo-fuzz and builds every target;
# `scripts/fuzz.sh --install` only installs cargo-fuzz.
#
# FUZZ_SANITIZER=none builds without AddressSanitizer (cargo-fuzz's `-s none`), two to four
# times faster; the code under test is safe Rust, so the sanitizer mostly guards the C++ of
# libFuzzer itself. The smoke step keeps the default, `address`.
#
# FUZZ_TRACE_COMPARES=0 builds without comparison tracing (cargo-fuzz's `--no-trace-compares`),
# in fuzz/target/ntc so the default build stays: about twice the rate where the comparison
# callbacks dominate (the `host` target), at the cost of libFuzzer's guidance past exact
# comparisons. The smoke step keeps comparison tracing.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2

build_only=0 install_only=0
[ "${1:-}" = "--build" ] && build_only=1
[ "${1:-}" = "--install" ] && install_only=1 build_only=1
if [ "$build_only" = 0 ] && [ $# -lt 2 ]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER ARGS...]" >&2
  echo "targets: $(cd fuzz/fuzz_targets && ls ./*.rs | sed 's|^\./||; s|\.rs$||' | tr '\n' ' ')" >&2
  exit 2
fi
target=${1:-}
seconds=${2:-0}
shift "$(($# < 2 ? $# : 2))"
if [ "$build_only" = 0 ] && [ ! -f "fuzz/fuzz_targets/$target.rs" ]; then
  echo "scripts/fuzz.sh: no fuzz target $target (fuzz/fuzz_targets/$target.rs)" >&2
  exit 2
fi

cargo_fuzz=$(bash scripts/install-tool.sh cargo-fuzz "$CARGO_FUZZ_VERSION" cargo-fuzz --locked)
if [ "$("$cargo_fuzz" --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  echo "scripts/fuzz.sh: $cargo_fuzz is not cargo-fuzz $CARGO_FUZZ_VERSION" >&2
  exit 1
fi
export PATH="$(dirname "$cargo_fuzz"):$PATH"
[ "$install_only" = 1 ] && exit 0
# cargo-fuzz needs nightly flags (-Zsanitizer); the stable compiler accepts them with this.
export RUSTC_BOOTSTRAP=1
# The fuzz crate builds in its own target dir (fuzz/target), never in the library's.
unset CARGO_TARGET_DIR

if [ "$build_only" = 1 ]; then
  exec cargo fuzz build -O -a
fi

case "$target" in
  respond | pack) dict=fuzz/dict/jsonrpc.dict ;;
  frontmatter | compile) dict=fuzz/dict/yaml.dict ;;
  host) dict=fuzz/dict/jsonrpc.dict ;;
  http_head | headers | uri) dict=fuzz/dict/http.dict ;;
  sse | reply) dict=fuzz/dict/client.dict ;;
  auth) dict=fuzz/dict/auth.dict ;;
  decimal) dict=fuzz/dict/decimal.dict ;;
  json) dict=fuzz/dict/jsonrpc.dict ;;
  *) dict= ;;
esac

build=(-O -a -s "${FUZZ_SANITIZER:-address}")
if [ "${FUZZ_TRACE_COMPARES:-1}" = 0 ]; then
  build+=(--no-trace-compares --target-dir fuzz/target/ntc)
fi
cargo fuzz build "${build[@]}" "$target"

work="${FUZZ_WORK_CORPUS:-fuzz/target/corpus/$target}"
logs=fuzz/target/logs
mkdir -p "$work" "$logs" "fuzz/artifacts/$target"
log="${FUZZ_LOG:-$logs/$target.log}"
before=$(find "$work" -type f | wc -l)

args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
[ -n "$dict" ] && args+=(-dict="$dict")
start=$SECONDS
status=0
cargo fuzz run "${build[@]}" "$target" "$work" "fuzz/corpus/$target" -- "${args[@]}" "$@" >"$log" 2>&1 || status=$?
elapsed=$((SECONDS - start))

done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
[ -z "$done_line" ] && done_line=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")
corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$done_line")
after=$(find "$work" -type f | wc -l)

echo "fuzz $target (sanitizer ${FUZZ_SANITIZER:-address}, trace compares ${FUZZ_TRACE_COMPARES:-1}): ${runs:-?} executions in ${elapsed} s (${rate:-?} exec/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} (${after} kept in $work, ${before} before)"
if [ "$status" -ne 0 ]; then
  echo "fuzz $target FAILED (exit $status); the log's last lines:" >&2
  grep -E "panicked|ERROR|SUMMARY|assert|Test unit written" "$log" | head -20 >&2 || true
  tail -30 "$log" >&2
  echo "inputs that failed are in fuzz/artifacts/$target/; full log: $log" >&2
  exit "$status"
fi
