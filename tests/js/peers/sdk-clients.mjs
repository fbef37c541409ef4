// Official SDK clients for SkillsClient.wrap, connected over Streamable HTTP with the SDKs' own
// transports: v2 (@modelcontextprotocol/client 2.4.0), pinned to 2026-07-28 or legacy
// (2025-11-25 `initialize`), and v1 (@modelcontextprotocol/sdk 1.32.2), which speaks the
// 2025 revisions only. Each returns the connected Client; close it when done.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const INFO = { name: "skills-edge-tests", version: "0.0.0" };

/** A v2 Client on `era` ("modern" or "legacy"), with `headers` on every request. */
export async function connectV2(url, era, headers = {}) {
  const client = new Client(INFO, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A v1 Client (2025-11-25), with `headers` on every request. */
export async function connectV1(url, headers = {}) {
  const client = new ClientV1(INFO);
  await client.connect(new TransportV1(new URL(url), { requestInit: { headers } }));
  return client;
}
