//! The one door every login passes (a TCP or serial `LOGIN`, an XFCC call, a web login): the
//! limit on **failed** logins, the secrets verified a moment ago, and the daemon's one
//! Argon2 verifier, in that order.
//!
//! - A login is refused without any check when its address (an IPv4 address, an IPv6 /64) has
//!   failed `per_minute` times in the current minute, or when the player named has, from
//!   anywhere, unless this address logged in as that player before (so a guesser spread over
//!   many addresses cannot lock a player out of their own club's machine).
//! - A right secret checked in the last ten minutes is let in at the cost of a keyed digest
//!   ([`Remembered`]); only past the failure limit, so the memory is no oracle for a guesser
//!   who is being refused.
//! - Otherwise Argon2id decides. A failure counts against the address and the player; a
//!   success counts against neither, so a club of players behind one router, or a client
//!   that sends the password with every call, is never refused for logging in often.
//!
//! What a guesser can still do: `per_minute` guesses a minute from each address (IPv6: each
//! /64), and at most `per_minute` a minute at any one player from all addresses together
//! (10 by default: about 14,400 a day, against the 2^120 secrets `ccrelay init` draws).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::remembered::{MAX_REMEMBERED, REMEMBER_FOR, Remembered};
use super::{Busy, Verifier};
use crate::limiter::KeyedLimiter;

/// Why a login was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Too many failed logins from this address, or for this player, in the last minute.
    #[error("too many failed logins; wait a minute")]
    TooMany,
    /// No such player, or the wrong secret (the two are not told apart).
    #[error("login refused: wrong player or secret")]
    Wrong,
    /// Every secret-check slot stayed busy for the whole wait.
    #[error("{0}")]
    Busy(Busy),
}

impl Refusal {
    /// The reason as a metric label.
    pub fn label(self) -> &'static str {
        match self {
            Refusal::TooMany => "too many",
            Refusal::Wrong => "wrong secret",
            Refusal::Busy(_) => "busy",
        }
    }
}

/// Keys the failure tables hold at most (addresses, players).
const MAX_KEYS: usize = 65_536;
/// (player, address) pairs remembered as having logged in, at most.
const MAX_KNOWN: usize = 16_384;
/// How long a (player, address) pair stays known after a login.
const KNOWN_FOR: Duration = Duration::from_secs(7 * 86_400);
/// How long a login waits for a free secret check before it is told to try again.
const VERIFY_WAIT: Duration = Duration::from_secs(10);

/// The login door; see the module's documentation.
pub struct LoginGate {
    verifier: Arc<Verifier>,
    by_address: KeyedLimiter,
    by_player: KeyedLimiter,
    remembered: Remembered,
    known: Mutex<HashMap<String, Instant>>,
}

