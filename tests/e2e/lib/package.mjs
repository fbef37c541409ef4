// The npm package as a user installs it: the tarball `SKILLS_EDGE_TARBALL` names (37-deploy-npm
// packs it once for every test file), or one `npm pack` of pkg/ into `scratch`, installed
// offline into a new project folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Makes the project `scratch/folder` (its package.json named `name`), installs the package in
 * it and returns the project's path. `root` is the repository.
 */
export function installPackage(root, scratch, folder, name) {
  let tarball = process.env.SKILLS_EDGE_TARBALL;
  if (!tarball) {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: join(root, "pkg"), encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1);
    tarball = join(scratch, packed);
  }
  const app = join(scratch, folder);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), `{\n  "name": "${name}",\n  "private": true\n}\n`);
  execFileSync("npm", ["install", tarball, "--no-audit", "--no-fund", "--offline", "--loglevel=error"], { cwd: app, stdio: "inherit" });
  return app;
}
