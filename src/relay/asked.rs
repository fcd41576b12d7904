//! The request being handled, as one value every handler takes: who asked, the words they
//! asked in (what the request's entries record), the transport's idempotency key and, for an
//! action made on another node, how long ago it was made. Nothing of a request is kept in the
//! relay's state between requests.

use std::ops::Deref;

use jiff::SignedDuration;

use super::Sender;

/// A request: its sender (which it reads as, through `Deref`) and its words.
#[derive(Clone, Debug)]
pub(super) struct Asked {
    pub(super) sender: Sender,
    /// The text as received: what the request's entries record.
    pub(super) said: String,
    /// The transport's idempotency key, recorded with the request's entries (the first one
    /// committed keeps it; see [`super::Said::key`]).
    pub(super) key: Option<String>,
    /// How long ago the action was made, if on another node (see [`super::Said::age`]).
    pub(super) age: Option<SignedDuration>,
}

impl Asked {
    /// A request of `sender` in the words `said`, without a key or an age.
    pub(super) fn new(sender: Sender, said: impl Into<String>) -> Asked {
        Asked {
            sender,
            said: said.into(),
            key: None,
            age: None,
        }
    }

    /// The same sender asking something else in `said` (a message sent with a move, a
    /// secret's change recorded without the secret): no key, no age of its own.
    pub(super) fn saying(&self, said: impl Into<String>) -> Asked {
        Asked::new(self.sender.clone(), said)
    }
}

impl Deref for Asked {
    type Target = Sender;

    fn deref(&self) -> &Sender {
        &self.sender
    }
}
