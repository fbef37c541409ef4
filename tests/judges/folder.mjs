// What a skills folder publishes, computed from the files on disk independently of the
// server: one skill per SKILL.md, each manifest holding every file under that skill's
// directory (a nested skill's files counted in the enclosing skill's manifest too, as the
// compiler publishes them), and one directory resource per directory below the folder.
// The judges' summaries are compared with this.
import { readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's embedded catalog, served by every server the judges run against. */
export const SKILLS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "skills");

/**
 * `{ skills, files, bytes, dirs }` of the folder: `files` and `bytes` summed over every
 * skill's manifest, `dirs` every directory below `dir` (skill roots, their subdirectories
 * and organizational prefix directories).
 *
 * With `roots` (skill folders relative to `dir`), what a caller who sees only those skills
 * may see: their manifests, and the directories at, under or around one of them.
 */
export function published(dir = SKILLS_DIR, { roots: only } = {}) {
  const all = []; // [relative path, size]
  const dirs = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        dirs.push(path);
        walk(path);
      } else if (e.isFile()) {
        all.push([path, statSync(join(dir, path)).size]);
      }
    }
  };
  walk("");
  const every = all.filter(([p]) => p.endsWith("/SKILL.md")).map(([p]) => p.slice(0, -"/SKILL.md".length));
  const unknown = (only ?? []).filter((r) => !every.includes(r));
  if (unknown.length) throw new Error(`published: no skill folder ${unknown.join(", ")} under ${dir}`);
  const roots = only === undefined ? every : every.filter((r) => only.includes(r));
  let files = 0;
  let bytes = 0;
  for (const root of roots) {
    for (const [p, size] of all) {
      if (p.startsWith(`${root}/`)) {
        files++;
        bytes += size;
      }
    }
  }
  const near = (d) => roots.some((r) => d === r || d.startsWith(`${r}/`) || r.startsWith(`${d}/`));
  return { skills: roots.length, files, bytes, dirs: only === undefined ? dirs.length : dirs.filter(near).length };
}
