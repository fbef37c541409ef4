//! The node tree → a `Value`: keys must be distinct strings, objects take JavaScript's property
//! order, and aliases are expanded under `yaml@2`'s alias accounting and this module's caps
//! (count, nodes, bytes and depth after expansion).

use std::collections::BTreeMap;

use super::error::{truncate, FrontmatterError, FrontmatterErrorKind, Result};
use super::tree::{too_deep, Node, NodeKind};
use super::{MAX_ALIASES, MAX_ALIAS_BYTES, MAX_ALIAS_NODES, MAX_DEPTH};
use crate::skill::value::Value;

/// `yaml@2`'s default `maxAliasCount`; its alias-count rule is reproduced so that nothing it
/// rejects is accepted here.
const YAML2_MAX_ALIAS_COUNT: u64 = 100;

/// The shape of a built value: collection height (0 for a scalar), node count and approximate
/// JSON size in bytes.
#[derive(Clone, Copy, Default)]
struct Shape {
    height: usize,
    size: usize,
    bytes: usize,
}

impl Shape {
    fn scalar(v: &Value) -> Shape {
        let bytes = match v {
            Value::String(s) => s.len() + 2,
            _ => 8,
        };
        Shape {
            height: 0,
            size: 1,
            bytes,
        }
    }

    /// Adds a child (an item, or a value under a key of `key_len` bytes).
    fn add(&mut self, child: Shape, key_len: usize) {
        self.height = self.height.max(child.height);
        self.size = self.size.saturating_add(child.size);
        self.bytes = self
            .bytes
            .saturating_add(child.bytes)
            .saturating_add(key_len + 1);
    }

    fn close(mut self) -> Shape {
        self.height += 1;
        self.size = self.size.saturating_add(1);
        self.bytes = self.bytes.saturating_add(2);
        self
    }
}

/// Per-anchored-node alias accounting, as `yaml@2` keeps it (`count` starts at 1).
#[derive(Clone, Copy)]
struct AliasData {
    count: u64,
    alias_count: u64,
}

/// Turns the node tree into a `Value`: checks keys, applies `yaml@2`'s alias accounting and
/// expands aliases by rebuilding their target (nothing is cached, so memory stays bounded by the
/// input plus the expansion caps).
pub(super) struct Builder<'n> {
    nodes: &'n [Node],
    /// Shapes of completed anchored nodes, by node index.
    shapes: Vec<Option<Shape>>,
    /// The alias accounting of anchored nodes, by node index.
    data: Vec<Option<AliasData>>,
    aliases: usize,
    expanded_nodes: usize,
    expanded_bytes: usize,
}

fn internal_error() -> FrontmatterError {
    FrontmatterError::new(
        FrontmatterErrorKind::Syntax,
        None,
        "internal error: inconsistent YAML node tree",
        "report this bug with the frontmatter that caused it",
    )
}

impl<'n> Builder<'n> {
    pub(super) fn new(nodes: &'n [Node]) -> Self {
        Builder {
            nodes,
            shapes: vec![None; nodes.len()],
            data: vec![None; nodes.len()],
            aliases: 0,
            expanded_nodes: 0,
            expanded_bytes: 0,
        }
    }

    pub(super) fn build_root(mut self, root: usize) -> Result<Value> {
        Ok(self.build(root, 0)?.0)
    }

