//! The tables of the journal's file, and the steps that bring a file an earlier release
//! wrote to this build's layout ([`LAYOUT_VERSION`]).

use rusqlite::Connection;

use crate::journal::JournalError;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS entries (
    seq     INTEGER PRIMARY KEY,
    time    TEXT NOT NULL,
    game    TEXT NOT NULL,
    player  TEXT NOT NULL,
    channel TEXT NOT NULL,
    kind    TEXT NOT NULL,
    text    TEXT NOT NULL,
    iccf    TEXT,
    san     TEXT,
    detail  TEXT NOT NULL,
    hash    BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_game ON entries(game, seq);
CREATE TABLE IF NOT EXISTS outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    player       TEXT NOT NULL,
    game         TEXT NOT NULL,
    seq          INTEGER NOT NULL REFERENCES entries(seq),
    body         TEXT NOT NULL,
    delivered_at TEXT,
    sensitive    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inbound_keys (
    key TEXT PRIMARY KEY,
    seq INTEGER NOT NULL REFERENCES entries(seq)
);
CREATE TABLE IF NOT EXISTS credentials (
    player TEXT PRIMARY KEY,
    hash   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS move_langs (
    seq   INTEGER PRIMARY KEY REFERENCES entries(seq),
    langs TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS signatures (
    seq       INTEGER PRIMARY KEY,
    hash      BLOB NOT NULL,
    key       BLOB NOT NULL,
    signature BLOB NOT NULL
);
";

/// The layout version this build writes (`PRAGMA user_version`). 0: delivered outbox rows kept
/// with their delivery time, ids assigned as SQLite's largest rowid plus one. 1: a row is
/// removed when its reader acknowledges it, so ids come from `AUTOINCREMENT` (never one given
/// before: a session's cursor and a reader's `ACK n` stay meaningful when the newest rows have
/// been removed). 2: a row that refers to its entry says so (`of_entry`, its body empty)
/// instead of holding the placeholder body `{"move_in_record":{}}`.
pub(super) const LAYOUT_VERSION: i64 = 2;

/// What a row of layout 1 held for a move the relay relayed: a placeholder naming no entry,
/// its entry being the row's own.
pub(super) const MOVE_IN_RECORD: &str = r#"{"move_in_record":{}}"#;

/// Brings a journal written by an earlier release to [`LAYOUT_VERSION`], a transaction a step.
/// From layout 0, the outbox is rebuilt with `AUTOINCREMENT`, keeping the rows not yet delivered with their
/// ids and carrying the largest id ever given on; the rows already delivered are dropped (kept
/// only as a log that nothing reads, they were most of the file). From layout 1, the rows of
/// relayed moves are marked as referring to their entries ([`LAYOUT_VERSION`]).
pub(super) fn migrate(conn: &Connection) -> Result<(), JournalError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version < 1 {
        to_layout_1(conn)?;
    }
    if version < 2 {
        // The rows of a relayed move say that they refer to their entry; the rows still
        // waiting when an older build stopped are delivered as they would have been.
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE;
             ALTER TABLE outbox ADD COLUMN of_entry INTEGER NOT NULL DEFAULT 0;
             UPDATE outbox SET of_entry = 1, body = '' WHERE body = '{MOVE_IN_RECORD}';
             PRAGMA user_version = {LAYOUT_VERSION};
             COMMIT;"
        ))?;
    }
    Ok(())
}

/// Layout 0 to 1: see [`migrate`].
fn to_layout_1(conn: &Connection) -> Result<(), JournalError> {
    conn.execute_batch(
        "BEGIN IMMEDIATE;
         CREATE TEMP TABLE outbox_last AS SELECT coalesce(max(id), 0) AS id FROM outbox;
         CREATE TABLE outbox_v1 (
             id           INTEGER PRIMARY KEY AUTOINCREMENT,
             player       TEXT NOT NULL,
             game         TEXT NOT NULL,
             seq          INTEGER NOT NULL REFERENCES entries(seq),
             body         TEXT NOT NULL,
             delivered_at TEXT,
             sensitive    INTEGER NOT NULL DEFAULT 0
         );
         INSERT INTO outbox_v1 (id, player, game, seq, body, delivered_at, sensitive)
             SELECT id, player, game, seq, body, delivered_at, sensitive FROM outbox
             WHERE delivered_at IS NULL ORDER BY id;
         DROP TABLE outbox;
         ALTER TABLE outbox_v1 RENAME TO outbox;
         DELETE FROM sqlite_sequence WHERE name = 'outbox';
         INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox', id FROM temp.outbox_last;
         DROP TABLE temp.outbox_last;
         PRAGMA user_version = 1;
         COMMIT;",
    )?;
    Ok(())
}
