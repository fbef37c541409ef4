#!/usr/bin/env bash
# Builds the npm package in pkg/: the release wasm with the `js` feature, the wasm-bindgen
# glue for Node (pkg/node, CommonJS) and for browsers and bundlers (pkg/web, ES module with an
# explicit init), and one .wasm for both (pkg/web), shrunk with wasm-opt -Oz, without the
# producers and target-features custom sections, which
# no runtime reads (npm binaryen; Debian's is too old). Then the prebuilt Worker for `skills-edge worker` (pkg/worker/), built
# by scripts/build-worker.sh --runtime, the one recipe of the Worker's wasm. The hand-written ES module entry points in pkg/lib (the async verifier
# functions) import the glue from there; nothing is copied.
#
# Then the verifier module, `skills-edge/verifier` (pkg/verifier/): the library with the
# `web-verifier` feature alone and no default features (entry validation, the verifier
# functions, SHA-256 and SkillHost; no embedded skills, server, compiler, client or command), in
# the `web-verifier` profile (the release profile at opt-level "z", Cargo.toml), with the same
# target feature, the same wasm-bindgen and wasm-opt steps, and its own Node and web glue
# (pkg/verifier/node, pkg/verifier/web; one .wasm, in web/).
#
# The wasm is built with the `simd128` target feature, which every runtime the package supports
# has: Node >= 20, Chromium, Cloudflare Workers (workerd), and Firefox 89+, Safari 16.4+, Deno and
# Bun. sha2 then compiles its WebAssembly SIMD SHA-256, 1.4x its scalar one (and 1.4x
# hash-wasm), and the module is 13 KB smaller without the unrolled scalar rounds
# (docs/performance.md). The feature is given for this target only, through
# CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS; a RUSTFLAGS of the caller would replace it, so
# it is refused.
# Set NO_WASM_OPT=1 to skip wasm-opt. Prints the .wasm size raw and gzipped.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml
TARGET=wasm32-unknown-unknown
TARGET_DIR="${CARGO_TARGET_DIR:-target}"
WASM="$TARGET_DIR/$TARGET/release/skills_edge.wasm"
VERIFIER_WASM="$TARGET_DIR/$TARGET/web-verifier/skills_edge.wasm"

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "build-pkg: wasm-bindgen $WASM_BINDGEN_VERSION is required (run scripts/setup.sh)" >&2
  exit 1
fi

if [ -n "${RUSTFLAGS:-}" ]; then
  echo "build-pkg: RUSTFLAGS is set and would drop the simd128 target feature; unset it" >&2
  exit 1
fi
# The caller's own wasm flags, for the Worker's build at the end (unset stays unset).
worker_env=(env -u CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS)
if [ -n "${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS+set}" ]; then
  worker_env=(env "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS")
fi
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 ${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-}"

# The library is an rlib; ask for the cdylib wasm-bindgen needs for this build only.
cargo rustc --release --target "$TARGET" --features js --lib --crate-type cdylib
cargo rustc --profile web-verifier --target "$TARGET" --no-default-features --features web-verifier \
  --lib --crate-type cdylib

WASM_OPT=node_modules/.bin/wasm-opt
if [ -z "${NO_WASM_OPT:-}" ] && [ ! -x "$WASM_OPT" ]; then
  echo "build-pkg: $WASM_OPT is missing (run npm ci)" >&2
  exit 1
fi

# glue WASM DIR NAME [WASM-OPT FLAGS]: the wasm-bindgen glue of WASM for Node (DIR/node,
# CommonJS) and for browsers and bundlers (DIR/web), its files named NAME, and the one .wasm both
# load, in DIR/web, shrunk with wasm-opt -Oz and the flags given.
glue() {
  local wasm=$1 dir=$2 name=$3
  local extra=("${@:4}")
  rm -rf "$dir/node" "$dir/web"
  wasm-bindgen --target nodejs --out-dir "$dir/node" --out-name "$name" "$wasm"
  wasm-bindgen --target web --out-dir "$dir/web" --out-name "$name" "$wasm"
  guard "$dir/node/$name.js" "$dir/web/$name.js"

  # The package is "type": "module"; the Node glue is CommonJS.
  printf '{\n  "type": "commonjs"\n}\n' > "$dir/node/package.json"

  # Both targets emit the same .wasm: ship it once, in web/, and point the Node glue at it.
  cmp -s "$dir/node/${name}_bg.wasm" "$dir/web/${name}_bg.wasm" \
    || { echo "build-pkg: the node and web .wasm files of $dir differ" >&2; exit 1; }
  rm "$dir/node/${name}_bg.wasm"
  # The *_bg.wasm.d.ts files describe the raw exports for the bundler target; nothing here uses them.
  rm "$dir/node/${name}_bg.wasm.d.ts" "$dir/web/${name}_bg.wasm.d.ts"
  grep -q "^const wasmPath = \`\${__dirname}/${name}_bg.wasm\`;\$" "$dir/node/$name.js" \
    || { echo "build-pkg: unexpected wasm path in $dir/node/$name.js" >&2; exit 1; }
  sed -i "s|^const wasmPath = \`\${__dirname}/${name}_bg.wasm\`;\$|const wasmPath = \`\${__dirname}/../web/${name}_bg.wasm\`;|" \
    "$dir/node/$name.js"

  local f=$dir/web/${name}_bg.wasm
  # --low-memory-unused lets wasm-opt fold a constant under 1024 added to an address into the
  # access's offset: rustc links the wasm32 targets stack first (the stack pointer starts at
  # 1 MiB, the data above it), so the lowest kilobyte is touched only by a stack about to run
  # out, whose accesses then trap where they would wrap to address 0. It takes about 1 KB off the
  # verifier module gzipped.
  if [ -z "${NO_WASM_OPT:-}" ]; then
    "$WASM_OPT" -Oz "${extra[@]}" --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
      "$f" -o "$f.tmp"
    mv "$f.tmp" "$f"
  fi

  # The raw wasm exports listed in the web build's `InitOutput` are typed `any` by wasm-bindgen;
  # they are internal (externref values), so declare them `unknown`.
  sed -i -E '/^ *readonly [A-Za-z0-9_]+: \(/ s/\bany\b/unknown/g' "$dir/web/$name.d.ts"
  # The classes declare `[Symbol.dispose]`; make the declarations self-contained for projects
  # whose `lib` predates explicit resource management.
  for d in "$dir/node/$name.d.ts" "$dir/web/$name.d.ts"; do
    sed -i '1i /// <reference lib="esnext.disposable" />' "$d"
  done
}

