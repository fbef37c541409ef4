#!/usr/bin/env python3
"""Writes the seeds of the client's fuzz targets (`sse`, `reply`, `client`) and of the bearer
token target (`auth`) into fuzz/corpus/<target>/, among them the inputs that reproduced defects
of the client these targets found (`regression`, named after what the server did), so that the
smoke run keeps checking them.
The input formats are described at the top of each file in fuzz_targets/. Run from anywhere:
`python3 fuzz/gen_seeds.py`; it rewrites only the files named here."""

import base64
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(folder, target, name, data):
    path = os.path.join(HERE, folder, target)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(data)


def seed(target, name, data):
    write("corpus", target, name, data)


def regression(target, name, data):
    """An input that reproduced a defect of the client, kept among the seeds."""
    write("corpus", target, name, data)


# --- sse: [n] [n % 8 chunk lengths] stream ---------------------------------------------------
def sse(lengths, stream):
    return bytes([len(lengths)]) + bytes(lengths) + stream


seed("sse", "one-event", sse([], b'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'))
seed("sse", "lines-joined", sse([3, 1], b"data: a\ndata:b\r\ndata\r\n\r\n"))
seed("sse", "cr-only", sse([1], b"data: x\r\rdata: y\r\r"))
seed("sse", "crlf-split", sse([8, 1, 1], b"data: 1\r\n\r\nevent: message\r\ndata: 2\r\n\r\n"))
seed("sse", "comments-and-fields",
     sse([5, 0, 7], b": keep-alive\n\nid: 3\nretry: 10\nevent: ping\ndata: skip\n\ndata: keep\n\n"))
seed("sse", "no-final-blank-line", sse([2], b"data: tail"))
seed("sse", "empty-data", sse([], b"data:\n\ndata\n\n"))
seed("sse", "invalid-utf8", sse([4], b"data: \xff\xfe\xc3\n\n"))
# A stream that starts with a UTF-8 BOM: WHATWG drops it, so the first event is kept.
regression("sse", "leading-bom-drops-first-event", sse([], b'\xef\xbb\xbfdata: {"a":1}\n\n'))


# --- reply: [content type] [status] [id] [chunk length] body ---------------------------------
JSON, SSE, JSON_CHARSET, SSE_CASE, NONE, HTML = range(6)
S200, S201, S202, S204, S400, S404, S500, S302 = 0, 2, 3, 4, 5, 6, 7, 8


def reply(ct, status, rid, chunk, body):
    return bytes([ct, status, rid, chunk]) + body


seed("reply", "json-result", reply(JSON, S200, 1, 0, b'{"jsonrpc":"2.0","id":1,"result":{"skills":[]}}'))
seed("reply", "json-other-id", reply(JSON, S200, 1, 0, b'{"jsonrpc":"2.0","id":2,"result":{}}'))
seed("reply", "json-error", reply(JSON_CHARSET, S200, 7, 5,
                                  b'{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no"}}'))
seed("reply", "error-status-no-id", reply(JSON, S400, 3, 0,
                                          b'{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"}}'))
