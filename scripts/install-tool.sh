#!/usr/bin/env bash
# Installs a command-line tool from the crate registry (`cargo install`) into a cache shared by
# every clone on the machine, and links it into the repository's .tools/bin/ (git-ignored).
# Usage: scripts/install-tool.sh CRATE VERSION BIN [CARGO INSTALL ARGS...]
#   Prints the path of .tools/bin/BIN on stdout.
#
# The cache directory is ${SKILLS_EDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge}, one
# folder per crate, version and install arguments (CRATE-VERSION-HASH), so a second clone, a
# worktree or a `git clean -fdx` finds the tool built, while a fresh machine builds it once.
# The tool built this way is cargo-fuzz (scripts/fuzz.sh). One install of a folder at a time: a second caller (scripts/test.sh starts
# them in the background) waits for the first, then finds the binary in place.
# With INSTALL_TOOL_PROBE=1 it builds and links nothing: exit status 0 when the cache has the
# tool built for these arguments, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 3 ]; then
  echo "usage: scripts/install-tool.sh CRATE VERSION BIN [CARGO INSTALL ARGS...]" >&2
  exit 2
fi
crate=$1 version=$2 bin=$3
shift 3

cache="${SKILLS_EDGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skills-edge}"
key=$(printf '%s\n' "$crate" "$version" "$@" | sha256sum | cut -c1-12)
root="$cache/$crate-$version-$key"
# INSTALL_TOOL_PROBE=1: only say (exit status 0 or 1) whether the cache has the tool built.
if [ -n "${INSTALL_TOOL_PROBE:-}" ]; then
  [ -x "$root/bin/$bin" ]
  exit
fi
mkdir -p "$root"
exec 9>"$root/.lock"
flock 9

if [ ! -x "$root/bin/$bin" ]; then
  echo "install-tool: building $crate $version into $root" >&2
  cargo install --root "$root" "$crate" --version "$version" "$@"
fi
# The repository's own path to the tool (the README's commands and the tests' defaults).
mkdir -p .tools/bin
ln -sfn "$root/bin/$bin" ".tools/bin/$bin"
echo "$PWD/.tools/bin/$bin"
