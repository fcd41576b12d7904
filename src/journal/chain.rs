//! The hash chain: each entry's hash over the one before and its own fields, and the check of
//! every link that a start makes without reading any entry as a game's move.
//!
//! `ccrelay journal verify` replays every entry from the first; a start checks every link
//! with [`check`] and replays only the entries after its snapshot (docs/journal.md,
//! "Snapshots"). Each link is checked against the hash stored before it, so a changed entry
//! anywhere stops a start as it stops `verify`.

use rusqlite::Connection;
use rusqlite::types::ValueRef;
use sha2::{Digest, Sha256};

use super::{Entry, EntryKind, JournalError, store};

/// The hash of an entry, chained to the one before: SHA-256 over the previous hash and every
/// field, each length-prefixed so no two entries encode alike.
pub fn chain_hash(prev: &[u8; 32], e: &Entry) -> [u8; 32] {
    let seq = e.seq.to_be_bytes();
    hash_fields(
        prev,
        [
            &seq,
            e.time.as_bytes(),
            e.game.as_bytes(),
            e.player.as_bytes(),
            e.channel.as_bytes(),
            e.kind.as_str().as_bytes(),
            e.text.as_bytes(),
            e.iccf.as_deref().unwrap_or(ABSENT).as_bytes(),
            e.san.as_deref().unwrap_or(ABSENT).as_bytes(),
            e.detail.as_bytes(),
        ],
    )
}

/// What an absent ICCF or SAN form is hashed as.
const ABSENT: &str = "\u{0}";

fn hash_fields(prev: &[u8; 32], fields: [&[u8]; 10]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(prev);
    for field in fields {
        h.update((field.len() as u64).to_be_bytes());
        h.update(field);
    }
    h.finalize().into()
}

/// What [`check`] found: the entries and the last one's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Links {
    pub entries: u64,
    pub last: [u8; 32],
}

/// Checks every link of the chain from the first entry: numbers without a gap, each hash over
/// the one before and the entry's fields. The signing keys' entries (`signing_key`,
/// `key_rotation`) are handed to `keys` whole, with the hash before them, so the caller learns
/// the keys the chain names; nothing else is read as more than bytes.
pub fn check(
    conn: &Connection,
    mut keys: impl FnMut(&Entry, &[u8; 32]) -> Result<(), JournalError>,
) -> Result<Links, JournalError> {
    let mut stmt = conn.prepare(
        "SELECT seq, time, game, player, channel, kind, text, iccf, san, detail, hash
         FROM entries ORDER BY seq",
    )?;
    let mut rows = stmt.query([])?;
    let mut prev = [0u8; 32];
    let mut expected: i64 = 1;
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
        if kind == EntryKind::SigningKey.as_str().as_bytes()
            || kind == EntryKind::KeyRotation.as_str().as_bytes()
        {
            let mut whole = None;
            store::for_each_entry_between(conn, seq, seq, |e| {
                whole = Some(e);
                Ok(())
            })?;
            if let Some(e) = whole {
                keys(&e, &prev)?;
            }
        }
        prev = hash;
        expected += 1;
    }
    Ok(Links {
        entries: u64::try_from(expected - 1).unwrap_or(0),
        last: prev,
    })
}
