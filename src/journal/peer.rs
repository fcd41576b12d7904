//! What a relay-to-relay link needs of the journal, read on a read-only connection of its
//! own (WAL lets it read committed data while the writer writes). The relay's mailbox owns
//! this view and answers the link from it; the link never touches the journal.
//!
//! - the outbox rows waiting for the players across the link, with the entry each one
//!   reports (its kind, move, detail and time, and the time of the game's record entry
//!   before it: a record entry travels with the seconds since that one);
//! - the players of every game, to resolve a game's two-byte code.
//!
//! Nothing is written through this connection: outbox rows are acknowledged and commands
//! sent through the relay like any transport's.

use rusqlite::{Connection, OptionalExtension, params};

use super::entry::GameStartDetail;
use super::{EntryKind, JournalError, as_of, store};

/// The record entry kinds ([`EntryKind::is_record`]) as SQL's list.
fn record_kinds_sql() -> String {
    EntryKind::RECORD
        .iter()
        .map(|k| format!("'{}'", k.as_str()))
        .collect::<Vec<_>>()
        .join(",")
}

/// An outbox message for a player across a link, with what it reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxEntry {
    /// The outbox id (what is acknowledged once the peer has it).
    pub id: i64,
    /// The player across the link it is for.
    pub to: String,
    pub game: String,
    /// Who acted.
    pub player: String,
    pub kind: EntryKind,
    pub iccf: Option<String>,
    pub detail: String,
    /// The entry's time (RFC 3339).
    pub time: String,
    /// The time of the game's record entry before this entry, if any.
    pub before: Option<String>,
    /// The outbox row's body (what the relay stored for the player).
    pub body: String,
}

/// A read-only view of the journal for one link.
pub struct PeerView {
    conn: Connection,
}

/// A game's players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlayers {
    pub id: String,
    pub white: String,
    pub black: String,
}

impl PeerView {
    /// The connection, for what the arbiter's desk reads of the record ([`super::desk`]).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    pub fn open(data_dir: &std::path::Path) -> Result<PeerView, JournalError> {
        let conn = store::open_read_only(data_dir)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(PeerView { conn })
    }

    /// Messages for `players` not yet delivered, after outbox id `after`, oldest first.
    pub fn waiting(
        &self,
        players: &[String],
        after: i64,
        limit: usize,
    ) -> Result<Vec<OutboxEntry>, JournalError> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let marks = (0..players.len())
            .map(|i| format!("?{}", i + 3))
            .collect::<Vec<_>>()
            .join(",");
        let sql = format!(
            "SELECT o.id, o.player, o.game, e.player, e.kind, e.iccf, e.detail, o.body, e.time,
               (SELECT x.time FROM entries x WHERE x.game = e.game AND x.kind IN ({})
                  AND x.seq < e.seq ORDER BY x.seq DESC LIMIT 1)
             FROM outbox o JOIN entries e ON e.seq = o.seq
             WHERE o.delivered_at IS NULL AND o.id > ?1 AND o.player IN ({marks})
             ORDER BY o.id LIMIT ?2",
            record_kinds_sql()
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut values: Vec<rusqlite::types::Value> = vec![after.into(), (limit as i64).into()];
        values.extend(players.iter().map(|p| p.clone().into()));
        let rows = stmt.query_map(rusqlite::params_from_iter(values), |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, String>(8)?,
                r.get::<_, Option<String>>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, to, game, player, kind, iccf, detail, body, time, before) = row?;
            let kind = EntryKind::parse(&kind)
                .ok_or_else(|| JournalError::Corrupt(format!("outbox {id}: kind {kind:?}")))?;
            out.push(OutboxEntry {
                id,
                to,
                game,
                player,
                kind,
                iccf,
                detail,
                time,
                before,
                body,
            });
        }
        Ok(out)
    }

    /// A game's starting position (FEN, if not the usual one) and the ICCF form of its moves
    /// up to the entry outbox row `outbox` reports, in order: the game as of that row.
    pub fn moves_until(
        &self,
        game: &str,
        outbox: i64,
    ) -> Result<(Option<String>, Vec<String>), JournalError> {
        let start: Option<String> = self
            .conn
            .prepare_cached(
                "SELECT detail FROM entries WHERE game = ?1 AND kind = 'game_start' ORDER BY seq LIMIT 1",
            )?
            .query_row(params![game], |r| r.get(0))
            .optional()?;
        let fen = start
            .and_then(|d| GameStartDetail::from_detail(&d).ok())
            .and_then(|d| d.fen);
        let mut stmt = self.conn.prepare_cached(
            "SELECT iccf FROM entries WHERE game = ?1 AND kind = 'move' AND iccf IS NOT NULL
               AND seq <= (SELECT seq FROM outbox WHERE id = ?2) ORDER BY seq",
        )?;
        let moves = stmt
            .query_map(params![game, outbox], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok((fen, moves))
    }

    /// `game` around each of its entries in `seqs` (ascending): see [`as_of::game_as_of`].
    pub fn game_as_of(&self, game: &str, seqs: &[i64]) -> Result<Vec<as_of::AsOf>, JournalError> {
        as_of::game_as_of(&self.conn, game, seqs)
    }

    /// Games as PGN, each cut after its first `plies` moves when given: see
    /// [`super::export::pgn_shown`].
    pub fn pgn_shown(
        &self,
        games: &[(String, Option<usize>)],
        names: &super::export::Names,
    ) -> Result<String, JournalError> {
        super::export::pgn_shown(&self.conn, games, names)
    }

    /// The number and hash (hex) of `game`'s last entry: the head of the chain as far as the
    /// game's record goes.
    pub fn game_head(&self, game: &str) -> Result<Option<(i64, String)>, JournalError> {
        let head = self
            .conn
            .prepare_cached(
                "SELECT seq, hash FROM entries WHERE game = ?1 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![game], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?))
            })
            .optional()?;
        Ok(head.map(|(seq, hash)| (seq, hex::encode(hash))))
    }

    /// How many outbox items wait for each player (not yet delivered).
    pub fn waiting_by_player(&self) -> Result<Vec<(String, i64)>, JournalError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT player, COUNT(*) FROM outbox WHERE delivered_at IS NULL GROUP BY player",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    /// Every game the journal has started, with its players.
    pub fn games(&self) -> Result<Vec<GamePlayers>, JournalError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT game, detail FROM entries WHERE kind = 'game_start'")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, detail) = row?;
            if let Ok(d) = GameStartDetail::from_detail(&detail) {
                out.push(GamePlayers {
                    id,
                    white: d.white,
                    black: d.black,
                });
            }
        }
        Ok(out)
    }
}
