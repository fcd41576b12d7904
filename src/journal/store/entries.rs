//! The entries, a chain of hashes in the order they were written, and what is kept beside an
//! entry as it is written: the idempotency key it answered, a player's secret hash it
//! registered, the languages a move narrowed its player's to.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::{chain_hash, has_table, hash32};
use crate::journal::{Entry, EntryKind, JournalError, NewEntry, Seen};
use crate::notation::LangSet;

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
