// Type-checked (never run) with `tsc --strict` against the package's Node declarations: every
// public signature is precise, so misuse is a compile error.
import {
  SkillHost, SkillsServer, approvalFingerprint, buildOptions, checkLimits, compileCatalog, errorCodes,
  inspectPack, isSkillsEdgeError, resolveReference, sha256Digest, validateEntry, verifyFile, verifyReadResult, verifySkillMd,
  checkFileSize, readResultContent, verifyFileDigest, verifySkillMdDigest,
  sha256DigestAsync, verifyFileAsync, verifyReadResultAsync, verifySkillMdAsync,
} from "skills-edge";
import {
  SkillHost as VerifierHost, errorCodes as verifierErrorCodes, validateEntry as validate,
  verifyFile as verifierVerifyFile,
} from "skills-edge/verifier";
import type {
  ErrorCode as VerifierErrorCode, FileReceipt as VerifierReceipt, LoadedSkill as VerifierLoaded,
  SkillEntry as VerifierEntry,
} from "skills-edge/verifier";
// @ts-expect-error the verifier module has no server
import { SkillsServer as NoServer } from "skills-edge/verifier";
// @ts-expect-error nor the compiler's types
import type { CompiledCatalog as NoCatalog } from "skills-edge/verifier";
import type {
  BuildOptions, CatalogDiagnostic, CompiledAsset, CompiledCatalog, HttpReply, PackSummary, SourceEntry, ErrorCode, FileReceipt, JsonRpcResponse, LimitReport, LoadedSkill, ReadFile, ReadResourceResult, ReadResultContent,
  SkillEntry, SkillSummary, VerifiedContent, VerifiedSkillMd, PinsExport,
} from "skills-edge";

const server = new SkillsServer({ pageSize: 10, ttlMs: 0, cacheScope: "private", instructions: "" });
const reply: JsonRpcResponse | undefined = server.handle({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} });
if (reply !== undefined && "result" in reply) {
  const id: string | number = reply.id;
  void id;
}
const text: string | undefined = server.handleText("{}");
// The caller's scopes, as the embedding host verified them: per call.
const scoped: JsonRpcResponse | undefined = server.handle("{}", { scopes: ["billing"] });
const scopedText: string | undefined = server.handleText("{}", { scopes: "billing review" });
const scopedHttp: HttpReply = server.handleHttp("{}", { "mcp-method": "skills/list" }, { scopes: null });
void [scoped, scopedText, scopedHttp];
// @ts-expect-error scopes are strings
server.handle("{}", { scopes: [1] });
// @ts-expect-error the option is `scopes`
server.handleText("{}", { scope: "billing" });

const sources: SourceEntry[] = [
  { path: "a/SKILL.md", bytes: "---\nname: a\ndescription: d\n---\n" },
  { path: "a/logo.png", bytes: new Uint8Array(4) },
  { path: "a/empty", kind: "directory" },
  { path: "a/link", kind: "symlink" },
  { path: "a", kind: "bad-name", name: new Uint8Array([0xff]) },
  { path: "a/x", kind: "unreadable", what: "file", error: "Permission denied" },
];
const compiled: CompiledCatalog = compileCatalog(sources, { root: "skills", instructions: "" });
const firstWarning: CatalogDiagnostic | undefined = compiled.warnings[0];
const packed: Uint8Array = compiled.pack;
const summary: PackSummary = inspectPack(packed);
const build: BuildOptions = buildOptions({ SKILLS_STRICT: "1", SKILLS_ON_INVALID: undefined }, "0");
const forWorker = compileCatalog(sources, { strict: build.strict, skipInvalid: build.skipInvalid, inlineMax: build.inlineMax });
const firstAsset: CompiledAsset | undefined = forWorker.assets?.[0];
const assetBytes: Uint8Array | undefined = firstAsset?.bytes;
const uploadWarnings: string[] | undefined = forWorker.uploadWarnings;
const fromPack = new SkillsServer({ pack: packed, pageSize: 5 });
const fromBuffer = new SkillsServer({ pack: new ArrayBuffer(0), serverInfo: { name: "mine", version: "1" } });
const http: HttpReply = fromBuffer.handleHttp("{}", { "mcp-protocol-version": "2026-07-28", "mcp-method": null });
const status: number = http.status;
const maybeBody: string | undefined = http.body;
fromBuffer.handleHttp("{}", { get: (name: string) => (name === "mcp-method" ? "skills/list" : null) });
fromBuffer.handleHttp("{}");
void status; void maybeBody;
void firstWarning; void summary; void fromPack; void fromBuffer; void assetBytes; void uploadWarnings;

