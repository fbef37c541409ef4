#!/usr/bin/env python3
"""Mints the ES256 and RS256 fixtures of tests/auth.rs with Python's `cryptography` (an
implementation independent of the Rust crates that check them) into tests/auth/fixtures.json:
a JWK Set with a P-256 key, a 2048-bit RSA key and a 1024-bit RSA key, and tokens signed with
them (RFC 9068 access tokens, Cloudflare Access-shaped tokens, an HS256 token whose HMAC secret
is the RSA public key). Run from anywhere: `python3 tests/auth/mint.py`; keys and ECDSA
signatures are random, so every run writes different (equally valid) fixtures."""

import base64
import hashlib
import hmac
import json
import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

HERE = os.path.dirname(os.path.abspath(__file__))
ISSUER = "https://as.example"
AUDIENCE = "https://rs.example/mcp"
ACCESS_ISSUER = "https://acme.cloudflareaccess.com"
ACCESS_AUD = "32eafc7626e974616deaf0dc3ce63d7bcbed58a2731e84d06bc3cdf1b53c4228"
NOW = 1700000000


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def uint(n: int) -> str:
    return b64(n.to_bytes((n.bit_length() + 7) // 8, "big"))


def part(obj) -> str:
    return b64(json.dumps(obj, separators=(",", ":")).encode())


def sign_es256(key, header, claims) -> str:
    signing_input = f"{part(header)}.{part(claims)}"
    der = key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    # RFC 7518 §3.4: the JWS signature is r || s, 32 bytes each, not DER.
    return f"{signing_input}.{b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


def sign_rs256(key, header, claims) -> str:
    signing_input = f"{part(header)}.{part(claims)}"
    sig = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{b64(sig)}"


def sign_hs256(secret: bytes, header, claims) -> str:
    signing_input = f"{part(header)}.{part(claims)}"
    sig = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(sig)}"


ec_key = ec.generate_private_key(ec.SECP256R1())
rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
weak_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)

ec_pub = ec_key.public_key().public_numbers()
rsa_pub = rsa_key.public_key().public_numbers()
weak_pub = weak_key.public_key().public_numbers()

jwks = {
    "keys": [
        {"kty": "EC", "crv": "P-256", "kid": "es-1", "use": "sig", "alg": "ES256",
         "x": b64(ec_pub.x.to_bytes(32, "big")), "y": b64(ec_pub.y.to_bytes(32, "big"))},
        {"kty": "RSA", "kid": "rs-1", "use": "sig", "alg": "RS256",
         "n": uint(rsa_pub.n), "e": uint(rsa_pub.e)},
        {"kty": "RSA", "kid": "rs-weak", "use": "sig", "alg": "RS256",
         "n": uint(weak_pub.n), "e": uint(weak_pub.e)},
    ]
}

claims = {
    "iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "client_id": "mcp-client",
    "jti": "4f1c", "iat": NOW, "exp": NOW + 3600, "scope": "skills:read skills:private",
}
at = lambda kid, alg: {"alg": alg, "kid": kid, "typ": "at+jwt"}

# Cloudflare Access (Validate JWTs, Application token): typ JWT, aud an array of AUD tags, no
# client_id or jti; a service token's sub is empty and common_name names it.
access_claims = {
    "aud": [ACCESS_AUD], "email": "user@example.com", "exp": NOW + 60, "iat": NOW, "nbf": NOW,
    "iss": ACCESS_ISSUER, "type": "app", "identity_nonce": "6ei69kawdKzMIAPF",
    "sub": "7335d417-61da-459d-899c-0a01c76a2f94", "country": "US",
}
service_claims = {
    "aud": [ACCESS_AUD], "common_name": "88bf3b6d86161464f6509f7219099e57.access",
    "exp": NOW + 60, "iat": NOW, "nbf": NOW, "iss": ACCESS_ISSUER, "type": "app", "sub": "",
}
access_header = {"alg": "RS256", "kid": "rs-1", "typ": "JWT"}

public_pem = rsa_key.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

fixtures = {
    "generated_by": "tests/auth/mint.py (Python cryptography)",
    "issuer": ISSUER, "audience": AUDIENCE,
    "access_issuer": ACCESS_ISSUER, "access_aud": ACCESS_AUD,
    "now": NOW,
    "jwks": jwks,
    "tokens": {
        "es256": sign_es256(ec_key, at("es-1", "ES256"), claims),
        "rs256": sign_rs256(rsa_key, at("rs-1", "RS256"), claims),
        # Signed by the 1024-bit key: refused because the key is.
        "rs256_weak_key": sign_rs256(weak_key, at("rs-weak", "RS256"), claims),
        # The ES256 token's header and claims with the RSA key's signature.
        "es256_header_rsa_signature": sign_es256(ec_key, at("rs-1", "ES256"), claims),
        # RFC 8725 §2.1: HS256 with the RSA public key (PEM) as the HMAC secret.
        "hs256_public_key_secret": sign_hs256(public_pem, at("rs-1", "HS256"), claims),
        "access": sign_rs256(rsa_key, access_header, access_claims),
        "access_service": sign_rs256(rsa_key, access_header, service_claims),
    },
}
# A valid RS256 token with a claim changed after signing.
h, p, s = fixtures["tokens"]["rs256"].split(".")
fixtures["tokens"]["rs256_claims_changed"] = ".".join(
    [h, part(dict(claims, sub="mallory")), s])

with open(os.path.join(HERE, "fixtures.json"), "w") as f:
    json.dump(fixtures, f, indent=2)
    f.write("\n")
