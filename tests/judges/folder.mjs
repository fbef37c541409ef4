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
 */
export function published(dir = SKILLS_DIR) {
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
  const roots = all.filter(([p]) => p.endsWith("/SKILL.md")).map(([p]) => p.slice(0, -"/SKILL.md".length));
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
  return { skills: roots.length, files, bytes, dirs: dirs.length };
}
