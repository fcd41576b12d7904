//! A knock-out event (a cup): the bracket its seeds are placed in, and each round's matches of
//! two games, decided as they are played. Pure: the relay gives the results and the lots the
//! record holds, and journals what [`Bracket::due`] says is due next (games to start, lots to
//! draw), so that the bracket is a function of the record alone.
//!
//! - The bracket has 2, 4, 8, 16, 32 or 64 places, the smallest that holds the entrants; the
//!   places beyond them are byes, and the standard placement ([`placement`]) gives them to the
//!   top seeds (seed 1 meets the last place, which is a bye when the entrants are fewer).
//! - Each match is two games, one with each colour; the winner goes on. A match drawn 1-1 is
//!   decided by a further pair of games, and if that is still level by a lot drawn with a
//!   seed the record keeps ([`crate::event::draw`]'s procedure over the two players).
//! - A player who withdraws loses the match they are in, whatever its score, unless its games
//!   had decided it already; a match whose player withdrew before it began goes to the other.
//!
//! ```
//! use ccrelay::event::knockout::{placement, size_for};
//! assert_eq!(size_for(5), Some(8));
//! // Seeds 1-8, 4-5, 2-7, 3-6 (0-based here): 1 and 2 meet only in the final.
//! assert_eq!(placement(8), [0, 7, 3, 4, 1, 6, 2, 5]);
//! ```

mod matches;
pub mod text;

pub use matches::{Bracket, Decided, Due, GameSlot, How, LotDue, Match, Side, bracket};

/// The bracket sizes a knock-out has.
pub const SIZES: [usize; 6] = [2, 4, 8, 16, 32, 64];

/// The smallest bracket that holds `entrants`, or `None` for fewer than 2 or more than 64.
pub fn size_for(entrants: usize) -> Option<usize> {
    if entrants < 2 {
        return None;
    }
    SIZES.iter().copied().find(|&s| s >= entrants)
}

/// Why `entrants` cannot make a bracket, or `None` when they can.
pub fn unpairable(entrants: usize) -> Option<String> {
    match size_for(entrants) {
        Some(_) => None,
        None if entrants < 2 => Some(format!(
            "a knock-out needs at least 2 players ({entrants} entered)"
        )),
        None => Some(format!(
            "a knock-out holds at most 64 players ({entrants} entered)"
        )),
    }
}

/// The seeds (0-based: 0 is seed 1) in the bracket's places from top to bottom, for a
/// bracket of `size` places (a power of two). The first round pairs places `2k` and `2k+1`.
/// Built by doubling: each seed `s` of the bracket of `n` places becomes the pair `s` against
/// `2n - 1 - s`, so seed 1 meets the last seed, 2 the one before it, and the top two seeds
/// are in different halves (they can meet only in the final), the top four in different
/// quarters, and so on.
pub fn placement(size: usize) -> Vec<usize> {
    let mut places = vec![0usize];
    while places.len() < size.max(1) {
        let n = places.len() * 2;
        places = places.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    places
}

/// The number of rounds of a bracket of `size` places: 1 for 2, 6 for 64.
pub fn rounds(size: usize) -> u32 {
    size.max(2).trailing_zeros()
}

/// The id of a knock-out's game: the event, the round, the match within it, and the game
/// within the match (`cup-r2m1g3`: round 2, match 1, the first game of the extra pair).
pub fn game_id(event: &str, round: u32, number: u32, game: u32) -> String {
    format!("{event}-r{round}m{number}g{game}")
}

/// Who wins a lot between `players` (the upper side's first) with `seed`: the first of them
/// in the order [`crate::event::draw::shuffle`] draws, so anyone holding the seed can repeat it.
pub fn lot_winner(players: &[String; 2], seed: &[u8]) -> String {
    let drawn = crate::event::draw::shuffle(players, seed);
    drawn[0].clone()
}

/// A round's name for a reader who counts from the end: the final, the semi-finals, ...
pub fn round_name(round: u32, rounds: u32) -> String {
    match rounds.saturating_sub(round) {
        0 => "final".to_owned(),
        1 => "semi-finals".to_owned(),
        2 => "quarter-finals".to_owned(),
        _ => format!("round {round}"),
    }
}

#[cfg(test)]
mod tests;
