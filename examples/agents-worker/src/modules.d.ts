// What the Worker's bindings and wrangler's module rules give the code, beside the types
// `wrangler types build/worker-configuration.d.ts` generates from wrangler.toml (Env, the
// runtime, `*.pack`).
// wrangler 4.164's `Env` is an interface of its own beside `Cloudflare.Env` (both extend the
// generated bindings), so the binding OAuthProvider adds is declared on both.
declare namespace Cloudflare {
  interface Env {
    /** The provider's helpers, which OAuthProvider sets before it calls a handler. */
    OAUTH_PROVIDER: import("@cloudflare/workers-oauth-provider").OAuthHelpers;
  }
}
interface Env {
  /** The provider's helpers, which OAuthProvider sets before it calls a handler. */
  OAUTH_PROVIDER: import("@cloudflare/workers-oauth-provider").OAuthHelpers;
}

declare module "*.wasm" {
  const module: WebAssembly.Module; // wrangler's default CompiledWasm rule
  export default module;
}
