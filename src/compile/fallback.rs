//! The published forms of the tools and prompts fallback: the same catalog offered as MCP tools
//! and prompts to clients that do not implement the Skills extension. The extension's working
//! group specifies no such fallback (to a client without the extension, `skill://` resources are
//! ordinary resources), so this surface is opt-in at run time and labelled as not part of the
//! extension; it is rendered here, from the compiled catalog, so it can never disagree with
//! the entries.
//!
//! Names and shapes follow what servers that add such tools already do (lightdash's
//! `list_skills`, `read_skill`, `read_skill_resource`; a `load_skill`/`read_skill` tool that
//! returns the `SKILL.md`, and a second one for any other file of the skill by URI or by skill
//! and relative path):
//!
//! * `list_skills` (no arguments): every skill's `name`, `description`, `uri` (its `SKILL.md`)
//!   and `revision`;
//! * `read_skill` (`name` or `uri`): the `SKILL.md` as text, with its URI, MIME type, size,
//!   digest and the skill's other files;
//! * `read_skill_resource` (`uri`, or `skill` and `path`): any file of a skill, text as text and
//!   binary as an embedded resource blob, with URI, MIME type, size and digest;
//! * one prompt per skill, named after the skill (`Compiled::prompt_names`), whose messages
//!   are the `SKILL.md` (embedded resource) and a resource link per other file.
//!
//! What is the same for every call is rendered here: the tool definitions, the whole
//! `list_skills` result, the prompt list, each skill's `read_skill` metadata and prompt links,
//! and the instructions. The responder adds only the file bytes (or splices their asset).

