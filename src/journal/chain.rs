//! The hash chain's check: every link that a start makes, without reading any entry as a
//! game's move (each entry's hash over the one before and its own fields is
//! [`chain_hash`](super::entry::hash::chain_hash)).
//!
//! `ccrelay journal verify` replays every entry from the first; a start checks every link
//! with [`check`] and replays only the entries after its snapshot (docs/journal.md,
//! "Snapshots"). Each link is checked against the hash stored before it, so a changed entry
//! anywhere stops a start as it stops `verify`.

use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::entry::hash::{ABSENT, hash_fields};
use super::{Entry, EntryKind, JournalError, store};

/// What [`check`] found: the entries and the last one's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links {
    pub entries: u64,
    pub last: [u8; 32],
}

/// Checks every link of the chain from the first entry: numbers without a gap, each hash over
/// the one before and the entry's fields. The signing keys' entries (`signing_key`,
/// `key_rotation`) are handed to `keys` whole, in order, with the hash before them, so the
/// caller learns the keys the chain names; nothing else is read as more than bytes.
pub fn check(
    conn: &Connection,
    mut keys: impl FnMut(&Entry, &[u8; 32]) -> Result<(), JournalError>,
) -> Result<Links, JournalError> {
    let part = check_between(conn, 1, i64::MAX, [0; 32])?;
    for (e, prev) in &part.key_entries {
        keys(e, prev)?;
    }
    Ok(part.links)
}

/// Journals shorter than this are checked on one thread.
const SPLIT_FROM: i64 = 100_000;

/// [`check`] on two threads: the second half of the chain on a connection of its own (to the
/// journal under `data_dir`), from the hash the journal holds before it; the halves meet where
/// the first one's last hash is that hash.
pub fn check_in_two(
    conn: &Connection,
    data_dir: &std::path::Path,
    keys: impl FnMut(&Entry, &[u8; 32]) -> Result<(), JournalError>,
) -> Result<Links, JournalError> {
    check_split_from(conn, data_dir, SPLIT_FROM, keys)
}

fn check_split_from(
    conn: &Connection,
    data_dir: &std::path::Path,
    split_from: i64,
    mut keys: impl FnMut(&Entry, &[u8; 32]) -> Result<(), JournalError>,
) -> Result<Links, JournalError> {
    let (tail, _) = store::tail(conn)?;
    if tail < split_from {
        return check(conn, keys);
    }
    let middle = tail / 2;
    let dir = data_dir.to_owned();
    let second = std::thread::Builder::new()
        .name("chain-check".to_owned())
        .spawn(move || -> Result<(Part, [u8; 32]), JournalError> {
            let conn = store::open_for_scan(&dir)?;
            let before = store::entry_hash(&conn, middle)?
                .ok_or_else(|| JournalError::Corrupt(format!("entry {middle}: missing")))?;
            Ok((check_between(&conn, middle + 1, tail, before)?, before))
        });
    let Ok(second) = second else {
        return check(conn, keys);
    };
    let first = check_between(conn, 1, middle, [0; 32])?;
    let (second, before) = second
        .join()
        .map_err(|_| JournalError::Io("the chain's check stopped".to_owned()))??;
    if first.links.entries != u64::try_from(middle).unwrap_or(0) || first.links.last != before {
        return Err(JournalError::Corrupt(format!(
            "entry {middle}: the chain does not go on from it"
        )));
    }
    for (e, prev) in first.key_entries.iter().chain(&second.key_entries) {
        keys(e, prev)?;
    }
    // Entries past the tail read at first (none: no writer runs before the start's check).
    let rest = check_between(conn, tail + 1, i64::MAX, second.links.last)?;
    for (e, prev) in &rest.key_entries {
        keys(e, prev)?;
    }
    Ok(Links {
        entries: u64::try_from(tail).unwrap_or(0) + rest.links.entries,
        last: if rest.links.entries == 0 {
            second.links.last
        } else {
            rest.links.last
        },
    })
}

/// What checking part of the chain found.
struct Part {
    /// The entries checked, and the last one's hash (`prev` when there were none).
    links: Links,
    /// The key entries among them, each with the hash before it.
    key_entries: Vec<(Entry, [u8; 32])>,
}

