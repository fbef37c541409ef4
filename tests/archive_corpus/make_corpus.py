"""Writes the corpus of crafted archives of the archive differential test
(tests/archive_corpus.rs): usage `python3 make_corpus.py OUT_DIR`.

Each archive is built byte by byte (tar headers, pax records, GNU long names, zip local and
central headers, data descriptors), plus controls written by Python's own tarfile and zipfile,
GNU tar and bsdtar.
OUT_DIR/manifest.json lists them as {"file", "format" ("tar.gz" or "zip"), "expect"}:
"accept" for the well-formed controls (the host must read them, so the test is not
passed by refusing everything), "any" for the rest (the host may refuse it; if it reads it,
every extractor must write exactly the host's files). The crafted bytes depend on nothing but
this script (fixed names, contents and times, gzip with mtime 0); those GNU tar and bsdtar
write may differ in what no reader extracts (inode numbers), never in their members.
"""

import gzip
import io
import itertools
import json
import os
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib

SKILL = b"---\nname: a\ndescription: A.\n---\n\n# A\n"
EVIL = b"---\nname: a\ndescription: Evil.\n---\n\nexfiltrate\n"

# ---------------------------------------------------------------------------- tar, by hand


def header(name, kind=b"0", size=0, magic=b"ustar\x0000", prefix=b"", link=b"",
           mode=b"0000644\x00", numbers=None):
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = mode
    h[108:116] = b"0000000\x00"
    h[116:124] = b"0000000\x00"
    h[124:136] = b"%011o\x00" % size
    h[136:148] = b"00000000000\x00"
    h[156:157] = kind
    h[157:157 + len(link)] = link
    h[257:265] = magic
    h[345:345 + len(prefix)] = prefix
    for at, value in (numbers or {}).items():
        h[at:at + len(value)] = value
    h[148:156] = b" " * 8
    h[148:156] = b"%06o\x00 " % sum(h)
    return bytes(h)


def pad(data):
    return data + b"\x00" * (-len(data) % 512)


def entry(name, data=b"", kind=b"0", **k):
    return header(name, kind, len(data), **k) + pad(data)


def record(key, value):
    body = b" " + key + b"=" + value + b"\n"
    n = len(body) + 1
    while len(str(n).encode() + body) != n:
        n += 1
    return str(n).encode() + body


def pax(records, kind=b"x", raw=None):
    data = raw if raw is not None else b"".join(record(k, v) for k, v in records)
    return header(b"PaxHeaders/x", kind, len(data)) + pad(data)


def longname(name, kind=b"L"):
    data = name + b"\x00"
    return header(b"././@LongLink", kind, len(data), magic=b"ustar  \x00") + pad(data)


END = b"\x00" * 1024


def tgz(*parts):
    return gzip.compress(b"".join(parts), mtime=0)


# ---------------------------------------------------------------------------- zip, by hand


def deflate(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


class Z:
    """One zip member: the central record's fields, and what the local header and the data
    descriptor say (the central's unless overridden)."""

    def __init__(self, name, data=b"", method=8, mode=0o100644, flags=0, descriptor=None,
                 local=None, stored=None, extra=b"", dos=None):
        self.name = name
        self.data = data
        self.method = method
        self.mode = mode
        self.flags = flags
        self.body = stored if stored is not None else (deflate(data) if method == 8 else data)
        self.crc = zlib.crc32(data)
        self.csize = len(self.body)
        self.usize = len(data)
        self.local = local or {}
        self.descriptor = descriptor  # None, "sig" or "nosig"
        self.extra = extra
        self.dos = dos  # MS-DOS attributes, for an archive made on Windows

    def local_header(self):
        f = dict(name=self.name, method=self.method, flags=self.flags, crc=self.crc,
                 csize=self.csize, usize=self.usize)
        if self.flags & 8 and "crc" not in self.local:
            f.update(crc=0, csize=0, usize=0)
        f.update(self.local)
        return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, f["flags"], f["method"], 0, 0x21,
                           f["crc"], f["csize"], f["usize"], len(f["name"]),
                           len(self.extra)) + f["name"] + self.extra

    def tail(self):
        if not self.flags & 8:
            return b""
        d = struct.pack("<III", self.crc, self.csize, self.usize)
        return (struct.pack("<I", 0x08074B50) + d) if self.descriptor != "nosig" else d

    def central(self, offset):
        made_by, external = (0x0314, self.mode << 16) if self.dos is None else (0x0014, self.dos)
        return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, made_by, 20, self.flags,
                           self.method, 0, 0x21, self.crc, self.csize, self.usize,
                           len(self.name), len(self.extra), 0, 0, 0, external,
                           offset) + self.name + self.extra