# guard GLUE...: a method called on a freed object (after free() or a `using` block), or with a
# `this` that is not an instance, would enter the wasm with a null pointer and throw from inside
# it; exceptions thrown through the wasm frames leave its stack pointer unrestored, and enough of
# them trap the instance. Check the pointer in JavaScript, before the call, at every method call
# site.
guard() {
  local g sites classes
  for g in "$@"; do
    sites=$(grep -cE 'wasm\.[a-z0-9]+_[A-Za-z0-9_]+\(this\.__wbg_ptr[,)]' "$g" || true)
    sed -i -E 's/(wasm\.([a-z0-9]+)_[A-Za-z0-9_]+)\(this\.__wbg_ptr([,)])/\1(__skillsEdgeLive(this, "\2")\3/g' "$g"
    # The exported classes, by the lowercase prefix of their wasm functions.
    classes=$(sed -n -E 's/^(export )?class ([A-Za-z0-9_]+) .*/\2/p' "$g" | awk '{ printf "    %s: () => %s,\n", tolower($0), $0 }')
    cat >> "$g" <<JS

const __skillsEdgeClasses = {
$classes
};

/**
 * The object's wasm pointer when it is a live instance of the class the method belongs to, or
 * a SkillsEdgeError (invalid-argument) before any wasm runs.
 */
function __skillsEdgeLive(self, prefix) {
    const cls = __skillsEdgeClasses[prefix] && __skillsEdgeClasses[prefix]();
    const ptr = self instanceof cls ? self.__wbg_ptr : undefined;
    if (typeof ptr === "number" && ptr !== 0) return ptr;
    const what = ptr === 0 ? "this object was freed (free() or the end of a using block); make a new one" : "the method was called on something that is not one";
    const e = new Error(\`\${cls ? cls.name : prefix}: \${what}\`);
    e.name = "SkillsEdgeError";
    e.code = "invalid-argument";
    throw e;
}
JS
    if [ "$sites" -eq 0 ] || grep -qE 'wasm\.[a-z0-9_]+\(this\.__wbg_ptr[,)]' "$g"; then
      echo "build-pkg: the freed-object guard did not apply to $g ($sites call sites)" >&2
      exit 1
    fi
  done
}

# The verifier module is run through -Oz until it no longer shrinks (--converge): it is held to
# a size bound (150,000 bytes gzipped, tests/js/pkg/verifier-module.test.mjs) and small, so the
# passes after the first take seconds. The main module is not: on its 2.3 MB those passes took
# 90 s of CPU for 0.2 % of its size (4 KB raw, measured).
glue "$WASM" pkg skills_edge
glue "$VERIFIER_WASM" pkg/verifier skills_edge_verifier --converge

# The license texts, from the repository's root (npm publishes only files inside pkg/).
cp LICENSE-MIT LICENSE-APACHE pkg/

# A declaration file must never fall back to `any` in the public API.
for d in pkg/node/skills_edge.d.ts pkg/web/skills_edge.d.ts pkg/lib/*.d.ts \
  pkg/verifier/node/skills_edge_verifier.d.ts pkg/verifier/web/skills_edge_verifier.d.ts; do
  if grep -nE '(:|<|\||\()\s*any\b|\bany\[\]' "$d"; then
    echo "build-pkg: $d mentions \`any\`" >&2
    exit 1
  fi
done

for f in pkg/web/skills_edge_bg.wasm pkg/verifier/web/skills_edge_verifier_bg.wasm; do
  raw=$(wc -c < "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  echo "build-pkg: $f $raw bytes, $gz bytes gzip -9" >&2
done

# The prebuilt Worker (`npx skills-edge worker`), with the caller's wasm flags: the Worker's
# wasm is the one scripts/build-worker.sh builds, so cargo builds it once for both.
"${worker_env[@]}" bash scripts/build-worker.sh --runtime pkg/worker
