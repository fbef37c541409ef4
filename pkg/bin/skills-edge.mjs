#!/usr/bin/env node
// `skills-edge pack <dir> -o <file>`: compiles a skills folder into a pack with the package's
// WebAssembly compiler (the same code, rules and messages as the native build), for
// `new SkillsServer({ pack })`. `--check` prints the entries instead of writing;
// `skills-edge check <dir>` is the same. Arguments, output and exit statuses are those of the
// native `skills-edge` command: 0 done, 1 the folder breaks a rule (or a file cannot be
// written), 2 bad arguments. Every command line (check, pack, worker, verify) and the usage
// text are read and made by the library's one parser (parseCommand, commandUsage: the
// library's command::args, which the native command runs too), so both commands accept and
// refuse the same arguments with the same messages; this file does the I/O.
//
// The folder is read here, without following symbolic links; whatever is not a regular file
// or a directory is handed to the compiler as such, so it is reported exactly as the native
// build reports it.
//
// `skills-edge worker <dir> --out <dir>` writes a Cloudflare Worker project serving the folder:
// the prebuilt Worker this package carries (worker/: entry module, wasm-bindgen glue, wasm),
// the folder compiled into its pack and Static Assets, a wrangler.toml made from the
// repository's own (worker/wrangler.toml: the same rules, [assets] and vars) and a
// package.json pinning wrangler. Deploying it needs Node only: no Rust.
//
// `--sign PATH` (check, pack, worker; or SKILLS_SIGNING_KEY) signs every skill with the secret
// key in PATH, for the catalog identity `--catalog-id ID` (or SKILLS_CATALOG_ID; default: the
// key's id): the key file is read here and handed to compileCatalog, whose messages name the
// file and never its contents. `skills-edge keygen --out DIR` makes a key: the seed is
// crypto.randomBytes(32), the files and messages are the WebAssembly core's (signingKeyFiles,
// the library's command::keygen, which the native command runs too), and this file writes
// DIR/signing.key (mode 0600) and DIR/signing.pub, never replacing either.
//
// `skills-edge verify <url>` lists every skill of an MCP server and loads and verifies every
// file; on a `/.well-known/agent-skills/index.json` URL (or `--well-known` and an origin) it
// reads that Agent Skills Discovery index instead, and `--cross-check` compares both. Its run,
// table, JSON lines and exit status are the WebAssembly core's (runVerifyCommand: the
// library's command::report, which the native command runs too); this file only supplies fetch (../lib/transport.js) and node:crypto's
// SHA-256 for fetched content of 8 KiB or more (../lib/node-digest.js), reads the `--trust` key
// files and the `--pins` file (one that does not exist yet is no pins) and writes the pins
// back after the run, as the native command does. It prints only the
// core's output, in which the table, the summary and the error line already have every control
// and bidirectional character the server sent escaped (report::escape_for_terminal).
//
// `skills-edge publish <dir> --bucket NAME …`, `publish --rollback REVISION …` and `gc --keep N
// …` publish a skills folder to an R2 bucket (docs/serving.md, "Update skills without
// redeploying"). The run, its arguments, messages, wrangler command lines and exit statuses
// are the WebAssembly core's (runPublishCommand: the library's command::publish, which the
// native command runs too); this file only supplies the I/O: the folder and key files,
// scratch files, wrangler's `r2` commands run with spawnSync (SKILLS_EDGE_WRANGLER, else
// `npx wrangler`, as the core names them) and the output.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import { chmodSync, cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join as joinPath, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, tmpdir } from "node:os";
import { nodeIoDigest } from "../lib/node-digest.js";
import { httpIo } from "../lib/transport.js";

const require = createRequire(import.meta.url);
const { commandUsage, compileCatalog, inspectorFiles, parseCommand, runPublishCommand, runVerifyCommand, signingKeyFiles, SkillsServer } = require("../node/skills_edge.js");

/** The prebuilt Worker (scripts/build-worker.sh --runtime). */
const RUNTIME = fileURLToPath(new URL("../worker/", import.meta.url));