impl LoginGate {
    /// A gate allowing `failures_per_minute` failed logins per address and per player.
    pub fn new(verifier: Arc<Verifier>, failures_per_minute: u32) -> LoginGate {
        let minute = Duration::from_secs(60);
        LoginGate {
            verifier,
            by_address: KeyedLimiter::new(failures_per_minute, minute, MAX_KEYS),
            by_player: KeyedLimiter::new(failures_per_minute, minute, MAX_KEYS),
            remembered: Remembered::new(REMEMBER_FOR, MAX_REMEMBERED),
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `secret` is `player`'s, whose stored hash is `hash` (`None`: no such player,
    /// checked against a dummy all the same so the time does not tell), for a login from
    /// `address` (a key from [`crate::limiter::address_key`], or a serial device).
    pub async fn check(
        &self,
        address: &str,
        player: &str,
        secret: String,
        hash: Option<&str>,
    ) -> Result<(), Refusal> {
        let known = self.is_known(player, address);
        if self.by_address.exhausted(address) || (!known && self.by_player.exhausted(player)) {
            return Err(Refusal::TooMany);
        }
        if let Some(hash) = hash
            && self.remembered.contains(player, &secret, hash)
        {
            self.know(player, address);
            return Ok(());
        }
        // Counted before the check, so that logins racing in together cannot run more checks
        // than the limit; taken back below if the secret was right.
        if !self.by_address.attempt(address) {
            return Err(Refusal::TooMany);
        }
        if !self.by_player.attempt(player) && !known {
            self.by_address.forgive(address);
            return Err(Refusal::TooMany);
        }
        let checked = self
            .verifier
            .verify(
                secret.clone(),
                hash.unwrap_or_else(|| dummy_hash()),
                VERIFY_WAIT,
            )
            .await;
        match (checked, hash) {
            (Ok(true), Some(hash)) => {
                self.by_address.forgive(address);
                self.by_player.forgive(player);
                self.remembered.insert(player, &secret, hash);
                self.know(player, address);
                Ok(())
            }
            (Ok(_), _) => Err(Refusal::Wrong),
            (Err(busy), _) => {
                // Nothing was checked: the attempt does not count against anyone.
                self.by_address.forgive(address);
                self.by_player.forgive(player);
                Err(Refusal::Busy(busy))
            }
        }
    }

    /// A one-time code a transport checked itself (a radio player's card, where the sender's
    /// address is only the callsign they transmit, which anyone can): refused unchecked past
    /// the limit of failures from that address or at that player (no address is trusted for
    /// a player here), and a wrong one counted against both, as a wrong secret is.
    pub fn check_code(&self, address: &str, player: &str, right: bool) -> Result<(), Refusal> {
        if self.by_address.exhausted(address) || self.by_player.exhausted(player) {
            return Err(Refusal::TooMany);
        }
        if right {
            return Ok(());
        }
        let _ = self.by_address.attempt(address);
        let _ = self.by_player.attempt(player);
        Err(Refusal::Wrong)
    }

    /// Forgets every remembered secret of `player`: call when their secret changes.
    pub fn secret_changed(&self, player: &str) {
        self.remembered.forget(player);
    }

    /// Forgets every remembered secret (who changed is not known).
    pub fn forget_everyone(&self) {
        self.remembered.clear();
    }

    /// How many secrets are remembered now.
    pub fn remembered(&self) -> usize {
        self.remembered.len()
    }

    /// The daemon's Argon2 verifier (for checks that are not logins, such as mail tokens).
    pub fn verifier(&self) -> &Arc<Verifier> {
        &self.verifier
    }

    /// An address key never holds a NUL, so the pair reads back one way only.
    fn known_key(player: &str, address: &str) -> String {
        format!("{player}\u{0}{address}")
    }

    fn is_known(&self, player: &str, address: &str) -> bool {
        let known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        known
            .get(&Self::known_key(player, address))
            .is_some_and(|at| at.elapsed() < KNOWN_FOR)
    }

    fn know(&self, player: &str, address: &str) {
        let mut known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        let key = Self::known_key(player, address);
        if known.len() >= MAX_KNOWN && !known.contains_key(&key) {
            known.retain(|_, at| at.elapsed() < KNOWN_FOR);
            if known.len() >= MAX_KNOWN
                && let Some(oldest) = known
                    .iter()
                    .min_by_key(|(_, at)| **at)
                    .map(|(k, _)| k.clone())
            {
                known.remove(&oldest);
            }
        }
        known.insert(key, Instant::now());
    }
}

/// A hash no secret is known for, checked when the player does not exist.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut bytes = [0u8; 32];
        let _ = getrandom::fill(&mut bytes);
        super::hash_secret(&hex::encode(bytes)).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::hash_secret_cheap;

    fn gate(per_minute: u32) -> LoginGate {
        LoginGate::new(Arc::new(Verifier::new(2)), per_minute)
    }

    #[tokio::test]
    async fn right_secrets_never_count_and_wrong_ones_stop_at_the_limit() {
        let gate = gate(3);
        let hash = hash_secret_cheap("right").unwrap();
        for _ in 0..50 {
            assert_eq!(
                gate.check("10.0.0.1", "alice", "right".into(), Some(&hash))
                    .await,
                Ok(())
            );
        }
        for _ in 0..3 {
            assert_eq!(
                gate.check("10.0.0.1", "alice", "wrong".into(), Some(&hash))
                    .await,
                Err(Refusal::Wrong)
            );
        }
        let before = gate.verifier.checks_run();
        assert_eq!(
            gate.check("10.0.0.1", "boris", "anything".into(), None)
                .await,
            Err(Refusal::TooMany),
            "the address is spent"
        );
        assert_eq!(
            gate.check("10.0.0.1", "alice", "right".into(), Some(&hash))
                .await,
            Err(Refusal::TooMany),
            "even the right secret waits: the memory of it is no oracle"
        );
        assert_eq!(gate.verifier.checks_run(), before, "refused without Argon2");
    }

    #[tokio::test]
    async fn a_remembered_secret_skips_argon2_until_the_secret_changes() {
        let gate = gate(10);
        let hash = hash_secret_cheap("right").unwrap();
        gate.check("a", "alice", "right".into(), Some(&hash))
            .await
            .unwrap();
        let before = gate.verifier.checks_run();
        for _ in 0..20 {
            gate.check("b", "alice", "right".into(), Some(&hash))
                .await
                .unwrap();
        }
        assert_eq!(
            gate.verifier.checks_run(),
            before,
            "no Argon2 for a remembered pair"
        );
        gate.secret_changed("alice");
        gate.check("b", "alice", "right".into(), Some(&hash))
            .await
            .unwrap();
        assert_eq!(
            gate.verifier.checks_run(),
            before + 1,
            "forgotten: checked again"
        );
        let new_hash = hash_secret_cheap("new").unwrap();
        assert_eq!(
            gate.check("b", "alice", "right".into(), Some(&new_hash))
                .await,
            Err(Refusal::Wrong),
            "the old secret against the new hash"
        );
    }

    #[tokio::test]
    async fn a_guesser_on_many_addresses_is_stopped_by_the_player_limit_but_the_player_is_not() {
        let gate = gate(3);
        let hash = hash_secret_cheap("right").unwrap();
        // Boris logs in from home once.
        gate.check("home", "boris", "right".into(), Some(&hash))
            .await
            .unwrap();
        for i in 0..3 {
            let address = format!("botnet-{i}");
            assert_eq!(
                gate.check(&address, "boris", "guess".into(), Some(&hash))
                    .await,
                Err(Refusal::Wrong)
            );
        }
        assert_eq!(
            gate.check("botnet-99", "boris", "right".into(), Some(&hash))
                .await,
            Err(Refusal::TooMany),
            "a fresh address gets no more guesses at boris"
        );
        assert_eq!(
            gate.check("home", "boris", "right".into(), Some(&hash))
                .await,
            Ok(()),
            "boris at home is not locked out"
        );
    }

    #[test]
    fn wrong_codes_count_as_failed_logins_and_stop_even_right_ones() {
        let gate = gate(3);
        assert_eq!(gate.check_code("radio:N0CALL-7", "anna", true), Ok(()));
        for _ in 0..3 {
            assert_eq!(
                gate.check_code("radio:N0CALL-9", "anna", false),
                Err(Refusal::Wrong)
            );
        }
        assert_eq!(
            gate.check_code("radio:N0CALL-7", "anna", true),
            Err(Refusal::TooMany),
            "a callsign is no address to trust"
        );
        assert_eq!(gate.check_code("radio:N0CALL-7", "boris", true), Ok(()));
    }

    #[tokio::test]
    async fn an_unknown_player_is_refused_like_a_wrong_secret() {
        let gate = gate(10);
        assert_eq!(
            gate.check("a", "nobody", "x".into(), None).await,
            Err(Refusal::Wrong)
        );
    }
}
