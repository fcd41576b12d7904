//! The relay's signatures of the chain's head: a signed head every so many entries, which a
//! receipt and an export point to.

use rusqlite::{Connection, OptionalExtension, params};

use crate::journal::JournalError;
use crate::journal::head::SignedHead;
use crate::journal::signing::PublicKey;

/// Records the relay's signature of the chain head at entry `seq`.
pub fn insert_signature(
    conn: &Connection,
    seq: i64,
    hash: &[u8; 32],
    key: &PublicKey,
    signature: &[u8; 64],
) -> Result<(), JournalError> {
    conn.prepare_cached(
        "INSERT INTO signatures (seq, hash, key, signature) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![seq, &hash[..], &key.0[..], &signature[..]])?;
    Ok(())
}

/// A `signatures` row as read: entry number, hash, key, signature.
type SignatureRow = (i64, Vec<u8>, Vec<u8>, Vec<u8>);

fn signed_head(r: &rusqlite::Row<'_>) -> rusqlite::Result<SignatureRow> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn to_signed_head((seq, hash, key, signature): SignatureRow) -> Result<SignedHead, JournalError> {
    let bad = || JournalError::Corrupt(format!("signature at entry {seq}: malformed"));
    Ok(SignedHead {
        seq,
        hash: hash.try_into().map_err(|_| bad())?,
        key: PublicKey(key.try_into().map_err(|_| bad())?),
        signature: signature.try_into().map_err(|_| bad())?,
    })
}

/// Whether the file has the signatures table (a journal older than signing, opened read-only,
/// has not).
fn has_signatures(conn: &Connection) -> Result<bool, JournalError> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'signatures'",
        )?
        .query_row([], |r| r.get(0))?;
    Ok(n > 0)
}

/// The first signed head at or after entry `seq`: the one that covers it.
pub fn signature_covering(conn: &Connection, seq: i64) -> Result<Option<SignedHead>, JournalError> {
    if !has_signatures(conn)? {
        return Ok(None);
    }
    conn.prepare_cached(
        "SELECT seq, hash, key, signature FROM signatures WHERE seq >= ?1 ORDER BY seq LIMIT 1",
    )?
    .query_row(params![seq], signed_head)
    .optional()?
    .map(to_signed_head)
    .transpose()
}

/// Every signed head in order, handed to `f`.
pub fn for_each_signature(
    conn: &Connection,
    mut f: impl FnMut(SignedHead) -> Result<(), JournalError>,
) -> Result<(), JournalError> {
    if !has_signatures(conn)? {
        return Ok(());
    }
    let mut stmt = conn.prepare("SELECT seq, hash, key, signature FROM signatures ORDER BY seq")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        f(to_signed_head(signed_head(row)?)?)?;
    }
    Ok(())
}
