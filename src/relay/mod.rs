//! Routing: a command from an authenticated player -> its game -> the journal -> a reply, and
//! messages for the opponent in the durable outbox, written in the opponent's notation.
//!
//! One task owns every game ([`Relay::spawn`]); transports send it [`Request`]s. It checks a
//! command against the game (changing nothing), queues the journal records in order, applies
//! the change to its in-memory game, and answers with a [`Pending`] reply that the transport
//! sends only once the journal has committed. It never waits for a commit itself, so many
//! moves share one fsync (group commit); the journal refuses everything after a failed commit,
//! so no state the disk lacks is ever acknowledged.
//!
//! Transports know nothing of chess: commands and replies are text.

mod create;
pub mod mailbox;
pub mod notice;
mod peers;
mod play;
pub mod render;
mod rules;
mod state;
mod timing;

pub use mailbox::{
    Done, Earlier, GamePlayers, Handled, LinkAction, LinkItem, Mailbox, MailboxError, Message,
    Rejected, Subscription,
};
pub use notice::Notice;

use jiff::Timestamp;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::journal::{Committed, Journal, JournalError, Replayed};
use state::{Clock, State};

/// Who sends a command.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The player id, or `admin`.
    pub player: String,
    pub admin: bool,
    /// The transport: `tcp`, later `email`, `serial`, `link`.
    pub channel: &'static str,
}

/// What a player (or the admin) asks for. Text only: transports parse their wire format into
/// this and know nothing of chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The sender's games.
    Games,
    /// One game: diagram, moves, whose turn.
    Show {
        game: String,
    },
    /// A move, optionally with its number, marks written apart (`e.p.`, `(=)`), and a repeat
    /// of the opponent's last move.
    Move {
        game: String,
        number: Option<u32>,
        text: String,
        marks: Vec<String>,
        repeat: Option<String>,
    },
    OfferDraw {
        game: String,
    },
    AcceptDraw {
        game: String,
    },
    DeclineDraw {
        game: String,
    },
    Resign {
        game: String,
    },
    /// A draw claim (`threefold`, `fifty`), on the position now or with a move (and its
    /// number, if written).
    Claim {
        game: String,
        claim: String,
        number: Option<u32>,
        text: Option<String>,
    },
    /// A conditional line: the opponent's expected move, the answer, and so on, each with its
    /// number if written; empty cancels.
    Conditional {
        game: String,
        moves: Vec<(Option<u32>, String)>,
    },
    /// Leave from a day (`YYYY-MM-DD`) for some days, in all the sender's games.
    Leave {
        first: String,
        days: String,
    },
    /// Admin: decide a game's result.
    Adjudicate {
        game: String,
        result: String,
        reason: String,
    },
    /// Admin: read or move the manual clock (`+40d`, `+6h`, an RFC 3339 time).
    Clock {
        set: Option<String>,
    },
    /// From a link: the other node refused the sender's action `number` in `game` (their
    /// `number`-th move, draw offer, acceptance, decline or resignation in it). Journaled and
    /// told to the sender; changes no game.
    PeerRefused {
        game: String,
        number: u32,
        reason: String,
    },
    /// Admin: start a game.
    Create {
        game: String,
        white: String,
        black: String,
        event: Option<String>,
        fen: Option<String>,
        round: Option<String>,
    },
}

impl Command {
    /// The game a command acts on, if one.
    fn game(&self) -> Option<&str> {
        match self {
            Command::Show { game }
            | Command::Move { game, .. }
            | Command::OfferDraw { game }
            | Command::AcceptDraw { game }
            | Command::DeclineDraw { game }
            | Command::Resign { game }
            | Command::Claim { game, .. }
            | Command::Conditional { game, .. }
            | Command::PeerRefused { game, .. }
            | Command::Adjudicate { game, .. } => Some(game),
            Command::Games
            | Command::Leave { .. }
            | Command::Clock { .. }
            | Command::Create { .. } => None,
        }
    }
}

/// A reply: a status code and text (lines after the first are details).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub code: u16,
    pub text: String,
}

impl Reply {
    pub fn new(code: u16, text: impl Into<String>) -> Reply {
        Reply {
            code,
            text: text.into(),
        }
    }
}

/// A reply to send now, or once the journal has committed what it records.
pub enum Pending {
    Now(Reply),
    AfterCommit(Committed, Reply),
}

