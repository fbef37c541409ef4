// The Worker's entry module: instantiates the wasm built by scripts/build-worker.sh, loads the
// skills pack it wrote (a Data module: wrangler.toml's [[rules]] give `*.pack` files as
// ArrayBuffers) and checks the configuration once at start, then hands every request to the
// Rust `fetch` handler. The files the pack leaves out are Static Assets (env.ASSETS), which
// only the Worker reads (wrangler.toml: run_worker_first = true).
import { env } from "cloudflare:workers";
import wasmModule from "./build/skills_edge_worker_bg.wasm";
import pack from "./build/catalog.pack";
import { initSync, configure, fetch as handle } from "./build/skills_edge_worker.js";

initSync({ module: wasmModule });
// A bad pack or variable throws here, naming what is wrong (for a variable: its name, its value
// and the accepted form), so the Worker does not start (wrangler dev and wrangler deploy both
// report it).
configure(env, pack);

export default {
  fetch(request, env, ctx) {
    return handle(request, env, ctx);
  },
};
