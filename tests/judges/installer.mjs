// The most-used Agent Skills installer as a judge of a site's mirror: the npm `skills` CLI
// (pinned in package.json), which reads /.well-known/agent-skills/index.json (Agent Skills
// Discovery RFC v0.2.0 and v0.1.0), verifies each artifact's digest and unpacks archives with
// its own tar reader. It runs with this process's Node, a scratch HOME and working directory,
// and DO_NOT_TRACK=1 (no telemetry).
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const INSTALLER = join(ROOT, "node_modules", "skills", "dist", "cli.mjs");
/** The installer version the judges are written against (package.json pins it). */
export const INSTALLER_VERSION = "1.7.4";

/** Runs the `skills` CLI with `args` in `cwd`; resolves `{ stdout, stderr }`, rejects on a failure. */
export function skillsCli(args, cwd, home) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [INSTALLER, ...args],
      {
        cwd,
        timeout: 180_000,
        maxBuffer: 16 << 20,
        env: { PATH: process.env.PATH, HOME: home, DO_NOT_TRACK: "1", CI: "1", NO_COLOR: "1", FORCE_COLOR: "0" },
      },
      (err, stdout, stderr) =>
        err ? reject(new Error(`skills ${args.join(" ")}: ${err.message}\n${stdout}\n${stderr}`)) : resolve({ stdout, stderr }),
    );
  });
}

/** Every file under `dir`, as paths relative to it (`/`-separated), sorted. */
export function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Installs every skill `site`'s mirror lists (`skills add <site> --skill '*' --agent
 * claude-code -y --copy`) into a fresh project in `scratch/skills-add/` (emptied first, with a
 * HOME of its own there), and returns the folder that holds one folder per installed skill.
 */
export async function installAll(site, scratch) {
  const base = join(scratch, "skills-add");
  rmSync(base, { recursive: true, force: true });
  const project = join(base, "project");
  const home = join(base, "home");
  for (const d of [project, home]) mkdirSync(d, { recursive: true });
  await skillsCli(["add", site, "--skill", "*", "--agent", "claude-code", "-y", "--copy"], project, home);
  return join(project, ".claude", "skills");
}

/**
 * Installs every skill of `site`'s mirror (`index`, its parsed index.json) and compares what
 * was installed with what is served and published: one folder per mirrored skill, each
 * holding exactly the files of its MCP entry (`entries`, skills/list entries by name), each
 * byte-equal to its file in the source `folder`. Returns `{ skills, files, archives }`;
 * throws an Error naming the first difference.
 */
export async function judgeInstaller({ site, index, entries, folder, scratch }) {
  const installed = await installAll(site, scratch);
  const names = readdirSync(installed).sort();
  const want = index.skills.map((s) => s.name).sort();
  if (names.join("\n") !== want.join("\n")) {
    throw new Error(`installed ${JSON.stringify(names)}, the mirror lists ${JSON.stringify(want)}`);
  }
  let files = 0;
  let archives = 0;
  for (const s of index.skills) {
    const entry = entries.get(s.name);
    if (!entry) throw new Error(`${s.name} is mirrored but not served over MCP`);
    const root = entry.uri.slice(0, -"SKILL.md".length);
    const expected = entry.resources.map((r) => r.uri.slice(root.length)).sort();
    const dir = join(installed, s.name);
    const got = filesUnder(dir);
    if (got.join("\n") !== expected.join("\n")) {
      throw new Error(`${s.name}: installed ${JSON.stringify(got)}, its entry lists ${JSON.stringify(expected)}`);
    }
    for (const r of entry.resources) {
      const bytes = readFileSync(join(dir, r.uri.slice(root.length)));
      const source = readFileSync(join(folder, decodeURIComponent(r.uri.slice("skill://".length))));
      if (!bytes.equals(source)) throw new Error(`${r.uri} was installed with other bytes than the folder's`);
      files++;
    }
    if (s.type === "archive") archives++;
  }
  return { skills: names.length, files, archives };
}
