// The skills Worker behind @cloudflare/workers-oauth-provider: an OAuth 2.1 authorization
// server (client registration, authorization with PKCE, tokens; grants kept in the OAUTH_KV
// namespace) in front of the skills-edge Worker, which serves /mcp as its `apiHandler`.
//
// The provider answers every request to /mcp without a valid token itself (401 with the
// Bearer challenge) and publishes the Protected Resource Metadata; for a valid token it calls
// the skills Worker with `ctx.auth.scope`, the scopes the token was granted, which the Worker
// (AUTH_MODE = "provider") turns into what the caller may see: the catalog's access rules
// (skills/skills-edge.toml) decide.
//
// The /authorize route here is a TEST CONSENT SCREEN: it approves every request at once, for
// a fixed user, granting exactly the scopes the client asked for. A real deployment signs the
// user in and shows a consent page (the package's docs/consent-page.md: the client's name, the
// redirect host, the scopes, Allow and Deny) before calling completeAuthorization.
import { env } from "cloudflare:workers";
import { AuthorizationError, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import pack from "../build/catalog.pack";
import { skillsHandler } from "../../../worker/skills.mjs";

// The same wasm as the Worker on its own (worker/build/), serving this example's pack.
const skills = skillsHandler(env, pack);

if (!env.PUBLIC_URL) {
  throw new Error(
    "PUBLIC_URL is not set: give this Worker's public origin (https://<name>.<account>.workers.dev, or http://127.0.0.1:<port> for wrangler dev) in wrangler.toml [vars] or with --var PUBLIC_URL:<origin>",
  );
}

const USER = "example-user";

/** The test consent screen: approves at once, granting the scopes requested. */
async function authorize(request, env) {
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
    if (error instanceof AuthorizationError && error.redirectTo) {
      return Response.redirect(error.redirectTo, 302);
    }
    if (error instanceof AuthorizationError) {
      return new Response(`authorization refused: ${error.description}`, {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
}

export default new OAuthProvider({
  apiRoute: "/mcp",
  apiHandler: skills,
  // Everything that is not /mcp or the provider's own endpoints: the consent route, else the
  // skills Worker as an anonymous caller (the /.well-known/agent-skills/ mirror of the public
  // skills, and its 404s).
  defaultHandler: {
    fetch(request, env, ctx) {
      if (new URL(request.url).pathname === "/authorize") return authorize(request, env);
      return skills.fetch(request, env, ctx);
    },
  },
  authorizeEndpoint: "/authorize",
  tokenEndpoint: "/token",
  clientRegistrationEndpoint: "/register",
  scopesSupported: ["skills:oncall"],
  resourceMetadata: { resource: new URL("/mcp", env.PUBLIC_URL).href },
});
