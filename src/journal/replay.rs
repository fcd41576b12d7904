//! Rebuilding every game from the journal, checking the hash chain on the way. The daemon does
//! this at start; `ccrelay journal verify` does it and reports.

use std::collections::BTreeMap;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use shakmaty::Color;

use super::{Entry, EntryKind, JournalError, store};
use crate::game::{Action, Game};
use crate::notation::Iccf;

/// A move entry's detail when the move carried a draw offer.
pub const DRAW_OFFER: &str = "draw_offer";

/// What a `game_start` entry's detail holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GameStartDetail {
    pub white: String,
    pub black: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
}

/// A game as the journal holds it.
#[derive(Clone, Debug)]
pub struct JournaledGame {
    pub game: Game,
    pub event: Option<String>,
    /// When the game started (RFC 3339).
    pub started: String,
}

/// Everything the journal holds, replayed.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    pub games: BTreeMap<String, JournaledGame>,
    pub entries: u64,
}

/// What an entry does to its game, and by whom: `None` for entries that change no game (a
/// rejected attempt; a result, which follows from the entries before it). Errors if the entry
/// could not have been written by the relay (a stranger's action, an unreadable or
/// out-of-turn move).
pub fn action_of(e: &Entry, game: &Game) -> Result<Option<(Color, Action)>, JournalError> {
    let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
    let action = match e.kind {
        EntryKind::GameStart | EntryKind::Rejected | EntryKind::Result => return Ok(None),
        EntryKind::DrawOffer => Action::OfferDraw,
        EntryKind::DrawAccept => Action::AcceptDraw,
        EntryKind::DrawDecline => Action::DeclineDraw,
        EntryKind::Resign => Action::Resign,
        EntryKind::Move => {
            let iccf: Iccf = e
                .iccf
                .as_deref()
                .unwrap_or("")
                .parse()
                .map_err(|err| corrupt(format!("move: {err}")))?;
            let m = iccf
                .to_move(game.position())
                .map_err(|err| corrupt(format!("move {iccf}: {err}")))?;
            Action::Move {
                m,
                draw_offer: e.detail == DRAW_OFFER,
            }
        }
    };
    let Some(color) = game.side_of(&e.player) else {
        return Err(corrupt(format!(
            "{} does not play in game {}",
            e.player, e.game
        )));
    };
    if matches!(action, Action::Move { .. }) && game.turn() != color {
        return Err(corrupt(format!("{} moved out of turn", e.player)));
    }
    Ok(Some((color, action)))
}

/// Replays the whole journal.
pub fn replay(conn: &Connection) -> Result<Replayed, JournalError> {
    let mut out = Replayed::default();
    let mut prev = [0u8; 32];
    let mut expected_seq = 1;
    store::for_each_entry(conn, None, |e| {
        let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
        if e.seq != expected_seq {
            return Err(corrupt(format!(
                "sequence number {} where {expected_seq} was expected",
                e.seq
            )));
        }
        if store::chain_hash(&prev, &e) != e.hash {
            return Err(corrupt(
                "its hash does not match its content and the entry before it".to_owned(),
            ));
        }
        prev = e.hash;
        expected_seq += 1;
        out.entries += 1;
        if e.kind == EntryKind::GameStart {
            let detail: GameStartDetail = serde_json::from_str(&e.detail)
                .map_err(|err| corrupt(format!("game start detail: {err}")))?;
            if out.games.contains_key(&e.game) {
                return Err(corrupt(format!("game {} started twice", e.game)));
            }
            let game = Game::new(&e.game, &detail.white, &detail.black, detail.fen.as_deref())
                .map_err(corrupt)?;
            let started = e.time.clone();
            out.games.insert(
                e.game.clone(),
                JournaledGame {
                    game,
                    event: detail.event,
                    started,
                },
            );
            return Ok(());
        }
        // A rejected message may name a game that does not exist (an email transport journals
        // mail it refuses under whatever game its subject named): it changes nothing.
        if e.kind == EntryKind::Rejected {
            return Ok(());
        }
        let Some(record) = out.games.get_mut(&e.game) else {
            return Err(corrupt(format!("no game {}", e.game)));
        };
        let game = &mut record.game;
        let Some((color, action)) = action_of(&e, game)? else {
            return Ok(());
        };
        game.check(color, &action)
            .map_err(|err| corrupt(err.to_string()))?;
        game.apply_by(color, &action);
        Ok(())
    })?;
    Ok(out)
}

/// Checks the chain and replays every game; returns the counts for a report.
pub fn verify(conn: &Connection) -> Result<Replayed, JournalError> {
    replay(conn)
}
