// The Worker as an OAuth 2.1 resource server (AUTH_MODE jwt and access) on real workerd
// (wrangler dev, vars through --var on the Worker 30-worker.sh builds): a local key server
// (node http on 127.0.0.1) serves the issuer's metadata and JWK Sets of keys made here with
// node's crypto (ES256, RS256, Ed25519); tokens are minted here too. Checked: anonymous and
// valid-token requests answered; every hostile token refused with 401 and the challenge;
// key sets that are down, slow, huge or of the wrong key type answered 503; the Protected
// Resource Metadata at both paths; preflights without a token; CORS exposing
// WWW-Authenticate; the Cloudflare Access preset with Cf-Access-Jwt-Assertion; refusals
// logged with their reason and never with the token.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { startWorker } from "./lib/worker.mjs";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };
const ORIGIN = "http://localhost:5173"; // allowed by the default ALLOWED_ORIGINS
const ACCESS_TEAM = "acme.cloudflareaccess.com";
const ACCESS_ISS = `https://${ACCESS_TEAM}`;
const ACCESS_AUD = "32eafc7626e974616deaf0dc3ce63d7bcbed58a2731e84d06bc3cdf1b53c4228";
// The jwt Workers list exact host names: a wildcard in ALLOWED_HOSTS (the shipped
// *.workers.dev) needs AUTH_AUDIENCE, and these test the default audience.
const LOOPBACK = "localhost,127.0.0.1,[::1]";

const b64 = (buf) => Buffer.from(buf).toString("base64url");
const part = (obj) => b64(JSON.stringify(obj));

const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const ec2 = generateKeyPairSync("ec", { namedCurve: "P-256" });
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ed = generateKeyPairSync("ed25519");
const jwk = (pair, kid) => ({ ...pair.publicKey.export({ format: "jwk" }), kid, use: "sig" });
const GOOD_KEYS = {
  keys: [jwk(ec, "ec-1"), jwk(rsa, "rsa-1"), jwk(ed, "ed-1"), jwk(ec, "dup"), jwk(ec2, "dup")],
};

/** A compact JWS of `header` and `claims`, signed as `header.alg` says with `pair`. */
function mint(header, claims, pair) {
  const input = `${part(header)}.${part(claims)}`;
  let sig;
  if (header.alg === "ES256") sig = sign("sha256", Buffer.from(input), { key: pair.privateKey, dsaEncoding: "ieee-p1363" });
  else if (header.alg === "RS256") sig = sign("sha256", Buffer.from(input), pair.privateKey);
  else if (header.alg === "EdDSA") sig = sign(null, Buffer.from(input), pair.privateKey);
  else sig = Buffer.alloc(0);
  return `${input}.${b64(sig)}`;
}

