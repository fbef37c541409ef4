// Starting and stopping the processes the tests need (workerd, jco serve, Chromium): each runs in its own
// process group (setsid, through `detached: true`), and stopping it signals the whole group,
// so nothing it spawned (wrangler's workerd, Chromium's helpers) outlives a test.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { openSync, closeSync, readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const live = new Set();

// A last resort if the test process dies without running its `after` hooks.
process.on("exit", () => {
  for (const child of live) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
});

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A fresh temporary directory. */
export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `skills-edge-${prefix}-`));
}

/**
 * Spawns `command args` in a new process group with stderr (and stdout, unless `outFile` is
 * given) appended to `logFile`.
 * Returns `{ child, exited, stop() }`; `stop` signals the group (SIGTERM, then SIGKILL after
 * `graceMs`) and resolves once the leader has exited.
 */
export function spawnGroup(command, args, { env = process.env, cwd, logFile, outFile, graceMs = 3000 } = {}) {
  const fd = openSync(logFile, "a");
  const out = outFile ? openSync(outFile, "w") : fd;
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", out, fd] });
  closeSync(fd);
  if (out !== fd) closeSync(out);
  live.add(child);
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.on("error", (err) => {
      live.delete(child);
      resolve({ code: null, signal: null, error: err });
    });
  });
  const signalGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {}
  };
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      signalGroup("SIGTERM");
      const done = await Promise.race([exited.then(() => true), sleep(graceMs, false, { ref: false })]);
      // The leader may be gone while children linger: always sweep the group.
      signalGroup("SIGKILL");
      if (!done) await Promise.race([exited, sleep(graceMs, null, { ref: false })]);
    })());
  return { child, exited, stop };
}

/** The last `n` lines of a log file (for failure messages). */
export function tail(file, n = 40) {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-n).join("\n");
  } catch {
    return "";
  }
}

// A line of a Go program's goroutine dump (esbuild prints one when the process it serves exits
// under it): a goroutine's header, a frame's function or file line, "created by", a register.
const GO_TRACE_LINE = /^(goroutine \d+ \[.*\]:|\t.*|created by .*|[\w.\/*()-]+\(.*\)|r[a-z0-9]{1,5}\s+0x[0-9a-f]+|\s*)$/;

/**
 * A log file for a failure message, with every Go goroutine dump in it replaced by one line
 * saying how many lines were left out, so the reason a server stopped (usually above the dump)
 * is not pushed out of a clipped report by thousands of frames.
 */
export function logWithoutGoTraces(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return "";
  }
  const out = [];
  let dropped = 0;
  const flush = () => {
    if (dropped) out.push(`[${dropped} lines of a Go goroutine dump left out]`);
    dropped = 0;
  };
  let inTrace = false;
  for (const line of text.split("\n")) {
    if (/^goroutine \d+ \[/.test(line)) inTrace = true;
    if (inTrace && GO_TRACE_LINE.test(line)) {
      dropped++;
      continue;
    }
    inTrace = false;
    flush();
    out.push(line);
  }
  flush();
  return out.join("\n");
}
