#!/usr/bin/env bash
# Prints the count of public items of the library crates (skills-edge with its `command`
# feature, as the native command and the npm package build it; skills-edge-catalog;
# skills-edge-rmcp), the number issue 38 bounds (fewer than 400).
#
# Method: `cargo doc --no-deps` of the three crates (native target), then from rustdoc's HTML:
# every item `all.html` lists (functions, structs, enums, traits, constants, statics, type
# aliases, macros; not modules), plus the public associated functions and constants of each
# (inherent impls only: trait impls are the trait's) and the methods a trait declares. An item
# re-exported from another crate is inlined by rustdoc; it is counted once, by its source
# location (the page's first `src/` link: file and first line). Fields and variants are not counted.
# Usage: scripts/public-items.sh [--per-module]
set -euo pipefail
cd "$(dirname "$0")/.."

cargo doc --no-deps --quiet -p skills-edge -p skills-edge-catalog -p skills-edge-rmcp \
  --features skills-edge/command

python3 - "$@" <<'EOF'
import collections, os, re, sys

per_module = "--per-module" in sys.argv
doc = "target/doc"
seen = {}
counts = collections.Counter()
for crate in ["skills_edge", "skills_edge_catalog", "skills_edge_rmcp"]:
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
        module = "::".join([crate] + os.path.dirname(href).split("/")).rstrip(":")
        counts[module] += n

total = sum(seen.values())
if per_module:
    for m, n in sorted(counts.items(), key=lambda x: -x[1]):
        print(f"{n:5d}  {m}")
print(f"public items: {total}")
EOF
