//! A logged-in conversation in the line protocol, whatever carries it: a TCP or TLS
//! connection (`tcp`), or a terminal on a serial line (`terminal`, behind its line discipline).
//!
//! Bounded everywhere: lines are cut at `limits.max_line_bytes`, a session that does not log in
//! within `limits.login_timeout` or stays silent for `limits.idle_timeout` is closed, login
//! attempts are rate-limited per peer (an IP address, a serial line), commands per minute are
//! budgeted, every write has a deadline, and each session's push queue is bounded (a session
//! that falls behind is dropped from the hub and catches up from the durable outbox).
//!
//! Commands are pipelined: a session reads the next line (up to [`IN_FLIGHT`] commands ahead)
//! while the journal commits what it has sent on, so commands sent together share commits,
//! and writes the replies in the order of the commands; pushes go out when no reply is due.
//! What it writes is gathered and flushed once nothing else is ready, so replies and pushes
//! ready together leave in one system call.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use futures::stream::FuturesOrdered;
use futures::{FutureExt, SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Sleep;
use tokio_util::codec::Framed;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tokio_util::task::TaskTracker;

use super::line::{Frame, HELP, Line, LineCodec, parse, put_push, put_reply};
use crate::auth::{Busy, Verifier};
use crate::command::text::Logged;
use crate::config::Config;
use crate::limiter::{CommandBudget, KeyedLimiter};
use crate::relay::{Channel, Relay, Reply, Said, Sender, Status};
use crate::relay::{Mailbox, Message, Subscription};

/// Who is at the other end of a session, for the login limit and the logs.
#[derive(Clone, Debug)]
pub struct Peer {
    /// What login attempts are counted by: an IP address, a serial device.
    pub key: String,
    /// The transport, as journal entries name it: `tcp`, `serial`.
    pub channel: Channel,
    /// Where output passes through a slow line: the highest message id actually printed.
    /// A bare `ACK` then acknowledges only what the person can have read.
    pub printed: Option<Arc<AtomicI64>>,
}

/// What every session shares.
pub struct Context {
    pub config: Arc<Config>,
    pub relay: Relay,
    pub mailbox: Mailbox,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    logins: KeyedLimiter,
    /// The daemon's one secret checker (shared with email): a crowd of logins queues for its
    /// few Argon2 slots rather than exhaust memory.
    verifier: Arc<Verifier>,
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
            logins: KeyedLimiter::new(
                config.limits.login_attempts_per_minute,
                Duration::from_secs(60),
                MAX_LOGIN_KEYS,
            ),
            verifier,
            config,
            relay,
            mailbox,
            shutdown,
            tracker,
        }
    }
}

impl Context {
    /// Counts a login attempt from `key` (an address, a line); false when it is over
    /// `limits.login_attempts_per_minute`. Every transport's logins share this count.
    pub fn login_attempt(&self, key: &str) -> bool {
        self.logins.attempt(key)
    }

    /// Whether `secret` is `player`'s (never the admin's), checked under the same limit on
    /// checks at once as the line protocol's logins, and in the same time for an unknown
    /// player as for a known one.
    pub async fn verify_player(&self, player: &str, secret: String) -> bool {
        let hash = self
            .config
            .players
            .get(player)
            .map(|p| p.secret_hash.clone());
        self.check_secret(hash, secret)
            .await
            .unwrap_or_else(|busy| {
                tracing::warn!(player = %Logged(player), "login refused: {busy}");
                false
            })
    }

    /// Whether `secret` is the administrator's (the arbiter's web login), under the same
    /// limit on checks at once; false when the configuration has no admin secret.
    pub async fn verify_admin(&self, secret: String) -> bool {
        let hash = self.config.admin_secret_hash.clone();
        self.check_secret(hash, secret)
            .await
            .unwrap_or_else(|busy| {
                tracing::warn!("admin login refused: {busy}");
                false
            })
    }

