# workerd configuration of the empty Rust Worker (empty-rs/: workers-rs, a fixed body for
# every request) for the benchmark (bench.mjs), which builds and bundles it into
# ../../target/bench-empty-rs/; the socket address is overridden on the command line.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .emptyRs)],
  sockets = [(name = "http", address = "127.0.0.1:8789", http = (), service = "main")],
);

const emptyRs :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [
    (name = "worker.mjs", esModule = embed "../../target/bench-empty-rs/worker.mjs"),
    (name = "build/skills_edge_empty_worker_bg.wasm", wasm = embed "../../target/bench-empty-rs/build/skills_edge_empty_worker_bg.wasm"),
  ],
);
