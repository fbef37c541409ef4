// Node's own SHA-256 (node:crypto createHash): in the shape of SubtleCrypto's digest for the
// async verifier functions of node.js, and as the io digest of SkillsClient in Node
// (client-node.js) and of the npm `skills-edge verify`.
//
// Node's crypto.subtle copies the data and hashes it on the libuv thread pool, which costs a
// round trip and reaches only 0.56-0.81x createHash; createHash hashes on the calling thread
// with the same native code, from the bytes as they are.
import { createHash } from "node:crypto";

/**
 * From this many bytes createHash is faster than the package's WebAssembly sha256Digest
 * (Node 20, x86-64 with SHA extensions, a shared 2-core machine). Per call: 512 B 3.4 us in
 * WebAssembly, 3.2 us with createHash; 1 KiB 5.0 vs 3.5 us; 4 KiB 16 vs 7.5 us; 64 KiB 232 vs
 * 49 us. Through sha256DigestAsync (CPU time, best of 5), WebAssembly / createHash: 512 B 3.6 /
 * 4.0 us, 768 B 4.3 / 4.2 us, 1 KiB 5.2 / 4.7 us, 2 KiB 8.5 / 5.3 us. Below about 768 B the
 * call into node:crypto costs more than the hashing it saves.
 */
export const NODE_DIGEST_THRESHOLD = 1024;

/**
 * `digest("SHA-256", bytes)` with createHash, in the shape of SubtleCrypto's, except that it
 * gives the digest at once and already in wire form (`sha256:` and 64 lowercase hex
 * characters), which async-verifier.js takes as it is. An ArrayBuffer would cost about 4 us per call, a
 * tenth of hashing 64 KiB: reading `.buffer` of the small Buffer createHash returns makes V8
 * move it off its heap.
 */
export const nodeCrypto = {
  digest(_algorithm, bytes) {
    return "sha256:" + createHash("sha256").update(bytes).digest("hex");
  },
};

/**
 * From this many bytes SkillsClient in Node has node:crypto hash fetched content. Higher than
 * NODE_DIGEST_THRESHOLD, as the WebAssembly core awaits the digest (a promise round trip of
 * about 10 us): per SkillsClient read of a text file (benches/js/verify-bench.mjs'
 * clientReader, Node 20, CPU time, best of 5), WebAssembly / node:crypto took 1 KiB 37 / 48
 * us, 4 KiB 71 / 70 us, 8 KiB 116 / 113 us, 16 KiB 205 / 174 us, 64 KiB 742 / 627 us.
 */
export const NODE_CLIENT_THRESHOLD = 8 * 1024;

/**
 * The `digest` and `digestThreshold` of a SkillsClientCore io object in Node: createHash,
 * synchronously (the core awaits whatever it returns), from NODE_CLIENT_THRESHOLD bytes.
 */
export const nodeIoDigest = Object.freeze({
  digestThreshold: NODE_CLIENT_THRESHOLD,
  digest: (bytes) => "sha256:" + createHash("sha256").update(bytes).digest("hex"),
});
