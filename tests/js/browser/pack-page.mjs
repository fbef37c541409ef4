// The browser page of tests/js/browser/pack.test.mjs: loads the package's web build with an
// explicit init, fetches a pack from the page's own origin and serves it from an in-page
// SkillsServer (2026-07-28: server/discover, skills/list, skills/get, resources/read,
// resources/directory/read), verifies every listed file twice (verifyReadResult against the
// entry, and SkillHost's load/read) and reports each file's size and digest (sha256Digest: no
// crypto.subtle, which a plain-http origin does not have). Then the same pack as an
// ArrayBuffer, and the corrupted and truncated packs, whose errors are recorded. The outcome
// goes into <pre id="result"> as JSON.
const out = {
  origin: location.origin,
  isSecureContext: globalThis.isSecureContext,
  subtle: typeof globalThis.crypto?.subtle,
};
const result = document.getElementById("result");

const caught = (fn) => {
  try {
    fn();
    return "accepted";
  } catch (e) {
    return { code: e.code, name: e.name, message: e.message, isError: e instanceof Error };
  }
};

/** The pack at `path` on this origin, as an ArrayBuffer. */
async function fetchPack(path) {
  const res = await fetch(path, { cache: "no-store" });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return res.arrayBuffer();
}

try {
  const pkg = await import("/pkg/web/skills_edge.js");
  await pkg.default({ module_or_path: "/pkg/web/skills_edge_bg.wasm" });
  const { SkillsServer, SkillHost, sha256Digest, verifyReadResult, inspectPack, isSkillsEdgeError } = pkg;

  const buffer = await fetchPack("/skills.pack");
  const pack = new Uint8Array(buffer);
  out.packBytes = pack.length;
  const summary = inspectPack(pack);
  out.inspected = { version: summary.version, skills: summary.skills.map((s) => s.uri), files: summary.files, bytes: summary.bytes };

  // pageSize 1: every list below takes one request per item, following nextCursor.
  const server = new SkillsServer({ pack, pageSize: 1 });
  let id = 1;
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const callOn = (srv, method, params = {}) => {
    const reply = srv.handle({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: meta } });
    if (!reply || !("result" in reply)) throw new Error(`${method} ${JSON.stringify(params)}: ${JSON.stringify(reply)}`);
    return reply.result;
  };
  const call = (method, params) => callOn(server, method, params);
  const all = (method, params, key) => {
    const items = [];
    let cursor;
    let pages = 0;
    do {
      const page = call(method, cursor === undefined ? params : { ...params, cursor });
      items.push(...page[key]);
      cursor = page.nextCursor;
      if (++pages > 100) throw new Error(`${method}: more than 100 pages`);
    } while (cursor !== undefined);
    return { items, pages };
  };

  const discover = call("server/discover");
  out.supportedVersions = discover.supportedVersions;
  out.declared = "io.modelcontextprotocol/skills" in discover.capabilities.extensions;

  const listed = all("skills/list", {}, "skills");
  out.listPages = listed.pages;
  out.skills = listed.items.map((s) => s.uri);

  // Every skill is loaded, the nested one too (its own consent is tests/js/pkg/host-rules.test.mjs's subject).
  const host = new SkillHost({ nestedWithoutApproval: true });
  host.addServer("pack");
  const registered = host.registerListing("pack", { skills: listed.items });
  out.rejected = registered.rejected.length;

  out.files = {};
  out.dirs = {};
  out.getMatchesList = {};
  for (const entry of listed.items) {
    const got = call("skills/get", { uri: entry.uri });
    out.getMatchesList[entry.uri] = got.skill.uri === entry.uri && JSON.stringify(got.skill) === JSON.stringify(entry);

    // Every file of the manifest, verified against the entry.
    for (const item of entry.resources) {
      const read = call("resources/read", { uri: item.uri });
      const v = verifyReadResult(entry, item.uri, read);
      out.files[item.uri] = {
        size: v.bytes.length,
        digest: sha256Digest(v.bytes),
        listed: { size: item.size, digest: item.digest },
        verified: v.verified,
        asText: v.text !== undefined,
        mimeType: read.contents[0].mimeType,
      };
    }

    // The same files through SkillHost: load the SKILL.md, then read the rest by reference.
    const plan = host.planLoad("pack", entry.uri);
    const loaded = host.load("pack", entry.uri, call("resources/read", { uri: plan.uri }));
    out.files[entry.uri].host = { size: loaded.size, digest: loaded.digest, verified: loaded.verified, name: loaded.frontmatter.name };
    const root = entry.uri.slice(0, -"SKILL.md".length);
    for (const item of entry.resources) {
      if (item.uri === entry.uri) continue;
      const next = host.planRead("pack", entry.uri, item.uri.slice(root.length));
      const file = host.read("pack", entry.uri, next.uri, call("resources/read", { uri: next.uri }));
      out.files[item.uri].host = { size: file.size, digest: file.digest, verified: file.verified, bytesDigest: sha256Digest(file.bytes) };
    }

    // The skill's tree through resources/directory/read, from its root down.
    const pending = [root.slice(0, -1)];
    while (pending.length > 0) {
      const dir = pending.shift();
      const { items } = all("resources/directory/read", { uri: dir }, "resources");
      out.dirs[dir] = items.map((c) => ({ uri: c.uri, name: c.name, mimeType: c.mimeType, size: c.size }));
      for (const c of items) if (c.mimeType === "inode/directory") pending.push(c.uri);
      if (Object.keys(out.dirs).length > 100) throw new Error("more than 100 directories");
    }
  }

  // The same pack handed over as an ArrayBuffer.
  const fromBuffer = new SkillsServer({ pack: buffer });
  const viaBuffer = callOn(fromBuffer, "skills/list", {});
  out.arrayBuffer = {
    sameListing: JSON.stringify(viaBuffer.skills) === JSON.stringify(listed.items),
    files: {},
  };
  for (const entry of listed.items) {
    for (const item of entry.resources) {
      const v = verifyReadResult(entry, item.uri, callOn(fromBuffer, "resources/read", { uri: item.uri }));
      out.arrayBuffer.files[item.uri] = sha256Digest(v.bytes);
    }
  }

  // Damaged packs: refused when the server is made, as Uint8Array and as ArrayBuffer.
  for (const name of ["corrupt", "truncated"]) {
    const bad = await fetchPack(`/${name}.pack`);
    const asBytes = caught(() => new SkillsServer({ pack: new Uint8Array(bad) }));
    const asBuffer = caught(() => new SkillsServer({ pack: bad }));
    const inspected = caught(() => inspectPack(new Uint8Array(bad)));
    let typed = false;
    try {
      new SkillsServer({ pack: new Uint8Array(bad) });
    } catch (e) {
      typed = isSkillsEdgeError(e);
    }
    out[name] = { bytes: bad.byteLength, server: asBytes, serverFromBuffer: asBuffer, inspect: inspected, typed };
  }
  result.textContent = "RESULT " + JSON.stringify(out);
} catch (e) {
  result.textContent = "ERROR " + (e && e.stack ? e.stack : String(e)) + " " + JSON.stringify(out);
}