def zipped(members, gaps=None, prefix=b"", cd_extra=b"", comment=b"", offsets=None,
           before_cd=b"", extra_central=()):
    """A zip of `members`; `gaps[i]` are bytes put before member i's local header, `offsets`
    overrides the offset a central record gives, `extra_central` adds central records."""
    out = bytearray(prefix)
    cds = []
    for i, m in enumerate(members):
        out += (gaps or {}).get(i, b"")
        at = len(out)
        out += m.local_header() + m.body + m.tail()
        cds.append(m.central((offsets or {}).get(i, at)))
    out += before_cd
    cd_at = len(out)
    cd = b"".join(cds) + b"".join(extra_central) + cd_extra
    out += cd
    n = len(members) + len(extra_central)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(cd), cd_at, len(comment))
    out += comment
    return bytes(out)


# ---------------------------------------------------------------------------- the corpus

corpus = []


def add(name, fmt, data, expect="any"):
    corpus.append((name, fmt, data, expect))


def tar_cases():
    ok = entry(b"SKILL.md", SKILL)
    add("tar-plain", "tar.gz", tgz(ok, entry(b"refs/a.md", b"a\n"), END), "accept")
    add("tar-dirs-and-dot", "tar.gz", tgz(entry(b"./", kind=b"5"), entry(b"./SKILL.md", SKILL),
        entry(b"./refs/", kind=b"5"), entry(b"./refs/a.md", b"a\n"), END), "accept")
    add("tar-v7-directory", "tar.gz", tgz(ok, entry(b"refs/", kind=b"\x00"),
        entry(b"refs/a.md", b"a"), END), "accept")
    long = b"d" * 120 + b"/x.md"
    add("tar-ustar-prefix", "tar.gz", tgz(ok, entry(b"x.md", b"p", prefix=b"d" * 120), END),
        "accept")
    add("tar-pax-path", "tar.gz", tgz(ok, pax([(b"path", long)]), entry(b"short", b"p"), END),
        "accept")
    add("tar-gnu-long-name", "tar.gz", tgz(ok, longname(long), entry(long[:100], b"p",
        magic=b"ustar  \x00"), END), "accept")
    add("tar-pax-inert", "tar.gz", tgz(pax([(b"mtime", b"1700000000.5"), (b"uname", b"u"),
        (b"SCHILY.xattr.user.x", b"\x01\x02")]), ok, END), "accept")
    add("tar-pax-size", "tar.gz", tgz(ok, pax([(b"size", b"3")]),
        header(b"big.md", size=0) + pad(b"big"), END), "accept")
    add("tar-global-comment", "tar.gz", tgz(pax([(b"comment", b"c0ffee")], kind=b"g"), ok, END),
        "accept")
    add("tar-global-then-pax", "tar.gz", tgz(pax([(b"comment", b"c")], kind=b"g"),
        pax([(b"path", b"SKILL.md")]), entry(b"x", SKILL), END), "accept")
    for fmt, tag in ((tarfile.USTAR_FORMAT, "ustar"), (tarfile.GNU_FORMAT, "gnu"),
                     (tarfile.PAX_FORMAT, "pax")):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
            for n, d in ((b"SKILL.md", SKILL), (b"refs/" + b"r" * 90 + b"/deep.md", b"deep\n")):
                if fmt == tarfile.USTAR_FORMAT and len(n) > 100 and b"/" not in n[-100:]:
                    continue
                i = tarfile.TarInfo(n.decode())
                i.size, i.mtime = len(d), 0
                t.addfile(i, io.BytesIO(d))
        add("tar-python-" + tag, "tar.gz", gzip.compress(buf.getvalue(), mtime=0), "accept")

    # The archive: a benign SKILL.md, a pax path=SKILL.md, a GNU long name notes.md,
    # then a member with other text. GNU tar writes the other text over SKILL.md.
    add("tar-issue-pax-path-then-long-name", "tar.gz", tgz(ok, pax([(b"path", b"SKILL.md")]),
        longname(b"notes.md"), entry(b"other.md", EVIL), END))
    # The size variant: the pax size also swallows whatever the next extended header is.
    hidden = entry(b"SKILL.md", EVIL)
    add("tar-issue-pax-size-then-long-name", "tar.gz", tgz(ok, pax([(b"size",
        str(len(hidden)).encode())]), longname(b"notes.md"), header(b"n.md", size=0) + hidden,
        END))

    # Every ordered pair (and a few triples) of extended headers before one entry.
    ext = {
        "x-path": pax([(b"path", b"SKILL.md")]),
        "x-path2": pax([(b"path", b"two.md")]),
        "x-size": pax([(b"size", b"5")]),
        "x-inert": pax([(b"mtime", b"1")]),
        "L": longname(b"notes.md"),
        "L2": longname(b"SKILL.md"),
        "g-comment": pax([(b"comment", b"c")], kind=b"g"),
        "g-path": pax([(b"path", b"SKILL.md")], kind=b"g"),
        "g-size": pax([(b"size", b"5")], kind=b"g"),
        "K": longname(b"SKILL.md", kind=b"K"),
    }
    target = entry(b"other.md", b"EVIL!")
    keys = sorted(ext)
    for k in keys:
        add("tar-ext-" + k, "tar.gz", tgz(entry(b"SKILL.md", SKILL), ext[k], target, END))
    for a, b in itertools.permutations(keys, 2):
        add("tar-ext-%s-%s" % (a, b), "tar.gz", tgz(entry(b"SKILL.md", SKILL), ext[a], ext[b],
            target, END))
    for a, b, c in (("x-path", "L", "x-size"), ("L", "x-size", "x-path"),
                    ("g-comment", "x-path", "L"), ("x-inert", "g-comment", "L")):
        add("tar-ext-%s-%s-%s" % (a, b, c), "tar.gz", tgz(entry(b"SKILL.md", SKILL), ext[a],
            ext[b], ext[c], target, END))
    # Extended headers before entries that are not files.
    for k in ("x-path", "L", "x-size"):
        for kind, tag in ((b"5", "dir"), (b"2", "symlink"), (b"1", "hardlink")):
            add("tar-ext-%s-before-%s" % (k, tag), "tar.gz", tgz(ok, ext[k],
                entry(b"thing", kind=kind, link=b"SKILL.md"), END))
        add("tar-ext-%s-at-end" % k, "tar.gz", tgz(ok, ext[k], END))

    # Size overrides: the pax size or header size covering another header.
    smuggled = entry(b"SKILL.md", EVIL)
    add("tar-pax-size-swallows-a-header", "tar.gz", tgz(entry(b"notes.md", b"n"),
        pax([(b"size", str(512 + len(pad(EVIL))).encode())]), header(b"SKILL.md", size=0)
        + smuggled, END))
    add("tar-pax-size-shorter-than-header", "tar.gz", tgz(pax([(b"size", b"0")]),
        header(b"notes.md", size=512 + len(pad(SKILL))) + smuggled.replace(EVIL, SKILL), END))
    add("tar-directory-with-data", "tar.gz", tgz(ok, header(b"refs/", b"5", len(smuggled))
        + smuggled, END))
    add("tar-v7-directory-with-data", "tar.gz", tgz(ok, header(b"refs/", b"\x00",
        len(smuggled)) + smuggled, END))
    add("tar-pax-size-plus", "tar.gz", tgz(ok, pax([(b"size", b"+5")]),
        header(b"n.md", size=0) + pad(b"EVIL!"), END))

    # Duplicate and case-colliding names.
    add("tar-duplicate", "tar.gz", tgz(ok, entry(b"SKILL.md", EVIL), END))
    add("tar-duplicate-dot", "tar.gz", tgz(ok, entry(b"./SKILL.md", EVIL), END))
    add("tar-case-collision", "tar.gz", tgz(ok, entry(b"skill.md", EVIL), END))
    add("tar-case-collision-dir", "tar.gz", tgz(ok, entry(b"refs/a.md", b"a"),
        entry(b"Refs/b.md", b"b"), END))
    add("tar-file-then-dir", "tar.gz", tgz(ok, entry(b"a", b"a"), entry(b"a/b", b"b"), END))
    add("tar-dir-then-file", "tar.gz", tgz(ok, entry(b"a/", kind=b"5"), entry(b"a", b"a"), END))
    add("tar-dir-twice", "tar.gz", tgz(ok, entry(b"a/", kind=b"5"), entry(b"a/", kind=b"5"),
        entry(b"a/x", b"x"), END), "accept")

    # Links.
    add("tar-symlink", "tar.gz", tgz(entry(b"real.md", SKILL), entry(b"SKILL.md", kind=b"2",
        link=b"real.md"), END))
    add("tar-hardlink", "tar.gz", tgz(entry(b"real.md", SKILL), entry(b"SKILL.md", kind=b"1",
        link=b"real.md"), END))
    add("tar-symlink-out", "tar.gz", tgz(ok, entry(b"x", kind=b"2", link=b"/etc/passwd"), END))

    # Trailing and interleaved bytes.
    add("tar-after-end", "tar.gz", tgz(ok, END, entry(b"late.md", b"late")))
    add("tar-one-zero-block-then-member", "tar.gz", tgz(ok, b"\x00" * 512,
        entry(b"late.md", b"late"), END))
    add("tar-garbage-block-between", "tar.gz", tgz(ok, b"\x01" * 512, entry(b"b.md", b"b"), END))
    add("tar-no-end", "tar.gz", tgz(ok))
    add("tar-gzip-two-members", "tar.gz", tgz(ok, END) + tgz(entry(b"late.md", b"late"), END))
    add("tar-gzip-trailing-garbage", "tar.gz", tgz(ok, END) + b"garbage")

    # Header fields that readers parse differently.
    add("tar-prefix-under-gnu-magic", "tar.gz", tgz(ok, entry(b"x.md", b"p",
        magic=b"ustar  \x00", prefix=b"refs"), END))
    add("tar-prefix-under-v7", "tar.gz", tgz(ok, entry(b"x.md", b"p", magic=b"\x00" * 8,
        prefix=b"refs"), END))
    add("tar-prefix-star-padding", "tar.gz", tgz(ok, entry(b"x.md", b"p", prefix=b"refs",
        numbers={476: b"00000000000 ", 488: b"00000000000 "}), END))
    add("tar-pax-path-and-prefix", "tar.gz", tgz(ok, pax([(b"path", b"p.md")]),
        entry(b"x.md", b"p", prefix=b"refs"), END), "accept")
    add("tar-long-name-and-prefix", "tar.gz", tgz(ok, longname(b"p.md"),
        entry(b"x.md", b"p", prefix=b"refs"), END), "accept")
    add("tar-bad-mode", "tar.gz", tgz(ok, entry(b"b.md", b"b", mode=b"zzzzzzz\x00"),
        entry(b"c.md", b"c"), END))
    add("tar-base256-uid", "tar.gz", tgz(ok, entry(b"b.md", b"b",
        numbers={108: b"\x80\x00\x00\x00\x00\x00\x00\x01"}), END))
    add("tar-regular-with-slash", "tar.gz", tgz(ok, entry(b"b/", b"b"), END))
    add("tar-unknown-type", "tar.gz", tgz(ok, entry(b"b.md", b"b", kind=b"Z"), END))
    add("tar-sparse", "tar.gz", tgz(ok, entry(b"b.md", b"b", kind=b"S"), END))
    add("tar-name-with-nul", "tar.gz", tgz(ok, entry(b"b.md\x00hidden", b"b"), END), "accept")
    add("tar-long-name-with-nul", "tar.gz", tgz(ok, longname(b"b.md\x00SKILL.md"),
        entry(b"x", EVIL), END))
    no_nul = b"n" * 120 + b".md"
    add("tar-long-name-without-nul", "tar.gz", tgz(ok, header(b"././@LongLink", b"L",
        len(no_nul), magic=b"ustar  \x00") + pad(no_nul), entry(b"x", b"x"), END))

    # Pax records readers parse differently.
    add("tar-pax-duplicate-key", "tar.gz", tgz(ok, pax(None, raw=record(b"path", b"a.md")
        + record(b"path", b"b.md")), entry(b"x", b"x"), END))
    add("tar-pax-sparse-name", "tar.gz", tgz(ok, pax([(b"GNU.sparse.name", b"SKILL.md")]),
        entry(b"x.md", EVIL), END))
    add("tar-pax-linkpath", "tar.gz", tgz(ok, pax([(b"linkpath", b"SKILL.md")]),
        entry(b"x.md", b"x"), END))
    add("tar-pax-hdrcharset", "tar.gz", tgz(ok, pax([(b"hdrcharset", b"BINARY"),
        (b"path", b"x.md")]), entry(b"y", b"x"), END))
    add("tar-pax-empty-path", "tar.gz", tgz(ok, pax([(b"path", b"")]), entry(b"x.md", b"x"),
        END))
    add("tar-pax-trailing-junk", "tar.gz", tgz(ok, pax(None, raw=record(b"path", b"a.md")
        + b"\x00\x00junk"), entry(b"x", b"x"), END))
    add("tar-pax-plus-length", "tar.gz", tgz(ok, pax(None, raw=b"+" + record(b"path", b"a.md")),
        entry(b"x", b"x"), END))
    add("tar-pax-path-with-nul", "tar.gz", tgz(ok, pax([(b"path", b"a.md\x00b.md")]),
        entry(b"x", b"x"), END))
    add("tar-pax-path-trailing-slash", "tar.gz", tgz(ok, pax([(b"path", b"a/")]),
        entry(b"x", b"x"), END))


