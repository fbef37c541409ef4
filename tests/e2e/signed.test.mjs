// Signed skills on real workerd: the Worker 30-worker.sh builds with a signing key made by
// `skills-edge keygen` (target/signing/) serves a DSSE envelope with every entry and beside
// every mirrored artifact.
// * A verifier nobody here wrote (Python's securesystemslib, tests/py/verify_signed.py)
//   accepts every envelope, over MCP and over the mirror, and refuses them under another key.
// * `skills-edge verify --trust signing.pub` (native and npm, the same output) exits 0, and
//   exits 1 with another trusted key, and when a man in the middle (a proxy in this test)
//   changes any signed field in transit: a digest in the statement, the payload type, the
//   signature, the key id, an envelope moved to another skill, the signer swapped for another
//   key that signs validly, the signature stripped, or a file changed together with its
//   entry's digest (which only the signature catches).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, startWorker } from "./lib/worker.mjs";
import { signWith } from "./lib/sign.mjs";

const run = promisify(execFile);
const NATIVE = process.env.SKILLS_EDGE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "skills-edge");
const NPM_BIN = join(ROOT, "pkg", "bin", "skills-edge.mjs");
const PYTHON = join(ROOT, "target", "py", "bin", "python");
const KEYS = join(ROOT, "target", "signing");
const PUBLIC = join(KEYS, "signing.pub");
const DSSE = "io.github.skills-edge/dsse";
const SIGNER = "io.github.skills-edge/signer";

let worker;
let otherPublic;
let otherSecret;

async function exec(cmd, args) {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd: ROOT, maxBuffer: 64 << 20, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (typeof e.code !== "number") throw e;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

before(async () => {
  assert.ok(existsSync(PUBLIC), "30-worker.sh makes target/signing/ with skills-edge keygen");
  worker = await startWorker();
  const dir = mkdtempSync(join(tmpdir(), "skills-edge-otherkey-"));
  const made = await exec(NATIVE, ["keygen", "--out", dir]);
  assert.equal(made.code, 0, made.stderr);
  otherPublic = join(dir, "signing.pub");
  otherSecret = join(dir, "signing.key");
});

after(async () => {
  await worker?.stop();
});

test("securesystemslib (PyPI) verifies every envelope the Worker serves, over MCP and the mirror", async () => {
  const args = [join(ROOT, "tests", "py", "verify_signed.py"), "--mcp", `${worker.origin}/mcp`, "--origin", worker.origin];
  const ok = await exec(PYTHON, [...args, "--key", PUBLIC]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /all signatures verified/);
  const lines = ok.stdout.split("\n");
  assert.equal(lines.filter((l) => l.startsWith("ok mcp ")).length, 7, ok.stdout);
  assert.ok(lines.filter((l) => l.startsWith("ok mirror ")).length >= 6, ok.stdout);
  const wrong = await exec(PYTHON, [...args, "--key", otherPublic]);
  assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
  assert.doesNotMatch(wrong.stdout, /^ok /m);
});

// A proxy in front of the Worker that passes every request on and hands each JSON-RPC reply
// (JSON or event stream) to `change(message)` before the client sees it.
async function proxy(change) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers, host: new URL(worker.origin).host };
    const upstream = await fetch(worker.origin + req.url, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    let body = await upstream.text();
    const type = upstream.headers.get("content-type") ?? "";
    if (type.includes("application/json")) {
      body = JSON.stringify(change(JSON.parse(body)) ?? JSON.parse(body));
    } else if (type.includes("text/event-stream")) {
      body = body.replace(/^data: (.*)$/gm, (_, d) => `data: ${JSON.stringify(change(JSON.parse(d)) ?? JSON.parse(d))}`);
    }
    const out = {};
    upstream.headers.forEach((v, k) => {
      if (!["content-length", "content-encoding", "transfer-encoding"].includes(k)) out[k] = v;
    });
    res.writeHead(upstream.status, out).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => new Promise((r) => server.close(r)) };
}

// The entries of a skills/list or skills/get reply.
function entriesOf(message) {
  const r = message?.result;
  if (!r) return [];
  if (Array.isArray(r.skills)) return r.skills;
  if (r.skill && typeof r.skill === "object") return [r.skill];
  if (typeof r.uri === "string" && Array.isArray(r.resources)) return [r];
  return [];
}

const TARGET = "skill://code-review/SKILL.md";
// The code each tampering fails with under `--trust` (docs/verifying.md#signatures).
const EXPECTED = {
  "a digest in the statement": "signature-invalid",
  "the payload type": "signature-invalid",
  "the signature": "signature-invalid",
  "the key id": "signature-invalid",
  "an envelope moved from another skill": "signature-invalid",
  "the signer swapped for another key": "signer-untrusted",
  "the signature stripped": "signer-untrusted",
  "a file and its entry's digest changed together": "signature-invalid",
};
const b64 = (s) => Buffer.from(s, "base64");

function envelopeOf(uri, message) {
  return entriesOf(message).find((e) => e.uri === uri)?._meta?.[DSSE];
}

