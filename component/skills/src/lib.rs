//! The `skills-edge:mcp/skills` world: the responder and the host verifier of the
//! `skills-edge` library, exported as a WASI 0.2 component.
//!
//! Bindings only. Every function converts WIT values to the library's types, calls the
//! library, and converts the answer back; the rules live in `skills_edge::server` and
//! `skills_edge::host`.

#![warn(missing_docs)]

mod responder;
mod verifier;

mod bindings {
    wit_bindgen::generate!({
        path: "../../wit",
        world: "skills-edge:mcp/skills",
    });
}

/// The component: implements the exported interfaces (see [`responder`] and [`verifier`]).
struct Component;

bindings::export!(Component with_types_in bindings);
