//! MIME types by file extension (SEP-2640 §Resource Metadata: `text/markdown` for `SKILL.md`,
//! "the `mimeType` appropriate to their content" for other files).

/// The MIME type of directory resources.
pub(crate) const DIRECTORY: &str = "inode/directory";

/// The MIME type for a file name, by its extension (case-insensitive). Unknown extensions
/// get `text/plain` when the bytes are UTF-8 text and `application/octet-stream` otherwise.
pub(crate) fn mime_for(file_name: &str, is_text: bool) -> &'static str {
    let ext = match file_name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => String::new(),
    };
    let known = match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" | "text" => "text/plain",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "tsv" => "text/tab-separated-values",
        "xml" => "application/xml",
        "json" => "application/json",
        "jsonl" | "ndjson" => "application/x-ndjson",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" | "mts" | "cts" => "text/x-typescript",
        "py" => "text/x-python",
        "sh" | "bash" => "application/x-sh",
        "rb" => "text/x-ruby",
        "rs" => "text/x-rust",
        "go" => "text/x-go",
        "java" => "text/x-java",
        "c" | "h" => "text/x-c",
        "cpp" | "cc" | "hpp" => "text/x-c++",
        "sql" => "application/sql",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/vnd.microsoft.icon",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "tar" => "application/x-tar",
        "wasm" => "application/wasm",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "",
    };
    if !known.is_empty() {
        known
    } else if is_text {
        "text/plain"
    } else {
        "application/octet-stream"
    }
}

#[cfg(test)]
mod tests {
    use super::mime_for;

    #[test]
    fn by_extension_case_insensitive_then_by_content() {
        assert_eq!(mime_for("SKILL.md", true), "text/markdown");
        assert_eq!(mime_for("logo.PNG", false), "image/png");
        assert_eq!(mime_for("LICENSE", true), "text/plain");
    }
}
