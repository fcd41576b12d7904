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

pub mod as_of;
pub mod chain;
pub mod clocks;
pub mod crosstable;
pub mod desk;
pub mod entry;
pub mod event_export;
pub mod export;
mod head;
mod hub;
pub mod keyring;
pub mod notice;
pub mod peer;
pub mod ratings;
pub mod receipt;
mod record;
pub mod registry;
pub mod replay;
mod report;
pub mod sealed;
pub mod signing;
pub mod snapshot;
pub mod store;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::notation::LangSet;

pub use entry::kind::EntryKind;
pub use hub::Hub;
pub use notice::Notice;
pub use receipt::{Receipt, Short};
pub use replay::{Replayed, replay, verify};
use snapshot::Snapshots;
use writer::{Op, Owned, WAL_SIZE_LIMIT, writer};

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
    /// A player's new secret hash (player, Argon2id PHC string), kept with the entry in the
    /// same transaction but apart from the record: never chained, exported or shown.
    pub credential: Option<(String, String)>,
    /// For a move by a player without a language of their own that narrowed the languages
    /// their moves in the game fit: those languages, which their next move is read in
    /// ([`crate::game::Game::langs`]). How the relay reads the player, not a fact of the
    /// record: stored with the entry in the same transaction, so replay reads on as before,
    /// and not part of the hash chain (nor sent over a link, nor exported).
    pub langs: Option<LangSet>,
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
            credential: None,
            langs: None,
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
    /// The short receipt of the entry the message reports.
    pub receipt: Short,
    pub told: Told,
}

/// What an outbox item tells its reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told {
    /// A notice: as it was made, on an item handed to a live session straight after its
    /// commit; read back from the row's body otherwise.
    Notice(Notice),
    /// A move the relay relayed, read back from a row that refers to its entry
    /// ([`NewOutbox::move_of_entry`]): its notice is made again from the record
    /// ([`notice::MoveNotice::from_record`]) by whoever hands it out.
    MoveOfEntry,
}

/// A message for a player, to be written with an entry.
#[derive(Clone, Debug)]
pub struct NewOutbox {
    pub player: String,
    /// The notice, handed on with the item to live sessions (they need not read the body
    /// back).
    pub notice: Notice,
    /// What the row stores: the notice as data, or nothing when the row's entry is the notice.
    body: String,
    /// The row refers to its entry: a move the relay relayed, whose notice is made again from
    /// the record when the row is read back. About 300 bytes of JSON a move (the position, the
    /// clocks) are not written: nearly every push is delivered live and acknowledged at once.
    of_entry: bool,
}

impl NewOutbox {
    /// The row telling `player` of `notice`, stored as data. The one place a row is made of a
    /// notice, with [`NewOutbox::move_of_entry`].
    pub fn notice(player: &str, notice: Notice) -> NewOutbox {
        NewOutbox {
            player: player.to_owned(),
            body: notice.to_body(),
            notice,
            of_entry: false,
        }
    }

    /// The row telling `player` of the move its entry records, `notice` being what
    /// [`notice::MoveNotice::from_record`] makes again from that entry: the row stores only
    /// that it refers to its entry.
    pub fn move_of_entry(player: &str, notice: notice::MoveNotice) -> NewOutbox {
        NewOutbox {
            player: player.to_owned(),
            body: String::new(),
            notice: Notice::Move(Box::new(notice)),
            of_entry: true,
        }
    }

    /// Holds a secret (a welcome mail's): removed from the outbox once delivered.
    pub fn sensitive(&self) -> bool {
        self.notice.holds_secret()
    }

    /// What the row stores of the notice: empty when it refers to its entry.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Whether the row refers to its entry rather than holding its notice.
    pub fn of_entry(&self) -> bool {
        self.of_entry
    }
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
    #[error("signing key: {0}")]
    Key(String),
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

/// Answers when queued records are committed (or not).
pub type Committed = oneshot::Receiver<Result<Vec<Entry>, JournalError>>;

/// Answers with a receipt once the writer has found it.
pub type ReceiptAnswer = oneshot::Receiver<Result<Option<Receipt>, JournalError>>;

/// A handle to the writer thread. Cheap to clone.
#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Op>,
    snapshots: Arc<Snapshots>,
}

