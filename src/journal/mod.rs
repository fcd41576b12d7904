//! The official record: every accepted move, rejected attempt, draw offer, resignation, game
//! start and result, in SQLite (WAL, `synchronous=FULL`), chained by SHA-256 so that any change
//! to a past entry shows.
//!
//! One writer thread owns the connection and commits whatever is queued in one transaction
//! (group commit). A caller's [`Journal::append`] returns only once its entries are on disk;
//! messages for the opponent are written in the same transaction into a durable outbox, and
//! handed to the opponent's live sessions through the [`Hub`] only after the commit. They stay
//! in the outbox until the receiver acknowledges them ([`Journal::deliver`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), ccrelay::journal::JournalError> {
//! use ccrelay::journal::{Journal, Hub, NewEntry, EntryKind, Record};
//! let hub = std::sync::Arc::new(Hub::default());
//! let failed = tokio_util::sync::CancellationToken::new();
//! let (journal, _replayed) = Journal::open(std::path::Path::new("./data"), hub, 1024, failed)?;
//! let entry = NewEntry::new("g1", "alice", "tcp", EntryKind::Move, "e4");
//! journal.append(vec![Record { entry, outbox: vec![] }]).await?;
//! # Ok(()) }
//! ```

pub mod crosstable;
pub mod export;
pub mod peer;
pub mod replay;
pub mod store;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

pub use replay::{Replayed, replay, verify};

/// What an entry records.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    GameStart,
    Move,
    Rejected,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Result,
    Leave,
    Conditional,
    Claim,
    TimeUp,
    Reminder,
    Adjudication,
    /// A message from a player to the opponent; changes no game.
    Message,
}

impl EntryKind {
    /// Every kind with its name in the journal file.
    const NAMES: [(EntryKind, &'static str); 15] = [
        (EntryKind::GameStart, "game_start"),
        (EntryKind::Move, "move"),
        (EntryKind::Rejected, "rejected"),
        (EntryKind::DrawOffer, "draw_offer"),
        (EntryKind::DrawAccept, "draw_accept"),
        (EntryKind::DrawDecline, "draw_decline"),
        (EntryKind::Resign, "resign"),
        (EntryKind::Result, "result"),
        (EntryKind::Leave, "leave"),
        (EntryKind::Conditional, "conditional"),
        (EntryKind::Claim, "claim"),
        (EntryKind::TimeUp, "time_up"),
        (EntryKind::Reminder, "reminder"),
        (EntryKind::Adjudication, "adjudication"),
        (EntryKind::Message, "message"),
    ];

    pub fn as_str(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or("", |(_, name)| name)
    }

    pub fn parse(s: &str) -> Option<EntryKind> {
        Self::NAMES
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(kind, _)| *kind)
    }
}

/// A committed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub seq: i64,
    /// RFC 3339, UTC.
    pub time: String,
    pub game: String,
    pub player: String,
    /// How it arrived: `tcp`, `admin`, `config`.
    pub channel: String,
    pub kind: EntryKind,
    /// Exactly as received.
    pub text: String,
    /// The move, normalized.
    pub iccf: Option<String>,
    pub san: Option<String>,
    /// Why a rejection, what result, a game's players and start position (JSON), a claim, a
    /// leave, a conditional line (ICCF moves).
    pub detail: String,
    pub hash: [u8; 32],
}

/// An entry to append.
#[derive(Clone, Debug)]
pub struct NewEntry {
    /// When it happened: the relay's clock, which tests control.
    pub time: jiff::Timestamp,
    pub game: String,
    pub player: String,
    pub channel: String,
    pub kind: EntryKind,
    pub text: String,
    pub iccf: Option<String>,
    pub san: Option<String>,
    pub detail: String,
    /// A transport's idempotency key for the message that caused this entry (an email's
    /// Message-ID, hashed): stored with the entry in the same transaction, so a message seen
    /// again after a crash is recognised ([`Journal::seen`]). Not part of the hash chain.
    pub key: Option<String>,
}

impl NewEntry {
    pub fn new(game: &str, player: &str, channel: &str, kind: EntryKind, text: &str) -> NewEntry {
        NewEntry {
            time: jiff::Timestamp::now(),
            game: game.to_owned(),
            player: player.to_owned(),
            channel: channel.to_owned(),
            kind,
            text: text.to_owned(),
            iccf: None,
            san: None,
            detail: String::new(),
            key: None,
        }
    }
}

