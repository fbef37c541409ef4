//! `refused!`, the tests' reader of a typed refusal, for the catalog modules' tests and the
//! library's (declared first, with `#[macro_use]`, in the roots of the library and of `build.rs`).

#[cfg(any(test, feature = "internals"))]
#[macro_export]
/// The refusal a `Result` holds, checked to be of `kind` (the `kind` field of the typed
/// errors, such as [`crate::pack::PackError`]): its message. The one reader of a typed refusal for
/// the tests (unit tests, and with the feature `internals`).
macro_rules! refused {
    ($result:expr, $kind:expr $(,)?) => {
        match $result {
            Ok(_) => panic!("accepted where a refusal ({:?}) was expected", $kind),
            Err(e) => {
                assert_eq!(e.kind, $kind, "{e}");
                e.to_string()
            }
        }
    };
}
