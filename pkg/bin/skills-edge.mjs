#!/usr/bin/env node
// `skills-edge pack <dir> -o <file>`: compiles a skills folder into a pack with the package's
// WebAssembly compiler (the same code, rules and messages as the native build), for
// `new SkillsServer({ pack })`. `--check` prints the entries instead of writing;
// `skills-edge check <dir>` is the same. Arguments, output and exit statuses are those of the
// native `skills-edge` command: 0 done, 1 the folder breaks a rule (or a file cannot be
// written), 2 bad arguments.
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
// `skills-edge verify <url>` lists every skill of an MCP server and loads and verifies every
// file; on a `/.well-known/agent-skills/index.json` URL (or `--well-known` and an origin) it
// reads that Agent Skills Discovery index instead, and `--cross-check` compares both. Its arguments, run, table, JSON lines and exit status are the WebAssembly core's
// (parseVerifyArgs, runVerifyCommand: the library's command::report, which the native
// command runs too); this file only supplies fetch (../lib/transport.js) and node:crypto's
// SHA-256 for fetched content of 8 KiB or more (../lib/node-digest.js). It prints only the
// core's output, in which the table, the summary and the error line already have every control
// and bidirectional character the server sent escaped (report::escape_for_terminal).
import { createRequire } from "node:module";
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join as joinPath, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { constants } from "node:os";
import { nodeIoDigest } from "../lib/node-digest.js";
import { httpIo } from "../lib/transport.js";

const require = createRequire(import.meta.url);
const { buildOptions, compileCatalog, parseVerifyArgs, runVerifyCommand, verifyUsage } = require("../node/skills_edge.js");

/** The prebuilt Worker (scripts/build-worker.sh --runtime). */
const RUNTIME = fileURLToPath(new URL("../worker/", import.meta.url));

const USAGE = `skills-edge: compile Agent Skills into a pack for skills-edge's SkillsServer, and verify
the skills an MCP server serves

USAGE:
    skills-edge pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]
        Compile a skills folder into a pack (load it with new SkillsServer({ pack }));
        --check prints the entries instead of writing. Exit status 1 on any error.
    skills-edge check <dir> [--strict] [--skip-invalid]
        Check a skills folder; print the entries it would publish (JSON) on stdout,
        problems on stderr; exit status 1 when the folder cannot be published.
    skills-edge worker <dir> --out <dir> [--name NAME] [--allowed-hosts HOST,HOST]
                       [--inline-max BYTES] [--strict] [--skip-invalid] [--force]
        Write a Cloudflare Worker project serving the folder into --out (refused when it
        is not empty, unless --force): wrangler.toml, package.json (wrangler pinned), the
        prebuilt Worker and the folder's pack, with every file larger than BYTES (default
        8192; 0: every non-empty file) as a Static Asset. Then: cd <out> && npm install &&
        npx wrangler dev (local), or npx wrangler login && npx wrangler deploy.
        --name: the Worker's name (default skills-edge), its URL
        https://NAME.SUBDOMAIN.workers.dev/mcp. --allowed-hosts: Host names accepted besides
        localhost, 127.0.0.1, [::1] and *.workers.dev (your custom domains).
    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
    SKILLS_STRICT=1 and SKILLS_ON_INVALID=skip in the environment turn --strict and
        --skip-invalid on for check, pack and worker, as they do for the build.
${verifyUsage()}    skills-edge --version | --help
`;

