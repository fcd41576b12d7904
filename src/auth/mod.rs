//! Player secrets: stored only as Argon2id hashes (PHC strings), checked in constant time.
//! Secrets are never logged; `ccrelay hash-secret` makes the hashes the configuration holds.
//!
//! Every login (TCP, serial, XFCC, web) passes one [`gate::LoginGate`]: failed logins limited
//! per address and per player, right secrets remembered for a few minutes. Every Argon2 check
//! the daemon makes (a login, an email token) goes through one [`Verifier`]: one limit on
//! checks running at once for the whole daemon, and a fixed pool of Argon2 memory, one buffer
//! per permit, reused from check to check. A default-cost check fills 19 MiB; allocated afresh
//! each time, a flood of wrong logins left the allocator holding hundreds of megabytes it
//! never returned. With the pool, at most `limit` buffers ever exist.
//!
//! ```
//! let hash = ccrelay::auth::hash_secret("correct horse").unwrap();
//! assert!(ccrelay::auth::verify_secret("correct horse", &hash));
//! assert!(!ccrelay::auth::verify_secret("wrong", &hash));
//! ```

pub mod gate;
pub mod remembered;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::PasswordHasher;
use argon2::password_hash::phc::PasswordHash;
use argon2::{Algorithm, Argon2, Block, Params, Version};
use subtle::ConstantTimeEq;
use tokio::sync::Semaphore;

/// A new secret: 120 random bits as 24 letters and digits in groups of four (`k7qm-...`),
/// easy to read aloud and type, no look-alikes (no 0/o, 1/l), no character the protocol
/// splits on, in lower case (a mail key survives servers that lower-case plus addresses).
/// What `ccrelay init` and `PLAYER ADD` give out; an error only if the system has no
/// randomness to give.
pub fn new_secret() -> Result<String, String> {
    const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 15];
    getrandom::fill(&mut bytes).map_err(|e| e.to_string())?;
    let mut bits: u128 = 0;
    for b in bytes {
        bits = (bits << 8) | u128::from(b);
    }
    let mut out = String::with_capacity(29);
    for i in 0..24 {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        let index = ((bits >> (5 * (23 - i))) & 31) as usize;
        out.push(char::from(ALPHABET[index]));
    }
    Ok(out)
}

