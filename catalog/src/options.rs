//! The build options, read here and nowhere else: `build.rs` (the embedded catalog), the
//! native and npm `skills-edge check` and `skills-edge pack`, the npm `skills-edge worker`, and
//! `scripts/build-worker.sh` and `scripts/serve.sh` (which run `skills-edge pack`) all take
//! them from these functions, so each means the same everywhere:
//!
//! | environment | flag | meaning |
//! |---|---|---|
//! | `SKILLS_ON_INVALID=skip` | `--skip-invalid` | leave each invalid skill out, publish the rest ([`Options::skip_invalid`]) |
//! | `SKILLS_STRICT=1` | `--strict` | frontmatter the official TypeScript SDK cannot read is an error ([`Options::strict`]) |
//! | | `--inline-max BYTES` | files up to BYTES stay in the pack, larger ones are assets ([`crate::pack::AssetPolicy`]) |
//!
//! The variables give the defaults; a flag turns its option on whatever the variable says.
//! The embedded catalog has no assets, so `--inline-max` is for packs only.
//!
//! ```
//! use skills_edge_catalog::options;
//! let o = options::from_env(|v| (v == "SKILLS_ON_INVALID").then(|| "skip".to_owned())).unwrap();
//! assert!(o.skip_invalid && !o.strict);
//! assert!(options::from_env(|v| (v == "SKILLS_STRICT").then(|| "yes".to_owned())).is_err());
//! assert_eq!(options::inline_max("--inline-max", "16384"), Ok(16384));
//! ```

use crate::compile::Options;

/// The variable that leaves invalid skills out (`skip`) or stops on any error (`fail`).
pub const ON_INVALID: &str = "SKILLS_ON_INVALID";

/// The variable that turns strict mode on (`1`) or off (`0`).
pub const STRICT: &str = "SKILLS_STRICT";

/// The compile options from the environment: `get` returns a variable's value, `None` when
/// it is unset. An unknown value is an error naming the variable, the value and the fix
/// (without a leading `error: `, which the caller adds).
pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Options, String> {
    let strict = match get(STRICT).as_deref() {
        None | Some("" | "0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(format!("{STRICT} is {other:?}\n  fix: set {STRICT}=1 for strict mode (frontmatter every host can read), or 0 or nothing for the default"));
        }
    };
    let skip_invalid = match get(ON_INVALID).as_deref() {
        None | Some("" | "fail") => false,
        Some("skip") => true,
        Some(other) => {
            return Err(format!("{ON_INVALID} is {other:?}\n  fix: set {ON_INVALID}=skip to leave invalid skills out and publish the rest, or fail (or nothing) to stop the build on any error"));
        }
    };
    Ok(Options {
        strict,
        skip_invalid,
    })
}

/// The value of `--inline-max` (named `name` in the error): a decimal number of bytes.
pub fn inline_max(name: &str, value: &str) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|_| value.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            format!(
                "{name} {value:?} is not a number of bytes: use a decimal integer such as 16384"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn variables_give_the_options() {
        assert_eq!(from_env(env(&[])), Ok(Options::default()));
        let o = from_env(env(&[(STRICT, "1"), (ON_INVALID, "skip")])).unwrap();
        assert!(o.strict && o.skip_invalid);
        let o = from_env(env(&[(STRICT, "0"), (ON_INVALID, "fail")])).unwrap();
        assert!(!o.strict && !o.skip_invalid);
        assert_eq!(
            from_env(env(&[(STRICT, ""), (ON_INVALID, "")])),
            Ok(Options::default())
        );
    }

    #[test]
    fn unknown_values_are_refused_with_the_fix() {
        let e = from_env(env(&[(STRICT, "true")])).unwrap_err();
        assert!(
            e.starts_with("SKILLS_STRICT is \"true\"\n  fix: set SKILLS_STRICT=1"),
            "{e}"
        );
        let e = from_env(env(&[(ON_INVALID, "ignore")])).unwrap_err();
        assert!(
            e.starts_with("SKILLS_ON_INVALID is \"ignore\"\n  fix: set SKILLS_ON_INVALID=skip"),
            "{e}"
        );
    }

    #[test]
    fn inline_max_is_a_decimal_number_of_bytes() {
        assert_eq!(inline_max("--inline-max", "0"), Ok(0));
        for bad in ["", "-1", "+5", "1e3", " 5", "0x10", "99999999999999999999"] {
            let e = inline_max("--inline-max", bad).unwrap_err();
            assert_eq!(e, format!("--inline-max {bad:?} is not a number of bytes: use a decimal integer such as 16384"));
        }
    }
}