function usageError(msg) {
  process.stderr.write(`error: ${msg}\n\n${USAGE}`);
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

/**
 * `--strict` and `--skip-invalid` as set by SKILLS_STRICT and SKILLS_ON_INVALID (read by the
 * compiler's `buildOptions`, as the build reads them), and `--inline-max` (`inlineMax`, text).
 */
function buildDefaults(inlineMax) {
  try {
    return { value: buildOptions(process.env, inlineMax) };
  } catch (e) {
    if (e?.code !== "invalid-argument") throw e;
    return { error: e.message };
  }
}

function envOptions() {
  const d = buildDefaults();
  if (d.error) return d;
  return { value: { ...(d.value.strict && { strict: true }), ...(d.value.skipInvalid && { skipInvalid: true }) } };
}

function parsePackArgs(args) {
  let dir;
  let output;
  let check = false;
  let instructions;
  const env = envOptions();
  if (env.error) return env;
  const options = env.value;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--strict") {
      options.strict = true;
    } else if (a === "--skip-invalid") {
      options.skipInvalid = true;
    } else if (a === "-o" || a === "--output") {
      if (i + 1 >= args.length) return { error: "-o needs a file name" };
      output = args[++i];
    } else if (a === "--check") {
      check = true;
    } else if (a === "--instructions") {
      if (i + 1 >= args.length) return { error: "--instructions needs a text" };
      instructions = args[++i];
    } else if (a.startsWith("-") && a.length > 1) {
      return { error: `unknown option ${JSON.stringify(a)}` };
    } else if (dir !== undefined) {
      return { error: "pack takes exactly one folder" };
    } else {
      dir = a;
    }
  }
  if (dir === undefined) return { error: "pack needs a skills folder" };
  if (output !== undefined && check) return { error: "give either -o <file> or --check, not both" };
  if (output === undefined && !check) return { error: "pack needs -o <file> (or --check to only check)" };
  return { dir, output, instructions, options };
}

/** `check <dir> [--strict] [--skip-invalid]`: `pack --check` with fewer options. */
function parseCheckArgs(args) {
  const usage = "check takes exactly one folder (and --strict, --skip-invalid)";
  let dir;
  const env = envOptions();
  if (env.error) return env;
  const options = env.value;
  for (const a of args) {
    if (a === "--strict") options.strict = true;
    else if (a === "--skip-invalid") options.skipInvalid = true;
    else if (a.startsWith("-") && a.length > 1) return { error: `unknown option ${JSON.stringify(a)}` };
    else if (dir !== undefined) return { error: usage };
    else dir = a;
  }
  return dir === undefined ? { error: usage } : { dir, options };
}

