//! The `skills-edge` command, without its I/O: its arguments and usage text, the `check` and
//! `pack` run, `publish` and `gc`, the `verify` run and its report, shared by the native command (crate `skills-edge-cli`), the npm package's
//! command and the npm package's `SkillsClient.verify`. Feature `command` (the native command
//! and the `js` feature turn it on); it adds no dependency.
//!
//! | module | what it is |
//! |---|---|
//! | [`args`] | the command lines of both commands read once (`check`, `pack`, `verify`, and each one's own subcommand), the usage text, the `--timeout` default and bounds |
//! | [`keygen`] | the `keygen` command's files and messages (the seed and the writing are each command's) |
//! | [`pack`] | `check` and `pack`: the folder compiled, its entries printed or its pack (and assets) written (the files and terminal are the caller's, [`publish::Io`]) |
//! | [`publish`] | `publish` and `gc`: a skills folder signed and published to an R2 bucket through wrangler, rolled back, collected (the files, processes and terminal are the caller's, [`publish::Io`]) |
//! | [`verify`] | the `verify` command after its arguments were read: an MCP server, a well-known source, or both compared |
//! | `report` | which skills and files were checked, each one's status and reason, the table, the JSON lines, the exit status |
//! | `oms` (crate-private) | OpenSSF Model Signing signatures (`skill.oms.sig`) of the skills `verify` checks, with the `--trust` files that hold PEM keys |
//! | `wellknown` (crate-private) | the run over a well-known skills source (Agent Skills Discovery RFC), reached through [`verify`] |

// A line (`format!`'s arguments) to the caller's standard error.
macro_rules! err {
    ($io:expr, $($t:tt)*) => {
        ($io.stderr)(&format!("{}\n", format!($($t)*)))
    };
}

// A line (`format!`'s arguments) to the caller's standard output.
macro_rules! out {
    ($io:expr, $($t:tt)*) => {
        ($io.stdout)(&format!("{}\n", format!($($t)*)))
    };
}

pub mod args;
pub mod keygen;
pub(crate) mod oms;
pub mod pack;
pub mod publish;
internal_mod!(report);

pub use report::{escape_for_terminal, Output};
pub mod verify;
pub(crate) mod wellknown;
