// The official SDK 2.4 client's OAuth flow against a Worker that runs
// @cloudflare/workers-oauth-provider with an auto-approving test consent screen at /authorize
// (examples/oauth-provider, examples/agents-worker): dynamic client registration, PKCE
// authorization, the code exchanged for a token by `finishAuth`. Every step is checked as it
// happens; the result is an OAuthClientProvider holding the token, for the SDK's transports.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";

/** The client's redirect URI: never contacted (the flow reads the code from the Location). */
export const REDIRECT = "http://127.0.0.1:9/callback";

/** An OAuthClientProvider kept in memory: the client's registration, tokens and verifier. */
export class MemoryProvider {
  constructor(scope) {
    this.scope = scope;
    this.authorizationUrl = undefined;
  }
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "skills-edge e2e",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationUrl = new URL(url);
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/**
 * The whole flow against the MCP endpoint `mcp` (`http://127.0.0.1:PORT/mcp`) for a client
 * asking for `scope` (none when undefined): the SDK client's first connection is refused
 * (UnauthorizedError) after dynamic registration, with an authorization URL on the same
 * origin at /authorize (PKCE S256, the resource indicator naming `mcp`, the scope asked for);
 * the test consent screen's redirect carries the code and the state; `finishAuth` exchanges
 * the code for a Bearer token. `client()` makes the SDK client used for the refused
 * connection. Resolves the MemoryProvider holding the client's registration and token.
 */
export async function oauthFlow({ mcp, scope, client = () => new Client({ name: "skills-edge-oauth-e2e", version: "1.0.0" }) }) {
  const url = new URL(mcp);
  const provider = new MemoryProvider(scope);
  const first = client();
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(first.connect(transport), UnauthorizedError, "the first connection has no token");
  assert.ok(provider.info?.client_id, "dynamic client registration gave a client_id");
  const auth = provider.authorizationUrl;
  assert.ok(auth, "the SDK asked to open the authorization URL");
  assert.equal(`${auth.origin}${auth.pathname}`, `${url.origin}/authorize`);
  assert.equal(auth.searchParams.get("code_challenge_method"), "S256");
  assert.ok(auth.searchParams.get("code_challenge"), "PKCE code challenge");
  assert.equal(auth.searchParams.get("resource"), mcp, "the resource indicator names the MCP endpoint");
  assert.equal(auth.searchParams.get("scope"), scope ?? null);
  // The test consent screen approves at once: a redirect to the client with the code.
  const res = await fetch(auth, { redirect: "manual" });
  assert.equal(res.status, 302, await res.text());
  const back = new URL(res.headers.get("location"));
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get("state"), auth.searchParams.get("state"));
  assert.ok(back.searchParams.get("code"), `a code in ${back}`);
  await transport.finishAuth(back.searchParams);
  const tokens = provider.tokens();
  assert.ok(tokens?.access_token, "the code was exchanged for a token");
  assert.equal(tokens.token_type.toLowerCase(), "bearer");
  await first.close().catch(() => {});
  return provider;
}
