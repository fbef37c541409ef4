// The Worker as a handler to compose into another Worker (worker/entry.mjs is the Worker on
// its own): `skillsHandler(env, pack)` instantiates the wasm scripts/build-worker.sh built
// (worker/build/), loads `pack` (a skills pack as an ArrayBuffer: the composing Worker imports
// its own, made by `skills-edge pack`, as a Data module) and checks the configuration from
// `env` (the vars and the ASSETS binding), throwing an Error that names what is wrong, so the
// composing Worker does not start. It returns `{ fetch(request, env, ctx) }`, an
// ExportedHandler that a host such as @cloudflare/workers-oauth-provider mounts (its
// `OAuthProvider` `apiHandler`, or an `OAuthResourceServer` `handler`; with
// AUTH_MODE = "provider" the caller's scopes are the `ctx.auth.scope` the host sets: see
// docs/private.md). One Worker serves one pack: call it once, at module scope.
import wasmModule from "./build/skills_edge_worker_bg.wasm";
import { initSync, configure, fetch as handle } from "./build/skills_edge_worker.js";

export function skillsHandler(env, pack) {
  initSync({ module: wasmModule });
  configure(env, pack);
  return {
    fetch(request, env, ctx) {
      return handle(request, env, ctx);
    },
  };
}
