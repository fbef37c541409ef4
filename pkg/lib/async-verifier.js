// The async verifier functions of the ES module entry points (index.js for browsers, bundlers and
// workers, node.js for Node), over either build of the wasm-bindgen glue.
//
// Where the platform has a faster digest (crypto.subtle on secure pages and in workers, off the
// calling thread; node:crypto's createHash in Node, node-digest.js, as Node's crypto.subtle
// reaches only 0.56-0.81x of it) and the content is large enough for it to pay, the content is
// hashed there, and the WebAssembly verifier decides with that digest (checkFileDigest, after
// readResultContent, or verifySkillMdDigest; for a file of PRECHECK_THRESHOLD bytes or more,
// checkFileSize first, so a wrong size is refused without hashing). SkillsClient hands the same
// digest to its core (ioDigest). Everywhere else (plain-http pages, small content, values that are not a string or a genuine Uint8Array,
// a digest call that fails) the synchronous WebAssembly functions do everything. Both ways give
// the same results and the same errors: this file computes digests and moves values, and the
// one verifier in WebAssembly makes every decision.

/**
 * Below this many bytes the WebAssembly SHA-256 is faster than a round trip to crypto.subtle
 * (measured in Node 20, CPU time: the two meet at about 11 KiB).
 */
export const SUBTLE_THRESHOLD = 16 * 1024;

/**
 * From this many bytes verifyFileAsync checks the entry and the size (checkFileSize) before
 * hashing elsewhere, so that a file of the wrong size is refused without being hashed. Below it
 * the platform hashes first and checkFileDigest makes every check once: a second reading of the
 * entry (about 6 us in Node 20) costs more than hashing a smaller file whose size is wrong saves
 * (node:crypto hashes 1 MiB in about 0.8 ms), and wrong sizes are the exception.
 */
export const PRECHECK_THRESHOLD = 1 << 20;

/**
 * From this many bytes SkillsClient has crypto.subtle hash fetched content (ioDigest's
 * default). Twice SUBTLE_THRESHOLD, as the WebAssembly core awaits the digest: per
 * SkillsClient read of a text file with Node's crypto.subtle (Node 20, CPU time, best of 5),
 * WebAssembly / crypto.subtle took 16 KiB 226 / 246 us, 24 KiB 316 / 323 us, 32 KiB 382 / 376
 * us, 64 KiB 734 / 665 us.
 */
export const CLIENT_SUBTLE_THRESHOLD = 32 * 1024;

const encoder = new TextEncoder();
// The built-in `length` getter of typed arrays, which an own property cannot shadow and which
// throws for anything that is not a genuine typed array (a proxy, an object made from the
// prototype).
const typedArrayLength = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype),
  "length",
).get;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
// The exports whose argument errors start with their own name.
const INNER = /^(sha256Digest|verifyFile|checkFileDigest|checkFileSize|readResultContent|verifyReadResult|verifySkillMd|verifySkillMdDigest): /;

/** The platform's SubtleCrypto, or undefined where there is none (a getter that throws counts as none). */
export function platformSubtle() {
  try {
    const subtle = globalThis.crypto?.subtle;
    return typeof subtle?.digest === "function" ? subtle : undefined;
  } catch {
    return undefined;
  }
}

/** The length of a genuine Uint8Array, or undefined for any other value. */
function uint8Length(value) {
  try {
    return value instanceof Uint8Array ? Reflect.apply(typedArrayLength, value, []) : undefined;
  } catch {
    return undefined;
  }
}

const WIRE = /^sha256:[0-9a-f]{64}$/;

/**
 * The wire form (`sha256:` + 64 lowercase hex characters) of what a platform's `digest` gave:
 * 32 bytes, or a digest already in wire form (node-digest.js); undefined for anything else.
 */
function wire(digest) {
  if (typeof digest === "string") return WIRE.test(digest) ? digest : undefined;
  const bytes = new Uint8Array(digest);
  if (bytes.length !== 32) return undefined;
  let out = "sha256:";
  for (const b of bytes) out += HEX[b];
  return out;
}

/**
 * The wire digest of `bytes` from `platform` (a SubtleCrypto, or anything with its `digest`,
 * which may give its result at once and in wire form, as node-digest.js does), or undefined if
 * it refuses them or gives anything else (the WebAssembly verifier then hashes).
 */
async function platformDigest(platform, bytes) {
  try {
    return wire(await platform.digest("SHA-256", bytes));
  } catch {
    return undefined;
  }
}