// The tamperings, each applied to the target skill wherever an entry of it passes.
function tamperings(otherKeyJwk, otherEnvelope) {
  const payloadOf = (env) => JSON.parse(b64(env.payload).toString("utf8"));
  const withPayload = (env, statement) => ({ ...env, payload: Buffer.from(JSON.stringify(statement)).toString("base64") });
  return {
    "a digest in the statement": (e) => {
      const st = payloadOf(e._meta[DSSE]);
      const d = st.subject[0].digest.sha256;
      st.subject[0].digest.sha256 = (d[0] === "0" ? "1" : "0") + d.slice(1);
      e._meta[DSSE] = withPayload(e._meta[DSSE], st);
    },
    "the payload type": (e) => {
      e._meta[DSSE] = { ...e._meta[DSSE], payloadType: "application/json" };
    },
    "the signature": (e) => {
      const sig = b64(e._meta[DSSE].signatures[0].sig);
      sig[10] ^= 1;
      e._meta[DSSE] = { ...e._meta[DSSE], signatures: [{ ...e._meta[DSSE].signatures[0], sig: sig.toString("base64") }] };
    },
    "the key id": (e) => {
      e._meta[DSSE] = { ...e._meta[DSSE], signatures: [{ ...e._meta[DSSE].signatures[0], keyid: "another-key" }] };
    },
    "an envelope moved from another skill": (e) => {
      e._meta[DSSE] = otherEnvelope;
    },
    "the signer swapped for another key": (e) => {
      e._meta[SIGNER] = otherKeyJwk.public;
      e._meta[DSSE] = otherKeyJwk.resign(payloadOf(e._meta[DSSE]));
    },
    "the signature stripped": (e) => {
      delete e._meta[DSSE];
      delete e._meta[SIGNER];
    },
  };
}

test("skills-edge verify --trust: exit 0 on the signed Worker, 1 under another key, native and npm alike", async () => {
  for (const [key, code] of [[PUBLIC, 0], [otherPublic, 1]]) {
    const args = ["verify", worker.url, "--trust", key];
    const [n, j] = await Promise.all([exec(NATIVE, args), exec(process.execPath, [NPM_BIN, ...args])]);
    assert.equal(n.code, code, n.stdout + n.stderr);
    assert.equal(j.code, code, j.stdout + j.stderr);
    assert.equal(j.stdout, n.stdout);
    const json = await exec(NATIVE, [...args, "--json"]);
    const skills = json.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(skills.length, 7);
    if (code === 0) {
      const kid = JSON.parse(readFileSync(PUBLIC, "utf8")).kid;
      for (const s of skills) assert.equal(s.signer?.keyId, kid, JSON.stringify(s));
    }
  }
});

test("skills-edge verify --trust exits 1 when any signed field is changed in transit", { timeout: 600_000 }, async () => {
  // Another skill's genuine envelope, and a key that signs validly but is not trusted.
  const list = await (await fetch(`${worker.origin}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} }),
  })).json();
  const other = list.result.skills.find((s) => s.uri !== TARGET && s._meta?.[DSSE]);
  assert.ok(other && envelopeOf(TARGET, list), "the Worker serves envelopes");
  const attacker = signWith(readFileSync(otherSecret, "utf8"));
  const cases = tamperings(attacker, other._meta[DSSE]);
  // A file changed together with its entry's digest: the entry still validates, the bytes
  // match it, and only the signature (over the original digest) tells.
  cases["a file and its entry's digest changed together"] = "file";
  for (const [name, tamper] of Object.entries(cases)) {
    const p = await proxy((message) => {
      if (tamper === "file") {
        const fake = "tampered\n";
        for (const e of entriesOf(message)) {
          if (e.uri === TARGET) e.resources[0].digest = "sha256:" + createHash("sha256").update(fake).digest("hex");
        }
        const c = message?.result?.contents?.[0];
        if (c?.uri === TARGET) {
          c.text = fake;
          delete c.blob;
        }
        return message;
      }
      for (const e of entriesOf(message)) if (e.uri === TARGET && e._meta) tamper(e);
      return message;
    });
    try {
      const args = ["verify", p.url, "--trust", PUBLIC];
      const [n, j] = await Promise.all([exec(NATIVE, args), exec(process.execPath, [NPM_BIN, ...args])]);
      assert.equal(n.code, 1, `${name}: ${n.stdout}${n.stderr}`);
      assert.equal(j.code, 1, `${name}: ${j.stdout}${j.stderr}`);
      assert.equal(j.stdout, n.stdout, name);
      // The skill tampered with fails for a signature reason; every other skill still verifies
      // through the same proxy.
      const json = await exec(NATIVE, [...args, "--json"]);
      const skills = json.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
      const target = skills.find((s) => s.skill === TARGET);
      assert.equal(target?.status, "failed", `${name}: ${json.stdout}`);
      assert.equal(target.code, EXPECTED[name], `${name}: ${target.why}`);
      assert.equal(target.signer, undefined, name);
      const others = skills.filter((s) => s.skill !== TARGET);
      assert.equal(others.length, 6, name);
      for (const s of others) assert.equal(s.status, "verified", `${name}: ${s.skill}`);
    } finally {
      await p.close();
    }
  }
});
