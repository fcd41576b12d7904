//! An entry's hash, chained to the one before: what the store writes beside each entry and
//! what the chain's check, a receipt and `journal verify` recompute.

use sha2::{Digest, Sha256};

use crate::journal::Entry;

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
pub(in crate::journal) const ABSENT: &str = "\u{0}";

pub(in crate::journal) fn hash_fields(prev: &[u8; 32], fields: [&[u8]; 10]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(prev);
    for field in fields {
        h.update((field.len() as u64).to_be_bytes());
        h.update(field);
    }
    h.finalize().into()
}