// The key server: metadata, the good key set, and the failing ones.
let keyServer;
let ISS;
const hits = {};
before(async () => {
  keyServer = createServer((req, res) => {
    hits[req.url] = (hits[req.url] ?? 0) + 1;
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    switch (req.url) {
      case "/.well-known/oauth-authorization-server":
        return json(200, { issuer: ISS, jwks_uri: `${ISS}/jwks`, token_endpoint: `${ISS}/token` });
      case "/jwks":
      case "/access/certs":
        return json(200, GOOD_KEYS);
      case "/down/jwks":
        return json(500, { error: "down" });
      case "/slow/jwks":
        // Longer than the Worker's 5 s bound.
        setTimeout(() => json(200, GOOD_KEYS), 9000).unref();
        return;
      case "/huge/jwks":
        // 300 KiB: over the 256 KiB bound; sent without Content-Length, so the bound is the read's.
        res.writeHead(200, { "content-type": "application/json", "transfer-encoding": "chunked" });
        res.write('{"keys":[],"pad":"');
        for (let i = 0; i < 300; i++) res.write("x".repeat(1024));
        return res.end('"}');
      case "/wrong/jwks": {
        const rsa1024 = generateKeyPairSync("rsa", { modulusLength: 1024 });
        return json(200, {
          keys: [
            { kty: "oct", k: b64(Buffer.alloc(32, 7)), kid: "hmac", alg: "HS256" },
            { ...rsa1024.publicKey.export({ format: "jwk" }), kid: "small-rsa" },
            { ...generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey.export({ format: "jwk" }), kid: "p384" },
          ],
        });
      }
      default:
        return json(404, { error: "not found" });
    }
  });
  await new Promise((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  ISS = `http://127.0.0.1:${keyServer.address().port}`;
});
after(() => keyServer?.closeAllConnections?.() ?? keyServer?.close());

function post(worker, { token, header = "authorization", origin, method = "skills/list" } = {}) {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": V,
    "mcp-method": method,
  };
  if (token !== undefined) headers[header] = header === "authorization" ? `Bearer ${token}` : token;
  if (origin) headers.origin = origin;
  return fetch(`${worker.origin}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: META } }),
  });
}

async function skillNames(res) {
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.ok(body.result, JSON.stringify(body));
  return body.result.skills.map((s) => s.frontmatter.name);
}

function claims(worker, extra = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: ISS, aud: `http://127.0.0.1:${worker.port}/mcp`, sub: "alice", client_id: "mcp-client",
    jti: `j-${Math.random()}`, iat: now, exp: now + 600, scope: "skills:read", ...extra,
  };
}

async function logHas(worker, text) {
  for (let i = 0; i < 40; i++) {
    if (readFileSync(worker.log, "utf8").includes(text)) return true;
    await sleep(100);
  }
  return false;
}

test("AUTH_MODE jwt: anonymous, valid and hostile tokens, metadata, CORS", async (t) => {
  // No AUTH_JWKS_URL: the key set's URL comes from the issuer's metadata.
  const worker = await startWorker({ vars: { AUTH_MODE: "jwt", AUTH_ISSUER: ISS, ALLOWED_HOSTS: LOOPBACK } });
  const challenge = (error) =>
    `Bearer ${error ? `error="${error}", ` : ""}resource_metadata="http://127.0.0.1:${worker.port}/.well-known/oauth-protected-resource/mcp"`;
  try {
    const anonymous = await skillNames(await post(worker));
    assert.ok(anonymous.length > 0);

    await t.test("a valid token of each algorithm is answered", async () => {
      for (const [alg, pair, kid] of [["ES256", ec, "ec-1"], ["RS256", rsa, "rsa-1"], ["EdDSA", ed, "ed-1"]]) {
        const token = mint({ alg, kid, typ: "at+jwt" }, claims(worker), pair);
        assert.deepEqual(await skillNames(await post(worker, { token })), anonymous, alg);
        // Again: remembered, same answer.
        assert.deepEqual(await skillNames(await post(worker, { token })), anonymous, `${alg} again`);
      }
      // An array scope claim's token is valid too (the scopes are the caller's; every caller
      // sees the anonymous view for now).
      const token = mint({ alg: "EdDSA", kid: "ed-1", typ: "application/at+jwt" }, claims(worker, { scope: undefined }), ed);
      assert.deepEqual(await skillNames(await post(worker, { token })), anonymous);
      assert.equal(hits["/.well-known/oauth-authorization-server"], 1, "the metadata is read once");
      assert.equal(hits["/jwks"], 1, "the key set is fetched once");
    });

    await t.test("every hostile token gets 401 invalid_token", async () => {
      const c = claims(worker);
      const now = c.iat;
      const hs = (() => {
        const input = `${part({ alg: "HS256", kid: "rsa-1", typ: "at+jwt" })}.${part(c)}`;
        const secret = rsa.publicKey.export({ format: "pem", type: "spki" });
        return `${input}.${b64(createHmac("sha256", secret).update(input).digest())}`;
      })();
      const good = mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, c, ec);
      const [h, p, s] = good.split(".");
      const flipped = Buffer.from(s, "base64url");
      flipped[5] ^= 1;
      const cases = {
        "alg none": `${part({ alg: "none", typ: "at+jwt" })}.${part(c)}.`,
        "HS256 with the public key": hs,
        "wrong aud": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, aud: "https://other.example/mcp" }, ec),
        "wrong iss": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, iss: "https://evil.example" }, ec),
        "wrong typ": mint({ alg: "ES256", kid: "ec-1", typ: "JWT" }, c, ec),
        expired: mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, exp: now - 3600 }, ec),
        "not yet valid": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, nbf: now + 3600 }, ec),
        "unknown kid": mint({ alg: "ES256", kid: "nope", typ: "at+jwt" }, c, ec),
        "two keys with one kid": mint({ alg: "ES256", kid: "dup", typ: "at+jwt" }, c, ec),
        "a key of another type": mint({ alg: "RS256", kid: "ec-1", typ: "at+jwt" }, c, rsa),
        "bad base64url": `${h}.${p}.${s}=`,
        "a 64 KiB token": `${h}.${"A".repeat(64 * 1024)}.${s}`,
        "exp of the wrong type": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, exp: String(now + 600) }, ec),
        "aud of the wrong type": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, aud: 7 }, ec),
        "scope of the wrong type": mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, { ...c, scope: { a: 1 } }, ec),
        "ES256 signature altered": `${h}.${p}.${b64(flipped)}`,
        "RS256 signed by another key": mint({ alg: "RS256", kid: "rsa-1", typ: "at+jwt" }, c, generateKeyPairSync("rsa", { modulusLength: 2048 })),
        "EdDSA signed by another key": mint({ alg: "EdDSA", kid: "ed-1", typ: "at+jwt" }, c, generateKeyPairSync("ed25519")),
      };
      for (const [name, token] of Object.entries(cases)) {
        const res = await post(worker, { token });
        const body = await res.text();
        assert.equal(res.status, 401, `${name}: ${body}`);
        assert.equal(res.headers.get("www-authenticate"), challenge("invalid_token"), name);
        assert.equal(body, "", `${name}: the body tells nothing`);
      }
      // The reason is logged; the token is not.
      assert.ok(await logHas(worker, "(reason audience)"), worker.logTail(30));
      assert.ok(await logHas(worker, "(reason ambiguous-key)"), worker.logTail(30));
      const log = readFileSync(worker.log, "utf8");
      for (const token of Object.values(cases)) assert.ok(!log.includes(token.split(".")[2] || token), "a token in the log");
      assert.ok(!log.includes(s), "a signature in the log");
    });

    await t.test("the Protected Resource Metadata is served at both paths", async () => {
      for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
        const res = await fetch(`${worker.origin}${path}`);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get("content-type"), "application/json");
        assert.deepEqual(await res.json(), {
          resource: `http://127.0.0.1:${worker.port}/mcp`,
          authorization_servers: [ISS],
          bearer_methods_supported: ["header"],
        });
      }
    });

    await t.test("a preflight needs no token; CORS exposes WWW-Authenticate", async () => {
      const pre = await fetch(`${worker.origin}/mcp`, {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), ORIGIN);
      assert.match(pre.headers.get("access-control-allow-headers"), /authorization/);
      const res = await post(worker, { token: "not.a.token", origin: ORIGIN });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("access-control-allow-origin"), ORIGIN);
      assert.equal(res.headers.get("access-control-expose-headers"), "www-authenticate");
      assert.equal(res.headers.get("www-authenticate"), challenge("invalid_token"));
      // A refused origin is refused before its token is looked at.
      const evil = await post(worker, { token: "x", origin: "https://evil.example" });
      assert.equal(evil.status, 403);
    });
  } finally {
    await worker.stop();
  }
});

