#!/usr/bin/env bash
# The Rust benchmarks of this checkout beside those of another revision, in one run: both
# builds' criterion benches (`cargo bench`), run in turn, round by round (every other round the
# other one first), and one table of the median times and of the median of the per-round
# ratios (this checkout / the other revision; below 1 is faster). A bench that exists on one
# side only is shown with a dash on the other.
#
# Usage: scripts/bench-vs.sh REV [--bench responder,client] [--rounds 3] [--seconds 3]
#   REV        a commit, tag or branch of this repository (for example the one before a change)
#   --bench    the bench targets to compare, comma-separated (default: responder,client)
#   --rounds   rounds per bench target (default 3)
#   --seconds  criterion's measurement time per benchmark (default 3; warm-up 1 s)
# The other revision is checked out in a git worktree under ${TMPDIR:-/tmp} and built in its own
# target directory there (kept between runs, so a second comparison with the same REV builds
# nothing); remove it with `git worktree remove`. Environment variables the benches read
# (CLIENT_BENCH_ENTRIES, ...) apply to both sides. Timings move with the machine's load: run
# it on a quiet machine, and read the ratios, which both sides share the load of.
set -euo pipefail
cd "$(dirname "$0")/.."

rev= benches=responder,client rounds=3 seconds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) benches=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    -*) echo "bench-vs.sh: unknown option $1 (see the usage at the top of the script)" >&2; exit 2 ;;
    *) rev=$1 ;;
  esac
  shift
done
if [ -z "$rev" ]; then
  echo "bench-vs.sh: name the revision to compare with, for example: scripts/bench-vs.sh HEAD~1" >&2
  exit 2
fi
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || {
  echo "bench-vs.sh: $rev is not a commit of this repository" >&2
  exit 2
}
other=${TMPDIR:-/tmp}/skills-edge-bench-${commit:0:12}
if [ ! -d "$other" ]; then
  git worktree add --detach "$other" "$commit" >/dev/null
fi

# Builds the bench targets of the checkout in $1 and prints each target's executable.
build() {
  local dir=$1 args=()
  for b in ${benches//,/ }; do
    if [ -f "$dir/benches/$b.rs" ]; then args+=(--bench "$b"); fi
  done
  if [ ${#args[@]} -eq 0 ]; then return; fi
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo bench --locked "${args[@]}" --no-run --message-format=json 2>/dev/null) |
    python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in m["target"]["kind"]:
        print(m["target"]["name"], m["executable"])'
}

echo "building the benches of this checkout and of $rev (${commit:0:12}) ..." >&2
here=$(build "$PWD")
there=$(build "$other")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "$rounds"); do
  for b in ${benches//,/ }; do
    h=$(echo "$here" | awk -v b="$b" '$1 == b {print $2}')
    t=$(echo "$there" | awk -v b="$b" '$1 == b {print $2}')
    sides=(here there)
    if [ $((round % 2)) -eq 0 ]; then sides=(there here); fi
    for side in "${sides[@]}"; do
      if [ "$side" = here ]; then exe=$h dir=$PWD; else exe=$t dir=$other; fi
      if [ -z "$exe" ]; then continue; fi
      echo "round $round/$rounds: $b ($side)" >&2
      (cd "$dir" && "$exe" --bench --noplot --warm-up-time 1 --measurement-time "$seconds" \
        >"$out/$side.$b.$round" 2>&1) || {
        echo "bench-vs.sh: the $b bench of the $side side failed; its output:" >&2
        tail -20 "$out/$side.$b.$round" >&2
        exit 1
      }
    done
  done
done

python3 - "$out" "$rev" <<'EOF'
import collections, glob, os, re, statistics, sys

out, rev = sys.argv[1], sys.argv[2]
UNITS = {"ps": 1e-12, "ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# times[side][bench id][round] = seconds (criterion's point estimate)
times = {"here": collections.defaultdict(dict), "there": collections.defaultdict(dict)}
for path in glob.glob(os.path.join(out, "*")):
    side, _, rnd = os.path.basename(path).split(".")
    name = None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^(\S.*?)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if m:
            name = m.group(1)
        else:
            m = re.match(r"^\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
            if not m or name is None:
                head = line.rstrip("\n")
                if head and not head[0].isspace() and not head.startswith(("Benchmarking", "Warning", "Found", "Gnuplot")):
                    name = head.strip()
                continue
        value, unit = m.group(m.lastindex - 1), m.group(m.lastindex)
        if name and unit in UNITS:
            times[side][name][rnd] = float(value) * UNITS[unit]
        name = None

def fmt(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-12:.3g} ps"

ids = sorted(set(times["here"]) | set(times["there"]))
width = max([len(i) for i in ids] + [9])
print(f"\n{'benchmark':<{width}}  {rev + ' (other)':>16}  {'this checkout':>14}  ratio")
for i in ids:
    h, t = times["here"].get(i, {}), times["there"].get(i, {})
    hm = fmt(statistics.median(h.values())) if h else "-"
    tm = fmt(statistics.median(t.values())) if t else "-"
    rounds = sorted(set(h) & set(t))
    ratio = f"x{statistics.median(h[r] / t[r] for r in rounds):.2f}" if rounds else "-"
    print(f"{i:<{width}}  {tm:>16}  {hm:>14}  {ratio}")
EOF
