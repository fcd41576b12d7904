//! Receipts: what a player keeps to hold the record to account, and their check against a
//! journal.
//!
//! - The short form rides on every reply and push that recorded an entry: `r17:3fa9c2d1e0b4`,
//!   the entry's number and the first [`SHORT_HEX`] hex digits (48 bits) of the chain hash
//!   after it. It is not signed; it pins the chain at that entry for whoever compares it with
//!   the journal (or a later signed receipt).
//! - The full form, on request (`RECEIPT 17`): the entry's number and chain hash, the signed
//!   head that covers it (the last entry of the commit that wrote it, so `head >= entry`),
//!   the key and the signature:
//!   `ccrelay-receipt v1 entry=17 hash=<64 hex> head=20 head-hash=<64 hex> key=<64 hex>
//!   sig=<128 hex>` on one line.
//!
//! [`check`] reads a journal once and holds every saved receipt against it: the chain must be
//! whole up to each, the hashes equal, and each signature the journal's key at its head.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use rusqlite::Connection;

pub use super::head::{SHORT_HEX, Short, SignedHead};
use super::signing::{KeyHistory, PublicKey, hex32, hex64};
use super::{JournalError, store};

const FULL_TAG: &str = "ccrelay-receipt";

/// The full receipt for an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub seq: i64,
    pub hash: [u8; 32],
    pub head: SignedHead,
}

impl fmt::Display for Receipt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{FULL_TAG} v1 entry={} hash={} head={} head-hash={} key={} sig={}",
            self.seq,
            hex::encode(self.hash),
            self.head.seq,
            hex::encode(self.head.hash),
            self.head.key,
            hex::encode(self.head.signature)
        )
    }
}

impl Receipt {
    /// Reads the words after `ccrelay-receipt` in a line (anything before it is ignored).
    pub fn parse(line: &str) -> Result<Receipt, String> {
        let at = line
            .find(FULL_TAG)
            .ok_or_else(|| format!("no {FULL_TAG} in the line"))?;
        let mut words = line[at..].split_whitespace().skip(1);
        if words.next() != Some("v1") {
            return Err("not a v1 receipt".to_owned());
        }
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for word in words {
            if let Some((k, v)) = word.split_once('=') {
                fields.insert(k, v);
            }
        }
        let get = |k: &str| fields.get(k).copied().ok_or_else(|| format!("no {k}="));
        let number = |k: &str| -> Result<i64, String> {
            get(k)?
                .parse::<i64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{k}= is not an entry number"))
        };
        let h32 = |k: &str| hex32(get(k)?).ok_or_else(|| format!("{k}= is not 64 hex digits"));
        let receipt = Receipt {
            seq: number("entry")?,
            hash: h32("hash")?,
            head: SignedHead {
                seq: number("head")?,
                hash: h32("head-hash")?,
                key: PublicKey::parse(get("key")?).map_err(|e| e.to_string())?,
                signature: hex64(get("sig")?).ok_or("sig= is not 128 hex digits")?,
            },
        };
        if receipt.head.seq < receipt.seq {
            return Err("head= is before entry=".to_owned());
        }
        Ok(receipt)
    }

    pub fn short(&self) -> Short {
        Short::of(self.seq, &self.hash)
    }
}

/// A receipt a player saved: either form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    Short(Short),
    Full(Receipt),
}

impl Saved {
    pub fn seq(&self) -> i64 {
        match self {
            Saved::Short(s) => s.seq,
            Saved::Full(r) => r.seq,
        }
    }
}

/// Every receipt in a text (replies and pushes copied as they came, one per line, or the full
/// forms): a line with `ccrelay-receipt` is a full receipt; otherwise each word of the short
/// form counts. A full receipt that cannot be read is an error naming its line.
pub fn find_all(text: &str) -> Result<Vec<Saved>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.contains(FULL_TAG) {
            let receipt = Receipt::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?;
            out.push(Saved::Full(receipt));
        } else {
            out.extend(
                line.split_whitespace()
                    .filter_map(Short::parse)
                    .map(Saved::Short),
            );
        }
    }
    Ok(out)
}

/// What [`check`] found when every receipt held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub receipts: usize,
    /// Full receipts among them (signed).
    pub signed: usize,
    /// The journal's last entry.
    pub last: i64,
}

