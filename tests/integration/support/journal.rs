//! A journal read from outside the daemon: `ccrelay journal export` and `verify`, and the
//! entries refused from mail, read from its SQLite file.

use std::path::Path;

use super::process::ccrelay;

/// `ccrelay journal export` of one game in one format; it must succeed, and end with its
/// signature line, which this returns the record without (tests/integration/receipts.rs
/// checks the signature).
pub fn journal_export(config: &Path, game: &str, format: &str) -> String {
    let signed = journal_export_signed(config, game, format);
    let at = signed
        .rfind("% ccrelay-signature v1 ")
        .unwrap_or_else(|| panic!("no signature line in {signed}"));
    signed[..at].to_owned()
}

/// `ccrelay journal export` as written, signature line included.
fn journal_export_signed(config: &Path, game: &str, format: &str) -> String {
    let out = ccrelay()
        .args([
            "journal", "export", "--game", game, "--format", format, "--config",
        ])
        .arg(config)
        .output()
        .expect("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `ccrelay journal verify` passes on the config's journal.
pub fn assert_journal_verifies(config: &Path) {
    let verify = ccrelay()
        .args(["journal", "verify", "--config"])
        .arg(config)
        .output()
        .expect("verify");
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    assert!(String::from_utf8_lossy(&verify.stdout).contains("hash chain intact"));
}

/// Rejected journal entries from mail: (player, reason).
pub fn email_rejections(config: &Path) -> Vec<(String, String)> {
    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let mut stmt = conn
        .prepare("SELECT player, detail FROM entries WHERE kind = 'rejected' AND channel = 'email' ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}
