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

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::task::Poll;
use std::time::Duration;

use futures::{Sink, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Sleep;
use tokio_util::codec::Framed;

use self::answers::Answers;
use super::context::{Context, Peer, not_private};
use super::line::{Frame, HELP, Line, LineCodec, parse, put_line, put_push, put_reply};
use super::per_address::Place;
use super::stopping::Stopping;
use crate::auth::gate::Refusal;
use crate::limiter::CommandBudget;
use crate::relay::{Message, Subscription};
use crate::relay::{Reply, Request, Sender, Status};

/// Who is logged in on a session.
struct LoggedIn {
    sender: Sender,
    /// Their new messages, as the journal commits them; `None` on a session that is sent
    /// none (the admin socket's: see [`LineSession::administrator`]).
    pushes: Option<Subscription>,
    /// The highest outbox id written to this session.
    last_sent: i64,
}

pub struct LineSession<'a, S> {
    framed: Framed<S, LineCodec>,
    peer: Peer,
    ctx: &'a Context,
    login: Option<LoggedIn>,
    /// Replies not yet written, in the order of their commands.
    answers: Answers<'a>,
    /// The daemon stopping (see [`Stopping`]), or for a player's session their secret
    /// changing too ([`LineSession::log_in`]), and the login or idle deadline, kept across
    /// events: made afresh for every event they would each register with the runtime and
    /// leave it again.
    stopping: Stopping,
    deadline: Pin<Box<Sleep>>,
    /// Set while gathered lines wait for the client to read ([`Self::poll_flush_within`]),
    /// cleared when they are written.
    write_deadline: Option<Pin<Box<Sleep>>>,
    /// The session's place among its address's connections not logged in yet (TCP's
    /// `limits.max_connections_per_address_before_login`): given back at login or close.
    counted_until_login: Option<Place>,
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

impl<'a, S: AsyncRead + AsyncWrite + Unpin> LineSession<'a, S> {
    pub fn new(stream: S, peer: Peer, ctx: &'a Context) -> LineSession<'a, S> {
        let codec = LineCodec::new(ctx.config.limits.max_line_bytes);
        LineSession {
            framed: Framed::new(stream, codec),
            peer,
            ctx,
            login: None,
            answers: Answers::new(),
            stopping: Stopping::new(&ctx.shutdown),
            deadline: Box::pin(tokio::time::sleep(ctx.config.limits.login_timeout)),
            write_deadline: None,
            counted_until_login: None,
        }
    }

    /// The session holds `place` until it logs in.
    pub fn counted_until_login(mut self, place: Place) -> LineSession<'a, S> {
        self.counted_until_login = Some(place);
        self
    }

    /// A session on the admin socket (`transport::admin`): logged in as the administrator
    /// from the start, since the socket's mode and its peer's uid are the authentication. It
    /// carries commands only: no messages are pushed to it, so the admin's messages wait in
    /// the outbox for a session that shows them (a `LOGIN admin` over TCP), and a bare `ACK`
    /// here acknowledges nothing.
    pub fn administrator(stream: S, peer: Peer, ctx: &'a Context) -> LineSession<'a, S> {
        let channel = peer.channel;
        let mut session = LineSession::new(stream, peer, ctx);
        session.login = Some(LoggedIn {
            sender: Sender {
                player: "admin".to_owned(),
                admin: true,
                channel,
            },
            pushes: None,
            last_sent: 0,
        });
        session
    }

    /// Writes `line` and everything gathered before it now. Every write has a deadline: a
    /// client that stops reading cannot hold a connection (and its slot under
    /// `max_connections`) by never draining its socket.
    async fn send(&mut self, line: String) -> io::Result<()> {
        self.gather(|buf| put_line(buf, &line)).await?;
        self.flush().await
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
        std::future::poll_fn(|cx| self.poll_flush_within(cx)).await
    }

    /// Writes what is gathered. While the client does not read, the write waits, at most
    /// [`WRITE_TIMEOUT`] from when it first had to: then the client has stopped reading.
    fn poll_flush_within(&mut self, cx: &mut std::task::Context<'_>) -> Poll<io::Result<()>> {
        match Sink::<String>::poll_flush(Pin::new(&mut self.framed), cx) {
            Poll::Ready(written) => {
                self.write_deadline = None;
                Poll::Ready(written)
            }
            Poll::Pending => {
                let deadline = self
                    .write_deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
                match deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client stopped reading",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
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
            self.answers.push_ready(reply);
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
        let version = env!("CARGO_PKG_VERSION");
        let greeting = match &self.login {
            None => format!("200 ccrelay {version} ready; LOGIN <player> <secret>, HELP"),
            Some(login) => format!(
                "200 ccrelay {version} ready; logged in as {} on the admin socket, HELP",
                login.sender.player
            ),
        };
        self.send(greeting).await?;
        metrics::gauge!("ccrelay_sessions_open").increment(1.0);
        let result = self.serve().await;
        // Given back before the connection closes, so a client that sees the close finds it.
        self.counted_until_login = None;
        metrics::gauge!("ccrelay_sessions_open").decrement(1.0);
        if let Some(login) = self.login.take()
            && let Some(pushes) = login.pushes
        {
            self.ctx
                .mailbox
                .unsubscribe(&login.sender.player, pushes.id);
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
            match std::future::poll_fn(|cx| self.poll_next_event(cx)).await? {
                // The timer is moved on only when it fires: a line does not re-arm it.
                Event::Timeout if tokio::time::Instant::now() < deadline => {
                    self.deadline.as_mut().reset(deadline);
                }
                Event::Shutdown => {
                    self.drain_answers().await?;
                    let why = if self.ctx.shutdown.is_cancelled() {
                        "421 the relay is shutting down"
                    } else {
                        // What the old secret opened ends with it: this session too.
                        "421 your secret was changed (SECRET or PLAYER SECRET): log in with the new one; closing"
                    };
                    self.send(why.to_owned()).await?;
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

    /// The next thing to do (see [`Self::poll_event`]); while nothing is, what is gathered is
    /// written, so that replies and pushes ready together leave in one write. One poll both
    /// looks for an event and writes: probing for one and then waiting for it would poll every
    /// source twice and register each with the runtime twice, for every write.
    fn poll_next_event(&mut self, cx: &mut std::task::Context<'_>) -> Poll<io::Result<Event>> {
        if let Poll::Ready(event) = self.poll_event(cx) {
            return Poll::Ready(Ok(event));
        }
        if self.framed.write_buffer().is_empty() {
            return Poll::Pending;
        }
        match self.poll_flush_within(cx) {
            // Written: wait for the next event, every source registered above.
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        }
    }

    /// The first thing ready, in this order: the daemon stopping, a reply (in order), a push
    /// (when no reply is due), a line (unless [`IN_FLIGHT`] commands await their replies), or
    /// the timer (which may fire early: the caller checks the deadline). Every source is
    /// registered with `cx` when none is ready, and each keeps what it has until asked again.
    fn poll_event(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Event> {
        if self.stopping.poll(cx).is_ready() {
            return Poll::Ready(Event::Shutdown);
        }
        if !self.answers.is_empty() {
            if let Poll::Ready(Some(reply)) = self.answers.poll_next(cx) {
                return Poll::Ready(Event::Answer(reply));
            }
        // A push its own command caused may be ready before that command's reply: pushes
        // wait until no reply is due, so a reply still comes before what followed from it.
        } else if let Some(pushes) = self.login.as_mut().and_then(|l| l.pushes.as_mut())
            && let Poll::Ready(item) = pushes.poll_recv(cx)
        {
            return Poll::Ready(Event::Push(item));
        }
        if self.answers.len() < IN_FLIGHT
            && let Poll::Ready(line) = self.framed.poll_next_unpin(cx)
        {
            return Poll::Ready(Event::Line(line));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Event::Timeout);
        }
        Poll::Pending
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
                        Ok(n) => Reply::new(Status::Done, acknowledged(upto, n)),
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
                if let Some(name) = command.carries_secret()
                    && !self.peer.private_wire
                {
                    self.reply(not_private(name)).await?;
                    return Ok(true);
                }
                let request = Request::read_from(login.sender.clone(), command, text);
                let answer = self.ctx.relay.submit(request).await;
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
        let hash = match self.ctx.log_in(&self.peer.key, &player, secret).await {
            Ok(hash) => hash,
            Err(refusal) => {
                tracing::warn!(peer = %self.peer.key, player = ?player, "{refusal}");
                let status = match refusal {
                    Refusal::Wrong => Status::LoginRefused,
                    Refusal::TooMany | Refusal::Busy(_) => Status::TooMany,
                };
                return self
                    .write_reply(&Reply::new(status, refusal.to_string()))
                    .await;
            }
        };
        let config = &self.ctx.config;
        let (admin, notation) = if player == "admin" {
            (true, None)
        } else {
            // A player's session ends with the secret it was opened with: watched with the
            // daemon's stop, one flag for both. The arbiter's secret is the configuration's.
            let stop = self.ctx.shutdown.child_token();
            let ended = self.ctx.relay.roster().ended(&player, &hash);
            self.stopping = Stopping::on(async move {
                tokio::select! {
                    () = stop.cancelled() => {}
                    () = ended => {}
                }
            });
            (false, self.ctx.relay.roster().with(&player, |p| p.notation))
        };
        tracing::info!(peer = %self.peer.key, %player, "logged in");
        self.counted_until_login = None;
        let pushes = self
            .ctx
            .mailbox
            .subscribe(&player, config.limits.push_queue);
        self.login = Some(LoggedIn {
            sender: Sender {
                player: player.clone(),
                admin,
                channel: self.peer.channel,
            },
            pushes: Some(pushes),
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
        login.pushes = Some(
            self.ctx
                .mailbox
                .subscribe(&login.sender.player, self.ctx.config.limits.push_queue),
        );
        self.send_waiting().await
    }
}

/// The reply to an `ACK`: `acknowledged up to 17 (1 message(s))`, appended rather than
/// formatted (an ACK follows every move pushed).
fn acknowledged(upto: i64, n: usize) -> String {
    let mut text = String::with_capacity(48);
    text.push_str("acknowledged up to ");
    text.push_str(itoa::Buffer::new().format(upto));
    text.push_str(" (");
    text.push_str(itoa::Buffer::new().format(n));
    text.push_str(" message(s))");
    text
}

/// How long gathered lines may wait for a client that takes none of them: from the moment a
/// write first has to wait until everything gathered is written.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

pub mod answers;
#[cfg(test)]
mod tests;
