"""More cases of the archive corpus (make_corpus.py calls `cases(mc)` with its own module):
bytes that one reader takes from a header's padding, attributes or fields another ignores, and
deflate streams a windowed decoder reads where zlib refuses them. Each was read by the host
one way and extracted another way by at least one tool before the host refused it."""

import struct
import subprocess
import tempfile
import os
import zlib


def cases(mc):
    tar_cases(mc)
    zip_cases(mc)


def tar_cases(mc):
    add, SK, EV = mc.add, mc.SKILL, mc.EVIL
    ok = mc.entry(b"SKILL.md", SK)

    def t(*parts):
        return mc.tgz(*parts, mc.END)

    # A pax record hidden in the block padding after the declared size (tarfile reads it).
    for kind, rec, tag in ((b"x", mc.record(b"mtime", b"0"), "x"),
                           (b"g", mc.record(b"comment", b"abc"), "g")):
        blk = mc.pad(rec + mc.record(b"path", b"SKILL.md"))
        add("tar-pax-%s-record-in-padding" % tag, "tar.gz", t(ok, mc.header(b"PaxHeaders/x",
            kind, len(rec)) + blk, mc.entry(b"notes.md", EV)))
    # A GNU long name whose NUL lies in the padding (GNU tar and tarfile read on into it).
    add("tar-long-name-nul-in-padding", "tar.gz", t(ok, mc.header(b"././@LongLink", b"L", 5,
        magic=b"ustar  \x00") + mc.pad(b"SKILL.md"), mc.entry(b"x.md", EV)))
    # Old-style (type NUL) entries named like a directory, renamed: tarfile decides from the
    # header's own name and reads no data after a directory.
    hidden = mc.entry(b"SKILL.md", EV)
    add("tar-v7-slash-renamed-by-pax", "tar.gz", t(ok, mc.pax([(b"path", b"notes.md")]),
        mc.header(b"x/", b"\x00", len(hidden)) + hidden))
    add("tar-v7-slash-renamed-by-long-name", "tar.gz", t(ok, mc.longname(b"notes.md"),
        mc.header(b"x/", b"\x00", len(hidden)) + hidden))
    add("tar-v7-renamed-to-slash", "tar.gz", t(ok, mc.pax([(b"path", b"dir/")]),
        mc.header(b"x", b"\x00", 0)))
    add("tar-v7-empty-name-and-prefix", "tar.gz", t(ok, mc.header(b"", b"\x00", 0,
        prefix=b"dir")))
    # GNU fields after an empty prefix: bsdtar takes the "real size" at 483.
    for magic, tag in ((b"ustar  \x00", "gnu"), (b"ustar\x0000", "posix")):
        for real, rtag in ((b"00000000004\x00", "4"), (b"00000001000\x00", "512")):
            add("tar-realsize-%s-%s" % (tag, rtag), "tar.gz", t(mc.header(b"SKILL.md", b"0",
                len(SK), magic=magic, numbers={483: real}) + mc.pad(SK)))
    add("tar-gnu-times-after-empty-prefix", "tar.gz", t(mc.header(b"SKILL.md", b"0", len(SK),
        magic=b"ustar  \x00", numbers={346: b"1234567\x00", 357: b"1234567\x00"})
        + mc.pad(SK)))
    # A gzip header CRC that does not match (gzip refuses it).
    g = bytearray(t(ok))
    g[3] |= 2
    add("tar-gzip-bad-header-crc", "tar.gz", bytes(g[:10]) + b"\x12\x34" + bytes(g[10:]))
    good = bytes(g[:10]) + struct.pack("<H", zlib.crc32(bytes(g[:10])) & 0xFFFF) + bytes(g[10:])
    add("tar-gzip-header-crc", "tar.gz", good, "accept")
    # Pax numbers beyond what GNU tar and tarfile apply.
    add("tar-pax-mtime-huge", "tar.gz", t(mc.pax([(b"mtime", b"9" * 30)]), ok))
    add("tar-pax-uid-huge", "tar.gz", t(mc.pax([(b"uid", b"9" * 30)]), ok))
    add("tar-pax-mtime-large", "tar.gz", t(mc.pax([(b"mtime", b"8589934591.5"),
        (b"uid", b"4294967295")]), ok), "accept")
    # A deflate back-reference before the start of the output, in the gzip stream.
    raw = ok + mc.END
    add("tar-gzip-distance-too-far-back", "tar.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
        + tar_far_back(raw) + struct.pack("<II", zlib.crc32(raw), len(raw)))


class Bits:
    """A deflate bit stream: values least significant bit first, Huffman codes most first."""

    def __init__(self):
        self.bits = []

    def put(self, v, n):
        self.bits.extend((v >> i) & 1 for i in range(n))

    def huff(self, code, n):
        self.bits.extend((code >> i) & 1 for i in reversed(range(n)))

    def done(self):
        bits = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(sum(bits[i + j] << j for j in range(8)) for i in range(0, len(bits), 8))


def far_back():
    """A fixed-Huffman deflate stream: the literal `a`, then a copy of 3 bytes from 4 back."""
    b = Bits()
    b.put(1, 1)
    b.put(1, 2)
    b.huff(0x30 + ord("a"), 8)
    b.huff(1, 7)
    b.huff(3, 5)
    b.huff(0, 7)
    return b.done()


