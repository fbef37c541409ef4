//! The tools and prompts fallback: the catalog also offered as MCP tools (`list_skills`,
//! `read_skill`, `read_skill_resource`) and as one prompt per skill, for clients that do not
//! implement the Skills extension. Off unless [`super::Config::fallback`] turns it on; it is not
//! part of the extension (its working group specifies no fallback), and says so in every tool
//! description and in the instructions.
//!
//! Everything constant was rendered by the catalog compiler
//! ([`crate::compile::fallback`]): the tool definitions, the whole `list_skills`
//! result, the prompt list, each skill's `read_skill` metadata and prompt links. Per request
//! this module reads the small `arguments` object, looks names and URIs up in the catalog's
//! sorted tables, and writes file contents through the very code `resources/read` uses
//! ([`FileContent`]), splicing an asset where the catalog keeps one.
//!
//! Errors: an unknown tool or prompt, a `name` that is not a string and `arguments` that are not
//! an object are protocol errors (`-32602`); everything about a tool's arguments (missing, of the
//! wrong type, unknown, an unknown skill or file, an ambiguous name, a path leaving the skill) is
//! a tool result with `isError: true` whose text says what exists instead, so a model can
//! correct itself. A prompt takes no arguments; any given is `-32602`.

use super::arguments::{named, tool_args, READ_RESOURCE_ARGS, READ_SKILL_ARGS};
use super::methods::FileContent;
use super::paging::ListKind;
use super::search::{SEARCH_ARGS, SEARCH_TOOL_JSON, TOOL_SEARCH_SKILLS};
use super::{Rendered, Responder};
use crate::access::Grant;
use crate::compile::fallback::{TOOL_LIST_SKILLS, TOOL_READ_SKILL, TOOL_READ_SKILL_RESOURCE};
use crate::protocol::error::clip;
use crate::protocol::{Params, RpcError};
use crate::skill::uri::{SCHEME, SKILL_MD};
use crate::skill::value::write_json_string;
use crate::view::FallbackView;
use crate::view::FileView;
use crate::view::SkillFallback;
use serde_json::{Map, Value};

/// What exists, for `-32602` on an unknown tool.
const TOOLS_HINT: &str =
    "this server's tools are list_skills, read_skill, read_skill_resource and search_skills";
/// What exists, for `-32602` on an unknown tool, in a pack without a search index.
const TOOLS_HINT_NO_SEARCH: &str =
    "this server's tools are list_skills, read_skill and read_skill_resource";
/// What exists, for `-32602` on an unknown tool when search is the only tool.
const SEARCH_HINT: &str = "this server's one tool is search_skills";
/// What exists, for `-32602` on an unknown prompt.
const PROMPTS_HINT: &str = "prompts/list lists the prompts: one per skill";
/// The most names or files a tool error lists.
const LISTED: usize = 50;

/// The outcome of a tool: its result, or the text of a tool error.
type ToolOutcome = Result<Rendered, String>;

