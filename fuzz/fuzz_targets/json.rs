//! `skills_edge::catalog::json::parse`, the strict JSON reader of the host's inputs (input: any
//! bytes).
//!
//! Properties, against `serde_json::from_slice::<serde_json::Value>` (strict RFC 8259):
//! - the reader accepts exactly the inputs serde_json accepts (bytes that are not UTF-8 are
//!   refused by both; the reader takes `&str`, so they never reach it);
//! - an accepted value equals serde_json's: same types, strings, array items in order, objects
//!   with the same members where a repeated key counts once with its last value (serde_json's
//!   map keeps the last; the reader keeps every member, in order); integers exactly, other
//!   numbers within two units in the last place (serde_json's default float reader is not
//!   always correctly rounded, the reader's is);
//! - every node's `raw` text reads back as that node (the same value);
//! - `to_value` succeeds iff no object repeats a key, and writes JSON that reads back to the
//!   same value;
//! - `repeated_key` of every object is what a simple reference finds (each member compared with
//!   every member before it; quadratic, fine for fuzz inputs): the first member, in document
//!   order, whose key an earlier member has;
//! - an error names a line and column inside the input (or just after its end);
//! - it never panics. Nesting is refused beyond 127 levels, as serde_json's recursion limit.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Serde;
use skills_edge::catalog::json::{parse, FieldErrorKind, Json, Node};

fn close(a: f64, b: f64) -> bool {
    if a == b {
        return true;
    }
    // Two units in the last place of the larger magnitude.
    let m = a.abs().max(b.abs());
    (a - b).abs() <= 2.0 * f64::EPSILON * m
}

fn same(node: &Node, theirs: &Serde) -> bool {
    match (&node.value, theirs) {
        (Json::Null, Serde::Null) => true,
        (Json::Bool(a), Serde::Bool(b)) => a == b,
        (Json::Number(t), Serde::Number(n)) => {
            if let (Some(a), Some(b)) = (node.as_u64(), n.as_u64()) {
                return a == b;
            }
            if let (Ok(a), Some(b)) = (t.parse::<i64>(), n.as_i64()) {
                return a == b;
            }
            match (node.as_f64(), n.as_f64()) {
                (Some(a), Some(b)) => close(a, b),
                _ => false,
            }
        }
        (Json::String(a), Serde::String(b)) => a == b,
        (Json::Array(a), Serde::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Json::Object(members), Serde::Object(map)) => {
            // The last occurrence of each key is serde_json's.
            let mut keys: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
            keys.sort_unstable();
            keys.dedup();
            keys.len() == map.len()
                && keys.iter().all(|k| {
                    let last = members.iter().rev().find(|(m, _)| m == k).map(|(_, v)| v);
                    matches!((last, map.get(*k)), (Some(v), Some(w)) if same(v, w))
                })
        }
        _ => false,
    }
}

/// Every node's raw text is a document of its own with the same value.
fn raw_reads_back(node: &Node) {
    let again = parse(node.raw).expect("a node's raw text is JSON");
    assert_eq!(&again, node, "raw text {:?}", node.raw);
    match &node.value {
        Json::Array(items) => items.iter().for_each(raw_reads_back),
        Json::Object(members) => members.iter().for_each(|(_, v)| raw_reads_back(v)),
        _ => {}
    }
}

/// The reference: the first member whose key an earlier member has, by comparing each member
/// with every one before it.
fn first_repeated<'n>(members: &'n [(std::borrow::Cow<'_, str>, Node<'_>)]) -> Option<&'n str> {
    (0..members.len())
        .find(|&i| (0..i).any(|j| members[j].0 == members[i].0))
        .map(|i| members[i].0.as_ref())
}

/// `repeated_key` agrees with the reference on every object of the tree.
fn repeated_keys_match(node: &Node) {
    match &node.value {
        Json::Object(members) => {
            assert_eq!(
                node.repeated_key(),
                first_repeated(members),
                "repeated_key of {:?}",
                node.raw
            );
            members.iter().for_each(|(_, v)| repeated_keys_match(v));
        }
        Json::Array(items) => items.iter().for_each(repeated_keys_match),
        _ => assert_eq!(node.repeated_key(), None),
    }
}

fn repeats_a_key(node: &Node) -> bool {
    node.repeated_key().is_some()
        || match &node.value {
            Json::Array(items) => items.iter().any(repeats_a_key),
            Json::Object(members) => members.iter().any(|(_, v)| repeats_a_key(v)),
            _ => false,
        }
}

fuzz_target!(|data: &[u8]| {
    let theirs = serde_json::from_slice::<Serde>(data);
    let Ok(text) = std::str::from_utf8(data) else {
        assert!(
            theirs.is_err(),
            "serde_json accepted bytes that are not UTF-8"
        );
        return;
    };
    match (parse(text), theirs) {
        (Ok(node), Ok(value)) => {
            assert!(
                same(&node, &value),
                "{text:?}: ours {node:?}, serde_json {value:?}"
            );
            raw_reads_back(&node);
            repeated_keys_match(&node);
            match node.to_value() {
                Ok(v) => {
                    assert!(!repeats_a_key(&node), "to_value accepted a repeated key");
                    let written = v.to_json();
                    let back = parse(&written).expect("to_value's JSON reads back");
                    let back = back.to_value().expect("no repeated key");
                    assert!(back.same_content(&v), "{written:?} reads back differently");
                }
                Err(e) => {
                    assert_eq!(e.kind, FieldErrorKind::Duplicate, "{text:?}: {e}");
                    assert!(repeats_a_key(&node), "to_value refused {text:?}");
                }
            }
        }
        (Err(e), Err(_)) => {
            let lines = text.split('\n').count();
            assert!(e.line >= 1 && e.line <= lines, "{e} outside {lines} lines");
            let line = text.split('\n').nth(e.line - 1).unwrap_or_default();
            assert!(e.column <= line.len() + 1, "{e}: column past the line");
        }
        (ours, theirs) => panic!("{text:?}: ours {ours:?}, serde_json {theirs:?}"),
    }
});
