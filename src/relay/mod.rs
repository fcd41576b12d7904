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
//! Transports know nothing of chess: they hand the relay typed [`Command`]s and get typed
//! [`Reply`]s back.

mod asked;
mod counters;
mod create;
pub mod dead;
mod event_show;
mod events;
mod facts;
pub mod mailbox;
pub mod notice;
mod peers;
mod play;
mod players;
mod preview;
pub mod render;
mod replica;
mod reply;
mod role;
mod roster;
mod rules;
mod said;
mod state;
pub mod summary;
mod timing;
mod view;
mod watch;

pub use crate::event::standings::{Row, halves, quarters};
/// A short receipt (`r17:3fa9c2d1e0b4`), as transports write it after a reply or a push.
pub use crate::journal::Short as ShortReceipt;
/// A game start's detail as its record entry holds it: a link sends a usual start in a few
/// bytes and writes the detail back from them, so it names its fields, through here.
pub use crate::journal::replay::GameStartDetail;
pub use crate::journal::replay::Spoken;
/// What a journal entry records, and a move entry's mark of a draw offer: a link carries the
/// record entry by entry ([`LinkItem::kind`]), so it names them, through here.
pub use crate::journal::{EntryKind, replay::DRAW_OFFER};
pub use mailbox::{
    Done, GamePlayers, Handled, LinkItem, Mailbox, MailboxError, Message, Rejected, Subscription,
    names,
};
pub use notice::Notice;
pub use peers::{proposal_key, refusal_key};
pub use preview::Preview;
pub use replica::{Actor, Replicated, nearest_number};
pub use reply::{Channel, Reply, Status};
pub use roster::{Players, Roster};
pub use said::{MessageAlone, Said, mended_message};
pub use view::{GameView, Standing, san_movetext};
pub use watch::{Watched, crosstable};

use jiff::Timestamp;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::command::{Command, DeadAction};
use crate::config::Config;
use crate::journal::{Committed, Journal, JournalError, ReceiptAnswer, Replayed, Short};
use asked::Asked;
use state::{Clock, State};

/// Who sends a command.
#[derive(Clone, Debug)]
pub struct Sender {
    /// The player id, or `admin`.
    pub player: String,
    pub admin: bool,
    pub channel: Channel,
}

/// A reply to send now, or once the journal has committed what it records, or once it has
/// found a receipt.
pub enum Pending {
    Now(Reply),
    AfterCommit(Committed, Reply),
    Receipt(i64, ReceiptAnswer),
}

impl Pending {
    /// Waits for the commit, if any; a failed commit turns the reply into an error. A reply
    /// to a command that wrote entries carries the short receipt of the last one.
    pub async fn resolve(self) -> Reply {
        match self {
            Pending::Now(reply) => reply,
            Pending::AfterCommit(committed, mut reply) => match committed.await {
                Ok(Ok(entries)) => {
                    if !reply.ends_with_secret {
                        reply.receipt = entries.last().map(|e| Short::of(e.seq, &e.hash));
                    }
                    reply
                }
                Ok(Err(e)) => Reply::not_recorded(&e),
                Err(_) => Reply::not_recorded(&JournalError::Stopped),
            },
            Pending::Receipt(seq, answer) => match answer.await {
                Ok(Ok(Some(receipt))) => Reply::new(Status::Done, receipt.to_string()),
                Ok(Ok(None)) => Reply::new(
                    Status::NotFound,
                    format!("no signed receipt for entry {seq}: no such entry, or none signed"),
                ),
                Ok(Err(e)) => Reply::not_recorded(&e),
                Err(_) => Reply::not_recorded(&JournalError::Stopped),
            },
        }
    }
}

pub struct Request {
    pub sender: Sender,
    pub command: Command,
    /// The command as received (bounded: [`crate::command::bounded_text`]), for the record.
    pub text: String,
    /// A message for the opponent sent with the command (the rest of a mail).
    pub message: Option<String>,
    /// The transport's idempotency key for this command (see [`Said::key`]).
    pub key: Option<String>,
    /// How long ago the action was made, if on another node (see [`Said::age`]).
    pub age: Option<jiff::SignedDuration>,
    pub reply: oneshot::Sender<Pending>,
}

/// A handle to the relay task.
#[derive(Clone)]
pub struct Relay {
    tx: mpsc::Sender<Job>,
    /// Mail refused for good, for the admin's `DEAD` (answered here: no game is involved).
    dead: dead::DeadLetters,
    changes: broadcast::Sender<String>,
    roster: Roster,
}