impl Responder {
    /// The fallback tables (always there when the fallback is on: [`Responder::new`] refuses a
    /// pack without them).
    fn fallback_view(&self, method: &str) -> Result<FallbackView<'_>, RpcError> {
        self.catalog
            .fallback()
            .ok_or_else(|| RpcError::MethodNotFound {
                method: method.to_owned(),
                hint: Some("this pack was made without the tools and prompts fallback"),
            })
    }

    /// `tools/list`: the three tools, one page.
    pub(super) fn tools_list(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        // The tool definitions name public skills only (the catalog renders them so), so
        // they are the same for every caller.
        self.page(params, ListKind::Tools, 1, g)?;
        let mut tools = String::from("[");
        if self.config.fallback.tools {
            let f = self.fallback_view("tools/list")?;
            tools.push_str(inner(f.tools_json(), '[', ']'));
        }
        if self.catalog.has_search() {
            if tools.len() > 1 {
                tools.push(',');
            }
            tools.push_str(SEARCH_TOOL_JSON);
        }
        tools.push(']');
        let mut b = Self::open(modern, tools.len());
        b.push_str("\"tools\":");
        b.push_str(&tools);
        Ok(Rendered::Whole(b))
    }

    /// `prompts/list`: one prompt per skill, one page (so a client that does not follow
    /// cursors still offers every skill).
    pub(super) fn prompts_list(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        self.page(params, ListKind::Prompts, 1, g)?;
        self.fallback_view("prompts/list")?;
        let prompts = self.catalog.prompts_json(g).unwrap_or_default();
        let mut b = Self::open(modern, prompts.len());
        b.push_str("\"prompts\":");
        b.push_str(&prompts);
        Ok(Rendered::Whole(b))
    }

    /// `tools/call`.
    pub(super) fn tools_call(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        let (name, arguments) = named(params, "tool")?;
        let search = name == TOOL_SEARCH_SKILLS && self.catalog.has_search();
        if let Some(bad) = &arguments.unreadable {
            // A known tool refuses the value by the argument's name; an unknown tool is a
            // protocol error below, whatever its arguments.
            let takes: Option<&[(&str, &str)]> = match name.as_ref() {
                TOOL_SEARCH_SKILLS if search => Some(&SEARCH_ARGS),
                TOOL_LIST_SKILLS if self.config.fallback.tools => Some(&[]),
                TOOL_READ_SKILL if self.config.fallback.tools => Some(&READ_SKILL_ARGS),
                TOOL_READ_SKILL_RESOURCE if self.config.fallback.tools => Some(&READ_RESOURCE_ARGS),
                _ => None,
            };
            if let Some(takes) = takes {
                return Ok(tool_error(modern, &bad.refusal(&name, takes)));
            }
        }
        if search {
            let outcome = self.search_skills_call(&arguments, modern, g);
            return Ok(outcome.unwrap_or_else(|message| tool_error(modern, &message)));
        }
        let args = arguments.values;
        if !self.config.fallback.tools {
            return Err(RpcError::UnknownName {
                kind: "tool",
                name: name.into_owned(),
                hint: SEARCH_HINT,
            });
        }
        let f = self.fallback_view("tools/call")?;
        let outcome = match name.as_ref() {
            TOOL_LIST_SKILLS => self.list_skills_call(&args, modern, g),
            TOOL_READ_SKILL => self.read_skill_call(&f, &args, modern, g),
            TOOL_READ_SKILL_RESOURCE => self.read_resource_call(&args, modern, g),
            _ => {
                return Err(RpcError::UnknownName {
                    kind: "tool",
                    name: name.into_owned(),
                    hint: if self.catalog.has_search() {
                        TOOLS_HINT
                    } else {
                        TOOLS_HINT_NO_SEARCH
                    },
                })
            }
        };
        Ok(outcome.unwrap_or_else(|message| tool_error(modern, &message)))
    }

    fn list_skills_call(&self, args: &Map<String, Value>, modern: bool, g: Grant) -> ToolOutcome {
        tool_args(TOOL_LIST_SKILLS, args, &[])?;
        let json = self.catalog.list_skills_json(g).unwrap_or_default();
        let members = inner(&json, '{', '}');
        let mut b = Self::open(modern, members.len() + 16);
        b.push_str(members);
        b.push_str(",\"isError\":false");
        Ok(Rendered::Whole(b))
    }

    fn read_skill_call(
        &self,
        f: &FallbackView<'_>,
        args: &Map<String, Value>,
        modern: bool,
        g: Grant,
    ) -> ToolOutcome {
        let a = tool_args(TOOL_READ_SKILL, args, &READ_SKILL_ARGS)?;
        let i = match (a.first().copied().flatten(), a.get(1).copied().flatten()) {
            (Some(name), None) => {
                if name.contains("://") {
                    return Err(format!(
                        "`name` is a skill's name, and {:?} is a URI; give it as `uri` instead",
                        clip(name)
                    ));
                }
                self.skill_named(name, g)?
            }
            (None, Some(uri)) => self.skill_at_uri(uri, g)?,
            (None, None) => {
                return Err(format!(
                "{TOOL_READ_SKILL} needs `name` (a skill's name) or `uri` (its SKILL.md URI). {}",
                self.skills_text(g)
            ))
            }
            (Some(_), Some(_)) => {
                return Err("give `name` or `uri`, not both".to_owned());
            }
        };
        let (Some(skill), Some(parts)) = (self.catalog.skill_at(i), f.skill(i)) else {
            return Err("that skill is missing from this server's catalog".to_owned());
        };
        let file = self
            .catalog
            .file(skill.uri)
            .ok_or_else(|| format!("{} is missing from this server's catalog", skill.uri))?;
        let b = Self::open(modern, file.size as usize + 512);
        let mut r = file_block(b + "\"content\":[", &file);
        r = r.close(",");
        let structured = parts.read_structured_json.to_string();
        let mut block = String::with_capacity(structured.len() + structured.len() / 4 + 32);
        SkillFallback::push_read_block(&structured, &mut block);
        r = r.close(&block);
        r = r.close("],\"structuredContent\":");
        r = r.close(&structured);
        Ok(r.close(",\"isError\":false"))
    }

    fn read_resource_call(&self, args: &Map<String, Value>, modern: bool, g: Grant) -> ToolOutcome {
        let a = tool_args(TOOL_READ_SKILL_RESOURCE, args, &READ_RESOURCE_ARGS)?;
        let arg = |i: usize| a.get(i).copied().flatten();
        let (file, skill) = match (arg(0), arg(1), arg(2)) {
            (Some(uri), None, None) => self.file_at_uri(uri, g)?,
            (None, Some(skill), Some(path)) => self.file_in_skill(skill, path, g)?,
            (None, Some(_), None) => {
                return Err(
                    "`skill` needs `path` too: the file's path relative to the skill's directory, as read_skill lists them"
                        .to_owned(),
                )
            }
            (None, None, Some(_)) => {
                return Err(
                    "`path` needs `skill` too: the skill's name or SKILL.md URI".to_owned(),
                )
            }
            (None, None, None) => {
                return Err(format!(
                    "{TOOL_READ_SKILL_RESOURCE} needs `uri` (a file's skill:// URI), or `skill` and `path`; {TOOL_READ_SKILL} lists a skill's files"
                ))
            }
            (Some(_), _, _) => {
                return Err("give `uri`, or `skill` and `path`, not both".to_owned());
            }
        };
        let root = skill.strip_suffix(SKILL_MD).unwrap_or(skill);
        let path = file.uri.strip_prefix(root).unwrap_or(file.uri);
        let mut meta = String::with_capacity(256);
        meta.push_str("{\"uri\":");
        write_json_string(file.uri, &mut meta);
        meta.push_str(",\"skill\":");
        write_json_string(skill, &mut meta);
        meta.push_str(",\"path\":");
        write_json_string(path, &mut meta);
        meta.push_str(",\"mimeType\":");
        write_json_string(file.mime, &mut meta);
        meta.push_str(",\"size\":");
        meta.push_str(&file.size.to_string());
        meta.push_str(",\"digest\":");
        write_json_string(file.digest, &mut meta);
        meta.push('}');
        let mut tail = String::with_capacity(meta.len() * 2 + 96);
        tail.push_str(",{\"type\":\"text\",\"text\":");
        write_json_string(&meta, &mut tail);
        tail.push_str("}],\"structuredContent\":");
        tail.push_str(&meta);
        tail.push_str(",\"isError\":false");
        let b = Self::open(modern, file.size as usize + 512);
        Ok(file_block(b + "\"content\":[", &file).close(&tail))
    }

    /// `prompts/get`: the skill's `SKILL.md` as an embedded resource in a user message, then a
    /// resource link per other file.
    pub(super) fn prompts_get(
        &self,
        params: &Params<'_>,
        modern: bool,
        g: Grant,
    ) -> Result<Rendered, RpcError> {
        let (name, arguments) = named(params, "prompt")?;
        let f = self.fallback_view("prompts/get")?;
        let unknown = || RpcError::UnknownName {
            kind: "prompt",
            name: name.clone().into_owned(),
            hint: PROMPTS_HINT,
        };
        // The prompt of a skill the grant does not see is answered as an unknown one.
        let i = f
            .prompt(&name)
            .filter(|&i| self.catalog.skill_visible(i, g))
            .ok_or_else(unknown)?;
        let given = arguments.values.keys().next();
        if let Some(k) = given.or(arguments.unreadable.as_ref().map(|u| &u.name)) {
            return Err(RpcError::InvalidParams(format!(
                "the prompt {:?} takes no arguments, and `{}` was given",
                clip(&name),
                clip(k)
            )));
        }
        let (Some(skill), Some(parts)) = (self.catalog.skill_at(i), f.skill(i)) else {
            return Err(unknown());
        };
        let file = self
            .catalog
            .file(skill.uri)
            .ok_or_else(|| RpcError::ResourceNotFound {
                uri: skill.uri.to_owned(),
                hint: None,
            })?;
        let content = FileContent::of(&file);
        let mut b = Self::open(modern, file.size as usize + parts.links_json.len() + 256);
        b.push_str("\"description\":");
        b.push_str(parts.description_json);
        b.push_str(
            ",\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":",
        );
        write_json_string(file.uri, &mut b);
        b.push_str(",\"mimeType\":");
        write_json_string(file.mime, &mut b);
        b.push_str(",\"");
        b.push_str(content.key);
        b.push_str("\":");
        let links = parts.links_json.to_string();
        let links = inner(&links, '[', ']');
        let mut tail = String::with_capacity(links.len() + 8);
        tail.push_str("}}}");
        if !links.is_empty() {
            tail.push(',');
            tail.push_str(links);
        }
        tail.push(']');
        Ok(content.after(b).close(&tail))
    }

    // --- Lookups ---------------------------------------------------------------------------

    /// The one skill named `name`, or a tool error saying what exists.
    fn skill_named(&self, name: &str, g: Grant) -> Result<usize, String> {
        let mut found = self.catalog.skills_named(name);
        found.retain(|&i| self.catalog.skill_visible(i, g));
        match found.as_slice() {
            [i] => Ok(*i),
            [] => Err(format!(
                "no skill is named {:?}. {}",
                clip(name),
                self.skills_text(g)
            )),
            many => {
                let uris: Vec<&str> = many
                    .iter()
                    .filter_map(|&i| self.catalog.skill_at(i).map(|s| s.uri))
                    .collect();
                Err(format!(
                    "{} skills are named {:?}: {}; give the one you mean by its SKILL.md URI instead",
                    many.len(),
                    clip(name),
                    uris.join(", ")
                ))
            }
        }
    }

    /// The skill whose `SKILL.md` URI is `uri`, or a tool error saying what exists.
    fn skill_at_uri(&self, uri: &str, g: Grant) -> Result<usize, String> {
        let c = &*self.catalog;
        let visible = |i: &usize| c.skill_visible(*i, g);
        if let Some(i) = c.skill_index(uri).filter(visible) {
            return Ok(i);
        }
        let as_root = format!("{}/{SKILL_MD}", uri.trim_end_matches('/'));
        if c.skill_index(&as_root).filter(visible).is_some() {
            return Err(format!(
                "{:?} is a skill's directory; its SKILL.md is {as_root}",
                clip(uri)
            ));
        }
        if c.file_index(uri).is_some_and(|i| c.file_visible(i, g)) {
            return Err(format!(
                "{:?} is a file of a skill, not a SKILL.md; read it with {TOOL_READ_SKILL_RESOURCE}",
                clip(uri)
            ));
        }
        Err(format!(
            "no skill has the SKILL.md URI {:?}. {}",
            clip(uri),
            self.skills_text(g)
        ))
    }

    /// The skill named by `skill` (a name or a `SKILL.md` URI).
    fn skill_ref(&self, skill: &str, g: Grant) -> Result<usize, String> {
        if skill.contains("://") {
            self.skill_at_uri(skill, g)
        } else {
            self.skill_named(skill, g)
        }
    }

    /// The innermost skill whose directory holds `uri` (its index), if any and the grant
    /// sees it (a nested skill has its parent's audience, so the innermost one decides).
    fn owner_of(&self, uri: &str, g: Grant) -> Option<usize> {
        self.innermost_owner(uri)
            .filter(|&i| self.catalog.skill_visible(i, g))
    }

    /// The innermost skill whose directory holds `uri` (its index), if any.
    fn innermost_owner(&self, uri: &str) -> Option<usize> {
        let rest = uri.strip_prefix(SCHEME)?;
        let mut end = rest.len();
        while let Some(pos) = rest.get(..end).and_then(|r| r.rfind('/')) {
            let dir = rest.get(..pos)?;
            if let Some(i) = self
                .catalog
                .skill_index(&format!("{SCHEME}{dir}/{SKILL_MD}"))
            {
                return Some(i);
            }
            end = pos;
        }
        None
    }

    /// A file by URI and the `SKILL.md` URI of the innermost skill holding it, or a tool
    /// error saying what exists.
    fn file_at_uri<'c>(&'c self, uri: &str, g: Grant) -> Result<(FileView<'c>, &'c str), String> {
        let owner = self.owner_of(uri, g).and_then(|i| self.catalog.skill_at(i));
        // The owner is visible, so its files are (they share its audience).
        let file = owner.and_then(|_| self.catalog.file(uri));
        match (file, owner) {
            (Some(file), Some(skill)) => Ok((file, skill.uri)),
            (_, Some(skill)) => Err(format!(
                "{:?} is not a file of the skill {} (URIs are matched exactly; `.` and `..` are not resolved). {}",
                clip(uri),
                skill.uri,
                self.files_text(skill.uri)
            )),
            (_, None) => Err(format!(
                "{:?} is not a file this server serves: only the files of its skills can be read, by their skill:// URIs as {TOOL_READ_SKILL} lists them. {}",
                clip(uri),
                self.skills_text(g)
            )),
        }
    }

    /// A file by skill and relative path, with the skill's `SKILL.md` URI.
    fn file_in_skill<'c>(
        &'c self,
        skill: &str,
        path: &str,
        g: Grant,
    ) -> Result<(FileView<'c>, &'c str), String> {
        let i = self.skill_ref(skill, g)?;
        let skill = self
            .catalog
            .skill_at(i)
            .ok_or_else(|| "that skill is missing from this server's catalog".to_owned())?;
        let bad = path.is_empty()
            || path.starts_with('/')
            || path.contains(['\\', '?', '#'])
            || path.contains("://")
            || path
                .split('/')
                .any(|seg| seg.is_empty() || seg == "." || seg == "..");
        if bad {
            return Err(format!(
                "`path` must be a path inside the skill's directory, like \"references/guide.md\": no leading `/`, no empty, `.` or `..` segments, no `?` or `#` (got {:?}). {}",
                clip(path),
                self.files_text(skill.uri)
            ));
        }
        let uri = format!("{}/{path}", skill.root());
        match self.catalog.file(&uri) {
            Some(file) => Ok((file, skill.uri)),
            None => Err(format!(
                "the skill {} has no file {:?}. {}",
                skill.uri,
                clip(path),
                self.files_text(skill.uri)
            )),
        }
    }

    /// "The skills: name (uri), …" for a tool error, at most [`LISTED`] of them.
    fn skills_text(&self, g: Grant) -> String {
        let c = &*self.catalog;
        let n = c.visible_skill_count(g);
        if n == 0 {
            return "This server serves no skills.".to_owned();
        }
        let mut s = format!("The {n} skills (name and SKILL.md URI): ");
        let skills = c.visible_skills(g, 0).filter_map(|i| c.skill_at(i));
        for (k, sk) in skills.take(LISTED).enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            s.push_str(sk.name);
            s.push_str(" (");
            s.push_str(sk.uri);
            s.push(')');
        }
        if n > LISTED {
            s.push_str(&format!(
                ", and {} more ({TOOL_LIST_SKILLS} lists them all)",
                n - LISTED
            ));
        }
        s.push('.');
        s
    }

    /// "Its files: …" (paths relative to the skill's directory), at most [`LISTED`].
    fn files_text(&self, skill_md: &str) -> String {
        let root = skill_md.strip_suffix(SKILL_MD).unwrap_or(skill_md);
        let mut paths = self
            .catalog
            .files_under(root)
            .map(|f| f.uri.strip_prefix(root).unwrap_or(f.uri));
        let mut s = format!("The files of {skill_md}, relative to {root}: ");
        for (n, p) in paths.by_ref().take(LISTED).enumerate() {
            if n > 0 {
                s.push_str(", ");
            }
            s.push_str(p);
        }
        let more = paths.count();
        if more > 0 {
            s.push_str(&format!(
                ", and {more} more ({TOOL_READ_SKILL} lists them all)"
            ));
        }
        s.push('.');
        s
    }
}

/// A file as a tool result's content block: `text` for text, an embedded resource with a
/// `blob` otherwise (what follows the block is appended by the caller).
fn file_block(mut head: String, file: &FileView<'_>) -> Rendered {
    let content = FileContent::of(file);
    if content.is_text() {
        head.push_str("{\"type\":\"text\",\"text\":");
        content.after(head).close("}")
    } else {
        head.push_str("{\"type\":\"resource\",\"resource\":{");
        content.push_resource_head(file, &mut head);
        content.after(head).close("}}")
    }
}

/// A tool error: one text block saying what went wrong and what exists.
fn tool_error(modern: bool, message: &str) -> Rendered {
    let mut b = Responder::open(modern, message.len() + 64);
    b.push_str("\"content\":[{\"type\":\"text\",\"text\":");
    write_json_string(message, &mut b);
    b.push_str("}],\"isError\":true");
    Rendered::Whole(b)
}

/// The text between the outer brackets of a JSON array or object.
fn inner(json: &str, open: char, close: char) -> &str {
    json.strip_prefix(open)
        .and_then(|j| j.strip_suffix(close))
        .unwrap_or("")
}