def zip_cases():
    s = lambda **k: Z(b"SKILL.md", SKILL, **k)
    add("zip-plain", "zip", zipped([s(), Z(b"refs/a.md", b"a\n", method=0)]), "accept")
    add("zip-dirs", "zip", zipped([Z(b"refs/", mode=0o040755, method=0), s(),
        Z(b"refs/a.md", b"a")]), "accept")
    add("zip-descriptor", "zip", zipped([s(flags=8, descriptor="sig"), Z(b"b.md", b"b" * 50,
        flags=8, descriptor="nosig")]), "accept")
    add("zip-comment", "zip", zipped([s()], comment=b"0123456789abcdef0123456789abcdef01234567"),
        "accept")
    for comp, tag in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", comp) as z:
            for n, d in (("refs/", b""), ("SKILL.md", SKILL), ("refs/a.md", b"a\n" * 40)):
                i = zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0))
                i.external_attr = (0o40755 if n.endswith("/") else 0o100644) << 16
                z.writestr(i, d, comp)
        add("zip-python-" + tag, "zip", buf.getvalue(), "accept")

    class Unseekable(io.RawIOBase):
        def __init__(self):
            self.out = bytearray()

        def writable(self):
            return True

        def write(self, b):
            self.out += b
            return len(b)

    for comp, tag in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflated")):
        u = Unseekable()
        with zipfile.ZipFile(u, "w") as z:
            for n, d in (("SKILL.md", SKILL), ("refs/a.md", b"a\n" * 40)):
                i = zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0))
                i.external_attr = 0o100644 << 16
                i.compress_type = comp
                z.writestr(i, d)
        add("zip-python-streamed-" + tag, "zip", bytes(u.out), "accept")

    # Local header and central record disagree.
    for field, value in (("name", b"SKILL.MD"), ("method", 0), ("crc", 1), ("csize", 5),
                         ("usize", 7), ("flags", 2)):
        add("zip-local-" + field, "zip", zipped([s(local={field: value})]))
    add("zip-local-name-other-file", "zip", zipped([Z(b"SKILL.md", SKILL, local={"name":
        b"notes.md"}), Z(b"notes.md", b"n")]))
    bad = s(flags=8, descriptor="sig")
    bad.tail = lambda: struct.pack("<IIII", 0x08074B50, 1, 2, 3)
    add("zip-descriptor-wrong", "zip", zipped([bad]))
    add("zip-stored-with-descriptor", "zip", zipped([s(method=0, flags=8, descriptor="sig")]),
        "accept")
    add("zip-stored-with-unsigned-descriptor", "zip", zipped([s(method=0, flags=8,
        descriptor="nosig")]))
    inner = Z(b"SKILL.md", EVIL)
    fake = SKILL + struct.pack("<IIII", 0x08074B50, zlib.crc32(SKILL), len(SKILL), len(SKILL))
    fake += inner.local_header() + inner.body
    add("zip-stored-descriptor-signature-in-data", "zip", zipped([Z(b"notes.md", fake,
        method=0, flags=8, descriptor="sig")]))

    # Bytes that belong to no listed member.
    hidden = Z(b"SKILL.md", EVIL)
    hidden_bytes = hidden.local_header() + hidden.body
    add("zip-prepended", "zip", zipped([s()], prefix=b"MZ" + b"\x00" * 62))
    add("zip-gap-between", "zip", zipped([Z(b"a.md", b"a"), s()], gaps={1: b"\x00" * 16}))
    add("zip-hidden-member-between", "zip", zipped([Z(b"notes.md", b"n"), Z(b"x.md", b"x")],
        gaps={1: hidden_bytes}))
    add("zip-hidden-member-before-cd", "zip", zipped([s()], before_cd=Z(b"evil.md",
        EVIL).local_header() + Z(b"evil.md", EVIL).body))
    slack = s(stored=deflate(SKILL) + hidden_bytes)
    slack.csize = len(slack.body)
    add("zip-deflate-slack", "zip", zipped([slack]))
    add("zip-after-end", "zip", zipped([s()]) + b"trailing")
    add("zip-cd-slack", "zip", zipped([s()], cd_extra=b"\x00" * 10))
    fake_end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0, 0, 0, 0, 0)
    add("zip-comment-with-end", "zip", zipped([s()], comment=fake_end))
    add("zip-comment-with-end-not-at-end", "zip", zipped([s()], comment=fake_end + b"xx"))
    locator = struct.pack("<IIQI", 0x07064B50, 0, 0, 1)
    add("zip-zip64-locator", "zip", _with_locator(s(), locator))

    # Duplicates and case collisions.
    add("zip-duplicate", "zip", zipped([s(), Z(b"SKILL.md", EVIL)]))
    add("zip-duplicate-dot", "zip", zipped([s(), Z(b"./SKILL.md", EVIL)]))
    add("zip-case-collision", "zip", zipped([s(), Z(b"skill.md", EVIL)]))
    add("zip-case-collision-dir", "zip", zipped([s(), Z(b"refs/a.md", b"a"),
        Z(b"REFS/b.md", b"b")]))
    add("zip-file-and-dir", "zip", zipped([s(), Z(b"a", b"a"), Z(b"a/b", b"b")]))
    # Two central records for one local header.
    one = s()
    twice = zipped([one], extra_central=[Z(b"SKILL.md", SKILL).central(0)])
    add("zip-one-local-two-records", "zip", twice)
    add("zip-overlap-other-name", "zip", zipped([s(), Z(b"b.md", b"b")], offsets={1: 0}))

    # Links and types.
    add("zip-symlink", "zip", zipped([Z(b"real.md", SKILL), Z(b"SKILL.md", b"real.md",
        method=0, mode=0o120777)]))
    add("zip-dir-attr-without-slash", "zip", zipped([s(), Z(b"refs", method=0,
        mode=0o040755)]))
    add("zip-made-on-windows", "zip", zipped([Z(b"SKILL.md", SKILL, dos=0x20),
        Z(b"refs/", method=0, dos=0x10), Z(b"refs/a.md", b"a", dos=0x20)]), "accept")
    add("zip-windows-dir-attr-without-slash", "zip", zipped([Z(b"SKILL.md", SKILL, dos=0x20),
        Z(b"refs", method=0, dos=0x10)]))
    add("zip-slash-name-regular-mode-with-data", "zip", zipped([s(), Z(b"refs/", b"x",
        method=0)]))
    add("zip-dir-with-data", "zip", zipped([s(), Z(b"refs/", b"x", method=0, mode=0o040755)]))
    unicode = b"\x01" + struct.pack("<I", zlib.crc32(b"notes.md")) + b"SKILL.md"
    up = struct.pack("<HH", 0x7075, len(unicode)) + unicode
    add("zip-unicode-path", "zip", zipped([s(), Z(b"notes.md", EVIL, extra=up)]))
    add("zip-encrypted", "zip", zipped([s(flags=1)]))
    add("zip-backslash", "zip", zipped([s(), Z(b"refs\\a.md", b"a")]))


