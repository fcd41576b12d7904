//! Player secrets: stored only as Argon2id hashes (PHC strings), checked in constant time by
//! the argon2 crate. Secrets are never logged; `ccrelay hash-secret` makes the hashes the
//! configuration holds.
//!
//! ```
//! let hash = ccrelay::auth::hash_secret("correct horse").unwrap();
//! assert!(ccrelay::auth::verify_secret("correct horse", &hash));
//! assert!(!ccrelay::auth::verify_secret("wrong", &hash));
//! ```

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};

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
    PasswordHash::new(hash)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Checks a secret against its stored hash. A malformed hash refuses every secret.
pub fn verify_secret(secret: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}
