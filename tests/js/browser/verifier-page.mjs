// The browser page of tests/js/browser/verifier.test.mjs: imports `skills-edge/verifier` by its
// bare name (the page's import map points it where the package's `exports` do), initialises it,
// and verifies skills a server published (/data.json: a skills/list result and the
// resources/read results of a few files) with SkillHost and verifyFile, then shows that a
// tampered byte and an unlisted file are refused. The outcome goes into <pre id="result"> as
// JSON.
import init, * as verifier from "skills-edge/verifier";

const out = { origin: location.origin, isSecureContext: globalThis.isSecureContext, subtle: typeof globalThis.crypto?.subtle };
const result = document.getElementById("result");

const refusal = (fn) => {
  try {
    fn();
    return "accepted";
  } catch (e) {
    return { code: e.code, name: e.name, isError: e instanceof Error, uri: e.uri, expected: e.expected, actual: e.actual };
  }
};

try {
  out.exports = Object.keys(verifier).sort();
  await init(); // fetches the module's .wasm, next to its glue
  const { SkillHost, isSkillsEdgeError, sha256Digest, validateEntry, verifyFile } = verifier;
  const data = await (await fetch("/data.json")).json();
  const host = new SkillHost();
  host.addServer("origin");
  const listing = host.registerListing("origin", data.listing);
  out.registered = listing.registered.length;
  out.rejected = listing.rejected.length;

  const uri = "skill://code-review/SKILL.md";
  const loaded = host.load("origin", uri, data.reads[host.planLoad("origin", uri).uri]);
  out.loaded = { name: loaded.frontmatter.name, size: loaded.size, digest: loaded.digest, verified: loaded.verified };
  const plan = host.planRead("origin", uri, "references/checklist.md");
  const file = host.read("origin", uri, plan.uri, data.reads[plan.uri]);
  out.read = { uri: file.uri, size: file.size, digest: file.digest, verified: file.verified };

  // verifyFile over the bytes of a binary file, against its validated entry.
  const png = "skill://diagram-style/assets/palette.png";
  const entry = validateEntry(host.entry("origin", "skill://diagram-style/SKILL.md"));
  const bytes = Uint8Array.from(atob(data.reads[png].contents[0].blob), (c) => c.charCodeAt(0));
  const receipt = verifyFile(entry, png, bytes);
  out.blob = { ...receipt, digestAgrees: sha256Digest(bytes) === receipt.digest };
  const tampered = bytes.slice();
  tampered[tampered.length >> 1] ^= 1;
  out.tamperedByte = refusal(() => verifyFile(entry, png, tampered));
  out.tamperedRead = refusal(() => host.read("origin", uri, plan.uri, data.reads[plan.uri].contents[0].text.replace(/.$/s, "!")));
  out.unlisted = refusal(() => host.planRead("origin", uri, "references/unlisted.md"));
  out.errorsAreTyped = isSkillsEdgeError((() => { try { verifyFile(entry, png, tampered); } catch (e) { return e; } })());
  result.textContent = "RESULT " + JSON.stringify(out);
} catch (e) {
  result.textContent = "ERROR " + (e && e.stack ? e.stack : String(e)) + " " + JSON.stringify(out);
}
