//! For tests of this crate: a relay and its mailbox on a fresh journal in a temporary
//! directory, configured from TOML text.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::mailbox::Mailbox;
use super::task::Relay;
use crate::config::Config;
use crate::journal::{Hub, Journal};

pub(crate) struct Spawned {
    pub config: Config,
    pub relay: Relay,
    pub mailbox: Mailbox,
    /// The data directory, removed when dropped.
    pub dir: tempfile::TempDir,
}

/// A relay configured by `toml` (everything but `data_dir`), where `HASH` stands for a
/// cheap secret hash: no test logs in through it.
pub(crate) async fn spawn(toml: &str) -> Spawned {
    let dir = tempfile::tempdir().expect("temp dir");
    let hash = crate::auth::hash_secret_cheap("unused").expect("hash");
    let text = format!(
        "data_dir = {:?}\n{}",
        dir.path().display().to_string(),
        toml.replace("HASH", &hash)
    );
    let config = Config::from_toml(&text, dir.path()).expect("config");
    let hub = Arc::new(Hub::default());
    let failed = CancellationToken::new();
    let (journal, replayed) =
        Journal::open(&config.data_dir, hub.clone(), 64, failed.clone()).expect("journal");
    let relay = Relay::spawn(&config, journal.clone(), replayed, 64, failed)
        .await
        .expect("relay");
    Spawned {
        mailbox: Mailbox::new(journal, hub, &config, relay.roster().clone()),
        config,
        relay,
        dir,
    }
}
