# workerd configuration of the skills-edge Worker with AUTH_MODE jwt for the benchmark
# (bench.mjs): the inline Worker of skills-edge.capnp, plus the vars of a resource server. Its
# only outbound service is `keys`, a Worker that answers every fetch with the key set bench.mjs
# wrote (one P-256 key), so the key set is fetched once, from this process, and then cached;
# bench.mjs sends a valid ES256 token of that key with every request.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .skillsEdge), (name = "keys", worker = .keys)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const skillsEdge :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "worker.mjs", esModule = embed "../../target/bench-worker/worker.mjs"),
    (name = "build/skills_edge_worker_bg.wasm", wasm = embed "../../target/bench-worker/skills_edge_worker_bg.wasm"),
    (name = "build/catalog.pack", data = embed "../../target/bench-worker/inline.pack"),
  ],
  bindings = [
    (name = "AUTH_MODE", text = "jwt"),
    (name = "AUTH_ISSUER", text = "https://issuer.bench.invalid"),
    (name = "AUTH_AUDIENCE", text = "https://bench.invalid/mcp"),
    (name = "AUTH_JWKS_URL", text = "https://keys.bench.invalid/jwks.json"),
  ],
  globalOutbound = "keys",
);

const keys :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "keys.mjs", esModule = "export default { fetch(request, env) { return new Response(env.JWKS, { headers: { 'content-type': 'application/json' } }); } };"),
  ],
  bindings = [(name = "JWKS", text = embed "../../target/bench-worker/jwks.json")],
);