/// Holds every saved receipt against the journal. Fails naming the first entry lost or
/// changed: an entry whose hash does not follow from the entry before it (changed in place),
/// a gap in the numbers (removed), a receipt beyond the last entry (cut off at the end), or a
/// chain rewritten whole (the hash after a receipt's entry differs: some entry at or before
/// it, and after the last receipt that still matched, was changed).
pub fn check(conn: &Connection, saved: &[Saved]) -> Result<Checked, JournalError> {
    let wanted: BTreeSet<i64> = saved
        .iter()
        .flat_map(|s| match s {
            Saved::Short(s) => vec![s.seq],
            Saved::Full(r) => vec![r.seq, r.head.seq],
        })
        .collect();
    let mut hashes: HashMap<i64, [u8; 32]> = HashMap::new();
    let mut keys = KeyHistory::default();
    let mut prev = [0u8; 32];
    let mut expected = 1;
    store::for_each_entry(conn, None, |e| {
        if e.seq != expected {
            return Err(JournalError::Corrupt(format!(
                "entry {expected} is missing (the next entry is {})",
                e.seq
            )));
        }
        if store::chain_hash(&prev, &e) != e.hash {
            return Err(JournalError::Corrupt(format!(
                "entry {} was changed: its hash does not match its content and the entry before it",
                e.seq
            )));
        }
        keys.observe(&e, &prev)?;
        if wanted.contains(&e.seq) {
            hashes.insert(e.seq, e.hash);
        }
        prev = e.hash;
        expected += 1;
        Ok(())
    })?;
    let last = expected - 1;
    let mut sorted: Vec<&Saved> = saved.iter().collect();
    sorted.sort_by_key(|s| s.seq());
    let mut matched: Option<i64> = None;
    let fail = |seq: i64, matched: Option<i64>, why: String| {
        let since = matched.map_or(String::new(), |m| {
            format!(" (after entry {m}, whose receipt still matches)")
        });
        JournalError::Corrupt(format!(
            "receipt for entry {seq}: {why}: an entry at or before {seq}{since} was changed or removed"
        ))
    };
    let mut signed = 0;
    for s in sorted {
        let seq = s.seq();
        let top = match s {
            Saved::Short(_) => seq,
            Saved::Full(r) => r.head.seq,
        };
        if top > last {
            return Err(JournalError::Corrupt(format!(
                "receipt for entry {seq}: entry {top} is missing: the journal ends at entry {last} (cut off at the end)"
            )));
        }
        let at = |n: i64| hashes.get(&n).copied().unwrap_or([0; 32]);
        match s {
            Saved::Short(short) => {
                let ours = hex::encode(at(seq));
                if !ours.starts_with(short.prefix()) {
                    let why = format!(
                        "the journal's hash after it begins {}, the receipt says {}",
                        &ours[..SHORT_HEX],
                        short.prefix()
                    );
                    return Err(fail(seq, matched, why));
                }
            }
            Saved::Full(r) => {
                if !r.head.is_signed() {
                    return Err(JournalError::Corrupt(format!(
                        "receipt for entry {seq}: its signature is not key {}'s: the receipt itself was altered",
                        r.head.key
                    )));
                }
                if keys.at(r.head.seq) != Some(r.head.key) {
                    let theirs = keys
                        .at(r.head.seq)
                        .map_or("no key".to_owned(), |k| format!("key {k}"));
                    return Err(fail(
                        seq,
                        matched,
                        format!(
                            "it is signed by key {}, but the journal names {theirs} at entry {}",
                            r.head.key, r.head.seq
                        ),
                    ));
                }
                if at(seq) != r.hash {
                    return Err(fail(
                        seq,
                        matched,
                        "the journal's hash after it is not the one signed".to_owned(),
                    ));
                }
                if at(r.head.seq) != r.head.hash {
                    return Err(fail(
                        r.head.seq,
                        matched,
                        format!("the signed head at entry {} differs", r.head.seq),
                    ));
                }
                signed += 1;
            }
        }
        matched = Some(seq);
    }
    Ok(Checked {
        receipts: saved.len(),
        signed,
        last,
    })
}

/// The receipt for entry `seq`: its hash and the first signed head at or after it. `None` if
/// there is no such entry or no head signed after it (a journal older than signing).
pub fn receipt_for(conn: &Connection, seq: i64) -> Result<Option<Receipt>, JournalError> {
    let Some(hash) = store::entry_hash(conn, seq)? else {
        return Ok(None);
    };
    Ok(store::signature_covering(conn, seq)?.map(|head| Receipt { seq, hash, head }))
}

#[cfg(test)]
mod tests;