/// The entry an idempotency key was recorded with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub seq: i64,
    pub game: String,
    pub kind: EntryKind,
    pub text: String,
    pub iccf: Option<String>,
    pub detail: String,
}

/// A message waiting for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxItem {
    pub id: i64,
    pub player: String,
    pub game: String,
    pub body: String,
}

/// A message for a player, to be written with an entry.
#[derive(Clone, Debug)]
pub struct NewOutbox {
    pub player: String,
    pub body: String,
}

/// An entry and the messages it sends.
#[derive(Clone, Debug)]
pub struct Record {
    pub entry: NewEntry,
    pub outbox: Vec<NewOutbox>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    #[error("journal storage: {0}")]
    Sqlite(String),
    #[error("journal file: {0}")]
    Io(String),
    #[error("journal is corrupt: {0}")]
    Corrupt(String),
    #[error("journal writer has stopped (an earlier commit failed, or shutting down)")]
    Stopped,
    #[error("an entry's detail could not be written: {0}")]
    Detail(String),
}

/// An entry's structured detail (a game's start, leave, a time-out, an adjudication) as the
/// JSON the journal stores. A detail that cannot be written is an error, never an empty
/// detail: replay reads these back.
pub fn detail<T: serde::Serialize>(value: &T) -> Result<String, JournalError> {
    serde_json::to_string(value).map_err(|e| JournalError::Detail(e.to_string()))
}

impl From<rusqlite::Error> for JournalError {
    fn from(e: rusqlite::Error) -> JournalError {
        JournalError::Sqlite(e.to_string())
    }
}

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

    /// Hands a committed message to the player's live sessions, never blocking.
    pub fn push(&self, item: &OutboxItem) {
        let mut sessions = self.lock();
        if let Some(list) = sessions.get_mut(&item.player) {
            list.retain(|(_, tx)| tx.try_send(item.clone()).is_ok());
            if list.is_empty() {
                sessions.remove(&item.player);
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

enum Op {
    Append {
        records: Vec<Record>,
        reply: oneshot::Sender<Result<Vec<Entry>, JournalError>>,
    },
    Deliver {
        player: String,
        upto: i64,
        reply: oneshot::Sender<Result<usize, JournalError>>,
    },
    Pending {
        player: String,
        after: i64,
        limit: usize,
        reply: oneshot::Sender<Result<Vec<OutboxItem>, JournalError>>,
    },
    Seen {
        key: String,
        reply: oneshot::Sender<Result<Option<Seen>, JournalError>>,
    },
}

/// Answers when queued records are committed (or not).
pub type Committed = oneshot::Receiver<Result<Vec<Entry>, JournalError>>;

/// The most operations committed in one transaction.
const GROUP_MAX: usize = 512;

/// Commits after which the writer copies the write-ahead log into the database (a
/// checkpoint) as soon as nothing is queued. SQLite's own checkpoint runs inside whichever
/// commit crosses its threshold and holds that commit (and every move waiting on it) for tens
/// of milliseconds; the writer runs it between commits instead, after the answers are out.
const CHECKPOINT_WHEN_IDLE: u32 = 64;
/// Commits after which the writer checkpoints even with work queued, so that the log stays
/// bounded under a load that never pauses.
const CHECKPOINT_AT_MOST: u32 = 2048;
/// The size the log file is cut back to after a checkpoint.
const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// A handle to the writer thread. Cheap to clone.
#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Op>,
}

impl Journal {
    /// Opens the journal under `data_dir`, replays it (checking the hash chain), and starts the
    /// writer thread with a queue of `queue` operations. If a commit ever fails, the writer
    /// refuses everything after it and cancels `failed`: the daemon must stop, and replay the
    /// journal when it starts again, rather than go on from a state the disk does not hold.
    pub fn open(
        data_dir: &Path,
        hub: Arc<Hub>,
        queue: usize,
        failed: CancellationToken,
    ) -> Result<(Journal, Replayed), JournalError> {
        let conn = store::open(data_dir)?;
        // The writer checkpoints between commits (see [`CHECKPOINT_WHEN_IDLE`]).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        let replayed = replay(&conn)?;
        let (tx, rx) = mpsc::channel(queue.max(1));
        let (seq, prev) = store::tail(&conn)?;
        std::thread::Builder::new()
            .name("journal-writer".to_owned())
            .spawn(move || writer(conn, rx, hub, seq, prev, failed))
            .map_err(|e| JournalError::Io(e.to_string()))?;
        Ok((Journal { tx }, replayed))
    }

    /// Appends records; returns once they are committed to disk.
    pub async fn append(&self, records: Vec<Record>) -> Result<Vec<Entry>, JournalError> {
        self.enqueue(records)
            .await?
            .await
            .map_err(|_| JournalError::Stopped)?
    }

    /// Queues records behind everything queued before, and returns at once with a receiver
    /// that answers when they are committed. Lets one caller keep its order in the journal
    /// without waiting for each commit.
    pub async fn enqueue(&self, records: Vec<Record>) -> Result<Committed, JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::Append { records, reply })
            .await
            .map_err(|_| JournalError::Stopped)?;
        Ok(rx)
    }

    /// Marks `player`'s messages up to `upto` delivered (the receiver acknowledged them).
    pub async fn deliver(&self, player: &str, upto: i64) -> Result<usize, JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::Deliver {
                player: player.to_owned(),
                upto,
                reply,
            })
            .await
            .map_err(|_| JournalError::Stopped)?;
        rx.await.map_err(|_| JournalError::Stopped)?
    }

    /// `player`'s undelivered messages after id `after`, oldest first, at most `limit`.
    pub async fn pending(
        &self,
        player: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<OutboxItem>, JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::Pending {
                player: player.to_owned(),
                after,
                limit,
                reply,
            })
            .await
            .map_err(|_| JournalError::Stopped)?;
        rx.await.map_err(|_| JournalError::Stopped)?
    }

    /// The entry recorded with idempotency key `key`, if any (see [`NewEntry::key`]). Answers
    /// after everything queued before it is committed.
    pub async fn seen(&self, key: &str) -> Result<Option<Seen>, JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::Seen {
                key: key.to_owned(),
                reply,
            })
            .await
            .map_err(|_| JournalError::Stopped)?;
        rx.await.map_err(|_| JournalError::Stopped)?
    }

    /// Waits until every operation queued before this call is committed (for shutdown).
    pub async fn flush(&self) -> Result<(), JournalError> {
        self.append(Vec::new()).await.map(|_| ())
    }
}

