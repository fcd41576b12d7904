//! Secrets verified a moment ago, remembered in memory so that the next call with the same
//! player and secret costs a keyed digest (about a microsecond) instead of an Argon2id run
//! (about 20 ms and 19 MiB at the default cost). XFCC carries the password on every call and
//! a browser page on every request, so without this a player fetching their games pays a
//! full password check each time, and the daemon's few Argon2 slots fill with right secrets.
//!
//! What is kept is an HMAC-SHA256, under a key drawn at start and never written anywhere, of
//! the player, the secret and the stored hash the secret was checked against. It is never on
//! disk and never logged; a restart draws a new key and so forgets everything; a changed
//! secret has a new stored hash, so the old pair no longer matches (and [`Remembered::forget`]
//! drops a player's entries at once). An entry lasts a fixed time from its Argon2 check,
//! however often it is used, and the table is bounded (the oldest entry goes first).
//!
//! ```
//! use std::time::Duration;
//! use ccrelay::auth::remembered::Remembered;
//!
//! let remembered = Remembered::new(Duration::from_secs(600), 4);
//! assert!(!remembered.contains("alice", "s3cret", "$argon2id$..."));
//! remembered.insert("alice", "s3cret", "$argon2id$...");
//! assert!(remembered.contains("alice", "s3cret", "$argon2id$..."));
//! assert!(!remembered.contains("alice", "guess", "$argon2id$..."));
//! remembered.forget("alice");
//! assert!(!remembered.contains("alice", "s3cret", "$argon2id$..."));
//! ```

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// How long a verified secret is remembered by default.
pub const REMEMBER_FOR: Duration = Duration::from_secs(600);
/// Verified pairs remembered at once, at most, by default.
pub const MAX_REMEMBERED: usize = 16_384;

/// Verified (player, secret, stored hash) triples, as keyed digests.
pub struct Remembered {
    key: [u8; 32],
    ttl: Duration,
    capacity: usize,
    entries: Mutex<HashMap<[u8; 32], Entry>>,
}

struct Entry {
    player: String,
    verified: Instant,
}

impl Remembered {
    /// An empty table under a fresh random key. If the system has no randomness to give, the
    /// table remembers nothing (every check then runs Argon2, as before there was one).
    pub fn new(ttl: Duration, capacity: usize) -> Remembered {
        let mut key = [0u8; 32];
        let capacity = if getrandom::fill(&mut key).is_ok() {
            capacity
        } else {
            0
        };
        Remembered {
            key,
            ttl,
            capacity,
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn digest(&self, player: &str, secret: &str, hash: &str) -> [u8; 32] {
        let mut mac = HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length");
        // Each field with its length first, so no two triples give the same input.
        for field in [player, secret, hash] {
            mac.update(&(field.len() as u64).to_be_bytes());
            mac.update(field.as_bytes());
        }
        mac.finalize().into_bytes().into()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `secret` was verified as `player`'s against `hash` within the time an entry lasts.
    pub fn contains(&self, player: &str, secret: &str, hash: &str) -> bool {
        if self.capacity == 0 {
            return false;
        }
        let digest = self.digest(player, secret, hash);
        let mut entries = self.lock();
        match entries.get(&digest) {
            Some(e) if e.verified.elapsed() < self.ttl => true,
            Some(_) => {
                entries.remove(&digest);
                false
            }
            None => false,
        }
    }

    /// Remembers that `secret` is `player`'s for `hash` (call only after Argon2 said so).
    pub fn insert(&self, player: &str, secret: &str, hash: &str) {
        if self.capacity == 0 {
            return;
        }
        let digest = self.digest(player, secret, hash);
        let mut entries = self.lock();
        if entries.len() >= self.capacity && !entries.contains_key(&digest) {
            let ttl = self.ttl;
            entries.retain(|_, e| e.verified.elapsed() < ttl);
            if entries.len() >= self.capacity
                && let Some(oldest) = entries
                    .iter()
                    .min_by_key(|(_, e)| e.verified)
                    .map(|(d, _)| *d)
            {
                entries.remove(&oldest);
            }
        }
        entries.insert(
            digest,
            Entry {
                player: player.to_owned(),
                verified: Instant::now(),
            },
        );
    }

    /// Forgets every secret remembered for `player` (their secret was changed).
    pub fn forget(&self, player: &str) {
        self.lock().retain(|_, e| e.player != player);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Entries held now (expired ones included until they are next met).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_remembered_only_for_its_own_hash_and_until_it_expires() {
        let r = Remembered::new(Duration::from_millis(50), 8);
        r.insert("alice", "s3cret", "hash-1");
        assert!(r.contains("alice", "s3cret", "hash-1"));
        assert!(!r.contains("alice", "s3cret", "hash-2"), "a changed secret");
        assert!(!r.contains("boris", "s3cret", "hash-1"), "another player");
        // Fields cannot run into each other.
        r.insert("ab", "c", "h");
        assert!(!r.contains("a", "bc", "h"));
        std::thread::sleep(Duration::from_millis(60));
        assert!(!r.contains("alice", "s3cret", "hash-1"), "expired");
    }

    #[test]
    fn the_table_is_bounded_and_forgets_the_oldest() {
        let r = Remembered::new(Duration::from_secs(600), 3);
        for i in 0..10 {
            r.insert(&format!("p{i}"), "s", "h");
        }
        assert_eq!(r.len(), 3);
        assert!(r.contains("p9", "s", "h"));
        assert!(!r.contains("p0", "s", "h"));
    }

    #[test]
    fn two_tables_share_no_digests() {
        let a = Remembered::new(REMEMBER_FOR, 4);
        let b = Remembered::new(REMEMBER_FOR, 4);
        assert_ne!(a.digest("p", "s", "h"), b.digest("p", "s", "h"));
    }
}
