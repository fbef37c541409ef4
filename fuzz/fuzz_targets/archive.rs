//! The host's archive readers (`skills_edge::host::archive`): what a well-known source sends a
//! host. Input: one byte choosing the reader (gzip+tar, tar alone, zip), then the archive.
//!
//! Properties: no panic; bounded memory (the inflated stream within `MAX_INFLATED_BYTES`, the
//! files within the skill limits); nothing unsafe is ever accepted (every path relative, no
//! `..`, no empty or dot segment, no backslash, every segment a publishable name, no path twice,
//! none both a file and a directory's prefix, a `SKILL.md` at the root); every accepted member
//! list round-trips: re-encoded as a tar (and gzip) and as a zip, it reads back the same; and
//! the members the host reports are the members a second, independent walk of the same bytes
//! finds (`walk_tar`: header after header, an `x` or `L` applying to the next entry, as tar
//! extracts; `walk_zip`: local header after local header from the first byte, as a streaming
//! unzip reads, ignoring the central directory).

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::host::archive::{gunzip, read_tar, read_zip, Member, MAX_INFLATED_BYTES};
use skills_edge::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use skills_edge::skill::uri::check_segment;
use skills_edge_fuzz::archive::{tar, zip};
use std::io::{Read, Write};

/// `name` without its leading `./` (the host drops it too).
fn plain(name: &str) -> String {
    let mut n = name;
    while let Some(rest) = n.strip_prefix("./") {
        n = rest;
    }
    n.to_owned()
}

/// The regular files of a tar, by a walk apart from the host's reader: every header in turn
/// until a zero block; a pax `x` header's `path` and `size` and a GNU `L` name apply to the
/// next entry; a `g` header changes nothing; the ustar prefix joins the name.
fn walk_tar(t: &[u8]) -> Vec<Member> {
    let mut out = Vec::new();
    let mut at = 0;
    let (mut path, mut size): (Option<String>, Option<u64>) = (None, None);
    while let Some(h) = t.get(at..at + 512) {
        if h.iter().all(|&b| b == 0) {
            break;
        }
        let text = |from: usize, len: usize| {
            let f = &h[from..from + len];
            let end = f.iter().position(|&b| b == 0).unwrap_or(len);
            String::from_utf8_lossy(&f[..end]).into_owned()
        };
        let kind = h[156];
        let own = u64::from_str_radix(text(124, 12).trim(), 8).expect("an octal size");
        let len = if matches!(kind, b'x' | b'g' | b'L') {
            own
        } else {
            size.take().unwrap_or(own)
        };
        let data = &t[at + 512..at + 512 + len as usize];
        match kind {
            b'x' => {
                let mut rest = data;
                while !rest.is_empty() {
                    let sp = rest.iter().position(|&b| b == b' ').unwrap();
                    let n: usize = std::str::from_utf8(&rest[..sp]).unwrap().parse().unwrap();
                    let kv = std::str::from_utf8(&rest[sp + 1..n - 1]).unwrap_or("");
                    match kv.split_once('=') {
                        Some(("path", v)) => path = Some(v.to_owned()),
                        Some(("size", v)) => size = Some(v.parse().unwrap()),
                        _ => {}
                    }
                    rest = &rest[n..];
                }
            }
            b'L' => {
                let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
                path = Some(String::from_utf8_lossy(&data[..end]).into_owned());
            }
            b'g' => {}
            _ => {
                let name = path.take().unwrap_or_else(|| match text(345, 155) {
                    p if p.is_empty() => text(0, 100),
                    p => format!("{p}/{}", text(0, 100)),
                });
                if matches!(kind, b'0' | 0 | b'7') && !name.ends_with('/') {
                    out.push(Member {
                        path: plain(&name),
                        bytes: data.to_vec(),
                    });
                }
            }
        }
        at += 512 + (len as usize).div_ceil(512) * 512;
    }
    out
}

