// Differential proof for the frontmatter parser (src/skill/frontmatter/): yaml@2 is the judge.
//
//   node --test tests/js/yaml-parity.test.mjs
//
// The corpus (layout: see tests/js/regen-frontmatter-expected.mjs) is shared with the Rust test
// tests/frontmatter_corpus.rs:
// * accepted cases: the Rust parser's `to_json()` must equal `expected/<case>.json`, and here
//   `JSON.stringify(YAML.parse(text))` must equal the same file byte for byte. The file is
//   written by regen-frontmatter-expected.mjs from yaml@2, so a hand edit fails here. The same
//   text wrapped in `---` fences must read the same through the SDK's and the conformance
//   suite's frontmatter regexes.
// * refused cases: `expected/<case>.error.json` names the Rust error kind and a `claim`: why a
//   JS host (or a YAML 1.1 reader, or JSON) would read the text differently. Each claim is
//   checked below against yaml@2.
// * host-accepted cases: refused cases marked `"host": "accepted"` (only ambiguous across YAML
//   versions), which the verifier's host mode reads all the same: `expected/<case>.host.json`
//   must equal `JSON.stringify(YAML.parse(text))` byte for byte, and the Rust host mode
//   (`parse_yaml_host`) must print the same file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import YAML from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "frontmatter");
const corpusDir = join(root, "corpus");
const expectedDir = join(root, "expected");

const files = readdirSync(corpusDir).filter((f) => f.endsWith(".yaml")).sort();
const base = (f) => f.replace(/(\.crlf)?\.yaml$/, "");
const readCase = (f) => {
  const text = readFileSync(join(corpusDir, f), "utf8");
  return f.endsWith(".crlf.yaml") ? text.replace(/\n/g, "\r\n") : text;
};

// The frontmatter regexes of the peers (skills-extension.md §3.3).
const SDK_RE = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;
const CONF_RE = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const wrap = (text) => {
  const nl = text.includes("\r\n") ? "\r\n" : "\n";
  return `---${nl}${text}${nl}---${nl}# Body${nl}`;
};

const yaml2 = (text, options) => JSON.stringify(YAML.parse(text, options));
const throws = (fn) => {
  try {
    fn();
    return false;
  } catch {
    return true;
  }
};

// PyYAML's implicit resolvers (lib/yaml/resolver.py), the reference YAML 1.1 reader: the tag it
// gives a plain scalar. First-character dispatch as in `BaseResolver.resolve`.
const PYYAML = [
  ["bool", /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/, "yYnNtTfFoO"],
  ["float", /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/, "-+0123456789."],
  ["int", /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/, "-+0123456789"],
  ["merge", /^(?:<<)$/, "<"],
  ["null", /^(?:~|null|Null|NULL|)$/, "~nN"],
  ["timestamp", /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/, "0123456789"],
  ["value", /^(?:=)$/, "="],
];
const pyyamlTag = (s) => {
  for (const [tag, re, first] of PYYAML) {
    if ((s === "" ? tag === "null" : first.includes(s[0])) && re.test(s)) return tag;
  }
  return "str";
};
// yaml@2's own core-schema resolution of a plain scalar (the first default tag whose test
// matches, as compose-scalar does).
const coreSchema = new YAML.Document().schema;
const yaml2Tag = (s) => {
  const t = coreSchema.tags.find((tag) => tag.default === true && tag.test?.test(s));
  return t ? t.tag.replace("tag:yaml.org,2002:", "") : "str";
};

const someNumber = (v, pred) =>
  typeof v === "number"
    ? pred(v)
    : v !== null && typeof v === "object" && Object.values(v).some((x) => someNumber(x, pred));
const depth = (v) =>
  v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;

