//! What a receipt pins, as the store reads it and the receipts write it: the short form of an
//! entry's place in the chain, and a chain head the relay signed. Apart from
//! [`super::receipt`], which holds receipts against a whole journal through the store.

use std::fmt;

use super::signing::{PublicKey, head_message};

/// Hex digits of the chain hash in a short receipt: 48 bits.
pub const SHORT_HEX: usize = 12;
const _: () = assert!(SHORT_HEX.is_multiple_of(2), "whole bytes of the hash");

/// The short receipt for an entry: `r17:3fa9c2d1e0b4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Short {
    pub seq: i64,
    /// The first [`SHORT_HEX`] hex digits of the chain hash after the entry.
    pub prefix: String,
}

impl Short {
    pub fn of(seq: i64, hash: &[u8; 32]) -> Short {
        // Only the bytes shown are encoded: this runs for every reply and push of a move.
        let prefix = hex::encode(&hash[..SHORT_HEX / 2]);
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
        if prefix.len() != SHORT_HEX || !prefix.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Some(Short {
            seq,
            prefix: prefix.to_ascii_lowercase(),
        })
    }
}

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}:{}", self.seq, self.prefix)
    }
}

impl Short {
    /// Appends what [`Display`](fmt::Display) writes (`r23:5be01f9c03d2`) to `buf`, without
    /// the formatter: a receipt follows every reply and push of a move.
    pub fn append_to(&self, buf: &mut impl Extend<u8>) {
        buf.extend(*b"r");
        buf.extend(itoa::Buffer::new().format(self.seq).bytes());
        buf.extend(*b":");
        buf.extend(self.prefix.bytes());
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
