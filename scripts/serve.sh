#!/usr/bin/env bash
# Serves the skills folder (SKILLS_DIR, default skills/) at http://127.0.0.1:${PORT:-8787}/mcp
# on real workerd (wrangler dev), with telemetry and update checks off: the Worker's pack, and
# the larger files as Static Assets (see scripts/build-worker.sh). On a fresh machine it first
# installs what it needs (scripts/setup.sh --no-browser) and builds the Worker.
# The build options go to scripts/build-worker.sh, with the meaning they have for every build:
# --inline-max BYTES, --strict, --skip-invalid, --sign PATH, --catalog-id ID, and SKILLS_STRICT=1,
# SKILLS_ON_INVALID=skip, SKILLS_SIGNING_KEY=PATH, SKILLS_CATALOG_ID=ID in the environment (e.g.
# `SKILLS_DIR=team-skills SKILLS_ON_INVALID=skip bash scripts/serve.sh`).
# Other arguments go to wrangler dev, e.g. `bash scripts/serve.sh --var PAGE_SIZE:10`.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true

build_args=()
dev_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --inline-max)
      [ $# -ge 2 ] || { echo "error: --inline-max needs a number of bytes" >&2; exit 2; }
      build_args+=(--inline-max "$2"); shift 2 ;;
    --strict | --skip-invalid) build_args+=("$1"); shift ;;
    --sign | --catalog-id)
      [ $# -ge 2 ] || { echo "error: $1 needs a value" >&2; exit 2; }
      build_args+=("$1" "$2"); shift 2 ;;
    *) dev_args+=("$1"); shift ;;
  esac
done

bash scripts/setup.sh --no-browser
bash scripts/build-worker.sh ${build_args[@]+"${build_args[@]}"}
port="${PORT:-8787}"
echo "serving http://127.0.0.1:$port/mcp (Ctrl-C stops)" >&2
exec node_modules/.bin/node node_modules/wrangler/bin/wrangler.js dev --ip 127.0.0.1 --port "$port" \
  ${dev_args[@]+"${dev_args[@]}"}
