//! Which key signs a journal: the key file found (or created) for it, the chain's own note of
//! it (a `signing_key` entry), a rotation to a new key (a `key_rotation` entry signed by the
//! old key), and the lock that keeps a rotation and a running daemon apart.
//!
//! A rotation writes the new key to `FILE.new` first, then commits its entry, then renames
//! `FILE.new` over `FILE`. A crash between the commit and the rename leaves the chain naming
//! the new key and `FILE.new` holding it: [`for_journal`] finishes the rename at the next
//! start. A crash before the commit leaves a `FILE.new` the chain does not name; the next
//! rotation replaces it.

use std::path::Path;

use rusqlite::Connection;

use super::signing::{Key, KeyHistory, RotationDetail, head_message, rotation_message, sibling};
use super::{EntryKind, JournalError, NewEntry, store};

/// The lock file under the data directory.
pub const LOCK_FILE: &str = "journal.lock";

/// Takes the journal's write lock (an advisory lock on `journal.lock`, released when the
/// file is closed or the process ends, however it ends).
pub fn lock(data_dir: &Path) -> Result<std::fs::File, JournalError> {
    let path = data_dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| JournalError::Io(format!("{}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(JournalError::Io(format!(
            "{}: the journal is in use by another process (a running daemon?)",
            data_dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(JournalError::Io(format!("{}: {e}", path.display())))
        }
    }
}

/// The key that signs the journal whose chain names `keys`, from `path`: created there if
/// the chain names no key and the file does not exist; otherwise it must be the chain's
/// current key (or, after a rotation cut short, `path.new` must be, and is moved into place).
pub fn for_journal(path: &Path, keys: &KeyHistory) -> Result<Key, JournalError> {
    let Some((since, current)) = keys.current() else {
        if path.exists() {
            return Key::read(path);
        }
        let key = Key::generate()?;
        key.write_new(path)?;
        tracing::info!(public_key = %key.public(), file = %path.display(), "new signing key");
        return Ok(key);
    };
    let pending = sibling(path, ".new");
    if pending.exists() {
        let key = Key::read(&pending)?;
        if key.public() == current {
            crate::durable::rename(&pending, path)
                .map_err(|e| JournalError::Key(format!("{}: {e}", path.display())))?;
            key.write_public(path)?;
            tracing::info!(public_key = %current, "finished a key rotation cut short");
            return Ok(key);
        }
    }
    if !path.exists() {
        return Err(JournalError::Key(format!(
            "{} is missing, and the journal is signed by key {current} (since entry {since}): restore the key file",
            path.display()
        )));
    }
    let key = Key::read(path)?;
    if key.public() != current {
        return Err(JournalError::Key(format!(
            "{} holds key {}, but the journal is signed by key {current} (since entry {since}): restore that key, or rotate with `ccrelay journal rotate-key`",
            path.display(),
            key.public()
        )));
    }
    Ok(key)
}

/// Appends one entry, with the head after it signed by `signer`, in one transaction.
fn append_signed(
    conn: &Connection,
    entry: NewEntry,
    signer: &Key,
    detail: impl FnOnce(i64, &[u8; 32]) -> String,
) -> Result<i64, JournalError> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let result = (|| {
        let (seq, prev) = store::tail(conn)?;
        let mut entry = entry;
        entry.detail = detail(seq + 1, &prev);
        let written = store::insert_entry(conn, seq + 1, &prev, entry)?;
        let signature = signer.sign(&head_message(written.seq, &written.hash));
        store::insert_signature(
            conn,
            written.seq,
            &written.hash,
            &signer.public(),
            &signature,
        )?;
        Ok(written.seq)
    })();
    match result {
        Ok(seq) => {
            conn.execute_batch("COMMIT")?;
            Ok(seq)
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Names `key` in the chain: a `signing_key` entry, the head after it signed by it.
pub fn announce(conn: &Connection, key: &Key) -> Result<i64, JournalError> {
    let entry = NewEntry::new(
        "",
        "relay",
        "relay",
        EntryKind::SigningKey,
        &key.public().hex(),
    );
    let seq = append_signed(conn, entry, key, |_, _| String::new())?;
    tracing::info!(public_key = %key.public(), entry = seq, "the journal names its signing key");
    Ok(seq)
}

/// Rotates the journal at `path`'s key: a new key, written to `path.new`; a `key_rotation`
/// entry naming it, signed by `old`, and the head after it signed by the new key; then the
/// new key moved over the old. Returns the new key and the rotation's entry number. The
/// caller holds the journal's [`lock`].
pub fn rotate(conn: &Connection, path: &Path, old: &Key) -> Result<(Key, i64), JournalError> {
    let new = Key::generate()?;
    let pending = sibling(path, ".new");
    let _ = std::fs::remove_file(&pending);
    new.write_new(&pending)?;
    let entry = NewEntry::new(
        "",
        "relay",
        "admin",
        EntryKind::KeyRotation,
        &new.public().hex(),
    );
    let seq = append_signed(conn, entry, &new, |seq, prev| {
        let detail = RotationDetail {
            old: old.public().hex(),
            new: new.public().hex(),
            signature: hex::encode(old.sign(&rotation_message(seq, prev, &new.public()))),
        };
        serde_json::to_string(&detail).unwrap_or_default()
    })?;
    crate::durable::rename(&pending, path)
        .map_err(|e| JournalError::Key(format!("{}: {e}", path.display())))?;
    new.write_public(path)?;
    // The `.pub` of the pending file is not needed.
    let _ = std::fs::remove_file(super::signing::public_path(&pending));
    Ok((new, seq))
}

/// The keys the chain names, read from its key entries alone (each rotation checked against
/// the hash before it); the whole chain is checked by `verify`, not here.
pub fn history(conn: &Connection) -> Result<KeyHistory, JournalError> {
    let mut keys = KeyHistory::default();
    let kinds = EntryKind::KEYS;
    let mut seqs: Vec<i64> = Vec::new();
    {
        let mut stmt =
            conn.prepare("SELECT seq FROM entries WHERE kind IN (?1, ?2) ORDER BY seq")?;
        let rows = stmt.query_map(
            rusqlite::params![kinds[0].as_str(), kinds[1].as_str()],
            |r| r.get::<_, i64>(0),
        )?;
        for row in rows {
            seqs.push(row?);
        }
    }
    for seq in seqs {
        let prev = match seq {
            1 => [0; 32],
            n => store::entry_hash(conn, n - 1)?.unwrap_or([0; 32]),
        };
        if let Some(e) = store::entry(conn, seq)? {
            keys.observe(&e, &prev)?;
        }
    }
    Ok(keys)
}
