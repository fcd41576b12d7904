//! The SQLite file: schema, the hash chain, and the statements. Synchronous; only the writer
//! thread and the offline tools (`journal verify`, `journal export`) open it.
//!
//! Opening the file is here; the rest by what it stores: `schema.rs` the tables and the
//! upgrade of a file an earlier release wrote, `entries.rs` the chain of entries (with what
//! is kept beside an entry: its idempotency key, a player's secret, a move's languages),
//! `outbox.rs` the items waiting for their readers, `signatures.rs` the signed heads.

use std::path::Path;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

use super::JournalError;

mod entries;
mod outbox;
mod schema;
mod signatures;

pub use super::entry::hash::chain_hash;
pub use entries::{
    credentials, entry, entry_hash, for_each_entry, for_each_entry_between,
    for_each_game_entry_until, insert_entry, move_langs, seen, tail,
};
pub use outbox::{insert_outbox, mark_delivered, pending};
pub use signatures::{for_each_signature, insert_signature, signature_covering};

/// The file name under the data directory.
pub const FILE_NAME: &str = "journal.sqlite3";

/// Opens (creating if needed) the journal with WAL and `synchronous=FULL`: a commit that
/// returns is on disk. The data directory, when made here, is synced into its parent: SQLite
/// syncs the folder it creates the journal in, not the folders above.
///
/// With `secure_delete`: a deleted row's bytes are overwritten with zeros, not left in the
/// file's free space. A welcome's outbox row holds the new player's secret until the mail
/// is sent; once it is deleted, the secret is nowhere in the file (and, once the log is
/// checkpointed, nowhere in the `-wal` either).
pub fn open(data_dir: &Path) -> Result<Connection, JournalError> {
    crate::durable::create_dir_all(data_dir)
        .map_err(|e| JournalError::Io(format!("{}: {e}", data_dir.display())))?;
    let conn = Connection::open(data_dir.join(FILE_NAME))?;
    plan_once(&conn)?;
    conn.pragma_update(None, "secure_delete", "ON")?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.execute_batch(schema::SCHEMA)?;
    // Journals from before welcome mails have no column for a row that holds a secret.
    let has_sensitive: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('outbox') WHERE name = 'sensitive'")?
        .exists([])?;
    if !has_sensitive {
        conn.execute_batch("ALTER TABLE outbox ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0")?;
    }
    schema::migrate(&conn)?;
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(player, id) WHERE delivered_at IS NULL",
    )?;
    Ok(conn)
}

/// Whether the journal has the table `name`: one opened for reading only (`journal verify`)
/// keeps the tables of the version that wrote it.
fn has_table(conn: &Connection, name: &str) -> Result<bool, JournalError> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")?
        .exists([name])?)
}

/// Opens an existing journal for reading only. Without SQLite's own mutex, as
/// `Connection::open` opens: a connection is used by one thread at a time (it is not `Sync`),
/// and the mutex taken on every column read was an eighth of the time of the thread that
/// checks the second half of the chain at start.
pub fn open_read_only(data_dir: &Path) -> Result<Connection, JournalError> {
    let path = data_dir.join(FILE_NAME);
    if !path.exists() {
        return Err(JournalError::Io(format!(
            "{}: no journal here",
            path.display()
        )));
    }
    let conn = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    plan_once(&conn)?;
    Ok(conn)
}

/// Makes a statement's plan independent of the values bound to it (SQLite's query planner
/// stability guarantee). Without it SQLite marks a parameter compared with `=` as one whose
/// value might change the plan (a column equal to 0 or 1 is planned as a flag), and rusqlite
/// clears a cached statement's bindings when it is put back, which throws the plan away: the
/// outbox query of every login was parsed and planned again, about as many instructions as a
/// whole relayed move. No query here has a better plan for some values than for others.
fn plan_once(conn: &Connection) -> Result<(), JournalError> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    Ok(())
}

/// [`open_read_only`], for reading every entry once (a start's check of the chain): through
/// SQLite's memory map of the file (up to its own limit, 2 GiB), which spares a copy of every
/// page read, about a twelfth of that check's CPU. A disk's read error in the mapped part
/// stops the process with a signal instead of returning an error; a start is the only
/// reader, and it refuses to start either way.
pub fn open_for_scan(data_dir: &Path) -> Result<Connection, JournalError> {
    let conn = open_read_only(data_dir)?;
    conn.pragma_update(None, "mmap_size", 1i64 << 40)?;
    Ok(conn)
}

/// A hash as stored; a wrong length reads as zeros, which match nothing (the chain check
/// names such an entry).
fn hash32(bytes: &[u8]) -> [u8; 32] {
    bytes.try_into().unwrap_or([0; 32])
}

#[cfg(test)]
mod tests;
