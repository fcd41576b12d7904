//! The relay-to-relay link: two ccrelay nodes, each with its own players, play games between
//! them over a serial line or TCP, and both journals hold the same record of every game.
//!
//! A game's two players are configured on both nodes; each node's configuration says which
//! player is local and which is across which link (`reach = "link"`). One node keeps each
//! game's record (White's, unless the game says `authority = "black"`) and orders every
//! action in it; the other sends its player's actions there as proposals and applies the
//! record as it comes back, entry by entry, with the same times (docs/link.md, "One record").
//!
//! This task is the mailbox reader of the players across the link: it reads what the relay
//! left for them (record entries, proposals, refusals) from the relay's [`Mailbox`], sends each
//! in compact frames ([`frame`], [`message`]), and acknowledges the item once the peer has
//! acknowledged the frame, which the peer does only once its own journal has committed what
//! the frame said. What arrives is handed to the relay (`incoming`): a record entry to be
//! journaled as it stands, a proposal as the remote player's command with its id (recorded
//! with the entry, so that an action sent again after a drop or a restart is known by it), a
//! refusal of our own player's proposal.
//!
#[cfg(test)]
mod badline;
pub mod fec;
pub mod frame;
mod incoming;
mod line;
pub mod message;
mod outgoing;
mod repeat;
pub mod session;
#[cfg(test)]
mod simulation;
mod start;
mod stats;
mod timing;
mod varint;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use self::frame::{Deframer, FrameError};
use self::incoming::Partial;
use self::line::{Line, write_all};
use self::message::{Message, game_code};
use self::session::{LinkSession, Timing};
use crate::backoff::Backoff;
use crate::config::{Config, LinkConfig, LinkTransport, Reach};
use crate::relay::{GamePlayers, Mailbox, MailboxError, Relay, Subscription};
use crate::transport::radio::port::Ports;

