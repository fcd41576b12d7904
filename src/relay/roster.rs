//! The players the relay knows, shared with every transport: the configuration's, and those
//! the arbiter registered while the relay runs (`PLAYER ADD`). The relay task is the only
//! writer; a transport reads a snapshot (a login's secret hash, a reader's notation, a mail's
//! sender) and may follow the changes (the email transport starts delivering to a player
//! registered with `REACH email`).
//!
//! The roster is also what a new secret is announced by, the one signal every transport
//! listens to: whatever a secret opened (a line session, a web session, a live stream, a
//! secret remembered by the login door) holds the secret hash it was opened with, and ends
//! once that is no longer the player's ([`Roster::ended`] for what waits, [`Roster::changes`]
//! for a store that sweeps).

use std::future::Future;
use std::sync::{Arc, RwLock};

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::config::Player;
pub use crate::config::Players;

/// Changes a slow follower may fall behind before it is told it lagged (and reads the whole
/// roster again).
const CHANGES: usize = 256;

/// A shared, read-mostly view of the players. Cheap to clone.
#[derive(Clone)]
pub struct Roster {
    players: Arc<RwLock<Arc<Players>>>,
    changes: broadcast::Sender<String>,
}

impl Roster {
    pub fn new(players: Arc<Players>) -> Roster {
        Roster {
            players: Arc::new(RwLock::new(players)),
            changes: broadcast::channel(CHANGES).0,
        }
    }

    /// Every player, as of now.
    pub fn snapshot(&self) -> Arc<Players> {
        self.players
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// A player, as of now.
    pub fn get(&self, id: &str) -> Option<Player> {
        self.with(id, Player::clone)
    }

    /// What `f` reads of a player, as of now, without copying the player.
    pub fn with<T>(&self, id: &str, f: impl FnOnce(&Player) -> T) -> Option<T> {
        self.players
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .map(f)
    }

    /// The ids of players registered or changed from now on, as they change.
    pub fn changes(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    /// Whether `hash` is `id`'s secret hash now (false for no such player).
    pub fn holds(&self, id: &str, hash: &str) -> bool {
        self.with(id, |p| p.secret_hash == hash).unwrap_or(false)
    }

    /// Ends once `hash` is no longer `id`'s secret hash: a new secret (`SECRET`, `PLAYER
    /// SECRET`) ends what the old one opened. At once if it is not theirs now. Subscribed
    /// when called, before it first looks, so a change between a login and the wait is
    /// seen; a follower that lags looks again.
    pub fn ended(&self, id: &str, hash: &str) -> impl Future<Output = ()> + Send + 'static {
        let mut changes = self.changes();
        let roster = self.clone();
        let (id, hash) = (id.to_owned(), hash.to_owned());
        async move {
            while roster.holds(&id, &hash) {
                loop {
                    match changes.recv().await {
                        Ok(changed) if changed != id => continue,
                        Ok(_) | Err(RecvError::Lagged(_)) => break,
                        // The roster is gone with the relay: nothing changes any more.
                        Err(RecvError::Closed) => std::future::pending::<()>().await,
                    }
                }
            }
        }
    }

    /// Makes `players` the roster, `changed` being the player who is new or different.
    pub(super) fn publish(&self, players: Arc<Players>, changed: &str) {
        *self.players.write().unwrap_or_else(|p| p.into_inner()) = players;
        let _ = self.changes.send(changed.to_owned());
    }
}

/// A notation by the name the configuration and `PLAYER` write it with.
pub fn notation_name(notation: crate::notation::Notation) -> &'static str {
    use crate::notation::{Lang, Notation};
    match notation {
        Notation::Iccf => "iccf",
        Notation::San(Lang::Figurine) => "figurine",
        Notation::San(_) => "san",
        Notation::Lan(_) => "lan",
        Notation::Uci => "uci",
    }
}

/// How a player is reached, by the name the configuration and `PLAYER` write it with.
pub fn reach_name(reach: &crate::config::Reach) -> &'static str {
    use crate::config::Reach;
    match reach {
        Reach::Tcp => "tcp",
        Reach::Email => "email",
        Reach::Xfcc => "xfcc",
        Reach::Link(_) => "link",
        Reach::Radio => "radio",
    }
}
