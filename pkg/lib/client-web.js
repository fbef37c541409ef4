// `skills-edge/client` in browsers, bundlers and workers: SkillsClient over the web build. The
// WebAssembly is initialized on first use with the default `init()` (it fetches
// skills_edge_bg.wasm next to the web build); where fetching it is not possible (Cloudflare
// Workers), call the build's `initSync({ module })` first and it is used as it is. Where the
// page or worker has crypto.subtle (secure pages, workers), fetched content of 32 KiB or more
// is hashed there (async-verifier.js CLIENT_SUBTLE_THRESHOLD); elsewhere (plain-http pages) and below,
// in WebAssembly.
import init, * as glue from "../web/skills_edge.js";
import { makeSkillsClient } from "./client.js";
import { ioDigest, platformSubtle } from "./async-verifier.js";

let initialized;
export const SkillsClient = makeSkillsClient(
  glue,
  () => (initialized ??= init()),
  () => ioDigest(platformSubtle()),
);
