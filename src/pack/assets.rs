//! Files a pack leaves out as assets, named by content, and the Workers limits they meet.

use super::Packed;
use crate::compile::Compiled;
use crate::skill::value::write_json_string;
use base64::Engine as _;

/// Which files a pack leaves out, as assets.
///
/// ```
/// use skills_edge::catalog::compile::{compile, SourceTree};
/// use skills_edge::catalog::pack::{encode_with, AssetPolicy, PackOptions, DEFAULT_INLINE_MAX};
/// use skills_edge::catalog::Catalog;
/// assert_eq!(AssetPolicy::default().inline_max, DEFAULT_INLINE_MAX);
/// let mut tree = SourceTree::default();
/// tree.add_file("hello/SKILL.md", "---\nname: hello\ndescription: Say hello.\n---\n");
/// tree.add_file("hello/big.txt", "x".repeat(100));
/// let compiled = compile(tree).unwrap();
/// let is_asset = |inline_max| {
///     let packed = encode_with(&compiled, &PackOptions { assets: Some(AssetPolicy { inline_max }), ..Default::default() });
///     Catalog::from_bytes(packed.pack).unwrap().file("skill://hello/big.txt").unwrap().bytes().is_none()
/// };
/// assert!(is_asset(99) && !is_asset(100), "only files over inline_max bytes leave the pack");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssetPolicy {
    /// Files larger than this many bytes are assets; smaller ones stay in the pack.
    pub inline_max: u64,
}

impl Default for AssetPolicy {
    /// Files above [`DEFAULT_INLINE_MAX`] are assets.
    fn default() -> Self {
        AssetPolicy {
            inline_max: DEFAULT_INLINE_MAX,
        }
    }
}

/// The default [`AssetPolicy::inline_max`]: files up to 8 KiB stay in the pack, larger ones
/// become assets (`skills-edge pack --assets DIR` without `--inline-max`).
///
/// Chosen from measurements (docs/performance.md has the figures and the commands). On
/// workerd, a read of a file kept in the pack costs less CPU than a read of the same file as
/// an asset up to about 64 KiB (an asset read pays for a subrequest to the
/// binding, whatever its size; a read from the pack copies, and escapes or base64-encodes,
/// bytes per request), so for CPU alone the limit would be higher. But every byte kept in
/// the pack is a byte of the Worker's upload (at most 64 MiB on every Workers plan, per
/// Cloudflare's limits page as read on 2026-12-06) and of the isolate's 128 MB of memory,
/// which the pack shares with everything else the Worker holds: a generated catalog shaped like a real one with a skill at the spec's
/// limits (512 files, 16 MiB) makes a pack of 0.59 MB gzip at 8 KiB and 1.06 MB at 16 KiB,
/// so 8 KiB is the largest power of two that keeps such a Worker under 1 MB. Most `SKILL.md`
/// files, the file every host reads first, are below it.
pub const DEFAULT_INLINE_MAX: u64 = 8 * 1024;

/// The largest file Workers Static Assets accept (25 MiB, per file).
pub const MAX_ASSET_BYTES: usize = 25 * 1024 * 1024;

/// Pack size above which the Worker's upload (the pack, the wasm, about 0.5 MB, and its glue)
/// may exceed the 64 MiB a Worker may be on every Workers plan.
pub const MAX_PACK_UPLOAD: usize = 63 * 1024 * 1024;

/// Most Static Assets files per Worker version on the Workers free plan.
pub const MAX_ASSETS_FREE: usize = 20_000;

/// Pack size above which the Worker's isolate may run out of its 128 MB of memory. The isolate
/// holds the pack twice, as the Data module the Worker imports and as its copy in wasm memory,
/// plus about 2–3 MB (measured on workerd by `benches/worker/scale.mjs`: 112.6 MB for a pack of
/// 54.9 MB), and each request buffers what it reads. Below [`MAX_PACK_UPLOAD`], so this is the
/// limit a growing pack meets first.
const MAX_PACK_MEMORY: usize = 60_000_000;

