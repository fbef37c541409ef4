//! The `skills-edge` command, without its I/O: the `verify` run and its report, shared by the
//! native command (`cli/`), the npm package's command and [`SkillsClient`](crate::client::SkillsClient)'s
//! `verify`.
//!
//! | module | what it is |
//! |---|---|
//! | [`verify`] | the `verify` command after its arguments were read: an MCP server, a well-known source, or both compared |
//! | [`report`] | which skills and files were checked, each one's status and reason, the table, the JSON lines, the exit status |
//! | [`wellknown`] | the run over a well-known skills source (Agent Skills Discovery RFC) |

pub mod report;
pub mod verify;
pub mod wellknown;