function usageError(msg) {
  process.stderr.write(`error: ${msg}\n\n${commandUsage()}`);
  return 2;
}

// Rust's io::Error text for the errors a folder walk meets, so messages match the native
// command's; anything else keeps Node's own message.
const OS_MESSAGES = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  ENOTDIR: "Not a directory",
  EISDIR: "Is a directory",
  ELOOP: "Too many levels of symbolic links",
  EIO: "Input/output error",
  ENAMETOOLONG: "File name too long",
  EMFILE: "Too many open files",
  EEXIST: "File exists",
};

function osError(e) {
  const text = OS_MESSAGES[e?.code];
  const errno = constants.errno[e?.code];
  return text && errno !== undefined ? `${text} (os error ${errno})` : String(e?.message ?? e);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads `root` into compiler entries, in byte order of names, never following links. */
function readFolder(root) {
  const entries = [];
  let st;
  try {
    st = lstatSync(root);
  } catch (e) {
    entries.push({ path: "", kind: "unreadable", what: "root", error: osError(e) });
    return entries;
  }
  if (!st.isDirectory()) {
    // A link to a folder is not followed either, as in the native walker.
    entries.push({ path: "", kind: "not-a-directory" });
    return entries;
  }
  visit(Buffer.from(root), "", entries);
  return entries;
}

function join(dir, name) {
  return Buffer.concat([dir, Buffer.from("/"), name]);
}

function visit(dir, rel, entries) {
  let names;
  try {
    names = readdirSync(dir, { encoding: "buffer" });
  } catch (e) {
    entries.push({ path: rel, kind: "unreadable", what: "directory", error: osError(e) });
    return;
  }
  names.sort(Buffer.compare);
  for (const raw of names) {
    let name;
    try {
      name = utf8.decode(raw);
    } catch {
      entries.push({ path: rel, kind: "bad-name", name: new Uint8Array(raw) });
      continue;
    }
    const childRel = rel === "" ? name : `${rel}/${name}`;
    const full = join(dir, raw);
    let st;
    try {
      st = lstatSync(full);
    } catch (e) {
      entries.push({ path: childRel, kind: "unreadable", what: "entry", error: osError(e) });
      continue;
    }
    if (st.isSymbolicLink()) {
      entries.push({ path: childRel, kind: "symlink" });
    } else if (st.isDirectory()) {
      entries.push({ path: childRel, kind: "directory" });
      visit(full, childRel, entries);
    } else if (st.isFile()) {
      try {
        entries.push({ path: childRel, bytes: readFileSync(full) });
      } catch (e) {
        entries.push({ path: childRel, kind: "unreadable", what: "file", error: osError(e) });
      }
    } else {
      entries.push({ path: childRel, kind: "special" });
    }
  }
}

/** `--strict`, `--skip-invalid`, `--sign` and `--catalog-id` of a parsed command line, as
 * compileCatalog options: the key file is read here (its bytes, or why it cannot be read). */
function buildFlags({ strict, skipInvalid, sign, catalogId, omsSign }) {
  return {
    ...(strict && { strict: true }),
    ...(skipInvalid && { skipInvalid: true }),
    ...(sign !== undefined && { signingKey: keyFile(sign) }),
    ...(catalogId !== undefined && { catalogId }),
    ...(omsSign !== undefined && { omsKey: keyFile(omsSign) }),
  };
}

/** A key file as compileCatalog takes it: its bytes, or why it cannot be read. */
function keyFile(file) {
  try {
    return { file, bytes: readFileSync(file) };
  } catch (e) {
    return { file, error: osError(e) };
  }
}

/** The line the native command prints for an OMS-signed catalog (`--oms-sign`; never the key). */
function omsLine(compiled) {
  return compiled.omsHint === undefined ? "" : `OMS-signed: ${compiled.skills.length} skills (skill.oms.sig in each), key hint ${compiled.omsHint}\n`;
}

/** The line the native command prints for a signed catalog (never the key). */
function signedLine(compiled) {
  const s = compiled.signer;
  return s ? `signed: ${compiled.skills.length} skills, key id ${s.keyId}, catalog ${s.catalog}\n` : "";
}

function packCommand({ dir, output, instructions, ...flags }) {
  let compiled;
  try {
    compiled = compileCatalog(readFolder(dir), {
      root: dir,
      ...(instructions !== undefined && { instructions }),
      ...buildFlags(flags),
    });
  } catch (e) {
    if (e?.code !== "catalog-invalid") throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  for (const w of compiled.warnings) process.stderr.write(`${w.rendered}\n`);
  // Who may see what, skill by skill (a catalog with access rules only), as the native command prints it.
  if (compiled.audience !== undefined) process.stderr.write(compiled.audience);
  process.stderr.write(omsLine(compiled));
  const summary = `${dir}: ${compiled.skills.length} skills, ${compiled.files} files, ${compiled.bytes} bytes`;
  if (output === undefined) {
    const body = compiled.skills.map((s) => JSON.stringify(s)).join(",\n  ");
    process.stdout.write(compiled.skills.length === 0 ? "[]\n" : `[\n  ${body}\n]\n`);
    process.stderr.write(`${summary}: ok\n${signedLine(compiled)}`);
    return 0;
  }
  try {
    // The output's folder is made first (`pack -o build/skills.pack` in a fresh checkout).
    if (!isThere(dirname(output))) mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, compiled.pack);
  } catch (e) {
    process.stderr.write(
      `error: cannot write ${output}: ${osError(e)}\n  fix: check that its folder can be created and written\n`,
    );
    return 1;
  }
  process.stderr.write(`${summary}: wrote ${output} (${compiled.pack.length} bytes)\n${signedLine(compiled)}`);
  return 0;
}

/** Whether anything (a link included, even a dangling one) is at `path`. */
function isThere(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The native command's message when `what` cannot be written. */
function writeError(what, e) {
  return `error: cannot write ${what}: ${osError(e)}\n  fix: check that the folder can be created and written\n`;
}

/** Creates `file.path` with `file.text` (never replacing a file), then sets exactly `mode`. */
function create(file, mode) {
  writeFileSync(file.path, file.text, { flag: "wx", mode });
  chmodSync(file.path, mode);
}

function keygenCommand({ out }) {
  const files = signingKeyFiles(out, randomBytes(32));
  for (const f of [files.secret, files.public]) {
    if (isThere(f.path)) {
      process.stderr.write(`${f.exists}\n`);
      return 1;
    }
  }
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    process.stderr.write(writeError(out, e));
    return 1;
  }
  const failed = (f, e) => {
    process.stderr.write(e?.code === "EEXIST" ? `${f.exists}\n` : writeError(f.path, e));
    return 1;
  };
  try {
    create(files.secret, 0o600);
  } catch (e) {
    // A secret half written is removed (one that was already there is not this run's).
    if (e?.code !== "EEXIST") rmSync(files.secret.path, { force: true });
    return failed(files.secret, e);
  }
  try {
    create(files.public, 0o644);
  } catch (e) {
    // No secret without its public half: the next run starts clean.
    rmSync(files.secret.path, { force: true });
    return failed(files.public, e);
  }
  process.stdout.write(`${files.keyId}\n`);
  process.stderr.write(`${files.written}\n`);
  return 0;
}

/** Whether `dir` is missing or an empty folder; throws when it cannot be read. */
function isEmptyOrMissing(dir) {
  try {
    return readdirSync(dir).length === 0;
  } catch (e) {
    if (e?.code === "ENOENT") return true;
    throw e;
  }
}

/** Replaces the one line of `text` matching `re` (multiline, anchored) or throws. */
function replaceLine(text, re, line, what) {
  const found = text.match(new RegExp(re.source, "gm"));
  if (found?.length !== 1) throw new Error(`worker/wrangler.toml of this package has ${found?.length ?? 0} ${what} lines, not one: the package is damaged; reinstall it`);
  return text.replace(new RegExp(re.source, "m"), line);
}

/** The project's wrangler.toml: the repository's, named, with the extra Host names. */
function wranglerToml(name, hosts, { source, out }) {
  const template = readFileSync(joinPath(RUNTIME, "wrangler.toml"), "utf8");
  const start = template.search(/^name = /m);
  if (start < 0) throw new Error("worker/wrangler.toml of this package has no name line: the package is damaged; reinstall it");
  let body = replaceLine(template.slice(start), /^name = ".*"$/, `name = ${JSON.stringify(name)}`, "name");
  const allowed = /^ALLOWED_HOSTS = "(.*)"$/m.exec(body)?.[1];
  if (allowed === undefined) throw new Error("worker/wrangler.toml of this package has no ALLOWED_HOSTS line: the package is damaged; reinstall it");
  const list = [...allowed.split(","), ...hosts.filter((h) => !allowed.split(",").includes(h))].join(",");
  body = replaceLine(body, /^ALLOWED_HOSTS = ".*"$/, `ALLOWED_HOSTS = ${JSON.stringify(list)}`, "ALLOWED_HOSTS");
  const header = `# A Cloudflare Worker serving the skills folder ${source} over MCP (Streamable HTTP at /mcp,
# and the /.well-known/agent-skills/ mirror), written by \`skills-edge worker\` (skills-edge ${require("../package.json").version}).
# worker/ holds the prebuilt Worker (entry.mjs, build/: the wasm and its glue; skills.mjs, the same
# Worker as a handler for AUTH_MODE = "provider"), the catalog pack (worker/build/catalog.pack),
# the files the pack leaves out (worker/build/assets/, named by SHA-256) and the skills inspector
# page (worker/build/assets/inspector/, served at /inspector/ with INSPECTOR = "on"). After
# changing the skills, run the command again:
#   npx skills-edge worker ${source} --out ${out}
# (with --sign KEY again if you signed the skills: the key is never kept here).
# It rewrites worker/ only and keeps this file as you edit it (vars, routes, custom domains,
# bindings); --var NAME=VALUE and --route set vars and routes here from the command line.
#   local:  npm install && npx wrangler dev    (http://127.0.0.1:8787/mcp)
#   deploy: npx wrangler login && npx wrangler deploy   (CI: CLOUDFLARE_API_TOKEN and
#           CLOUDFLARE_ACCOUNT_ID instead of login); the URL is
#           https://${name}.<your workers.dev subdomain>.workers.dev/mcp
# Every file of every skill is public to whoever can reach the URL (see AUTH_MODE below).
`;
  return `${header}${body}`;
}

// Editing a wrangler.toml the user may have changed: only the lines a setting names are
// touched, everything else (comments, order, other tables and bindings) stays byte for byte.
// The top-level [vars] table is the one the Worker reads; [env.NAME.vars] are left alone.

const TABLE_HEADER = /^[ \t]*\[/;

/** The line range [from, to) of the top-level table `[name]` (its header at `from - 1`), or undefined. */
function tableRange(lines, name) {
  const header = new RegExp(`^[ \\t]*\\[[ \\t]*${name}[ \\t]*\\][ \\t]*(#.*)?$`);
  const at = lines.findIndex((l) => header.test(l));
  if (at < 0) return undefined;
  let to = at + 1;
  while (to < lines.length && !TABLE_HEADER.test(lines[to])) to++;
  return { from: at + 1, to };
}

/** A TOML basic string holding `value` (JSON's escapes are TOML's). */
const tomlString = (value) => JSON.stringify(value);

/** The text of `[vars]` with `name` set to `value`: its line replaced, or added at the table's end (the table made if missing). */
function setVar(text, name, value) {
  const lines = text.split("\n");
  const topLevel = lines.slice(0, lines.findIndex((l) => TABLE_HEADER.test(l)) >>> 0);
  if (topLevel.some((l) => /^[ \t]*vars[ \t]*[.=]/.test(l))) {
    throw new Error("wrangler.toml sets vars as a key (vars = { ... } or vars.NAME): write them as a [vars] table, or set " + name + " there by hand");
  }
  const line = `${name} = ${tomlString(value)}`;
  const range = tableRange(lines, "vars");
  if (range === undefined) {
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return `${lines.join("\n")}\n\n[vars]\n${line}\n`;
  }
  const key = new RegExp(`^[ \\t]*${name}[ \\t]*=`);
  const found = lines.findIndex((l, i) => i >= range.from && i < range.to && key.test(l));
  if (found >= 0) {
    lines[found] = line;
  } else {
    let last = range.to;
    while (last > range.from && /^[ \t]*(#.*)?$/.test(lines[last - 1])) last--;
    lines.splice(last, 0, line);
  }
  return lines.join("\n");
}

/** The value of `name` in `[vars]` when it is one plain string on its line; null when absent. */
function getVar(text, name) {
  const lines = text.split("\n");
  const range = tableRange(lines, "vars");
  if (range === undefined) return null;
  const key = new RegExp(`^[ \\t]*${name}[ \\t]*=[ \\t]*(.*)$`);
  for (let i = range.from; i < range.to; i++) {
    const m = key.exec(lines[i]);
    if (!m) continue;
    const v = /^"([^"\\]*)"[ \t]*(#.*)?$/.exec(m[1]) ?? /^'([^']*)'[ \t]*(#.*)?$/.exec(m[1]);
    if (!v) throw new Error(`wrangler.toml's ${name} is not one plain string on its line: add the host names there by hand`);
    return v[1];
  }
  return null;
}

/** The text with `route` added as a [[routes]] table, unless a route of that pattern is there. */
function addRoute(text, route) {
  if (new RegExp(`^[ \\t]*pattern[ \\t]*=[ \\t]*${JSON.stringify(route.pattern).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m").test(text)) return text;
  const lines = text.split("\n");
  const topLevel = lines.slice(0, lines.findIndex((l) => TABLE_HEADER.test(l)) >>> 0);
  if (topLevel.some((l) => /^[ \t]*routes?[ \t]*=/.test(l))) {
    throw new Error(`wrangler.toml lists its routes as a key (route = or routes = [...]): add ${route.pattern} there by hand, or write the routes as [[routes]] tables`);
  }
  const where = route.zone == null ? "custom_domain = true" : `zone_name = ${tomlString(route.zone)}`;
  return `${text.replace(/\n*$/, "")}\n\n[[routes]]\npattern = ${tomlString(route.pattern)}\n${where}\n`;
}

/** `toml` with the command line's settings: each --var, each --route, and their host names and --allowed-hosts accepted. */
function withSettings(toml, { vars, routes, hosts }) {
  let text = toml;
  for (const [name, value] of vars) text = setVar(text, name, value);
  const wanted = [...hosts, ...routes.map((r) => r.pattern.split("/")[0])];
  if (wanted.length > 0) {
    const current = getVar(text, "ALLOWED_HOSTS");
    const list = (current ?? "localhost,127.0.0.1,[::1],*.workers.dev").split(",").filter((h) => h !== "");
    const missing = wanted.filter((h, i) => !list.includes(h) && wanted.indexOf(h) === i);
    if (missing.length > 0 && !list.includes("*")) text = setVar(text, "ALLOWED_HOSTS", [...list, ...missing].join(","));
  }
  for (const route of routes) text = addRoute(text, route);
  return text;
}

/** Reads `path` as UTF-8, or undefined when nothing is there. */
function readIfThere(path) {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (e?.code === "ENOENT") return undefined;
    throw e;
  }
}

/** Copies the skills inspector page (the package's `inspectorFiles()`) into `page`, as scripts/build-worker.sh does. */
function copyInspector(page) {
  const pkgRoot = fileURLToPath(new URL("../", import.meta.url));
  for (const [f] of inspectorFiles()) {
    const to = joinPath(page, f);
    mkdirSync(dirname(to), { recursive: true });
    if (f === "index.html") {
      const html = readFileSync(joinPath(pkgRoot, "inspector", "index.html"), "utf8");
      const from = '"skills-edge/client": "../lib/client-web.js"';
      if (!html.includes(from)) throw new Error("inspector/index.html of this package has no import map entry for skills-edge/client: the package is damaged; reinstall it");
      writeFileSync(to, html.replace(from, '"skills-edge/client": "./lib/client-web.js"'));
    } else {
      cpSync(joinPath(pkgRoot, f.startsWith("lib/") || f.startsWith("web/") ? f : joinPath("inspector", f)), to);
    }
  }
}

/** Whether `out` holds a Worker project this command wrote (its Worker and its wrangler.toml). */
function isWorkerProject(out) {
  return isThere(joinPath(out, "worker", "entry.mjs")) && isThere(joinPath(out, "wrangler.toml"));
}

/** The key id that signed the skills of the pack at `path` (a Worker this command wrote
 * before), or undefined when there is no such pack, it is not signed, or it cannot be read
 * (the rebuild replaces it). */
function packSigner(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  let server;
  try {
    server = new SkillsServer({ pack: bytes });
    return server.catalogInfo().signerKeyId;
  } catch {
    return undefined;
  } finally {
    server?.free();
  }
}

function workerCommand({ dir, out, name, hosts, inlineMax, force, unsigned, vars, routes, ...flags }) {
  try {
    if (!force && !isWorkerProject(out) && !isEmptyOrMissing(out)) {
      process.stderr.write(
        `error: ${out} is not empty and holds no Worker project of skills-edge worker\n  fix: give a new or empty folder, or --force to write the Worker project into it (worker/ is replaced; wrangler.toml, package.json and .gitignore are kept when there)\n`,
      );
      return 1;
    }
  } catch (e) {
    process.stderr.write(`error: cannot read ${out}: ${osError(e)}\n  fix: give a folder that can be created and written\n`);
    return 1;
  }
  let compiled;
  try {
    compiled = compileCatalog(readFolder(dir), { root: dir, inlineMax, ...buildFlags(flags) });
  } catch (e) {
    if (e?.code !== "catalog-invalid") throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  const wrangler = JSON.parse(readFileSync(joinPath(RUNTIME, "versions.json"), "utf8")).wrangler;
  const tomlPath = joinPath(out, "wrangler.toml");
  let toml;
  let kept;
  let authMode;
  try {
    kept = readIfThere(tomlPath);
    // The user's wrangler.toml is theirs: only what --var, --route and --allowed-hosts name changes.
    toml = withSettings(kept ?? wranglerToml(name, [], { source: dir, out }), { vars, routes, hosts });
  } catch (e) {
    process.stderr.write(`error: ${tomlPath}: ${e.message}\n`);
    return 1;
  }
  // `access-needs-auth` says private skills are served to nobody without a token mode: not so
  // when the project's wrangler.toml (as this run leaves it) sets one.
  try {
    authMode = getVar(toml, "AUTH_MODE");
  } catch {
    authMode = null; // not one plain string: the Worker says what it reads when it starts
  }
  const tokens = authMode !== null && authMode !== "none";
  for (const w of compiled.warnings) {
    if (!(tokens && w.rule === "access-needs-auth")) process.stderr.write(`${w.rendered}\n`);
  }
  if (compiled.audience !== undefined) process.stderr.write(compiled.audience);
  process.stderr.write(omsLine(compiled));
  const build = joinPath(out, "worker", "build");
  const assets = joinPath(build, "assets");
  // A rebuild keeps what the Worker promised its hosts: skills signed before stay signed
  // unless --unsigned says to drop the signatures.
  const signedBefore = packSigner(joinPath(build, "catalog.pack"));
  if (signedBefore !== undefined && compiled.signer === undefined && !unsigned) {
    process.stderr.write(
      `error: the Worker in ${out} serves skills signed by key id ${signedBefore}, and this build has no signing key: the rebuild would serve them unsigned, and hosts that trust that key would refuse them\n  fix: give the key again (--sign PATH or SKILLS_SIGNING_KEY), or --unsigned to serve the skills unsigned on purpose\n`,
    );
    return 1;
  }
  try {
    // What this command owns is worker/: replaced whole. Nothing else in the folder is touched
    // but wrangler.toml (only as above), package.json (its wrangler) and a missing .gitignore.
    rmSync(joinPath(out, "worker"), { recursive: true, force: true });
    mkdirSync(assets, { recursive: true });
    cpSync(joinPath(RUNTIME, "entry.mjs"), joinPath(out, "worker", "entry.mjs"));
    // The same Worker as a handler to compose (AUTH_MODE = "provider", behind
    // @cloudflare/workers-oauth-provider: docs/private.md).
    cpSync(joinPath(RUNTIME, "skills.mjs"), joinPath(out, "worker", "skills.mjs"));
    // The wasm, its glue and the glue's snippets (inline JavaScript modules it imports).
    cpSync(joinPath(RUNTIME, "build"), build, { recursive: true });
    writeFileSync(joinPath(build, "catalog.pack"), compiled.pack);
    for (const a of compiled.assets) writeFileSync(joinPath(assets, a.name), a.bytes);
    copyInspector(joinPath(assets, "inspector"));
    if (toml !== kept) writeFileSync(tomlPath, toml);
    const packagePath = joinPath(out, "package.json");
    const existing = readIfThere(packagePath);
    const project =
      existing === undefined
        ? {
            name,
            private: true,
            description: `The skills folder ${basename(resolvePath(dir))}, served over MCP by a Cloudflare Worker (skills-edge)`,
            scripts: { dev: "wrangler dev", deploy: "wrangler deploy" },
            devDependencies: { wrangler },
          }
        : JSON.parse(existing);
    project.devDependencies = { ...project.devDependencies, wrangler };
    const packageText = `${JSON.stringify(project, null, 2)}\n`;
    if (packageText !== existing) writeFileSync(packagePath, packageText);
    if (!isThere(joinPath(out, ".gitignore"))) writeFileSync(joinPath(out, ".gitignore"), "node_modules/\n.wrangler/\n");
  } catch (e) {
    process.stderr.write(`error: cannot write the Worker project into ${out}: ${e instanceof SyntaxError ? `package.json: ${e.message}` : osError(e)}\n  fix: check that the folder can be created and written${e instanceof SyntaxError ? " and that its package.json is JSON" : ""}\n`);
    return 1;
  }
  // The Worker's name is the kept wrangler.toml's when there is one (--name only names a new one).
  const firstTable = toml.search(/^\[/m);
  const top = firstTable === -1 ? toml : toml.slice(0, firstTable);
  const shownName = (kept !== undefined && /^name[ \t]*=[ \t]*"([^"\\]*)"/m.exec(top)?.[1]) || name;
  // A file of a nested skill is listed by both skills: count each once.
  const sizes = new Map(compiled.skills.flatMap((s) => s.resources).map((r) => [r.uri, r.size]));
  const inline = [...sizes.values()].filter((size) => size <= inlineMax).length;
  process.stderr.write(
    `${dir}: ${compiled.skills.length} skills, ${compiled.files} files, ${compiled.bytes} bytes: wrote the Worker ${JSON.stringify(shownName)} into ${out} ` +
      `(pack ${compiled.pack.length} bytes, ${inline} files inline; ${compiled.assets.length} assets)\n${signedLine(compiled)}`,
  );
  if (kept !== undefined) {
    process.stderr.write(`kept ${tomlPath} as it was${toml !== kept ? ", with the --var, --route and --allowed-hosts given" : ""}\n`);
  }
  for (const w of compiled.uploadWarnings) process.stderr.write(`${w}\n`);
  process.stderr.write(`next: cd ${out} && npm install && npx wrangler dev (local), or npx wrangler login && npx wrangler deploy\n`);
  return 0;
}

/** The texts of the `--trust` and `--pins` files (`runVerifyCommand`'s `files`), or the message of an error. */
function signerFiles(parsed) {
  const files = { trust: [] };
  for (const path of parsed.trust) {
    try {
      files.trust.push(readFileSync(path, "utf8"));
    } catch (e) {
      return { error: `--trust ${path}: cannot be read: ${osError(e)}` };
    }
  }
  if (parsed.pins !== undefined) {
    try {
      files.pins = readFileSync(parsed.pins, "utf8");
    } catch (e) {
      if (e?.code !== "ENOENT") return { error: `--pins ${parsed.pins}: cannot be read: ${osError(e)}` };
    }
  }
  return { files };
}

async function verifyCommand(parsed, args) {
  const { files, error } = signerFiles(parsed);
  if (error !== undefined) {
    process.stderr.write(`error: ${error}\n`);
    return 2;
  }
  // Fetched content of 8 KiB or more is hashed with node:crypto; the verifier decides.
  const io = Object.assign(
    httpIo({ url: parsed.url, headers: parsed.headers, fetch: globalThis.fetch }, { timeoutMs: parsed.timeoutMs }),
    nodeIoDigest,
  );
  const out = await runVerifyCommand(args, io, files);
  await new Promise((resolve) => process.stdout.write(out.stdout, resolve));
  process.stderr.write(out.stderr);
  if (parsed.pins !== undefined && out.pins !== undefined) {
    try {
      writeFileSync(parsed.pins, `${out.pins}\n`);
    } catch (e) {
      process.stderr.write(`error: --pins ${parsed.pins}: cannot be written: ${osError(e)}\n`);
      return 2;
    }
  }
  return out.exitCode;
}

/** Runs `f`; undefined when done, else the system's reason (as the native command words it). */
function tried(f) {
  try {
    f();
    return undefined;
  } catch (e) {
    return osError(e);
  }
}

/** `skills-edge publish …` and `skills-edge gc …`: the core's run with Node's I/O. */
function publishCommand(args) {
  return runPublishCommand(args, {
    env: process.env,
    scratch: joinPath(tmpdir(), `skills-edge-publish-${process.pid}`),
    readFolder,
    readFile(path) {
      try {
        return readFileSync(path);
      } catch (e) {
        return osError(e);
      }
    },
    writeFile: (path, bytes) => tried(() => writeFileSync(path, bytes)),
    removeFile: (path) => rmSync(path, { force: true }),
    makeDir: (path) => tried(() => mkdirSync(path, { recursive: true })),
    removeDir: (path) => rmSync(path, { recursive: true, force: true }),
    run(program, argv) {
      const r = spawnSync(program, argv, { env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, maxBuffer: 1 << 30 });
      if (r.error !== undefined) return osError(r.error);
      return { ok: r.status === 0, text: `${r.stdout.toString("utf8")}${r.stderr.toString("utf8")}` };
    },
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}

function main(args) {
  // `publish` and `gc` read their own flags and hand the folder's to the pack command's
  // parser, as the native command does.
  if (args[0] === "publish" || args[0] === "gc") return publishCommand(args);
  let parsed;
  try {
    parsed = parseCommand(args, process.env);
  } catch (e) {
    if (e?.code !== "invalid-argument") throw e;
    return usageError(e.message);
  }
  switch (parsed.command) {
    case "verify":
      return verifyCommand(parsed, args.slice(1));
    case "pack":
    case "check":
      return packCommand(parsed);
    case "worker":
      return workerCommand(parsed);
    case "keygen":
      return keygenCommand(parsed);
    case "version":
      process.stdout.write(`skills-edge ${require("../package.json").version}\n`);
      return 0;
    case "help":
      // The whole usage, or one subcommand's (`skills-edge verify --help`).
      process.stdout.write(parsed.usage);
      return 0;
    default:
      throw new Error(`parseCommand gave an unknown command ${JSON.stringify(parsed.command)}`);
  }
}

process.exitCode = await main(process.argv.slice(2));
