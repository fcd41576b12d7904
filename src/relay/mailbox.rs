//! What a transport needs of the durable outbox, and nothing more: subscribe a live session to
//! a player's messages, read what is waiting, acknowledge what was received. Transports use
//! this instead of the journal, so they know nothing of storage.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::journal::{EntryKind, Hub, Journal, JournalError, NewEntry, OutboxItem, Record, Seen};

use super::Channel;

/// A message for a player: its outbox id (what the player acknowledges) and text.
pub type Message = OutboxItem;

#[derive(Clone)]
pub struct Mailbox {
    journal: Journal,
    hub: Arc<Hub>,
}

/// A live session's feed of newly committed messages.
pub struct Subscription {
    pub id: u64,
    pub messages: mpsc::Receiver<Message>,
}

impl Mailbox {
    pub fn new(journal: Journal, hub: Arc<Hub>) -> Mailbox {
        Mailbox { journal, hub }
    }

    /// Starts feeding `player`'s new messages to a session, at most `capacity` queued; a
    /// session that falls further behind finds its feed closed and reads [`Mailbox::waiting`].
    pub fn subscribe(&self, player: &str, capacity: usize) -> Subscription {
        let (id, messages) = self.hub.register(player, capacity);
        Subscription { id, messages }
    }

    pub fn unsubscribe(&self, player: &str, id: u64) {
        self.hub.unregister(player, id);
    }

    /// `player`'s unacknowledged messages after id `after`, oldest first, at most `limit`.
    pub async fn waiting(
        &self,
        player: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<Message>, JournalError> {
        self.journal.pending(player, after, limit).await
    }

    /// `player` received every message up to `upto`; returns how many were newly acknowledged.
    pub async fn acknowledge(&self, player: &str, upto: i64) -> Result<usize, JournalError> {
        self.journal.deliver(player, upto).await
    }

    /// The journal entry a transport's idempotency key was recorded with, if any: the message
    /// was already handled (see [`crate::relay::Relay::call_keyed`]).
    pub async fn seen(&self, key: &str) -> Result<Option<Seen>, JournalError> {
        self.journal.seen(key).await
    }

    /// Journals a message a transport refused before it reached the relay (a mail failing
    /// authentication): a `rejected` entry that changes no game, with `key` so it is refused
    /// once. Returns once committed.
    pub async fn reject(
        &self,
        rejected: Rejected<'_>,
        key: Option<String>,
    ) -> Result<(), JournalError> {
        let mut entry = NewEntry::new(
            rejected.game,
            rejected.player,
            rejected.channel.as_str(),
            EntryKind::Rejected,
            rejected.text,
        );
        entry.detail = rejected.reason.to_owned();
        entry.key = key;
        self.journal
            .append(vec![Record {
                entry,
                outbox: vec![],
            }])
            .await
            .map(|_| ())
    }
}

/// A refused message, as journaled: under which game and player (as claimed), and why.
pub struct Rejected<'a> {
    pub game: &'a str,
    pub player: &'a str,
    pub channel: Channel,
    pub text: &'a str,
    pub reason: &'a str,
}
