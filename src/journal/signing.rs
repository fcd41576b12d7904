//! The relay's signing key (Ed25519) and the three things it signs: a chain head (the entry
//! number and the hash after it), a key rotation (the new key, by the old one), and an export
//! (a digest of its text, with the head it was made from).
//!
//! The key lives in a file of its own (`signing.key` in the data directory, mode 0600, or the
//! file `journal.signing_key` names): 32 secret bytes as 64 hex digits and a newline. It is
//! created on first start by writing a temporary file with the mode already tight, syncing it
//! and renaming it into place, so a crash leaves either no key or a whole one. Its public half
//! is written beside it (`signing.pub`) for whoever must check the record, and into the chain
//! itself (a `signing_key` entry), so the chain says which key signs it from which entry on.
//!
//! Every signed message starts with its own tag, so a signature over one kind of message can
//! never be passed off as another.

use std::io::Write;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

use super::entry::Meaning;
use super::{Entry, EntryKind, JournalError};

/// The key file's name under the data directory when the configuration names none.
pub const KEY_FILE: &str = "signing.key";
/// The public key, written beside the key file for whoever checks the record.
pub const PUBLIC_FILE: &str = "signing.pub";

const HEAD_TAG: &[u8] = b"ccrelay head v1\0";
const ROTATION_TAG: &[u8] = b"ccrelay key rotation v1\0";
const EXPORT_TAG: &[u8] = b"ccrelay export v1\0";
const SNAPSHOT_TAG: &[u8] = b"ccrelay snapshot v1\0";

/// A public key, as the record and the command line write it: 64 hex digits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PublicKey(pub [u8; 32]);

impl PublicKey {
    pub fn parse(text: &str) -> Result<PublicKey, JournalError> {
        let bytes = hex32(text.trim()).ok_or_else(|| {
            JournalError::Key(format!(
                "{:?} is not a public key (64 hex digits)",
                short(text)
            ))
        })?;
        VerifyingKey::from_bytes(&bytes).map_err(|_| {
            JournalError::Key(format!("{} is not an Ed25519 key", hex::encode(bytes)))
        })?;
        Ok(PublicKey(bytes))
    }

    pub fn hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Whether `signature` is this key's over `message` (strict: no malleable forms).
    pub fn verifies(&self, message: &[u8], signature: &[u8; 64]) -> bool {
        let Ok(key) = VerifyingKey::from_bytes(&self.0) else {
            return false;
        };
        key.verify_strict(message, &Signature::from_bytes(signature))
            .is_ok()
    }
}

impl std::fmt::Display for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.hex())
    }
}

/// The relay's secret key. Never logged: its `Debug` shows the public half only.
pub struct Key {
    secret: SigningKey,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key(public {})", self.public())
    }
}

