#!/usr/bin/env bash
# Every crate of the project declares the same rust-version (the workspace members, the
# component workspace, the benchmark crates, the fuzz crate and the test crates with their own
# manifests). clippy's `incompatible_msrv` lint then checks the code against it. Prints the
# version; fails naming the manifests that differ or lack one.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$want" ] || { echo "check-rust-version: Cargo.toml has no rust-version" >&2; exit 1; }
bad=0
while IFS= read -r manifest; do
  line=$(grep -E '^rust-version' "$manifest" || true)
  case "$line" in
    "rust-version = \"$want\"" | "rust-version.workspace = true") ;;
    *) echo "check-rust-version: $manifest has ${line:-no rust-version}; the project's is $want" >&2; bad=1 ;;
  esac
done < <(git ls-files '*Cargo.toml')
[ "$bad" = 0 ] && echo "rust-version $want in every manifest"
exit "$bad"
