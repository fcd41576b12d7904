//! A game as it stood around some of its entries, replayed from its start: what an outbox row
//! that points at a move's entry is rendered from when it is read back (the row stores no copy
//! of the move, the positions or the clocks; docs/journal.md, "The outbox").
//!
//! Replays only the game's own entries (by the `entries_game` index), without checking the
//! chain: the daemon checked it at start, and `journal verify` checks all of it.

use rusqlite::Connection;

use super::entry::GameStartDetail;
use super::replay::{action_of, names_no_game, time_of};
use super::{Entry, EntryKind, JournalError, store};
use crate::game::Game;

/// One of a game's entries, with the game just before it and just after it.
#[derive(Clone, Debug)]
pub struct AsOf {
    pub entry: Entry,
    pub before: Game,
    pub after: Game,
}

/// `game` around each of its entries numbered in `seqs` (ascending), replayed from its start
/// once for all of them. An entry that is not the game's, or that changes nothing in it, is
/// left out; an entry that does not replay is an error naming it.
pub fn game_as_of(conn: &Connection, game: &str, seqs: &[i64]) -> Result<Vec<AsOf>, JournalError> {
    let Some(&last) = seqs.iter().max() else {
        return Ok(Vec::new());
    };
    let mut playing: Option<Game> = None;
    let mut out = Vec::with_capacity(seqs.len());
    store::for_each_game_entry_until(conn, game, last, |e| {
        let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
        if e.kind == EntryKind::GameStart {
            let detail = GameStartDetail::of(&e)?;
            playing = Some(detail.game(&e.game, time_of(&e)?).map_err(corrupt)?);
            return Ok(());
        }
        if names_no_game(e.kind) {
            return Ok(());
        }
        let Some(now) = playing.as_mut() else {
            return Err(corrupt(format!("no game {} before it", e.game)));
        };
        let Some((color, action)) = action_of(&e, now)? else {
            return Ok(());
        };
        let wanted = seqs.binary_search(&e.seq).is_ok();
        let before = wanted.then(|| now.clone());
        now.apply_by(color, &action, time_of(&e)?);
        if let Some(before) = before {
            out.push(AsOf {
                after: now.clone(),
                before,
                entry: e,
            });
        }
        Ok(())
    })?;
    Ok(out)
}
