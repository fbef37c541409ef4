// What a page of another site can make a browser do with the mirror of a front end whose
// caller's grant comes with the browser (docs/private.md, "Grants that come with the browser"),
// as node:test cases run against a given front end: the npm package's
// `SkillsServer.fetch(request, { scopes })` (tests/js/pkg/browsers.test.mjs) and the HTTP
// component with `SCOPES` (tests/component/browsers.test.mjs). The catalog is
// tests/fixtures/active-skills/: `hello` (public) with an HTML page, an SVG, a script and an
// XML file, and `invoices` (acme/billing/invoices, private to scope `billing`) with a script.
// The cases are named after what the attacker does, as in tests/browsers.rs (the shared
// layer) and tests/e2e/private.test.mjs (the Worker with Access).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The catalog the probes expect (its folder). */
export const FIXTURE = fileURLToPath(new URL("../fixtures/active-skills/", import.meta.url));
/** The scope that sees the private skill `invoices`. */
export const SCOPE = "billing";

const MIRROR = "/.well-known/agent-skills";
const V = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
};
const fixture = (path) => readFileSync(FIXTURE + path);
/** The skill's files a browser would run or render, with the type the mirror gives them. */
const ACTIVE = [
  ["hello/page.html", "text/html; charset=utf-8"],
  ["hello/logo.svg", "image/svg+xml"],
  ["hello/app.js", "text/javascript; charset=utf-8"],
  ["hello/data.xml", "application/xml"],
];
const PRIVATE_SCRIPT = "acme/billing/invoices/app.js";

/** What a browser adds to a request a page on `site` makes it send in `mode` for `dest`. */
const browser = (site, mode, dest) => ({ "sec-fetch-site": site, "sec-fetch-mode": mode, "sec-fetch-dest": dest });
/** Loads and navigations a page of another site can cause, none of them a CORS request. */
const FROM_ANOTHER_SITE = [
  browser("cross-site", "no-cors", "script"),
  browser("cross-site", "no-cors", "image"),
  browser("cross-site", "navigate", "iframe"),
  browser("same-site", "no-cors", "script"),
];

/**
 * The cases, as `[name, run]` pairs to register with node:test's `test`.
 *
 * - `get(path, headers, granted)`: a `GET` of `path` (under the mirror's prefix, e.g.
 *   `/.well-known/agent-skills/index.json`) with `headers` added, by a caller whose grant is the
 *   `billing` scope's (`granted` true: the front end's ambient grant) or nobody's (false);
 *   resolves `{ status, headers, body }`, `headers` every header of the answer by lowercase
 *   name (those the runtime adds to every answer, such as `date`, left out), `body` a Buffer.
 * - `post(headers, body)`: a `POST /mcp` with exactly `headers` and the string `body`;
 *   resolves the same shape.
 */
