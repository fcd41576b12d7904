//! Routing: a command from an authenticated player -> its game -> the journal -> a reply, and
//! messages for the opponent in the durable outbox, written in the opponent's notation.
//!
//! One task owns every game (`task.rs`, [`Relay::spawn`]); transports send it [`Request`]s.
//! Its state is three plain parts (`state.rs`: the games `games.rs`, the people `people.rs`,
//! the recorder `recorder.rs`); each command goes to its family's handler in `handle/`
//! through the one router, `handle/dispatch.rs`. This file only declares the modules and
//! says what the rest of the crate may use.
//!
//! Transports judge no game: they hand the relay typed [`Command`](crate::command::Command)s
//! and get typed [`Reply`]s back. Some read moves and draw boards for their readers (the web's
//! board, a mail's notation), with the game and notation layers below them; none decides
//! whether a move is legal or what the record holds.

mod counters;
mod games;
mod handle;
mod link_role;
pub mod mailbox;
mod notes;
pub mod notify;
mod peers;
mod pending;
mod people;
mod preview;
mod record;
mod recorder;
pub mod remote;
pub mod render;
mod replica;
mod reply;
mod request;
mod roster;
mod said;
mod start;
mod state;
pub mod summary;
mod task;
pub mod undelivered;
mod view;
mod watch;

pub use crate::event::standings::{Row, halves, quarters};
/// A short receipt (`r17:3fa9c2d1e0b4`), as transports write it after a reply or a push.
pub use crate::journal::Short as ShortReceipt;
pub use crate::journal::desk::{AdminEntry, Heads, Verdict};
/// A remote account's standing, as the bridge reports it and the record keeps it.
pub use crate::journal::entry::{RemoteHealth, RemoteStatusDetail};
/// What a transport is told, as data: the outbox's items, which the journal keeps typed.
pub use crate::journal::notice::Notice;
/// Both clocks as a notice carries them, and as the web pages show them.
pub use crate::journal::notice::{ClockKind, Clocks, Side, SideClock};
/// The rating list as `ccrelay journal ratings` writes it, for the desk's download.
pub use crate::journal::ratings::{ListFormat, write_list};
/// A game start's detail as its record entry holds it: a link sends a usual start in a few
/// bytes and writes the detail back from them, so it names its fields, through here.
pub use crate::journal::replay::GameStartDetail;
pub use crate::journal::replay::Spoken;
/// What a journal entry records, and a move entry's mark of a draw offer: a link carries the
/// record entry by entry ([`LinkItem::kind`]), so it names them, through here.
pub use crate::journal::{EntryKind, replay::DRAW_OFFER};
pub use mailbox::{
    Done, GamePlayers, Handled, LinkItem, Mailbox, MailboxError, Message, Rejected, Subscription,
    names,
};
pub use peers::{proposal_key, refusal_key};
pub use pending::Pending;
pub use preview::Preview;
pub use record::ExportFormat;
pub use replica::{Actor, Replicated, nearest_number};
pub use reply::{Channel, Reply, Status};
pub use request::{MessageAlone, Request, Sender, mended_message};
pub use roster::{Players, Roster, notation_name, reach_name};
pub use said::{MessageFate, Said};
pub use task::Relay;
pub use view::{GameView, Standing, san_movetext};
pub use watch::{Watched, crosstable};

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