def tool_cases():
    """Archives of one small skill written by GNU tar (gnu, pax, ustar) and bsdtar (its default
    tar, pax, zip), every time field fixed."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.makedirs(os.path.join(src, "refs"))
        files = {"SKILL.md": SKILL, "refs/a.md": b"a\n" * 40, "refs/" + "l" * 120 + ".md": b"l"}
        for name, data in files.items():
            with open(os.path.join(src, name), "wb") as f:
                f.write(data)
        for d in (os.path.join(src, n) for n in list(files) + ["refs", "."]):
            os.utime(d, (0, 0))
        gnu = ["tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner"]
        pax = ["--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime"]
        runs = [
            ("tar-gnu-tar-gnu", gnu + ["--format=gnu", "-czf"], "."),
            ("tar-gnu-tar-pax", gnu + pax + ["--format=pax", "-czf"], "."),
            ("tar-gnu-tar-ustar", gnu + ["--format=ustar", "-czf"], "SKILL.md"),
            ("tar-bsdtar", ["bsdtar", "--uid", "0", "--gid", "0", "--options", "gzip:!timestamp",
                            "-czf"], "."),
            ("tar-bsdtar-pax", ["bsdtar", "--uid", "0", "--gid", "0", "--format", "pax",
                                "--options", "gzip:!timestamp", "-czf"], "."),
            ("zip-bsdtar", ["bsdtar", "--format", "zip", "-cf"], "."),
        ]
        for name, cmd, what in runs:
            fmt = "zip" if name.startswith("zip") else "tar.gz"
            out = os.path.join(tmp, name + "." + fmt)
            subprocess.run(cmd + [out, what], cwd=src, check=True)
            with open(out, "rb") as f:
                add(name, fmt, f.read(), "accept")


def _with_locator(member, locator):
    """A zip whose central directory ends with a zip64 end locator (in a file comment)."""
    out = bytearray()
    out += member.local_header() + member.body
    cd = member.central(0)
    # The locator as the central record's file comment, right before the end record.
    cd = cd[:32] + struct.pack("<H", len(locator)) + cd[34:] + locator
    cd_at = len(out)
    out += cd
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(cd), cd_at, 0)
    return bytes(out)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    tar_cases()
    zip_cases()
    tool_cases()
    import make_corpus_more
    make_corpus_more.cases(sys.modules[__name__])
    manifest = []
    names = set()
    for name, fmt, data, expect in corpus:
        assert name not in names, name
        names.add(name)
        file = name + "." + fmt
        with open(os.path.join(out, file), "wb") as f:
            f.write(data)
        manifest.append({"file": file, "format": fmt, "expect": expect})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
