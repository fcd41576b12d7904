//! Live sessions waiting for their players' messages: the writer hands each committed outbox
//! item here, and every session of its player gets it without the writer ever waiting.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::mpsc;

use super::OutboxItem;

/// Each player's live sessions: a session id and its queue.
type Sessions = HashMap<String, Vec<(u64, mpsc::Sender<OutboxItem>)>>;

/// Live sessions waiting for their players' messages. The writer pushes each message here
/// after its commit; a session whose queue is full is dropped from the hub (its receiver then
/// ends) and must fetch from the outbox again.
#[derive(Default)]
pub struct Hub {
    sessions: Mutex<Sessions>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Hub {
    /// Registers a session for `player`; returns its id and receiver.
    pub fn register(&self, player: &str, capacity: usize) -> (u64, mpsc::Receiver<OutboxItem>) {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(capacity.max(1));
        self.lock()
            .entry(player.to_owned())
            .or_default()
            .push((id, tx));
        (id, rx)
    }

    pub fn unregister(&self, player: &str, id: u64) {
        let mut sessions = self.lock();
        if let Some(list) = sessions.get_mut(player) {
            list.retain(|(sid, _)| *sid != id);
            if list.is_empty() {
                sessions.remove(player);
            }
        }
    }

    /// Hands a committed message to the player's live sessions, never blocking: a copy to
    /// each but the last, which takes the item itself.
    pub fn push(&self, item: OutboxItem) {
        let mut sessions = self.lock();
        if let Some(list) = sessions.get_mut(&item.player) {
            let last = list.len();
            let mut item = Some(item);
            let mut nth = 0;
            list.retain(|(_, tx)| {
                nth += 1;
                let copy = if nth == last {
                    item.take()
                } else {
                    item.clone()
                };
                copy.is_some_and(|copy| tx.try_send(copy).is_ok())
            });
            if list.is_empty() {
                // Rare (every session of the player fell behind at once): the item, and the
                // name with it, is gone; find the empty list again.
                sessions.retain(|_, list| !list.is_empty());
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sessions> {
        // A panic while holding this lock cannot leave the map inconsistent: take it anyway.
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
