#!/usr/bin/env bash
# Installs what the build and the tests need, idempotently, from the crate registry, the npm
# registry, PyPI and Debian's repositories only.
# Usage: scripts/setup.sh [--no-browser] [--no-wasm-bindgen]
#   --no-browser       no Chromium (the browser tests' only need)
#   --no-wasm-bindgen  leave wasm-bindgen-cli to scripts/install-wasm-bindgen.sh (scripts/test.sh
#                      builds it in the background instead, and 20-npm.sh waits for it)
set -euo pipefail
cd "$(dirname "$0")/.."

need_browser=1
need_wasm_bindgen=1
for arg in "$@"; do
  case "$arg" in
    --no-browser) need_browser=0 ;;
    --no-wasm-bindgen) need_wasm_bindgen=0 ;;
    *) echo "usage: scripts/setup.sh [--no-browser] [--no-wasm-bindgen]" >&2; exit 2 ;;
  esac
done

for target in wasm32-unknown-unknown wasm32-wasip2; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
done
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed | grep -q '^clippy' || rustup component add clippy

# The installs below wait on different things (the CPU for wasm-bindgen-cli, Debian's, npm's
# and PyPI's registries for the others), so the downloads run beside the build. Each one's
# output goes to a log that is printed when it fails.
logs=$(mktemp -d "${TMPDIR:-/tmp}/skills-edge-setup.XXXXXX")
trap 'rm -rf "$logs"' EXIT
pids=()
names=()
# Runs "$@" in the background as NAME, its output in $logs/NAME.log.
background() {
  local name=$1; shift
  ( "$@" ) > "$logs/$name.log" 2>&1 &
  pids+=("$!")
  names+=("$name")
}

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  background npm-ci npm ci --no-audit --no-fund
fi

# Debian's packages, in one apt run (apt takes a lock): Chromium and ChromeDriver for the
# browser tests, bsdtar (libarchive-tools) and Info-ZIP's unzip for the archive differential
# test (tests/archive_corpus.rs), and Python's venv where it is missing. Then Python's
# securesystemslib (PyPI, pinned by hash in tests/py/requirements.txt), the independent DSSE
# verifier of signed skills (tests/py/verify_signed.py), and model-signing, the OpenSSF Model
# Signing command that judges skill.oms.sig (tests/oms.rs), in a venv in target/.
apt_packages=()
if [ "$need_browser" = 1 ] && ! { command -v chromium >/dev/null && command -v chromedriver >/dev/null; }; then
  apt_packages+=(chromium chromium-driver)
fi
command -v bsdtar >/dev/null || apt_packages+=(libarchive-tools)
command -v unzip >/dev/null || apt_packages+=(unzip)
python3 -c 'import venv, ensurepip' 2>/dev/null || apt_packages+=(python3 python3-venv)
install_debian_and_python() {
  if [ "${#apt_packages[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_packages[@]}"
  fi
  if ! target/py/bin/python -c 'import securesystemslib, model_signing._cli' 2>/dev/null; then
    rm -rf target/py
    python3 -m venv target/py
    target/py/bin/pip install -q --disable-pip-version-check --require-hashes \
      -r tests/py/requirements.txt
  fi
}
background debian-python install_debian_and_python

status=0
if [ "$need_wasm_bindgen" = 1 ]; then
  bash scripts/install-wasm-bindgen.sh || status=$?
fi

for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    echo "setup.sh: ${names[$i]}: done" >&2
  else
    rc=$?
    echo "setup.sh: ${names[$i]} failed (exit $rc); its output:" >&2
    cat "$logs/${names[$i]}.log" >&2
    status=$rc
  fi
done
exit "$status"