/// The files of a zip as a streaming reader finds them: local header after local header from
/// offset 0, each member's end found from its own bytes (the end of its deflate stream, or of
/// its stored size; with a data descriptor, the descriptor's signature), never from the
/// central directory.
fn walk_zip(z: &[u8]) -> Vec<Member> {
    let mut out = Vec::new();
    let mut at = 0;
    while z.get(at..at + 4) == Some(&b"PK\x03\x04"[..]) {
        let n16 = |o: usize| usize::from(u16::from_le_bytes([z[at + o], z[at + o + 1]]));
        let csize = u32::from_le_bytes(z[at + 18..at + 22].try_into().unwrap()) as usize;
        let (flags, method, n, x) = (n16(6), n16(8), n16(26), n16(28));
        let name = String::from_utf8_lossy(&z[at + 30..at + 30 + n]).into_owned();
        let start = at + 30 + n + x;
        let (bytes, used) = if method == 8 {
            let mut d = flate2::read::DeflateDecoder::new(&z[start..]);
            let mut v = Vec::new();
            d.read_to_end(&mut v).expect("a deflate stream");
            (v, d.total_in() as usize)
        } else if flags & 8 != 0 {
            let end = start
                + z[start..]
                    .windows(4)
                    .position(|w| w == b"PK\x07\x08")
                    .expect("a data descriptor");
            (z[start..end].to_vec(), end - start)
        } else {
            (z[start..start + csize].to_vec(), csize)
        };
        at = start + used;
        if flags & 8 != 0 {
            at += if z.get(at..at + 4) == Some(&b"PK\x07\x08"[..]) {
                16
            } else {
                12
            };
        }
        if !name.ends_with('/') {
            out.push(Member {
                path: plain(&name),
                bytes,
            });
        }
    }
    out
}

fn safe(members: &[Member]) {
    assert!(
        members.len() <= MAX_FILES_PER_SKILL,
        "more than 512 files accepted"
    );
    let total: u64 = members.iter().map(|m| m.bytes.len() as u64).sum();
    assert!(total <= MAX_BYTES_PER_SKILL, "more than 16 MiB accepted");
    assert!(
        members.iter().any(|m| m.path == "SKILL.md"),
        "no SKILL.md at the root"
    );
    let mut paths: Vec<&str> = members.iter().map(|m| m.path.as_str()).collect();
    for p in &paths {
        assert!(
            !p.starts_with('/') && !p.contains('\\'),
            "unsafe path {p:?} accepted"
        );
        assert!(
            p.split('/').all(|s| check_segment(s).is_ok()),
            "bad segment in {p:?} accepted"
        );
    }
    paths.sort_unstable();
    for w in paths.windows(2) {
        assert_ne!(w[0], w[1], "a path given twice was accepted");
        assert!(
            !w[1].starts_with(&format!("{}/", w[0])),
            "{} is a file and a directory",
            w[0]
        );
    }
}

fn round_trip(members: &[Member]) {
    let t = tar(members);
    assert_eq!(
        read_tar(&t, "re.tar").as_deref(),
        Ok(members),
        "tar round trip"
    );
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&t).unwrap();
    let gz = e.finish().unwrap();
    // A re-encoded archive may differ from the original in what its deflate stream holds; only
    // compare what comes back.
    if let Ok(back) = gunzip(&gz, "re.tar.gz") {
        assert_eq!(back, t, "gzip round trip");
    }
    assert_eq!(
        read_zip(&zip(members), "re.zip").as_deref(),
        Ok(members),
        "zip round trip"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, archive)) = data.split_first() else {
        return;
    };
    let (read, walked) = match which % 3 {
        0 => match gunzip(archive, "f.tar.gz") {
            Ok(t) => {
                assert!(
                    t.len() as u64 <= MAX_INFLATED_BYTES,
                    "inflated past the bound"
                );
                let read = read_tar(&t, "f.tar.gz");
                (read, t)
            }
            Err(e) => (Err(e), Vec::new()),
        },
        1 => (read_tar(archive, "f.tar"), archive.to_vec()),
        _ => (read_zip(archive, "f.zip"), Vec::new()),
    };
    match read {
        Ok(members) => {
            safe(&members);
            let second = if which % 3 == 2 {
                walk_zip(archive)
            } else {
                walk_tar(&walked)
            };
            assert_eq!(
                members, second,
                "a second walk of the bytes finds other members"
            );
            round_trip(&members);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
});
