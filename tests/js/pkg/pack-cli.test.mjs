// Bring your own skills: `npx skills-edge pack` (the package's WebAssembly compiler) against
// the native `skills-edge pack` (the compiler build.rs runs), and `new SkillsServer({ pack })`.
// * Over the project's skills and over test folders, both commands write byte-identical packs
//   and print the same messages; over a folder with access rules (skills-edge.toml), both
//   print each skill's audience after the diagnostics.
// * Hostile folders (the catalog compiler's cases: frontmatter, names, fields, portable YAML,
//   path segments, links, FIFOs, non-UTF-8 names, limits, missing roots) fail the same way
//   through both: exit status 1, the same rendered errors, no pack written.
// * A damaged pack (flipped byte, truncation, another format version, not a pack) is refused
//   with `pack-invalid` and a message naming the damage; a good one is served exactly.
//
// The native binary is $SKILLS_EDGE_BIN, or target/debug/skills-edge under $SKILLS_EDGE_REPO.
// `npx skills-edge` runs in the current directory's project (the one that installed the
// packed tarball, so the command is tested as users get it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { SkillsServer, compileCatalog, inspectPack } from "skills-edge";
import { REPO, call, digestOf, listAll, refused } from "./common.mjs";

const NATIVE = resolve(REPO || ".", process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
let tmp;

before(() => {
  assert.ok(REPO, "SKILLS_EDGE_REPO must name the repository root");
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`cargo build -p skills-edge-cli\``);
  tmp = mkdtempSync(join(tmpdir(), "skills-edge-pack-"));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs a command; returns { status, stdout, stderr } (stdout/stderr as strings). */
function run(cmd, args, cwd = process.cwd(), env = process.env) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 60_000, env });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const npx = (args, cwd, env) => run("npx", ["--no-install", "skills-edge", ...args], cwd, env);
const native = (args, cwd, env) => run(NATIVE, args, cwd, env);

const skillMd = (name, extra = "") =>
  `---\nname: ${name}\ndescription: A skill used by the tests.\n${extra}---\n\n# ${name}\n\nBody.\n`;

let n = 0;
/** A folder under the temp dir, built from { "rel/path": content } (string, bytes or a builder). */
function folder(files) {
  const root = join(tmp, `case-${n++}`);
  mkdirSync(root, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof content === "function") content(p);
    else writeFileSync(p, content);
  }
  return root;
}

/** Both commands over `dir` (named as `shown` from `cwd`): same status, output and pack. */
function packBoth(dir, extra = []) {
  const a = join(tmp, `native-${n}.pack`);
  const b = join(tmp, `wasm-${n++}.pack`);
  const viaNative = native(["pack", dir, "-o", a, ...extra]);
  const viaNpx = npx(["pack", dir, "-o", b, ...extra]);
  assert.equal(viaNpx.status, viaNative.status, `exit status\nnative: ${viaNative.stderr}\nnpx: ${viaNpx.stderr}`);
  assert.equal(viaNpx.stdout, viaNative.stdout);
  assert.equal(viaNpx.stderr.replaceAll(b, a), viaNative.stderr, "the same messages");
  const written = [existsSync(a), existsSync(b)];
  assert.equal(written[0], written[1], "both write, or neither");
  return { status: viaNative.status, stderr: viaNative.stderr, pack: written[0] ? readFileSync(b) : null, nativePack: written[0] ? readFileSync(a) : null };
}

test("over the project's skills, npx skills-edge pack writes the native command's pack", () => {
  const r = packBoth(join(REPO, "skills"));
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.pack.equals(r.nativePack), "byte-identical packs");
  // --check and check print the same entries and summary as the native command.
  for (const args of [["pack", join(REPO, "skills"), "--check"], ["check", join(REPO, "skills")]]) {
    const a = native(args);
    const b = npx(args);
    assert.equal(b.status, 0, b.stderr);
    assert.equal(b.stdout, a.stdout, `${args[0]}: the same entries, byte for byte`);
    assert.equal(b.stderr, a.stderr);
  }
  // Custom instructions land in the pack, identically.
  const withInstructions = packBoth(join(REPO, "skills"), ["--instructions", "Skills for the tests."]);
  assert.ok(withInstructions.pack.equals(withInstructions.nativePack));
  assert.ok(!withInstructions.pack.equals(r.pack));
});

