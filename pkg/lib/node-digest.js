// Node's own SHA-256 (node:crypto createHash) in the shape of SubtleCrypto's digest, for the
// async verifier functions of node.js and for SkillsClient in Node (client-node.js).
//
// Node's crypto.subtle copies the data and hashes it on the libuv thread pool, which costs a
// round trip and reaches only 0.56-0.81x createHash; createHash hashes on the calling thread
// with the same native code, from the bytes as they are.
import { createHash } from "node:crypto";

/**
 * From this many bytes createHash is faster than the package's WebAssembly sha256Digest
 * (Node 20, x86-64 with SHA extensions, CPU time per call; a shared 2-core machine, so the
 * figures are the better of two runs): 512 B 3.4 us in WebAssembly, 3.2 us with createHash;
 * 1 KiB 5.0 vs 3.5 us; 4 KiB 16 vs 7.5 us; 64 KiB 232 vs 49 us. Below 512 B the call into
 * node:crypto costs more than the hashing it saves.
 */
export const NODE_DIGEST_THRESHOLD = 1024;

/** `digest("SHA-256", bytes)` with createHash: resolves to the 32-byte digest as an ArrayBuffer. */
export const nodeCrypto = {
  async digest(_algorithm, bytes) {
    const d = createHash("sha256").update(bytes).digest();
    return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength);
  },
};
