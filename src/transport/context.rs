//! What every transport's sessions share ([`Context`]: the configuration, the relay and its
//! mailbox, shutdown, the one login door) and who is at the other end of one ([`Peer`]).
//! The line protocol's sessions, XFCC, the web pages and the admin socket all take it.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::auth::Verifier;
use crate::auth::gate::{LoginGate, Refusal};
use crate::config::Config;
use crate::relay::{Channel, Mailbox, Relay};

/// Who is at the other end of a session, for the login limit and the logs.
#[derive(Clone, Debug)]
pub struct Peer {
    /// What failed logins are counted by: an IPv4 address, an IPv6 /64 (behind a trusted
    /// proxy, the client's it names), a serial device.
    pub key: String,
    /// The transport, as journal entries name it: `tcp`, `serial`.
    pub channel: Channel,
    /// Where output passes through a slow line: the highest message id actually printed.
    /// A bare `ACK` then acknowledges only what the person can have read.
    pub printed: Option<Arc<AtomicI64>>,
    /// Whether no one else can read the wire: TLS, or a connection from this machine (through
    /// a proxy, both hops: `tcp::private_wire`). A player may set their own secret (`SECRET`)
    /// only over such a wire; a plain TCP connection from elsewhere and a serial line (which
    /// may be a radio modem) are not.
    pub private_wire: bool,
}

/// What every session shares.
pub struct Context {
    pub config: Arc<Config>,
    pub relay: Relay,
    pub mailbox: Mailbox,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    /// Every transport's one login door: failed logins limited per address and per player,
    /// right secrets remembered, the daemon's one Argon2 verifier behind them.
    logins: LoginGate,
}

impl Context {
    pub fn new(
        config: Arc<Config>,
        relay: Relay,
        mailbox: Mailbox,
        shutdown: CancellationToken,
        tracker: TaskTracker,
        verifier: Arc<Verifier>,
    ) -> Context {
        Context {
            logins: LoginGate::new(verifier, config.limits.failed_logins_per_minute),
            config,
            relay,
            mailbox,
            shutdown,
            tracker,
        }
    }

    /// Logs `player` in with `secret` from `address` (a key from
    /// [`crate::limiter::address_key`], or a serial device): `admin` is the arbiter, any other
    /// name a player. Refusals are counted in `ccrelay_logins_refused_total`; nothing here
    /// logs the secret.
    pub async fn log_in(&self, address: &str, player: &str, secret: String) -> Result<(), Refusal> {
        let hash = if player == "admin" {
            self.config.admin_secret_hash.clone()
        } else {
            self.relay.roster().with(player, |p| p.secret_hash.clone())
        };
        let checked = self
            .logins
            .check(address, player, secret, hash.as_deref())
            .await;
        if let Err(refusal) = checked {
            metrics::counter!("ccrelay_logins_refused_total", "reason" => refusal.label())
                .increment(1);
        }
        checked
    }

    /// [`Context::log_in`] for a player only: the name `admin` is refused like a wrong secret
    /// (and counted as a failure), for the services where the arbiter has no login.
    pub async fn log_in_player(
        &self,
        address: &str,
        player: &str,
        secret: String,
    ) -> Result<(), Refusal> {
        if player == "admin" || player.is_empty() {
            // Checked against nothing, so it costs and counts as any wrong login does.
            return self.log_in(address, "", secret).await;
        }
        self.log_in(address, player, secret).await
    }
}
