//! What a reply says, typed: its kind and values beside the line protocol's English words
//! ([`super::Reply::text`]). The line protocol, XFCC and mail write the text, which clients
//! parse and which never changes with the reader; a front end that writes its own words (the
//! web pages, in the reader's language, from the catalogs) renders a reply from this instead,
//! so that no English line of the protocol reaches a page in Russian.
//!
//! Every reply to what a player's page can send carries one; a reply without one (an
//! administrator's command, a listing) is rendered by its status alone.

use shakmaty::Color;

use crate::game::clock::{Leave, LeaveRefusal};
use crate::game::{Claim, Refusal};

/// What a reply says.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Said {
    /// The sender's move, played: its number and side, the move as the sender reads moves
    /// with its code (`Кg1—f3 (7163)`), and whether it offered a draw.
    Moved {
        number: u32,
        color: Color,
        written: String,
        draw_offer: bool,
    },
    /// A draw offered.
    DrawOffered,
    /// The opponent's draw offer accepted: the game is drawn.
    DrawAccepted,
    /// The opponent's draw offer declined.
    DrawDeclined,
    /// The sender resigned.
    Resigned,
    /// A draw claimed, and granted.
    Claimed { claim: Claim },
    /// A conditional line set: each of the opponent's expected moves with the sender's answer,
    /// numbered and written as the sender reads moves (`12... Nf6`, `13. Bg5`).
    LineSet { pairs: Vec<(String, String)> },
    /// The sender's conditional line cancelled.
    LineCancelled,
    /// A message sent to the opponent; `mended` when its words were mended for its reader.
    MessageSent { mended: bool },
    /// Leave taken in `games`; sent for `proposed` to the node that keeps their records; not
    /// taken in `without`, whose rules have none.
    LeaveTaken {
        leave: Leave,
        games: Vec<String>,
        proposed: Vec<String>,
        without: Vec<(String, LeaveRefusal)>,
    },
    /// Days moved from the Triple Block bank to the clock.
    Refilled { days: u32 },
    /// A long reflection declared for the sender's move `number`.
    ReflectionDeclared { number: u32 },
    /// Sent on to the node that keeps the game's record: the sender is told when it is in it.
    Proposed,
    /// Refused by the game: why, typed.
    Refused(Refusal),
    /// Refused by game `game` (leave, which is taken in all the sender's games at once).
    RefusedIn { game: String, refusal: Refusal },
    /// Leave refused: the sender has no game in progress to take it from.
    NoGameForLeave,
    /// The command's reply, and what became of the message riding with it.
    WithMessage {
        command: Box<Said>,
        message: MessageFate,
    },
    /// The journal did not record it: nothing changed; try again.
    NotRecorded,
    /// The relay is shutting down: try again later.
    ShuttingDown,
}

/// What became of a message riding with a command that was carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MessageFate {
    /// Sent; `mended` when its words were mended for its reader.
    Sent { mended: bool },
    /// Not sent: nothing readable was left of it.
    Empty,
    /// Not sent: refused, for the reason given when there is one.
    NotSent(Option<Box<Said>>),
}
