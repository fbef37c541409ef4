// Runs the Worker on real workerd through `wrangler dev`, on a free 127.0.0.1 port, with
// telemetry and update checks off. The Worker must be built first (scripts/build-worker.sh).
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort, logWithoutGoTraces, spawnGroup, tail, tempDir } from "../../lib/processes.mjs";

export const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const QUIET = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  NO_UPDATE_NOTIFIER: "1",
  CI: "1",
};

/**
 * Copies the built Worker into `dest` in the repository's layout (wrangler.toml,
 * worker/entry.mjs, worker/build/), so it runs with `startWorker({ config })` on files a test
 * may change. `catalog: false` leaves out the pack and the assets (worker/build/catalog.pack,
 * worker/build/assets/) for the test to write its own. Returns the config's path.
 */
export function copyWorker(dest, { catalog = true } = {}) {
  const build = join(ROOT, "worker", "build");
  if (!existsSync(join(build, "skills_edge_worker_bg.wasm"))) {
    throw new Error("the Worker is not built: run `bash scripts/build-worker.sh` first");
  }
  mkdirSync(join(dest, "worker"), { recursive: true });
  cpSync(join(ROOT, "wrangler.toml"), join(dest, "wrangler.toml"));
  cpSync(join(ROOT, "worker", "entry.mjs"), join(dest, "worker", "entry.mjs"));
  cpSync(build, join(dest, "worker", "build"), {
    recursive: true,
    filter: (src) => {
      const rel = relative(build, src);
      return catalog || !(rel === "catalog.pack" || rel === "assets" || rel.startsWith(`assets${sep}`));
    },
  });
  return join(dest, "wrangler.toml");
}

/**
 * `wrangler deploy --dry-run --outdir` of the Worker described by `config` (the repository's
 * wrangler.toml by default): bundles it for upload without an account. Resolves
 * `{ kib, gzipKiB, stdout }` from wrangler's "Total Upload: … KiB / gzip: … KiB" line.
 * `env` adds to (or replaces) wrangler's environment, e.g. a PATH without cargo.
 */