impl Journal {
    /// Opens the journal under `data_dir`, replays it (checking the hash chain), and starts the
    /// writer thread with a queue of `queue` operations. If a commit ever fails, the writer
    /// refuses everything after it and cancels `failed`: the daemon must stop, and replay the
    /// journal when it starts again, rather than go on from a state the disk does not hold.
    /// The signing key is `signing.key` in `data_dir` (see [`Journal::open_keyed`]).
    pub fn open(
        data_dir: &Path,
        hub: Arc<Hub>,
        queue: usize,
        failed: CancellationToken,
    ) -> Result<(Journal, Replayed), JournalError> {
        Journal::open_keyed(data_dir, None, hub, queue, failed)
    }

    /// [`Journal::open`] with the signing key in `key_file` (or `signing.key` in the data
    /// directory): created there on first start, and named in the chain by a `signing_key`
    /// entry when the chain names no key yet. A key file that is not the chain's key stops
    /// the start. The journal is locked against a second writer (another daemon, a key
    /// rotation) while the writer runs.
    pub fn open_keyed(
        data_dir: &Path,
        key_file: Option<&Path>,
        hub: Arc<Hub>,
        queue: usize,
        failed: CancellationToken,
    ) -> Result<(Journal, Replayed), JournalError> {
        let conn = store::open(data_dir)?;
        let lock = keyring::lock(data_dir)?;
        // The writer checkpoints between commits (see `writer::CHECKPOINT_WHEN_IDLE`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        let mut replayed = snapshot::replay_for_start(&conn, data_dir)?;
        replayed.credentials = replay::Credentials(store::credentials(&conn)?);
        let key_path: PathBuf = signing::key_path(data_dir, key_file);
        let key = Arc::new(keyring::for_journal(&key_path, &replayed.keys)?);
        if replayed.keys.current().is_none() {
            keyring::announce(&conn, &key)?;
            replayed.entries += 1;
        }
        let (tx, rx) = mpsc::channel(queue.max(1));
        let (seq, prev) = store::tail(&conn)?;
        let snapshots = Arc::new(Snapshots::new(data_dir, key.clone()));
        let owned = Owned {
            key,
            lock,
            snapshots: snapshots.clone(),
            snapshot_at: replayed.snapshot_at,
        };
        std::thread::Builder::new()
            .name("journal-writer".to_owned())
            .spawn(move || writer(conn, rx, hub, seq, prev, owned, failed))
            .map_err(|e| JournalError::Io(e.to_string()))?;
        Ok((Journal { tx, snapshots }, replayed))
    }

    /// The full receipt for entry `seq` (see [`receipt`]); `None` when there is no such entry
    /// or no signed head after it. Answers after everything queued before is committed.
    pub async fn receipt(&self, seq: i64) -> Result<Option<Receipt>, JournalError> {
        self.ask_receipt(seq)
            .await?
            .await
            .map_err(|_| JournalError::Stopped)?
    }

    /// Queues [`Journal::receipt`] and returns at once with a receiver for the answer.
    pub async fn ask_receipt(&self, seq: i64) -> Result<ReceiptAnswer, JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::Receipt { seq, reply })
            .await
            .map_err(|_| JournalError::Stopped)?;
        Ok(rx)
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

    /// Brings the start snapshot up to the last committed entry (for shutdown, after
    /// [`Journal::flush`]): the next start replays only what is committed after it.
    pub async fn snapshot(&self) -> Result<i64, JournalError> {
        let snapshots = self.snapshots.clone();
        tokio::task::spawn_blocking(move || snapshots.catch_up())
            .await
            .map_err(|_| JournalError::Stopped)?
    }

    /// Waits until every operation queued before this call is committed (for shutdown).
    pub async fn flush(&self) -> Result<(), JournalError> {
        self.append(Vec::new()).await.map(|_| ())
    }

    /// Once every operation queued before is committed, copies the write-ahead log into the
    /// database and empties it (for shutdown, after [`Journal::snapshot`]): the next start,
    /// or the first after a power cut, has no log to read back before its first read. An
    /// error leaves the log as it was, every commit in it.
    pub async fn empty_log(&self) -> Result<(), JournalError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Op::EmptyLog { reply })
            .await
            .map_err(|_| JournalError::Stopped)?;
        rx.await.map_err(|_| JournalError::Stopped)?
    }
}

#[cfg(test)]
mod tests;
