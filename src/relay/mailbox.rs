//! What a transport needs of the durable outbox, and nothing more: subscribe a live session to
//! a player's messages, read what is waiting, acknowledge what was received. Transports use
//! this instead of the journal, so they know nothing of storage.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::journal::{Hub, Journal, JournalError, OutboxItem};

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
}
