// The browser page of tests/js/browser/browser.test.mjs: loads the package's web build with an
// explicit init, serves the embedded skills from an in-page SkillsServer, verifies a skill with
// SkillHost, and shows that a tampered byte, a wrong size, a changed frontmatter field and an
// unlisted file are each refused. The outcome goes into <pre id="result"> as JSON.
const out = {
  origin: location.origin,
  isSecureContext: globalThis.isSecureContext,
  subtle: typeof globalThis.crypto?.subtle,
  subtleTouched: false,
};
const result = document.getElementById("result");

// From here on, any use of crypto.subtle throws and is recorded: the verifier must not need it.
if (globalThis.crypto) {
  Object.defineProperty(globalThis.crypto, "subtle", {
    configurable: true,
    get() {
      out.subtleTouched = true;
      throw new Error("crypto.subtle was used");
    },
  });
}

const refusal = (fn) => {
  try {
    fn();
    return "accepted";
  } catch (e) {
    return { code: e.code, name: e.name, isError: e instanceof Error, uri: e.uri, expected: e.expected, actual: e.actual, field: e.field };
  }
};

try {
  const pkg = await import("/pkg/web/skills_edge.js");
  await pkg.default(); // fetches /pkg/web/skills_edge_bg.wasm
  const { SkillsServer, SkillHost, sha256Digest, isSkillsEdgeError } = pkg;

  const server = new SkillsServer({ pageSize: 2 });
  let id = 1;
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const call = (method, params = {}) => {
    const reply = server.handle({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: meta } });
    if (!reply || !("result" in reply)) throw new Error(`${method}: ${JSON.stringify(reply)}`);
    return reply.result;
  };
  const readResult = (uri) => call("resources/read", { uri });

  const discover = call("server/discover");
  out.declared = "io.modelcontextprotocol/skills" in discover.capabilities.extensions;
  const host = new SkillHost();
  host.addServer("page");
  let cursor;
  do {
    const page = call("skills/list", cursor === undefined ? {} : { cursor });
    host.registerListing("page", page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  out.skills = host.skills().map((s) => s.displayName);

  // Load and read, verified.
  const uri = "skill://code-review/SKILL.md";
  const plan = host.planLoad("page", uri);
  const skillMd = readResult(plan.uri);
  const loaded = host.load("page", uri, skillMd);
  out.loaded = { name: loaded.frontmatter.name, size: loaded.size, digest: loaded.digest, serverLabel: loaded.serverLabel };
  const next = host.planRead("page", uri, "references/checklist.md");
  const file = host.read("page", uri, next.uri, readResult(next.uri));
  out.read = { uri: file.uri, size: file.size, verified: file.verified };
  const png = "skill://diagram-style/SKILL.md";
  host.load("page", png, readResult(png));
  const blob = host.read("page", png, "assets/palette.png", readResult("skill://diagram-style/assets/palette.png"));
  out.blob = { bytes: blob.bytes.length, text: blob.text === undefined, digestAgrees: sha256Digest(blob.bytes) === blob.digest };

  // Refusals.
  const text = skillMd.contents[0].text;
  const flip = text.slice(0, -2) + (text.at(-2) === "x" ? "y" : "x") + text.at(-1);
  const withText = (t) => ({ ...skillMd, contents: [{ ...skillMd.contents[0], text: t }] });
  out.tamperedByte = refusal(() => host.load("page", uri, withText(flip)));
  out.wrongSize = refusal(() => host.load("page", uri, withText(text + "\n")));
  const evil = text.replace(/^description: .*$/m, "description: Exfiltrate credentials");
  const entry = host.entry("page", uri);
  const rewritten = {
    ...entry,
    resources: entry.resources.map((r) => (r.uri === uri ? { uri, digest: sha256Digest(evil), size: new TextEncoder().encode(evil).length } : r)),
  };
  host.addServer("evil");
  host.register("evil", rewritten);
  out.changedFrontmatter = refusal(() => host.load("evil", uri, withText(evil)));
  out.unlisted = refusal(() => host.planRead("page", uri, "references/unlisted.md"));
  out.escape = refusal(() => host.planRead("page", uri, "../git-commit-messages/SKILL.md"));
  out.errorsAreTyped = isSkillsEdgeError((() => { try { host.planRead("page", uri, "nope.md"); } catch (e) { return e; } })());
  out.stillActive = host.isActive("page", uri);
  result.textContent = "RESULT " + JSON.stringify(out);
} catch (e) {
  result.textContent = "ERROR " + (e && e.stack ? e.stack : String(e)) + " " + JSON.stringify(out);
}
