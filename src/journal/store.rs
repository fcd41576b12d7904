//! The SQLite file: schema, the hash chain, and the statements. Synchronous; only the writer
//! thread and the offline tools (`journal verify`, `journal export`) open it.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

pub use super::chain::chain_hash;
use super::head::{Short, SignedHead};
use super::signing::PublicKey;
use super::{Entry, EntryKind, JournalError, NewEntry, NewOutbox, Notice, OutboxItem, Seen, Told};
use crate::notation::LangSet;

const SCHEMA: &str = "
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
    conn.execute_batch(SCHEMA)?;
    // Journals from before welcome mails have no column for a row that holds a secret.
    let has_sensitive: bool = conn
        .prepare("SELECT 1 FROM pragma_table_info('outbox') WHERE name = 'sensitive'")?
        .exists([])?;
    if !has_sensitive {
        conn.execute_batch("ALTER TABLE outbox ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0")?;
    }
    migrate(&conn)?;
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(player, id) WHERE delivered_at IS NULL",
    )?;
    Ok(conn)
}

/// The layout version this build writes (`PRAGMA user_version`). 0: delivered outbox rows kept
/// with their delivery time, ids assigned as SQLite's largest rowid plus one. 1: a row is
/// removed when its reader acknowledges it, so ids come from `AUTOINCREMENT` (never one given
/// before: a session's cursor and a reader's `ACK n` stay meaningful when the newest rows have
/// been removed). 2: a row that refers to its entry says so (`of_entry`, its body empty)
/// instead of holding the placeholder body `{"move_in_record":{}}`.
const LAYOUT_VERSION: i64 = 2;

/// What a row of layout 1 held for a move the relay relayed: a placeholder naming no entry,
/// its entry being the row's own.
const MOVE_IN_RECORD: &str = r#"{"move_in_record":{}}"#;

/// Brings a journal written by an earlier release to [`LAYOUT_VERSION`], a transaction a step.
/// From layout 0, the outbox is rebuilt with `AUTOINCREMENT`, keeping the rows not yet delivered with their
/// ids and carrying the largest id ever given on; the rows already delivered are dropped (kept
/// only as a log that nothing reads, they were most of the file). From layout 1, the rows of
/// relayed moves are marked as referring to their entries ([`LAYOUT_VERSION`]).
/// only as a log that nothing reads, they were most of the file).
fn migrate(conn: &Connection) -> Result<(), JournalError> {
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

/// Every player's secret hash registered while the relay ran (not those of the
/// configuration), by player.
pub fn credentials(
    conn: &Connection,
) -> Result<std::collections::BTreeMap<String, String>, JournalError> {
    // A read-only journal from before credentials has no such table: no credentials.
    if !has_table(conn, "credentials")? {
        return Ok(Default::default());
    }
    let mut stmt = conn.prepare("SELECT player, hash FROM credentials")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
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

/// The last entry's sequence number and hash (0 and zeros for an empty journal).
pub fn tail(conn: &Connection) -> Result<(i64, [u8; 32]), JournalError> {
    let row: Option<(i64, Vec<u8>)> = conn
        .query_row(
            "SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match row {
        None => Ok((0, [0; 32])),
        Some((seq, hash)) => {
            let hash: [u8; 32] = hash
                .try_into()
                .map_err(|_| JournalError::Corrupt(format!("entry {seq}: bad hash length")))?;
            Ok((seq, hash))
        }
    }
}

/// Appends an entry after `prev`, returning it with its sequence number and hash.
pub fn insert_entry(
    conn: &Connection,
    seq: i64,
    prev: &[u8; 32],
    new: NewEntry,
) -> Result<Entry, JournalError> {
    let key = new.key;
    let credential = new.credential;
    let langs = new.langs;
    let mut entry = Entry {
        seq,
        time: new.time.to_string(),
        game: new.game,
        player: new.player,
        channel: new.channel,
        kind: new.kind,
        text: new.text,
        iccf: new.iccf,
        san: new.san,
        detail: new.detail,
        hash: [0; 32],
    };
    entry.hash = chain_hash(prev, &entry);
    conn.prepare_cached(
        "INSERT INTO entries (seq, time, game, player, channel, kind, text, iccf, san, detail, hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        entry.seq,
        entry.time,
        entry.game,
        entry.player,
        entry.channel,
        entry.kind.as_str(),
        entry.text,
        entry.iccf,
        entry.san,
        entry.detail,
        &entry.hash[..],
    ])?;
    if let Some(key) = key {
        conn.prepare_cached("INSERT OR IGNORE INTO inbound_keys (key, seq) VALUES (?1, ?2)")?
            .execute(params![key, entry.seq])?;
    }
    if let Some((player, hash)) = credential {
        conn.prepare_cached("INSERT OR REPLACE INTO credentials (player, hash) VALUES (?1, ?2)")?
            .execute(params![player, hash])?;
    }
    if let Some(langs) = langs {
        conn.prepare_cached("INSERT INTO move_langs (seq, langs) VALUES (?1, ?2)")?
            .execute(params![entry.seq, langs.codes()])?;
    }
    Ok(entry)
}

/// The languages each move that narrowed its player's languages narrowed them to, by the
/// move's entry ([`NewEntry::langs`]), for the entries after `after`.
pub fn move_langs(conn: &Connection, after: i64) -> Result<HashMap<i64, LangSet>, JournalError> {
    // A journal written before the table, read without being opened for writing (`journal
    // verify`), has none: no move of it narrowed anything.
    if !has_table(conn, "move_langs")? {
        return Ok(HashMap::new());
    }
    let mut stmt = conn.prepare("SELECT seq, langs FROM move_langs WHERE seq > ?1")?;
    let rows = stmt.query_map(params![after], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
    })?;
    let mut out = HashMap::new();
    for row in rows {
        let (seq, codes) = row?;
        let langs = LangSet::from_codes(&codes)
            .ok()
            .filter(|l| !l.is_empty())
            .ok_or_else(|| {
                JournalError::Corrupt(format!("entry {seq}: unreadable languages {codes:?}"))
            })?;
        out.insert(seq, langs);
    }
    Ok(out)
}

