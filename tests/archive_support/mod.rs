//! Archive writers of the host tests: hand-made tar headers, gzip and zip (stored or deflate),
//! so hostile archives can be built field by field.
#![allow(dead_code)]

use flate2::write::{DeflateEncoder, GzEncoder};
use flate2::Compression;
use std::io::Write;

/// One tar header block: ustar, mode 0644, the given type, size and link name.
pub fn header(name: &str, size: u64, kind: u8, link: &str) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..107].copy_from_slice(b"0000644");
    h[108..115].copy_from_slice(b"0000000");
    h[116..123].copy_from_slice(b"0000000");
    h[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
    h[136..147].copy_from_slice(b"00000000000");
    h[156] = kind;
    h[157..157 + link.len()].copy_from_slice(link.as_bytes());
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    fix_checksum(&mut h);
    h
}

pub fn fix_checksum(h: &mut [u8]) {
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
}

/// A tar of `(name, type, data)` entries with the end-of-archive blocks.
pub fn tar(entries: &[(&str, u8, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, kind, data) in entries {
        out.extend(header(name, data.len() as u64, *kind, ""));
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend([0u8; 1024]);
    out
}

/// One pax record, `<len> <key>=<value>\n`, its length counting itself.
pub fn pax_record(key: &str, value: &str) -> Vec<u8> {
    let body = format!(" {key}={value}\n");
    let mut len = body.len() + 1;
    while format!("{len}{body}").len() != len {
        len += 1;
    }
    format!("{len}{body}").into_bytes()
}

pub fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

pub fn crc(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// A zip of `(name, unix mode, data, deflate)` entries, made by a Unix host.
pub fn zip(entries: &[(&str, u32, &[u8], bool)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, mode, data, deflate) in entries {
        let stored = if *deflate {
            let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        } else {
            data.to_vec()
        };
        let offset = out.len() as u32;
        let method: u16 = if *deflate { 8 } else { 0 };
        let common = |v: &mut Vec<u8>| {
            v.extend(20u16.to_le_bytes());
            v.extend(0u16.to_le_bytes());
            v.extend(method.to_le_bytes());
            v.extend([0u8; 4]);
            v.extend(crc(data).to_le_bytes());
            v.extend((stored.len() as u32).to_le_bytes());
            v.extend((data.len() as u32).to_le_bytes());
            v.extend((name.len() as u16).to_le_bytes());
            v.extend(0u16.to_le_bytes());
        };
        out.extend(0x0403_4b50u32.to_le_bytes());
        common(&mut out);
        out.extend(name.as_bytes());
        out.extend(&stored);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend((3u16 << 8 | 20).to_le_bytes());
        common(&mut central);
        central.extend([0u8; 6]);
        central.extend((mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A zip member for [`zip_raw`]: the fields of its central record, which its local header
/// copies before `local_patch` (offset in the local header, bytes) changes it; `body` is what
/// follows the local header (the data, and a data descriptor or hidden bytes if a test adds
/// them), `before` what precedes it.
pub struct RawMember {
    pub name: Vec<u8>,
    pub method: u16,
    pub flags: u16,
    pub crc: u32,
    pub csize: u32,
    pub size: u32,
    pub mode: u32,
    pub body: Vec<u8>,
    pub local_patch: Vec<(usize, Vec<u8>)>,
    pub before: Vec<u8>,
}

impl RawMember {
    /// A regular file, deflated or stored.
    pub fn new(name: &str, data: &[u8], deflate: bool) -> RawMember {
        let body = if deflate {
            let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        } else {
            data.to_vec()
        };
        RawMember {
            name: name.as_bytes().to_vec(),
            method: if deflate { 8 } else { 0 },
            flags: 0,
            crc: crc(data),
            csize: body.len() as u32,
            size: data.len() as u32,
            mode: 0o100644,
            body,
            local_patch: Vec::new(),
            before: Vec::new(),
        }
    }

    /// Its local header and what follows.
    pub fn local(&self) -> Vec<u8> {
        let mut h = 0x0403_4b50u32.to_le_bytes().to_vec();
        h.extend(20u16.to_le_bytes());
        h.extend(self.flags.to_le_bytes());
        h.extend(self.method.to_le_bytes());
        h.extend([0u8; 4]);
        h.extend(self.crc.to_le_bytes());
        h.extend(self.csize.to_le_bytes());
        h.extend(self.size.to_le_bytes());
        h.extend((self.name.len() as u16).to_le_bytes());
        h.extend(0u16.to_le_bytes());
        h.extend(&self.name);
        for (at, bytes) in &self.local_patch {
            h[*at..*at + bytes.len()].copy_from_slice(bytes);
        }
        h.extend(&self.body);
        h
    }
}

/// A zip of `members` (made by a Unix host) with an archive comment.
pub fn zip_raw(members: &[RawMember], comment: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for m in members {
        out.extend(&m.before);
        let offset = out.len() as u32;
        out.extend(m.local());
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend((3u16 << 8 | 20).to_le_bytes());
        central.extend(20u16.to_le_bytes());
        central.extend(m.flags.to_le_bytes());
        central.extend(m.method.to_le_bytes());
        central.extend([0u8; 4]);
        central.extend(m.crc.to_le_bytes());
        central.extend(m.csize.to_le_bytes());
        central.extend(m.size.to_le_bytes());
        central.extend((m.name.len() as u16).to_le_bytes());
        central.extend([0u8; 8]);
        central.extend((m.mode << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(&m.name);
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend((comment.len() as u16).to_le_bytes());
    out.extend(comment);
    out
}