/// The writer: takes one operation, then whatever else is queued (up to [`GROUP_MAX`]), runs
/// them in one transaction, commits, and only then answers and pushes. After a failed commit it
/// answers every later operation with [`JournalError::Stopped`]: nothing may be built on a
/// state the disk does not hold.
fn writer(
    mut conn: rusqlite::Connection,
    mut rx: mpsc::Receiver<Op>,
    hub: Arc<Hub>,
    mut seq: i64,
    mut prev: [u8; 32],
    fatal: CancellationToken,
) {
    let mut batch: Vec<Op> = Vec::with_capacity(GROUP_MAX);
    let mut failed = false;
    let mut commits_since_checkpoint: u32 = 0;
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < GROUP_MAX {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        if failed {
            for op in batch.drain(..) {
                refuse(op);
            }
            continue;
        }
        let (start_seq, start_prev) = (seq, prev);
        let started = std::time::Instant::now();
        let outcome = run_batch(&mut conn, &mut batch, &mut seq, &mut prev);
        metrics::histogram!("ccrelay_journal_commit_seconds").record(started.elapsed());
        match outcome {
            Ok(results) => {
                for (op, result) in batch.drain(..).zip(results) {
                    answer(op, result, &hub);
                }
                commits_since_checkpoint += 1;
                if commits_since_checkpoint >= CHECKPOINT_AT_MOST
                    || (commits_since_checkpoint >= CHECKPOINT_WHEN_IDLE && rx.is_empty())
                {
                    checkpoint(&conn);
                    commits_since_checkpoint = 0;
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "journal commit failed; refusing all further writes and stopping");
                metrics::counter!("ccrelay_journal_commits_failed_total").increment(1);
                failed = true;
                fatal.cancel();
                seq = start_seq;
                prev = start_prev;
                for op in batch.drain(..) {
                    refuse(op);
                }
            }
        }
    }
}

