//! Games with a player on another node, across a link: which node keeps each game's record
//! (its [`LinkRole`](super::link_role::LinkRole) here), the proposals this node sends when the other keeps it, and the outbox
//! rows a link sends (docs/link.md, "One record").
//!
//! The node that keeps a game's record orders every action in it: its own player's, the
//! other node's player's (which arrive as proposals, each with an id recorded with its
//! entry, so that a repeat is known by the id), the arbiter's and the clock's. The other node
//! applies that record entry by entry in the same order, with the same times: both journals
//! hold the same record.

use crate::game::Authority;
use crate::journal::replay::GameStartDetail;

/// The idempotency key of action `number` of `side` (`w`, `b`, or `a` for the arbiter) in
/// `game`, proposed by the other node: recorded with the entry the action made (accepted or
/// refused), so that the action sent again is known by it.
pub fn proposal_key(game: &str, side: char, number: u32) -> String {
    format!("link:{side}:{number}:{game}")
}

/// The action number a [`proposal_key`] holds.
pub(super) fn number_of_key(key: &str) -> Option<u32> {
    let rest = key.strip_prefix("link:")?;
    let mut parts = rest.splitn(3, ':');
    let _side = parts.next()?;
    parts.next()?.parse().ok()
}

/// The game a [`proposal_key`] names.
pub(super) fn game_of_key(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("link:")?;
    rest.splitn(3, ':').nth(2)
}

/// The idempotency key of the other node's refusal of this node's proposal `number` by
/// `side` in `game`.
pub fn refusal_key(game: &str, side: char, number: u32) -> String {
    format!("link-refused:{side}:{number}:{game}")
}

/// A game's players and whose node keeps it, from its start entry's detail.
pub(super) fn start_of(detail: &str) -> Option<(String, String, Authority)> {
    let d: GameStartDetail = serde_json::from_str(detail).ok()?;
    Some((d.white, d.black, d.authority))
}