test("over a folder with access rules, check and pack print each skill's audience as the native command does", () => {
  // tests/fixtures/private-skills: two public skills, a private nested pair for `billing`, a
  // private skill for `review` (the catalog the end-to-end suite serves with tokens).
  const dir = join(REPO, "tests", "fixtures", "private-skills");
  const audience = [
    "audience: acme/billing/invoices: scopes billing",
    "audience: acme/billing/invoices/refunds: scopes billing",
    "audience: acme/tools/lint: public",
    "audience: code-review: scopes review",
    "audience: hello: public",
  ];
  for (const args of [["check", dir], ["pack", dir, "--check"]]) {
    const a = native(args);
    const b = npx(args);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, a.status, b.stderr);
    assert.equal(b.stdout, a.stdout, `${args[0]}: the same entries, byte for byte`);
    assert.equal(b.stderr, a.stderr, `${args[0]}: the same messages`);
    assert.deepEqual(b.stderr.split("\n").filter((l) => l.startsWith("audience: ")), audience, b.stderr);
  }
  const r = packBoth(dir);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.pack.equals(r.nativePack), "byte-identical packs");
  assert.deepEqual(r.stderr.split("\n").filter((l) => l.startsWith("audience: ")), audience, r.stderr);
  // Without access rules nothing is printed about audiences.
  const open = npx(["check", join(REPO, "skills")]);
  assert.equal(open.status, 0, open.stderr);
  assert.doesNotMatch(open.stderr, /^audience: /m);
});

test("test folders with binaries, nested skills, empty directories and warnings pack identically", () => {
  const dir = folder({
    "tools/lint/SKILL.md": skillMd("lint"),
    "tools/lint/rules/empty": (p) => mkdirSync(p, { recursive: true }),
    "tools/lint/rules/style.md": "# Style\r\nCRLF kept.\r\n",
    "tools/lint/fixer/SKILL.md": skillMd("fixer", "license: MIT\nmetadata:\n  \"10\": ten\n  \"2\": two\n  owner: me\n"),
    "tools/lint/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff]),
    "tools/lint/.DS_Store": Buffer.from([0]),
    "README.md": "outside every skill: not served\n",
    "émoji/SKILL.md": skillMd("x"),
  });
  // A name outside the unreserved set is an error; drop that one to get a publishable folder.
  rmSync(join(dir, "émoji"), { recursive: true });
  const r = packBoth(dir);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.pack.equals(r.nativePack), "byte-identical packs");
  assert.match(r.stderr, /warning\[junk-file\]/);
  assert.match(r.stderr, /warning\[file-outside-skill\]/);

  // compileCatalog over the same bytes, in-process, gives the same pack and entries.
  const entries = [];
  const walk = (rel) => {
    for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        entries.push({ path: childRel, kind: "directory" });
        walk(childRel);
      } else entries.push({ path: childRel, bytes: readFileSync(join(dir, childRel)) });
    }
  };
  walk("");
  const compiled = compileCatalog(entries.reverse(), { root: dir });
  assert.ok(Buffer.from(compiled.pack).equals(r.pack), "entry order does not matter");
  assert.deepEqual(compiled.skills.map((s) => s.uri), [
    "skill://tools/lint/SKILL.md",
    "skill://tools/lint/fixer/SKILL.md",
  ]);
  // Integer-like keys first, as every JS object orders them.
  assert.deepEqual(Object.keys(compiled.skills[1].frontmatter.metadata), ["2", "10", "owner"]);

  // The pack serves exactly those bytes.
  const server = new SkillsServer({ pack: r.pack, pageSize: 1 });
  assert.deepEqual(listAll(server), compiled.skills);
  for (const entry of compiled.skills) {
    for (const res of entry.resources) {
      const item = call(server, "resources/read", { uri: res.uri }).contents[0];
      const bytes = item.text !== undefined ? Buffer.from(item.text, "utf8") : Buffer.from(item.blob, "base64");
      assert.equal(bytes.length, res.size, res.uri);
      assert.equal(digestOf(bytes), res.digest, res.uri);
    }
  }
  const tree = call(new SkillsServer({ pack: r.pack }), "resources/directory/read", { uri: "skill://tools/lint/rules" });
  assert.deepEqual(tree.resources.map((r) => r.uri), ["skill://tools/lint/rules/empty", "skill://tools/lint/rules/style.md"]);
  const summary = inspectPack(r.pack);
  assert.equal(summary.snapshot, compiled.snapshot);
  assert.equal(summary.files, compiled.files);
  assert.equal(summary.bytes, compiled.bytes);
  assert.deepEqual(summary.skills, compiled.skills);
});

