//! The games and what is known of them: each game, what its record holds beside its moves
//! (its notes: event, round, messages), and how far each game's record has gone for the links.

use std::collections::HashMap;

use jiff::Timestamp;

use crate::game::clock::Leave;
use crate::game::{EndReason, Game};

/// A table by game id. Its hasher is foldhash's, not the standard library's SipHash: a
/// move looks a game up several times, and SipHash spent more on those lookups than the
/// table's work. The ids are the config's and the admin's, never a stranger's.
pub(super) type ByGame<V> = HashMap<String, V, foldhash::fast::RandomState>;

/// The games the relay keeps, and what it knows of them.
pub(super) struct Games {
    /// Boxed: the table keeps room for more games than it holds, and a slot is then a pointer,
    /// not a whole game.
    pub(super) by_id: ByGame<Box<Game>>,
    /// What each game's record holds beside its moves (event, round, messages).
    pub(super) notes: ByGame<crate::relay::notes::GameNotes>,
    /// How far each game's record and proposals have gone, for the links.
    pub(super) ledgers: ByGame<crate::journal::replay::Ledger>,
    /// A remote game's clocks as its server last gave them (kept in memory: the next poll
    /// after a restart gives them again).
    pub(super) server_clocks: ByGame<crate::relay::remote::ServerClocks>,
    /// The last rating list made, with what it was made from: made again only when a rated
    /// result, a starting rating or the day changes, not for every page that shows a rating.
    pub(super) rating_list: std::sync::Mutex<Option<KeptRatingList>>,
}

/// A rating list kept, with the day and the games and starting ratings it was made from
/// (`handle/ratings.rs` makes and compares it).
pub(super) struct KeptRatingList {
    pub(super) today: jiff::civil::Date,
    pub(super) rated: Vec<crate::event::rating::RatedGame>,
    pub(super) seeds: Vec<crate::event::rating::Seed>,
    pub(super) list: crate::event::rating::RatingList,
}

impl Games {
    /// Every leave `player` has announced, in any game.
    pub(super) fn leave_of(&self, player: &str) -> Vec<Leave> {
        let mut all: Vec<Leave> = Vec::new();
        for game in self.by_id.values() {
            if let Some(color) = game.side_of(player) {
                for leave in game.timeline().leave_of(color) {
                    if !all.contains(leave) {
                        all.push(*leave);
                    }
                }
            }
        }
        all
    }

    /// The instants at which `player` lost a game on time (their clock ran out, or the
    /// silence limit did), as the record has them: what ICCF's bar on new entries counts.
    pub(super) fn losses_on_time(&self, player: &str) -> Vec<Timestamp> {
        self.by_id
            .values()
            .filter_map(|game| {
                let color = game.side_of(player)?;
                let result = game.result()?;
                let on_time = matches!(result.reason, EndReason::TimeForfeit | EndReason::Silence);
                (on_time && result.winner == Some(!color))
                    .then(|| game.ended())
                    .flatten()
            })
            .collect()
    }
}