/// Hashes a secret with Argon2id's default (interactive-login) cost.
pub fn hash_secret(secret: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(secret.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Hashes a secret at the lowest Argon2id cost: for test and benchmark configurations only,
/// where thousands of logins must not each cost 20 ms.
pub fn hash_secret_cheap(secret: &str) -> Result<String, String> {
    let params = Params::new(Params::MIN_M_COST, 1, 1, None).map_err(|e| e.to_string())?;
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(secret.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `hash` is a PHC string the verifier understands.
pub fn parse_hash(hash: &str) -> Result<(), String> {
    Stored::parse(hash).map(|_| ())
}

/// Checks a secret against its stored hash, with memory of its own (for the command line and
/// tests; the daemon uses a [`Verifier`]). A malformed hash refuses every secret.
pub fn verify_secret(secret: &str, hash: &str) -> bool {
    let Ok(stored) = Stored::parse(hash) else {
        return false;
    };
    let mut memory = Vec::new();
    stored.matches(secret.as_bytes(), &mut memory)
}

/// A stored hash, taken apart.
struct Stored {
    argon2: Argon2<'static>,
    salt: Vec<u8>,
    expected: Vec<u8>,
}

impl Stored {
    fn parse(hash: &str) -> Result<Stored, String> {
        let parsed = PasswordHash::new(hash).map_err(|e| e.to_string())?;
        let algorithm =
            Algorithm::try_from(parsed.algorithm.as_str()).map_err(|e| e.to_string())?;
        let version = match parsed.version {
            Some(v) => Version::try_from(v).map_err(|e| e.to_string())?,
            None => Version::default(),
        };
        let params = Params::try_from(&parsed).map_err(|e| e.to_string())?;
        let salt = parsed.salt.ok_or("the hash has no salt")?;
        let expected = parsed.hash.ok_or("the hash has no output")?;
        Ok(Stored {
            argon2: Argon2::new(algorithm, version, params),
            salt: salt.to_vec(),
            expected: expected.as_bytes().to_vec(),
        })
    }

    /// Argon2 blocks this hash fills.
    fn blocks(&self) -> usize {
        self.argon2.params().block_count()
    }

    /// Hashes `secret` in `memory` (grown to the size this hash needs, never shrunk) and
    /// compares in constant time.
    fn matches(&self, secret: &[u8], memory: &mut Vec<Block>) -> bool {
        let needed = self.blocks();
        if memory.len() < needed {
            memory.resize(needed, Block::new());
        }
        let mut out = vec![0u8; self.expected.len()];
        self.argon2
            .hash_password_into_with_memory(secret, &self.salt, &mut out, &mut memory[..needed])
            .is_ok()
            && bool::from(out.ct_eq(&self.expected))
    }
}

/// No permit came free in time: every check slot was busy for the whole wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many secrets being checked at once; try again shortly")]
pub struct Busy;

/// The daemon's one secret checker: at most `limit` Argon2 checks at once, each in a pooled
/// memory buffer, off the async threads. Shared by every transport through an `Arc`.
pub struct Verifier {
    permits: Arc<Semaphore>,
    /// Free buffers; at most `limit` exist, each as large as the largest hash checked so far
    /// needed (19 MiB at the default cost). Hashes come from the configuration, so that size
    /// is the operator's choice, not a client's.
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
    limit: usize,
    /// Argon2 runs so far (also counted in `ccrelay_secret_checks_total`).
    runs: AtomicU64,
}

impl Verifier {
    /// Checks at once by default: Argon2 is CPU-bound, so more than the cores of a small
    /// machine only adds memory (4 × 19 MiB), not speed.
    pub const DEFAULT_LIMIT: usize = 4;

    pub fn new(limit: usize) -> Verifier {
        let limit = limit.max(1);
        Verifier {
            permits: Arc::new(Semaphore::new(limit)),
            memory: Arc::new(Mutex::new(Vec::with_capacity(limit))),
            limit,
            runs: AtomicU64::new(0),
        }
    }

    /// Checks at once, at most.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Whether any of `secrets` matches `hash`, waiting at most `wait` for a free slot. One
    /// slot covers all the secrets (an email carries up to a few candidate tokens). A
    /// malformed hash matches nothing; the time spent is then only the parse.
    pub async fn verify_any(
        &self,
        secrets: Vec<String>,
        hash: &str,
        wait: Duration,
    ) -> Result<bool, Busy> {
        let Ok(stored) = Stored::parse(hash) else {
            return Ok(false);
        };
        let permit = match tokio::time::timeout(wait, self.permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) | Err(_) => return Err(Busy),
        };
        self.runs.fetch_add(1, Ordering::Relaxed);
        metrics::counter!("ccrelay_secret_checks_total").increment(1);
        let pool = self.memory.clone();
        let checked = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            // Holding a permit guarantees a buffer is free or may be made: never more
            // buffers than permits.
            let mut memory = pool
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop()
                .unwrap_or_default();
            let ok = secrets.iter().fold(false, |ok, s| {
                stored.matches(s.as_bytes(), &mut memory) | ok
            });
            pool.lock().unwrap_or_else(|p| p.into_inner()).push(memory);
            ok
        })
        .await;
        Ok(checked.unwrap_or(false))
    }

    /// Whether `secret` matches `hash`; see [`Verifier::verify_any`].
    pub async fn verify(&self, secret: String, hash: &str, wait: Duration) -> Result<bool, Busy> {
        self.verify_any(vec![secret], hash, wait).await
    }

    /// Argon2 checks this verifier has run (each check of one or several secrets is one).
    pub fn checks_run(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Argon2 buffers allocated so far (never more than the limit).
    pub fn buffers(&self) -> usize {
        self.memory.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_from_the_crate_verify_and_wrong_secrets_do_not() {
        let hash = hash_secret_cheap("s3cret").unwrap();
        assert!(verify_secret("s3cret", &hash));
        assert!(!verify_secret("s3cret ", &hash));
        assert!(!verify_secret("s3cret", "$argon2id$v=19$m=8,t=1,p=1$bad"));
        assert!(!verify_secret("s3cret", "not a hash"));
        assert!(parse_hash(&hash).is_ok());
        assert!(parse_hash("$argon2id$v=19").is_err());
    }

    #[test]
    fn the_pooled_check_agrees_with_the_crates_own_verifier_at_the_default_cost() {
        use argon2::password_hash::PasswordVerifier;
        let hash = hash_secret("password").unwrap();
        let stored = Stored::parse(&hash).unwrap();
        assert_eq!(stored.blocks(), Params::DEFAULT_M_COST as usize);
        let parsed = PasswordHash::new(&hash).unwrap();
        let mut memory = Vec::new();
        for secret in ["password", "passwore", ""] {
            let theirs = Argon2::default()
                .verify_password(secret.as_bytes(), &parsed)
                .is_ok();
            assert_eq!(
                stored.matches(secret.as_bytes(), &mut memory),
                theirs,
                "{secret:?}"
            );
        }
        // The same buffer served all three checks.
        assert_eq!(memory.len(), Params::DEFAULT_M_COST as usize);
    }

    #[tokio::test]
    async fn the_verifier_never_holds_more_buffers_than_its_limit() {
        let verifier = Arc::new(Verifier::new(2));
        let hash = hash_secret_cheap("right").unwrap();
        let mut checks = Vec::new();
        for i in 0..20 {
            let v = verifier.clone();
            let hash = hash.clone();
            checks.push(tokio::spawn(async move {
                let secret = if i % 5 == 0 { "right" } else { "wrong" };
                v.verify(secret.to_owned(), &hash, Duration::from_secs(30))
                    .await
            }));
        }
        let mut right = 0;
        for c in checks {
            if c.await.unwrap().unwrap() {
                right += 1;
            }
        }
        assert_eq!(right, 4);
        assert!(
            (1..=2).contains(&verifier.buffers()),
            "{}",
            verifier.buffers()
        );
    }

    #[tokio::test]
    async fn any_of_several_tokens_may_match_and_a_bad_hash_matches_none() {
        let verifier = Verifier::new(1);
        let hash = hash_secret_cheap("token-2").unwrap();
        let tokens = vec!["token-1".to_owned(), "token-2".to_owned()];
        let wait = Duration::from_secs(30);
        assert_eq!(
            verifier.verify_any(tokens.clone(), &hash, wait).await,
            Ok(true)
        );
        assert_eq!(
            verifier.verify_any(tokens[..1].to_vec(), &hash, wait).await,
            Ok(false)
        );
        assert_eq!(verifier.verify_any(tokens, "junk", wait).await, Ok(false));
    }

    #[tokio::test]
    async fn a_full_verifier_says_busy_after_the_wait() {
        let verifier = Verifier::new(1);
        let hash = hash_secret_cheap("x").unwrap();
        let held = verifier.permits.clone().acquire_owned().await.unwrap();
        let r = verifier
            .verify("x".to_owned(), &hash, Duration::from_millis(20))
            .await;
        assert_eq!(r, Err(Busy));
        drop(held);
        let r = verifier
            .verify("x".to_owned(), &hash, Duration::from_millis(20))
            .await;
        assert_eq!(r, Ok(true));
    }
}
