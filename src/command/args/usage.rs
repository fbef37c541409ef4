//! The usage text of both commands, whole and per subcommand.

use super::verify::TOKEN_ENV;
use super::{Program, DEFAULT_TIMEOUT_MS};
use crate::pack;
use crate::settings::{self, Scope, SETTINGS};

/// The usage of `verify`, as both commands print it (inside [`usage`]).
pub(crate) fn verify_usage() -> String {
    format!(
        "    skills-edge verify <url> [--era auto|2026-07-28|2025-11-25] [--header 'Name: value']...
                       [--token TOKEN] [--skill URI] [--json] [--timeout MS]
                       [--trust KEYFILE]... [--pins FILE] [--allow-dynamic]
        List every skill of the MCP server at <url> (Streamable HTTP), load and verify every
        file (size, SHA-256, frontmatter; refreshing a stale entry once), check each signed
        skill's signature, list every directory when the server supports it, and print a
        table, or with --json one JSON object per skill. --era picks the protocol revision
        (default auto: 2026-07-28, else 2025-11-25); --header adds a request header
        (repeatable); --token sends `Authorization: Bearer TOKEN` to the server's origin
        only (default: the {TOKEN_ENV} environment variable; a 401 names the server's
        authorization server and scopes); --skill checks one skill (its SKILL.md URI);
        --timeout bounds each request (milliseconds, default {DEFAULT_TIMEOUT_MS}). --trust
        names a public key file (a JWK, repeatable): every skill must then be signed by one
        of them. --pins keeps the signer each origin was first seen with in FILE (read if it
        exists, written after the run): a skill signed by another key, for another catalog,
        or unsigned from a pinned origin fails. Without either, signatures are checked when
        present and reported. --header and --token go only to the origin of <url>: GETs
        follow at most 5 redirects, and a hop to another origin gets neither. A dynamic
        skill (no manifest: only its frontmatter can be checked) fails the run unless
        --allow-dynamic accepts unverifiable skills; a skill listed with a manifest and then
        served as dynamic is downgraded and always fails. Exit status 0 when everything
        verifies, 1 when something does not (a signature check and a dynamic skill
        included), 2 for usage or connection errors.
    skills-edge verify <url>/.well-known/agent-skills/index.json [--json] [--header …] [--timeout MS]
                       [--trust KEYFILE]... [--pins FILE] [--allow-dynamic]
    skills-edge verify --well-known <origin> [--json] [--header …] [--timeout MS] [--trust …] [--pins …]
        Read the Agent Skills Discovery index (RFC v0.2.0, or v0.1.0 without $schema) instead
        of speaking MCP: check every artifact's SHA-256, unpack archives safely, run the
        compiler's checks on every file, compare the index's name and description with the
        frontmatter, and check the signature the index names against the files. --well-known
        takes an origin (https://host) and reads its index.
    skills-edge verify <mcp url> --cross-check [...]
        Verify the MCP server, then the index of the same origin, and check that both publish
        the same bytes (every archived file's digest equals the MCP entry's).
"
    )
}

/// The `stdio` options for the usage text, from the settings table.
fn stdio_options() -> String {
    let mut out = String::new();
    let shown = |s: &&settings::Setting| {
        s.scope == Scope::Responder || s.key == crate::server::SettingKey::Scopes
    };
    for s in SETTINGS.iter().filter(shown) {
        out.push_str(&format!(
            "        {} VALUE\n            {}; default: {}; {}\n",
            s.flag,
            s.doc,
            s.default,
            s.form()
        ));
    }
    out
}

/// The usage of `check`.
const CHECK: &str =
    "    skills-edge check <dir> [--strict] [--skip-invalid] [--sign PATH [--catalog-id ID]]
                      [--oms-sign PATH]
        Check a skills folder; print the entries it would publish (JSON) on stdout,
        problems on stderr; exit status 1 when the folder cannot be published. With
        --sign, also the signing key's id and the catalog identity (stderr).
";

/// The synopsis of `pack`, which each program continues.
const PACK: &str = "    skills-edge pack <dir> (-o <file> | --check) [--instructions TEXT] [--strict] [--skip-invalid]
                     [--sign PATH [--catalog-id ID]] [--oms-sign PATH]\n";

/// The usage of `keygen`.
const KEYGEN: &str = "    skills-edge keygen --out <dir>
        Make an Ed25519 signing key: <dir>/signing.key (the secret, a JWK; keep it private,
        mode 0600) and <dir>/signing.pub (the public key, a JWK), creating <dir> if needed
        and never replacing either file. Prints the key's id (its RFC 7638 thumbprint).
";

/// The usage of `keygen --oms` (the native command only).
const KEYGEN_OMS: &str = "    skills-edge keygen --out <dir> --oms
        Make an ECDSA P-256 key for OpenSSF Model Signing instead: <dir>/oms.key and
        <dir>/oms.pub (PEM, the files model_signing's key mode reads). Prints its hint.
";

/// `--sign`, `--catalog-id` and `--oms-sign`, shared by `check`, `pack` and `worker`.
const SIGN: &str =
    "    --sign PATH: sign every skill with the secret key in PATH (signing.key of keygen):
        each entry, the mirror and the pack carry a DSSE envelope over the skill's files.
        --catalog-id ID: the identity the signatures name (1 to 256 visible ASCII
        characters; default: the key's id).
    --oms-sign PATH: every skill also gets an OpenSSF Model Signing signature,
        <skill>/skill.oms.sig, with the P-256 key in PATH (oms.key of the native
        keygen --oms); model_signing verify key checks an installed skill.
";

/// `pack --check`.
const PACK_CHECK: &str =
    "        --check prints the entries instead of writing. Exit status 1 on any error.\n";

/// The usage of `worker` (the npm package's command only); `inline_max` is the default of
/// `--inline-max`.
fn worker_usage(inline_max: u64) -> String {
    format!(
        "    skills-edge worker <dir> --out <dir> [--name NAME] [--allowed-hosts HOST,HOST]
                       [--var NAME=VALUE]... [--route HOST | --route PATTERN@ZONE]...
                       [--inline-max BYTES] [--strict] [--skip-invalid] [--force]
                       [--sign PATH [--catalog-id ID] | --unsigned] [--oms-sign PATH]
        Write a Cloudflare Worker project serving the folder into --out: wrangler.toml,
        package.json (wrangler pinned), the prebuilt Worker and the folder's pack, with every
        file larger than BYTES (default {inline_max}; 0: every non-empty file) as a Static
        Asset. Then: cd <out> && npm install && npx wrangler dev (local), or npx wrangler
        login && npx wrangler deploy. Run it again after changing the skills: it rewrites
        worker/ (the Worker, the pack, the assets) and keeps wrangler.toml, package.json and
        .gitignore as you edited them (package.json gets this version's wrangler); a folder
        it did not make is refused unless --force. --name: the Worker's name (default
        skills-edge; a new wrangler.toml only), its URL https://NAME.SUBDOMAIN.workers.dev/mcp.
        --allowed-hosts: Host names accepted besides localhost, 127.0.0.1, [::1] and
        *.workers.dev (your custom domains). --var NAME=VALUE sets a Worker var in
        wrangler.toml's [vars] (FALLBACK=tools, AUTH_MODE=jwt, ...). --route adds a custom
        domain (a host name alone) or a route on a zone (PATTERN@ZONE) to wrangler.toml and
        accepts its host name. --sign: the Worker serves signed skills (the key itself is not
        copied into the project); a rebuild of a Worker that served signed skills needs the key
        again (--sign or SKILLS_SIGNING_KEY), or --unsigned to serve them unsigned on purpose.
"
    )
}

/// The parts of the usage text of `program`: each subcommand's own text, and the options
/// `check`, `pack` and `worker` share.
struct Usage {
    head: &'static str,
    /// `(subcommand, its text)`, in the order the whole usage lists them.
    commands: Vec<(&'static str, String)>,
    /// `--strict`, `--skip-invalid`, `--sign` and the environment, for `check`, `pack` and
    /// `worker`.
    shared: String,
}

fn usage_parts(program: Program) -> Usage {
    let inline_max = pack::DEFAULT_INLINE_MAX;
    let (head, mut commands, env_applies) = match program {
        Program::Native => (
            "skills-edge: serve and verify Agent Skills over MCP\n",
            vec![
                (
                    "stdio",
                    format!(
                        "    skills-edge stdio [OPTIONS]
        Serve the embedded skills over stdio (newline-delimited JSON-RPC). Exits on end of input.
        OPTIONS (each at most once):
{stdio}",
                        stdio = stdio_options()
                    ),
                ),
                ("check", CHECK.to_owned()),
                (
                    "pack",
                    format!(
                        "{PACK}                     [--assets DIR [--inline-max BYTES]]
        Compile a skills folder into a pack (served by the npm package's SkillsServer);
{PACK_CHECK}        --assets DIR leaves every file larger than BYTES (default {inline_max}) out of the
        pack and writes it into DIR as two files named by its SHA-256: <hex> (its bytes) and
        <hex>.json (its resources/read JSON string), for the Cloudflare Worker's Static
        Assets. DIR is created if missing; files already in it are overwritten or left as
        they are, so give a fresh folder.
"
                    ),
                ),
            ],
            "check and pack",
        ),
        Program::Npm => (
            "skills-edge: compile Agent Skills into a pack for skills-edge's SkillsServer, and verify
the skills an MCP server serves
",
            vec![
                (
                    "pack",
                    format!(
                        "{PACK}        Compile a skills folder into a pack (load it with new SkillsServer({{ pack }}));
{PACK_CHECK}"
                    ),
                ),
                ("check", CHECK.to_owned()),
                (
                    "worker",
                    worker_usage(inline_max),
                ),
            ],
            "check, pack and worker",
        ),
    };
    commands.push((
        "keygen",
        match program {
            Program::Native => format!("{KEYGEN}{KEYGEN_OMS}"),
            Program::Npm => KEYGEN.to_owned(),
        },
    ));
    commands.push(("verify", verify_usage()));
    let shared = format!(
        "    --strict: frontmatter the official MCP TypeScript SDK 2.4 cannot read
        (frontmatter-sdk-* warnings) is an error.
    --skip-invalid: an invalid skill is left out (its errors become warnings naming it)
        and the other skills are published.
{SIGN}    SKILLS_STRICT=1 and SKILLS_ON_INVALID=skip in the environment turn --strict and
        --skip-invalid on for {env_applies}, as they do for the build;
        SKILLS_SIGNING_KEY=PATH, SKILLS_CATALOG_ID=ID and SKILLS_OMS_KEY=PATH give --sign,
        --catalog-id and --oms-sign.
"
    );
    Usage {
        head,
        commands,
        shared,
    }
}

/// The usage text `program` prints for `--help` and after a usage error.
pub fn usage(program: Program) -> String {
    let u = usage_parts(program);
    let text = |name: &str| {
        u.commands
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
            .unwrap_or_default()
    };
    // The subcommands that build a catalog, then their shared options, then the others.
    let building: String = u
        .commands
        .iter()
        .filter(|(n, _)| !matches!(*n, "keygen" | "verify"))
        .map(|(_, t)| t.as_str())
        .collect();
    // publish and gc read their own flags (crate::command::publish), the same for both
    // programs; their usage closes the list.
    let r2 = super::super::publish::USAGE.trim_start_matches("usage:\n");
    format!(
        "{head}
USAGE:
{building}{shared}{keygen}{verify}    skills-edge --version | --help

  R2 catalogs (docs/serving.md, \"Update skills without redeploying\"):
{r2}
",
        head = u.head,
        shared = u.shared,
        keygen = text("keygen"),
        verify = text("verify"),
    )
}

/// The usage of one subcommand of `program` (what `skills-edge COMMAND --help` prints): its
/// own text, and for `check`, `pack` and `worker` the options they share. `None` for a name
/// that is not one of `program`'s subcommands.
pub(crate) fn command_usage(program: Program, command: &str) -> Option<String> {
    let u = usage_parts(program);
    let (name, own) = u.commands.iter().find(|(n, _)| *n == command)?;
    let shared = if matches!(*name, "check" | "pack" | "worker") {
        u.shared.as_str()
    } else {
        ""
    };
    Some(format!("USAGE:\n{own}{shared}"))
}
