# workerd configuration of the plain JavaScript baseline Worker (empty-js.mjs: a fixed body
# for every request) for the benchmark (bench.mjs); the socket address is overridden on the
# command line.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .emptyJs)],
  sockets = [(name = "http", address = "127.0.0.1:8788", http = (), service = "main")],
);

const emptyJs :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [(name = "worker.mjs", esModule = embed "empty-js.mjs")],
);