export async function deployDryRun(config, { env = {} } = {}) {
  const out = tempDir("deploy");
  try {
    const args = [WRANGLER, "deploy", "--dry-run", "--outdir", join(out, "dist")];
    if (config) args.push("-c", config);
    const stdout = await new Promise((resolveRun, reject) => {
      execFile(
        process.execPath,
        args,
        { cwd: ROOT, timeout: 300_000, maxBuffer: 16 << 20, env: { ...process.env, ...QUIET, WRANGLER_LOG_PATH: join(out, "logs"), ...env } },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolveRun(stdout)),
      );
    });
    const m = stdout.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    if (!m) throw new Error(`no "Total Upload" line in wrangler's output:\n${stdout}`);
    return { kib: Number(m[1]), gzipKiB: Number(m[2]), stdout };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Starts `wrangler dev` with the given Worker vars (`{ NAME: "value" }`, passed as
 * `--var NAME:value`) and waits until the Worker answers.
 * `config` (a wrangler.toml path relative to the repository) runs another Worker instead of
 * the repository's own (`-c config`); it must answer 404 with a JSON body on `/` as well.
 * `env` adds to (or replaces) wrangler's environment, e.g. a PATH without cargo.
 * `port` is the port to listen on (a free one by default), for a Worker that must know its
 * own origin before it starts.
 * `persistTo` is wrangler's local store (its R2 buckets included; a fresh folder by default),
 * for a test that fills it with `wrangler r2 object put --local --persist-to`. `readyStatus`
 * is the status `/` answers once the Worker runs (404 by default; 503 for a Worker that
 * serves a catalog from an empty R2 bucket).
 * Returns `{ port, url, origin, log, stop() }` (`url` uses `localhost`, `origin` is
 * `http://127.0.0.1:port`).
 */
export async function startWorker(options = {}) {
  if (!options.config && !existsSync(join(ROOT, "worker", "build", "skills_edge_worker_bg.wasm"))) {
    throw new Error("the Worker is not built: run `bash scripts/build-worker.sh` first");
  }
  // A port found free can be taken by another process (another test's server) before wrangler
  // binds it: such a start is tried again on other ports, twice at most.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWranglerDev(options);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startWranglerDev({ vars = {}, readyTimeoutMs = 90_000, config, env: extraEnv = {}, port: givenPort, persistTo, readyStatus = 404 }) {
  const port = givenPort ?? (await freePort());
  const inspectorPort = await freePort();
  const dir = tempDir("wrangler");
  const log = join(dir, "wrangler-dev.log");
  const args = [
    WRANGLER,
    "dev",
    "--ip", "127.0.0.1",
    "--port", String(port),
    "--inspector-port", String(inspectorPort),
    "--persist-to", persistTo ?? join(dir, "state"),
    "--log-level", "info",
    "--show-interactive-dev-session=false",
  ];
  if (config) args.push("-c", config);
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const env = {
    ...process.env,
    // Node 22 (the npm package `node`) runs the tests; wrangler runs on the same binary.
    PATH: `${resolve(process.execPath, "..")}:${process.env.PATH ?? ""}`,
    ...QUIET,
    WRANGLER_LOG_PATH: join(dir, "logs"),
    ...extraEnv,
  };
  const proc = spawnGroup(process.execPath, args, { cwd: ROOT, env, logFile: log });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  let exited = null;
  proc.exited.then((e) => (exited = e));
  for (;;) {
    if (exited) {
      // The whole log of this start, without the goroutine dump that the bundler's helper
      // process prints when wrangler exits under it (the reason is above it).
      const text = logWithoutGoTraces(log);
      const message = `wrangler dev exited (${JSON.stringify(exited)}) before answering:\n${text}`;
      if (givenPort === undefined && /EADDRINUSE|address already in use/i.test(text)) throw new PortTaken(message);
      throw new Error(message);
    }
    try {
      const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      // The Worker itself answers 404 (JSON-RPC body) on other paths.
      if (res.status === readyStatus && (res.headers.get("content-type") ?? "").includes("application/json")) break;
    } catch {}
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`wrangler dev did not answer within ${readyTimeoutMs} ms:\n${tail(log)}`);
    }
    await sleep(250);
  }
  return {
    port,
    origin,
    url: `http://localhost:${port}/mcp`,
    log,
    logTail: (n) => tail(log, n),
    stop: () => proc.stop(),
  };
}

const WORKERD = join(ROOT, "node_modules", "workerd", "bin", "workerd");
const ESBUILD = join(ROOT, "node_modules", ".bin", "esbuild");

/**
 * Runs the built Worker on bare workerd (`workerd serve`, the binary wrangler runs, with no
 * wrangler in front) on a free 127.0.0.1 port: worker/entry.mjs bundled with its glue as
 * wrangler bundles it, the pack as a Data module, and the assets as a read-only workerd `disk`
 * service bound as ASSETS (bare workerd has no Static Assets; benches/worker does the same).
 * `vars` are text bindings, plus wrangler.toml's ALLOWED_HOSTS. `instances` (an array of such
 * `vars`) runs one Worker per entry in the same workerd process, each on a port of its own
 * (`origins`, in order); `pack` and `assets` serve another catalog than worker/build's.
 * `entry` bundles another entry module in worker/entry.mjs's place (it imports the same
 * build: `./build/skills_edge_worker_bg.wasm`, `./build/catalog.pack` and the glue).
 * Waits until every Worker answers `/` with `readyStatus` (404: no such path; 503 for a
 * catalog from R2 with no good pack; an array gives one per instance); returns `{ port, origin, origins, url, log, logTail(n),
 * stop() }` (`port`, `origin` and `url` are the first Worker's).
 */
