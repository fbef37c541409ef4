// The most bytes a wasm module may take, checked where it is built: the npm package's verifier
// module on the installed tarball (tests/js/pkg/sizes.test.mjs) and on what a page in headless
// Chromium fetches (tests/js/browser/verifier.test.mjs); the Worker's where wrangler bundles it
// (tests/e2e/deploy.test.mjs). docs/performance.md states each bound.

/**
 * The verifier module (`skills-edge/verifier`, feature `web-verifier`): its .wasm after
 * `gzip -9`, in bytes (the JavaScript glue is not counted). It holds what a page needs to verify
 * skills, signatures included, and nothing else, within 150 KB (149.5 KB measured; 150.6 KB
 * before wasm-opt's `--low-memory-unused`, once the URL standard's IPv4 host parser and the OMS
 * pins' checks were in; what was done to get there is in docs/performance.md, the sizes).
 */
export const VERIFIER_WASM_GZIP_MAX = 150_000;

/**
 * The Worker (`worker/build/skills_edge_worker_bg.wasm`, crate skills-edge-worker): its .wasm
 * after `gzip -9`, in bytes (the glue and the pack are not counted; the upload as a whole has
 * its own bound of 1 MB gzip). The Worker as it is at this version (266.5 KB measured, with
 * the R2-backed catalogs, search and the token profiles in), with 1% of room, so it does not
 * grow without someone choosing to raise this line; checked where the Worker is built
 * (tests/e2e/deploy.test.mjs).
 */
export const WORKER_WASM_GZIP_MAX = 270_000;