def tar_far_back(tar):
    """`tar` (whose first 100 bytes are the 8 of `SKILL.md` then NULs) deflated so that its
    NULs 8 to 100 are a copy from 100 bytes back, before the start of the output: a windowed
    decoder copies zeros, zlib refuses the stream. The rest is one stored block."""
    assert tar[:8] == b"SKILL.md" and tar[8:100] == bytes(92)
    b = Bits()
    b.put(0, 1)
    b.put(1, 2)
    for c in tar[:8]:
        b.huff(0x30 + c, 8)
    b.huff(278 - 256, 7)  # length code 278: 83 + 9 = 92
    b.put(9, 4)
    b.huff(13, 5)  # distance code 13: 97 + 3 = 100
    b.put(3, 5)
    b.huff(0, 7)
    b.put(1, 1)
    b.put(0, 2)
    rest = tar[100:]
    return b.done() + struct.pack("<HH", len(rest), len(rest) ^ 0xFFFF) + rest


def lhdr(name, crc, cs, us, method=8, flags=0, extra=b"", need=20):
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, need, flags, method, 0, 0x21, crc, cs, us,
                       len(name), len(extra)) + name + extra


def chdr(name, crc, cs, us, off, made_by=0x0314, external=0o100644 << 16, method=8, flags=0,
         extra=b"", comment=b"", need=20):
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, made_by, need, flags, method, 0, 0x21,
                       crc, cs, us, len(name), len(extra), len(comment), 0, 0, external,
                       off) + name + extra + comment


def eocd(n, cd_len, cd_at, comment_len=0):
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_len, cd_at, comment_len)


def zipit(members):
    """(name, data, body, fields) members; `fields` go to both headers but `made_by` and
    `external`, which only the central record has."""
    parts, cd = bytearray(), b""
    for name, data, body, kw in members:
        local = {k: kw[k] for k in ("method", "flags", "need", "extra") if k in kw}
        at = len(parts)
        parts += lhdr(name, zlib.crc32(data), len(body), len(data), **local) + body
        cd += chdr(name, zlib.crc32(data), len(body), len(data), at, **kw)
    return bytes(parts) + cd + eocd(len(members), len(cd), len(parts))


def zip_cases(mc):
    add, SK, EV = mc.add, mc.SKILL, mc.EVIL
    # An end record signature across the comment length ("PK") and the comment's first bytes:
    # a fake end record pointing into a real central entry's comment.
    body, evb = mc.deflate(SK), mc.deflate(EV)
    out = lhdr(b"SKILL.md", zlib.crc32(SK), len(body), len(SK)) + body
    cd_at = len(out)
    c_start = cd_at + 46 + 8
    fake_local = lhdr(b"SKILL.md", zlib.crc32(EV), len(evb), len(EV)) + evb
    f1_at = c_start + len(fake_local)
    end_at = f1_at + 46 + 8
    f1 = chdr(b"SKILL.md", zlib.crc32(EV), len(evb), len(EV), c_start)
    f1 = f1[:32] + struct.pack("<H", (end_at + 20) - (f1_at + 54)) + f1[34:]
    real_cd = chdr(b"SKILL.md", zlib.crc32(SK), len(body), len(SK), 0, comment=fake_local + f1)
    comment = b"\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 1, 1, (end_at + 20) - f1_at, f1_at, 0)
    comment += b"\0" * (0x4B50 - len(comment))
    add("zip-end-signature-across-comment-length", "zip", out + real_cd + eocd(1, len(real_cd),
        cd_at, 0x4B50) + comment)
    # A symbolic link's mode under systems besides Unix: VMS, Atari, BeOS, AtheOS.
    for host in (2, 5, 16, 30):
        add("zip-symlink-made-by-%d" % host, "zip", zipit([(b"SKILL.md", SK, SK, dict(method=0)),
            (b"notes.md", b"/etc/passwd", b"/etc/passwd", dict(method=0,
             made_by=(host << 8) | 20, external=0o120777 << 16))]))
    for need in (46, 63, 64):
        add("zip-version-needed-%d" % need, "zip", zipit([(b"SKILL.md", SK, body,
            dict(need=need))]))
    for flag in (0x10, 0x20, 0x40, 0x2000):
        add("zip-flag-%04x" % flag, "zip", zipit([(b"SKILL.md", SK, body, dict(flags=flag))]))
    add("zip-local-extra-cut-short", "zip", zipit([(b"SKILL.md", SK, body,
        dict(extra=b"\x0a\x00\x09"))]))
    add("zip-deflate-distance-too-far-back", "zip", zipit([(b"SKILL.md", SK, SK,
        dict(method=0)), (b"notes.md", b"a\0\0\0", far_back(), dict(method=8))]))
    # Zeros after the end record, as bsdtar pads a zip written to a pipe.
    plain = zipit([(b"SKILL.md", SK, body, {})])
    add("zip-zero-padding", "zip", plain + b"\0" * 4000, "accept")
    with_comment = plain[:-2] + struct.pack("<H", 3) + b"abc"
    add("zip-comment-then-zero-padding", "zip", with_comment + b"\0" * 100, "accept")
    add("zip-padding-not-zero", "zip", plain + b"\0" * 100 + b"x")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "SKILL.md"), "wb") as f:
            f.write(SK)
        os.utime(os.path.join(tmp, "SKILL.md"), (0, 0))
        piped = subprocess.run(["bsdtar", "--format", "zip", "-cf", "-", "SKILL.md"], cwd=tmp,
                               check=True, stdout=subprocess.PIPE).stdout
        add("zip-bsdtar-to-a-pipe", "zip", piped, "accept")
