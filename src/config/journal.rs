//! `[journal]`: where the relay's signing key is.

use std::path::PathBuf;

use serde::Deserialize;

use super::check::Checker;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJournal {
    signing_key: Option<PathBuf>,
}

/// The journal's settings.
#[derive(Clone, Debug, Default)]
pub struct JournalConfig {
    /// The Ed25519 key file that signs the record; `signing.key` in the data directory when
    /// not set (created there on first start).
    pub signing_key: Option<PathBuf>,
}

/// Checks `[journal]`: a key path, relative to the configuration's folder.
pub(super) fn check(c: &mut Checker, raw: Option<RawJournal>) -> JournalConfig {
    let raw = raw.unwrap_or_default();
    let signing_key = raw.signing_key.map(|p| {
        if p.as_os_str().is_empty() {
            c.problem("journal.signing_key", "an empty path");
        }
        c.path(p)
    });
    JournalConfig { signing_key }
}
