//! The writer thread: one operation, then whatever else is queued, in one transaction;
//! the chain head after the batch signed in the same transaction; answers and pushes only
//! after the commit.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::receipt::{Receipt, Short};
use super::signing::{Key, head_message};
use super::snapshot::{self, Snapshots};
use super::{Entry, Hub, JournalError, OutboxItem, Record, Seen, Told, store};

/// What the writer owns besides the connection: the key it signs with, and the journal's
/// write lock.
pub(super) struct Owned {
    pub key: Arc<Key>,
    pub lock: std::fs::File,
    /// Where the writer has a snapshot taken every [`snapshot::EVERY`] entries.
    pub snapshots: Arc<Snapshots>,
    /// The entry the last snapshot was taken after (0 for none).
    pub snapshot_at: i64,
}

pub(super) enum Op {
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
    Receipt {
        seq: i64,
        reply: oneshot::Sender<Result<Option<Receipt>, JournalError>>,
    },
    /// Copy the whole log into the database and cut it to nothing, once what is queued before
    /// is committed: the next open has no log to read back.
    EmptyLog {
        reply: oneshot::Sender<Result<(), JournalError>>,
    },
}

/// The most operations committed in one transaction.
pub(super) const GROUP_MAX: usize = 512;

/// Commits after which the writer copies the write-ahead log into the database (a
/// checkpoint) as soon as nothing is queued. SQLite's own checkpoint runs inside whichever
/// commit crosses its threshold and holds that commit (and every move waiting on it) for tens
/// of milliseconds; the writer runs it between commits instead, after the answers are out.
pub(super) const CHECKPOINT_WHEN_IDLE: u32 = 64;
/// Commits after which the writer checkpoints even with work queued, so that the log stays
/// bounded under a load that never pauses.
const CHECKPOINT_AT_MOST: u32 = 2048;
/// The size the log file is cut back to after a checkpoint.
pub(super) const WAL_SIZE_LIMIT: i64 = 64 << 20;

/// The writer: takes one operation, then whatever else is queued (up to [`GROUP_MAX`]), runs
/// them in one transaction, commits, and only then answers and pushes. After a failed commit it
/// answers every later operation with [`JournalError::Stopped`]: nothing may be built on a
/// state the disk does not hold.
pub(super) fn writer(
    mut conn: rusqlite::Connection,
    mut rx: mpsc::Receiver<Op>,
    hub: Arc<Hub>,
    mut seq: i64,
    mut prev: [u8; 32],
    owned: Owned,
    fatal: CancellationToken,
) {
    // The lock is held as long as the writer runs: no other process writes this journal.
    let Owned {
        key,
        lock: _lock,
        snapshots,
        mut snapshot_at,
    } = owned;
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
        let outcome = run_batch(&mut conn, &mut batch, &mut seq, &mut prev, &key);
        metrics::histogram!("ccrelay_journal_commit_seconds").record(started.elapsed());
        match outcome {
            Ok(results) => {
                let mut empty_log = Vec::new();
                for (op, result) in batch.drain(..).zip(results) {
                    match op {
                        Op::EmptyLog { reply } => empty_log.push(reply),
                        op => answer(op, result, &hub),
                    }
                }
                if !empty_log.is_empty() {
                    let emptied = checkpoint_truncating(&conn);
                    for reply in empty_log {
                        let _ = reply.send(emptied.clone());
                    }
                }
                commits_since_checkpoint += 1;
                if commits_since_checkpoint >= CHECKPOINT_AT_MOST
                    || (commits_since_checkpoint >= CHECKPOINT_WHEN_IDLE && rx.is_empty())
                {
                    checkpoint(&conn);
                    commits_since_checkpoint = 0;
                }
                if seq - snapshot_at >= snapshot::EVERY {
                    snapshot_at = seq;
                    snapshots.catch_up_in_background();
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

/// Copies the whole log into the database and cuts the log file to nothing (TRUNCATE), waiting
/// for readers as long as the connection's busy timeout. A start that finds a log reads every
/// frame of it back before its first read (64 MB at most, [`WAL_SIZE_LIMIT`]); after this it
/// finds none. `Err` when a reader kept part of the log in use: nothing is lost, the log stays.
fn checkpoint_truncating(conn: &rusqlite::Connection) -> Result<(), JournalError> {
    let (busy, log, copied) = wal_checkpoint(conn, "TRUNCATE")?;
    if busy {
        return Err(JournalError::Io(format!(
            "the log was in use: {copied} of {log} frames copied, the log kept"
        )));
    }
    Ok(())
}

/// Copies the log into the database without waiting for readers (PASSIVE). A checkpoint that
/// fails loses nothing (the log holds every commit) and the next one tries again.
fn checkpoint(conn: &rusqlite::Connection) {
    match wal_checkpoint(conn, "PASSIVE") {
        Ok((_, log, copied)) => tracing::trace!(log, copied, "journal checkpoint"),
        Err(e) => tracing::warn!(error = %e, "journal checkpoint failed; the next one retries"),
    }
}

/// `PRAGMA wal_checkpoint(MODE)`: whether it stopped short for a reader or writer, the frames
/// in the log, and the frames copied into the database.
fn wal_checkpoint(
    conn: &rusqlite::Connection,
    mode: &str,
) -> Result<(bool, i64, i64), JournalError> {
    Ok(
        conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |row| {
            Ok((row.get::<_, i64>(0)? != 0, row.get(1)?, row.get(2)?))
        })?,
    )
}

enum OpResult {
    Appended(Vec<Entry>, Vec<OutboxItem>),
    Delivered(usize),
    Pending(Vec<OutboxItem>),
    Seen(Option<Seen>),
    Receipt(Option<Receipt>),
    LogEmptied,
}

fn run_batch(
    conn: &mut rusqlite::Connection,
    batch: &mut [Op],
    seq: &mut i64,
    prev: &mut [u8; 32],
    key: &Key,
) -> Result<Vec<OpResult>, JournalError> {
    let tx = conn.transaction()?;
    let first_seq = *seq;
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
                        let id = store::insert_outbox(&tx, &out, &game, entry.seq)?;
                        items.push(OutboxItem {
                            id,
                            player: out.player,
                            game: game.clone(),
                            receipt: Short::of(entry.seq, &entry.hash),
                            told: Told::Notice(out.notice),
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
            // Answered below, once this batch's head is signed.
            Op::Receipt { .. } => OpResult::Receipt(None),
            // Run by the writer after the commit: a checkpoint cannot run inside it.
            Op::EmptyLog { .. } => OpResult::LogEmptied,
        };
        results.push(result);
    }
    // One signature per commit: the head after its last entry covers every entry before it.
    if *seq > first_seq {
        let signature = key.sign(&head_message(*seq, prev));
        store::insert_signature(&tx, *seq, prev, &key.public(), &signature)?;
    }
    for (op, result) in batch.iter().zip(results.iter_mut()) {
        if let Op::Receipt { seq, .. } = op {
            *result = OpResult::Receipt(super::receipt::receipt_for(&tx, *seq)?);
        }
    }
    tx.commit()?;
    Ok(results)
}

fn answer(op: Op, result: OpResult, hub: &Hub) {
    match (op, result) {
        (Op::Append { reply, .. }, OpResult::Appended(entries, items)) => {
            for item in items {
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
        (Op::Receipt { reply, .. }, OpResult::Receipt(receipt)) => {
            let _ = reply.send(Ok(receipt));
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
        Op::Receipt { reply, .. } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
        Op::EmptyLog { reply } => {
            let _ = reply.send(Err(JournalError::Stopped));
        }
    }
}