export function browserProbes({ get, post }) {
  const cases = [];
  const case_ = (name, run) => cases.push([name, run]);
  const text = (r) => r.body.toString("utf8");
  const show = (r) => `${r.status} ${JSON.stringify(r.headers)}\n${text(r).slice(0, 300)}`;
  /** One answer as a transcript: status, every header in name order, body. */
  const transcript = (r) =>
    [String(r.status), ...Object.keys(r.headers).sort().map((k) => `${k}: ${r.headers[k]}`), "", text(r)].join("\n");

  case_("a <script src> on another site reads no private file with an ambient grant", async () => {
    // The control: the grant's own page, the address bar and an agent that is no browser
    // read the private file.
    for (const headers of [browser("same-origin", "no-cors", "script"), browser("none", "navigate", "document"), {}]) {
      const own = await get(`${MIRROR}/invoices/app.js`, headers, true);
      assert.equal(own.status, 200, `${JSON.stringify(headers)}: ${show(own)}`);
      assert.deepEqual(own.body, fixture(PRIVATE_SCRIPT));
    }
    for (const headers of FROM_ANOTHER_SITE) {
      const ctx = JSON.stringify(headers);
      for (const [hidden, absent] of [
        ["invoices/app.js", "receipts/app.js"],
        ["invoices/SKILL.md", "receipts/SKILL.md"],
        ["invoices.tar.gz", "receipts.tar.gz"],
      ]) {
        const got = await get(`${MIRROR}/${hidden}`, headers, true);
        assert.equal(got.status, 404, `${ctx} ${hidden}: ${show(got)}`);
        assert.ok(!text(got).includes("private body"), `${ctx} ${hidden}`);
        // Exactly the anonymous caller's answer, and exactly that of a name that never existed
        // (of the same length, so even Content-Length is the same).
        const anonymous = await get(`${MIRROR}/${hidden}`, headers, false);
        assert.equal(transcript(got), transcript(anonymous), `${ctx} ${hidden}: as the anonymous caller`);
        const never = await get(`${MIRROR}/${absent}`, headers, true);
        assert.equal(transcript(got).replaceAll("invoices", "receipts"), transcript(never), `${ctx} ${hidden}: as an absent file`);
      }
    }
  });

  case_("a <script src> on another site gets the public index, not the grant's", async () => {
    const own = await get(`${MIRROR}/index.json`, browser("same-origin", "cors", "empty"), true);
    assert.deepEqual(JSON.parse(text(own)).skills.map((s) => s.name).sort(), ["hello", "invoices"]);
    const anonymous = await get(`${MIRROR}/index.json`, {}, false);
    assert.deepEqual(JSON.parse(text(anonymous)).skills.map((s) => s.name), ["hello"]);
    for (const headers of FROM_ANOTHER_SITE) {
      const got = await get(`${MIRROR}/index.json`, headers, true);
      assert.equal(got.status, 200, show(got));
      assert.equal(transcript(got), transcript(await get(`${MIRROR}/index.json`, headers, false)), JSON.stringify(headers));
      assert.equal(text(got), text(anonymous), JSON.stringify(headers));
      assert.ok(!text(got).includes("invoices"));
    }
  });

  case_("a page on another origin cannot embed what a grant made: same-origin resource policy", async () => {
    // Answers made for the grant go to this origin's pages only, also in a browser that sends
    // no Sec-Fetch-Site; the anonymous answers stay usable from any page.
    for (const path of ["index.json", "invoices/app.js", "invoices/SKILL.md", "invoices.tar.gz", "hello/app.js"]) {
      const r = await get(`${MIRROR}/${path}`, {}, true);
      assert.equal(r.status, 200, `${path}: ${show(r)}`);
      assert.equal(r.headers["cross-origin-resource-policy"], "same-origin", path);
      assert.match(r.headers["cache-control"] ?? "", /^private/, path);
    }
    for (const path of ["index.json", "hello/app.js", "hello.tar.gz", "no-such-skill/SKILL.md"]) {
      const r = await get(`${MIRROR}/${path}`, {}, false);
      assert.equal(r.headers["cross-origin-resource-policy"], "cross-origin", `${path}: ${show(r)}`);
    }
  });

  case_("a skill's HTML, SVG, script or XML opened on the origin runs nothing; bytes and digests hold", async () => {
    for (const granted of [false, true]) {
      for (const [file, type] of ACTIVE) {
        const r = await get(`${MIRROR}/${file}`, {}, granted);
        assert.equal(r.status, 200, `${file}: ${show(r)}`);
        assert.equal(r.headers["content-type"], type, file);
        assert.equal(r.headers["x-content-type-options"], "nosniff", file);
        assert.equal(r.headers["content-security-policy"], "default-src 'none'; sandbox", file);
        assert.equal(r.headers["content-disposition"], "attachment", file);
        assert.deepEqual(r.body, fixture(file), `${file}: the file's bytes`);
        assert.equal(r.headers.etag, `"${createHash("sha256").update(r.body).digest("hex")}"`, file);
      }
    }
    const md = await get(`${MIRROR}/hello/SKILL.md`, {}, false);
    assert.equal(md.headers["content-disposition"], undefined, "Markdown is shown as text");
    assert.equal(md.headers["x-content-type-options"], "nosniff");
    assert.equal(md.headers["content-security-policy"], "default-src 'none'; sandbox");
    // The archive is the artifact the index's digest names, byte for byte.
    const index = JSON.parse(text(await get(`${MIRROR}/index.json`, {}, false)));
    const hello = index.skills.find((s) => s.name === "hello");
    const archive = await get(hello.url, {}, false);
    assert.equal(archive.status, 200);
    assert.equal(archive.headers["content-disposition"], "attachment");
    assert.equal(hello.digest, `sha256:${createHash("sha256").update(archive.body).digest("hex")}`);
  });

  case_("a 60,000-character Mcp-Method, Mcp-Name or MCP-Protocol-Version comes back clipped", async () => {
    const long = "x".repeat(60_000);
    const uri = "skill://hello/SKILL.md";
    const rpc = (method, params, headers) =>
      post(
        {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": V,
          "mcp-method": method,
          ...headers,
        },
        JSON.stringify({ jsonrpc: "2.0", id: 3, method, params: { ...params, _meta: META } }),
      );
    for (const [name, res] of [
      ["Mcp-Method", await rpc("skills/list", {}, { "mcp-method": long })],
      ["MCP-Protocol-Version", await rpc("skills/list", {}, { "mcp-protocol-version": long })],
      ["Mcp-Name", await rpc("resources/read", { uri }, { "mcp-name": long })],
    ]) {
      assert.equal(res.status, 400, `${name}: ${show(res)}`);
      assert.ok(res.body.length < 1000, `${name}: a ${res.body.length}-byte reply`);
      const json = JSON.parse(text(res));
      assert.equal(json.error.code, -32020, name);
      assert.equal(json.id, 3, name);
      assert.ok(json.error.message.includes(`${"x".repeat(200)}…`), `${name}: ${json.error.message}`);
      assert.ok(!json.error.message.includes("x".repeat(201)), `${name}: ${json.error.message}`);
    }
  });

  return cases;
}
