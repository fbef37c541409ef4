// The official MCP TypeScript SDK client (@modelcontextprotocol/sdk) against `skills-edge stdio`:
// connect (2025-11-25 initialize), list resources, page through skills/list, fetch every entry
// with skills/get, read every file of every skill and verify its size and SHA-256 against the
// entry. Then the raw transport: stdout carries JSON-RPC lines only, logs go to stderr, and the
// process exits 0 at end of input.
//
// Run: `node --test tests/js/` after `cargo build -p skills-edge-cli`. The binary is
// $SKILLS_EDGE_BIN, or target/debug/skills-edge relative to the repository root.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = resolve(ROOT, process.env.SKILLS_EDGE_BIN ?? "target/debug/skills-edge");
const SKILLS = "io.modelcontextprotocol/skills";
const Passthrough = z.object({}).passthrough();

function requireBinary() {
  assert.ok(existsSync(BIN), `${BIN} is missing: run \`cargo build -p skills-edge-cli\` first`);
}

function sha256(bytes) {
  return "sha256:" + createHash("sha256").update(bytes).digest("hex");
}

/** Resolves with the exit code, or rejects after `ms` milliseconds. */
function exited(child, ms) {
  return new Promise((resolveExit, reject) => {
    if (child.exitCode !== null) return resolveExit(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolveExit(signal ? `signal ${signal}` : code);
    });
  });
}

