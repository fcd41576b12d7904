//! Applying the record the other node keeps: in a game whose record the other node of a link
//! keeps, every entry of that record arrives here in order ([`Replicated`]) and is journaled as
//! it stands there (same kind, player, move, detail and time), the game updated, and this
//! node's player told. Nothing is checked against this node's own ideas but the game itself:
//! an entry the game here cannot take means the two nodes disagree, which is logged and
//! refused, never papered over.

use shakmaty::Color;

use crate::journal::EntryKind;

/// Who made a record entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Side(Color),
    /// The arbiter or the configuration (a game's start, an adjudication).
    Arbiter,
}

/// One entry of a game's record, as the node that keeps the record sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replicated {
    pub game: String,
    /// Its place in the game's record, from 0 (the game's start): the low 8 bits. The relay
    /// takes the place nearest the record it holds that has them ([`nearest_number`]): the
    /// other node sends again at most a window of entries, so the nearest is the one meant.
    pub index: u8,
    pub kind: EntryKind,
    pub actor: Actor,
    /// When it was recorded there: seconds after the record's entry before it (for its
    /// first entry, the game's start: seconds since 1970).
    pub delta: u64,
    /// The move, in ICCF (a move, a claim with a move).
    pub iccf: Option<String>,
    pub detail: String,
}

/// The number with low 8 bits `low` nearest `count` (from `count - 128` to `count + 127`),
/// never below zero: what a record entry's index or an action's number is, given how many
/// the receiver holds.
pub fn nearest_number(low: u8, count: i64) -> i64 {
    let diff = i64::from(low.wrapping_sub(count as u8) as i8);
    let n = count + diff;
    if n < 0 { n + 256 } else { n }
}

#[cfg(test)]
mod tests {
    use super::nearest_number;

    #[test]
    fn numbers_are_rebuilt_from_their_low_bits() {
        for (low, count, want) in [
            (0u8, 0i64, 0i64),
            (5, 3, 5),
            (2, 3, 2),
            (255, 0, 255),
            (0, 255, 256),
            (254, 257, 254),
            (1, 300, 257),
            (44, 300, 300),
        ] {
            assert_eq!(nearest_number(low, count), want, "{low} near {count}");
        }
    }
}
