//! The players the relay knows, shared with every transport: the configuration's, and those
//! the arbiter registered while the relay runs (`PLAYER ADD`). The relay task is the only
//! writer; a transport reads a snapshot (a login's secret hash, a reader's notation, a mail's
//! sender) and may follow the changes (the email transport starts delivering to a player
//! registered with `REACH email`).

use std::sync::{Arc, RwLock};

use tokio::sync::broadcast;

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

    /// Makes `players` the roster, `changed` being the player who is new or different.
    pub(super) fn publish(&self, players: Arc<Players>, changed: &str) {
        *self.players.write().unwrap_or_else(|p| p.into_inner()) = players;
        let _ = self.changes.send(changed.to_owned());
    }
}