// Hostile folders: [label, files, rule ids expected in the errors].
const HOSTILE = [
  ["no frontmatter", { "a/SKILL.md": "# just a body\n" }, ["frontmatter-missing-opening-fence"]],
  ["unclosed frontmatter", { "a/SKILL.md": "---\nname: a\ndescription: d\n" }, ["frontmatter-missing-closing-fence"]],
  ["byte order mark", { "a/SKILL.md": "\ufeff" + skillMd("a") }, ["frontmatter-byte-order-mark"]],
  ["YAML syntax", { "a/SKILL.md": "---\nname: a\ndescription: [unclosed\n---\n" }, ["frontmatter-yaml-syntax"]],
  ["not a mapping", { "a/SKILL.md": "---\n- a\n---\n" }, ["frontmatter-not-a-mapping"]],
  ["name differs from the directory", { "a/SKILL.md": skillMd("b") }, ["name-matches-directory"]],
  ["uppercase name", { "Abc/SKILL.md": skillMd("Abc") }, ["name-format"]],
  ["missing description", { "a/SKILL.md": "---\nname: a\n---\n" }, ["description-required"]],
  ["metadata not strings", { "a/SKILL.md": skillMd("a", "metadata:\n  count: 1\n") }, ["metadata-type"]],
  ["YAML 1.1 boolean", { "a/SKILL.md": skillMd("a", "license: yes\n") }, ["frontmatter-yaml11-ambiguous"]],
  ["duplicate key", { "a/SKILL.md": "---\nname: a\nname: a\ndescription: d\n---\n" }, ["frontmatter-duplicate-key"]],
  ["a space in a file name", { "a/SKILL.md": skillMd("a"), "a/bad name.md": "x" }, ["path-segment"]],
  ["SKILL.md not UTF-8", { "a/SKILL.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff]) }, ["skill-md-utf8"]],
  ["a symbolic link", { "a/SKILL.md": skillMd("a"), "a/link.md": (p) => symlinkSync("/etc/hostname", p) }, ["no-symlinks"]],
  ["a link to a directory", { "a/SKILL.md": skillMd("a"), "a/dir": (p) => symlinkSync("/tmp", p) }, ["no-symlinks"]],
  ["a FIFO", { "a/SKILL.md": skillMd("a"), "a/pipe": (p) => execFileSync("mkfifo", [p]) }, ["regular-files-only"]],
  [
    "a name that is not UTF-8",
    { "a/SKILL.md": skillMd("a"), "a/x": (p) => writeFileSync(Buffer.concat([Buffer.from(dirname(p) + "/caf"), Buffer.from([0xe9])]), "x") },
    ["path-utf8"],
  ],
  ["two files that differ only in letter case", { "a/SKILL.md": skillMd("a"), "a/Notes.md": "1", "a/notes.md": "2" }, ["case-collision"]],
  ["513 files", Object.fromEntries([["a/SKILL.md", skillMd("a")], ...Array.from({ length: 512 }, (_, i) => [`a/f${i}.txt`, "x"])]), ["limit-files"]],
  ["more than 16 MiB", { "a/SKILL.md": skillMd("a"), "a/big.bin": Buffer.alloc(16 * 1024 * 1024) }, ["limit-size"]],
  [
    "every error at once",
    { "a/SKILL.md": skillMd("b"), "c/SKILL.md": "none\n", "c/bad name.md": "x", "d/SKILL.md": skillMd("d", "license: on\n") },
    ["name-matches-directory", "frontmatter-missing-opening-fence", "path-segment", "frontmatter-yaml11-ambiguous"],
  ],
];

for (const [label, files, rules] of HOSTILE) {
  test(`hostile folder: ${label} fails the same way through npx skills-edge pack`, () => {
    const dir = folder(files);
    const r = packBoth(dir);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.pack, null, "nothing is written");
    const ids = [...r.stderr.matchAll(/^error\[([a-z0-9-]+)\]/gm)].map((m) => m[1]);
    assert.deepEqual([...ids].sort(), [...rules].sort(), r.stderr);
    assert.match(r.stderr, /\n  fix: /);
    assert.match(r.stderr, /error(s)? in the skills folder; nothing was published\n$/);
    // The folder, relative path and (for YAML) line are named.
    assert.ok(r.stderr.includes(`${dir}/`), r.stderr);
  });
}

test("--strict and --skip-invalid behave alike in both commands, for check and pack", () => {
  const dir = folder({
    "good/SKILL.md": skillMd("good"),
    // The official SDK 2.4 reader refuses a quoted value over two lines: a warning, an error with --strict.
    "wrapped/SKILL.md": `---\nname: wrapped\ndescription: "two\n  lines"\n---\n`,
    // A description over 1024 characters: an error, or the skill left out with --skip-invalid.
    "long/SKILL.md": skillMd("long").replace("A skill used by the tests.", "x".repeat(1068)),
  });
  const expect = {
    "": [1, /error\[description-length\]/],
    "--skip-invalid": [0, /warning\[skill-left-out\][\s\S]*: 2 skills,/],
    "--strict": [1, /error\[frontmatter-sdk-multiline-quoted\]/],
    "--strict --skip-invalid": [0, /: 1 skills,/],
  };
  for (const [flags, [status, pattern]] of Object.entries(expect)) {
    const f = flags ? flags.split(" ") : [];
    for (const args of [["check", dir, ...f], ["check", ...f, dir], ["pack", dir, "--check", ...f]]) {
      const a = native(args);
      const b = npx(args);
      assert.equal(a.status, status, `${args}: ${a.stderr}`);
      assert.deepEqual(b, a, `${args}: the same status, stdout and stderr`);
      assert.match(a.stderr, pattern, `${args}`);
    }
    const packed = packBoth(dir, f);
    assert.equal(packed.status, status);
    if (status === 0) assert.deepEqual(packed.pack, packed.nativePack, "the same pack bytes");
  }
});

test("SKILLS_STRICT and SKILLS_ON_INVALID mean --strict and --skip-invalid in both commands, and bad values are refused alike", () => {
  const dir = folder({
    "good/SKILL.md": skillMd("good"),
    "wrapped/SKILL.md": `---\nname: wrapped\ndescription: "two\n  lines"\n---\n`,
    "long/SKILL.md": skillMd("long").replace("A skill used by the tests.", "x".repeat(1068)),
  });
  const cases = [
    [{ SKILLS_ON_INVALID: "skip" }, ["--skip-invalid"]],
    [{ SKILLS_ON_INVALID: "fail" }, []],
    [{ SKILLS_STRICT: "1", SKILLS_ON_INVALID: "skip" }, ["--strict", "--skip-invalid"]],
    [{ SKILLS_STRICT: "0", SKILLS_ON_INVALID: "" }, []],
  ];
  for (const [vars, flags] of cases) {
    const env = { ...process.env, ...vars };
    for (const cmd of [native, npx]) {
      const viaEnv = cmd(["check", dir], undefined, env);
      const viaFlags = cmd(["check", dir, ...flags]);
      assert.deepEqual(viaEnv, viaFlags, `${JSON.stringify(vars)} is ${flags.join(" ") || "no flag"}`);
    }
    assert.deepEqual(npx(["check", dir], undefined, env), native(["check", dir], undefined, env));
  }
  for (const [name, value, fix] of [["SKILLS_STRICT", "yes", "SKILLS_STRICT=1"], ["SKILLS_ON_INVALID", "ignore", "SKILLS_ON_INVALID=skip"]]) {
    const env = { ...process.env, [name]: value };
    for (const args of [["check", dir], ["pack", dir, "--check"], ["worker", dir, "--out", join(tmp, "never")]]) {
      const b = npx(args, undefined, env);
      assert.equal(b.status, 2, `${name}=${value} ${args}: ${b.stderr}`);
      assert.equal(b.stderr.split("\n")[0], `error: ${name} is ${JSON.stringify(value)}`);
      assert.ok(b.stderr.includes(`fix: set ${fix}`), b.stderr);
      if (args[0] !== "worker") assert.equal(b.stderr.split("\n").slice(0, 2).join("\n"), native(args, undefined, env).stderr.split("\n").slice(0, 2).join("\n"));
    }
    assert.ok(!existsSync(join(tmp, "never")), "nothing is written");
  }
});

test("npx skills-edge worker writes the pack and the assets of native skills-edge pack --assets", () => {
  for (const inlineMax of ["0", "100", undefined]) {
    const flags = inlineMax === undefined ? [] : ["--inline-max", inlineMax];
    const assets = join(tmp, `native-assets-${n}`);
    const pack = join(tmp, `native-${n}.pack`);
    const out = join(tmp, `worker-${n++}`);
    const a = native(["pack", join(REPO, "skills"), "-o", pack, "--assets", assets, ...flags]);
    const b = npx(["worker", join(REPO, "skills"), "--out", out, ...flags]);
    assert.equal(a.status, 0, a.stderr);
    assert.equal(b.status, 0, b.stderr);
    const build = join(out, "worker", "build");
    assert.ok(readFileSync(join(build, "catalog.pack")).equals(readFileSync(pack)), `--inline-max ${inlineMax}: byte-identical packs`);
    const names = readdirSync(assets).sort();
    // The same asset names, beside the inspector page's folder the Worker project carries.
    assert.deepEqual(readdirSync(join(build, "assets")).filter((f) => f !== "inspector").sort(), names, "the same asset names");
    for (const name of names) {
      assert.ok(readFileSync(join(build, "assets", name)).equals(readFileSync(join(assets, name))), `${name}: the same bytes`);
    }
    if (inlineMax === "0") assert.ok(names.length > 0);
  }
});

test("a missing folder, a file instead of a folder, and usage errors match the native command", () => {
  for (const dir of [join(tmp, "does-not-exist"), join(REPO, "README.md")]) {
    const r = packBoth(dir);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error\[io\]: /);
  }
  for (const args of [["pack"], ["pack", "d"], ["pack", "d", "-o"], ["pack", "d", "-o", "f", "--check"], ["pack", "a", "b", "--check"], ["pack", "d", "--nope"], ["check"], ["check", "a", "b"], ["check", "d", "--nope"], ["frobnicate"], []]) {
    const a = native(args);
    const b = npx(args);
    assert.equal(a.status, 2, `${args}`);
    assert.equal(b.status, 2, `${args}`);
    assert.equal(b.stdout, "");
    assert.equal(b.stderr.split("\n")[0], a.stderr.split("\n")[0], `${args}: the same first line`);
  }
  // A folder under a file cannot be made: the same message from both commands.
  const underFile = join(REPO, "README.md", "x.pack");
  const unwritable = npx(["pack", join(REPO, "skills"), "-o", underFile]);
  const nativeUnwritable = native(["pack", join(REPO, "skills"), "-o", underFile]);
  assert.equal(unwritable.status, 1);
  assert.equal(nativeUnwritable.status, 1);
  assert.match(unwritable.stderr, /^error: cannot write .*: Not a directory \(os error 20\)\n  fix: /);
  assert.equal(unwritable.stderr, nativeUnwritable.stderr);
});