impl Key {
    /// A fresh key from the system's random source.
    pub fn generate() -> Result<Key, JournalError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| JournalError::Key(format!("random: {e}")))?;
        Ok(Key {
            secret: SigningKey::from_bytes(&bytes),
        })
    }

    pub fn public(&self) -> PublicKey {
        PublicKey(self.secret.verifying_key().to_bytes())
    }

    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.secret.sign(message).to_bytes()
    }

    /// Reads a key file.
    pub fn read(path: &Path) -> Result<Key, JournalError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| JournalError::Key(format!("{}: {e}", path.display())))?;
        let bytes = hex32(text.trim()).ok_or_else(|| {
            JournalError::Key(format!(
                "{}: not a signing key (64 hex digits)",
                path.display()
            ))
        })?;
        Ok(Key {
            secret: SigningKey::from_bytes(&bytes),
        })
    }

    /// Writes the key to `path` (which must not exist) and its public half to
    /// [`public_path`]: a temporary file, created with mode 0600, synced, renamed, and the
    /// folder synced (a power cut must not take back a key the chain is about to name).
    pub fn write_new(&self, path: &Path) -> Result<(), JournalError> {
        let io = |e: std::io::Error| JournalError::Key(format!("{}: {e}", path.display()));
        if path.exists() {
            return Err(JournalError::Key(format!(
                "{}: a key is already there",
                path.display()
            )));
        }
        let tmp = sibling(path, ".tmp");
        let _ = std::fs::remove_file(&tmp);
        let mut file = private_file(&tmp).map_err(io)?;
        file.write_all(format!("{}\n", hex::encode(self.secret.to_bytes())).as_bytes())
            .map_err(io)?;
        file.sync_all().map_err(io)?;
        drop(file);
        std::fs::rename(&tmp, path).map_err(io)?;
        crate::durable::sync_parent(path).map_err(io)?;
        self.write_public(path)
    }

    /// Writes the public key beside the key file (replacing what was there), durably: the
    /// file a federation fetches must not fall back to an older key after a power cut.
    pub fn write_public(&self, key_path: &Path) -> Result<(), JournalError> {
        let public = public_path(key_path);
        crate::durable::replace(&public, format!("{}\n", self.public()).as_bytes())
            .map_err(|e| JournalError::Key(format!("{}: {e}", public.display())))
    }
}

/// Where the public key is written for a key file: `signing.pub` beside `signing.key`, or
/// `FILE.pub` for any other name.
pub fn public_path(key_path: &Path) -> PathBuf {
    if key_path.file_name().is_some_and(|n| n == KEY_FILE) {
        key_path.with_file_name(PUBLIC_FILE)
    } else {
        sibling(key_path, ".pub")
    }
}

/// The key file a data directory and the configuration name.
pub fn key_path(data_dir: &Path, configured: Option<&Path>) -> PathBuf {
    configured.map_or_else(|| data_dir.join(KEY_FILE), Path::to_path_buf)
}

/// `path` with `suffix` added to its file name.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// What a head signature covers: the entry number and the chain hash after it.
pub fn head_message(seq: i64, hash: &[u8; 32]) -> Vec<u8> {
    let mut m = HEAD_TAG.to_vec();
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(hash);
    m
}

/// What a rotation's signature (by the old key) covers: the rotation entry's number, the
/// chain hash before it, and the new key. Bound to its place in the chain, it cannot be
/// replayed elsewhere.
pub fn rotation_message(seq: i64, prev: &[u8; 32], new: &PublicKey) -> Vec<u8> {
    let mut m = ROTATION_TAG.to_vec();
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(prev);
    m.extend_from_slice(&new.0);
    m
}

/// What an export's signature covers: the head it was made from and the SHA-256 of its text.
pub fn export_message(seq: i64, hash: &[u8; 32], digest: &[u8; 32]) -> Vec<u8> {
    let mut m = EXPORT_TAG.to_vec();
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(hash);
    m.extend_from_slice(digest);
    m
}

/// What a start snapshot's signature covers: the entry it was taken after, the chain hash
/// there, and the SHA-256 of its body.
pub fn snapshot_message(seq: i64, hash: &[u8; 32], digest: &[u8; 32]) -> Vec<u8> {
    let mut m = SNAPSHOT_TAG.to_vec();
    m.extend_from_slice(&seq.to_be_bytes());
    m.extend_from_slice(hash);
    m.extend_from_slice(digest);
    m
}

/// 64 hex digits as 32 bytes.
pub fn hex32(text: &str) -> Option<[u8; 32]> {
    let bytes = hex::decode(text).ok()?;
    bytes.try_into().ok()
}

/// 128 hex digits as 64 bytes.
pub fn hex64(text: &str) -> Option<[u8; 64]> {
    let bytes = hex::decode(text).ok()?;
    bytes.try_into().ok()
}

/// The start of a text for an error message (never a whole line from a file).
fn short(text: &str) -> String {
    text.chars().take(80).collect()
}

