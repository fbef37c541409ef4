// The most bytes a module of the npm package may take, checked where it is built: on the
// installed tarball (tests/js/pkg/sizes.test.mjs) and on what a page in headless Chromium
// fetches (tests/js/browser/verifier.test.mjs). docs/performance.md states each bound.

/**
 * The verifier module (`skills-edge/verifier`, feature `web-verifier`): its .wasm after
 * `gzip -9`, in bytes (the JavaScript glue is not counted). It holds what a page needs to verify
 * skills and nothing else, so it stays well below the main module; the bound leaves room for a
 * signature check (Ed25519) and its envelope parser.
 */
export const VERIFIER_WASM_GZIP_MAX = 200_000;