    /// Checks `secret` against `hash`; with no hash (an unknown name) against a dummy, so the
    /// time taken does not tell which names exist.
    async fn check_secret(&self, hash: Option<String>, secret: String) -> Result<bool, Busy> {
        let hash_for_check = hash.as_deref().unwrap_or_else(|| dummy_hash());
        let ok = self
            .verifier
            .verify(secret, hash_for_check, VERIFY_WAIT)
            .await?;
        Ok(ok && hash.is_some())
    }
}

/// Addresses (or lines) whose login attempts are counted: the table's bound.
const MAX_LOGIN_KEYS: usize = 65_536;

/// Who is logged in on a session.
struct LoggedIn {
    sender: Sender,
    hub_id: u64,
    pushes: Subscription,
    /// The highest outbox id written to this session.
    last_sent: i64,
}

/// A reply on its way: the commit of a command sent on, or one ready now.
type Answer<'a> = Pin<Box<dyn std::future::Future<Output = Reply> + Send + 'a>>;

pub struct Session<'a, S> {
    framed: Framed<S, LineCodec>,
    peer: Peer,
    ctx: &'a Context,
    login: Option<LoggedIn>,
    /// Replies not yet written, in the order of their commands.
    answers: FuturesOrdered<Answer<'a>>,
    /// The daemon stopping and the login or idle deadline, kept across events: made afresh
    /// for every event they would each register with the runtime and leave it again.
    stopping: Pin<Box<WaitForCancellationFutureOwned>>,
    deadline: Pin<Box<Sleep>>,
}

const OUTBOX_PAGE: usize = 256;

/// What a session gathers before it writes without waiting for the end of a burst.
const GATHER_BYTES: usize = 8 * 1024;

/// Commands a session reads ahead of their replies; beyond this it stops reading until a
/// reply is written (the client waits, the socket's buffer fills: back-pressure).
pub const IN_FLIGHT: usize = 16;

/// What a session waits for.
enum Event {
    Line(Option<io::Result<Frame>>),
    Push(Option<Message>),
    Answer(Reply),
    Timeout,
    Shutdown,
}

