//! The methods of the Skills extension and the resources they rest on: `skills/list`,
//! `skills/get`, `resources/list`, `resources/templates/list`, `resources/read` and
//! `resources/directory/read`, each assembled from fragments rendered at build time.

use super::paging::{pack_fault, ListKind, Part};
use super::{Rendered, Responder, Split};
use crate::access::Grant;
use crate::base64;
use crate::pack::rendered_asset_name;
use crate::protocol::envelope::raw_str;
use crate::protocol::{Params, RpcError};
use crate::skill::value::write_json_string;
use crate::view::Content;
use crate::view::FileView;
use std::borrow::Cow;

impl Responder {
    pub(super) fn skills_list(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<String, RpcError> {
        let c = &*self.catalog;
        self.skills_page_of(params, modern, ListKind::Skills, "skills", g, |i| {
            c.try_skill_at(i)
                .map_err(pack_fault)
                .transpose()
                .map(|s| s.map(|s| s.entry_json))
        })
    }

    pub(super) fn skills_get(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<String, RpcError> {
        let uri = required_uri(params)?;
        let c = &*self.catalog;
        let skill = self.visible_skill(&uri, g).and_then(|i| {
            c.try_skill_at(i)
                .map_err(pack_fault)?
                .ok_or_else(|| not_a_skill(&uri))
        })?;
        let mut b = Self::open(modern, skill.entry_json.len());
        b.push_str("\"skill\":");
        b.push_str(skill.entry_json);
        Ok(b)
    }

    pub(super) fn resources_list(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<String, RpcError> {
        let c = &*self.catalog;
        self.skills_page_of(params, modern, ListKind::Resources, "resources", g, |i| {
            c.try_skill_at(i).map_err(pack_fault).transpose().map(|s| {
                s.map(|s| Part {
                    piece: s.list_item_json,
                    what: "the resources/list item",
                    of: s.uri,
                })
            })
        })
    }

    pub(super) fn templates_list(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<String, RpcError> {
        // One template, so any cursor is one this server never issued.
        self.page(params, ListKind::Templates, 1, g)?;
        let mut b = Self::open(modern, 0);
        b.push_str(
            "\"resourceTemplates\":[{\"uriTemplate\":\"skill://{+path}\",\"name\":\"skill-file\",\
             \"title\":\"Skill file\",\"description\":\"Any file of a served skill, by its skill:// URI. \
             Each skill's entry (skills/list, skills/get) lists its files with their sha256 digests and sizes.\"}]",
        );
        Ok(b)
    }

    pub(super) fn resources_read(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        let uri = required_uri(params)?;
        let file = self.visible_file_or_error(&uri, g)?;
        let content = FileContent::of(&file);
        let mut b = Self::open(modern, 128);
        b.push_str("\"contents\":[{");
        content.push_resource_head(&file, &mut b);
        Ok(content.after(b).close("}]"))
    }

    pub(super) fn directory_read(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<String, RpcError> {
        let uri = required_uri(params)?;
        // Accept one trailing slash (open point A4); published URIs never have one.
        let key = match uri.strip_suffix('/') {
            Some(k) if !k.ends_with('/') => k,
            _ => uri.as_ref(),
        };
        let c = &*self.catalog;
        // A directory that holds only skills the grant does not see is answered as one that
        // does not exist.
        let Some(dir) = c.dir(key).filter(|d| g.sees(d.audience)) else {
            return Err(RpcError::NotADirectory {
                is_file: c.file_index(key).is_some_and(|i| c.file_visible(i, g)),
                uri: uri.into_owned(),
            });
        };
        let kind = ListKind::directory(dir.uri);
        let child = |i: usize| {
            dir.child(i).map(|piece| Part {
                piece,
                what: "a child",
                of: dir.uri,
            })
        };
        if !c.has_private() {
            return self.list_page(params, modern, kind, "resources", dir.len(), g, child);
        }
        // The children the grant sees: the cost is bounded by the directory's size (a
        // directory is one level of one skill, or a prefix of a few skills).
        let visible: Vec<usize> = (0..dir.len())
            .filter(|&i| dir.child_visible(i, g))
            .collect();
        self.list_page(params, modern, kind, "resources", visible.len(), g, |i| {
            visible.get(i).and_then(|&k| child(k))
        })
    }
}

impl Responder {
    /// The file at exactly `uri` that a caller with `g` sees: the one lookup of
    /// `resources/read` (and of every adapter that hands over a file's content without a
    /// reply). A file the grant does not see is `None`, as one that does not exist; a damaged
    /// record of the pack is the error that names it.
    pub(crate) fn visible_file_checked(
        &self,
        uri: &str,
        g: Grant,
    ) -> Result<Option<FileView<'_>>, RpcError> {
        let c = &*self.catalog;
        match c.file_index(uri).filter(|&i| c.file_visible(i, g)) {
            Some(i) => c.try_file_at(i).map_err(pack_fault),
            None => Ok(None),
        }
    }

    /// [`Responder::visible_file_checked`], a damaged record as no file.
    #[cfg(feature = "js")]
    pub(crate) fn visible_file(&self, uri: &str, g: Grant) -> Option<FileView<'_>> {
        self.visible_file_checked(uri, g).ok().flatten()
    }

    /// The index of the skill whose `SKILL.md` is `uri`, if the grant sees it; otherwise the
    /// error of a skill that does not exist (the same for both).
    pub(super) fn visible_skill(&self, uri: &str, g: Grant) -> Result<usize, RpcError> {
        let c = &*self.catalog;
        c.skill_index(uri)
            .filter(|&i| c.skill_visible(i, g))
            .ok_or_else(|| not_a_skill(uri))
    }

    /// The file at `uri`, if the grant sees it ([`Responder::visible_file_checked`]); otherwise the
    /// error of a file that does not exist (the same for both), with a hint when the URI is a
    /// directory the grant sees.
    pub(super) fn visible_file_or_error(
        &self,
        uri: &str,
        g: Grant,
    ) -> Result<FileView<'_>, RpcError> {
        let c = &*self.catalog;
        self.visible_file_checked(uri, g)?.ok_or_else(|| {
            let hint = c
                .dir(uri)
                .filter(|d| g.sees(d.audience))
                .map(|_| "it is a directory; list it with resources/directory/read");
            RpcError::ResourceNotFound {
                uri: uri.to_owned(),
                hint,
            }
        })
    }
}

fn not_a_skill(uri: &str) -> RpcError {
    RpcError::SkillNotFound {
        uri: uri.to_owned(),
    }
}

/// How a file's content goes out: the one decision of `resources/read`'s `text` or `blob`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Served<'a> {
    /// UTF-8 text, stored in the pack: sent as `text`.
    Text(&'a str),
    /// Other bytes, stored in the pack: sent as a base64 `blob`.
    Bytes(&'a [u8]),
    /// Stored outside the pack as an asset (a pack made with assets); `is_text` says whether
    /// it goes out as `text`.
    Asset {
        /// Whether the asset's content is sent as `text` (otherwise as `blob`).
        is_text: bool,
        /// The length of the rendered asset (the content's JSON string).
        rendered_len: u64,
    },
}

impl<'a> Served<'a> {
    /// How `file`'s content is served.
    pub(crate) fn of(file: &FileView<'a>) -> Served<'a> {
        match file.content {
            Content::Inline(bytes) => match file.text() {
                Some(text) => Served::Text(text),
                None => Served::Bytes(bytes),
            },
            Content::External { rendered_len } => Served::Asset {
                is_text: file.is_text,
                rendered_len,
            },
        }
    }
}

pub(super) fn required_uri<'a>(params: &Params<'a>) -> Result<Cow<'a, str>, RpcError> {
    match params.uri {
        None => Err(RpcError::InvalidParams("`uri` is required".into())),
        Some(raw) => {
            raw_str(raw).ok_or_else(|| RpcError::InvalidParams("`uri` must be a string".into()))
        }
    }
}

/// A file's content as a reply carries it: under `text` (UTF-8 text, escaped) or `blob`
/// (base64), inline or as the asset the catalog rendered at build time. `resources/read`, the
/// fallback's read tools and its prompts all write file contents through this, so a file reads
/// the same, byte for byte, whichever way it is asked for.
pub(super) struct FileContent<'a> {
    /// `text` or `blob`: the member the JSON string goes under.
    pub(super) key: &'static str,
    src: Src<'a>,
    uri: &'a str,
    digest: &'a str,
}

enum Src<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
    /// The asset `pack::rendered_content` made of the bytes, by the same rule: text for UTF-8
    /// text, base64 otherwise.
    Asset {
        rendered_len: u64,
    },
}

