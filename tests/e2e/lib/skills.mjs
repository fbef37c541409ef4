// What the tests of the assets-backed Worker share: raw requests with exact headers (node:http,
// so Host is what the test says), walking a catalog through skills/list and reading every
// file through /mcp and through the /.well-known/agent-skills/ mirror (each skill's artifact
// under its digest, and every file), comparing bytes with the source folder, and verifying
// every file with the official SDK's SkillsClient (@modelcontextprotocol/client 2.4: sizes,
// digests and frontmatter against the entries).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { contentBytes } from "./mcp.mjs";

export const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };

/**
 * One HTTP request to the Worker on `port`; resolves `{ status, headers, body }` with `body`
 * a Buffer. `host` defaults to `localhost:port`.
 */
export function send(port, { method = "GET", path = "/", headers = {}, body, host } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method, path, headers: { host: host ?? `localhost:${port}`, ...headers }, timeout: 60_000 },
      (res) => {
        const parts = [];
        res.on("data", (d) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** A 2026-07-28 request to /mcp; resolves `{ status, headers, body, json }`. */
export async function mcp(port, method, params = {}, { headers = {}, host } = {}) {
  const message = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } };
  const name = params.uri ?? params.name;
  const res = await send(port, {
    method: "POST",
    path: "/mcp",
    host,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
      ...headers,
    },
    body: JSON.stringify(message),
  });
  let json;
  try {
    json = JSON.parse(res.body.toString("utf8"));
  } catch {}
  return { ...res, json };
}

/** Every skills/list entry, following cursors. */
export async function allSkills(port) {
  const skills = [];
  let cursor;
  do {
    const res = await mcp(port, "skills/list", cursor ? { cursor } : {});
    assert.equal(res.status, 200, res.body.toString());
    skills.push(...res.json.result.skills);
    cursor = res.json.result.nextCursor;
  } while (cursor);
  return skills;
}

/** The source file of `uri` in `folder` (`skill://a/b` is `folder/a/b`). */
export function sourceOf(folder, uri) {
  return readFileSync(join(folder, decodeURIComponent(uri.slice("skill://".length))));
}

/**
 * Reads every file of every skill through /mcp and compares its bytes with the source folder
 * (and its size with the entry). Returns `{ files, bytes }`.
 */
export async function readEveryFile(port, folder, skills) {
  let files = 0;
  let bytes = 0;
  for (const skill of skills) {
    for (const r of skill.resources) {
      const res = await mcp(port, "resources/read", { uri: r.uri });
      assert.equal(res.status, 200, `${r.uri}: ${res.body.toString().slice(0, 300)}`);
      const [item] = res.json.result.contents;
      assert.equal(item.uri, r.uri);
      const { data } = contentBytes(item);
      const want = sourceOf(folder, r.uri);
      assert.equal(data.length, r.size, `size of ${r.uri}`);
      assert.ok(data.equals(want), `${r.uri} is byte-exact`);
      assert.equal(Number(res.headers["content-length"]), res.body.length, `Content-Length of ${r.uri}`);
      files++;
      bytes += data.length;
    }
  }
  return { files, bytes };
}

/**
 * Reads the mirror (/.well-known/agent-skills/, Agent Skills Discovery RFC v0.2.0): for each
 * skill of the index, its artifact at `url` (a SKILL.md or a `.tar.gz`) under its `digest`
 * (SHA-256 of the raw bytes) and strong ETag, then every file of its MCP entry at
 * `/{name}/{path}`, byte-exact against the source folder. Returns
 * `{ skills, archives, archiveBytes, files, bytes }`.
 */
export async function mirrorEveryFile(port, folder, entries) {
  const res = await send(port, { path: "/.well-known/agent-skills/index.json" });
  assert.equal(res.status, 200);
  const index = JSON.parse(res.body.toString("utf8"));
  assert.equal(index.$schema, "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
  const byName = new Map(entries.map((e) => [e.frontmatter.name, e]));
  let files = 0;
  let bytes = 0;
  let archives = 0;
  let archiveBytes = 0;
  for (const skill of index.skills) {
    const entry = byName.get(skill.name);
    assert.ok(entry, `${skill.name} is a served skill`);
    const artifact = await send(port, { path: new URL(skill.url, "http://x/.well-known/agent-skills/index.json").pathname });
    assert.equal(artifact.status, 200, `${skill.url}: ${artifact.body.toString().slice(0, 300)}`);
    const hex = createHash("sha256").update(artifact.body).digest("hex");
    assert.equal(`sha256:${hex}`, skill.digest, `${skill.url} has the index's digest`);
    assert.equal(artifact.headers.etag, `"${hex}"`);
    assert.equal(Number(artifact.headers["content-length"]), artifact.body.length);
    if (skill.type === "archive") {
      assert.equal(artifact.headers["content-type"], "application/gzip");
      archives++;
      archiveBytes += artifact.body.length;
    } else {
      assert.equal(skill.type, "skill-md");
      assert.equal(entry.resources.length, 1, `${skill.name} is only a SKILL.md`);
    }
    const root = entry.uri.slice(0, -"SKILL.md".length);
    for (const r of entry.resources) {
      const path = r.uri.slice(root.length);
      const got = await send(port, { path: `/.well-known/agent-skills/${skill.name}/${path}` });
      assert.equal(got.status, 200, `${skill.name}/${path}: ${got.body.toString().slice(0, 300)}`);
      const want = sourceOf(folder, r.uri);
      assert.ok(got.body.equals(want), `${skill.name}/${path} is byte-exact through the mirror`);
      assert.equal(got.headers.etag, `"${r.digest.slice("sha256:".length)}"`);
      assert.equal(Number(got.headers["content-length"]), want.length);
      files++;
      bytes += want.length;
    }
  }
  return { skills: index.skills.length, archives, archiveBytes, files, bytes };
}

/**
 * Lists the skills at `url` with the official SDK's SkillsClient and reads every file through
 * it, which checks each file's size and digest against the entry and SKILL.md's frontmatter
 * against the entry's (it throws SkillVerificationError otherwise). `era`: "modern" pins
 * 2026-07-28, "legacy" uses 2025-11-25. Returns `{ skills, files, verified }`.
 */
export async function verifyWithSdk(url, era = "modern") {
  const client = new Client(
    { name: "skills-edge-e2e", version: "1.0.0" },
    era === "legacy" ? {} : { versionNegotiation: { mode: { pin: V } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const skills = new SkillsClient(client);
    const listing = await skills.list();
    let files = 0;
    let verified = 0;
    for (const skill of listing.skills) {
      assert.notEqual(skill.resources, "dynamic", `${skill.uri} lists its files`);
      for (const r of skill.resources) {
        const read = r.uri === skill.uri ? await skills.read(skill) : await skills.read(skill, r.uri);
        files++;
        if (read.verified) verified++;
      }
    }
    return { skills: listing.skills.length, files, verified };
  } finally {
    await client.close().catch(() => {});
  }
}