use super::{Compiled, CompiledSkill};
use crate::skill::value::{Number, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The tool listing skills.
pub const TOOL_LIST_SKILLS: &str = "list_skills";
/// The tool reading a skill's `SKILL.md`.
pub const TOOL_READ_SKILL: &str = "read_skill";
/// The tool reading any file of a skill.
pub const TOOL_READ_SKILL_RESOURCE: &str = "read_skill_resource";

/// The sentence every fallback description carries, so no client or model mistakes the tools
/// and prompts for the Skills extension itself.
const NOT_THE_EXTENSION: &str = "A fallback for MCP clients without the io.modelcontextprotocol/skills extension; not part of that extension.";

fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

fn n(v: u64) -> Value {
    // Sizes are capped at 16 MiB per skill by the compiler, far inside the safe range.
    Value::Number(Number::Int(i64::try_from(v).unwrap_or(i64::MAX)))
}

fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

fn string_prop(description: &str) -> Value {
    obj(vec![("type", s("string")), ("description", s(description))])
}

/// `{"type":"string"}`.
fn string_type() -> Value {
    obj(vec![("type", s("string"))])
}

/// `{"type":"integer","minimum":0}`.
fn size_type() -> Value {
    obj(vec![("type", s("integer")), ("minimum", n(0))])
}

/// An object schema. Input schemas are `strict` (no other members: a misspelt argument is
/// reported instead of ignored); output schemas leave room for members added later.
fn object_schema(properties: Vec<(&str, Value)>, required: &[&str], strict: bool) -> Value {
    let mut pairs = vec![("type", s("object")), ("properties", obj(properties))];
    if !required.is_empty() {
        pairs.push((
            "required",
            Value::Array(required.iter().map(|r| s(r)).collect()),
        ));
    }
    if strict {
        pairs.push(("additionalProperties", Value::Bool(false)));
    }
    obj(pairs)
}

fn input_schema(properties: Vec<(&str, Value)>) -> Value {
    object_schema(properties, &[], true)
}

fn output_schema(properties: Vec<(&str, Value)>, required: &[&str]) -> Value {
    object_schema(properties, required, false)
}

/// Read-only, idempotent, closed-world: the catalog is fixed at build time.
fn read_only() -> Value {
    obj(vec![
        ("readOnlyHint", Value::Bool(true)),
        ("destructiveHint", Value::Bool(false)),
        ("idempotentHint", Value::Bool(true)),
        ("openWorldHint", Value::Bool(false)),
    ])
}

/// The output schema of a file read: `uri`, `mimeType`, `size`, `digest` plus `extra`.
fn file_fields(extra: Vec<(&'static str, Value)>) -> Vec<(&'static str, Value)> {
    let mut props = extra;
    props.push(("mimeType", string_type()));
    props.push(("size", size_type()));
    props.push((
        "digest",
        obj(vec![
            ("type", s("string")),
            ("pattern", s("^sha256:[0-9a-f]{64}$")),
        ]),
    ));
    props
}

/// The JSON text of `value` as a `text` content block (what a client without
/// `structuredContent` support shows).
fn text_block(value: &Value) -> Value {
    obj(vec![
        ("type", s("text")),
        ("text", Value::String(value.to_json())),
    ])
}

impl Compiled {
    /// The skill's path: its root URI without `skill://` (`acme/billing/refunds`).
    fn skill_path<'a>(&self, skill: &'a CompiledSkill) -> &'a str {
        skill
            .root
            .strip_prefix(crate::skill::uri::SCHEME)
            .unwrap_or(&skill.root)
    }

    /// The prompt name of every skill, in skill (URI) order. A skill whose name no other skill
    /// has is its prompt's name (`code-review`); skills that share a name are named by their
    /// path with `.` for `/` (`acme.billing.refunds`, `acme.support.refunds`), which never
    /// equals a plain name (names have no `.`). Should two such paths still meet (a prefix
    /// segment with a `.` in it), the later skill in URI order gets `-2`, `-3`, … until the
    /// name is free, so every prompt name is distinct.
    #[cfg_attr(feature = "internals", visibility::make(pub))]
    pub(crate) fn prompt_names(&self) -> Vec<String> {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for sk in &self.skills {
            *count.entry(sk.name.as_str()).or_default() += 1;
        }
        let base: Vec<String> = self
            .skills
            .iter()
            .map(|sk| {
                if count.get(sk.name.as_str()).copied().unwrap_or(0) > 1 {
                    self.skill_path(sk).replace('/', ".")
                } else {
                    sk.name.clone()
                }
            })
            .collect();
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut out = Vec::with_capacity(base.len());
        for b in base {
            let mut name = b.clone();
            let mut k = 2;
            while taken.contains(&name) {
                name = format!("{b}-{k}");
                k += 1;
            }
            taken.insert(name.clone());
            out.push(name);
        }
        out
    }

    /// The skill indices sorted by skill name (then URI): what `read_skill` looks names up in.
    pub(crate) fn skills_by_name(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.skills.len()).collect();
        idx.sort_by(|&a, &b| {
            self.skills[a]
                .name
                .cmp(&self.skills[b].name)
                .then(a.cmp(&b))
        });
        idx
    }

    /// The `tools` array of `tools/list`. The descriptions and argument examples name real
    /// skills and files of this catalog.
    pub(crate) fn fallback_tools_json(&self) -> String {
        // The examples and the count name public skills only: the tool list is the same for
        // every caller.
        let public: Vec<&CompiledSkill> = (0..self.skills.len())
            .filter(|&i| self.is_public(i))
            .filter_map(|i| self.skills.get(i))
            .collect();
        let first = public.first().copied();
        let example_name = first.map(|sk| sk.name.as_str()).unwrap_or("code-review");
        let example_uri = first
            .map(|sk| sk.uri.clone())
            .unwrap_or_else(|| "skill://code-review/SKILL.md".to_owned());
        // A file other than a SKILL.md, for the read_skill_resource examples.
        let example_file = public.iter().find_map(|sk| {
            let fi = *sk.files.get(1)?;
            let f = self.files.get(fi)?;
            Some((
                *sk,
                self.relative_path(sk, &f.uri).to_owned(),
                f.uri.clone(),
            ))
        });
        let (file_skill, file_path, file_uri) = match example_file {
            Some((sk, path, uri)) => (sk.name.clone(), path, uri),
            None => (
                example_name.to_owned(),
                "references/guide.md".to_owned(),
                format!(
                    "{}/references/guide.md",
                    example_uri.trim_end_matches("/SKILL.md")
                ),
            ),
        };
        let skill_item = output_schema(
            vec![
                ("name", string_type()),
                ("description", string_type()),
                ("uri", string_type()),
                ("revision", string_type()),
            ],
            &["name", "description", "uri", "revision"],
        );
        let list = obj(vec![
            ("name", s(TOOL_LIST_SKILLS)),
            ("title", s("List skills")),
            (
                "description",
                Value::String(if self.access.is_some() {
                    format!("List the Agent Skills this server publishes to you: each skill's name, description, SKILL.md URI and revision (a sha256 over its files). Read a skill's instructions with {TOOL_READ_SKILL} before following it. {NOT_THE_EXTENSION}")
                } else {
                    format!(
                    "List the Agent Skills this server publishes ({} in all): each skill's name, description, SKILL.md URI and revision (a sha256 over its files). Read a skill's instructions with {TOOL_READ_SKILL} before following it. {NOT_THE_EXTENSION}",
                    self.skills.len()
                )
                }),
            ),
            ("inputSchema", input_schema(vec![])),
            (
                "outputSchema",
                output_schema(
                    vec![(
                        "skills",
                        obj(vec![("type", s("array")), ("items", skill_item)]),
                    )],
                    &["skills"],
                ),
            ),
            ("annotations", read_only()),
        ]);
        let file_item = {
            let mut props = vec![("path", string_type()), ("uri", string_type())];
            props.extend(file_fields(vec![]));
            output_schema(props, &["path", "uri", "mimeType", "size", "digest"])
        };
        let mut read_props = file_fields(vec![
            ("uri", string_type()),
            ("name", string_type()),
            ("revision", string_type()),
        ]);
        read_props.push((
            "files",
            obj(vec![("type", s("array")), ("items", file_item)]),
        ));
        let read = obj(vec![
            ("name", s(TOOL_READ_SKILL)),
            ("title", s("Read a skill")),
            (
                "description",
                Value::String(format!(
                    "Read a skill's SKILL.md (its instructions), by name or by SKILL.md URI as {TOOL_LIST_SKILLS} gives them. Returns the text exactly, with its URI, MIME type, size, sha256 digest, and the skill's other files; read those with {TOOL_READ_SKILL_RESOURCE} when the instructions refer to them. Give exactly one of name and uri. {NOT_THE_EXTENSION}"
                )),
            ),
            (
                "inputSchema",
                input_schema(vec![
                        (
                            "name",
                            string_prop(&format!(
                                "The skill's name, e.g. \"{example_name}\". When two skills share a name, give uri instead."
                            )),
                        ),
                        (
                            "uri",
                            string_prop(&format!(
                                "The skill's SKILL.md URI, e.g. \"{example_uri}\"."
                            )),
                        ),
                    ]),
            ),
            (
                "outputSchema",
                output_schema(
                    read_props,
                    &["uri", "name", "revision", "mimeType", "size", "digest", "files"],
                ),
            ),
            ("annotations", read_only()),
        ]);
        let resource = obj(vec![
            ("name", s(TOOL_READ_SKILL_RESOURCE)),
            ("title", s("Read a skill file")),
            (
                "description",
                Value::String(format!(
                    "Read one file of a skill (a reference, template, script or asset), by its skill:// URI, or by skill (name or SKILL.md URI) and path relative to the skill's directory, as {TOOL_READ_SKILL} lists them. Text comes back as text, binary files as an embedded resource (base64 blob), with URI, MIME type, size and sha256 digest. Give uri, or skill and path. {NOT_THE_EXTENSION}"
                )),
            ),
            (
                "inputSchema",
                input_schema(vec![
                        (
                            "uri",
                            string_prop(&format!("The file's URI, e.g. \"{file_uri}\".")),
                        ),
                        (
                            "skill",
                            string_prop(&format!(
                                "Instead of uri: the skill's name or SKILL.md URI, e.g. \"{file_skill}\"."
                            )),
                        ),
                        (
                            "path",
                            string_prop(&format!(
                                "With skill: the file's path relative to the skill's directory, e.g. \"{file_path}\"."
                            )),
                        ),
                    ]),
            ),
            (
                "outputSchema",
                output_schema(
                    file_fields(vec![
                        ("uri", string_type()),
                        ("skill", string_type()),
                        ("path", string_type()),
                    ]),
                    &["uri", "skill", "path", "mimeType", "size", "digest"],
                ),
            ),
            ("annotations", read_only()),
        ]);
        Value::Array(vec![list, read, resource]).to_json()
    }

    /// The members of the `list_skills` result: `{"content":[…],"structuredContent":{…}}`
    /// (the responder adds `resultType`, `isError` and `_meta`).
    #[cfg(test)]
    pub(crate) fn list_skills_result_json(&self) -> String {
        let skills = self
            .skills
            .iter()
            .enumerate()
            .filter(|(i, _)| self.is_public(*i))
            .map(|(_, sk)| self.list_skills_item(sk))
            .collect();
        let structured = obj(vec![("skills", Value::Array(skills))]);
        obj(vec![
            ("content", Value::Array(vec![text_block(&structured)])),
            ("structuredContent", structured),
        ])
        .to_json()
    }

    /// The item of `sk` in the `list_skills` result's `skills`.
    fn list_skills_item(&self, sk: &CompiledSkill) -> Value {
        obj(vec![
            ("name", s(&sk.name)),
            ("description", s(&sk.description)),
            ("uri", s(&sk.uri)),
            ("revision", Value::String(self.revision(sk))),
        ])
    }

    /// The item of `sk` in the `list_skills` result's `skills`, as JSON.
    pub(crate) fn list_skills_item_json(&self, sk: &CompiledSkill) -> String {
        self.list_skills_item(sk).to_json()
    }

    /// The item of skill `i` in `prompts/list`, named `name`, as JSON.
    pub(crate) fn prompt_item_json(&self, name: &str, i: usize) -> String {
        let description = self.skills.get(i).map_or("", |sk| sk.description.as_str());
        obj(vec![("name", s(name)), ("description", s(description))]).to_json()
    }

    /// The constant parts of a `read_skill` result for `skill`: the `structuredContent`
    /// (`uri`, `name`, `revision`, `mimeType`, `size`, `digest` of its `SKILL.md`, and its
    /// other `files`) and the `text` content block carrying the same as JSON text.
    pub(crate) fn read_skill_parts(&self, skill: &CompiledSkill) -> (String, String) {
        let md = skill.files.first().and_then(|&i| self.files.get(i));
        let files = skill
            .files
            .iter()
            .skip(1)
            .filter_map(|&i| self.files.get(i))
            .map(|f| {
                obj(vec![
                    ("path", s(self.relative_path(skill, &f.uri))),
                    ("uri", s(&f.uri)),
                    ("mimeType", s(f.mime)),
                    ("size", n(f.size)),
                    ("digest", s(&f.digest)),
                ])
            })
            .collect();
        let structured = obj(vec![
            ("uri", s(&skill.uri)),
            ("name", s(&skill.name)),
            ("revision", Value::String(self.revision(skill))),
            ("mimeType", s(md.map(|f| f.mime).unwrap_or("text/markdown"))),
            ("size", n(md.map(|f| f.size).unwrap_or(0))),
            ("digest", s(md.map(|f| f.digest.as_str()).unwrap_or(""))),
            ("files", Value::Array(files)),
        ]);
        (text_block(&structured).to_json(), structured.to_json())
    }

    /// The `prompts` array of `prompts/list`, in prompt-name order: `name` and `description`
    /// of each skill, no arguments. No `title`: some clients invoke a prompt by its title.
    #[cfg(test)]
    pub(crate) fn fallback_prompts_json(&self, names: &[String]) -> String {
        let mut order: Vec<usize> = (0..self.skills.len()).collect();
        order.sort_by(|&a, &b| names.get(a).cmp(&names.get(b)));
        let items = order
            .into_iter()
            .filter(|&i| self.is_public(i))
            .filter_map(|i| {
                let sk = self.skills.get(i)?;
                Some(obj(vec![
                    ("name", s(names.get(i)?)),
                    ("description", s(&sk.description)),
                ]))
            })
            .collect();
        Value::Array(items).to_json()
    }

    /// The messages of a skill's `prompts/get` result after its `SKILL.md`: one user message
    /// per other file, a `resource_link` with the file's path as its name, its MIME type and
    /// size (a JSON array).
    pub(crate) fn prompt_links_json(&self, skill: &CompiledSkill) -> String {
        let links = skill
            .files
            .iter()
            .skip(1)
            .filter_map(|&i| self.files.get(i))
            .map(|f| {
                obj(vec![
                    ("role", s("user")),
                    (
                        "content",
                        obj(vec![
                            ("type", s("resource_link")),
                            ("uri", s(&f.uri)),
                            ("name", s(self.relative_path(skill, &f.uri))),
                            ("mimeType", s(f.mime)),
                            ("size", n(f.size)),
                        ]),
                    ),
                ])
            })
            .collect();
        Value::Array(links).to_json()
    }

    /// The lines the server instructions start with when the fallback is on (`tools`,
    /// `prompts`, or both): a few sentences, well inside the 2,048 characters some clients
    /// keep of the instructions, so they survive any truncation of the list of skills after
    /// them.
    pub(crate) fn fallback_instructions(tools: bool, prompts: bool) -> String {
        let what = match (tools, prompts) {
            (true, true) => "MCP tools and prompts",
            (true, false) => "MCP tools",
            (false, true) => "MCP prompts",
            (false, false) => return String::new(),
        };
        let mut s = format!(
            "For clients without the io.modelcontextprotocol/skills extension, this server also offers its skills as {what} (a fallback, not part of the extension; clients with the extension should use skills/list and resources/read)."
        );
        if tools {
            s.push_str(&format!(
                " Tools: {TOOL_LIST_SKILLS} lists every skill (name, description, SKILL.md URI); {TOOL_READ_SKILL} returns a skill's SKILL.md by name or URI, with the list of its files; {TOOL_READ_SKILL_RESOURCE} returns any other file of a skill by URI, or by skill and relative path. When a task matches a skill's description, read its SKILL.md first and follow it; read its other files only when it refers to them."
            ));
        }
        if prompts {
            s.push_str(
                " Prompts: one per skill, named after the skill (skills that share a name are named by their path, e.g. acme.billing.refunds); a prompt's messages are the SKILL.md and links to the skill's other files.",
            );
        }
        s
    }
}
