//! The files under `tests/fixtures/`: seed games with their expectations, real games, golden
//! mails, an old journal.

use std::path::PathBuf;

/// The path of `path` under `tests/fixtures/`.
pub fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

/// The text of `path` under `tests/fixtures/`; panics naming it if it cannot be read.
pub fn read_fixture(path: &str) -> String {
    std::fs::read_to_string(fixture(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}
