// The transports of SkillsClient and `skills-edge verify`: they only move bytes. What to send,
// how to read the reply and what it means is decided in the WebAssembly core
// (SkillsClientCore, the library's client); these functions build the `io` objects it
// calls, one per operation, so each carries that operation's AbortSignal and timeout.
//
// * `httpIo` POSTs with fetch: the core's headers (Content-Type, Accept, MCP-Protocol-Version,
//   Mcp-Method, Mcp-Name, Mcp-Session-Id) over the caller's own, the body as given, redirects
//   not followed (`redirect: "manual"`), and the body handed back chunk by chunk so an event
//   stream can be left as soon as the response arrived.
// * `sdkIo` sends through an official SDK Client's `request()` (v2 @modelcontextprotocol/client
//   or v1 @modelcontextprotocol/sdk), which owns the connection, its era and its headers.
//
// Failures are rejected as plain objects with a transport `code` (connection-failed, timeout,
// aborted, server-error) and a `message`, which the core turns into SkillsEdgeErrors.

function failure(code, message, extra = {}) {
  return { code, message, ...extra };
}

function describe(e) {
  const cause = e?.cause;
  const inner = cause ? ` (${cause.code ?? cause.name ?? "cause"}: ${cause.message ?? cause})` : "";
  return `${e?.message ?? String(e)}${inner}`;
}

function abortedBy(signal) {
  const r = signal?.reason;
  const why = r === undefined ? "" : `: ${r?.message ?? String(r)}`;
  return failure("aborted", `the request was aborted${why}`);
}

/** Whether `url` has the origin of `given` (false when either is not a URL). */
function sameOrigin(given, url) {
  try {
    return new URL(given).origin === new URL(url).origin;
  } catch {
    return false;
  }
}

function timedOut(ms) {
  return failure("timeout", `the request did not complete within ${ms} ms`);
}

// The most redirects one GET follows; the next one is an error naming the limit (the native
// command's transport has the same limit and the same message).
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * `location` resolved against `base` (RFC 3986 §5, as the native command resolves it), or
 * undefined when it is no URL.
 */
function resolveLocation(base, location) {
  try {
    return new URL(location.trim(), base).href;
  } catch {
    return undefined;
  }
}

/**
 * An io object for one operation over Streamable HTTP.
 * `target`: `{ url, headers: [name, value][], fetch }`; `call`: `{ signal?, timeoutMs }`.
 * Each POST (an MCP request) and GET (a well-known index or artifact), its body included, must
 * finish within `timeoutMs`.
 */