impl<'a> FileContent<'a> {
    /// Appends the members of a resource-contents object before its content:
    /// `"uri":…,"mimeType":…,"<text or blob>":` (the content follows, from [`Self::after`]).
    pub(super) fn push_resource_head(&self, file: &FileView<'_>, out: &mut String) {
        out.push_str("\"uri\":");
        write_json_string(file.uri, out);
        out.push_str(",\"mimeType\":");
        write_json_string(file.mime, out);
        out.push_str(",\"");
        out.push_str(self.key);
        out.push_str("\":");
    }

    /// The content of `file`.
    pub(super) fn of(file: &FileView<'a>) -> FileContent<'a> {
        let (key, src) = match Served::of(file) {
            Served::Text(text) => ("text", Src::Text(text)),
            Served::Bytes(bytes) => ("blob", Src::Bytes(bytes)),
            Served::Asset {
                is_text,
                rendered_len,
            } => (
                if is_text { "text" } else { "blob" },
                Src::Asset { rendered_len },
            ),
        };
        FileContent {
            key,
            src,
            uri: file.uri,
            digest: file.digest,
        }
    }

    /// Whether the content goes out as `text`.
    pub(super) fn is_text(&self) -> bool {
        self.key == "text"
    }

    /// `head` followed by the content's JSON string: a whole result, or a result split around
    /// the asset. What [`Rendered::close`] appends comes after the string.
    pub(super) fn after(self, mut head: String) -> Rendered {
        match self.src {
            Src::Text(text) => {
                head.reserve(rendered_len(text.len(), true));
                write_json_string(text, &mut head);
                Rendered::Whole(head)
            }
            Src::Bytes(bytes) => {
                head.reserve(rendered_len(bytes.len(), false));
                head.push('"');
                base64::encode_into(bytes, &mut head);
                head.push('"');
                Rendered::Whole(head)
            }
            Src::Asset { rendered_len } => Rendered::Split(Split {
                head,
                asset: rendered_asset_name(self.digest),
                len: rendered_len,
                uri: self.uri.to_owned(),
                tail: String::new(),
            }),
        }
    }
}

/// About how long the JSON string of `n` bytes of content is (for reserving the reply).
fn rendered_len(n: usize, is_text: bool) -> usize {
    if is_text {
        n + n / 8 + 2
    } else {
        n.div_ceil(3) * 4 + 2
    }
}
