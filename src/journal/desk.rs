//! What the arbiter's desk reads of the record, on the read-only connection transports are
//! given ([`super::peer::PeerView`]): `journal verify`'s verdict, the official exports, the
//! chain's head and the last signed one, and the day's entries the arbiter made. Each is
//! what `ccrelay journal` reads from the same file; nothing here writes.

use rusqlite::Connection;

use super::export::{ExportFormat, Names};
use super::{JournalError, store};

/// `journal verify`'s counts, for its verdict line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub entries: u64,
    pub games: usize,
    pub games_timed: usize,
    pub signed_heads: u64,
}

impl std::fmt::Display for Verdict {
    /// The line `ccrelay journal verify` prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "journal ok: {} entries, {} games, hash chain intact, clocks agree with every result ({} games timed), {} signed heads",
            self.entries, self.games, self.games_timed, self.signed_heads
        )
    }
}

/// The chain's head, and the last head the relay signed (its entry and key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heads {
    pub seq: i64,
    pub hash: String,
    pub signed: Option<(i64, String, String)>,
}

/// One entry the arbiter made: number, time, channel, kind, the command's words.
pub type AdminEntry = (i64, String, String, String, String);

/// Checks the chain, replays every game, checks every signed head, in one snapshot.
pub fn verdict(conn: &Connection) -> Result<Verdict, JournalError> {
    let snapshot = conn.unchecked_transaction()?;
    let replayed = super::replay::verify(&snapshot)?;
    Ok(Verdict {
        entries: replayed.entries,
        games: replayed.games.len(),
        games_timed: replayed.clocks.as_ref().map_or(0, |c| c.games_timed()),
        signed_heads: replayed.signatures,
    })
}

/// A game's official export (PGN or the ICCF scoresheet), the chain checked first.
pub fn game(
    conn: &Connection,
    game: &str,
    format: ExportFormat,
    names: &Names,
) -> Result<String, JournalError> {
    let snapshot = conn.unchecked_transaction()?;
    super::export::export(&snapshot, game, format, names)
}

/// An event's games as PGN (`record`: false) or its record as text (`true`).
pub fn event(
    conn: &Connection,
    event: &str,
    record: bool,
    names: &Names,
) -> Result<String, JournalError> {
    let snapshot = conn.unchecked_transaction()?;
    let mut quiet = |_| {};
    if record {
        super::event_export::event_text(&snapshot, event, names, &mut quiet)
    } else {
        super::event_export::export_event(&snapshot, event, names, &mut quiet)
    }
}

/// The chain's head and the last signed head.
pub fn heads(conn: &Connection) -> Result<Heads, JournalError> {
    let (seq, hash) = store::tail(conn)?;
    let mut signed = None;
    store::for_each_signature(conn, |head| {
        signed = Some((head.seq, hex::encode(head.hash), head.key.to_string()));
        Ok(())
    })?;
    Ok(Heads {
        seq,
        hash: hex::encode(hash),
        signed,
    })
}

/// The entries the arbiter made on `day` (`2027-03-12`, the entries' own UTC time).
pub fn admin_entries(conn: &Connection, day: &str) -> Result<Vec<AdminEntry>, JournalError> {
    let mut statement = conn.prepare_cached(
        "SELECT seq, time, channel, kind, text FROM entries \
         WHERE player = 'admin' AND substr(time, 1, 10) = ?1 ORDER BY seq",
    )?;
    let rows = statement.query_map([day], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}
