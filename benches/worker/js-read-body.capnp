# workerd configuration of the plain JavaScript baseline that reads the body before answering
# with a fixed body (js-read-body.mjs) for the benchmark (bench.mjs); the socket address is
# overridden on the command line.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .jsReadBody)],
  sockets = [(name = "http", address = "127.0.0.1:8789", http = (), service = "main")],
);

const jsReadBody :Workerd.Worker = (
  compatibilityDate = "2026-04-01",
  modules = [(name = "worker.mjs", esModule = embed "js-read-body.mjs")],
);
