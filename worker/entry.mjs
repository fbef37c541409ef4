// The Worker's entry module: instantiates the wasm built by scripts/build-worker.sh, checks
// the configuration once at start, and hands every request to the Rust `fetch` handler.
import { env } from "cloudflare:workers";
import wasmModule from "./build/skills_edge_worker_bg.wasm";
import { initSync, configure, fetch as handle } from "./build/skills_edge_worker.js";

initSync({ module: wasmModule });
// A bad variable throws here, naming the variable, its value and the accepted form, so the
// Worker does not start (wrangler dev and wrangler deploy both report it).
configure(env);

export default {
  fetch(request, env, ctx) {
    return handle(request, env, ctx);
  },
};