/// How many game changes a slow listener may fall behind before it is told it lagged (and
/// reads again what it shows).
const CHANGES: usize = 64;

/// What the relay task is asked: a command, or a query that changes nothing a player did.
enum Job {
    /// Boxed: a command is large and most jobs are commands, so the queue holds pointers.
    Call(Box<Request>),
    GamesOf {
        player: String,
        reply: oneshot::Sender<(Pending, Vec<GameView>)>,
    },
    Watch {
        game: Option<String>,
        full: bool,
        reply: oneshot::Sender<(Pending, Vec<Watched>)>,
    },
    /// A move read as it would be, nothing changed.
    Preview {
        player: String,
        game: String,
        line: crate::command::MoveLine,
        reply: oneshot::Sender<Result<Preview, Reply>>,
    },
    /// A move read as it would be, and then the player's games: a page showing the reading.
    PreviewAmongGames {
        player: String,
        game: String,
        line: crate::command::MoveLine,
        reply: oneshot::Sender<(Result<Preview, Reply>, Pending, Vec<GameView>)>,
    },
    /// An entry of the record the other node of a link keeps.
    Replicate {
        entry: Replicated,
        reply: oneshot::Sender<Pending>,
    },
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
        let (players, events) = known(config, &replayed);
        let roster = Roster::new(players.clone());
        let facts = view::facts_of(&replayed.games);
        let ledgers = replayed
            .games
            .iter()
            .map(|(id, g)| (id.clone(), g.ledger))
            .collect();
        let mut state = State {
            facts,
            games: replayed
                .games
                .into_iter()
                .map(|(id, g)| (id, Box::new(g.game)))
                .collect(),
            ledgers,
            anyone_across_link: players
                .values()
                .any(|p| matches!(p.reach, crate::config::Reach::Link(_))),
            players,
            events,
            roster: roster.clone(),
            registry: replayed.registry,
            can_mail: config.email.is_some(),
            moves_counted: Default::default(),
            journal,
            // Whole seconds, even after a journal written before times were.
            now: state::whole_seconds(
                clock
                    .now()
                    .max(replayed.last_time.unwrap_or(Timestamp::UNIX_EPOCH)),
            ),
            clock,
        };
        let mut starts = Vec::new();
        for g in &config.games {
            if state.games.contains_key(&g.id) {
                continue;
            }
            // A game the other node of a link keeps starts here when its start arrives.
            if let Some(role::Role::Replica { .. }) = state.role_of(&g.white, &g.black, g.authority)
            {
                continue;
            }
            let detail = GameStartDetail {
                kind: g.kind,
                white: g.white.clone(),
                black: g.black.clone(),
                event: g.event.clone(),
                fen: g.fen.clone(),
                rules: None,
                round: g.round.clone(),
                board: None,
                leave: Default::default(),
                authority: g.authority,
            };
            let sender = Sender {
                player: "admin".to_owned(),
                admin: true,
                channel: Channel::Config,
            };
            if let Pending::AfterCommit(committed, _) = state
                .start(&Asked::new(sender, String::new()), g.id.clone(), detail)
                .await
            {
                starts.push(committed);
            }
        }
        // Queued together, the starts share commits.
        for committed in starts {
            committed.await.map_err(|_| JournalError::Stopped)??;
        }
        let (tx, mut rx) = mpsc::channel::<Job>(queue.max(1));
        let (changes, _) = broadcast::channel(CHANGES);
        let changed = changes.clone();
        let mut ticks = tokio::time::interval(config.clock.check_interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    job = rx.recv() => {
                        let request = match job {
                            None => break,
                            Some(Job::Call(request)) => *request,
                            Some(Job::GamesOf { player, reply }) => {
                                let _ = reply.send(state.games_of(&player).await);
                                continue;
                            }
                            Some(Job::Watch { game, full, reply }) => {
                                let _ = reply.send(state.watch(game.as_deref(), full).await);
                                continue;
                            }
                            Some(Job::Preview { player, game, line, reply }) => {
                                let _ = reply.send(state.preview(&player, &game, &line));
                                continue;
                            }
                            Some(Job::PreviewAmongGames { player, game, line, reply }) => {
                                let preview = state.preview(&player, &game, &line);
                                let (pending, games) = state.games_of(&player).await;
                                let _ = reply.send((preview, pending, games));
                                continue;
                            }
                            Some(Job::Replicate { entry, reply }) => {
                                state.catch_up();
                                let game = entry.game.clone();
                                let pending = state.replicate(entry).await;
                                if let Pending::AfterCommit(..) = &pending {
                                    let _ = changed.send(game);
                                }
                                let _ = reply.send(pending);
                                continue;
                            }
                        };
                        // An action with an id this node has recorded already (sent again
                        // after a lost acknowledgement or a restart) is not applied twice.
                        if let Some(key) = &request.key {
                            match state.journal.seen(key).await {
                                Ok(Some(seen)) => {
                                    let reply = Reply::new(
                                        Status::Seen,
                                        format!("handled before: entry {}", seen.seq),
                                    );
                                    let _ = request.reply.send(Pending::Now(reply));
                                    continue;
                                }
                                Ok(None) => {}
                                Err(e) => {
                                    let _ = request.reply.send(Pending::Now(Reply::not_recorded(&e)));
                                    continue;
                                }
                            }
                        }
                        let game = request.command.game().map(str::to_owned);
                        let asked = Asked {
                            sender: request.sender,
                            said: request.text,
                            key: request.key,
                            age: request.age,
                        };
                        let pending = state
                            .handle_with_message(&asked, request.command, request.message)
                            .await;
                        // Listeners read the game again through the queue, so they see the
                        // change only once it is committed.
                        if let (Some(game), Pending::AfterCommit(..)) = (game, &pending) {
                            let _ = changed.send(game);
                        }
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
        Ok(Relay {
            tx,
            dead: dead::DeadLetters::new(&config.data_dir),
            changes,
            roster,
        })
    }

    /// The players, as every transport sees them (registrations while the relay runs
    /// included).
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// A feed of the ids of games that changed (a move, a draw offer, a result...), sent as
    /// each change is queued for the journal; what a listener then reads through
    /// [`Relay::watch`] waits for the commit. A listener that falls behind gets `Lagged` and
    /// should read again whatever it shows.
    pub fn changes(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    /// The games a spectator may see (`full`: the arbiter, every game whole): `game` alone
    /// with its moves, or every game without them; once what they show is on disk.
    pub async fn watch(&self, game: Option<&str>, full: bool) -> Result<Vec<Watched>, Reply> {
        let (reply, rx) = oneshot::channel();
        let job = Job::Watch {
            game: game.map(str::to_owned),
            full,
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Err(Reply::shutting_down());
        }
        let Ok((pending, shown)) = rx.await else {
            return Err(Reply::shutting_down());
        };
        let reply = pending.resolve().await;
        if reply.status.is_success() {
            Ok(shown)
        } else {
            Err(reply)
        }
    }

    /// Sends a command and waits for its (committed) reply; the record shows the command in
    /// its canonical form.
    pub async fn call(&self, sender: Sender, command: Command) -> Reply {
        self.call_said(sender, Said::new(command)).await
    }

    /// Sends a command as it was said (its text, its idempotency key) and waits for its
    /// (committed) reply.
    pub async fn call_said(&self, sender: Sender, said: Said) -> Reply {
        self.submit_said(sender, said).await.await
    }

    /// Queues a command as it was said, in order with every command queued before it, and
    /// gives back what its reply waits on: a session hands the relay its next command while
    /// the journal commits this one, and writes the replies in the order of the commands.
    pub async fn submit_said(
        &self,
        sender: Sender,
        said: Said,
    ) -> impl Future<Output = Reply> + Send + 'static {
        enum Queued {
            Dead(dead::DeadLetters, Sender, DeadAction),
            Relay(oneshot::Receiver<Pending>),
            Refused,
        }
        let queued = if let Command::Dead { action } = said.command {
            Queued::Dead(self.dead.clone(), sender, action)
        } else {
            let (reply, rx) = oneshot::channel();
            let request = Request {
                sender,
                command: said.command,
                text: said.text,
                message: said.message,
                key: said.key,
                age: said.age,
                reply,
            };
            if self.tx.send(Job::Call(Box::new(request))).await.is_err() {
                Queued::Refused
            } else {
                Queued::Relay(rx)
            }
        };
        async move {
            match queued {
                Queued::Dead(store, sender, action) => dead::answer(store, &sender, action).await,
                Queued::Relay(rx) => match rx.await {
                    Ok(pending) => pending.resolve().await,
                    Err(_) => Reply::shutting_down(),
                },
                Queued::Refused => Reply::shutting_down(),
            }
        }
    }

    /// Journals an entry of the record the other node of a link keeps for a game (see
    /// [`Replicated`]) and waits for the commit.
    pub async fn replicate(&self, entry: Replicated) -> Reply {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Job::Replicate { entry, reply }).await.is_err() {
            return Reply::shutting_down();
        }
        match rx.await {
            Ok(pending) => pending.resolve().await,
            Err(_) => Reply::shutting_down(),
        }
    }