    fn node(&self, idx: usize) -> Result<&'n Node> {
        self.nodes.get(idx).ok_or_else(internal_error)
    }

    /// Builds node `idx`, whose parent collection is at nesting level `parent_level` (0 for the
    /// root). Recursion follows the document tree, whose depth `Tree::read` bounds.
    fn build(&mut self, idx: usize, parent_level: usize) -> Result<(Value, Shape)> {
        let node = self.node(idx)?;
        if node.anchored {
            self.data[idx] = Some(AliasData {
                count: 1,
                alias_count: 0,
            });
        }
        let built = match &node.kind {
            NodeKind::Scalar(v) => (v.clone(), Shape::scalar(v)),
            NodeKind::Alias(target) => return self.alias(*target, parent_level, node.line),
            NodeKind::Seq(items) => {
                let mut values = Vec::with_capacity(items.len());
                let mut shape = Shape::default();
                for item in items {
                    let (value, child) = self.build(*item, parent_level + 1)?;
                    shape.add(child, 0);
                    values.push(value);
                }
                (Value::Array(values), shape.close())
            }
            NodeKind::Map(pairs) => {
                let mut out: Vec<(String, Value)> = Vec::with_capacity(pairs.len());
                let mut seen: BTreeMap<String, usize> = BTreeMap::new();
                let mut shape = Shape::default();
                for (k, v) in pairs {
                    let key_line = self.node(*k)?.line;
                    let key = match self.build(*k, parent_level + 1)?.0 {
                        Value::String(s) => s,
                        other => {
                            return Err(FrontmatterError::new(
                                FrontmatterErrorKind::NonStringKey,
                                Some(key_line),
                                format!(
                                    "a mapping key that is {} {}, not a string",
                                    article(other.type_name()),
                                    other.type_name()
                                ),
                                "use a plain or quoted string as the key",
                            ))
                        }
                    };
                    if let Some(first) = seen.get(&key) {
                        return Err(FrontmatterError::new(
                            FrontmatterErrorKind::DuplicateKey,
                            Some(key_line),
                            format!(
                                "duplicate key {:?} (first defined on line {first})",
                                truncate(&key, 60)
                            ),
                            "keep one of the two entries (YAML 1.2 and yaml@2 refuse duplicates; other readers keep the last)",
                        ));
                    }
                    seen.insert(key.clone(), key_line);
                    let (value, child) = self.build(*v, parent_level + 1)?;
                    shape.add(child, key.len() + 2);
                    out.push((key, value));
                }
                (Value::Object(js_property_order(out)), shape.close())
            }
        };
        if node.anchored {
            self.shapes[idx] = Some(built.1);
        }
        Ok(built)
    }

    fn alias(&mut self, target: usize, parent_level: usize, line: usize) -> Result<(Value, Shape)> {
        use FrontmatterErrorKind as K;
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("more than {MAX_ALIASES} aliases (`*name`)"),
                "write the values out instead of repeating aliases",
            ));
        }
        let (Some(mut data), Some(shape)) = (
            self.data.get(target).copied().flatten(),
            self.shapes.get(target).copied().flatten(),
        ) else {
            return Err(FrontmatterError::new(
                K::RecursiveAlias,
                Some(line),
                "this alias refers to a node that contains it (a cycle), which JSON cannot represent",
                "move the alias out of the anchored node, or write the value out",
            ));
        };
        data.count += 1;
        if data.alias_count == 0 {
            data.alias_count = self.alias_count(target, 0);
        }
        self.data[target] = Some(data);
        if data.count.saturating_mul(data.alias_count) > YAML2_MAX_ALIAS_COUNT {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("this alias pushes the anchor's weighted alias count past {YAML2_MAX_ALIAS_COUNT}, which yaml@2 refuses as a resource exhaustion attack"),
                "use fewer (or less nested) aliases; write the values out",
            ));
        }
        if parent_level + shape.height > MAX_DEPTH {
            return Err(too_deep(line));
        }
        self.expanded_nodes = self.expanded_nodes.saturating_add(shape.size);
        self.expanded_bytes = self.expanded_bytes.saturating_add(shape.bytes);
        if self.expanded_nodes > MAX_ALIAS_NODES || self.expanded_bytes > MAX_ALIAS_BYTES {
            return Err(FrontmatterError::new(
                K::AliasLimit,
                Some(line),
                format!("aliases expand to more than {MAX_ALIAS_NODES} nodes or {MAX_ALIAS_BYTES} bytes"),
                "write the values out instead of repeating large aliased nodes",
            ));
        }
        Ok((self.materialize(target, 0)?, shape))
    }

    /// The value of an already built node, aliases expanded, without accounting or checks (they
    /// passed when the node was built). `depth` bounds the recursion defensively.
    fn materialize(&self, idx: usize, depth: usize) -> Result<Value> {
        if depth > 2 * MAX_DEPTH + 2 {
            return Err(internal_error());
        }
        Ok(match &self.node(idx)?.kind {
            NodeKind::Scalar(v) => v.clone(),
            NodeKind::Alias(target) => self.materialize(*target, depth + 1)?,
            NodeKind::Seq(items) => Value::Array(
                items
                    .iter()
                    .map(|i| self.materialize(*i, depth + 1))
                    .collect::<Result<_>>()?,
            ),
            NodeKind::Map(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    let Value::String(key) = self.materialize(*k, depth + 1)? else {
                        return Err(internal_error());
                    };
                    out.push((key, self.materialize(*v, depth + 1)?));
                }
                Value::Object(js_property_order(out))
            }
        })
    }

    /// `yaml@2`'s `getAliasCount`: 1 for a scalar, the maximum over the items of a collection
    /// (0 if empty), and `count × aliasCount` of an alias's anchor.
    fn alias_count(&self, idx: usize, depth: usize) -> u64 {
        let Some(node) = self.nodes.get(idx) else {
            return 0;
        };
        if depth > MAX_DEPTH + 1 {
            return 0;
        }
        match &node.kind {
            NodeKind::Scalar(_) => 1,
            NodeKind::Alias(t) => self
                .data
                .get(*t)
                .copied()
                .flatten()
                .map_or(0, |d| d.count.saturating_mul(d.alias_count)),
            NodeKind::Seq(items) => items
                .iter()
                .map(|i| self.alias_count(*i, depth + 1))
                .max()
                .unwrap_or(0),
            NodeKind::Map(pairs) => pairs
                .iter()
                .map(|(k, v)| {
                    self.alias_count(*k, depth + 1)
                        .max(self.alias_count(*v, depth + 1))
                })
                .max()
                .unwrap_or(0),
        }
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The property order of a JavaScript object built by inserting `pairs` in order: keys that are
/// array indices (canonical decimal integers up to 2^32 − 2) first, ascending, then the others
/// in insertion order. `JSON.stringify(YAML.parse(text))` prints objects in this order.
fn js_property_order(pairs: Vec<(String, Value)>) -> Vec<(String, Value)> {
    if !pairs.iter().any(|(k, _)| array_index(k).is_some()) {
        return pairs;
    }
    let (indices, others): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .partition(|(k, _)| array_index(k).is_some());
    // Big-endian bytes sort as the numbers do.
    let numbers: Vec<[u8; 4]> = indices
        .iter()
        .map(|(k, _)| array_index(k).unwrap_or(u32::MAX).to_be_bytes())
        .collect();
    let keys: Vec<&[u8]> = numbers.iter().map(|n| n.as_slice()).collect();
    let order = crate::skill::byte_order(&keys);
    let mut slots: Vec<Option<(String, Value)>> = indices.into_iter().map(Some).collect();
    let mut out: Vec<(String, Value)> = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
    out.extend(others);
    out
}

/// `Some(n)` when `key` is the canonical decimal form of an array index `n` (0 ≤ n ≤ 2^32 − 2).
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if key.len() > 1 && key.starts_with('0') {
        return None;
    }
    let n: u64 = key.parse().ok()?;
    u32::try_from(n).ok().filter(|n| *n != u32::MAX)
}