seed("reply", "error-id-null", reply(JSON, S400, 3, 0,
                                     b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}'))
seed("reply", "sse-notification-then-response", reply(SSE, S200, 4, 9,
    b'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n'
    b'data: {"jsonrpc":"2.0","id":3,"result":{}}\n\n'
    b'data: {"jsonrpc":"2.0","id":4,"result":{"ok":true}}\n\n'))
seed("reply", "sse-no-response", reply(SSE_CASE, S200, 2, 3, b": ping\n\n"))
seed("reply", "status-202", reply(JSON, S202, 1, 0, b""))
seed("reply", "html", reply(HTML, S200, 1, 0, b"<html>"))
seed("reply", "escaped-jsonrpc", reply(JSON, S200, 1, 0, b'{"jsonrpc":"\\u0032.0","id":1,"result":{}}'))
seed("reply", "string-id", reply(JSON, S200, 1, 0, b'{"jsonrpc":"2.0","id":"1","result":{}}'))
# Two `id` members: serde_json keeps the last, so this answers request 1.
regression("reply", "duplicate-id-json",
           reply(JSON, S200, 1, 0, b'{"jsonrpc":"2.0","id":0,"id":1,"result":{}}'))
regression("reply", "duplicate-id-event-stream",
           reply(SSE, S200, 1, 0, b'data: {"jsonrpc":"2.0","id":0,"id":1,"result":{}}\n\n'))
regression("reply", "duplicate-result",
           reply(JSON, S200, 1, 0, b'{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":{"a":2}}'))


# --- client: [flags] records -----------------------------------------------------------------
DIRS, ONLY = 1, 2
SKILL_MD, A_MD, C_MD, EVIL_MD = 1, 2, 4, 8  # file masks (bit f: file f)


def page(entries, nxt=0, ttl=1):
    out = [0, len(entries)]
    for skill, files, versions, dynamic in entries:
        out += [skill, files, versions, dynamic]
    return out + [nxt, ttl]


def list_error():
    return [0, 0x80]


def get(skill, what, shape=(0, 0, 0), ttl=1):
    out = [1, skill, what]
    if what == 0:
        out += list(shape) + [ttl]
    return out


def read(skill, f, what, raw=b""):
    out = [2, skill * 4 + f, what]
    if what == 3:
        out += [len(raw)] + list(raw)
    return out


def directory(skill, sub, children, nxt=0):
    return [3, skill * 2 + sub, len(children)] + children + [nxt]


def client(flags, *records):
    out = [flags]
    for r in records:
        out += r
    return bytes(out)


HONEST = SKILL_MD | A_MD | C_MD
seed("client", "honest", client(0))
seed("client", "honest-directories", client(DIRS))
seed("client", "only-alpha", client(ONLY))
seed("client", "two-pages", client(0, page([(0, HONEST, 0, 0)], nxt=1), page([(1, HONEST, 0, 0)])))
seed("client", "repeated-cursor", client(0, page([(0, HONEST, 0, 0)], nxt=1), page([], nxt=1)))
seed("client", "listing-refused", client(0, list_error()))
seed("client", "listed-twice", client(0, page([(0, HONEST, 0, 0), (0, SKILL_MD, 0, 0)])))
# A stale listing (no ttlMs), corrected by skills/get to the same files.
seed("client", "stale-then-get", client(0, page([(0, HONEST, 0, 0)], ttl=0)))
seed("client", "other-bytes-twice", client(0, page([(1, HONEST, 0, 0)]), read(1, 1, 1), read(1, 1, 1)))
seed("client", "read-refused", client(0, read(0, 2, 2)))
seed("client", "read-reset", client(0, read(0, 1, 4)))
seed("client", "raw-bytes", client(0, read(0, 1, 3, b"\x00\xffnot it")))
seed("client", "blob", client(0, read(0, 1, 5), read(1, 0, 5)))
seed("client", "skill-md-other-bytes", client(0, read(0, 0, 1), read(0, 0, 1)))
seed("client", "get-refused", client(ONLY, get(0, 1)))
seed("client", "get-other-skill", client(ONLY, get(0, 4)))
seed("client", "unlisted-in-directory", client(DIRS, directory(0, 0, [0, 1, 2, 4]),
                                              directory(0, 1, [3, 7])))
seed("client", "directory-refused-paging", client(DIRS, directory(1, 0, [0, 1], nxt=2),
                                                 directory(1, 0, [5], nxt=2)))
# The refresh adds a file while directoryRead is on: today the walk, on the superseded entry,
# fails the run with `not-in-manifest`.
seed("client", "refresh-adds-file-directories",
     client(DIRS, page([(0, SKILL_MD | A_MD, 0, 0)]), read(0, 1, 1),
            get(0, 0, (SKILL_MD | A_MD | EVIL_MD, A_MD, 0)), read(0, 1, 1),
            directory(0, 0, [0, 1, 4])))

# An honestly dynamic skill: its SKILL.md is labelled `verified`, though no manifest lists it.
regression("client", "server-lists-dynamic-skill-md-reported-verified",
           client(0, page([(2, 0, 0, 1)])))
# Other bytes, then the refreshed entry describes them: the read verifies against the new
# entry, but the audit keeps the revision of the superseded one.
regression("client", "server-refreshes-entry-mid-read-revision-kept",
           client(0, page([(0, SKILL_MD | A_MD, 0, 0)]), read(0, 1, 1),
                  get(0, 0, (SKILL_MD | A_MD, A_MD, 0)), read(0, 1, 1)))
# The listing's entry has a manifest but no ttlMs (stale at once); skills/get turns it
# "dynamic"; resources/read serves other bytes with the same frontmatter. The audit says
# `verified`.
regression("client", "server-turns-entry-dynamic-on-get",
           client(0, page([(0, SKILL_MD | A_MD, 0, 0)], ttl=0), get(0, 3), read(0, 0, 1)))
# A read fails, the refresh answers a new entry that adds evil.md; the audit stays on the
# entry it captured after loading, so evil.md is never requested and the skill is `verified`.
regression("client", "server-refreshes-to-new-entry-mid-read",
           client(0, page([(0, SKILL_MD | A_MD, 0, 0)]), read(0, 1, 1),
                  get(0, 0, (SKILL_MD | A_MD | EVIL_MD, A_MD, 0)), read(0, 1, 1)))
# A read fails, the refresh answers an entry without sub/c.md whose SKILL.md the server no
# longer serves; the audit goes on with the superseded entry's files and reports sub/c.md
# `verified`, though the entry held at the end does not list it.
regression("client", "server-refresh-drops-file-mid-read",
           client(0, read(0, 1, 1), get(0, 0, (SKILL_MD | A_MD | EVIL_MD, SKILL_MD | EVIL_MD, 0))))


# --- auth: [flag] then, by flag % 5: 0 a header value, 1 the same re-signed by the target,
# 2 a JWK Set, 3 token fields then mutations, 4 key cache events; flag // 5 moves now by 600 s.
AUTH_NOW = 1700000000
AUTH_ISS = "https://as.example"
AUTH_AUD = "https://rs.example/mcp"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jpart(obj) -> str:
    return b64url(json.dumps(obj, separators=(",", ":")).encode())


def auth(flag, text):
    return bytes([flag]) + (text.encode() if isinstance(text, str) else text)


def token(header, claims, sig="AAAA"):
    return f"{jpart(header)}.{jpart(claims)}.{sig}"


AT_CLAIMS = {"iss": AUTH_ISS, "aud": AUTH_AUD, "sub": "alice", "client_id": "c", "jti": "j",
             "iat": AUTH_NOW, "exp": AUTH_NOW + 3600, "scope": "skills:read skills:private"}
ACCESS_CLAIMS = {"aud": ["x", AUTH_AUD], "iss": AUTH_ISS, "exp": AUTH_NOW + 60,
                 "iat": AUTH_NOW, "nbf": AUTH_NOW, "sub": "", "common_name": "svc.access",
                 "groups": ["team"], "type": "app"}
for kid, alg in [("ed-1", "EdDSA"), ("ed-2", "Ed25519"), ("es-1", "ES256"), ("rs-1", "RS256")]:
    h = {"alg": alg, "kid": kid, "typ": "at+jwt"}
    seed("auth", f"resigned-{alg.lower()}", auth(1, "Bearer " + token(h, AT_CLAIMS)))
    seed("auth", f"resigned-access-{alg.lower()}",
         auth(1, token({"alg": alg, "kid": kid, "typ": "JWT"}, ACCESS_CLAIMS)))
for name, header, claims in [
    ("no-kid", {"alg": "ES256", "typ": "at+jwt"}, AT_CLAIMS),
    ("no-kid-ambiguous", {"alg": "EdDSA", "typ": "at+jwt"}, AT_CLAIMS),
    ("typ-media-type", {"alg": "EdDSA", "kid": "ed-1", "typ": "Application/AT+JWT"}, AT_CLAIMS),
    ("fractional-exp", {"alg": "EdDSA", "kid": "ed-1", "typ": "at+jwt"},
     dict(AT_CLAIMS, exp=AUTH_NOW + 0.5, nbf=AUTH_NOW - 0.5)),
    ("key-mismatch", {"alg": "ES256", "kid": "rs-1", "typ": "at+jwt"}, AT_CLAIMS),
    ("crit", {"alg": "EdDSA", "kid": "ed-1", "typ": "at+jwt", "crit": ["b64"], "b64": False},
     AT_CLAIMS),
    ("wrong-types", {"alg": "EdDSA", "kid": "ed-1", "typ": "at+jwt"},
     dict(AT_CLAIMS, exp=str(AUTH_NOW), aud=5, scope={"a": 1})),
]:
    seed("auth", f"resigned-{name}", auth(1, token(header, claims)))
seed("auth", "duplicate-claim", auth(1, jpart({"alg": "EdDSA", "kid": "ed-1", "typ": "at+jwt"})
                                     + "." + b64url(b'{"iss":"https://as.example","sub":"a","sub":"b"}')
                                     + ".AAAA"))
seed("auth", "alg-none", auth(0, token({"alg": "none"}, AT_CLAIMS, "")))
seed("auth", "hs256", auth(0, token({"alg": "HS256", "kid": "rs-1"}, AT_CLAIMS)))
seed("auth", "jwe-five-parts", auth(0, token({"alg": "RSA-OAEP", "enc": "A256GCM"}, {}) + ".a.b"))
seed("auth", "padded", auth(0, token({"alg": "EdDSA", "kid": "ed-1"}, AT_CLAIMS) + "=="))
seed("auth", "basic", auth(0, "Basic dXNlcjpwYXNz"))
# The tokens minted by tests/auth/mint.py (their keys are not the target's: refused at the
# signature, after every other check).
with open(os.path.join(HERE, "..", "tests", "auth", "fixtures.json")) as f:
    FIXTURES = json.load(f)
for name, tok in sorted(FIXTURES["tokens"].items()):
    seed("auth", f"fixture-{name}", auth(0, "Bearer " + tok))
seed("auth", "jwks-fixture", auth(2, json.dumps(FIXTURES["jwks"])))
seed("auth", "jwks-access", auth(2, json.dumps(
    {"keys": [dict(FIXTURES["jwks"]["keys"][1], kid="1a1c")], "public_cert": {"kid": "1a1c", "cert": "-----BEGIN"},
     "public_certs": []})))
X = b64url(bytes(range(32)))
seed("auth", "jwks-mixed", auth(2, json.dumps({"keys": [
    {"kty": "OKP", "crv": "Ed25519", "kid": "a", "x": X, "use": "sig", "alg": "EdDSA"},
    {"kty": "OKP", "crv": "Ed25519", "kid": "a", "x": X},
    {"kty": "OKP", "crv": "Ed25519", "x": X, "key_ops": ["verify"]},
    {"kty": "EC", "crv": "P-256", "kid": "e", "x": X, "y": X, "alg": "ES256"},
    {"kty": "EC", "crv": "P-384", "kid": "p384", "x": X, "y": X},
    {"kty": "RSA", "kid": "r", "n": b64url(b"\x00" + b"\xc5" * 256), "e": "AQAB"},
    {"kty": "oct", "kid": "h", "k": X},
    {"kty": "OKP", "crv": "Ed25519", "kid": "enc", "use": "enc", "x": X},
]})))
seed("auth", "fields-valid", auth(3, bytes([20, 0x10, 0x0e, 0]) + b"alice-or-bobskills:read"))
seed("auth", "fields-expired-mutated",
     auth(3, bytes([10, 0x00, 0xff, 1]) + b"subscope:aa" + bytes([1, 40, 65, 0, 200, 0, 2, 7, 46])))
seed("auth", "fields-truncated", auth(3, bytes([4, 0x10, 0x0e, 0]) + b"s sc" + bytes([0, 128, 0])))
seed("auth", "cache-events", auth(4, bytes([0, 0, 1, 2, 30, 2, 60, 5, 200, 3, 255, 12, 2, 8, 90, 14])))
seed("auth", "cache-failures", auth(4, bytes([0, 9, 70, 11, 250, 12, 250, 0, 5, 2, 64, 6])))
