//! An outbox reader's rows mailed in order, one reader for every mail queue of the journal's
//! outbox: the relay's mail to a player (`Outbound::deliver_outbox`) and a player's
//! mail when it is their move (`Notices::deliver`). A row is acknowledged once its mail was
//! accepted, parked as a dead letter, or found to need none; a row that cannot be mailed now
//! holds the rows behind it, so that a player's mail never arrives out of order.

use super::{Outbound, Outgoing, PAGE, now_rfc3339, subject_of};
use crate::relay::Message as OutboxMessage;
use crate::relay::undelivered::{DeadLetter, Shelf};

/// What became of one row.
pub(in crate::transport::email) enum Handled {
    /// Mailed, parked, or nothing to mail: acknowledged, and the next row goes on.
    Done,
    /// Not now (a mail not made, a letter not parked): this row and those behind it wait
    /// `email.retry_max` and are read again.
    Stuck,
    /// The daemon stops.
    Stopping,
}

/// A reader's rows, read a page at a time: `next` gives the next row to mail, waiting for one
/// when none is left; `settle` says what became of it.
pub(in crate::transport::email) struct Rows<'a> {
    out: &'a Outbound,
    reader: &'a str,
    page: std::collections::VecDeque<OutboxMessage>,
}

impl Outbound {
    /// `reader`'s outbox rows, in order.
    pub(in crate::transport::email) fn rows<'a>(&'a self, reader: &'a str) -> Rows<'a> {
        Rows {
            out: self,
            reader,
            page: std::collections::VecDeque::new(),
        }
    }

    /// Sends `mail`, made for `item` of `player`'s at `to`, until the server takes it; a mail
    /// refused for good is parked as a dead letter, its subject `what` (or the mail's own)
    /// and its bytes kept unless `keep_bytes` is false (a mail that holds a secret).
    pub(in crate::transport::email) async fn send_or_park(
        &self,
        item: &OutboxMessage,
        player: &str,
        mail: Outgoing,
        what: Option<String>,
        keep_bytes: bool,
    ) -> Handled {
        let error = match self.send_until_accepted(&mail).await {
            super::Sent::Accepted => return Handled::Done,
            super::Sent::Stopping => return Handled::Stopping,
            super::Sent::Refused(error) => error,
        };
        let letter = DeadLetter {
            id: format!("o{}", item.id),
            shelf: Shelf::Parked,
            player: player.to_owned(),
            to: mail.to.clone(),
            game: item.game.clone(),
            what: what.unwrap_or_else(|| subject_of(&mail.bytes)),
            error,
            parked_at: now_rfc3339(),
            bytes: if keep_bytes { mail.bytes } else { Vec::new() },
        };
        if self.park(letter).await {
            Handled::Done
        } else {
            Handled::Stuck
        }
    }
}

impl Rows<'_> {
    /// The next row to mail; `None` once the daemon stops.
    pub(in crate::transport::email) async fn next(&mut self) -> Option<OutboxMessage> {
        let out = self.out;
        while self.page.is_empty() {
            if out.shutdown.is_cancelled() {
                return None;
            }
            // Subscribed before reading, so that a row added meanwhile wakes the wait.
            let mut feed = out.mailbox.subscribe(self.reader, PAGE * 4);
            let read = out.mailbox.waiting(self.reader, 0, PAGE).await;
            let stop = match read {
                Ok(page) if page.is_empty() => {
                    tokio::select! {
                        _ = feed.recv() => {}
                        () = tokio::time::sleep(out.email.poll_interval) => {}
                        () = out.shutdown.cancelled() => {}
                    }
                    false
                }
                Ok(page) => {
                    self.page = page.into();
                    false
                }
                Err(e) => {
                    tracing::error!(reader = %self.reader, error = %e, "cannot read the outbox");
                    out.pause(out.email.poll_interval).await
                }
            };
            out.mailbox.unsubscribe(self.reader, feed.id);
            if stop {
                return None;
            }
        }
        self.page.pop_front()
    }

    /// What became of row `id`, the last `next` gave: acknowledged once done; a row stuck
    /// is read again, with those behind it, after `email.retry_max`. False once the daemon
    /// stops.
    pub(in crate::transport::email) async fn settle(&mut self, id: i64, handled: Handled) -> bool {
        match handled {
            Handled::Done => {
                if let Err(e) = self.out.mailbox.acknowledge(self.reader, id).await {
                    tracing::error!(reader = %self.reader, error = %e, "cannot acknowledge a mailed outbox row");
                }
                true
            }
            Handled::Stuck => {
                self.page.clear();
                !self.out.pause(self.out.email.retry_max).await
            }
            Handled::Stopping => false,
        }
    }
}
