//! The host's archive readers (`skills_edge::host::archive`): what a well-known source sends a
//! host. Input: one byte choosing the reader (gzip+tar, tar alone, zip), then the archive.
//!
//! Properties: no panic; bounded memory (the inflated stream within `MAX_INFLATED_BYTES`, the
//! files within the skill limits); nothing unsafe is ever accepted (every path relative, no
//! `..`, no empty or dot segment, no backslash, every segment a publishable name, no path twice,
//! none both a file and a directory's prefix, a `SKILL.md` at the root); every accepted member
//! list round-trips: re-encoded as a tar (and gzip) and as a zip, it reads back the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_edge::host::archive::{gunzip, read_tar, read_zip, Member, MAX_INFLATED_BYTES};
use skills_edge::skill::limits::{MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL};
use skills_edge::skill::uri::check_segment;
use skills_edge_fuzz::archive::{tar, zip};
use std::io::Write;

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
    // A re-encoded archive may pass the ratio bound where the original did not; only compare
    // what comes back.
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
    let read = match which % 3 {
        0 => gunzip(archive, "f.tar.gz").and_then(|t| {
            assert!(
                t.len() as u64 <= MAX_INFLATED_BYTES,
                "inflated past the bound"
            );
            read_tar(&t, "f.tar.gz")
        }),
        1 => read_tar(archive, "f.tar"),
        _ => read_zip(archive, "f.zip"),
    };
    match read {
        Ok(members) => {
            safe(&members);
            round_trip(&members);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
});
