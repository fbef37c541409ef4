//! A minimal archive writer for the `archive` target's round trip: members re-encoded as a
//! ustar (a pax `path` record for names longer than 100 bytes) and as a stored zip, so what the
//! readers accepted can be read again and compared.

use skills_edge::host::archive::Member;

fn octal(out: &mut [u8], n: u64) {
    let s = format!("{n:0w$o}", w = out.len() - 1);
    out[..s.len()].copy_from_slice(s.as_bytes());
}

fn header(name: &[u8], size: u64, kind: u8) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    let n = name.len().min(100);
    h[..n].copy_from_slice(&name[..n]);
    octal(&mut h[100..108], 0o644);
    octal(&mut h[108..116], 0);
    octal(&mut h[116..124], 0);
    octal(&mut h[124..136], size);
    octal(&mut h[136..148], 0);
    h[156] = kind;
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u64 = h.iter().map(|&b| u64::from(b)).sum();
    octal(&mut h[148..155], sum);
    h
}

fn push_data(out: &mut Vec<u8>, data: &[u8]) {
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
}

/// The members as a tar stream.
pub fn tar(members: &[Member]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in members {
        let name = m.path.as_bytes();
        if name.len() > 100 {
            let body = format!(" path={}\n", m.path);
            let mut len = body.len() + 1;
            while format!("{len}{body}").len() != len {
                len += 1;
            }
            let record = format!("{len}{body}");
            out.extend(header(b"pax", record.len() as u64, b'x'));
            push_data(&mut out, record.as_bytes());
        }
        out.extend(header(name, m.bytes.len() as u64, b'0'));
        push_data(&mut out, &m.bytes);
    }
    out.extend([0u8; 1024]);
    out
}

fn crc(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// The members as a stored zip.
pub fn zip(members: &[Member]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for m in members {
        let offset = out.len() as u32;
        let common = |v: &mut Vec<u8>| {
            v.extend(20u16.to_le_bytes());
            v.extend([0u8; 8]);
            v.extend(crc(&m.bytes).to_le_bytes());
            v.extend((m.bytes.len() as u32).to_le_bytes());
            v.extend((m.bytes.len() as u32).to_le_bytes());
            v.extend((m.path.len() as u16).to_le_bytes());
            v.extend(0u16.to_le_bytes());
        };
        out.extend(0x0403_4b50u32.to_le_bytes());
        common(&mut out);
        out.extend(m.path.as_bytes());
        out.extend(&m.bytes);
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend((3u16 << 8 | 20).to_le_bytes());
        common(&mut central);
        central.extend([0u8; 6]);
        central.extend((0o100644u32 << 16).to_le_bytes());
        central.extend(offset.to_le_bytes());
        central.extend(m.path.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}
