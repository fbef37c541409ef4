// DSSE signing for tests that play a signer the host must not trust: Node's own Ed25519
// (node:crypto) over DSSE's PAE, written here from the DSSE specification
// (https://github.com/secure-systems-lab/dsse/blob/master/protocol.md), not the project's code.
import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";

const PAYLOAD_TYPE = "application/vnd.in-toto+json";

/** DSSE's pre-authentication encoding. */
export function pae(type, body) {
  const t = Buffer.from(type, "utf8");
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${t.length} `),
    t,
    Buffer.from(` ${body.length} `),
    body,
  ]);
}

/** The RFC 7638 thumbprint of an Ed25519 JWK. */
export function thumbprint(jwk) {
  const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash("sha256").update(members).digest("base64url");
}

/**
 * A signer from a secret JWK's text (`signing.key`): `{ public, resign(statement) }`, where
 * `public` is the public JWK and `resign` returns a DSSE envelope of the statement object.
 */
export function signWith(secretJwkText) {
  const jwk = JSON.parse(secretJwkText);
  const key = createPrivateKey({ key: jwk, format: "jwk" });
  const pub = createPublicKey(key).export({ format: "jwk" });
  const kid = thumbprint(pub);
  return {
    public: { ...pub, kid },
    resign(statement) {
      const body = Buffer.from(JSON.stringify(statement), "utf8");
      const sig = sign(null, pae(PAYLOAD_TYPE, body), key);
      return { payloadType: PAYLOAD_TYPE, payload: body.toString("base64"), signatures: [{ keyid: kid, sig: sig.toString("base64") }] };
    },
  };
}

/** The DSSE payload type of a catalog release (src/release.rs). */
export const RELEASE_TYPE = "application/vnd.skills-edge.release+json";

/**
 * A catalog release (the pointer R2 holds) of `pack`, its SHA-256 hex, with `size` bytes and
 * `assets` ([name, length] pairs), signed with the secret JWK text: the envelope's JSON text.
 */
export function signRelease(secretJwkText, { catalog = "default", pack, size, assets = [] }) {
  const jwk = JSON.parse(secretJwkText);
  const key = createPrivateKey({ key: jwk, format: "jwk" });
  const body = Buffer.from(JSON.stringify({ catalog, pack, size, assets }));
  const sig = sign(null, pae(RELEASE_TYPE, body), key);
  return JSON.stringify({ payloadType: RELEASE_TYPE, payload: body.toString("base64"), signatures: [{ keyid: thumbprint(jwk), sig: sig.toString("base64") }] });
}
