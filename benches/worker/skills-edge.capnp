# workerd configuration of the skills-edge Worker for the benchmark (bench.mjs), on bare
# workerd: no wrangler, no proxy. This is the all-inline Worker (every file's bytes in the
# pack, as before Static Assets: the design the assets-backed Worker is compared with).
# bench.mjs bundles worker/entry.mjs and its wasm-bindgen glue into one module (esbuild, as
# wrangler does) in ../../target/bench-worker/, packs the bench catalog there and overrides
# the socket address (`--socket-addr http=127.0.0.1:PORT`).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .skillsEdge)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const skillsEdge :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "worker.mjs", esModule = embed "../../target/bench-worker/worker.mjs"),
    (name = "build/skills_edge_worker_bg.wasm", wasm = embed "../../target/bench-worker/skills_edge_worker_bg.wasm"),
    (name = "build/catalog.pack", data = embed "../../target/bench-worker/inline.pack"),
  ],
  # The defaults (wrangler.toml's [vars] are for wrangler); set here what differs.
  bindings = [],
);