/** A transport wrapper that records every message the server sends. */
class Recording {
  constructor(inner) {
    this.inner = inner;
    this.received = [];
    inner.onmessage = (m, extra) => {
      this.received.push(m);
      this.onmessage?.(m, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  start() {
    return this.inner.start();
  }
  send(message, options) {
    return this.inner.send(message, options);
  }
  close() {
    return this.inner.close();
  }
}

test("the SDK client lists, fetches and verifies every skill file over stdio", async () => {
  requireBinary();
  const stdio = new StdioClientTransport({ command: BIN, args: ["stdio"], stderr: "pipe" });
  let stderr = "";
  stdio.stderr.on("data", (chunk) => (stderr += chunk));
  const transport = new Recording(stdio);
  const client = new Client({ name: "skills-edge-sdk-test", version: "0.0.0" });
  const errors = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  const child = stdio._process;
  assert.ok(child, "the server process is running");

  try {
    // The handshake: 2025-11-25, the skills extension with directoryRead, identity in the body.
    const init = transport.received.find((m) => m.result?.protocolVersion);
    assert.ok(init, "an initialize result was received");
    assert.equal(init.result.protocolVersion, "2025-11-25");
    assert.deepEqual(init.result.capabilities.extensions?.[SKILLS], { directoryRead: true });
    assert.deepEqual(init.result.capabilities.resources, {});
    assert.equal(client.getServerVersion()?.name, "skills-edge");
    assert.equal(init.result.resultType, undefined, "no 2026-07-28 fields in the legacy era");

    // resources/list: one SKILL.md per skill.
    const listed = [];
    let cursor;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      listed.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    assert.ok(listed.length > 0);
    for (const r of listed) {
      assert.match(r.uri, /^skill:\/\/.+\/SKILL\.md$/);
      assert.equal(r.mimeType, "text/markdown");
    }

    // skills/list, following nextCursor.
    const entries = [];
    const seenCursors = new Set();
    cursor = undefined;
    do {
      const page = await client.request(
        { method: "skills/list", params: cursor ? { cursor } : {} },
        Passthrough,
      );
      assert.ok(Array.isArray(page.skills));
      entries.push(...page.skills);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        assert.ok(!seenCursors.has(cursor), "cursors never repeat");
        seenCursors.add(cursor);
      }
    } while (cursor);
    assert.deepEqual(
      entries.map((e) => e.uri),
      listed.map((r) => r.uri),
      "skills/list and resources/list name the same SKILL.md files",
    );

    // skills/get returns the same entry; every file verifies against it.
    let files = 0;
    let blobs = 0;
    for (const entry of entries) {
      const got = await client.request(
        { method: "skills/get", params: { uri: entry.uri } },
        Passthrough,
      );
      assert.deepEqual(got.skill, entry, `skills/get ${entry.uri}`);
      assert.ok(Array.isArray(entry.resources), `${entry.uri} has a manifest`);
      assert.equal(entry.resources[0].uri, entry.uri, "SKILL.md comes first");
      const root = entry.uri.slice(0, -"/SKILL.md".length);
      assert.equal(root.split("/").pop(), entry.frontmatter.name);
      for (const item of entry.resources) {
        assert.ok(item.uri === entry.uri || item.uri.startsWith(root + "/"), item.uri);
        assert.match(item.digest, /^sha256:[0-9a-f]{64}$/);
        const read = await client.readResource({ uri: item.uri });
        assert.equal(read.contents.length, 1, item.uri);
        const [c] = read.contents;
        assert.equal(c.uri, item.uri);
        assert.ok((c.text === undefined) !== (c.blob === undefined), "text xor blob");
        const bytes =
          c.text !== undefined ? Buffer.from(c.text, "utf8") : Buffer.from(c.blob, "base64");
        if (c.blob !== undefined) {
          assert.equal(bytes.toString("base64"), c.blob, "canonical base64");
          blobs += 1;
        }
        assert.equal(bytes.length, item.size, `size of ${item.uri}`);
        assert.equal(sha256(bytes), item.digest, `digest of ${item.uri}`);
        files += 1;
      }
    }
    assert.ok(files > entries.length, "supporting files were read too");
    assert.ok(blobs >= 1, "at least one binary asset was read as a blob");

    // An unknown skill is an error, not an empty result.
    await assert.rejects(
      client.request(
        { method: "skills/get", params: { uri: "skill://no-such-skill/SKILL.md" } },
        Passthrough,
      ),
      (e) => e.code === -32602,
    );

    // Every message on stdout was JSON-RPC 2.0, and the SDK saw no transport errors.
    assert.deepEqual(errors, []);
    for (const m of transport.received) assert.equal(m.jsonrpc, "2.0");
  } finally {
    await client.close();
  }
  // close() ends stdin; the server exits on its own, with status 0.
  await exited(child, 5000);
  assert.equal(child.exitCode, 0);
  assert.equal(child.signalCode, null);
  assert.match(stderr, /skills-edge .*serving \d+ skills/);
});

test("stdout carries only JSON-RPC lines, logs go to stderr, and EOF ends the process", async () => {
  requireBinary();
  const child = spawn(BIN, ["stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "skills/list", params: { _meta: meta } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    "",
    "this is not json",
    { jsonrpc: "2.0", id: 2, result: {} },
    {
      jsonrpc: "2.0",
      id: "read",
      method: "resources/read",
      params: { uri: "skill://diagram-style/assets/palette.png", _meta: meta },
    },
    { jsonrpc: "2.0", id: 3, method: "ping" },
  ];
  for (const l of lines) child.stdin.write((typeof l === "string" ? l : JSON.stringify(l)) + "\r\n");
  // A line longer than the 4 MiB limit is refused, and the next line is still served.
  child.stdin.write("x".repeat(5 * 1024 * 1024) + "\n");
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }) + "\n");
  child.stdin.end();
  assert.equal(await exited(child, 10000), 0);

  assert.ok(stdout.endsWith("\n"), "every reply ends with a newline");
  const replies = stdout.slice(0, -1).split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(
    replies.map((r) => [r.id, r.error?.code ?? "result"]),
    [
      [1, "result"],
      [undefined, -32700],
      ["read", "result"],
      [3, "result"],
      [undefined, -32600],
      [4, "result"],
    ],
  );
  for (const r of replies) {
    assert.equal(r.jsonrpc, "2.0");
    assert.ok(!("id" in r) || r.id !== null, "never id null");
  }
  assert.equal(replies[0].result.resultType, "complete");
  assert.ok(replies[2].result.contents[0].blob.length > 0);
  assert.deepEqual(replies[3].result, {});
  assert.match(stderr, /serving \d+ skills/);
  assert.match(stderr, /longer than/);
  assert.ok(!stdout.includes("serving"), "logs never reach stdout");
});

test("the server exits 0 when stdin closes without any input", async () => {
  requireBinary();
  const child = spawn(BIN, ["stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  child.stdin.end();
  assert.equal(await exited(child, 5000), 0);
  assert.equal(stdout, "");
});