test("a key set that cannot be had answers 503", async () => {
  const cases = ["down", "slow", "huge", "wrong"];
  const workers = await Promise.all(
    cases.map((c) => startWorker({ vars: { AUTH_MODE: "jwt", AUTH_ISSUER: ISS, AUTH_JWKS_URL: `${ISS}/${c}/jwks`, ALLOWED_HOSTS: LOOPBACK } })),
  );
  try {
    const reasons = { down: "(reason fetch)", slow: "(reason fetch)", huge: "(reason too-large)", wrong: "(reason no-usable-key)" };
    await Promise.all(
      cases.map(async (c, i) => {
        const w = workers[i];
        const token = mint({ alg: "ES256", kid: "ec-1", typ: "at+jwt" }, claims(w), ec);
        const started = Date.now();
        const res = await post(w, { token });
        assert.equal(res.status, 503, `${c}: ${await res.text()}`);
        assert.equal(res.headers.get("retry-after"), "60", c);
        if (c === "slow") assert.ok(Date.now() - started < 8500, "the fetch is cut at its time bound");
        assert.ok(await logHas(w, reasons[c]), `${c}: ${w.logTail(20)}`);
        // Anonymous requests are answered meanwhile, and the next token gets 503 at once (no
        // second fetch within the refetch interval).
        assert.equal((await post(w)).status, 200, c);
        assert.equal((await post(w, { token })).status, 503, c);
        assert.equal(hits[`/${c}/jwks`], 1, `${c}: one fetch`);
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
});

test("AUTH_MODE access: the Cf-Access-Jwt-Assertion preset", async () => {
  const worker = await startWorker({
    vars: { AUTH_MODE: "access", AUTH_ISSUER: ACCESS_TEAM, AUTH_AUDIENCE: ACCESS_AUD, AUTH_JWKS_URL: `${ISS}/access/certs` },
  });
  try {
    const anonymous = await skillNames(await post(worker));
    const now = Math.floor(Date.now() / 1000);
    const access = { iss: ACCESS_ISS, aud: [ACCESS_AUD], sub: "", email: "svc@acme.example", common_name: "svc.access", iat: now, exp: now + 600, type: "app" };
    const token = mint({ alg: "RS256", kid: "rsa-1", typ: "JWT" }, access, rsa);
    assert.deepEqual(await skillNames(await post(worker, { token, header: "cf-access-jwt-assertion" })), anonymous);
    // Access's header only: the token in Authorization is not read (anonymous).
    assert.deepEqual(await skillNames(await post(worker, { token: "garbage" })), anonymous);
    for (const [name, bad] of [
      ["another application", mint({ alg: "RS256", kid: "rsa-1", typ: "JWT" }, { ...access, aud: ["other"] }, rsa)],
      ["another team", mint({ alg: "RS256", kid: "rsa-1", typ: "JWT" }, { ...access, iss: "https://evil.cloudflareaccess.com" }, rsa)],
      ["ES256 (Access signs RS256)", mint({ alg: "ES256", kid: "ec-1", typ: "JWT" }, access, ec)],
    ]) {
      const res = await post(worker, { token: bad, header: "cf-access-jwt-assertion" });
      assert.equal(res.status, 401, name);
      assert.match(res.headers.get("www-authenticate"), /^Bearer error="invalid_token", resource_metadata="/, name);
    }
    const prm = await (await fetch(`${worker.origin}/.well-known/oauth-protected-resource/mcp`)).json();
    assert.deepEqual(prm.authorization_servers, [ACCESS_ISS]);
  } finally {
    await worker.stop();
  }
});

test("a bad AUTH_ setting stops the Worker at start", async () => {
  await assert.rejects(startWorker({ vars: { AUTH_MODE: "access" }, readyTimeoutMs: 60_000 }), (err) => {
    assert.ok(err.message.includes("configuration variable AUTH_ISSUER is invalid (required with AUTH_MODE access)"), err.message);
    return true;
  });
});