    /// `player`'s move `line` in `game` as the relay would read it now, or the refusing reply
    /// it would get; nothing is journaled or changed (see [`Preview`]).
    pub async fn preview(
        &self,
        player: &str,
        game: &str,
        line: crate::command::MoveLine,
    ) -> Result<Preview, Reply> {
        let (reply, rx) = oneshot::channel();
        let job = Job::Preview {
            player: player.to_owned(),
            game: game.to_owned(),
            line,
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Err(Reply::shutting_down());
        }
        rx.await.unwrap_or_else(|_| Err(Reply::shutting_down()))
    }

    /// `player`'s move `line` in `game` read as [`Relay::preview`] reads it, then every game
    /// `player` plays in as [`Relay::games_of`] gives them: a page that shows how a move reads
    /// asks once. `Err` only as `games_of` fails (the relay stopping, the journal failed).
    pub async fn preview_among_games(
        &self,
        player: &str,
        game: &str,
        line: crate::command::MoveLine,
    ) -> Result<(Result<Preview, Reply>, Vec<GameView>), Reply> {
        let (reply, rx) = oneshot::channel();
        let job = Job::PreviewAmongGames {
            player: player.to_owned(),
            game: game.to_owned(),
            line,
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Err(Reply::shutting_down());
        }
        let Ok((preview, pending, views)) = rx.await else {
            return Err(Reply::shutting_down());
        };
        let reply = pending.resolve().await;
        if reply.status.is_success() {
            Ok((preview, views))
        } else {
            Err(reply)
        }
    }