/// Copies the log into the database without waiting for readers (PASSIVE). A checkpoint that
/// fails loses nothing (the log holds every commit) and the next one tries again.
fn checkpoint(conn: &rusqlite::Connection) {
    let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
    });
    match done {
        Ok((log, copied)) => tracing::trace!(log, copied, "journal checkpoint"),
        Err(e) => tracing::warn!(error = %e, "journal checkpoint failed; the next one retries"),
    }
}

enum OpResult {
    Appended(Vec<Entry>, Vec<OutboxItem>),
    Delivered(usize),
    Pending(Vec<OutboxItem>),
    Seen(Option<Seen>),
}

fn run_batch(
    conn: &mut rusqlite::Connection,
    batch: &mut [Op],
    seq: &mut i64,
    prev: &mut [u8; 32],
) -> Result<Vec<OpResult>, JournalError> {
    let tx = conn.transaction()?;
    let mut results = Vec::with_capacity(batch.len());
    for op in batch.iter_mut() {
        let result = match op {
            Op::Append { records, .. } => {
                let mut entries = Vec::with_capacity(records.len());
                let mut items = Vec::new();
                for record in std::mem::take(records) {
                    let game = record.entry.game.clone();
                    let entry = store::insert_entry(&tx, *seq + 1, prev, record.entry)?;
                    *seq = entry.seq;
                    *prev = entry.hash;
                    for out in record.outbox {
                        let id =
                            store::insert_outbox(&tx, &out.player, &game, entry.seq, &out.body)?;
                        items.push(OutboxItem {
                            id,
                            player: out.player,
                            game: game.clone(),
                            body: out.body,
                        });
                    }
                    entries.push(entry);
                }
                OpResult::Appended(entries, items)
            }
            Op::Deliver { player, upto, .. } => {
                OpResult::Delivered(store::mark_delivered(&tx, player, *upto)?)
            }
            Op::Pending {
                player,
                after,
                limit,
                ..
            } => OpResult::Pending(store::pending(&tx, player, *after, *limit)?),
            Op::Seen { key, .. } => OpResult::Seen(store::seen(&tx, key)?),
        };
        results.push(result);
    }
    tx.commit()?;
    Ok(results)
}

fn answer(op: Op, result: OpResult, hub: &Hub) {
    match (op, result) {
        (Op::Append { reply, .. }, OpResult::Appended(entries, items)) => {
            for item in &items {
                hub.push(item);
            }
            let _ = reply.send(Ok(entries));
        }
        (Op::Deliver { reply, .. }, OpResult::Delivered(n)) => {
            let _ = reply.send(Ok(n));
        }
        (Op::Pending { reply, .. }, OpResult::Pending(items)) => {
            let _ = reply.send(Ok(items));
        }
        (Op::Seen { reply, .. }, OpResult::Seen(seen)) => {
            let _ = reply.send(Ok(seen));
        }
        (op, _) => refuse(op),
    }
}

fn refuse(op: Op) {
    match op {
        Op::Append { reply, .. } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
        Op::Deliver { reply, .. } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
        Op::Pending { reply, .. } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
        Op::Seen { reply, .. } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's own checkpoint is off on the writer, which runs one between commits: after a
    /// run of commits and a pause, the database file itself holds them, not only the log.
    #[tokio::test]
    async fn the_writer_checkpoints_between_commits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (journal, _) = Journal::open(
            dir.path(),
            Arc::new(Hub::default()),
            64,
            CancellationToken::new(),
        )
        .expect("journal");
        let db = dir.path().join(store::FILE_NAME);
        let size = || std::fs::metadata(&db).expect("database file").len();
        let before = size();
        let text = "x".repeat(2000);
        for _ in 0..CHECKPOINT_WHEN_IDLE {
            let entry = NewEntry::new("g", "p", "tcp", EntryKind::Message, &text);
            let record = Record {
                entry,
                outbox: vec![],
            };
            journal.append(vec![record]).await.expect("append");
        }
        // Nothing more is queued, so the writer checkpoints now, after its last answer.
        let wanted = before + u64::from(CHECKPOINT_WHEN_IDLE) * 2000;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while size() < wanted && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(size() >= wanted, "{} bytes in the database file", size());
    }
}
