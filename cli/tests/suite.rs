//! The command's integration tests, one test binary (the native `skills-edge` run as a
//! process): each file of `tests/` is a module here, sharing the library's test helpers.

#[path = "../../tests/common/mod.rs"]
mod common;

mod check_command;
mod oms_command;
mod raw_http;
mod search_command;
mod sign_command;
mod skip_invalid;
mod verify_redirects;
mod verify_signatures;
mod verify_token;
