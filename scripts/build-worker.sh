#!/usr/bin/env bash
# Builds the Cloudflare Worker into worker/build/:
#   skills_edge_worker_bg.wasm, skills_edge_worker.js
#       the release wasm of the `skills-edge-worker` crate (no catalog inside), its
#       wasm-bindgen glue (--target web, loaded by worker/entry.mjs), then wasm-opt -Oz
#       (binaryen from the npm registry);
#   catalog.pack, assets/
#       the skills folder (SKILLS_DIR, default skills/) packed by the native
#       `skills-edge pack --assets` (SKILLS_EDGE_BIN, or the debug build): every file larger
#       than the inline limit is left out of the pack and written into assets/ as two files
#       named by its SHA-256 (wrangler.toml serves that folder as Workers Static Assets, read
#       only through the Worker);
#   assets/inspector/
#       the skills inspector page (served at /inspector/ with INSPECTOR=on), copied from the npm
#       package's build when there is one.
# Changing skills rebuilds only the pack and the assets; the wasm does not depend on them.
# Needs the tools scripts/setup.sh installs.
# Usage: scripts/build-worker.sh [--inline-max BYTES] [--strict] [--skip-invalid]
#                                [--sign PATH [--catalog-id ID]]
#        scripts/build-worker.sh --runtime DIR
#   --inline-max BYTES  files up to BYTES stay in the pack (default: skills-edge pack's,
#                       see `skills-edge --help`); 0 makes every non-empty file an asset
#   --strict, --skip-invalid, and SKILLS_STRICT=1, SKILLS_ON_INVALID=skip in the environment:
#                       as for the build (build.rs); `skills-edge pack` reads them, from the
#                       one place every build reads them (src/options.rs)
#   --oms-sign PATH, and SKILLS_OMS_KEY=PATH in the environment: every skill also gets an
#                       OpenSSF Model Signing signature, skill.oms.sig (`skills-edge keygen
#                       --oms`; docs/signing.md)
#   --sign PATH, --catalog-id ID, and SKILLS_SIGNING_KEY=PATH, SKILLS_CATALOG_ID=ID in the
#                       environment: sign every skill with the secret key in PATH
#                       (`skills-edge keygen`); the Worker then serves signed skills (envelopes
#                       in every entry, {name}.dsse.json and keys.json in the mirror). Only the
#                       signatures and the public key reach worker/build/, never the key
#   --runtime DIR       only the Worker without a catalog, for the npm package's
#                       `skills-edge worker` (scripts/build-pkg.sh): DIR/entry.mjs,
#                       DIR/skills.mjs (the Worker as a handler, for AUTH_MODE provider),
#                       DIR/build/ (the wasm and its glue), DIR/wrangler.toml (this
#                       repository's, the template of the projects it writes) and
#                       DIR/versions.json (the wrangler version those projects pin: the
#                       one package-lock.json installs here)
#   NO_WASM_OPT=1 skips wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml
TARGET=wasm32-unknown-unknown
OUT=worker/build
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
WASM="$TARGET_DIR/$TARGET/release/skills_edge_worker.wasm"
SKILLS="${SKILLS_DIR:-skills}"

pack_args=()
runtime=
usage="usage: scripts/build-worker.sh [--inline-max BYTES] [--strict] [--skip-invalid] [--sign PATH [--catalog-id ID]] | --runtime DIR"
while [ $# -gt 0 ]; do
  case "$1" in
    --inline-max)
      [ $# -ge 2 ] || { echo "error: --inline-max needs a number of bytes" >&2; exit 2; }
      pack_args+=(--inline-max "$2"); shift 2 ;;
    --strict | --skip-invalid) pack_args+=("$1"); shift ;;
    --sign | --catalog-id | --oms-sign)
      [ $# -ge 2 ] || { echo "error: $1 needs a value" >&2; exit 2; }
      pack_args+=("$1" "$2"); shift 2 ;;
    --runtime)
      [ $# -ge 2 ] || { echo "error: --runtime needs a folder" >&2; exit 2; }
      runtime=$2; shift 2 ;;
    *) echo "error: unknown argument $1 ($usage)" >&2; exit 2 ;;
  esac
