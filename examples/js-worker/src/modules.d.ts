// What wrangler's module rules turn these imports into (see wrangler.toml).
declare module "*.pack" {
  const bytes: ArrayBuffer; // the Data rule
  export default bytes;
}
declare module "*.wasm" {
  const module: WebAssembly.Module; // the default CompiledWasm rule
  export default module;
}