    /// Every game `player` plays in, as they see it, once what it shows is on disk; the
    /// refusing reply if the relay is stopping or the journal failed.
    pub async fn games_of(&self, player: &str) -> Result<Vec<GameView>, Reply> {
        let (reply, rx) = oneshot::channel();
        let job = Job::GamesOf {
            player: player.to_owned(),
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Err(Reply::shutting_down());
        }
        let Ok((pending, views)) = rx.await else {
            return Err(Reply::shutting_down());
        };
        let reply = pending.resolve().await;
        if reply.status.is_success() {
            Ok(views)
        } else {
            Err(reply)
        }
    }
}

/// The players and events the relay starts with: the configuration's, then those the
/// journal registered while it ran (a configuration's player or event wins over a registered
/// one of the same id, and the log says so); a secret changed while the relay ran replaces the
/// configuration's.
fn known(
    config: &Config,
    replayed: &Replayed,
) -> (
    std::sync::Arc<Players>,
    std::collections::BTreeMap<String, crate::event::Event>,
) {
    let mut players = config.players.clone();
    let mut events = config.events.clone();
    let credentials = &replayed.credentials.0;
    for (id, record) in &replayed.registry.players {
        if config.players.contains_key(id) {
            tracing::warn!(player = %id, "a player of the configuration was also registered while the relay ran; the configuration's entry is used");
            continue;
        }
        let Some(hash) = credentials.get(id) else {
            tracing::error!(player = %id, "a registered player has no secret hash in the journal; they cannot log in");
            continue;
        };
        let mut keys: Vec<(&str, &str)> = vec![
            ("name", &record.name),
            ("notation", &record.notation),
            ("reach", &record.reach),
        ];
        if let Some(lang) = &record.lang {
            keys.push(("lang", lang));
        }
        if let Some(email) = &record.email {
            keys.push(("email", email));
        }
        match crate::config::registered::player_from_keys(id, &keys, hash) {
            Ok(player) => {
                std::sync::Arc::make_mut(&mut players).insert(id.clone(), player);
            }
            Err(e) => {
                tracing::error!(player = %id, error = %e, "a registered player no longer reads; left out")
            }
        }
    }
    for (id, hash) in credentials {
        if let Some(player) = config.players.get(id)
            && player.secret_hash != *hash
        {
            tracing::warn!(player = %id, "this player's secret was changed while the relay ran: the configuration's secret_hash is not used");
            if let Some(p) = std::sync::Arc::make_mut(&mut players).get_mut(id) {
                p.secret_hash = hash.clone();
            }
        }
    }
    for (id, record) in &replayed.registry.events {
        if events.contains_key(id) {
            tracing::warn!(event = %id, "an event of the configuration was also made while the relay ran; the configuration's is used");
            continue;
        }
        events.insert(id.clone(), record.event.clone());
    }
    (players, events)
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
