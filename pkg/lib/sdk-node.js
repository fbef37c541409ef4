// `skills-edge/sdk` in Node: packSkillSource over the Node build (its WebAssembly is loaded
// synchronously when the build is imported), the same instance `import "skills-edge"` gives.
import glue from "../node/skills_edge.js";
import { makeSdk } from "./sdk.js";

export const { packSkillSource, recommendedCacheHint } = makeSdk(glue);
