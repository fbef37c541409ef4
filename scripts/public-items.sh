#!/usr/bin/env bash
# Prints the count of public items of the library crates (skills-edge with its `command`
# feature, as the native command and the npm package build it; skills-edge-rmcp), the number
# issue 38 bounds (fewer than 400), and the public types whose own documentation has no
# runnable example. With `--max`, fails when the count reaches it or a type has no example.
#
# Method: `cargo doc --no-deps` of the workspace (native target; the command's crate turns on
# `command`), then from rustdoc's HTML:
# every item `all.html` lists (functions, structs, enums, traits, constants, statics, type
# aliases, macros; not modules), plus the public associated functions and constants of each
# (inherent impls only: trait impls are the trait's) and the methods a trait declares. An item
# re-exported from another crate is inlined by rustdoc; it is counted once, by its source
# location (the page's first `src/` link: file and first line). Fields and variants are not counted.
#
# The documentation is built where the test steps build it, so the count costs no build of
# its own in a test run: skills-edge in the library's target
# directory (10-rust.sh's `cargo doc --workspace`), skills-edge-rmcp in the rmcp judge's
# (`$target/rmcp`, 32-rmcp.sh's), never rmcp and tokio in the library's.
# Usage: scripts/public-items.sh [--per-module] [--list] [--no-build] [--max N]
#   --no-build  count the documentation already built (fails when a crate's is missing)
#   --max N     fail when the count is N or more (32-rmcp.sh passes the bound)
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
rtarget=$target/rmcp
build=1 max=
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build= ;;
    --max) max=$2; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -n "$build" ]; then
  # 10-rust.sh's build.
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet --workspace --exclude skills-edge-rmcp --exclude skills-edge-rmcp-example
  CARGO_TARGET_DIR=$rtarget cargo doc --no-deps --quiet -p skills-edge-rmcp
fi

python3 - "$target/doc" "$rtarget/doc" "${max:-0}" ${args[@]+"${args[@]}"} <<'EOF'
import collections, os, re, sys

lib_doc, rmcp_doc, max_items = sys.argv[1], sys.argv[2], int(sys.argv[3])
per_module = "--per-module" in sys.argv
listing = "--list" in sys.argv
seen = {}
no_example = []
counts = collections.Counter()
for crate, doc in [("skills_edge", lib_doc), ("skills_edge_rmcp", rmcp_doc)]:
    if not os.path.exists(f"{doc}/{crate}/all.html"):
        sys.exit(f"public-items.sh: no documentation of {crate} in {doc}\n"
                 "  fix: run without --no-build, or after 10-rust.sh (skills-edge) and 32-rmcp.sh's doc step (skills-edge-rmcp)")
    with open(f"{doc}/{crate}/all.html", encoding="utf-8") as f:
        hrefs = re.findall(r'<li><a href="([^"]+)">', f.read())
    for href in hrefs:
        path = os.path.join(doc, crate, href)
        with open(path, encoding="utf-8") as f:
            page = f.read()
        # An inlined page's link names the first line only (`#12`, not `#12-14`).
        src = re.search(r'href="[^"]*/src/([^"#]+#\d+)', page)
        key = src.group(1) if src else f"{crate}/{href}"
        if key in seen:
            continue
        # The inherent impls come before the trait, synthetic and blanket impls.
        inherent = re.split(r'id="(?:trait-implementations|synthetic-implementations|blanket-implementations)"', page)[0]
        assoc = len(re.findall(r'id="(?:method|associatedconstant)\.', inherent))
        # A trait's required methods (its provided ones are `method.` above).
        declared = len(re.findall(r'id="tymethod\.', page))
        n = 1 + assoc + declared
        seen[key] = n
        # A type's own documentation (not its module's) holds a runnable example.
        if os.path.basename(href).startswith(("struct.", "enum.", "trait.", "type.")):
            top = re.search(r'<details class="toggle top-doc" open>(.*?)</details>', page, re.S)
            if not top or "example-wrap" not in top.group(1):
                no_example.append(f"{crate}/{href}")
        if listing:
            print(f"{n:3d}  {crate}/{href}")
        module = "::".join([crate] + os.path.dirname(href).split("/")).rstrip(":")
        counts[module] += n

total = sum(seen.values())
if per_module:
    for m, n in sorted(counts.items(), key=lambda x: -x[1]):
        print(f"{n:5d}  {m}")
print(f"public items: {total}")
print(f"public types without an example: {len(no_example)}")
for page in no_example:
    print(f"  {page}")
if max_items and total >= max_items:
    sys.exit(f"public-items.sh: {total} public items, the bound is fewer than {max_items}\n"
             "  fix: make what has no user outside its crate pub(crate) (or private), or remove it")
if max_items and no_example:
    sys.exit("public-items.sh: every public type has a runnable example in its own documentation\n"
             "  fix: add one (a doctest) to the types listed above")
EOF