const entry: SkillEntry = {
  uri: "skill://a/SKILL.md",
  frontmatter: { name: "a", description: "d", license: "MIT" },
  resources: [{ uri: "skill://a/SKILL.md", digest: "sha256:00", size: 1 }],
};
const valid: SkillEntry = validateEntry(entry);
const limits: LimitReport = checkLimits(valid);
if (!limits.dynamic) {
  const n: number = limits.resourceCount + limits.totalSize;
  void n;
}
const receipt: FileReceipt = verifyFile(entry, entry.uri, new Uint8Array(1), { allowDynamic: false });
const result: ReadResourceResult = { contents: [{ uri: entry.uri, text: "x" }] };
const content: VerifiedContent = verifyReadResult(entry, entry.uri, result);
const bytes: Uint8Array = content.bytes;
const md: VerifiedSkillMd = verifySkillMd(entry, "---\nname: a\n---\n");
const name: string = md.frontmatter.name;
const resolved: string = resolveReference(entry.uri, "x.md");
const fingerprint: string = approvalFingerprint("label", entry);
const digest: string = sha256Digest("x");
const codes: ErrorCode[] = errorCodes();

// Digests computed elsewhere, and the async functions (the ES module layer).
const measured: FileReceipt = verifyFileDigest(entry, entry.uri, 1, digest, { allowDynamic: false });
const sized: void = checkFileSize(entry, entry.uri, 1);
const body: ReadResultContent = readResultContent(entry, entry.uri, result);
const bodyText: string | undefined = body.text;
const bodyBytes: Uint8Array = body.bytes;
const mdMeasured: VerifiedSkillMd = verifySkillMdDigest(entry, result, digest);
async function verifyAsync(): Promise<void> {
  const d: string = await sha256DigestAsync(new Uint8Array(1));
  const r: FileReceipt = await verifyFileAsync(entry, entry.uri, "x", { allowDynamic: true });
  const c: VerifiedContent = await verifyReadResultAsync(entry, entry.uri, result);
  const m: VerifiedSkillMd = await verifySkillMdAsync(entry, result);
  void [d, r, c, m];
  // @ts-expect-error the async functions return promises
  const notYet: string = sha256DigestAsync("x");
  // @ts-expect-error content is a string or a Uint8Array
  await verifyFileAsync(entry, entry.uri, 42);
  // @ts-expect-error a size is a number
  verifyFileDigest(entry, entry.uri, "1", digest);
  void notYet;
}
void [measured, sized, bodyText, bodyBytes, mdMeasured, verifyAsync];

const host = new SkillHost({ allowDynamic: false, requireApproval: true });
host.addServer("s");
host.registerListing("s", [entry]);
host.registerListing("s", { skills: [entry], nextCursor: "c" });
const summaries: SkillSummary[] = host.skills();
const loaded: LoadedSkill = host.load("s", entry.uri, result);
const file: ReadFile = host.read("s", entry.uri, "x.md", "text");
const origin: string = loaded.serverLabel + file.skillUri;
const ref = host.lookup("a");
if (ref !== undefined) {
  const both: string = ref.serverLabel + ref.uri;
  void both;
}
const stored: number = host.importApprovals(host.exportApprovals());

