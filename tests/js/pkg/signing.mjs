// Signed skills for the tests, made with node:crypto's Ed25519 (an implementation independent of
// the package's): the in-toto statement of an entry's files in a DSSE envelope, as the compiler
// signs it (src/sign/mod.rs), the `_meta` keys a signing server puts them under, and a
// signing wrapper of a SkillsServer for http-server.mjs. No import of the package, so the
// browser tests (run from the repository) share it with the package tests.
import { createHash, generateKeyPairSync, sign as ed25519Sign } from "node:crypto";

export const DSSE_META_KEY = "io.github.skills-edge/dsse";
export const SIGNER_META_KEY = "io.github.skills-edge/signer";
const REVISION_META_KEY = "io.github.skills-edge/revision";
const PAYLOAD_TYPE = "application/vnd.in-toto+json";
const PREDICATE_TYPE = "https://github.com/skills-edge/skills-edge/blob/main/docs/signing.md#predicate-skill-v1";

/**
 * A fresh Ed25519 key: its id (the RFC 7638 thumbprint), its public JWK (with `kid`), its
 * secret JWK (to check that it is refused) and `sign(bytes)`.
 */
export function signingKey() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const { x } = publicKey.export({ format: "jwk" });
  const keyId = createHash("sha256").update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest("base64url");
  return {
    keyId,
    publicJwk: { kty: "OKP", crv: "Ed25519", x, kid: keyId },
    secretJwk: privateKey.export({ format: "jwk" }),
    sign: (bytes) => ed25519Sign(null, bytes, privateKey),
  };
}

/** The DSSE envelope of `entry`'s statement (its files, `revision` and `catalog`) signed by `key`. */
export function envelopeFor(entry, key, catalog, revision) {
  const statement = {
    _type: "https://in-toto.io/Statement/v1",
    subject: entry.resources.map((r) => ({ name: r.uri, digest: { sha256: r.digest.slice("sha256:".length) } })),
    predicateType: PREDICATE_TYPE,
    predicate: { skill: entry.uri, revision, catalog },
  };
  const payload = Buffer.from(JSON.stringify(statement), "utf8");
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${PAYLOAD_TYPE.length} ${PAYLOAD_TYPE} ${payload.length} `), payload]);
  return {
    payloadType: PAYLOAD_TYPE,
    payload: payload.toString("base64"),
    signatures: [{ keyid: key.keyId, sig: key.sign(pae).toString("base64") }],
  };
}

/** `entry` signed by `key` for `catalog` at `revision`, its envelope and public key in `_meta`. */
export function signed(entry, key, catalog, revision) {
  return { ...entry, _meta: { ...entry._meta, [DSSE_META_KEY]: envelopeFor(entry, key, catalog, revision), [SIGNER_META_KEY]: key.publicJwk } };
}

/**
 * A SkillsServer whose skills/list and skills/get results carry signatures (the revision each
 * entry publishes in its `_meta`): `state.key` signs for `state.catalog` (no key: unsigned),
 * and `state.tamper(entry)`, when set, rewrites each entry. For startHttpServer.
 */
export function signingServer(inner, state) {
  const signEntry = (e) => {
    const out = state.key ? signed(e, state.key, state.catalog ?? "acme", e._meta[REVISION_META_KEY]) : e;
    return state.tamper ? state.tamper(out) : out;
  };
  return {
    handleHttp(body, headers) {
      const reply = inner.handleHttp(body, headers);
      if (reply.body === undefined) return reply;
      const msg = JSON.parse(reply.body);
      if (msg.result?.skills) msg.result.skills = msg.result.skills.map(signEntry);
      if (msg.result?.skill) msg.result.skill = signEntry(msg.result.skill);
      return { ...reply, body: JSON.stringify(msg) };
    },
  };
}
