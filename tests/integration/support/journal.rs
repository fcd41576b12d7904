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

/// `ccrelay journal verify` passes on the config's journal; returns what it printed.
pub fn assert_journal_verifies(config: &Path) -> String {
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
    let said = String::from_utf8_lossy(&verify.stdout).into_owned();
    assert!(said.contains("hash chain intact"), "{said}");
    said
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

/// Recomputes the chain from entry `from` on (as a forger would, without the key).
pub fn rehash_from(conn: &rusqlite::Connection, from: i64) {
    use ccrelay::journal::store;
    let mut prev = store::entry_hash(conn, from - 1)
        .unwrap()
        .unwrap_or([0; 32]);
    let mut entries = Vec::new();
    store::for_each_entry(conn, None, |e| {
        if e.seq >= from {
            entries.push(e);
        }
        Ok(())
    })
    .unwrap();
    for e in entries {
        let hash = store::chain_hash(&prev, &e);
        conn.execute(
            "UPDATE entries SET hash = ?1 WHERE seq = ?2",
            rusqlite::params![&hash[..], e.seq],
        )
        .unwrap();
        prev = hash;
    }
}