test("pack -o build/skills.pack in a fresh checkout makes build/ (both commands)", () => {
  for (const [who, run] of [["npm", npx], ["native", native]]) {
    const output = join(tmp, `fresh-${who}`, "build", "skills.pack");
    const r = run(["pack", join(REPO, "skills"), "-o", output]);
    assert.equal(r.status, 0, `${who}: ${r.stderr}`);
    assert.ok(readFileSync(output).length > 0, who);
  }
});

test("a refusal is the one parser's: the same message, byte for byte, then each command's usage text", () => {
  const usage = npx(["--help"]);
  assert.equal(usage.status, 0);
  for (const args of [
    ["pack", "d", "--n\u00f6pe\u0007"],
    ["pack", "d", "-o", "f", "--instructions"],
    ["check", "a", "--instructions", "x"],
    ["verify", "ftp://x"],
    ["verify", "http://127.0.0.1:1/mcp", "--timeout", "3600001"],
  ]) {
    const a = native(args);
    const b = npx(args);
    assert.equal(a.status, 2, `${args}`);
    assert.equal(b.status, 2, `${args}`);
    const message = (r) => r.stderr.slice(0, r.stderr.indexOf("\n\n"));
    assert.match(message(a), /^error: /);
    assert.equal(message(b), message(a), `${args}: the same message`);
    assert.equal(b.stderr, `${message(b)}\n\n${usage.stdout}`, `${args}: then the npm command's usage text`);
  }
  // Each command's own subcommand is unknown to the other, in the same words.
  assert.equal(npx(["stdio"]).stderr.split("\n")[0], 'error: unknown command "stdio"');
  assert.equal(native(["worker"]).stderr.split("\n")[0], 'error: unknown command "worker"');
});

