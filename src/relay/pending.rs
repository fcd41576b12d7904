//! A reply that waits on the journal: the relay task never waits for a commit itself (many
//! moves share one fsync), so it hands back a [`Pending`] that the transport resolves once
//! what the reply tells of is on disk.

use crate::journal::{Committed, JournalError, ReceiptAnswer, Short};

use super::reply::{Reply, Status};
use super::said::Said;

/// A reply to send now, or once the journal has committed what it records, or once it has
/// found a receipt.
pub enum Pending {
    Now(Reply),
    AfterCommit(Committed, Reply),
    Receipt(i64, ReceiptAnswer),
}

impl Pending {
    /// The pending reply, saying `said` if it is a success (a refusal or a failure to record
    /// says what it says already).
    pub(super) fn saying(self, said: Said) -> Pending {
        match self {
            Pending::Now(reply) if reply.status.is_success() => Pending::Now(reply.saying(said)),
            Pending::AfterCommit(committed, reply) if reply.status.is_success() => {
                Pending::AfterCommit(committed, reply.saying(said))
            }
            other => other,
        }
    }

    /// Waits for the commit, if any; a failed commit turns the reply into an error. A reply
    /// to a command that wrote entries carries the short receipt of the last one.
    pub async fn resolve(self) -> Reply {
        match self {
            Pending::Now(reply) => reply,
            Pending::AfterCommit(committed, mut reply) => match committed.await {
                Ok(Ok(entries)) => {
                    if !reply.ends_with_secret {
                        reply.receipt = entries.last().map(|e| Short::of(e.seq, &e.hash));
                    }
                    reply
                }
                Ok(Err(e)) => Reply::not_recorded(&e),
                Err(_) => Reply::not_recorded(&JournalError::Stopped),
            },
            Pending::Receipt(seq, answer) => match answer.await {
                Ok(Ok(Some(receipt))) => Reply::new(Status::Done, receipt.to_string()),
                Ok(Ok(None)) => Reply::new(
                    Status::NotFound,
                    format!("no signed receipt for entry {seq}: no such entry, or none signed"),
                ),
                Ok(Err(e)) => Reply::not_recorded(&e),
                Err(_) => Reply::not_recorded(&JournalError::Stopped),
            },
        }
    }
}
