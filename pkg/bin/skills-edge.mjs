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
// `skills-edge verify <url>` lists every skill of an MCP server and loads and verifies every
// file; on a `/.well-known/agent-skills/index.json` URL (or `--well-known` and an origin) it
// reads that Agent Skills Discovery index instead, and `--cross-check` compares both. Its arguments, run, table, JSON lines and exit status are the WebAssembly core's
// (parseVerifyArgs, runVerifyCommand: the library's host::client::report, which the native
// command runs too); this file only supplies fetch (../lib/transport.js) and node:crypto's
// SHA-256 for fetched content of 8 KiB or more (../lib/node-digest.js).
import { createRequire } from "node:module";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { nodeIoDigest } from "../lib/node-digest.js";
import { httpIo } from "../lib/transport.js";

const require = createRequire(import.meta.url);
const { compileCatalog, parseVerifyArgs, runVerifyCommand, verifyUsage } = require("../node/skills_edge.js");

const USAGE = `skills-edge: compile Agent Skills into a pack for skills-edge's SkillsServer, and verify
the skills an MCP server serves

USAGE:
    skills-edge pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]
        Compile a skills folder into a pack (load it with new SkillsServer({ pack }));
        --check prints the entries instead of writing. Exit status 1 on any error.
    skills-edge check <dir> [--strict] [--skip-invalid]
        Check a skills folder; print the entries it would publish (JSON) on stdout,
        problems on stderr; exit status 1 when the folder cannot be published.
    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
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

function parsePackArgs(args) {
  let dir;
  let output;
  let check = false;
  let instructions;
  const options = {};
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
  const options = {};
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