done
if [ -n "$runtime" ] && [ ${#pack_args[@]} -gt 0 ]; then
  echo "error: --runtime builds no catalog: give it alone ($usage)" >&2; exit 2
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "error: wasm-bindgen $WASM_BINDGEN_VERSION is needed; run: bash scripts/setup.sh --no-browser" >&2
  exit 1
fi

cargo build --release --locked --target "$TARGET" -p skills-edge-worker
if [ -n "$runtime" ]; then
  OUT=$runtime/build
else
  # The native command packs the folder: SKILLS_EDGE_BIN when set (the tests pass the binary
  # their Rust step built), else the debug build (packing needs no optimised build, and the
  # debug one is what `cargo test` and `cargo build` already made). It is built without
  # SKILLS_DIR and the build options, so choosing another folder or option does not rebuild
  # it (its own embedded catalog is always skills/, compiled with the defaults); the pack
  # command reads them.
  packer=${SKILLS_EDGE_BIN:-}
  if [ -z "$packer" ]; then
    env -u SKILLS_DIR -u SKILLS_STRICT -u SKILLS_ON_INVALID -u SKILLS_SIGNING_KEY -u SKILLS_CATALOG_ID \
      cargo build --locked -p skills-edge-cli
    packer="$TARGET_DIR/debug/skills-edge"
  fi
fi
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
# The glue and the optimised wasm depend only on cargo's wasm (and on NO_WASM_OPT): they are
# kept in the target folder under its SHA-256, so the npm package's build (--runtime) and the
# Worker's (30-worker.sh, the README walks) run wasm-bindgen and wasm-opt once per wasm.
# --low-memory-unused: see scripts/build-pkg.sh (the wasm is linked stack first, so nothing but an
# exhausted stack touches the lowest kilobyte). The flags are part of the cache key.
opt_flags=(-Oz --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)
glue="$TARGET_DIR/worker-glue/$( (sha256sum "$WASM" | cut -c1-64; echo "${opt_flags[*]}") | sha256sum | cut -c1-64)${NO_WASM_OPT:+-noopt}"
if [ ! -f "$glue/skills_edge_worker_bg.wasm" ]; then
  rm -rf "$glue.tmp" && mkdir -p "$glue.tmp"
  wasm-bindgen --target web --out-dir "$glue.tmp" --no-typescript "$WASM"
  if [ -z "${NO_WASM_OPT:-}" ]; then
    node_modules/.bin/wasm-opt "${opt_flags[@]}" \
      "$glue.tmp/skills_edge_worker_bg.wasm" -o "$glue.tmp/skills_edge_worker_bg.opt.wasm"
    mv "$glue.tmp/skills_edge_worker_bg.opt.wasm" "$glue.tmp/skills_edge_worker_bg.wasm"
  fi
  rm -rf "$glue" && mv "$glue.tmp" "$glue"
fi
cp -R "$glue"/. "$OUT.tmp/"
if [ -n "$runtime" ]; then
  rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
  cp worker/entry.mjs "$runtime/entry.mjs"
  cp worker/skills.mjs "$runtime/skills.mjs"
  cp wrangler.toml "$runtime/wrangler.toml"
  wrangler_version=$(node -p 'require("./node_modules/wrangler/package.json").version')
  printf '{\n  "wrangler": "%s"\n}\n' "$wrangler_version" > "$runtime/versions.json"
  raw=$(wc -c < "$OUT/skills_edge_worker_bg.wasm")
  gz=$(gzip -9 -c "$OUT/skills_edge_worker_bg.wasm" | wc -c)
  echo "worker: $OUT/skills_edge_worker_bg.wasm $raw bytes ($gz gzipped), no catalog (wrangler $wrangler_version)" >&2
  exit 0
fi
"$packer" pack "$SKILLS" --assets "$OUT.tmp/assets" -o "$OUT.tmp/catalog.pack" \
  ${pack_args[@]+"${pack_args[@]}"}
# wrangler needs the folder even when every file is in the pack.
mkdir -p "$OUT.tmp/assets"
# The skills inspector page (served at /inspector/ with INSPECTOR=on) from the npm package's
# build: every file of the package's `inspectorFiles()` (INSPECTOR_FILES of src/http/endpoint.rs, crate-private,
# the one list of what the Worker serves there), which are its HTML (the import map pointed at ./lib/), module and styles
# (pkg/inspector/), SkillsClient (pkg/lib/) and the web build with its wasm (pkg/web/). Without
# the package build the Worker answers 503 there.
if [ -f pkg/web/skills_edge_bg.wasm ]; then
  page="$OUT.tmp/assets/inspector"
  files=$(node --input-type=module \
    -e 'import { inspectorFiles } from "skills-edge"; for (const [f] of inspectorFiles()) console.log(f);')
  case "$files" in
    *index.html*) ;;
    *) echo "build-worker: the npm package's inspectorFiles() does not list index.html" >&2; exit 1 ;;
  esac
  for f in $files; do
    mkdir -p "$(dirname "$page/$f")"
    case "$f" in
      index.html)
        sed 's#"skills-edge/client": "../lib/client-web.js"#"skills-edge/client": "./lib/client-web.js"#' \
          pkg/inspector/index.html > "$page/index.html"
        grep -q '"skills-edge/client": "./lib/client-web.js"' "$page/index.html" \
          || { echo "build-worker: the inspector page's import map was not found" >&2; exit 1; } ;;
      lib/* | web/*) cp "pkg/$f" "$page/$f" ;;
      *) cp "pkg/inspector/$f" "$page/$f" ;;
    esac
  done
else
  echo "build-worker: pkg/web is not built (bash scripts/build-pkg.sh); the inspector page is left out" >&2
fi
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
raw=$(wc -c < "$OUT/skills_edge_worker_bg.wasm")
gz=$(gzip -9 -c "$OUT/skills_edge_worker_bg.wasm" | wc -c)
packraw=$(wc -c < "$OUT/catalog.pack")
packgz=$(gzip -9 -c "$OUT/catalog.pack" | wc -c)
echo "worker: $OUT/skills_edge_worker_bg.wasm $raw bytes ($gz gzipped), $OUT/catalog.pack $packraw bytes ($packgz gzipped)" >&2