/// Checks the links of entries `first` to `last` (as many as there are), the hash before
/// `first` being `prev`.
fn check_between(
    conn: &Connection,
    first: i64,
    last: i64,
    prev: [u8; 32],
) -> Result<Part, JournalError> {
    let mut stmt = conn.prepare(
        "SELECT seq, time, game, player, channel, kind, text, iccf, san, detail, hash
         FROM entries WHERE seq BETWEEN ?1 AND ?2 ORDER BY seq",
    )?;
    let mut rows = stmt.query(rusqlite::params![first, last])?;
    let mut prev = prev;
    let mut expected: i64 = first;
    let mut key_entries = Vec::new();
    while let Some(row) = rows.next()? {
        let seq: i64 = row.get(0)?;
        let corrupt = |why: &str| JournalError::Corrupt(format!("entry {seq}: {why}"));
        if seq != expected {
            return Err(JournalError::Corrupt(format!(
                "entry {seq}: sequence number {seq} where {expected} was expected"
            )));
        }
        let bytes = |i: usize| -> Result<&[u8], JournalError> {
            match row.get_ref(i)? {
                ValueRef::Null => Ok(ABSENT.as_bytes()),
                ValueRef::Text(b) | ValueRef::Blob(b) => Ok(b),
                _ => Err(JournalError::Corrupt(format!(
                    "entry {seq}: column {i} is not text"
                ))),
            }
        };
        let seq_bytes = seq.to_be_bytes();
        let hash = hash_fields(
            &prev,
            [
                &seq_bytes,
                bytes(1)?,
                bytes(2)?,
                bytes(3)?,
                bytes(4)?,
                bytes(5)?,
                bytes(6)?,
                bytes(7)?,
                bytes(8)?,
                bytes(9)?,
            ],
        );
        if bytes(10)? != hash {
            return Err(corrupt(
                "its hash does not match its content and the entry before it",
            ));
        }
        let kind = bytes(5)?;
        let names_a_key = EntryKind::KEYS
            .iter()
            .any(|k| k.as_str().as_bytes() == kind);
        if names_a_key && let Some(e) = store::entry(conn, seq)? {
            key_entries.push((e, prev));
        }
        prev = hash;
        expected += 1;
    }
    Ok(Part {
        links: Links {
            entries: u64::try_from(expected - first).unwrap_or(0),
            last: prev,
        },
        key_entries,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::journal::signing::KeyHistory;
    use crate::journal::{Hub, Journal, NewEntry, Record};

    /// A journal of its key entry and `n` refused attempts, in a new folder.
    async fn journal_of(n: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let (journal, _) = Journal::open(
            dir.path(),
            Arc::new(Hub::default()),
            16,
            CancellationToken::new(),
        )
        .expect("journal");
        let records = (0..n)
            .map(|i| Record {
                entry: NewEntry::new("g", "p", "tcp", EntryKind::Rejected, &format!("try {i}")),
                outbox: vec![],
            })
            .collect();
        journal.append(records).await.expect("append");
        journal.flush().await.expect("flush");
        dir
    }

    fn checked(dir: &std::path::Path, split_from: i64) -> Result<(Links, KeyHistory), String> {
        let conn = store::open_read_only(dir).expect("open");
        let mut keys = KeyHistory::default();
        check_split_from(&conn, dir, split_from, |e, prev| keys.observe(e, prev))
            .map(|links| (links, keys))
            .map_err(|e| e.to_string())
    }

    fn change(dir: &std::path::Path, seq: i64) {
        let conn = rusqlite::Connection::open(dir.join(store::FILE_NAME)).expect("open");
        conn.execute("UPDATE entries SET text = 'changed' WHERE seq = ?1", [seq])
            .expect("change");
    }

    #[tokio::test]
    async fn the_chain_checked_in_two_halves_is_the_chain_checked_whole() {
        let dir = journal_of(40).await;
        let whole = checked(dir.path(), i64::MAX).expect("whole");
        assert_eq!(whole.0.entries, 41);
        assert_eq!(whole.1.all().len(), 1, "the key entry, from the first half");
        for split_from in [1, 2, 41] {
            assert_eq!(checked(dir.path(), split_from), Ok(whole.clone()));
        }
    }

    #[tokio::test]
    async fn a_changed_entry_stops_the_check_in_either_half_and_where_they_meet() {
        // 41 entries: the halves are 1..=20 and 21..=41.
        for seq in [2, 20, 21, 41] {
            let dir = journal_of(40).await;
            change(dir.path(), seq);
            for split_from in [1, i64::MAX] {
                let why = checked(dir.path(), split_from).unwrap_err();
                assert!(
                    why.contains(&format!("entry {seq}: its hash does not match")),
                    "{seq}, split from {split_from}: {why}"
                );
            }
        }
    }
}