/// Writes `out`, reporting entry `seq` of `game`; returns the row's id.
pub fn insert_outbox(
    conn: &Connection,
    out: &NewOutbox,
    game: &str,
    seq: i64,
) -> Result<i64, JournalError> {
    conn.prepare_cached(
        "INSERT INTO outbox (player, game, seq, body, sensitive, of_entry)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        out.player,
        game,
        seq,
        out.body(),
        out.sensitive(),
        out.of_entry()
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Removes `player`'s outbox messages up to and including `upto`, now delivered; returns how
/// many. A delivered row is not kept: it existed only to be sent again until acknowledged, and
/// what it reported stays in the entries (docs/journal.md, "The outbox").
pub fn mark_delivered(conn: &Connection, player: &str, upto: i64) -> Result<usize, JournalError> {
    Ok(conn
        .prepare_cached(
            "DELETE FROM outbox WHERE player = ?1 AND id <= ?2 AND delivered_at IS NULL",
        )?
        .execute(params![player, upto])?)
}

/// `player`'s undelivered messages after `after`, oldest first, at most `limit`.
pub fn pending(
    conn: &Connection,
    player: &str,
    after: i64,
    limit: usize,
) -> Result<Vec<OutboxItem>, JournalError> {
    // The limit is written into the statement, not bound: SQLite prepares a statement again
    // on every new binding of a bound LIMIT (to see whether it is a small number), which cost
    // more than the query. The callers use a few page sizes, each cached once.
    let mut stmt = conn.prepare_cached(&pending_sql(limit))?;
    let rows = stmt.query_map(params![player, after], |r| {
        let seq: i64 = r.get(4)?;
        let hash: Vec<u8> = r.get(5)?;
        let told = if r.get(6)? {
            Told::MoveOfEntry
        } else {
            Told::Notice(Notice::from_body(r.get_ref(3)?.as_str()?))
        };
        Ok(OutboxItem {
            id: r.get(0)?,
            player: r.get(1)?,
            game: r.get(2)?,
            receipt: Short::of(seq, &hash32(&hash)),
            told,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn pending_sql(limit: usize) -> String {
    format!(
        "SELECT o.id, o.player, o.game, o.body, o.seq, e.hash, o.of_entry FROM outbox o
         JOIN entries e ON e.seq = o.seq
         WHERE o.player = ?1 AND o.delivered_at IS NULL AND o.id > ?2 ORDER BY o.id LIMIT {}",
        i64::try_from(limit).unwrap_or(i64::MAX)
    )
}

/// A hash as stored; a wrong length reads as zeros, which match nothing (the chain check
/// names such an entry).
fn hash32(bytes: &[u8]) -> [u8; 32] {
    bytes.try_into().unwrap_or([0; 32])
}

/// Records the relay's signature of the chain head at entry `seq`.
pub fn insert_signature(
    conn: &Connection,
    seq: i64,
    hash: &[u8; 32],
    key: &PublicKey,
    signature: &[u8; 64],
) -> Result<(), JournalError> {
    conn.prepare_cached(
        "INSERT INTO signatures (seq, hash, key, signature) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![seq, &hash[..], &key.0[..], &signature[..]])?;
    Ok(())
}

/// A `signatures` row as read: entry number, hash, key, signature.
type SignatureRow = (i64, Vec<u8>, Vec<u8>, Vec<u8>);

fn signed_head(r: &rusqlite::Row<'_>) -> rusqlite::Result<SignatureRow> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn to_signed_head((seq, hash, key, signature): SignatureRow) -> Result<SignedHead, JournalError> {
    let bad = || JournalError::Corrupt(format!("signature at entry {seq}: malformed"));
    Ok(SignedHead {
        seq,
        hash: hash.try_into().map_err(|_| bad())?,
        key: PublicKey(key.try_into().map_err(|_| bad())?),
        signature: signature.try_into().map_err(|_| bad())?,
    })
}

/// Whether the file has the signatures table (a journal older than signing, opened read-only,
/// has not).
fn has_signatures(conn: &Connection) -> Result<bool, JournalError> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'signatures'",
        )?
        .query_row([], |r| r.get(0))?;
    Ok(n > 0)
}

/// The first signed head at or after entry `seq`: the one that covers it.
pub fn signature_covering(conn: &Connection, seq: i64) -> Result<Option<SignedHead>, JournalError> {
    if !has_signatures(conn)? {
        return Ok(None);
    }
    conn.prepare_cached(
        "SELECT seq, hash, key, signature FROM signatures WHERE seq >= ?1 ORDER BY seq LIMIT 1",
    )?
    .query_row(params![seq], signed_head)
    .optional()?
    .map(to_signed_head)
    .transpose()
}

/// Every signed head in order, handed to `f`.
pub fn for_each_signature(
    conn: &Connection,
    mut f: impl FnMut(SignedHead) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    if !has_signatures(conn)? {
        return Ok(());
    }
    let mut stmt = conn.prepare("SELECT seq, hash, key, signature FROM signatures ORDER BY seq")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        f(to_signed_head(signed_head(row)?)?)?;
    }
    Ok(())
}

/// The chain hash after entry `seq`, if there is one.
pub fn entry_hash(conn: &Connection, seq: i64) -> Result<Option<[u8; 32]>, JournalError> {
    let hash: Option<Vec<u8>> = conn
        .prepare_cached("SELECT hash FROM entries WHERE seq = ?1")?
        .query_row(params![seq], |r| r.get(0))
        .optional()?;
    Ok(hash.map(|h| hash32(&h)))
}

/// The entry recorded with an idempotency key.
pub fn seen(conn: &Connection, key: &str) -> Result<Option<Seen>, JournalError> {
    let row = conn
        .prepare_cached(
            "SELECT e.seq, e.game, e.kind, e.text, e.iccf, e.detail FROM inbound_keys k
             JOIN entries e ON e.seq = k.seq WHERE k.key = ?1",
        )?
        .query_row(params![key], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, String>(5)?,
            ))
        })
        .optional()?;
    row.map(|(seq, game, kind, text, iccf, detail)| {
        let kind = EntryKind::parse(&kind)
            .ok_or_else(|| JournalError::Corrupt(format!("entry {seq}: unknown kind {kind:?}")))?;
        Ok(Seen {
            seq,
            game,
            kind,
            text,
            iccf,
            detail,
        })
    })
    .transpose()
}

/// Every entry in order, handed to `f` one at a time (the journal may be large).
pub fn for_each_entry(
    conn: &Connection,
    game: Option<&str>,
    f: impl FnMut(Entry) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    match game {
        Some(g) => entries_where(conn, "game = ?1", params![g], f),
        None => entries_where(conn, "1", params![], f),
    }
}

/// Entry `seq`, whole, if the journal holds it.
pub fn entry(conn: &Connection, seq: i64) -> Result<Option<Entry>, JournalError> {
    let mut found = None;
    for_each_entry_between(conn, seq, seq, |e| {
        found = Some(e);
        Ok(())
    })?;
    Ok(found)
}

/// The entries from `first` to `last`, in order.
pub fn for_each_entry_between(
    conn: &Connection,
    first: i64,
    last: i64,
    f: impl FnMut(Entry) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    entries_where(conn, "seq BETWEEN ?1 AND ?2", params![first, last], f)
}

/// `game`'s entries up to and including `last`, in order (by the `entries_game` index).
pub fn for_each_game_entry_until(
    conn: &Connection,
    game: &str,
    last: i64,
    f: impl FnMut(Entry) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    entries_where(conn, "game = ?1 AND seq <= ?2", params![game, last], f)
}

fn entries_where(
    conn: &Connection,
    condition: &str,
    args: &[&dyn rusqlite::ToSql],
    mut f: impl FnMut(Entry) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    let sql =
        "SELECT seq, time, game, player, channel, kind, text, iccf, san, detail, hash FROM entries";
    let mut stmt = conn.prepare(&format!("{sql} WHERE {condition} ORDER BY seq"))?;
    let map = |r: &rusqlite::Row<'_>| -> rusqlite::Result<(Entry, Vec<u8>, String)> {
        Ok((
            Entry {
                seq: r.get(0)?,
                time: r.get(1)?,
                game: r.get(2)?,
                player: r.get(3)?,
                channel: r.get(4)?,
                kind: EntryKind::GameStart,
                text: r.get(6)?,
                iccf: r.get(7)?,
                san: r.get(8)?,
                detail: r.get(9)?,
                hash: [0; 32],
            },
            r.get(10)?,
            r.get(5)?,
        ))
    };
    let mut rows = stmt.query(args)?;
    while let Some(row) = rows.next()? {
        let (mut entry, hash, kind) = map(row)?;
        entry.kind = EntryKind::parse(&kind).ok_or_else(|| {
            JournalError::Corrupt(format!("entry {}: unknown kind {kind:?}", entry.seq))
        })?;
        entry.hash = hash
            .try_into()
            .map_err(|_| JournalError::Corrupt(format!("entry {}: bad hash length", entry.seq)))?;
        f(entry)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of any body, as a build of any layout since 1 wrote it.
    fn insert_row(
        conn: &Connection,
        player: &str,
        game: &str,
        seq: i64,
        body: &str,
        sensitive: bool,
    ) -> Result<i64, JournalError> {
        conn.execute(
            "INSERT INTO outbox (player, game, seq, body, sensitive) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![player, game, seq, body, sensitive],
        )?;
        Ok(conn.last_insert_rowid())
    }

    #[test]
    fn commits_are_durable_wal_with_full_sync() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        let sync: i64 = conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(sync, 2, "synchronous=FULL");
    }

    fn move_entry(langs: Option<LangSet>) -> NewEntry {
        let mut entry = NewEntry::new("g1", "francois", "tcp", EntryKind::Move, "MOVE g1 Cf3");
        entry.iccf = Some("7163".to_owned());
        entry.langs = langs;
        entry
    }

    #[test]
    fn a_moves_languages_are_kept_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        let french = LangSet::from_codes("fr,es,it,pt,ro").unwrap();
        let first = insert_entry(&conn, 1, &[0; 32], move_entry(Some(french))).unwrap();
        insert_entry(&conn, 2, &first.hash, move_entry(None)).unwrap();
        let kept = move_langs(&conn, 0).unwrap();
        assert_eq!(kept.get(&1), Some(&french));
        assert_eq!(kept.get(&2), None);
        // Unreadable languages are a corrupt journal, said so.
        conn.execute("UPDATE move_langs SET langs = 'xx' WHERE seq = 1", [])
            .unwrap();
        let err = move_langs(&conn, 0).unwrap_err().to_string();
        assert!(err.contains("entry 1"), "{err}");
    }

    #[test]
    fn a_journal_older_than_move_langs_reads_without_it() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        conn.execute_batch("DROP TABLE move_langs").unwrap();
        drop(conn);
        let conn = open_read_only(dir.path()).unwrap();
        assert!(move_langs(&conn, 0).unwrap().is_empty());
    }

    /// The build's SQLite maps files at all (`SQLITE_MAX_MMAP_SIZE` above 0): otherwise the
    /// pragma is accepted and does nothing.
    #[test]
    fn a_scan_reads_through_the_memory_map() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        let scan = open_for_scan(dir.path()).unwrap();
        let mapped: i64 = scan
            .query_row("PRAGMA mmap_size", [], |r| r.get(0))
            .unwrap();
        assert!(mapped >= 1 << 30, "mmap_size {mapped}");
    }

    /// Regression: a login's outbox query was parsed and planned again on every use, because
    /// putting a cached statement back clears its bindings and SQLite had tied the plan to the
    /// player bound (a column compared with `=` might be a flag of 0 or 1).
    #[test]
    fn regression_a_cached_query_is_not_planned_again_for_each_player() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        for player in ["boris", "francois", "boris"] {
            pending(&conn, player, 0, 10).unwrap();
        }
        let stmt = conn.prepare_cached(&pending_sql(10)).unwrap();
        assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
        assert_eq!(stmt.get_status(rusqlite::StatementStatus::Run), 3);
        drop(stmt);
        drop(conn);
        let reader = open_read_only(dir.path()).unwrap();
        for player in ["boris", "francois"] {
            assert_eq!(
                pending(&reader, player, 0, 10).unwrap().len(),
                usize::from(player == "boris")
            );
        }
        let stmt = reader.prepare_cached(&pending_sql(10)).unwrap();
        assert_eq!(stmt.get_status(rusqlite::StatementStatus::RePrepare), 0);
    }

    /// With delivered rows removed, SQLite's default rowid (the largest plus one) would give a
    /// removed row's id again: a session that had sent it would skip the new row, and `ACK n`
    /// would acknowledge it unseen.
    #[test]
    fn an_outbox_id_is_never_given_twice_once_delivered_rows_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        let first = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        let second = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        assert_eq!(mark_delivered(&conn, "boris", second).unwrap(), 2);
        assert!(pending(&conn, "boris", 0, 10).unwrap().is_empty());
        drop(conn);
        let conn = open(dir.path()).unwrap();
        let third = insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        assert!(third > second && second > first, "{first} {second} {third}");
    }

    /// Finding "not left on disk": a welcome's row holds the new player's secret; once it is
    /// delivered (deleted) and the log checkpointed, its bytes are in neither the database
    /// file nor its log, though rows beside it on the same page stay.
    #[test]
    fn a_welcomes_secret_is_not_left_on_disk_once_its_row_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
        let secret = "welcome-secret-5d1f0c93a7e24b68";
        let body = format!(r#"{{"welcome":{{"player":"carol","secret":"{secret}"}}}}"#);
        insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        let welcome = insert_row(&conn, "carol", "", 1, &body, true).unwrap();
        insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap();
        let files = || {
            let mut bytes = std::fs::read(dir.path().join(FILE_NAME)).unwrap();
            let log = dir.path().join(format!("{FILE_NAME}-wal"));
            bytes.extend(std::fs::read(log).unwrap_or_default());
            bytes
        };
        let holds = |bytes: &[u8]| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        assert!(
            holds(&files()),
            "the row is in the file before it is deleted"
        );
        assert_eq!(mark_delivered(&conn, "carol", welcome).unwrap(), 1);
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        assert!(!holds(&files()), "the deleted secret is still on disk");
        assert_eq!(pending(&conn, "boris", 0, 10).unwrap().len(), 2);
    }

    /// A journal of layout 0 (the release before rows were removed on delivery): its
    /// delivered rows go, the others stay with their ids, and new ids start after the largest
    /// one it ever gave, delivered or not.
    #[test]
    fn a_layout_0_outbox_keeps_its_pending_rows_and_its_ids() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join(FILE_NAME)).unwrap();
            conn.execute_batch(&SCHEMA.replace(" AUTOINCREMENT", ""))
                .unwrap();
            insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
            for (id, delivered) in [(1, None), (2, Some("2026-12-01T00:00:00Z")), (3, Some("x"))] {
                conn.execute(
                    "INSERT INTO outbox (id, player, game, seq, body, delivered_at)
                     VALUES (?1, 'boris', 'g1', 1, '{}', ?2)",
                    params![id, delivered],
                )
                .unwrap();
            }
        }
        let conn = open(dir.path()).unwrap();
        let waiting: Vec<i64> = pending(&conn, "boris", 0, 10)
            .unwrap()
            .iter()
            .map(|item| item.id)
            .collect();
        assert_eq!(waiting, [1]);
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 1, "the delivered rows are gone");
        assert_eq!(insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap(), 4);
        // Opening again migrates nothing twice.
        drop(conn);
        let conn = open(dir.path()).unwrap();
        assert_eq!(insert_row(&conn, "boris", "g1", 1, "{}", false).unwrap(), 5);
    }

    /// A journal of layout 1: the rows of relayed moves held a placeholder body. After the
    /// upgrade they refer to their entries, the other rows are as they were, and new rows of
    /// both sorts read back as written.
    #[test]
    fn a_layout_1_outbox_keeps_its_relayed_moves_as_references_to_their_entries() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(dir.path().join(FILE_NAME)).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.execute_batch("PRAGMA user_version = 1").unwrap();
            insert_entry(&conn, 1, &[0; 32], move_entry(None)).unwrap();
            insert_row(&conn, "boris", "g1", 1, MOVE_IN_RECORD, false).unwrap();
            insert_row(
                &conn,
                "boris",
                "g1",
                1,
                r#"{"recorded":{"game":"g1","what":"x"}}"#,
                false,
            )
            .unwrap();
            insert_row(&conn, "boris", "g1", 1, "finished text", false).unwrap();
        }
        let conn = open(dir.path()).unwrap();
        let told: Vec<(i64, Told)> = pending(&conn, "boris", 0, 10)
            .unwrap()
            .into_iter()
            .map(|item| (item.id, item.told))
            .collect();
        let recorded = Notice::Recorded {
            game: "g1".to_owned(),
            what: "x".to_owned(),
        };
        let legacy = Notice::Legacy {
            text: "finished text".to_owned(),
        };
        assert_eq!(
            told,
            [
                (1, Told::MoveOfEntry),
                (2, Told::Notice(recorded.clone())),
                (3, Told::Notice(legacy))
            ]
        );
        let body: String = conn
            .query_row("SELECT body FROM outbox WHERE id = 1", [], |r| r.get(0))
            .unwrap();
        assert_eq!(body, "", "the placeholder is gone");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, LAYOUT_VERSION);
        // New rows, and opening again, which migrates nothing twice.
        let game =
            crate::game::Game::of_kind(crate::game::Kind::Chess, "g1", "alice", "boris", None)
                .unwrap();
        let m = game.board().read_code("5254").unwrap();
        let mut after = game.clone();
        after.apply_by(
            shakmaty::Color::White,
            &crate::game::Action::Move {
                m: m.clone(),
                draw_offer: false,
            },
            jiff::Timestamp::UNIX_EPOCH,
        );
        let notice = super::super::notice::MoveNotice::new(
            &game,
            &after,
            (shakmaty::Color::White, &m),
            false,
            false,
            jiff::Timestamp::UNIX_EPOCH,
        );
        insert_outbox(&conn, &NewOutbox::move_of_entry("boris", notice), "g1", 1).unwrap();
        insert_outbox(
            &conn,
            &NewOutbox::notice("boris", recorded.clone()),
            "g1",
            1,
        )
        .unwrap();
        drop(conn);
        let conn = open(dir.path()).unwrap();
        let told: Vec<Told> = pending(&conn, "boris", 3, 10)
            .unwrap()
            .into_iter()
            .map(|item| item.told)
            .collect();
        assert_eq!(told, [Told::MoveOfEntry, Told::Notice(recorded)]);
    }
}