impl Pending {
    /// Waits for the commit, if any; a failed commit turns the reply into an error.
    pub async fn resolve(self) -> Reply {
        match self {
            Pending::Now(reply) => reply,
            Pending::AfterCommit(committed, reply) => match committed.await {
                Ok(Ok(_)) => reply,
                Ok(Err(e)) => Reply::new(500, format!("not recorded: {e}")),
                Err(_) => Reply::new(500, format!("not recorded: {}", JournalError::Stopped)),
            },
        }
    }
}

pub struct Request {
    pub sender: Sender,
    pub command: Command,
    /// The transport's idempotency key for this command (see [`Relay::call_keyed`]).
    pub key: Option<String>,
    pub reply: oneshot::Sender<Pending>,
}

/// A handle to the relay task.
#[derive(Clone)]
pub struct Relay {
    tx: mpsc::Sender<Request>,
}

impl Relay {
    /// Starts the relay over the replayed games; games in the configuration that the journal
    /// does not have yet are started (and journaled) first.
    pub async fn spawn(
        config: &Config,
        journal: Journal,
        replayed: Replayed,
        queue: usize,
        failed: CancellationToken,
    ) -> Result<Relay, JournalError> {
        let clock = match config.clock.manual_start {
            // A manual clock never goes back before what the journal holds.
            Some(start) => Clock::Manual(start.max(replayed.last_time.unwrap_or(start))),
            None => Clock::System,
        };
        if matches!(clock, Clock::Manual(_)) {
            tracing::warn!("manual clock: time moves only by the admin's CLOCK command");
        }
        let mut state = State {
            games: replayed
                .games
                .into_iter()
                .map(|(id, g)| (id, g.game))
                .collect(),
            players: config.players.clone(),
            events: config.events.clone(),
            journal,
            now: clock
                .now()
                .max(replayed.last_time.unwrap_or(Timestamp::UNIX_EPOCH)),
            clock,
            key: None,
        };
        let mut starts = Vec::new();
        for g in &config.games {
            if state.games.contains_key(&g.id) {
                continue;
            }
            let command = Command::Create {
                game: g.id.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
                event: g.event.clone(),
                fen: g.fen.clone(),
                round: g.round.clone(),
            };
            let sender = Sender {
                player: "admin".to_owned(),
                admin: true,
                channel: "config",
            };
            if let Pending::AfterCommit(committed, _) = state.handle(&sender, command).await {
                starts.push(committed);
            }
        }
        // Queued together, the starts share commits.
        for committed in starts {
            committed.await.map_err(|_| JournalError::Stopped)??;
        }
        let (tx, mut rx) = mpsc::channel::<Request>(queue.max(1));
        let mut ticks = tokio::time::interval(config.clock.check_interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    request = rx.recv() => {
                        let Some(request) = request else { break };
                        state.key = request.key;
                        let pending = state.handle(&request.sender, request.command).await;
                        state.key = None;
                        let _ = request.reply.send(pending);
                    }
                    _ = ticks.tick() => state.tick().await,
                }
            }
        });
        // A relay that died (a bug) must not leave a daemon answering 421 forever.
        tokio::spawn(async move {
            if let Err(e) = task.await {
                tracing::error!(error = %e, "the relay task failed; stopping");
                failed.cancel();
            }
        });
        Ok(Relay { tx })
    }

    /// Sends a command and waits for its (committed) reply.
    pub async fn call(&self, sender: Sender, command: Command) -> Reply {
        self.call_keyed(sender, command, None).await
    }

    /// [`Relay::call`] with an idempotency key: the journal entry the command writes (the move,
    /// the refusal, the draw offer) records `key` in the same transaction, so a transport that
    /// sees the same message again after a crash finds it with [`Mailbox::seen`].
    pub async fn call_keyed(&self, sender: Sender, command: Command, key: Option<String>) -> Reply {
        let (reply, rx) = oneshot::channel();
        if self
            .tx
            .send(Request {
                sender,
                command,
                key,
                reply,
            })
            .await
            .is_err()
        {
            return Reply::new(421, "the relay is shutting down");
        }
        match rx.await {
            Ok(pending) => pending.resolve().await,
            Err(_) => Reply::new(421, "the relay is shutting down"),
        }
    }
}
