//! What the relay keeps beside each game that the game itself does not hold: its event, round
//! and start, each side's last message, the
//! conversation. Read from the journal at start, kept up by each
//! command after; the player's view of a game ([`super::view`]) is made from it.

use jiff::Timestamp;

use crate::journal::replay::{JournaledGame, Spoken};

/// What the relay knows of a game beside its moves.
#[derive(Clone, Debug, Default)]
pub(super) struct GameNotes {
    pub(super) event: Option<String>,
    pub(super) round: Option<String>,
    pub(super) started: Option<Timestamp>,
    /// The last message each side (White, Black) sent in the game.
    pub(super) messages: [Option<String>; 2],
    /// The game's last messages, oldest first (see [`crate::journal::replay::CONVERSATION`]).
    pub(super) conversation: Vec<Spoken>,
}

impl GameNotes {
    pub(super) fn of_journaled(game: &JournaledGame) -> GameNotes {
        GameNotes {
            event: game.event.clone(),
            round: game.round.clone(),
            started: game.started.parse().ok(),
            messages: game.messages.clone(),
            conversation: game.conversation.clone(),
        }
    }
}
