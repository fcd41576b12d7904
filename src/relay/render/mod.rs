//! Every text a person reads from the relay: game lines, the game view, and each outbox item
//! ([`Notice`](super::Notice)) as its reader reads it on the line protocol. Transports render
//! items through here (by way of [`super::Mailbox::render`]) when they deliver them; a mail's
//! own words (its summary, what it adds) are `super::summary`'s, from the catalog.
//!
//! One file for each thing rendered: `clock.rs` the clock line and the note once days count
//! double; `game.rs` a game as `GAMES` and `SHOW` list it, and as it stood after a move;
//! `moves.rs` a move, numbered and with its ICCF numeric form; `notice.rs` an outbox item on
//! its one line. [`Audience`], whom a text is written for, and `shown`, a person's text as
//! it is shown, are every file's.

use crate::command::text;
use crate::notation::{Lang, Notation};

mod clock;
mod game;
mod moves;
mod notice;

pub use clock::{
    clock_line, clocks, clocks_and_note, doubling_note, push_clocks, push_clocks_and_note,
};
pub use game::{as_of, game_line, line_pairs, line_text, movetext, server_clocks, show, turn_note};
pub(super) use moves::numbered;
pub use moves::{push_with_numeric, with_numeric};
pub use notice::notice;

/// The most characters of a person's text (a message, a reason, a result's note) a reader is
/// shown in one item: more than the one check lets in, so only texts that never passed it (a
/// record written before it, the other node's record) are ever cut.
const SHOWN_CHARS: usize = 1000;

/// A person's text as a reader is shown it: checked texts as they are; any other made fit by
/// [`text::scrub`], so no text on record, however old or wherever from, reaches a terminal
/// or a mail raw.
pub(super) fn shown(said: &str) -> String {
    text::scrub(said, SHOWN_CHARS)
}

/// Whom an outbox item is written for: the notation they read moves in, and their language.
/// (The tolerant reader of a move a person wrote is another thing, [`crate::notation::Reader`].)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Audience {
    pub notation: Notation,
    pub lang: Option<Lang>,
}

impl Default for Audience {
    /// The administrator, or a player the configuration no longer has: ICCF numeric.
    fn default() -> Audience {
        Audience {
            notation: Notation::Iccf,
            lang: None,
        }
    }
}

#[cfg(test)]
mod tests;
