// The package's TypeScript declarations, as a TypeScript user resolves them: `tsc --strict`
// type-checks a Node consumer (moduleResolution nodenext: the "node" condition) and a browser
// consumer (moduleResolution bundler: the "browser"/default condition), each also importing
// `skills-edge/verifier` and `skills-edge/sdk`, including lines that must NOT compile
// (@ts-expect-error); `skills-edge/sdk` is checked against the installed official SDK 2.4's
// `SkillSource`, `Skill`, `SkillReadResult` and `Resource`; and no declaration mentions `any`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { REPO } from "./common.mjs";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const app = dirname(here);
const TSC = join(REPO, "node_modules", ".bin", "tsc");
const require = createRequire(import.meta.url);
const pkg = dirname(require.resolve("skills-edge/package.json"));
const SDK_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server", "dist");

async function tsc(name, options, file) {
  const config = join(app, `tsconfig.${name}.json`);
  writeFileSync(config, JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, noUnusedLocals: false, target: "es2022", types: [], ...options },
    files: [join(here, file)],
  }));
  const res = await run(TSC, ["-p", config], { cwd: app }).catch((e) => e);
  assert.equal(res.code ?? 0, 0, `${name}:\n${res.stdout}${res.stderr}`);
}

test("the Node declarations type-check a strict consumer", { timeout: 120_000 }, () =>
  tsc("node", { module: "nodenext", moduleResolution: "nodenext", lib: ["es2022"] }, "consumer-node.ts"));

test("the browser declarations type-check a strict consumer", { timeout: 120_000 }, () =>
  tsc("web", { module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"] }, "consumer-web.ts"));

test("skills-edge/sdk type-checks as the installed SDK 2.4's SkillSource", { timeout: 120_000 }, () =>
  // The SDK's own packages resolve from the repository (the consumer project installs only
  // skills-edge); the SDK's declarations are not this package's to check (skipLibCheck), the
  // package's own are checked strictly by the two consumers above.
  tsc("sdk", {
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2022", "dom"],
    skipLibCheck: true,
    paths: {
      "@modelcontextprotocol/server": [join(SDK_SERVER, "index.d.mts")],
      "@modelcontextprotocol/server/ext/skills": [join(SDK_SERVER, "ext", "skills", "index.d.mts")],
    },
  }, "consumer-sdk.ts"));

test("no declaration mentions `any`", () => {
  for (const f of [
    "node/skills_edge.d.ts", "web/skills_edge.d.ts", "lib/index.d.ts", "lib/node.d.ts", "lib/async-verifier.d.ts", "lib/sdk.d.ts",
    "verifier/node/skills_edge_verifier.d.ts", "verifier/web/skills_edge_verifier.d.ts",
  ]) {
    const text = readFileSync(join(pkg, f), "utf8").replace(/\/\*\*[\s\S]*?\*\//g, "");
    assert.doesNotMatch(text, /\bany\b/, f);
  }
});
