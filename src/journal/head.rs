//! What a receipt pins, as the store reads it and the receipts write it: the short form of an
//! entry's place in the chain, and a chain head the relay signed. Apart from
//! [`super::receipt`], which holds receipts against a whole journal through the store.

use std::fmt;

use super::signing::{PublicKey, head_message};

/// Hex digits of the chain hash in a short receipt: 48 bits.
pub const SHORT_HEX: usize = 12;
const _: () = assert!(SHORT_HEX.is_multiple_of(2), "whole bytes of the hash");

/// The short receipt for an entry: `r17:3fa9c2d1e0b4`.
///
/// Its digits are kept in the value, not in a `String`: one is made for every entry a move
/// writes and travels with the reply and the push, and an allocation each way cost more than
/// the rest of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short {
    pub seq: i64,
    /// The first [`SHORT_HEX`] hex digits of the chain hash after the entry, lower case.
    prefix: [u8; SHORT_HEX],
}

impl Short {
    /// The longest short receipt: `r`, an `i64`'s digits, `:`, the hex digits.
    pub const MAX_LEN: usize = 1 + 20 + 1 + SHORT_HEX;

    pub fn of(seq: i64, hash: &[u8; 32]) -> Short {
        // Only the bytes shown are encoded, lower case; the lengths agree (SHORT_HEX digits
        // from SHORT_HEX / 2 bytes), so this cannot fail.
        let mut prefix = [0; SHORT_HEX];
        let _ = hex::encode_to_slice(&hash[..SHORT_HEX / 2], &mut prefix);
        Short { seq, prefix }
    }

    /// Reads one word: `r17:3fa9c2d1e0b4` (trailing punctuation a copy may add is ignored).
    pub fn parse(word: &str) -> Option<Short> {
        let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != ':');
        let rest = word.strip_prefix('r')?;
        let (seq, prefix) = rest.split_once(':')?;
        if seq.is_empty() || !seq.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let seq: i64 = seq.parse().ok().filter(|n| *n > 0)?;
        let prefix: [u8; SHORT_HEX] = prefix.as_bytes().try_into().ok()?;
        if !prefix.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        Some(Short {
            seq,
            prefix: prefix.map(|b| b.to_ascii_lowercase()),
        })
    }

    /// The hex digits: `3fa9c2d1e0b4`.
    pub fn prefix(&self) -> &str {
        // Only ASCII hex digits are ever stored.
        std::str::from_utf8(&self.prefix).unwrap_or_default()
    }

    /// What [`Display`](fmt::Display) writes (`r23:5be01f9c03d2`), into `out` and without
    /// the formatter: a receipt follows every reply and push of a move.
    pub fn encode<'b>(&self, out: &'b mut [u8; Short::MAX_LEN]) -> &'b str {
        let mut digits = itoa::Buffer::new();
        let seq = digits.format(self.seq).as_bytes();
        let len = 1 + seq.len() + 1 + SHORT_HEX;
        out[0] = b'r';
        out[1..=seq.len()].copy_from_slice(seq);
        out[seq.len() + 1] = b':';
        out[seq.len() + 2..len].copy_from_slice(&self.prefix);
        std::str::from_utf8(&out[..len]).unwrap_or_default()
    }
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0; Short::MAX_LEN]))
    }
}

/// A chain head the relay signed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedHead {
    pub seq: i64,
    pub hash: [u8; 32],
    pub key: PublicKey,
    pub signature: [u8; 64],
}

impl SignedHead {
    /// Whether its own key signed it (says nothing about whether that is the journal's key).
    pub fn is_signed(&self) -> bool {
        self.key
            .verifies(&head_message(self.seq, &self.hash), &self.signature)
    }
}