// Each claim asserts why the refused text is not safe to publish.
const CLAIMS = {
  // yaml@2 refuses it (or yields something JSON cannot print, e.g. a cycle).
  "yaml2-throws": (text) => assert.ok(throws(() => yaml2(text)), "yaml@2 should throw"),
  // yaml@2 yields a number JSON cannot carry faithfully: ±Infinity/NaN (printed as null) or an
  // integer beyond 2^53 − 1 (rounded).
  "yaml2-unsafe-number": (text) =>
    assert.ok(
      someNumber(YAML.parse(text), (n) => !Number.isFinite(n) || (Number.isInteger(n) && !Number.isSafeInteger(n))),
      "expected a non-finite or unsafe number",
    ),
  // yaml@2 with `version: "1.1"` reads it differently (or refuses it).
  "yaml11-differs": (text) => {
    const v12 = yaml2(text);
    let v11;
    try {
      v11 = yaml2(text, { version: "1.1" });
    } catch {
      return;
    }
    assert.notEqual(v11, v12, "YAML 1.1 should read it differently");
  },
  // YAML 1.1 reads the scalar as an octal literal, YAML 1.2 as decimal.
  "yaml11-octal": (text, meta) => {
    const formatOf = (options) => {
      let format = null;
      YAML.visit(YAML.parseDocument(text, options), {
        Scalar(_, node) {
          if (node.source === meta.scalar) format = node.format ?? "DEC";
        },
      });
      return format;
    };
    assert.equal(formatOf({ version: "1.1" }), "OCT");
    assert.equal(formatOf(), "DEC");
  },
  // PyYAML (YAML 1.1) types the plain scalar differently than yaml@2's core schema.
  "pyyaml-differs": (text, meta) => {
    assert.ok(text.includes(meta.scalar));
    assert.notEqual(pyyamlTag(meta.scalar), yaml2Tag(meta.scalar), `PyYAML vs yaml@2 on ${meta.scalar}`);
  },
  // yaml@2 reads it differently than `other` (the same text without the construct), or refuses
  // it, or warns.
  "differs-from": (text, meta) => {
    let value;
    try {
      value = yaml2(text);
    } catch {
      return;
    }
    const doc = YAML.parseDocument(text);
    if (doc.warnings.length || doc.errors.length) return;
    assert.notEqual(value, yaml2(meta.other), "the construct should change yaml@2's reading");
  },
  // yaml@2 reads it differently than the YAML 1.2 event parser (`other`), or refuses it.
  "reader-differs": (text, meta) => {
    let value;
    try {
      value = yaml2(text);
    } catch {
      return;
    }
    assert.notEqual(value, JSON.stringify(meta.other), "yaml@2 and the YAML spec reader should differ");
  },
  // yaml@2 composes a mapping key that is not a string (JSON then stringifies it).
  "non-string-key": (text) => {
    const doc = YAML.parseDocument(text);
    let found = false;
    YAML.visit(doc, {
      Pair(_, pair) {
        let key = pair.key;
        if (YAML.isAlias(key)) key = key.resolve(doc);
        if (!(YAML.isScalar(key) && typeof key.value === "string")) found = true;
      },
    });
    assert.ok(found, "expected a non-string key");
  },
  // The conformance suite's lenient fence (`---[ \t]*`) would end the frontmatter here.
  "lenient-fence": (text) => assert.match(text, /^---[ \t]+\r?$/m),
  // A raw character outside YAML's printable set, a YAML 1.1 line break (NEL, LS, PS), a BOM
  // or a lone CR.
  "non-printable": (text) =>
    assert.match(text, /[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]|[\u2028\u2029\ufeff]|\r(?!\n)/u),
  // Nested deeper than the parser's 64 levels (yaml@2 itself has no limit).
  depth: (text) => assert.ok(depth(YAML.parse(text)) > 64),
};

test("the corpus is large enough and every case has exactly one expectation", () => {
  assert.ok(files.length >= 70, `only ${files.length} cases`);
  const bases = new Set(files.map(base));
  assert.equal(bases.size, files.length, "two corpus files with the same case name");
  for (const f of files) {
    const ok = existsSync(join(expectedDir, `${base(f)}.json`));
    const err = existsSync(join(expectedDir, `${base(f)}.error.json`));
    assert.ok(ok !== err, `${f}: needs exactly one of .json / .error.json`);
  }
  for (const f of readdirSync(expectedDir)) {
    assert.ok(bases.has(f.replace(/(\.error|\.host)?\.json$/, "")), `orphan expectation ${f}`);
  }
});

for (const file of files) {
  const name = base(file);
  const text = readCase(file);
  const errorFile = join(expectedDir, `${name}.error.json`);
  if (existsSync(errorFile)) {
    const meta = JSON.parse(readFileSync(errorFile, "utf8"));
    test(`refused ${name} (${meta.kind}: ${meta.claim})`, () => {
      assert.equal(typeof meta.kind, "string");
      const claim = CLAIMS[meta.claim];
      assert.ok(claim, `unknown claim ${meta.claim}`);
      claim(text, meta);
    });
    const hostFile = join(expectedDir, `${name}.host.json`);
    assert.ok([undefined, "accepted"].includes(meta.host), `${name}: "host" must be "accepted" or absent`);
    test(`host mode ${meta.host === "accepted" ? "accepts" : "refuses"} ${name}`, () => {
      assert.equal(existsSync(hostFile), meta.host === "accepted", "a .host.json exactly for host-accepted cases");
      if (meta.host !== "accepted") return;
      const expected = readFileSync(hostFile, "utf8");
      assert.ok(expected.endsWith("\n"));
      assert.equal(yaml2(text), expected.slice(0, -1), "yaml@2 disagrees with the stored host-mode expectation");
    });
  } else {
    test(`accepted ${name}`, () => {
      assert.ok(!existsSync(join(expectedDir, `${name}.host.json`)), "an accepted case has no .host.json");
      const expected = readFileSync(join(expectedDir, `${name}.json`), "utf8");
      assert.ok(expected.endsWith("\n"));
      const want = expected.slice(0, -1);
      assert.equal(yaml2(text), want, "yaml@2 disagrees with the stored expectation");
      if (want.startsWith("{")) {
        const file = wrap(text);
        for (const re of [SDK_RE, CONF_RE]) {
          const m = re.exec(file);
          assert.ok(m, `${re} should find the frontmatter`);
          assert.equal(m[1], text);
          assert.equal(yaml2(m[1]), want);
        }
      }
    });
  }
}