export function httpIo(target, { signal, timeoutMs }) {
  // One request, its body included, within `timeoutMs` (or until `deadline`, a Date.now()
  // value: the hops of one GET share it): `init` adds method, body and redirect. `own`:
  // whether the caller's headers go with it (see `get` below).
  async function send(url, extraHeaders, init, own = true, deadline = Date.now() + timeoutMs) {
    if (signal?.aborted) throw abortedBy(signal);
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, Math.max(0, deadline - Date.now()));
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let done = false;
    const cleanup = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const why = (e) => (expired ? timedOut(timeoutMs) : signal?.aborted ? abortedBy(signal) : null) ??
      failure("connection-failed", `the server could not be reached: ${describe(e)}`);
    const headers = new Headers();
    if (own) for (const [k, v] of target.headers) headers.set(k, v);
    for (const [k, v] of extraHeaders) headers.set(k, v);
    let res;
    // Called unbound: a browser's fetch refuses any `this` but the global.
    const doFetch = target.fetch;
    try {
      res = await doFetch(url, { ...init, headers, signal: controller.signal, cache: "no-store" });
    } catch (e) {
      cleanup();
      throw why(e);
    }
    const reader = res.body ? res.body.getReader() : undefined;
    return {
      status: res.status,
      // Read by `get` only (a redirect it follows itself); `opaque`: a browser's answer to
      // `redirect: "manual"`, which hides where the redirect points.
      location: res.headers.get("location"),
      opaque: res.type === "opaqueredirect",
      contentType: res.headers.get("content-type"),
      sessionId: res.headers.get("mcp-session-id"),
      // The challenge of a 401, which the core explains from the server's metadata.
      wwwAuthenticate: res.headers.get("www-authenticate"),
      async read() {
        if (!reader) {
          cleanup();
          return undefined;
        }
        try {
          const { done: end, value } = await reader.read();
          if (end) {
            cleanup();
            return undefined;
          }
          return value;
        } catch (e) {
          cleanup();
          throw why(e);
        }
      },
      // Called when the core is done with the body (an event stream may stay open).
      cancel() {
        cleanup();
        reader?.cancel().catch(() => {});
      },
    };
  }
  return {
    // Where a 401's metadata is looked up, and whether a token went with the requests (the
    // core says so in the error, never the token itself).
    url: target.url,
    // A bearer token, or the token Cloudflare Access's header carries (AUTH_MODE access).
    authorized: target.headers.some(([k]) => ["authorization", "cf-access-jwt-assertion"].includes(k.toLowerCase())),
    // MCP endpoints answer in place: a 3xx is the core's `http-status`.
    post: (body, mcpHeaders) => send(target.url, mcpHeaders, { method: "POST", body, redirect: "manual" }),
    // A well-known index, artifact, envelope or key set, or protected resource metadata.
    get: (url) => follow(url),
  };

  // GETs `url`, following up to MAX_REDIRECTS redirects (301, 302, 303, 307, 308 with a
  // Location, resolved against the hop that sent it, to http or https only) itself, as the
  // Discovery RFC asks of clients: fetch's own following is off (`redirect: "manual"`). The
  // caller's headers (`headers`, `token`) go with a hop only when its origin is the origin of
  // the URL they gave: an index may name its artifacts on any host and a redirect may point
  // anywhere, and neither sees the caller's credentials. The hops share one `timeoutMs`.
  async function follow(url) {
    const deadline = Date.now() + timeoutMs;
    let hop = url;
    for (let redirects = 0; ; redirects++) {
      const own = sameOrigin(target.url, hop);
      const res = await send(hop, [], { method: "GET", redirect: "manual" }, own, deadline);
      if (res.opaque) {
        res.cancel();
        // A browser hides the target of a redirect. Without the caller's headers the browser
        // may follow it itself (nothing of the caller's can go anywhere); with them it is
        // asked again without them, so a hop that needs them answers 401 rather than another
        // origin seeing them.
        return send(hop, [], { method: "GET", redirect: "follow" }, false, deadline);
      }
      const location = REDIRECT_STATUSES.has(res.status) ? res.location : null;
      if (location === null || location === undefined) return res;
      res.cancel();
      const next = resolveLocation(hop, location) ?? location.trim();
      if (redirects === MAX_REDIRECTS) {
        throw failure(
          "http-status",
          `GET ${url} was redirected more than ${MAX_REDIRECTS} times (the limit); the last answer was HTTP ${res.status} to ${next}`,
          { expected: "200", actual: String(res.status) },
        );
      }
      if (!/^https?:\/\//.test(next)) {
        throw failure(
          "http-status",
          `GET ${url} was redirected (HTTP ${res.status}) to ${next}, which is not an http(s) URL`,
          { expected: "200", actual: String(res.status) },
        );
      }
      hop = next;
    }
  }
}

/** Accepts any result: the core checks results itself (Standard Schema for v2, safeParse for v1). */
const PASSTHROUGH = Object.freeze({
  "~standard": Object.freeze({ version: 1, vendor: "skills-edge", validate: (value) => ({ value }) }),
  safeParse: (data) => ({ success: true, data }),
  parse: (data) => data,
});

function sdkFailure(e, signal, timeoutMs) {
  if (signal?.aborted) return abortedBy(signal);
  const code = e?.code;
  if (code === "REQUEST_TIMEOUT" || code === -32001) return timedOut(timeoutMs);
  if (typeof code === "number" && Number.isInteger(code)) {
    return failure("server-error", `the server answered with JSON-RPC error ${code}: ${e.message}`, { actual: String(code) });
  }
  return failure("connection-failed", `the SDK client failed: ${describe(e)}`);
}

/** An io object for one operation over an SDK Client (`request({ method, params }, schema, options)`). */
export function sdkIo(client, { signal, timeoutMs }) {
  return {
    async request(method, params) {
      if (signal?.aborted) throw abortedBy(signal);
      try {
        return await client.request({ method, params }, PASSTHROUGH, { signal, timeout: timeoutMs });
      } catch (e) {
        throw sdkFailure(e, signal, timeoutMs);
      }
    },
  };
}
