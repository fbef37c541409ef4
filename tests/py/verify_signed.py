"""An independent check of signed skills, with a DSSE implementation this project did not write.

It reads a skills-edge server over HTTP the way any client would (MCP's Streamable HTTP at
`--mcp`, the Agent Skills Discovery mirror at `--origin`), and verifies every skill's DSSE
envelope with `securesystemslib` (PyPI, pinned in requirements.txt) against the public key
given with `--key` (the `signing.pub` JWK that `skills-edge keygen` wrote):

* the envelope's signature, by securesystemslib's `Envelope.verify` over DSSE's PAE;
* the payload: an in-toto v1 Statement whose `predicateType` is skills-edge's, whose
  predicate names the skill's URI and revision, and whose subjects are exactly the entry's
  files with their digests;
* the bytes: each file read with `resources/read` (and each mirror artifact fetched) hashes to
  the digest the statement signs;
* the mirror: every index entry names an envelope that verifies the same way, over the files
  of the artifact (SKILL.md, or the members of the `.tar.gz`), and `keys.json` holds the key.

Prints one line per skill and exits 0 when every check holds, 1 otherwise. Only the standard
library and securesystemslib are used; the JWK's thumbprint (RFC 7638) is computed here.
"""

import argparse
import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request

from securesystemslib.dsse import Envelope
from securesystemslib.signer import SSlibKey

STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
PREDICATE_TYPE = "https://github.com/skills-edge/skills-edge/blob/main/docs/signing.md#predicate-skill-v1"
DSSE_META = "io.github.skills-edge/dsse"
SIGNER_META = "io.github.skills-edge/signer"
REVISION_META = "io.github.skills-edge/revision"
LEGACY = "2025-11-25"


def b64url_decode(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def thumbprint(jwk):
    members = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(members.encode()).digest()).rstrip(b"=").decode()


def sslib_key(jwk):
    if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519" or "d" in jwk:
        raise SystemExit("--key must be an Ed25519 public JWK")
    raw = b64url_decode(jwk["x"])
    return SSlibKey(thumbprint(jwk), "ed25519", "ed25519", {"public": raw.hex()})


def http(url, body=None, headers=None):
    req = urllib.request.Request(url, data=body, headers=headers or {}, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(req, timeout=30) as res:
        return res.read()


class Mcp:
    def __init__(self, url):
        self.url = url
        self.next_id = 1

    def call(self, method, params):
        self.next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode()
        raw = http(self.url, body, {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": LEGACY,
        })
        text = raw.decode()
        if text.startswith("event:") or text.startswith("data:"):
            text = "".join(line[5:].strip() for line in text.splitlines() if line.startswith("data:"))
        reply = json.loads(text)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]


def verified_statement(envelope_json, key):
    """The statement an envelope signs, after securesystemslib verified the signature."""
    env = Envelope.from_dict(json.loads(json.dumps(envelope_json)))
    if env.payload_type != PAYLOAD_TYPE:
        raise ValueError(f"payloadType {env.payload_type!r}")
    env.verify([key], 1)  # raises on a bad or missing signature
    st = json.loads(env.payload)
    if st.get("_type") != STATEMENT_TYPE or st.get("predicateType") != PREDICATE_TYPE:
        raise ValueError("not a skills-edge in-toto v1 statement")
    return st


def check_mcp(mcp, key, expected_kid):
    failures = 0
    cursor = None
    entries = []
    while True:
        result = mcp.call("skills/list", {"cursor": cursor} if cursor else {})
        entries += result["skills"]
        cursor = result.get("nextCursor")
        if not cursor:
            break
    if not entries:
        print("mcp: no skills listed")
        return 1
    for entry in entries:
        try:
            meta = entry.get("_meta", {})
            if thumbprint(meta[SIGNER_META]) != expected_kid:
                raise ValueError("the signer in _meta is not --key")
            st = verified_statement(meta[DSSE_META], key)
            pred = st["predicate"]
            if pred["skill"] != entry["uri"] or pred["revision"] != meta.get(REVISION_META):
                raise ValueError("the predicate names another skill or revision")
            signed = {s["name"]: s["digest"]["sha256"] for s in st["subject"]}
            listed = {r["uri"]: r["digest"].removeprefix("sha256:") for r in entry["resources"]}
            if signed != listed:
                raise ValueError("the signed subjects are not the entry's files")
            for uri, digest in signed.items():
                read = mcp.call("resources/read", {"uri": uri})
                c = read["contents"][0]
                data = c["text"].encode() if "text" in c else base64.b64decode(c["blob"])
                if hashlib.sha256(data).hexdigest() != digest:
                    raise ValueError(f"{uri}: the bytes read do not hash to the signed digest")
            print(f"ok mcp {entry['uri']} ({len(signed)} files, catalog {pred['catalog']})")
        except Exception as e:  # every failure is reported, then counted
            failures += 1
            print(f"FAIL mcp {entry.get('uri')}: {e}")
    return failures


def check_mirror(origin, key, expected_kid):
    failures = 0
    index = json.loads(http(origin + "/.well-known/agent-skills/index.json"))
    keys = json.loads(http(origin + "/.well-known/agent-skills/keys.json"))
    if expected_kid not in [thumbprint(k) for k in keys.get("keys", [])]:
        print("FAIL mirror keys.json does not hold --key")
        failures += 1
    for item in index["skills"]:
        try:
            env = json.loads(http(origin + item["_meta"][DSSE_META]))
            st = verified_statement(env, key)
            pred = st["predicate"]
            if pred["revision"] != item["_meta"].get(REVISION_META):
                raise ValueError("the predicate names another revision")
            root = pred["skill"].rsplit("/", 1)[0] + "/"
            signed = {s["name"].removeprefix(root): s["digest"]["sha256"] for s in st["subject"]}
            artifact = http(origin + item["url"])
            if "sha256:" + hashlib.sha256(artifact).hexdigest() != item["digest"]:
                raise ValueError("the artifact does not hash to the index's digest")
            if item["type"] == "archive":
                with tarfile.open(fileobj=io.BytesIO(artifact), mode="r:gz") as tar:
                    files = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
            else:
                files = {"SKILL.md": artifact}
            got = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
            if item["type"] == "archive" and got != signed:
                raise ValueError("the archive's files are not the signed subjects")
            if item["type"] != "archive" and got["SKILL.md"] != signed.get("SKILL.md"):
                raise ValueError("SKILL.md does not hash to the signed digest")
            print(f"ok mirror {item['name']} ({len(signed)} files)")
        except Exception as e:
            failures += 1
            print(f"FAIL mirror {item.get('name')}: {e}")
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mcp", required=True, help="the server's MCP endpoint, e.g. http://127.0.0.1:8787/mcp")
    p.add_argument("--origin", help="the origin serving /.well-known/agent-skills/ (skipped if absent)")
    p.add_argument("--key", required=True, help="the signer's public JWK file (signing.pub)")
    a = p.parse_args()
    with open(a.key, encoding="utf-8") as f:
        jwk = json.load(f)
    key = sslib_key(jwk)
    failures = check_mcp(Mcp(a.mcp), key, thumbprint(jwk))
    if a.origin:
        failures += check_mirror(a.origin, key, thumbprint(jwk))
    print("all signatures verified" if failures == 0 else f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
