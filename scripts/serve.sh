#!/usr/bin/env bash
# Serves the skills folder (SKILLS_DIR, default skills/) at http://127.0.0.1:${PORT:-8787}/mcp
# on real workerd (wrangler dev), with telemetry and update checks off: the Worker's pack, and
# the larger files as Static Assets (see scripts/build-worker.sh). On a fresh machine it first
# installs what it needs (scripts/setup.sh --no-browser) and builds the Worker.
# Extra arguments go to wrangler dev, e.g. `bash scripts/serve.sh --var PAGE_SIZE:10`.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true

bash scripts/setup.sh --no-browser
bash scripts/build-worker.sh
port="${PORT:-8787}"
echo "serving http://127.0.0.1:$port/mcp (Ctrl-C stops)" >&2
exec node_modules/.bin/node node_modules/wrangler/bin/wrangler.js dev --ip 127.0.0.1 --port "$port" "$@"
