// `skills-edge/sdk` in workers, browsers and bundlers: packSkillSource over the web build, the
// same instance `import "skills-edge"` gives there. Initialize its WebAssembly first: in
// Cloudflare Workers `initSync({ module })` with the imported skills_edge_bg.wasm, elsewhere
// `await init()`. A SkillsServer made after that can be passed in as it is.
import * as glue from "../web/skills_edge.js";
import { makeSdk } from "./sdk.js";

function notReady(e) {
  if (e?.name === "SkillsEdgeError") return undefined;
  const n = new Error(
    "packSkillSource: the WebAssembly of skills-edge is not initialized: call initSync({ module }) (Cloudflare Workers, with the imported skills_edge_bg.wasm) or await init() from \"skills-edge\" before making the source",
    { cause: e },
  );
  n.name = "SkillsEdgeError";
  n.code = "invalid-argument";
  return n;
}

export const { packSkillSource, recommendedCacheHint } = makeSdk(glue, notReady);
