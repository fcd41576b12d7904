//! A game rebuilt from its journal entries for the official exports ([`Record`]: the game,
//! its moves with their dates and channels, every entry), and the names the exports show
//! ([`Names`]: players, events, from the configuration and the registry). PGN and the
//! scoresheet are `export/`, the report and the entries as text `report.rs`, an event's
//! exports `event_export.rs`, the crosstable `crosstable.rs`.

use std::collections::BTreeMap;

use jiff::Timestamp;
use rusqlite::Connection;
use shakmaty::Color;

use super::entry::GameStartDetail;
use super::replay::{action_of, time_of};
use super::{Entry, EntryKind, JournalError, store};
use crate::event::rating::RatingRules;
use crate::game::{Action, Game};
use crate::notation::{Lang, Notation};

/// An event as the configuration names it.
#[derive(Clone, Debug, Default)]
pub struct EventInfo {
    pub name: String,
    pub site: String,
}

/// A player as the records name them.
#[derive(Clone, Debug, Default)]
pub struct PlayerInfo {
    pub name: String,
    /// Where the player is reached (an email address), for the `WhiteNA`/`BlackNA` tags.
    pub address: Option<String>,
}

/// What the configuration adds to the journal's records: names, and what the ratings a PGN
/// export names are counted by (`[ratings]` and whether each configured event is rated; the
/// default rules when the configuration says nothing).
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub events: BTreeMap<String, EventInfo>,
    pub players: BTreeMap<String, PlayerInfo>,
    pub rating_rules: RatingRules,
    /// Whether each event of the configuration is rated (an event registered while the relay
    /// ran says so in the record).
    pub rated_events: BTreeMap<String, bool>,
}

impl Names {
    pub(super) fn player(&self, id: &str) -> String {
        self.players
            .get(id)
            .map_or_else(|| id.to_owned(), |p| p.name.clone())
    }

    /// These names, with the players and events registered while the relay ran added where
    /// the configuration does not name them.
    pub fn with_registry(&self, registry: &super::registry::Registry) -> Names {
        let mut names = self.clone();
        for (id, p) in &registry.players {
            names
                .players
                .entry(id.clone())
                .or_insert_with(|| PlayerInfo {
                    name: p.name.clone(),
                    address: p.email.clone(),
                });
        }
        for (id, e) in &registry.events {
            names.events.entry(id.clone()).or_insert_with(|| EventInfo {
                name: e.event.name.clone(),
                site: e.event.site.clone(),
            });
        }
        names
    }
}

/// One move as recorded.
pub(super) struct MoveRecord {
    pub(super) color: Color,
    pub(super) number: u32,
    pub(super) san: String,
    /// The move as the record keeps it (ICCF numeric for chess).
    pub(super) code: String,
    pub(super) draw_offer: bool,
    pub(super) time: Timestamp,
    pub(super) channel: String,
}

/// A game rebuilt from its entries, with what the records show.
pub(super) struct Record {
    pub(super) id: String,
    pub(super) detail: GameStartDetail,
    pub(super) started: Timestamp,
    /// The last entry's time: an unfinished game's clocks are shown as of then.
    pub(super) last: Timestamp,
    pub(super) game: Game,
    pub(super) moves: Vec<MoveRecord>,
    pub(super) entries: Vec<Entry>,
}

pub(super) fn corrupt(why: String) -> JournalError {
    JournalError::Corrupt(why)
}

/// Rebuilds `game_id` from `entries` (its own, in order).
pub(super) fn rebuild(game_id: &str, entries: Vec<Entry>) -> Result<Record, JournalError> {
    rebuild_until(game_id, entries, None)
}

/// [`rebuild`], stopping after the entry of the `plies`-th move when given: the game as it
/// stood then, as a delayed view shows it.
pub(super) fn rebuild_until(
    game_id: &str,
    mut entries: Vec<Entry>,
    plies: Option<usize>,
) -> Result<Record, JournalError> {
    let Some(start) = entries.first().filter(|e| e.kind == EntryKind::GameStart) else {
        return Err(corrupt(format!("no game {game_id:?} in the journal")));
    };
    let detail = GameStartDetail::of(start)?;
    let started = time_of(start)?;
    let mut game = detail.game(game_id, started).map_err(corrupt)?;
    let mut moves = Vec::new();
    let mut last = started;
    let mut used = entries.len();
    for (i, e) in entries.iter().enumerate() {
        if plies.is_some_and(|n| moves.len() >= n) {
            used = i;
            break;
        }
        let at = time_of(e)?;
        last = last.max(at);
        let Some((color, action)) = action_of(e, &game)? else {
            continue;
        };
        let played = match &action {
            Action::Move { m, draw_offer } => Some((m, *draw_offer)),
            Action::Claim { m: Some(m), .. } => Some((m, false)),
            _ => None,
        };
        if let Some((m, draw_offer)) = played {
            moves.push(MoveRecord {
                color,
                number: game.move_number(),
                san: game.board().write(m, Notation::San(Lang::English)),
                code: game.board().code(m),
                draw_offer,
                time: at,
                channel: e.channel.clone(),
            });
        }
        game.apply_by(color, &action, at);
    }
    entries.truncate(used);
    Ok(Record {
        id: game_id.to_owned(),
        detail,
        started,
        last,
        game,
        moves,
        entries,
    })
}

pub(super) fn read_game(conn: &Connection, game_id: &str) -> Result<Record, JournalError> {
    let mut entries: Vec<Entry> = Vec::new();
    store::for_each_entry(conn, Some(game_id), |e| {
        entries.push(e);
        Ok(())
    })?;
    rebuild(game_id, entries)
}

/// A game's event and site as the records name them (`?` for what is unknown).
pub(super) fn event_of(record: &Record, names: &Names) -> (String, String) {
    match record.detail.event.as_deref() {
        Some(id) => names.events.get(id).map_or_else(
            || (id.to_owned(), "?".to_owned()),
            |e| (e.name.clone(), e.site.clone()),
        ),
        None => ("?".to_owned(), "?".to_owned()),
    }
}