/**
 * The `digest` and `digestThreshold` of a SkillsClientCore io object over `platform` (what
 * `subtle` gives asyncVerifier: a SubtleCrypto, or Node's createHash in its shape), or
 * undefined where there is none (plain-http pages): the core has the platform hash fetched
 * content of `threshold` bytes or more, and the WebAssembly verifier decides with that digest.
 */
export function ioDigest(platform, threshold = CLIENT_SUBTLE_THRESHOLD) {
  if (!platform) return undefined;
  return { digestThreshold: threshold, digest: (bytes) => platformDigest(platform, bytes) };
}

/**
 * The async verifier functions over the glue module `glue`. `subtle()` gives the SubtleCrypto
 * to use at each call (undefined: WebAssembly only); content of fewer than `threshold` bytes is
 * hashed in WebAssembly; verifyFileAsync checks the size before hashing elsewhere from
 * `precheck` bytes.
 */
export function asyncVerifier(glue, { subtle = platformSubtle, threshold = SUBTLE_THRESHOLD, precheck = PRECHECK_THRESHOLD } = {}) {
  /**
   * `{ bytes, size }` to hand to crypto.subtle for `content` (text: its UTF-8 bytes; with
   * `copy`, a private copy of a Uint8Array, so that what is hashed is what is verified
   * afterwards; `size` read with the built-in getter, never from the value's own properties), or
   * undefined when the WebAssembly path should take it: fewer than `threshold` bytes, or a value
   * that is not a string or a genuine Uint8Array (which the WebAssembly path refuses).
   */
  function measurable(content, copy) {
    if (typeof content === "string") {
      if (content.length * 3 < threshold) return undefined;
      const bytes = encoder.encode(content);
      return bytes.length >= threshold ? { bytes, size: bytes.length } : undefined;
    }
    const size = uint8Length(content);
    if (size === undefined || size < threshold) return undefined;
    if (!copy) return { bytes: content, size };
    const bytes = new Uint8Array(size);
    try {
      if (size > 0) bytes.set(content);
    } catch {
      return undefined;
    }
    return { bytes, size };
  }

  /** The digest of bytes the verifier handed out: crypto.subtle from `threshold` bytes, else WebAssembly. */
  async function digestOf(platform, bytes) {
    const digest = bytes.length >= threshold ? await platformDigest(platform, bytes) : undefined;
    return digest ?? glue.sha256Digest(bytes);
  }

  /**
   * The receipt of a file of `size` bytes whose digest the platform computed: checkFileDigest
   * makes every check of verifyFileDigest and says whether the file was verified; the receipt is
   * made of what it was given, as verifyFileDigest would make it.
   */
  function receipt(entry, uri, size, digest, options) {
    const verified = glue.checkFileDigest(entry, uri, size, digest, options);
    return { uri, size, digest, verified };
  }

  /** Runs `body`; argument errors of the exports it calls are renamed after `name`, the function called. */
  async function named(name, body) {
    try {
      return await body();
    } catch (e) {
      if (glue.isSkillsEdgeError(e) && INNER.test(e.message)) e.message = e.message.replace(INNER, `${name}: `);
      throw e;
    }
  }

  return {
    sha256DigestAsync: (content) =>
      named("sha256DigestAsync", async () => {
        const platform = subtle();
        const measured = platform && measurable(content, false);
        const digest = measured && (await platformDigest(platform, measured.bytes));
        return digest ?? glue.sha256Digest(content);
      }),

    verifyFileAsync: (entry, uri, content, options) =>
      named("verifyFileAsync", async () => {
        const platform = subtle();
        const measured = platform && measurable(content, false);
        if (measured) {
          if (measured.size >= precheck) glue.checkFileSize(entry, uri, measured.size, options);
          const digest = await platformDigest(platform, measured.bytes);
          if (digest !== undefined) return receipt(entry, uri, measured.size, digest, options);
        }
        return glue.verifyFile(entry, uri, content, options);
      }),

    verifyReadResultAsync: (entry, uri, result, options) =>
      named("verifyReadResultAsync", async () => {
        const platform = subtle();
        if (!platform) return glue.verifyReadResult(entry, uri, result, options);
        const body = glue.readResultContent(entry, uri, result, options);
        const digest = await digestOf(platform, body.bytes);
        return { ...receipt(entry, uri, body.bytes.length, digest, options), ...body };
      }),

    verifySkillMdAsync: (entry, content) =>
      named("verifySkillMdAsync", async () => {
        const platform = subtle();
        const measured = platform && measurable(content, true);
        const digest = measured && (await platformDigest(platform, measured.bytes));
        if (digest === undefined) return glue.verifySkillMd(entry, content);
        return glue.verifySkillMdDigest(entry, typeof content === "string" ? content : measured.bytes, digest);
      }),
  };
}