export async function startWorkerd({ vars = {}, instances, pack, assets, entry, readyStatus = 404, readyTimeoutMs = 60_000 } = {}) {
  const build = join(ROOT, "worker", "build");
  if (!existsSync(join(build, "skills_edge_worker_bg.wasm"))) {
    throw new Error("the Worker is not built: run `bash scripts/build-worker.sh` first");
  }
  const dir = tempDir("workerd");
  await new Promise((resolveRun, reject) => {
    const args = [
      entry ?? join(ROOT, "worker", "entry.mjs"), "--bundle", "--format=esm", "--platform=browser",
      "--conditions=workerd,worker,browser", "--external:cloudflare:workers", "--external:*.wasm",
      "--external:*.pack", "--log-level=warning", `--outfile=${join(dir, "worker.mjs")}`,
    ];
    execFile(ESBUILD, args, { cwd: ROOT, timeout: 60_000 }, (err, _out, stderr) =>
      err ? reject(new Error(`bundling worker/entry.mjs failed: ${err.message}\n${stderr}`)) : resolveRun(),
    );
  });
  cpSync(join(build, "skills_edge_worker_bg.wasm"), join(dir, "skills_edge_worker_bg.wasm"));
  cpSync(pack ?? join(build, "catalog.pack"), join(dir, "catalog.pack"));
  cpSync(assets ?? join(build, "assets"), join(dir, "assets"), { recursive: true });
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const hosts = /^ALLOWED_HOSTS\s*=\s*"([^"]*)"/m.exec(toml)?.[1];
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  const sets = instances ?? [vars];
  const ports = [];
  for (const _ of sets) ports.push(await freePort());
  const config = join(dir, "worker.capnp");
  const bindings = (v) => {
    const all = { ...(hosts === undefined ? {} : { ALLOWED_HOSTS: hosts }), ...v };
    return [
      '(name = "ASSETS", service = "assets")',
      ...Object.entries(all).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(String(value))})`),
    ].join(", ");
  };
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
${sets.map((v, i) => `    (name = "main${i}", worker = (compatibilityDate = ${JSON.stringify(date)}, modules = .modules, bindings = [${bindings(v)}])),`).join("\n")}
    (name = "assets", disk = (path = "assets", writable = false, allowDotfiles = false)),
    # The Workers' fetch (a key set on a loopback key server): loopback only.
    (name = "internet", network = (allow = ["local"])),
  ],
  sockets = [${sets.map((_, i) => `(name = "http${i}", address = "127.0.0.1:${ports[i]}", http = (), service = "main${i}")`).join(", ")}],
);
const modules :List(Workerd.Worker.Module) = [
  (name = "worker.mjs", esModule = embed "worker.mjs"),
  (name = "build/skills_edge_worker_bg.wasm", wasm = embed "skills_edge_worker_bg.wasm"),
  (name = "build/catalog.pack", data = embed "catalog.pack"),
];
`,
  );
  const log = join(dir, "workerd.log");
  const proc = spawnGroup(WORKERD, ["serve", config], { cwd: dir, logFile: log });
  const origins = ports.map((p) => `http://127.0.0.1:${p}`);
  const deadline = Date.now() + readyTimeoutMs;
  let exited = null;
  proc.exited.then((e) => (exited = e));
  for (const [i, origin] of origins.entries()) {
    const status = Array.isArray(readyStatus) ? readyStatus[i] : readyStatus;
    for (;;) {
      if (exited) throw new Error(`workerd exited (${JSON.stringify(exited)}) before answering:\n${tail(log)}`);
      try {
        const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === status && (res.headers.get("content-type") ?? "").includes("application/json")) break;
      } catch {}
      if (Date.now() > deadline) {
        await proc.stop();
        throw new Error(`workerd did not answer within ${readyTimeoutMs} ms:\n${tail(log)}`);
      }
      await sleep(100);
    }
  }
  const port = ports[0];
  return {
    port,
    origin: origins[0],
    origins,
    url: `http://localhost:${port}/mcp`,
    log,
    logTail: (n) => tail(log, n),
    stop: async () => {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