function packCommand({ dir, output, instructions, options = {} }) {
  let compiled;
  try {
    compiled = compileCatalog(readFolder(dir), {
      root: dir,
      ...(instructions !== undefined && { instructions }),
      ...options,
    });
  } catch (e) {
    if (e?.code !== "catalog-invalid") throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  for (const w of compiled.warnings) process.stderr.write(`${w.rendered}\n`);
  const summary = `${dir}: ${compiled.skills.length} skills, ${compiled.files} files, ${compiled.bytes} bytes`;
  if (output === undefined) {
    const body = compiled.skills.map((s) => JSON.stringify(s)).join(",\n  ");
    process.stdout.write(compiled.skills.length === 0 ? "[]\n" : `[\n  ${body}\n]\n`);
    process.stderr.write(`${summary}: ok\n`);
    return 0;
  }
  try {
    writeFileSync(output, compiled.pack);
  } catch (e) {
    process.stderr.write(
      `error: cannot write ${output}: ${osError(e)}\n  fix: check that its folder exists and is writable\n`,
    );
    return 1;
  }
  process.stderr.write(`${summary}: wrote ${output} (${compiled.pack.length} bytes)\n`);
  return 0;
}

/** A Worker name Cloudflare accepts, which is also the workers.dev host name's first label. */
const WORKER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** `worker <dir> --out <dir> [--name NAME] [--allowed-hosts H,H] [--inline-max N] [--strict] [--skip-invalid] [--force]`. */
function parseWorkerArgs(args) {
  let dir;
  let out;
  let name = "skills-edge";
  let hosts = [];
  let inlineMax;
  let force = false;
  const env = envOptions();
  if (env.error) return env;
  const options = env.value;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (what) => (i + 1 < args.length ? args[++i] : undefined) ?? { error: `${a} needs ${what}` };
    if (a === "--strict") options.strict = true;
    else if (a === "--skip-invalid") options.skipInvalid = true;
    else if (a === "--force") force = true;
    else if (a === "--out" || a === "-o" || a === "--name" || a === "--allowed-hosts" || a === "--inline-max") {
      const v = value({ "--name": "a Worker name", "--allowed-hosts": "a comma-separated list of host names", "--inline-max": "a number of bytes" }[a] ?? "a folder");
      if (typeof v !== "string") return v;
      if (a === "--name") name = v;
      else if (a === "--allowed-hosts") hosts = v.split(",").map((h) => h.trim()).filter((h) => h !== "");
      else if (a === "--inline-max") inlineMax = v;
      else out = v;
    } else if (a.startsWith("-") && a.length > 1) return { error: `unknown option ${JSON.stringify(a)}` };
    else if (dir !== undefined) return { error: "worker takes exactly one folder" };
    else dir = a;
  }
  if (dir === undefined) return { error: "worker needs a skills folder" };
  if (out === undefined) return { error: "worker needs --out <dir> (the folder to write the Worker project into)" };
  if (!WORKER_NAME.test(name)) {
    return { error: `--name ${JSON.stringify(name)} is not a Worker name: use lowercase letters, digits and dashes (up to 63, not first or last), e.g. team-skills` };
  }
  // The Worker checks every name's form when it starts (ALLOWED_HOSTS); here only what would
  // not stay one TOML string.
  const bad = hosts.find((h) => !/^[\x21-\x7e]+$/.test(h) || /["\\,]/.test(h));
  if (bad !== undefined) return { error: `--allowed-hosts: ${JSON.stringify(bad)} is not a host name: use names such as skills.example.com or *.example.com, separated by commas` };
  const d = buildDefaults(inlineMax);
  if (d.error) return d;
  return { dir, out, name, hosts, inlineMax: d.value.inlineMax, force, options };
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
# worker/ holds the prebuilt Worker (entry.mjs, build/: the wasm and its glue), the catalog pack
# (worker/build/catalog.pack) and the files the pack leaves out (worker/build/assets/, named by
# SHA-256). After changing the skills, run the command again with --force:
#   npx skills-edge worker ${source} --out ${out} --force
#   local:  npm install && npx wrangler dev    (http://127.0.0.1:8787/mcp)
#   deploy: npx wrangler login && npx wrangler deploy   (CI: CLOUDFLARE_API_TOKEN and
#           CLOUDFLARE_ACCOUNT_ID instead of login); the URL is
#           https://${name}.<your workers.dev subdomain>.workers.dev/mcp
# Every file of every skill is public to whoever can reach the URL.
# The skills inspector page is not part of this project: with INSPECTOR = "on", /inspector/
# answers 503 (the repository's scripts/build-worker.sh adds the page).
`;
  return `${header}${body}`;
}

function workerCommand({ dir, out, name, hosts, inlineMax, force, options }) {
  try {
    if (!force && !isEmptyOrMissing(out)) {
      process.stderr.write(`error: ${out} is not empty\n  fix: give a new or empty folder, or --force to replace the Worker project in it\n`);
      return 1;
    }
  } catch (e) {
    process.stderr.write(`error: cannot read ${out}: ${osError(e)}\n  fix: give a folder that can be created and written\n`);
    return 1;
  }
  let compiled;
  try {
    compiled = compileCatalog(readFolder(dir), { root: dir, inlineMax, ...options });
  } catch (e) {
    if (e?.code !== "catalog-invalid") throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  for (const w of compiled.warnings) process.stderr.write(`${w.rendered}\n`);
  const wrangler = JSON.parse(readFileSync(joinPath(RUNTIME, "versions.json"), "utf8")).wrangler;
  const toml = wranglerToml(name, hosts, { source: dir, out });
  const build = joinPath(out, "worker", "build");
  const assets = joinPath(build, "assets");
  try {
    // --force replaces what this command writes; nothing else in the folder is touched.
    rmSync(joinPath(out, "worker"), { recursive: true, force: true });
    mkdirSync(assets, { recursive: true });
    cpSync(joinPath(RUNTIME, "entry.mjs"), joinPath(out, "worker", "entry.mjs"));
    // The wasm, its glue and the glue's snippets (inline JavaScript modules it imports).
    cpSync(joinPath(RUNTIME, "build"), build, { recursive: true });
    writeFileSync(joinPath(build, "catalog.pack"), compiled.pack);
    for (const a of compiled.assets) writeFileSync(joinPath(assets, a.name), a.bytes);
    writeFileSync(joinPath(out, "wrangler.toml"), toml);
    const project = {
      name,
      private: true,
      description: `The skills folder ${basename(resolvePath(dir))}, served over MCP by a Cloudflare Worker (skills-edge)`,
      scripts: { dev: "wrangler dev", deploy: "wrangler deploy" },
      devDependencies: { wrangler: wrangler },
    };
    writeFileSync(joinPath(out, "package.json"), `${JSON.stringify(project, null, 2)}\n`);
    writeFileSync(joinPath(out, ".gitignore"), "node_modules/\n.wrangler/\n");
  } catch (e) {
    process.stderr.write(`error: cannot write the Worker project into ${out}: ${osError(e)}\n  fix: check that the folder can be created and written\n`);
    return 1;
  }
  // A file of a nested skill is listed by both skills: count each once.
  const sizes = new Map(compiled.skills.flatMap((s) => s.resources).map((r) => [r.uri, r.size]));
  const inline = [...sizes.values()].filter((size) => size <= inlineMax).length;
  process.stderr.write(
    `${dir}: ${compiled.skills.length} skills, ${compiled.files} files, ${compiled.bytes} bytes: wrote the Worker ${JSON.stringify(name)} into ${out} ` +
      `(pack ${compiled.pack.length} bytes, ${inline} files inline; ${compiled.assets.length} assets)\n`,
  );
  for (const w of compiled.uploadWarnings) process.stderr.write(`${w}\n`);
  process.stderr.write(`next: cd ${out} && npm install && npx wrangler dev (local), or npx wrangler login && npx wrangler deploy\n`);
  return 0;
}

async function verifyCommand(args) {
  let parsed;
  try {
    parsed = parseVerifyArgs(args);
  } catch (e) {
    if (e?.code !== "invalid-argument") throw e;
    return usageError(e.message);
  }
  // Fetched content of 8 KiB or more is hashed with node:crypto; the verifier decides.
  const io = Object.assign(
    httpIo({ url: parsed.url, headers: parsed.headers, fetch: globalThis.fetch }, { timeoutMs: parsed.timeoutMs }),
    nodeIoDigest,
  );
  const out = await runVerifyCommand(args, io);
  await new Promise((resolve) => process.stdout.write(out.stdout, resolve));
  process.stderr.write(out.stderr);
  return out.exitCode;
}

function main(args) {
  switch (args[0]) {
    case "verify":
      return verifyCommand(args.slice(1));
    case "pack": {
      const parsed = parsePackArgs(args.slice(1));
      return parsed.error ? usageError(parsed.error) : packCommand(parsed);
    }
    case "check": {
      const parsed = parseCheckArgs(args.slice(1));
      return parsed.error ? usageError(parsed.error) : packCommand(parsed);
    }
    case "worker": {
      const parsed = parseWorkerArgs(args.slice(1));
      return parsed.error ? usageError(parsed.error) : workerCommand(parsed);
    }
    case "--version":
    case "-V":
      process.stdout.write(`skills-edge ${require("../package.json").version}\n`);
      return 0;
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(USAGE);
      return 0;
    case undefined:
      return usageError("missing command");
    default:
      return usageError(`unknown command ${JSON.stringify(args[0])}`);
  }
}

process.exitCode = await main(process.argv.slice(2));
