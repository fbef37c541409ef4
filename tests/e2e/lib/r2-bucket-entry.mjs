// worker/entry.mjs with one difference: the Worker's CATALOG_BUCKET is a bucket whose objects a
// test serves over HTTP on 127.0.0.1 (the text binding R2_TEST_ORIGIN), so the test decides
// when R2 is healthy, slow or failing. The wasm, its glue and every check are the Worker's own
// build; the bucket has the R2 binding's shape the Worker uses (`get(key)` resolving to null or
// an object with `arrayBuffer()` and `body`; `list({ prefix, cursor, limit })` resolving to
// `{ objects: [{ key, size }], truncated }`), and rejects as a failing R2 binding does.
import { env } from "cloudflare:workers";
import wasmModule from "./build/skills_edge_worker_bg.wasm";
import pack from "./build/catalog.pack";
import { initSync, configure, fetch as handle } from "../../../worker/build/skills_edge_worker.js";

function bucket(origin) {
  const call = async (op, key) => {
    const res = await fetch(`${origin}/${op}?key=${encodeURIComponent(key)}`);
    const bytes = await res.arrayBuffer();
    if (res.status === 404) return null;
    if (res.status !== 200) throw new Error(`R2 ${op} ${key} failed: ${res.status} ${new TextDecoder().decode(bytes)}`);
    return bytes;
  };
  return {
    async get(key) {
      const bytes = await call("get", key);
      if (bytes === null) return null;
      return { key, size: bytes.byteLength, arrayBuffer: async () => bytes, get body() { return new Response(bytes).body; } };
    },
    async list({ prefix }) {
      const bytes = await call("list", prefix);
      return { objects: JSON.parse(new TextDecoder().decode(bytes)), truncated: false };
    },
  };
}

const { R2_TEST_ORIGIN, ...bindings } = env;
const testEnv = { ...bindings, CATALOG_BUCKET: bucket(R2_TEST_ORIGIN) };

initSync({ module: wasmModule });
configure(testEnv, pack);

export default {
  fetch(request, _env, ctx) {
    return handle(request, testEnv, ctx);
  },
};