/// Checks a pack made for a Worker (with assets) against the Workers limits: an asset larger
/// than [`MAX_ASSET_BYTES`] is an error naming the file and the fix (the deployment would be
/// refused); a pack above [`MAX_PACK_UPLOAD`] or more than [`MAX_ASSETS_FREE`] assets are
/// warnings (the free plan may refuse it, a paid one takes it). Every command that writes a
/// Worker's pack (`skills-edge pack --assets`, the npm `skills-edge worker`) reports these.
pub fn workers_limits(c: &Compiled, p: &Packed) -> Result<Vec<String>, String> {
    if let Some(big) = p.assets.iter().find(|x| x.bytes.len() > MAX_ASSET_BYTES) {
        let hex = big.name.strip_suffix(".json").unwrap_or(&big.name);
        let archive = c.skills.iter().find(|s| {
            s.archive
                .as_ref()
                .is_some_and(|a| raw_asset_name(&a.digest) == hex)
        });
        let uri = c
            .files
            .iter()
            .find(|f| raw_asset_name(&f.digest) == hex)
            .map(|f| f.uri.clone())
            .or_else(|| archive.map(|s| format!("the mirror's archive of {}", s.uri)))
            .unwrap_or_else(|| "a file".to_owned());
        return Err(format!(
            "error: the asset {} of {uri} is {} bytes; Workers Static Assets take files up to {MAX_ASSET_BYTES} bytes (25 MiB)\n  fix: split the file, or store it compressed (a text file with many control characters grows up to six times when escaped as JSON)",
            big.name,
            big.bytes.len()
        ));
    }
    let mut warnings = Vec::new();
    if p.pack.len() > MAX_PACK_UPLOAD {
        warnings.push(format!(
            "warning: the pack is {} bytes: with the Worker's wasm its upload may exceed the 64 MiB a Worker may be on every Workers plan (`npx wrangler deploy --dry-run` prints the upload's size)\n  fix: lower --inline-max (0 keeps every non-empty file out of the pack)",
            p.pack.len()
        ));
    }
    if p.pack.len() > MAX_PACK_MEMORY {
        warnings.push(format!(
            "warning: the pack is {} bytes: the Worker's isolate holds it twice (the bundled module and its copy in wasm memory), which may exceed the 128 MB of memory an isolate has on every Workers plan\n  fix: lower --inline-max (0 keeps every non-empty file out of the pack)",
            p.pack.len()
        ));
    }
    if p.assets.len() > MAX_ASSETS_FREE {
        warnings.push(format!(
            "warning: {} assets: a Worker version takes up to {MAX_ASSETS_FREE} Static Assets files on the Workers free plan (100000 on paid plans)\n  fix: raise --inline-max, or deploy on a paid plan",
            p.assets.len()
        ));
    }
    Ok(warnings)
}

/// The asset holding the raw bytes of the file with `digest` (`sha256:…`): its 64 hex digits.
pub fn raw_asset_name(digest: &str) -> &str {
    digest.strip_prefix("sha256:").unwrap_or(digest)
}

/// The asset holding the rendered JSON string (`"…"`, escaped text or base64) that a
/// `resources/read` result of the file with `digest` carries: `{hex}.json`.
pub fn rendered_asset_name(digest: &str) -> String {
    format!("{}.json", raw_asset_name(digest))
}

/// The JSON string a `resources/read` content item carries for `bytes`: the escaped text when
/// they are UTF-8 text served as `text`, else the base64 `blob`, quotes included.
pub fn rendered_content(bytes: &[u8], is_text: bool) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if is_text => {
            let mut out = String::with_capacity(text.len() + text.len() / 8 + 2);
            write_json_string(text, &mut out);
            out
        }
        _ => {
            let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4 + 2);
            out.push('"');
            base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut out);
            out.push('"');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{compile, SourceTree};

    fn compiled() -> Compiled {
        let mut t = SourceTree::default();
        t.add_file(
            "a/SKILL.md",
            "---\nname: a\ndescription: A skill.\n---\n# A\n".to_owned(),
        );
        compile(t).expect("compiles")
    }

    #[test]
    fn a_pack_past_the_upload_or_memory_limit_is_warned_of_and_one_below_is_not() {
        let c = compiled();
        let packed = |len: usize| Packed {
            pack: vec![0; len],
            assets: Vec::new(),
        };
        let over = workers_limits(&c, &packed(MAX_PACK_UPLOAD + 1)).expect("a warning only");
        assert!(
            over.len() == 2
                && over[0].contains("64 MiB")
                && over[1].contains("128 MB")
                && over.iter().all(|w| w.contains("--inline-max")),
            "{over:?}"
        );
        // Past what the isolate's memory holds twice, below the upload limit: memory only.
        let memory = workers_limits(&c, &packed(MAX_PACK_MEMORY + 1)).expect("a warning only");
        assert!(
            memory.len() == 1 && memory[0].contains("128 MB") && memory[0].contains("twice"),
            "{memory:?}"
        );
        assert!(workers_limits(&c, &packed(MAX_PACK_MEMORY))
            .expect("no error")
            .is_empty());
        // A pack of a few megabytes, past the old 3 MB compressed limit, deploys on every plan.
        assert!(workers_limits(&c, &packed(4_000_000))
            .expect("no error")
            .is_empty());
    }
}
