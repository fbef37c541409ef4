//! `skills-edge check` and `skills-edge pack`: the library's run ([`skills_edge::command::pack`])
//! over the operating system's files and terminal. The arguments are read by
//! `skills_edge::command::args`.

use skills_edge::command::args::PackArgs;
use std::process::ExitCode;

/// `check` and `pack`: compile the folder; print the entries (checking) or write the pack.
pub(crate) fn pack_command(a: &PackArgs) -> ExitCode {
    // The scratch folder is the publish run's only: `check` and `pack` never use it.
    ExitCode::from(skills_edge::command::pack::run(
        a,
        &crate::publish::native_io(""),
    ))
}
