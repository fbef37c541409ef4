// Regenerates tests/frontmatter/expected/<case>.json from yaml@2, the judge.
//
//   node tests/js/regen-frontmatter-expected.mjs          # write the files
//   node tests/js/regen-frontmatter-expected.mjs --check  # exit 1 if any file would change
//
// Corpus layout (shared by tests/frontmatter_corpus.rs and tests/js/yaml-parity.test.mjs):
//   tests/frontmatter/corpus/NNN-slug.yaml        the YAML text of one frontmatter block, exactly
//                                                 as it sits between the `---` fences (the text
//                                                 `parse_yaml` gets); a name ending in
//                                                 `.crlf.yaml` is stored with LF and read with
//                                                 every LF turned into CRLF.
//   tests/frontmatter/expected/NNN-slug.json      accepted case: `JSON.stringify(YAML.parse(text))`
//                                                 plus one final "\n". WRITTEN BY THIS SCRIPT ONLY.
//   tests/frontmatter/expected/NNN-slug.error.json refused case (hand-written): `kind` (the
//                                                 FrontmatterErrorKind variant) and `claim` (why a
//                                                 JS host would read it differently; checked by
//                                                 yaml-parity.test.mjs), plus claim data, and
//                                                 `"host": "accepted"` when the host mode
//                                                 (`parse_yaml_host`, the verifier's reading)
//                                                 accepts the text all the same.
//   tests/frontmatter/expected/NNN-slug.host.json the host mode's value of a refused case marked
//                                                 `"host": "accepted"`: `JSON.stringify(YAML.parse(
//                                                 text))` plus one "\n". WRITTEN BY THIS SCRIPT ONLY.
//
// A case is accepted unless it has an `.error.json`. An accepted case (or a host-accepted one)
// that yaml@2 refuses stops the script: fix the case or make it a refused one.

import YAML from "yaml";
import { readdirSync, readFileSync, writeFileSync, existsSync, unlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "frontmatter");
const corpusDir = join(root, "corpus");
const expectedDir = join(root, "expected");
const check = process.argv.includes("--check");

function readCase(file) {
  const text = readFileSync(join(corpusDir, file), "utf8");
  return file.endsWith(".crlf.yaml") ? text.replace(/\n/g, "\r\n") : text;
}

function caseBase(file) {
  return file.replace(/(\.crlf)?\.yaml$/, "");
}

const files = readdirSync(corpusDir).filter((f) => f.endsWith(".yaml")).sort();
const bases = new Set(files.map(caseBase));
let changed = 0;
let failed = 0;
/** Removes `name` (a file that must not exist), reporting it. */
function drop(name, why) {
  if (!existsSync(join(expectedDir, name))) return;
  changed++;
  if (!check) unlinkSync(join(expectedDir, name));
  console.log(`${check ? "stale" : "removed"} ${name} (${why})`);
}
/** Writes yaml@2's JSON of the case `file` to `name`, unless it is already there. */
function write(file, name, what) {
  let json;
  try {
    json = JSON.stringify(YAML.parse(readCase(file)));
  } catch (e) {
    failed++;
    console.error(`yaml@2 refuses ${what} case ${file}: ${e.message.split("\n")[0]}`);
    return;
  }
  const want = `${json}\n`;
  const out = join(expectedDir, name);
  if (!existsSync(out) || readFileSync(out, "utf8") !== want) {
    changed++;
    if (!check) writeFileSync(out, want);
    console.log(`${check ? "differs" : "wrote"} ${name}`);
  }
}
for (const file of files) {
  const base = caseBase(file);
  const errorFile = join(expectedDir, `${base}.error.json`);
  if (existsSync(errorFile)) {
    drop(`${base}.json`, "the case is refused");
    const meta = JSON.parse(readFileSync(errorFile, "utf8"));
    if (meta.host === "accepted") write(file, `${base}.host.json`, "host-accepted");
    else drop(`${base}.host.json`, "the host mode refuses the case");
    continue;
  }
  drop(`${base}.host.json`, "the case is accepted in both modes");
  write(file, `${base}.json`, "accepted");
}
for (const f of readdirSync(expectedDir)) {
  const base = f.replace(/(\.error|\.host)?\.json$/, "");
  if (!bases.has(base) && f.endsWith(".json") && !f.endsWith(".error.json")) {
    changed++;
    if (!check) unlinkSync(join(expectedDir, f));
    console.log(`${check ? "orphan" : "removed orphan"} ${f}`);
  }
}
console.log(`${files.length} cases, ${changed} ${check ? "out of date" : "updated"}, ${failed} failed`);
if (failed || (check && changed)) process.exit(1);
