# workerd configuration of the assets-backed skills-edge Worker for the benchmark (bench.mjs):
# the same wasm and JavaScript as skills-edge.capnp, with a pack that leaves the large files
# out (`skills-edge pack --assets`) and the assets in ../../target/bench-worker/assets/.
# Bare workerd has no Static Assets: the ASSETS binding is a `disk` service over that folder
# (read-only, GET of a file path answers its bytes, a missing file 404), which is what the
# Worker needs of the binding (wrangler dev and Cloudflare serve the same folder through
# their asset worker instead).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .skillsEdge),
    (name = "assets", disk = (path = "../../target/bench-worker/assets", writable = false, allowDotfiles = false)),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const skillsEdge :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "worker.mjs", esModule = embed "../../target/bench-worker/worker.mjs"),
    (name = "build/skills_edge_worker_bg.wasm", wasm = embed "../../target/bench-worker/skills_edge_worker_bg.wasm"),
    (name = "build/catalog.pack", data = embed "../../target/bench-worker/assets.pack"),
  ],
  bindings = [(name = "ASSETS", service = "assets")],
);