/// A `key_rotation` entry's detail, defined with every entry's meaning ([`super::entry`]).
pub use super::entry::RotationDetail;

/// The keys the chain names, each from the entry that names it: a `signing_key` entry for the
/// first, a `key_rotation` entry, signed by the key before, for each next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyHistory {
    keys: Vec<(i64, PublicKey)>,
}

impl KeyHistory {
    /// Takes note of an entry (`prev` is the chain hash before it); a key entry that breaks
    /// the rules (a second first key, a rotation not signed by the key it replaces) is an
    /// error naming it.
    pub fn observe(&mut self, e: &Entry, prev: &[u8; 32]) -> Result<(), JournalError> {
        let corrupt = |why: String| JournalError::Corrupt(format!("entry {}: {why}", e.seq));
        match e.kind {
            EntryKind::SigningKey => {
                if let Some((_, current)) = self.current() {
                    return Err(corrupt(format!(
                        "a second first key (the chain's key is {current}; a new key must be a rotation signed by it)"
                    )));
                }
                let key = PublicKey::parse(&e.text).map_err(|err| corrupt(err.to_string()))?;
                self.keys.push((e.seq, key));
            }
            EntryKind::KeyRotation => {
                let Meaning::KeyRotation(detail) = Meaning::of(e)? else {
                    return Err(corrupt("key rotation: not a rotation".to_owned()));
                };
                let old = PublicKey::parse(&detail.old).map_err(|err| corrupt(err.to_string()))?;
                let new = PublicKey::parse(&detail.new).map_err(|err| corrupt(err.to_string()))?;
                if self.current().map(|(_, k)| k) != Some(old) {
                    return Err(corrupt(format!(
                        "a rotation away from key {old}, which is not the chain's key"
                    )));
                }
                let signature = hex64(&detail.signature)
                    .ok_or_else(|| corrupt("key rotation: a bad signature".to_owned()))?;
                if !old.verifies(&rotation_message(e.seq, prev, &new), &signature) {
                    return Err(corrupt(format!(
                        "the rotation to key {new} is not signed by the old key {old}"
                    )));
                }
                self.keys.push((e.seq, new));
            }
            _ => {}
        }
        Ok(())
    }

    /// The key in force at entry `seq`.
    pub fn at(&self, seq: i64) -> Option<PublicKey> {
        self.keys
            .iter()
            .rev()
            .find(|(from, _)| *from <= seq)
            .map(|(_, k)| *k)
    }

    /// The latest key and the entry that named it.
    pub fn current(&self) -> Option<(i64, PublicKey)> {
        self.keys.last().copied()
    }

    /// Every key, with the entry from which it signs.
    pub fn all(&self) -> &[(i64, PublicKey)] {
        &self.keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_file_is_private_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(KEY_FILE);
        let key = Key::generate().unwrap();
        key.write_new(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let again = Key::read(&path).unwrap();
        assert_eq!(again.public(), key.public());
        let public = std::fs::read_to_string(dir.path().join(PUBLIC_FILE)).unwrap();
        assert_eq!(PublicKey::parse(&public).unwrap(), key.public());
        assert!(
            key.write_new(&path).is_err(),
            "an existing key is never replaced"
        );
        assert!(!format!("{key:?}").contains(&hex::encode(key.secret.to_bytes())));
    }

    #[test]
    fn signatures_are_bound_to_their_kind_and_key() {
        let key = Key::generate().unwrap();
        let other = Key::generate().unwrap();
        let hash = [7u8; 32];
        let sig = key.sign(&head_message(5, &hash));
        assert!(key.public().verifies(&head_message(5, &hash), &sig));
        assert!(!key.public().verifies(&head_message(6, &hash), &sig));
        assert!(!other.public().verifies(&head_message(5, &hash), &sig));
        assert!(
            !key.public()
                .verifies(&export_message(5, &hash, &[0; 32]), &sig)
        );
    }
}
