//! The outbox: the items waiting for their readers, each reporting an entry, removed once
//! its reader acknowledges it (docs/journal.md, "The outbox").

use rusqlite::{Connection, params};

use super::hash32;
use crate::journal::head::Short;
use crate::journal::{JournalError, NewOutbox, Notice, OutboxItem, Told};

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

pub(super) fn pending_sql(limit: usize) -> String {
    format!(
        "SELECT o.id, o.player, o.game, o.body, o.seq, e.hash, o.of_entry FROM outbox o
         JOIN entries e ON e.seq = o.seq
         WHERE o.player = ?1 AND o.delivered_at IS NULL AND o.id > ?2 ORDER BY o.id LIMIT {}",
        i64::try_from(limit).unwrap_or(i64::MAX)
    )
}
