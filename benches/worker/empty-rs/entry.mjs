// Entry module of the empty Rust Worker (the same shape as worker/entry.mjs). bench.mjs copies
// it next to the wasm-bindgen output in target/bench-empty-rs/ and bundles it into worker.mjs.
import wasmModule from "./build/skills_edge_empty_worker_bg.wasm";
import { initSync, fetch as handle } from "./build/skills_edge_empty_worker.js";

initSync({ module: wasmModule });

export default {
  fetch(request, env, ctx) {
    return handle(request, env, ctx);
  },
};
