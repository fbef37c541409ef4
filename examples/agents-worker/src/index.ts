// An MCP server on Cloudflare Workers built the way the Agents SDK documents it, with Agent
// Skills added: three layers, outermost first.
//
// 1. @cloudflare/workers-oauth-provider (OAuthProvider): the OAuth 2.1 authorization server
//    (dynamic client registration at /register, authorization with PKCE at /authorize, tokens
//    at /token, its metadata; clients, grants and tokens in the OAUTH_KV namespace) and the
//    guard of /mcp. It answers every request to /mcp without a valid token itself (401 with
//    the Bearer challenge) and publishes the Protected Resource Metadata; for a valid token it
//    calls the apiHandler with the token's scopes and client in `ctx.auth` and the grant's
//    props in `ctx.props`.
// 2. createMcpHandler from `agents/mcp/server` (the Agents SDK): stateless Streamable HTTP at
//    /mcp, both protocol eras (2026-07-28 through the official SDK's handler, 2025-11-25
//    through its stateless lane), Host and Origin checks, CORS. It turns the provider's
//    `ctx.auth` and `ctx.props` into the SDK's AuthInfo (`ctx.http.authInfo` in every
//    handler: clientId, scopes, resource) and `getMcpAuthContext().props`.
// 3. A fresh official TypeScript SDK 2.4 McpServer per request (the factory), with one tool of
//    its own (`whoami`) and the Skills extension (io.modelcontextprotocol/skills, SEP-2640)
//    over skills-edge's compiled pack: `packSkillSource` serves each caller what its scopes
//    may see, by the access rules of skills/skills-edge.toml. A skill the caller may not see
//    answers exactly like one that does not exist.
//
// The /authorize route here is a TEST CONSENT SCREEN: it approves every request at once, for
// a fixed user, granting exactly the scopes the client asked for. A real deployment signs the
// user in and shows a consent page (the provider's docs/consent-page.md: the client's name,
// the redirect host, the scopes, Allow and Deny) before calling completeAuthorization.
import { env } from "cloudflare:workers";
import { AuthorizationError, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { McpServer } from "@modelcontextprotocol/server";
import { SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import { createMcpHandler, getMcpAuthContext } from "agents/mcp/server";
import { initSync } from "skills-edge";
import { packSkillSource, recommendedCacheHint } from "skills-edge/sdk";
import wasm from "skills-edge/skills_edge_bg.wasm";
import pack from "../build/skills.pack"; // npx skills-edge pack skills -o build/skills.pack

/** The scope the access rules give the private skill (skills/skills-edge.toml). */
const ONCALL = "skills:oncall";
/** The user the test consent screen signs in. */
const USER = "example-user";

if (!env.PUBLIC_URL) {
  throw new Error(
    "PUBLIC_URL is not set: give this Worker's public origin (https://<name>.<account>.workers.dev, or http://127.0.0.1:<port> for wrangler dev) in wrangler.toml [vars] or with --var PUBLIC_URL:<origin>",
  );
}

// SKILLS: the pack's wasm, once per isolate; then one source and one extension for every
// server the factory makes. The caller's scopes are the ones the provider verified, which
// createMcpHandler hands to the SDK as `ctx.http.authInfo.scopes`; without a token there is no
// request here at all (the provider answers 401), and a missing authInfo still means no
// scopes: the public skills only. The pack has a private skill, so the recommended cache hint
// is `private`: every caller gets the same hint, and these answers depend on the caller.
initSync({ module: wasm });
const source = packSkillSource(pack, { scopes: (ctx) => ctx.http?.authInfo?.scopes });
const skills = new SkillsExtension({ source, cacheHint: recommendedCacheHint(source) });

/** The server for one request: our tool, and the skills. */
function createServer(): McpServer {
  const server = new McpServer({ name: "team-mcp", version: "1.0.0" });
  server.registerTool(
    "whoami",
    { description: "Says who the caller is: the signed-in user and the scopes of the token." },
    async (ctx) => {
      // Never the token itself, nor authInfo.extra.props (the provider's docs).
      const user = getMcpAuthContext()?.props.userId;
      const scopes = ctx.http?.authInfo?.scopes ?? [];
      return { content: [{ type: "text", text: JSON.stringify({ user, scopes }) }] };
    },
  );
  skills.attach(server);
  return server;
}

const mcp = createMcpHandler(createServer);

/** The test consent screen: approves at once, granting the scopes requested. */
async function authorize(request: Request, env: Env): Promise<Response> {
  try {
    const oauthRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request);
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: oauthRequest,
      userId: USER,
      metadata: {},
      scope: oauthRequest.scope,
      props: { userId: USER },
    });
    return Response.redirect(redirectTo, 302);
  } catch (error) {
    // A redirect back to the client only once the library validated it (consent-page.md).
    if (error instanceof AuthorizationError && error.redirectTo) return Response.redirect(error.redirectTo, 302);
    if (error instanceof AuthorizationError) {
      return new Response(`authorization refused: ${error.description}`, {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
}

export default new OAuthProvider<Env>({
  apiRoute: "/mcp",
  // OAuthProvider wants an object with `fetch`; createMcpHandler's handler is a function that
  // takes (request, env, ctx) and reads the verified token from ctx.
  apiHandler: { fetch: (request: Request, env: Env, ctx: ExecutionContext) => mcp(request, env, ctx) },
  // Everything that is not /mcp or the provider's own endpoints: the consent route, else 404.
  defaultHandler: {
    fetch(request: Request, env: Env): Promise<Response> | Response {
      if (new URL(request.url).pathname === "/authorize") return authorize(request, env);
      return Response.json({ error: "not_found", error_description: "no such path: MCP is at /mcp" }, { status: 404 });
    },
  },
  authorizeEndpoint: "/authorize",
  tokenEndpoint: "/token",
  clientRegistrationEndpoint: "/register",
  scopesSupported: [ONCALL],
  resourceMetadata: { resource: new URL("/mcp", env.PUBLIC_URL).href },
});
