//! The relay's handlers, one file per family of commands (the `Command` enum's), each a
//! function over the parts of the state it needs; `dispatch.rs` is the one router from a
//! command to its handler. A new command: its words in `command/`, its handler in the file of
//! its family (or a new file here), its line in `dispatch.rs` (docs/architecture.md, "A new
//! command").

pub(super) mod clock;
pub(super) mod conditional;
pub(super) mod dispatch;
pub(super) mod event_lists;
pub(super) mod events;
pub(super) mod games;
pub(super) mod knockout;
pub(super) mod leave;
pub(super) mod link;
pub(super) mod messages;
pub(super) mod moves;
pub(super) mod notify;
pub(super) mod offers;
pub(super) mod players;
pub(super) mod ratings;
pub(super) mod remote;
pub(super) mod remote_status;
pub(super) mod replica;
pub(super) mod results;
pub(super) mod special_leave;
