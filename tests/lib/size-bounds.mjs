// The most bytes a module of the npm package may take, checked where it is built: on the
// installed tarball (tests/js/pkg/sizes.test.mjs) and on what a page in headless Chromium
// fetches (tests/js/browser/verifier.test.mjs). docs/performance.md states each bound.

/**
 * The verifier module (`skills-edge/verifier`, feature `web-verifier`): its .wasm after
 * `gzip -9`, in bytes (the JavaScript glue is not counted). It holds what a page needs to verify
 * skills, signatures included, and nothing else. This bound keeps it from growing: it is the
 * measured size (151.4 KB, since the host reads JSON with its own reader) with a little room.
 * The goal is 150 KB; what remains is listed in docs/performance.md (the sizes).
 */
export const VERIFIER_WASM_GZIP_MAX = 155_000;