// Signed skills: the signer options, the verified signer, the pins.
const jwk = { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" } as const;
const signedHost = new SkillHost({ trust: [jwk, JSON.stringify(jwk)], trustOnFirstUse: true });
signedHost.addServer("s");
signedHost.setOrigin("s", "https://skills.example");
const signer = signedHost.signer("s", entry.uri);
const trustedBy: "trusted" | "pinned" | "first-use" | "announced" | undefined = signer?.trust ?? summaries[0].signer?.trust;
const pins: PinsExport = JSON.parse(signedHost.exportPins());
const pinned: number = signedHost.importPins(pins) + signedHost.importPins(signedHost.exportPins());
const accepted: boolean = signedHost.acceptSignerChange("https://skills.example");
void [trustedBy, pinned, accepted, pins.pins[0]?.key.x];
// @ts-expect-error a trusted key is a JWK or its text
new SkillHost({ trust: [7] });
// @ts-expect-error trustOnFirstUse is a boolean
new SkillHost({ trustOnFirstUse: "yes" });

try {
  verifyFile(entry, entry.uri, "x");
} catch (e: unknown) {
  if (isSkillsEdgeError(e)) {
    const code: ErrorCode = e.code;
    const details: [string | undefined, string | undefined, string | undefined] = [e.uri, e.expected, e.actual];
    void code; void details;
  }
}

// Misuse does not compile.
// @ts-expect-error content is a string or a Uint8Array
verifyFile(entry, entry.uri, 42);
// @ts-expect-error an entry needs resources
validateEntry({ uri: "x", frontmatter: { name: "a", description: "d" } });
// @ts-expect-error resources is an array or "dynamic"
validateEntry({ ...entry, resources: "static" });
// @ts-expect-error unknown option
new SkillsServer({ pageSise: 5 });
// @ts-expect-error cacheScope is "public" or "private"
new SkillsServer({ cacheScope: "shared" });
// @ts-expect-error the option is a boolean
new SkillHost({ allowDynamic: "yes" });
// @ts-expect-error serverInfo needs a version
new SkillsServer({ serverInfo: { name: "x" } });
// @ts-expect-error a pack is bytes, not a path
new SkillsServer({ pack: "skills.pack" });
// @ts-expect-error an unreadable entry says what could not be read
compileCatalog([{ path: "a", kind: "unreadable", error: "x" }]);
// @ts-expect-error not an error code
const wrong: ErrorCode = "digest-mismatched";
// @ts-expect-error the Node build needs no init
import("skills-edge").then((m) => m.initSync);

// SkillsClient, from `skills-edge/client`.
import { SkillsClient, type VerifyReport, type SkillListing, type ClientLoadedSkill } from "skills-edge/client";

async function client(): Promise<void> {
  const c = await SkillsClient.connect("http://127.0.0.1:8787/mcp", { era: "auto", headers: { authorization: "Bearer t" }, timeoutMs: 5000 });
  const listing: SkillListing = await c.list({ timeoutMs: 1000 });
  const first: string = listing.skills[0].uri;
  const loaded: ClientLoadedSkill = await c.load(listing.skills[0]);
  const refreshed: boolean = loaded.refreshed;
  const file = await c.read(first, "references/x.md");
  const body: Uint8Array = file.bytes;
  const report: VerifyReport = await c.verify({ skill: first });
  const exit: 0 | 1 | 2 = report.exitCode;
  const code: ErrorCode | undefined = report.skills[0].code;
  const facts = c.server;
  const dir = await c.readDirectory("skill://x");
  const hits = await c.search("review code", { tags: ["git"], limit: 5, timeoutMs: 1000 });
  const hitScore: number = hits[0].score;
  const hitSkill: ClientLoadedSkill = await c.load(hits[0]);
  // @ts-expect-error limit is a number
  await c.search("x", { limit: "5" });
  const signerOf = report.skills[0].signer?.keyId ?? c.signer(first)?.catalog;
  const saved: string = c.exportPins();
  const restored: number = c.importPins(saved);
  const change: boolean = c.acceptSignerChange();
  const pinnedUnder: string = c.origin;
  const tofu = await SkillsClient.connect("http://x/mcp", { trust: [jwk], trustOnFirstUse: true, pins: saved });
  const mirror: VerifyReport = await SkillsClient.verifyWellKnown("https://x", { trust: [jwk], pins: saved });
  void [hitScore, hitSkill, refreshed, body, exit, code, facts?.protocolVersion, dir.resources[0].listed, signerOf, restored, change, pinnedUnder, tofu, mirror.pins];
  // @ts-expect-error era is one of three revisions
  await SkillsClient.connect("http://x/mcp", { era: "modern" });
  // @ts-expect-error a reference is a string
  await c.read(first, 7);
  c.close();
}

void [text, receipt, bytes, name, resolved, fingerprint, digest, codes, summaries, origin, stored, wrong, client];

// The verifier module: the host part's declarations, precise, and nothing of the rest.
{
  const entry: VerifierEntry = validate({ uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "d" }, resources: "dynamic" });
  const receipt: VerifierReceipt = verifierVerifyFile(entry, entry.uri, new Uint8Array(0), { allowDynamic: true });
  const host = new VerifierHost({ requireApproval: true });
  const loaded: VerifierLoaded = host.load("s", entry.uri, "---\nname: a\n---\n");
  const codes: VerifierErrorCode[] = verifierErrorCodes();
  // @ts-expect-error content is a string or a Uint8Array
  verifierVerifyFile(entry, entry.uri, 7);
  // @ts-expect-error the options are SkillHostOptions
  new VerifierHost({ allowDynamic: "yes" });
  void [receipt, loaded, codes];
}


// `skills-edge/sdk`: a SkillSource over a pack (its declarations checked strictly here; against
// the SDK's own types in consumer-sdk.ts).
import { packSkillSource, recommendedCacheHint, type PackSkillSource, type SdkSkill } from "skills-edge/sdk";
{
  const source: PackSkillSource = packSkillSource(new Uint8Array(0), { scopes: (ctx) => ctx.http?.authInfo?.scopes });
  const hint: { ttlMs: number; cacheScope: "public" | "private" } = recommendedCacheHint(source);
  void (async () => {
    const first: SdkSkill | undefined = (await source.list({}, {})).skills[0];
    const read = await source.read("skill://a/SKILL.md", {});
    const content: string | Uint8Array | undefined = read === undefined ? undefined : "text" in read ? read.text : read.bytes;
    void [first, content, hint];
  });
  // @ts-expect-error options.scopes maps the context to scopes
  packSkillSource(new Uint8Array(0), { scopes: "billing" });
}
