//! One simulated node: its journal, its relay and its link task, driven step by step on the
//! simulation's clock; crashed by dropping all of it (what is committed stays, nothing else)
//! and started again from its journal.

use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use tokio_util::sync::CancellationToken;

use super::super::LinkTask;
use super::super::frame::Deframer;
use crate::command::Command;
use crate::config::{Config, Reach};
use crate::journal::{Hub, Journal};
use crate::relay::{Channel, Mailbox, Relay, Reply, Request, Sender, Status};

pub(super) struct Node {
    pub(super) config: Config,
    pub(super) relay: Relay,
    /// The mailbox the checks read (the link task has its own).
    pub(super) mailbox: Mailbox,
    pub(super) link: LinkTask,
    deframer: Deframer,
}

fn admin() -> Sender {
    Sender {
        player: "admin".to_owned(),
        admin: true,
        channel: Channel::Tcp,
    }
}

pub(super) fn player(id: &str) -> Sender {
    Sender {
        player: id.to_owned(),
        admin: false,
        channel: Channel::Tcp,
    }
}

impl Node {
    /// Opens the node's journal (replaying it), starts its relay with the clock set to
    /// `clock`, and a link task whose session starts at `now`.
    pub(super) async fn start(config: &Config, now: Instant, clock: Timestamp) -> Node {
        let hub = Arc::new(Hub::default());
        let failed = CancellationToken::new();
        // A crashed node's writer thread lets go of the journal's lock a moment after the
        // last handle is dropped.
        let mut tries = 0;
        let (journal, replayed) = loop {
            match Journal::open(&config.data_dir, hub.clone(), 64, failed.clone()) {
                Ok(opened) => break opened,
                Err(_) if tries < 1000 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
                Err(e) => panic!("the journal does not open again: {e}"),
            }
        };
        let relay = Relay::spawn(config, journal.clone(), replayed, 64, failed)
            .await
            .expect("relay");
        let remote = config
            .players
            .values()
            .filter(|p| matches!(p.reach, Reach::Link(_)))
            .map(|p| p.id.clone())
            .collect();
        let link = LinkTask::new(
            config.links[0].clone(),
            Default::default(),
            remote,
            relay.clone(),
            Mailbox::new(journal.clone(), hub.clone(), config, relay.roster().clone()),
            CancellationToken::new(),
            now,
        );
        let node = Node {
            config: config.clone(),
            mailbox: Mailbox::new(journal, hub, config, relay.roster().clone()),
            relay,
            link,
            deframer: Deframer::default(),
        };
        // A manual clock starts again at the journal's last entry: bring it to the match's.
        let set = node.say(admin(), &format!("CLOCK {clock}")).await;
        assert_eq!(set.status, Status::Done, "{}", set.text);
        node
    }

    /// A command, as its sender would type it.
    pub(super) async fn say(&self, sender: Sender, line: &str) -> Reply {
        let command = Command::parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        self.relay
            .call(Request::read_from(sender, command, line))
            .await
    }

    pub(super) async fn admin_says(&self, line: &str) -> Reply {
        self.say(admin(), line).await
    }

    /// The frames the link sends now (what the relay left, resends, ACKs).
    pub(super) async fn frames_to_send(&mut self, now: Instant) -> Vec<Vec<u8>> {
        self.link.now = now;
        match self.link.frames_to_send().await {
            Ok(frames) => frames,
            Err(_) => {
                self.line_lost(now);
                Vec::new()
            }
        }
    }

    /// Bytes that arrived from the line; a session silent too long starts again, as the
    /// link task's timer does.
    pub(super) async fn receive(&mut self, bytes: &[u8], now: Instant) {
        self.link.now = now;
        let mut frames = Vec::new();
        self.deframer.push(bytes, |f| frames.push(f.to_vec()));
        for f in frames {
            if self.link.on_frame(&f).await.is_err() {
                self.line_lost(now);
                return;
            }
        }
        if self.link.session.silent_for(now) >= self.link.session.dead_after() {
            self.line_lost(now);
        }
    }

    /// What the link task does when its line fails: opens it again, with a new session (whose
    /// start drops any text half received, as every session's does).
    fn line_lost(&mut self, now: Instant) {
        tracing::debug!(silent = ?self.link.session.silent_for(now), "line lost; a new session");
        self.link.session.restart(now);
        self.deframer = Deframer::default();
    }

    /// Nothing waits to be sent or acknowledged on the link.
    pub(super) fn link_idle(&self) -> bool {
        self.link.open.is_empty() && self.link.to_send.is_empty() && self.link.session.queued() == 0
    }
}
