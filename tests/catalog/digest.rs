//! SHA-256 digests in their wire form: the golden vectors of the spec notes, lengths around
//! the block boundaries, the streaming API against the one-shot one over random lengths and
//! random splits, and the strict parsing of `sha256:` + 64 lowercase hex.

use skills_edge::skill::digest::{digest_of, is_wire_digest, sha256, Sha256Stream};

/// The golden vectors of the spec notes (§1.9).
#[test]
fn golden_vectors() {
    let skill_md = "---\nname: code-review\ndescription: Review code using the team's checklist.\n---\n\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n";
    assert_eq!(skill_md.len(), 149);
    assert_eq!(
        digest_of(skill_md.as_bytes()),
        "sha256:d2489d6c182e8df9c178563ff9f2eac7998a0c1bb1278c52a7fd5306e4259160"
    );
    let checklist = "# Review checklist\n\nCheck correctness, tests, and compatibility.\n";
    assert_eq!(checklist.len(), 65);
    assert_eq!(
        digest_of(checklist.as_bytes()),
        "sha256:dbab2de7bf7db9cc95cb6ce681c3690b26184db39f75b958a0287ca6d9e24e20"
    );
    assert_eq!(
        digest_of(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        digest_of(b"a"),
        "sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    );
}

#[test]
fn wire_form_is_strict() {
    let d = digest_of(b"a");
    assert!(is_wire_digest(&d));
    assert!(!is_wire_digest(&d.to_uppercase()));
    assert!(!is_wire_digest(&d.replace("sha256:", "sha-256:")));
    assert!(!is_wire_digest(&d[..70]));
    assert!(!is_wire_digest(&format!("{d}0")));
    assert!(!is_wire_digest("sha256:é"));
}

/// `n` bytes `0, 1, …, 250, 0, 1, …` (byte `i` is `i % 251`).
fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

/// Lengths around the 64-byte block and the 56-byte padding boundary, and around 64 KiB (the
/// npm package's chunk), with digests from an independent implementation (Python's hashlib).
#[test]
fn block_boundaries() {
    let vectors = [
        (
            0,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ),
        (
            1,
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        ),
        (
            55,
            "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59",
        ),
        (
            56,
            "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562",
        ),
        (
            63,
            "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488",
        ),
        (
            64,
            "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108",
        ),
        (
            65,
            "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781",
        ),
        (
            119,
            "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6",
        ),
        (
            120,
            "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c",
        ),
        (
            127,
            "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976",
        ),
        (
            128,
            "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5",
        ),
        (
            129,
            "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135",
        ),
        (
            1000,
            "4e4c294b331f7a2099a379bec34b9f9fc03dc46ab465d998f4d683da53487e6d",
        ),
        (
            65535,
            "dda402a2c028f0cbbdbc5c6ebae965eed9c75f71236e7022b0386d3455d5ae2f",
        ),
        (
            65536,
            "4b640d85ab3ba30fd02c9fc9db4a8928f416322ad27022ea58a65aaee68a4df2",
        ),
        (
            65537,
            "237356e18b503616912abb8ffaed3a72591e397d4ac294c4637917d48a3f529d",
        ),
    ];
    for (n, hex) in vectors {
        let bytes = pattern(n);
        let expected = format!("sha256:{hex}");
        assert_eq!(digest_of(&bytes), expected, "{n} bytes, one shot");
        // Fed one byte at a time, and in two pieces split at every block-relevant offset.
        let mut s = Sha256Stream::new();
        for b in &bytes {
            s.update(std::slice::from_ref(b));
        }
        assert_eq!(s.len(), n as u64);
        assert_eq!(s.finish_wire(), expected, "{n} bytes, byte by byte");
        for cut in [0, 1, 55, 56, 63, 64, 65, n / 2, n] {
            let cut = cut.min(n);
            let (a, b) = bytes.split_at(cut);
            let mut s = Sha256Stream::new();
            s.update(a);
            s.update(b);
            assert_eq!(s.finish_wire(), expected, "{n} bytes split at {cut}");
        }
    }
}

/// xorshift64*: deterministic pseudo-random numbers for a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Property: for random contents of random lengths (up to 200 000 bytes, most of them short),
/// feeding the stream in random pieces (empty ones included) gives the one-shot digest, and
/// the one-shot digest is `sha2`'s own.
#[test]
fn streaming_equals_one_shot_over_random_lengths_and_splits() {
    use sha2::Digest as _;
    let mut rng = Rng(0x2640_2640_2640_2640);
    for case in 0..400 {
        let n = match case % 4 {
            0 => rng.below(130),
            1 => rng.below(1100),
            2 => rng.below(70_000),
            _ => rng.below(200_000),
        };
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        let one_shot = sha256(&bytes);
        let reference: [u8; 32] = sha2::Sha256::digest(&bytes).into();
        assert_eq!(one_shot, reference, "case {case}: {n} bytes");
        let mut s = Sha256Stream::new();
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            let piece = match rng.below(4) {
                0 => 0,
                1 => rng.below(64),
                2 => rng.below(4096),
                _ => rng.below(rest.len() + 1),
            };
            let (a, b) = rest.split_at(piece.min(rest.len()));
            s.update(a);
            rest = b;
        }
        assert_eq!(s.len(), n as u64);
        assert_eq!(
            s.clone().finish(),
            one_shot,
            "case {case}: {n} bytes in pieces"
        );
        assert_eq!(s.finish_wire(), digest_of(&bytes));
    }
    assert!(Sha256Stream::new().is_empty());
}
