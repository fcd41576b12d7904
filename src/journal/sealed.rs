//! Signed exports: an official record (PGN, scoresheet, report, every entry) with one line at
//! its end that names the chain head it was made from and signs both the head and the
//! SHA-256 of every byte before that line:
//!
//! ```text
//! % ccrelay-signature v1 entry=42 head=<64 hex> key=<64 hex> sig=<128 hex>
//! ```
//!
//! A line starting with `%` is PGN's escape: readers of PGN skip it, so a signed PGN export
//! still reads as PGN. [`verify`] checks an export with the public key alone, without the
//! journal: the text is the one the key's holder signed, made from the journal as it stood
//! at entry `entry` with that chain hash (a journal that later disagrees with the head is
//! shown by `ccrelay journal verify --receipt`, which reads this line as a receipt too).

use sha2::{Digest, Sha256};

use super::signing::{Key, PublicKey, export_message, hex32, hex64};

const TAG: &str = "% ccrelay-signature v1 ";

/// What a signed export's last line says, once its signature holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seal {
    pub seq: i64,
    pub hash: [u8; 32],
    pub key: PublicKey,
}

/// Why an export does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("no signature line (`{}...`): an unsigned export", TAG.trim_end())]
    Unsigned,
    #[error("the signature line cannot be read: {0}")]
    Malformed(String),
    #[error("text follows the signature line")]
    TextAfter,
    #[error("signed by key {found}, not by the key given ({given})")]
    OtherKey { found: PublicKey, given: PublicKey },
    #[error("the signature does not match the text: the export was changed after it was signed")]
    Changed,
}

/// `text` with a signature line for the head at entry `seq` (chain hash `hash`), by `key`.
pub fn seal(text: &str, seq: i64, hash: &[u8; 32], key: &Key) -> String {
    let mut body = text.to_owned();
    if !body.is_empty() && !body.ends_with('\n') {
        body.push('\n');
    }
    let digest: [u8; 32] = Sha256::digest(body.as_bytes()).into();
    let signature = key.sign(&export_message(seq, hash, &digest));
    body.push_str(&format!(
        "{TAG}entry={seq} head={} key={} sig={}\n",
        hex::encode(hash),
        key.public(),
        hex::encode(signature)
    ));
    body
}

/// Checks a signed export against the public key `given`.
pub fn verify(text: &str, given: &PublicKey) -> Result<Seal, SealError> {
    let start = if text.starts_with(TAG) {
        0
    } else {
        text.rfind(&format!("\n{TAG}"))
            .map(|at| at + 1)
            .ok_or(SealError::Unsigned)?
    };
    let (body, rest) = text.split_at(start);
    let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
    if !after.trim().is_empty() {
        return Err(SealError::TextAfter);
    }
    let (seq, hash, key, signature) =
        parse_line(line.trim_end_matches('\r')).map_err(SealError::Malformed)?;
    if key != *given {
        return Err(SealError::OtherKey {
            found: key,
            given: *given,
        });
    }
    let digest: [u8; 32] = Sha256::digest(body.as_bytes()).into();
    if !key.verifies(&export_message(seq, &hash, &digest), &signature) {
        return Err(SealError::Changed);
    }
    Ok(Seal { seq, hash, key })
}

fn parse_line(line: &str) -> Result<(i64, [u8; 32], PublicKey, [u8; 64]), String> {
    let words = line.strip_prefix(TAG).ok_or("not a signature line")?;
    let field = |name: &str| -> Result<&str, String> {
        words
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
            .ok_or_else(|| format!("no {name}="))
    };
    let seq = field("entry")?
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or("entry= is not an entry number")?;
    let hash = hex32(field("head")?).ok_or("head= is not 64 hex digits")?;
    let key = PublicKey::parse(field("key")?).map_err(|e| e.to_string())?;
    let signature = hex64(field("sig")?).ok_or("sig= is not 128 hex digits")?;
    Ok((seq, hash, key, signature))
}

/// The text before the signature line: what was signed (all of it when unsigned).
pub fn body_of(text: &str) -> &str {
    if text.starts_with(TAG) {
        return "";
    }
    text.rfind(&format!("\n{TAG}"))
        .map_or(text, |at| &text[..=at])
}

/// The signed head an export names, read without checking the signature (to hold it against
/// a journal as a receipt would be).
pub fn head_of(text: &str) -> Option<(i64, [u8; 32])> {
    let line = text.lines().rev().find(|l| l.starts_with(TAG))?;
    parse_line(line).ok().map(|(seq, hash, _, _)| (seq, hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_export_verifies_and_any_change_shows() {
        let key = Key::generate().unwrap();
        let text = "[Event \"x\"]\n\n1. e4 e5 1/2-1/2\n";
        let sealed = seal(text, 9, &[3; 32], &key);
        assert!(sealed.starts_with(text));
        let seal_ = verify(&sealed, &key.public()).unwrap();
        assert_eq!((seal_.seq, seal_.hash), (9, [3; 32]));
        assert_eq!(head_of(&sealed), Some((9, [3; 32])));

        let edited = sealed.replace("1/2-1/2", "1-0");
        assert_eq!(verify(&edited, &key.public()), Err(SealError::Changed));
        let other = Key::generate().unwrap();
        assert!(matches!(
            verify(&sealed, &other.public()),
            Err(SealError::OtherKey { .. })
        ));
        let moved = sealed.replace("entry=9", "entry=10");
        assert_eq!(verify(&moved, &key.public()), Err(SealError::Changed));
        assert_eq!(verify(text, &key.public()), Err(SealError::Unsigned));
        let appended = format!("{sealed}1. d4\n");
        assert_eq!(verify(&appended, &key.public()), Err(SealError::TextAfter));
    }
}
