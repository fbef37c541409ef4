// Type-checked (never run) with `tsc --strict` against the package's browser declarations
// (moduleResolution "bundler", DOM lib): the web build is initialised explicitly.
import init, { initSync, SkillHost, SkillsServer, sha256DigestAsync, verifyFileAsync, verifySkillMd } from "skills-edge";
import type { InitOutput, SkillEntry, VerifiedSkillMd } from "skills-edge";
import { SkillsClient } from "skills-edge/client";
import { packSkillSource, type PackSkillSource } from "skills-edge/sdk";
import initVerifier, { initSync as initVerifierSync, SkillHost as VerifierHost, verifyFile } from "skills-edge/verifier";
import type { InitOutput as VerifierInitOutput, FileReceipt } from "skills-edge/verifier";

async function main(): Promise<void> {
  const output: InitOutput = await init();
  void output;
  await init({ module_or_path: new URL("skills_edge_bg.wasm", "https://example.com/") });
  initSync({ module: new Uint8Array(8) });
  const server = new SkillsServer();
  const host = new SkillHost();
  host.addServer("page");
  const reply = server.handle('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  // A Fetch API Request's headers go to handleHttp as they are.
  const request = new Request("https://example.com/mcp", { method: "POST", body: "{}" });
  const { status } = server.handleHttp(await request.text(), request.headers);
  void status;
  const entry: SkillEntry = { uri: "skill://a/SKILL.md", frontmatter: { name: "a", description: "d" }, resources: "dynamic" };
  const md: VerifiedSkillMd = verifySkillMd(entry, new Uint8Array(0));
  // The async functions of the ES module layer (crypto.subtle where the page has it).
  const digest: string = await sha256DigestAsync(new Uint8Array(0));
  const receipt = await verifyFileAsync(entry, entry.uri, "x", { allowDynamic: true });
  const verified: boolean = receipt.verified;
  void [reply, md, digest, verified];
  // SkillsClient with the DOM's fetch and AbortSignal.
  const controller = new AbortController();
  const client = await SkillsClient.connect("https://example.com/mcp", { fetch, signal: controller.signal });
  const listing = await client.list({ signal: AbortSignal.timeout(5000) });
  void listing.skills.map((s) => s.revision);
  // @ts-expect-error a signal is an AbortSignal
  await client.list({ signal: "stop" });
  // @ts-expect-error initSync needs the module
  initSync();
  // @ts-expect-error the web build's classes are the same as the Node build's
  new SkillHost({ allowDynamic: 1 });
  // The verifier module, initialised like the main one.
  const verifierOutput: VerifierInitOutput = await initVerifier();
  await initVerifier({ module_or_path: new URL("skills_edge_verifier_bg.wasm", "https://example.com/") });
  initVerifierSync({ module: new Uint8Array(8) });
  const pageHost = new VerifierHost({ allowDynamic: true });
  pageHost.addServer("page");
  const fileReceipt: FileReceipt = verifyFile(entry, entry.uri, "x", { allowDynamic: true });
  void [verifierOutput, fileReceipt];
  // @ts-expect-error initSync needs the module
  initVerifierSync();
}
void main;

// `skills-edge/sdk` over a SkillsServer of the web build.
{
  const source: PackSkillSource = packSkillSource(new SkillsServer({ pageSize: 5 }), { scopes: () => "billing" });
  void source.listResources({});
}