impl<'a, S: AsyncRead + AsyncWrite + Unpin> Session<'a, S> {
    pub fn new(stream: S, peer: Peer, ctx: &'a Context) -> Session<'a, S> {
        let codec = LineCodec::new(ctx.config.limits.max_line_bytes);
        Session {
            framed: Framed::new(stream, codec),
            peer,
            ctx,
            login: None,
            answers: FuturesOrdered::new(),
            stopping: Box::pin(ctx.shutdown.clone().cancelled_owned()),
            deadline: Box::pin(tokio::time::sleep(ctx.config.limits.login_timeout)),
        }
    }

    /// Writes `line` and everything gathered before it now. Every write has a deadline: a
    /// client that stops reading cannot hold a connection (and its slot under
    /// `max_connections`) by never draining its socket.
    async fn send(&mut self, line: String) -> io::Result<()> {
        write_within(self.framed.send(line)).await
    }

    /// Gathers what `put` writes, to be written with whatever follows it (the buffer is
    /// written out whenever it grows past [`GATHER_BYTES`], and by [`Self::flush`]).
    async fn gather(&mut self, put: impl FnOnce(&mut bytes::BytesMut)) -> io::Result<()> {
        if self.framed.write_buffer().len() >= GATHER_BYTES {
            self.flush().await?;
        }
        put(self.framed.write_buffer_mut());
        Ok(())
    }

    async fn flush(&mut self) -> io::Result<()> {
        write_within(SinkExt::<String>::flush(&mut self.framed)).await
    }

    /// Gathers the lines of `reply`.
    async fn write_reply(&mut self, reply: &Reply) -> io::Result<()> {
        self.gather(|buf| put_reply(buf, reply)).await
    }

    /// Answers the line just read: at once if no earlier command awaits its reply, else after
    /// them, in order.
    async fn reply(&mut self, reply: Reply) -> io::Result<()> {
        if self.answers.is_empty() {
            self.write_reply(&reply).await
        } else {
            self.answers.push_back(Box::pin(std::future::ready(reply)));
            Ok(())
        }
    }

    /// Writes every reply still on its way (before a login, a goodbye, or closing).
    async fn drain_answers(&mut self) -> io::Result<()> {
        while let Some(reply) = self.answers.next().await {
            self.write_reply(&reply).await?;
        }
        Ok(())
    }

    /// Greets, serves until the peer leaves, times out or the daemon stops.
    pub async fn run(mut self) -> io::Result<()> {
        self.send(format!(
            "200 ccrelay {} ready; LOGIN <player> <secret>, HELP",
            env!("CARGO_PKG_VERSION")
        ))
        .await?;
        metrics::gauge!("ccrelay_sessions_open").increment(1.0);
        let result = self.serve().await;
        metrics::gauge!("ccrelay_sessions_open").decrement(1.0);
        if let Some(login) = self.login.take() {
            self.ctx
                .mailbox
                .unsubscribe(&login.sender.player, login.hub_id);
        }
        result
    }

    async fn serve(&mut self) -> io::Result<()> {
        let limits = &self.ctx.config.limits;
        let login_deadline = tokio::time::Instant::now() + limits.login_timeout;
        // Idle means no line from the client: messages pushed to it do not keep it open.
        let mut last_line = tokio::time::Instant::now();
        let mut commands = CommandBudget::new(limits.commands_per_minute);
        loop {
            let deadline = if self.login.is_some() {
                last_line + limits.idle_timeout
            } else {
                login_deadline
            };
            if deadline < self.deadline.deadline() {
                self.deadline.as_mut().reset(deadline);
            }
            // What is gathered goes out once nothing else is ready to be written with it.
            let event = if self.framed.write_buffer().is_empty() {
                self.next_event().await
            } else {
                match self.next_event().now_or_never() {
                    Some(event) => event,
                    None => {
                        self.flush().await?;
                        self.next_event().await
                    }
                }
            };
            match event {
                // The timer is moved on only when it fires: a line does not re-arm it.
                Event::Timeout if tokio::time::Instant::now() < deadline => {
                    self.deadline.as_mut().reset(deadline);
                }
                Event::Shutdown => {
                    self.drain_answers().await?;
                    self.send("421 the relay is shutting down".to_owned())
                        .await?;
                    return Ok(());
                }
                Event::Timeout => {
                    self.drain_answers().await?;
                    let what = if self.login.is_some() {
                        "idle timeout"
                    } else {
                        "no login in time"
                    };
                    self.send(format!("421 {what}; closing")).await?;
                    return Ok(());
                }
                Event::Answer(reply) => self.write_reply(&reply).await?,
                Event::Push(Some(item)) => self.push(item).await?,
                Event::Push(None) => self.catch_up().await?,
                Event::Line(None) => {
                    // The client has gone: its commands were sent on and are recorded; what is
                    // left is to write their replies, if it still reads.
                    self.drain_answers().await?;
                    return self.flush().await;
                }
                Event::Line(Some(Ok(frame))) if !commands.spend() => {
                    last_line = tokio::time::Instant::now();
                    drop(frame);
                    let per_minute = limits.commands_per_minute;
                    self.reply(Reply::new(
                        Status::TooMany,
                        format!("more than {per_minute} commands a minute; slow down"),
                    ))
                    .await?;
                }
                Event::Line(Some(Ok(Frame::TooLong))) => {
                    last_line = tokio::time::Instant::now();
                    let max = limits.max_line_bytes;
                    self.reply(Reply::new(
                        Status::NotRecorded,
                        format!("line too long (at most {max} bytes); ignored"),
                    ))
                    .await?;
                }
                Event::Line(Some(Err(e))) => return Err(e),
                Event::Line(Some(Ok(Frame::Line(bytes)))) => {
                    last_line = tokio::time::Instant::now();
                    let text = String::from_utf8_lossy(&bytes);
                    let text = text.trim_end_matches('\r');
                    if !self.line(text).await? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// The next thing to do: the daemon stopping, a reply ready (in order), a push (when no
    /// reply is due), a line (unless [`IN_FLIGHT`] commands await their replies), or the
    /// timer (which may fire early: the caller checks the deadline). Every branch can be
    /// dropped before it is ready and lose nothing.
    async fn next_event(&mut self) -> Event {
        let answering = !self.answers.is_empty();
        let reading = self.answers.len() < IN_FLIGHT;
        let pushes = async {
            match self.login.as_mut() {
                Some(login) => login.pushes.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            () = self.stopping.as_mut() => Event::Shutdown,
            Some(reply) = self.answers.next(), if answering => Event::Answer(reply),
            // A push its own command caused may be ready before that command's reply: pushes
            // wait until no reply is due, so a reply still comes before what followed from it.
            item = pushes, if !answering => Event::Push(item),
            line = self.framed.next(), if reading => Event::Line(line),
            () = self.deadline.as_mut() => Event::Timeout,
        }
    }

    /// Handles one line; false to close.
    async fn line(&mut self, text: &str) -> io::Result<bool> {
        let line = match parse(text) {
            Ok(line) => line,
            Err(e) => {
                self.reply(e.reply()).await?;
                return Ok(true);
            }
        };
        match line {
            Line::Empty => {}
            Line::Quit => {
                self.drain_answers().await?;
                self.send("221 bye".to_owned()).await?;
                return Ok(false);
            }
            Line::Help => self.reply(Reply::new(Status::Help, HELP)).await?,
            Line::Login { player, secret } => {
                self.drain_answers().await?;
                self.log_in(player, secret).await?;
            }
            Line::Ack(upto) => {
                let Some(login) = &self.login else {
                    self.reply(Reply::new(Status::NotLoggedIn, "log in first"))
                        .await?;
                    return Ok(true);
                };
                // Up to what this session had written when the ACK was read.
                let shown = match &self.peer.printed {
                    Some(printed) => login.last_sent.min(printed.load(Ordering::Acquire)),
                    None => login.last_sent,
                };
                let upto = upto.map_or(shown, |id| id.min(shown));
                let (mailbox, player) = (&self.ctx.mailbox, login.sender.player.clone());
                self.answers.push_back(Box::pin(async move {
                    match mailbox.acknowledge(&player, upto).await {
                        Ok(n) => Reply::new(
                            Status::Done,
                            format!("acknowledged up to {upto} ({n} message(s))"),
                        ),
                        Err(e) => Reply::not_recorded(&e),
                    }
                }));
            }
            Line::Command(command) => {
                let Some(login) = &self.login else {
                    self.reply(Reply::new(
                        Status::NotLoggedIn,
                        "log in first: LOGIN <player> <secret>",
                    ))
                    .await?;
                    return Ok(true);
                };
                let said = Said::new(command).text(text);
                let answer = self.ctx.relay.submit_said(login.sender.clone(), said).await;
                self.answers.push_back(Box::pin(answer));
            }
        }
        Ok(true)
    }

    async fn log_in(&mut self, player: String, secret: String) -> io::Result<()> {
        if self.login.is_some() {
            return self
                .write_reply(&Reply::new(Status::BadCommand, "already logged in"))
                .await;
        }
        if !self.ctx.logins.attempt(&self.peer.key) {
            tracing::warn!(peer = %self.peer.key, player = %Logged(&player), "login refused: too many attempts");
            metrics::counter!("ccrelay_logins_refused_total", "reason" => "too many").increment(1);
            return self
                .write_reply(&Reply::new(
                    Status::TooMany,
                    "too many login attempts; wait a minute",
                ))
                .await;
        }
        let config = &self.ctx.config;
        let (hash, admin, notation) = if player == "admin" {
            (config.admin_secret_hash.clone(), true, None)
        } else {
            let p = config.players.get(&player);
            (
                p.map(|p| p.secret_hash.clone()),
                false,
                p.map(|p| p.notation),
            )
        };
        let checked = self.ctx.check_secret(hash, secret).await;
        let ok = match checked {
            Ok(ok) => ok,
            Err(busy) => {
                tracing::warn!(peer = %self.peer.key, player = %Logged(&player), "login refused: verifier busy");
                metrics::counter!("ccrelay_logins_refused_total", "reason" => "busy").increment(1);
                return self
                    .write_reply(&Reply::new(Status::TooMany, busy.to_string()))
                    .await;
            }
        };
        if !ok {
            tracing::warn!(peer = %self.peer.key, player = %Logged(&player), "login refused: wrong player or secret");
            metrics::counter!("ccrelay_logins_refused_total", "reason" => "wrong secret")
                .increment(1);
            return self
                .write_reply(&Reply::new(
                    Status::LoginRefused,
                    "login refused: wrong player or secret",
                ))
                .await;
        }
        tracing::info!(peer = %self.peer.key, player = %Logged(&player), "logged in");
        let subscription = self
            .ctx
            .mailbox
            .subscribe(&player, config.limits.push_queue);
        let (hub_id, pushes) = (subscription.id, subscription);
        self.login = Some(LoggedIn {
            sender: Sender {
                player: player.clone(),
                admin,
                channel: self.peer.channel,
            },
            hub_id,
            pushes,
            last_sent: 0,
        });
        let greeting = match notation {
            Some(n) => format!("welcome {player}; moves are written to you in {n}"),
            None => format!("welcome {player} (administrator)"),
        };
        self.write_reply(&Reply::new(Status::LoggedIn, greeting))
            .await?;
        self.send_waiting().await
    }

    /// Writes every undelivered message after the last one sent, page by page.
    async fn send_waiting(&mut self) -> io::Result<()> {
        loop {
            let Some(login) = &self.login else {
                return Ok(());
            };
            let page = match self
                .ctx
                .mailbox
                .waiting(&login.sender.player, login.last_sent, OUTBOX_PAGE)
                .await
            {
                Ok(page) => page,
                Err(e) => {
                    return self
                        .write_reply(&Reply::new(
                            Status::NotRecorded,
                            format!("cannot read the outbox: {e}"),
                        ))
                        .await;
                }
            };
            let done = page.len() < OUTBOX_PAGE;
            for item in page {
                self.push(item).await?;
            }
            if done {
                return Ok(());
            }
        }
    }

    async fn push(&mut self, item: Message) -> io::Result<()> {
        let Some(login) = self.login.as_mut() else {
            return Ok(());
        };
        if item.id <= login.last_sent {
            return Ok(()); // already written from the outbox
        }
        login.last_sent = item.id;
        let text = self.ctx.mailbox.render(&item);
        self.gather(|buf| put_push(buf, item.id, &text, Some(&item.receipt)))
            .await
    }

    /// The hub dropped this session (it fell behind): register again and read the outbox.
    async fn catch_up(&mut self) -> io::Result<()> {
        let Some(login) = self.login.as_mut() else {
            return Ok(());
        };
        let subscription = self
            .ctx
            .mailbox
            .subscribe(&login.sender.player, self.ctx.config.limits.push_queue);
        let (hub_id, pushes) = (subscription.id, subscription);
        login.hub_id = hub_id;
        login.pushes = pushes;
        self.send_waiting().await
    }
}

/// A hash of a random secret at the default cost, to spend the same time on unknown players.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let secret = format!("{:?}{:?}", Instant::now(), std::thread::current().id());
        crate::auth::hash_secret(&secret).unwrap_or_default()
    })
}

/// How long a login waits for a free secret check before it is told to try again.
const VERIFY_WAIT: Duration = Duration::from_secs(10);

/// How long one write to a client may take.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

async fn write_within(write: impl std::future::Future<Output = io::Result<()>>) -> io::Result<()> {
    match tokio::time::timeout(WRITE_TIMEOUT, write).await {
        Ok(result) => result,
        Err(_) => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client stopped reading",
        )),
    }
}
