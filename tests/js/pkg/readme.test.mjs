// The README's Node example, taken from the installed package's README.md and run as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

/** The code block that follows `<!-- example: <kind> -->` in the README. */
function example(readme, kind) {
  const m = readme.match(new RegExp(`<!-- example: ${kind} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``));
  assert.ok(m, `the README has a ${kind} example`);
  return m[1];
}

test("the README's Node example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-example.mjs");
  writeFileSync(file, example(readme, "node"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    assert.match(stdout, /^code-review: /m);
    assert.match(stdout, /\[docs\] code-review\n/);
    assert.match(stdout, /# Review checklist/);
    assert.match(stdout, /refused: not-in-manifest skill:\/\/code-review\/references\/secrets\.md/);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's pack example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-pack-example.mjs");
  writeFileSync(file, example(readme, "pack"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    assert.equal(stdout, "greeting: 2 files 0\nHello! Welcome!\n");
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's async example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-async-example.mjs");
  writeFileSync(file, example(readme, "async"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here });
    const zeros = "sha256:" + createHash("sha256").update(new Uint8Array(1 << 20)).digest("hex");
    assert.equal(stdout, `skill://code-review/references/checklist.md: 65 bytes, verified true\n${zeros}\nrefused: digest-mismatch\n`);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's SkillsClient example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const file = join(here, "readme-client-example.mjs");
  writeFileSync(file, example(readme, "client"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000 });
    assert.match(stdout, /^protocol 2026-07-28$/m);
    assert.match(stdout, /^code-review: 2 files, 214 bytes$/m);
    assert.match(stdout, /^loaded code-review \(149 bytes, verified: true\)$/m);
    assert.match(stdout, /^# Review checklist$/m);
    assert.match(stdout, /^refused: not-in-manifest$/m);
    assert.match(stdout, /^verify: exit 0, 7 skills verified$/m);
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's node:http server refuses a second Host, a foreign Origin and a 50 MB body", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  // The example's server, as written, up to where its client starts; then raw requests to it.
  const code = example(readme, "client");
  const cut = code.indexOf("const client = await SkillsClient.connect");
  assert.ok(cut > 0, "the client example starts its server before its client");
  const probes = `
import { connect } from "node:net";
const port = http.address().port;
const host = \`127.0.0.1:\${port}\`;
const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
function raw(head, extra = []) {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1", async () => {
      s.write(head);
      for (const part of extra) {
        if (s.destroyed) break;
        s.write(part);
        await new Promise((r) => setTimeout(r, 2));
      }
    });
    let got = "";
    const done = () => {
      resolve(got.split("\\r\\n")[0]);
      s.destroy();
    };
    s.on("data", (d) => {
      got += d;
      if (got.includes("\\r\\n")) done();
    });
    s.on("close", done);
    s.on("error", () => {});
    setTimeout(() => s.destroy(), 20_000).unref();
  });
}
const post = (lines, payload = body) => raw(["POST /mcp HTTP/1.1", ...lines, "Content-Length: " + Buffer.byteLength(payload), "Connection: close", "", payload].join("\\r\\n"));
const chunk = "10000\\r\\n" + "x".repeat(0x10000) + "\\r\\n";
console.log("one host: " + (await post(["Host: " + host])));
console.log("second host: " + (await post(["Host: " + host, "Host: attacker.example"])));
console.log("foreign host: " + (await post(["Host: attacker.example"])));
console.log("origin: " + (await post(["Host: " + host, "Origin: https://attacker.example"])));
console.log("declared 50 MB: " + (await raw(["POST /mcp HTTP/1.1", "Host: " + host, "Content-Length: 52428800", "", ""].join("\\r\\n"))));
console.log("streamed 50 MB: " + (await raw(["POST /mcp HTTP/1.1", "Host: " + host, "Transfer-Encoding: chunked", "", ""].join("\\r\\n"), Array(800).fill(chunk))));
http.close();
`;
  const file = join(here, "readme-server-example.mjs");
  writeFileSync(file, code.slice(0, cut) + probes);
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000 });
    assert.equal(
      stdout,
      [
        "one host: HTTP/1.1 200 OK",
        "second host: HTTP/1.1 403 Forbidden",
        "foreign host: HTTP/1.1 403 Forbidden",
        "origin: HTTP/1.1 403 Forbidden",
        "declared 50 MB: HTTP/1.1 413 Payload Too Large",
        "streamed 50 MB: HTTP/1.1 413 Payload Too Large",
        "",
      ].join("\n"),
    );
  } finally {
    rmSync(file, { force: true });
  }
});

test("the README's SDK-client example runs", async () => {
  const pkg = dirname(createRequire(import.meta.url).resolve("skills-edge/package.json"));
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  // The example imports the official SDK client: make the repository's copy resolvable here.
  const { REPO } = await import("./common.mjs");
  const { existsSync, symlinkSync } = await import("node:fs");
  const link = join(dirname(here), "node_modules", "@modelcontextprotocol");
  if (!existsSync(link)) symlinkSync(join(REPO, "node_modules", "@modelcontextprotocol"), link, "dir");
  const { SkillsServer } = await import("skills-edge");
  const { startHttpServer } = await import("./http-server.mjs");
  const server = await startHttpServer(new SkillsServer());
  const file = join(here, "readme-wrap-example.mjs");
  writeFileSync(file, example(readme, "wrap"));
  try {
    const { stdout } = await run(process.execPath, [file], { cwd: here, timeout: 60_000, env: { ...process.env, SKILLS_URL: server.url } });
    assert.equal(stdout, "refunds: verified true over 2026-07-28\n");
  } finally {
    rmSync(file, { force: true });
    await server.close();
  }
});
