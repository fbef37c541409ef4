#!/usr/bin/env bash
# Writes the seeds of the `pack` fuzz target (fuzz/corpus/pack/): packs made by the native
# `skills-edge pack` of the project's skills folder (whole, inline and with every non-empty file
# an asset; and signed, with the RFC 8037 test key; and with access rules, signed and not) and
# of each of its skills alone. Run it again whenever the pack format changes (the decoder
# refuses other versions at once, so stale seeds only exercise that check).
# Usage: fuzz/gen_pack_seeds.sh [SKILLS_EDGE_BIN]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$(bash scripts/native-bin.sh)}
out=fuzz/corpus/pack
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skills-edge-pack-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out" && mkdir -p "$out"
seed() { # NAME DIR [PACK ARGS...]
  local name=$1 dir=$2; shift 2
  "$bin" pack "$dir" -o "$out/$name" "$@" 2>/dev/null
}
seed skills skills
seed skills-assets skills --assets "$tmp/assets-all" --inline-max 0
seed skills-assets-1k skills --assets "$tmp/assets-1k" --inline-max 1024
# The RFC 8037 (Appendix A) test key: a published secret, so the seed is the same every run.
printf '%s\n' '{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}' > "$tmp/rfc8037.key"
seed skills-signed skills --sign "$tmp/rfc8037.key" --catalog-id fuzz.example/skills
# With access rules: two private classes, a nested pair among them.
cp -R skills "$tmp/access"
printf '%s\n' '[[access]]' 'skills = ["acme/**", "release-notes/**"]' 'scopes = ["billing"]' '[[access]]' 'skills = ["code-review"]' 'scopes = ["review", "billing"]' > "$tmp/access/skills-edge.toml"
seed skills-access "$tmp/access"
seed skills-access-signed "$tmp/access" --sign "$tmp/rfc8037.key" --catalog-id fuzz.example/access
while IFS= read -r md; do
  skill=$(dirname "$md")
  rel=${skill#skills/}
  name=$(printf '%s' "$rel" | tr '/' '-')
  mkdir -p "$tmp/one-$name/$(dirname "$rel")"
  cp -R "$skill" "$tmp/one-$name/$rel"
  seed "one-$name" "$tmp/one-$name"
done < <(find skills -name SKILL.md | sort)
ls "$out" | wc -l | xargs -I{} echo "gen_pack_seeds: {} packs in $out" >&2