/// Outbox rows read and not yet acknowledged, at most.
const READ_MAX: usize = 64;
/// How often the outbox is read for new messages for the remote players when nothing said
/// there is one (the remote players' feeds, and applying what the peer sent, do).
const POLL: Duration = Duration::from_millis(200);
/// Items a remote player's feed holds before the hub closes it (it is then opened again).
const FEED: usize = 64;
/// The timer step.
const TICK: Duration = Duration::from_millis(50);
/// A frame not written in this long means the line is stuck: start it again.
const WRITE_TIMEOUT: Duration = Duration::from_secs(60);
/// The relay's answer to a command from the peer.
const RELAY_TIMEOUT: Duration = Duration::from_secs(30);
/// Frames failing their tag in one [`BAD_TAG_PERIOD`] after which the line is opened again:
/// far more than noise makes (a 300-baud line carries about 120 frames a minute), it caps a
/// forger's guesses (docs/link.md gives the odds).
const BAD_TAGS_MAX: u32 = 1000;
const BAD_TAG_PERIOD: Duration = Duration::from_secs(60);
/// At most one log line per this period about a peer on another protocol version.
const VERSION_LOG_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    #[error("line: {0}")]
    Io(#[from] std::io::Error),
    #[error("line closed")]
    Closed,
    #[error("nothing valid heard on the line for too long")]
    Silent,
    #[error("writing to the line timed out")]
    WriteTimeout,
    #[error("too many frames with a bad tag ({0} in a minute): forged, or a line far too noisy")]
    BadTags(u32),
    #[error(transparent)]
    Record(#[from] MailboxError),
    #[error("the relay did not record the peer's action: {0}")]
    Relay(String),
}

/// Starts one task per configured link.
pub fn spawn_all(
    config: &Config,
    radios: &Ports,
    relay: Relay,
    mailbox: Mailbox,
    shutdown: CancellationToken,
    tracker: &TaskTracker,
) {
    for link in &config.links {
        let remote: Vec<String> = config
            .players
            .values()
            .filter(|p| p.reach == Reach::Link(link.id.clone()))
            .map(|p| p.id.clone())
            .collect();
        let task = LinkTask::new(
            link.clone(),
            radios.clone(),
            remote,
            relay.clone(),
            mailbox.clone(),
            shutdown.clone(),
            Instant::now(),
        );
        tracker.spawn(task.run());
    }
}

struct LinkTask {
    config: LinkConfig,
    /// The radio ports, for a link over one.
    radios: Ports,
    /// The players across this link.
    remote: Vec<String>,
    relay: Relay,
    mailbox: Mailbox,
    shutdown: CancellationToken,
    games: HashMap<u16, GamePlayers>,
    games_read: Option<Instant>,
    session: LinkSession,
    /// The remote players' feeds of new outbox items: a wake-up, so that an item goes at once
    /// rather than at the next poll (and its frame can carry the acknowledgement due).
    feeds: Vec<(String, Subscription)>,
    /// The highest outbox id read.
    after: i64,
    last_poll: Option<Instant>,
    /// Outbox rows read and not yet acknowledged: player and whether done with.
    open: BTreeMap<i64, (String, bool)>,
    /// Messages not yet handed to the session, with the outbox row each one reports.
    to_send: VecDeque<(Option<i64>, Message)>,
    /// The outbox rows of the messages the session holds, in its order.
    in_session: VecDeque<Option<i64>>,
    /// Frames that failed their tag since `bad_since`.
    bad_tags: u32,
    bad_since: Instant,
    /// When a peer on another protocol version was last logged.
    version_logged: Option<Instant>,
    /// The pieces of a text received so far (see [`message::Text`]).
    partial: Option<Partial>,
    /// The time of the step being handled: the line's reader and timer set it, and a
    /// simulation sets its own (so that every timer of the link runs on its clock).
    now: Instant,
}

impl LinkTask {
    fn new(
        config: LinkConfig,
        radios: Ports,
        remote: Vec<String>,
        relay: Relay,
        mailbox: Mailbox,
        shutdown: CancellationToken,
        now: Instant,
    ) -> LinkTask {
        let timing = match (&config.transport, config.retransmit) {
            (LinkTransport::Serial(s), Some(rto)) => Timing::fixed(rto, s.bytes_per_second()),
            (LinkTransport::Radio { .. }, Some(rto)) => Timing::fixed(rto, 150.0),
            (LinkTransport::Radio { .. }, None) => Timing::for_radio(),
            (_, Some(rto)) => Timing::fixed(rto, 10_000.0),
            (LinkTransport::Serial(s), None) => {
                Timing::for_line(s.bytes_per_second(), config.window)
            }
            (_, None) => Timing::for_tcp(config.window),
        };
        let session = LinkSession::new(&config.secret.0, config.window, timing, now)
            .with_tag_len(config.tag_bytes)
            .with_fec(config.fec_bytes);
        let feeds = remote
            .iter()
            .map(|p| (p.clone(), mailbox.subscribe(p, FEED)))
            .collect();
        LinkTask {
            config,
            radios,
            remote,
            relay,
            mailbox,
            shutdown,
            games: HashMap::new(),
            games_read: None,
            session,
            feeds,
            after: 0,
            last_poll: None,
            open: BTreeMap::new(),
            to_send: VecDeque::new(),
            in_session: VecDeque::new(),
            bad_tags: 0,
            bad_since: now,
            version_logged: None,
            partial: None,
            now,
        }
    }

    async fn run(mut self) {
        let id = self.config.id.clone();
        tracing::info!(link = %id, remote = ?self.remote, "link starting");
        let mut backoff = Backoff::new(Duration::from_millis(200), Duration::from_secs(30));
        let listener = match &self.config.transport {
            LinkTransport::TcpListen(addr) => match tokio::net::TcpListener::bind(addr).await {
                Ok(l) => Some(l),
                Err(e) => {
                    tracing::error!(link = %id, %addr, error = %e, "cannot listen; link disabled");
                    return;
                }
            },
            _ => None,
        };
        loop {
            let Some(line) = self.open_line(listener.as_ref(), &mut backoff).await else {
                break;
            };
            self.now = Instant::now();
            // A new session: once established, it drops what the last one held
            // (send_again_from_outbox).
            self.session.restart(self.now);
            let started = Instant::now();
            match self.serve(line).await {
                Ok(()) => break,
                Err(e) => tracing::warn!(link = %id, error = %e, "link line lost"),
            }
            if started.elapsed() > Duration::from_secs(10) {
                backoff.reset();
            }
            if backoff.wait(&self.shutdown).await.is_err() {
                break;
            }
        }
        tracing::info!(link = %id, stats = ?self.session.stats, "link stopped");
    }

    /// Runs the session over one open line until it fails (`Err`) or shutdown (`Ok`).
    async fn serve(&mut self, line: Box<dyn Line>) -> Result<(), LinkError> {
        let (mut rd, mut wr) = tokio::io::split(line);
        let mut deframer = Deframer::default();
        let mut buf = [0u8; 512];
        let mut ticks = tokio::time::interval(TICK);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut was_up = false;
        loop {
            self.now = Instant::now();
            let up = self.session.is_established();
            if up != was_up {
                was_up = up;
                if up {
                    tracing::info!(link = %self.config.id, tag_bytes = self.session.tag_len(), fec_bytes = self.session.fec(), "link session established");
                }
                self.publish(up);
            }
            let frames = self.frames_to_send().await?;
            write_all(&mut wr, frames).await?;
            tokio::select! {
                n = rd.read(&mut buf) => {
                    let n = n.inspect_err(|_| self.publish(false))?;
                    if n == 0 {
                        self.publish(false);
                        return Err(LinkError::Closed);
                    }
                    metrics::counter!("ccrelay_link_bytes_in_total", "link" => self.config.id.clone())
                        .increment(n as u64);
                    let mut frames = Vec::new();
                    deframer.push(&buf[..n], |f| frames.push(f.to_vec()));
                    self.now = Instant::now();
                    for f in frames {
                        self.on_frame(&f).await?;
                    }
                }
                _ = ticks.tick() => {
                    self.now = Instant::now();
                    if self.session.silent_for(self.now) >= self.session.dead_after() {
                        // Nothing valid for a long time: the port may be gone (a pulled USB
                        // adapter does not always make reads fail) or the connection half
                        // open. Open the line again.
                        self.publish(false);
                        return Err(LinkError::Silent);
                    }
                    self.publish(self.session.is_established());
                }
                () = self.shutdown.cancelled() => return Ok(()),
            }
        }
    }

    /// Once the session is up, moves what the relay left for the remote players into it as
    /// far as its window allows; then the frames due now (handshake, data, resends, ACKs).
    async fn frames_to_send(&mut self) -> Result<Vec<Vec<u8>>, LinkError> {
        if self.session.is_established() {
            self.refill().await?;
            while self.session.has_room() {
                let Some((row, message)) = self.to_send.pop_front() else {
                    break;
                };
                tracing::debug!(link = %self.config.id, ?row, ?message, "to the peer");
                self.session.push(message.encode());
                self.in_session.push_back(row);
            }
        }
        Ok(self.session.poll(self.now))
    }

    /// The link's state and counts for `/metrics`: up or down, bytes sent, retransmissions.
    fn publish(&self, up: bool) {
        let link = self.config.id.clone();
        let stats = &self.session.stats;
        metrics::gauge!("ccrelay_link_up", "link" => link.clone()).set(if up { 1.0 } else { 0.0 });
        metrics::counter!("ccrelay_link_bytes_out_total", "link" => link.clone())
            .absolute(stats.bytes_out);
        metrics::counter!("ccrelay_link_retransmissions_total", "link" => link)
            .absolute(stats.retransmissions + stats.fast_retransmissions);
    }

    async fn on_frame(&mut self, encoded: &[u8]) -> Result<(), LinkError> {
        let input = match self.session.on_frame(encoded, self.now) {
            Ok(input) => input,
            Err(e) => return self.dropped(&e),
        };
        if input.established {
            tracing::debug!(link = %self.config.id, "session established");
            self.send_again_from_outbox();
        }
        if input.acked > 0 {
            for _ in 0..input.acked {
                let acked = self.in_session.pop_front();
                tracing::debug!(link = %self.config.id, row = ?acked, "acknowledged by the peer");
                if let Some(Some(row)) = acked
                    && let Some(entry) = self.open.get_mut(&row)
                {
                    entry.1 = true;
                }
            }
            self.settle_outbox().await?;
        }
        while let Some(bytes) = self.session.take_message() {
            // What the peer sent may have an answer (the record of its proposal, a refusal):
            // read the outbox at once, so that it goes with the acknowledgement.
            self.last_poll = None;
            match Message::decode(&bytes) {
                Ok(message) => {
                    tracing::debug!(link = %self.config.id, ?message, "from the peer");
                    self.apply(message).await?
                }
                // Authentic but unreadable: a newer peer, or a bug. Acknowledged so the link
                // goes on; nothing is applied.
                Err(e) => {
                    tracing::warn!(link = %self.config.id, error = %e, "unreadable message from the peer")
                }
            }
            self.session.delivered(self.now);
        }
        Ok(())
    }

    /// A new session: what the last one held is dropped, and every outbox row the peer has
    /// not acknowledged is read and sent again, whole. A text goes in pieces, and the peer
    /// holds the pieces it has in memory until the last: after a restart on either side, the
    /// pieces the old session delivered are gone there, so the text must start again from its
    /// first (the peer knows what it applied already by the record's index or the action's
    /// id).
    fn send_again_from_outbox(&mut self) {
        self.session.clear_queue();
        self.in_session.clear();
        self.to_send.clear();
        self.open.clear();
        self.after = 0;
        self.last_poll = None;
        self.partial = None;
    }

    /// A frame the session dropped: logged, and counted when its tag failed, so that a flood
    /// of forgeries costs the forger the line.
    fn dropped(&mut self, e: &FrameError) -> Result<(), LinkError> {
        if let FrameError::OldVersion(_) = e {
            if self
                .version_logged
                .is_none_or(|at| self.now.duration_since(at) >= VERSION_LOG_EVERY)
            {
                self.version_logged = Some(self.now);
                tracing::error!(link = %self.config.id, error = %e, "link handshake refused");
            }
            return Ok(());
        }
        tracing::debug!(link = %self.config.id, error = %e, "frame dropped");
        if *e == FrameError::BadTag {
            if self.now.duration_since(self.bad_since) >= BAD_TAG_PERIOD {
                self.bad_since = self.now;
                self.bad_tags = 0;
            }
            self.bad_tags += 1;
            if self.bad_tags > BAD_TAGS_MAX {
                let n = self.bad_tags;
                self.bad_tags = 0;
                return Err(LinkError::BadTags(n));
            }
        }
        Ok(())
    }

    /// The game a code names, reading the journal's games again if it is not known yet.
    async fn game(&mut self, code: u16) -> Result<Option<GamePlayers>, LinkError> {
        if let Some(g) = self.games.get(&code) {
            return Ok(Some(g.clone()));
        }
        let stale = self
            .games_read
            .is_none_or(|at| self.now.duration_since(at) > Duration::from_secs(1));
        if stale {
            let games = self.mailbox.games().await?;
            self.games_read = Some(self.now);
            // Only the games played across this link: a code is 16 bits, so among many
            // local games two share one, and a local game must not take a linked one's.
            self.games = games
                .into_iter()
                .filter(|g| self.remote.contains(&g.white) || self.remote.contains(&g.black))
                .map(|g| (game_code(&g.id), g))
                .collect();
        }
        Ok(self.games.get(&code).cloned())
    }

    /// Reads new outbox rows for the remote players into the send queue.
    async fn refill(&mut self) -> Result<(), LinkError> {
        let mut news = false;
        for (player, feed) in &mut self.feeds {
            match feed.take_waiting() {
                Some(n) => news |= n > 0,
                None => {
                    news = true;
                    *feed = self.mailbox.subscribe(player, FEED);
                }
            }
        }
        let due = news
            || self
                .last_poll
                .is_none_or(|at| self.now.duration_since(at) >= POLL);
        if !due || self.open.len() >= READ_MAX || self.remote.is_empty() {
            return Ok(());
        }
        self.last_poll = Some(self.now);
        let (remote, after, limit) = (self.remote.clone(), self.after, READ_MAX - self.open.len());
        let rows = self.mailbox.link_waiting(remote, after, limit).await?;
        if rows.is_empty() {
            return Ok(());
        }
        for row in rows {
            self.after = self.after.max(row.id);
            self.open.insert(row.id, (row.to.clone(), false));
            let messages = self.messages_for(&row).await?;
            if messages.is_empty()
                && let Some(entry) = self.open.get_mut(&row.id)
            {
                entry.1 = true;
            }
            // The row is done when its last message is acknowledged.
            let last = messages.len().saturating_sub(1);
            for (i, message) in messages.into_iter().enumerate() {
                self.to_send
                    .push_back(((i == last).then_some(row.id), message));
            }
        }
        self.settle_outbox().await
    }

    /// Acknowledges, for each remote player, the outbox rows up to the first one not done.
    async fn settle_outbox(&mut self) -> Result<(), LinkError> {
        let mut upto: HashMap<String, i64> = HashMap::new();
        let mut blocked: HashSet<String> = HashSet::new();
        for (id, (player, done)) in &self.open {
            if blocked.contains(player) {
                continue;
            }
            if *done {
                upto.insert(player.clone(), *id);
            } else {
                blocked.insert(player.clone());
            }
        }
        for (player, id) in upto {
            tokio::time::timeout(RELAY_TIMEOUT, self.mailbox.acknowledge(&player, id))
                .await
                .map_err(|_| LinkError::Relay("acknowledging the outbox timed out".to_owned()))??;
            self.open
                .retain(|row, (p, _)| !(p == &player && *row <= id));
        }
        Ok(())
    }
}
