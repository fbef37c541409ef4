// The most bytes a module of the npm package may take, checked where it is built: on the
// installed tarball (tests/js/pkg/sizes.test.mjs) and on what a page in headless Chromium
// fetches (tests/js/browser/verifier.test.mjs). docs/performance.md states each bound.

/**
 * The verifier module (`skills-edge/verifier`, feature `web-verifier`): its .wasm after
 * `gzip -9`, in bytes (the JavaScript glue is not counted). It holds what a page needs to verify
 * skills, signatures included, and nothing else, within 150 KB (149.5 KB measured; 150.6 KB
 * before wasm-opt's `--low-memory-unused`, once the URL standard's IPv4 host parser and the OMS
 * pins' checks were in; what was done to get there is in docs/performance.md, the sizes).
 */
export const VERIFIER_WASM_GZIP_MAX = 150_000;
