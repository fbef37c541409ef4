#!/usr/bin/env bash
# Builds the npm package in pkg/: the release wasm with the `js` feature, the wasm-bindgen
# glue for Node (pkg/node, CommonJS) and for browsers and bundlers (pkg/web, ES module with an
# explicit init), and one .wasm for both (pkg/web), shrunk with wasm-opt -Oz (npm binaryen;
# Debian's is too old). Then the prebuilt Worker for `skills-edge worker` (pkg/worker/), built
# by scripts/build-worker.sh --runtime, the one recipe of the Worker's wasm. The hand-written ES module entry points in pkg/lib (the async verifier
# functions) import the glue from there; nothing is copied.
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

rm -rf pkg/node pkg/web
wasm-bindgen --target nodejs --out-dir pkg/node "$WASM"
wasm-bindgen --target web --out-dir pkg/web "$WASM"
# A method called on a freed object (after free() or a `using` block), or with a `this` that is
# not an instance, would enter the wasm with a null pointer and throw from inside it; exceptions
# thrown through the wasm frames leave its stack pointer unrestored, and enough of them trap
# the instance. Check the pointer in JavaScript, before the call, at every method call site.
for g in pkg/node/skills_edge.js pkg/web/skills_edge.js; do
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

# The license texts, from the repository's root (npm publishes only files inside pkg/).
cp LICENSE-MIT LICENSE-APACHE pkg/

# The package is "type": "module"; the Node glue is CommonJS.
printf '{\n  "type": "commonjs"\n}\n' > pkg/node/package.json

# Both targets emit the same .wasm: ship it once, in web/, and point the Node glue at it.
cmp -s pkg/node/skills_edge_bg.wasm pkg/web/skills_edge_bg.wasm \
  || { echo "build-pkg: the node and web .wasm files differ" >&2; exit 1; }
rm pkg/node/skills_edge_bg.wasm
# The *_bg.wasm.d.ts files describe the raw exports for the bundler target; nothing here uses them.
rm pkg/node/skills_edge_bg.wasm.d.ts pkg/web/skills_edge_bg.wasm.d.ts
grep -q '^const wasmPath = `${__dirname}/skills_edge_bg.wasm`;$' pkg/node/skills_edge.js \
  || { echo "build-pkg: unexpected wasm path in pkg/node/skills_edge.js" >&2; exit 1; }
sed -i 's|^const wasmPath = `${__dirname}/skills_edge_bg.wasm`;$|const wasmPath = `${__dirname}/../web/skills_edge_bg.wasm`;|' \
  pkg/node/skills_edge.js

WASM_OPT=node_modules/.bin/wasm-opt
f=pkg/web/skills_edge_bg.wasm
if [ -z "${NO_WASM_OPT:-}" ]; then
  if [ ! -x "$WASM_OPT" ]; then
    echo "build-pkg: $WASM_OPT is missing (run npm ci)" >&2
    exit 1
  fi
  "$WASM_OPT" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    "$f" -o "$f.tmp"
  mv "$f.tmp" "$f"
fi

# The raw wasm exports listed in the web build's `InitOutput` are typed `any` by wasm-bindgen;
# they are internal (externref values), so declare them `unknown`.
sed -i -E '/^ *readonly [A-Za-z0-9_]+: \(/ s/\bany\b/unknown/g' pkg/web/skills_edge.d.ts
# The classes declare `[Symbol.dispose]`; make the declarations self-contained for projects
# whose `lib` predates explicit resource management.
for d in pkg/node/skills_edge.d.ts pkg/web/skills_edge.d.ts; do
  sed -i '1i /// <reference lib="esnext.disposable" />' "$d"
done
# A declaration file must never fall back to `any` in the public API.
for d in pkg/node/skills_edge.d.ts pkg/web/skills_edge.d.ts pkg/lib/*.d.ts; do
  if grep -nE '(:|<|\||\()\s*any\b|\bany\[\]' "$d"; then
    echo "build-pkg: $d mentions \`any\`" >&2
    exit 1
  fi
done

raw=$(wc -c < pkg/web/skills_edge_bg.wasm)
gz=$(gzip -9 -c pkg/web/skills_edge_bg.wasm | wc -c)
echo "build-pkg: pkg/web/skills_edge_bg.wasm $raw bytes, $gz bytes gzip -9" >&2

# The prebuilt Worker (`npx skills-edge worker`), with the caller's wasm flags: the Worker's
# wasm is the one scripts/build-worker.sh builds, so cargo builds it once for both.
"${worker_env[@]}" bash scripts/build-worker.sh --runtime pkg/worker
