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
    /// Whether no one else can read the wire: TLS, a connection from this machine (through a
    /// proxy, both hops: `tcp::private_wire`), the admin socket. A command that carries a
    /// secret (`SECRET`, and `PLAYER ADD` and `PLAYER SECRET` whose replies do:
    /// [`crate::command::Command::carries_secret`]) is taken only over such a wire; a plain
    /// TCP connection from elsewhere and a serial line (which may be a radio modem) are not.
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
    /// logs the secret. A login gives the secret hash it was checked against: what it opens
    /// ends when that is no longer the player's ([`crate::relay::Roster::ended`]).
    pub async fn log_in(
        &self,
        address: &str,
        player: &str,
        secret: String,
    ) -> Result<String, Refusal> {
        let hash = if player == "admin" {
            self.config.admin_secret_hash.clone()
        } else {
            self.relay.roster().with(player, |p| p.secret_hash.clone())
        };
        let checked = self
            .logins
            .check(address, player, secret, hash.as_deref())
            .await;
        match checked {
            Ok(()) => Ok(hash.unwrap_or_default()),
            Err(refusal) => {
                metrics::counter!("ccrelay_logins_refused_total", "reason" => refusal.label())
                    .increment(1);
                Err(refusal)
            }
        }
    }

    /// A one-time code `player` sent from `address` (a radio player's card code), judged right
    /// or wrong by its transport, passed through the one login door: past the limit of
    /// failed logins it is refused unchecked, and a wrong one counts as a failed login.
    pub fn check_code(&self, address: &str, player: &str, right: bool) -> Result<(), Refusal> {
        let checked = self.logins.check_code(address, player, right);
        if let Err(refusal) = checked {
            metrics::counter!("ccrelay_logins_refused_total", "reason" => refusal.label())
                .increment(1);
        }
        checked
    }

    /// Forgets the secrets the login door remembers for a player as soon as the roster
    /// announces a change of theirs (a new secret above all), until the daemon stops: a
    /// remembered secret is keyed by the hash it was checked against and so opens nothing
    /// after a new secret, and with this it is not kept either.
    pub async fn forget_changed_secrets(self: Arc<Self>) {
        let mut changes = self.relay.roster().changes();
        loop {
            let changed = tokio::select! {
                () = self.shutdown.cancelled() => return,
                changed = changes.recv() => changed,
            };
            match changed {
                Ok(player) => self.logins.secret_changed(&player),
                // Who changed is not known: forget every player's.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    self.logins.forget_everyone();
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            }
        }
    }

    /// How many secrets the login door remembers now.
    #[cfg(test)]
    pub(crate) fn remembered_secrets(&self) -> usize {
        self.logins.remembered()
    }

    /// [`Context::log_in`] for a player only: the name `admin` is refused like a wrong secret
    /// (and counted as a failure), for the services where the arbiter has no login.
    pub async fn log_in_player(
        &self,
        address: &str,
        player: &str,
        secret: String,
    ) -> Result<String, Refusal> {
        if player == "admin" || player.is_empty() {
            // Checked against nothing, so it costs and counts as any wrong login does.
            return self.log_in(address, "", secret).await;
        }
        self.log_in(address, player, secret).await
    }
}

/// The refusal of a command that carries a secret ([`crate::command::Command::carries_secret`],
/// named `name`) on a wire that is not private ([`Peer::private_wire`]): nothing is done. Every
/// transport that takes such a command answers so.
pub fn not_private(name: &str) -> crate::relay::Reply {
    crate::relay::Reply::new(
        crate::relay::Status::Forbidden,
        format!(
            "{name} carries a secret: only over TLS, from the relay's own machine or on the admin socket; this wire is not private, nothing done"
        ),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::auth::Verifier;
    use crate::command::{Command, PlayerAction, PlayerFields};
    use crate::relay::{Request, Sender, Status};

    /// Finding "a new secret ends what the old one opened": the secret the login door
    /// remembered for a player (XFCC's every call) is forgotten when the arbiter gives them a
    /// new one.
    #[tokio::test]
    async fn a_new_secret_makes_the_login_door_forget_the_old_one() {
        let spawned = crate::relay::testing::spawn(
            "[admin]\nsecret_hash = \"HASH\"\n[[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\n",
        )
        .await;
        let ctx = Arc::new(Context::new(
            Arc::new(spawned.config),
            spawned.relay,
            spawned.mailbox,
            CancellationToken::new(),
            TaskTracker::new(),
            Arc::new(Verifier::new(1)),
        ));
        tokio::spawn(ctx.clone().forget_changed_secrets());
        ctx.log_in("127.0.0.1", "alice", "unused".to_owned())
            .await
            .expect("the secret is alice's");
        assert_eq!(ctx.remembered_secrets(), 1);
        let arbiter = Sender {
            player: "admin".to_owned(),
            admin: true,
            channel: Channel::Admin,
        };
        let secret = Command::Player {
            id: "alice".to_owned(),
            action: PlayerAction::Secret,
            fields: PlayerFields::default(),
        };
        assert_eq!(
            ctx.relay.call(Request::new(arbiter, secret)).await.status,
            Status::Done
        );
        let forgotten = async {
            while ctx.remembered_secrets() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), forgotten)
            .await
            .expect("the old secret is forgotten");
        ctx.shutdown.cancel();
    }
}