test("a damaged pack is refused with pack-invalid and a message naming the damage", () => {
  const file = join(tmp, "good.pack");
  const made = npx(["pack", join(REPO, "skills"), "-o", file]);
  assert.equal(made.status, 0, made.stderr);
  const good = readFileSync(file);
  assert.ok(new SkillsServer({ pack: good }));
  assert.ok(new SkillsServer({ pack: good.buffer.slice(good.byteOffset, good.byteOffset + good.length) }), "an ArrayBuffer works too");
  const flip = (at) => {
    const b = Buffer.from(good);
    b[at] ^= 0x10;
    return b;
  };
  const cases = [
    ["a flipped byte in the file data", flip(good.length - 100), /checksum mismatch/],
    ["a flipped byte in the tables", flip(60), /checksum mismatch/],
    ["truncated by one byte", good.subarray(0, good.length - 1), /truncated/],
    ["truncated to half", good.subarray(0, good.length >> 1), /truncated/],
    ["a trailing byte", Buffer.concat([good, Buffer.from([0])]), /trailing bytes/],
    ["another format version", (() => { const b = Buffer.from(good); b.writeUInt32LE(1, 8); return b; })(), /format version 1/],
    ["not a pack", Buffer.from("PK\x03\x04 a zip file"), /not a skills pack/],
    ["empty", Buffer.alloc(0), /not a skills pack/],
  ];
  for (const [label, bytes, message] of cases) {
    const e = refused(() => new SkillsServer({ pack: bytes }), "pack-invalid");
    assert.match(e.message, message, label);
    assert.match(e.message, /^invalid skills pack: /, label);
    const e2 = refused(() => inspectPack(new Uint8Array(bytes)), "pack-invalid");
    assert.equal(e2.message, e.message, label);
  }
  refused(() => new SkillsServer({ pack: "not bytes" }), "invalid-argument");
  refused(() => new SkillsServer({ pack: good, pageSize: 0.5 }), "invalid-argument");
});

test("compileCatalog refuses malformed entries with invalid-argument and names the entry", () => {
  refused(() => compileCatalog("skills"), "invalid-argument");
  const e = refused(() => compileCatalog([{ path: "a/SKILL.md", bytes: skillMd("a") }, { path: 7 }]), "invalid-argument");
  assert.match(e.message, /entries\[1\]: path must be a string/);
  refused(() => compileCatalog([{ path: "a", kind: "socket" }]), "invalid-argument");
  refused(() => compileCatalog([{ path: "a/x", bytes: 42 }]), "invalid-argument");
  refused(() => compileCatalog([], { rooot: "x" }), "invalid-argument");
  // A folder with errors: catalog-invalid, with every finding as an object too.
  const bad = refused(() => compileCatalog([{ path: "a/SKILL.md", bytes: skillMd("b") }], { root: "my-skills" }), "catalog-invalid");
  assert.equal(bad.diagnostics.length, 1);
  const [d] = bad.diagnostics;
  assert.equal(d.rule, "name-matches-directory");
  assert.equal(d.path, "a/SKILL.md");
  assert.equal(d.severity, "error");
  assert.ok(d.rendered.startsWith("error[name-matches-directory]: my-skills/a/SKILL.md"), d.rendered);
  assert.ok(bad.message.includes(d.rendered));
  // An empty folder is a valid, empty catalog.
  const empty = compileCatalog([]);
  assert.equal(empty.skills.length, 0);
  assert.deepEqual(call(new SkillsServer({ pack: empty.pack }), "skills/list").skills, []);
});
