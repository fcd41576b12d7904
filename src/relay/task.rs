//! The relay task and its handle: one task owns every game; transports send it [`Request`]s
//! through a [`Relay`] and get typed [`Reply`]s back. The task checks a command against the
//! game (changing nothing), queues the journal records in order, applies the change to its
//! in-memory game, and answers with a [`Pending`] reply that the transport sends only once the
//! journal has committed. It never waits for a commit itself, so many moves share one fsync
//! (group commit); the journal refuses everything after a failed commit, so no state the disk
//! lacks is ever acknowledged.

use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::command::{Command, DeadAction, MoveLine};
use crate::config::Config;
use crate::journal::{Journal, JournalError, Replayed};

use super::handle::dispatch;
use super::pending::Pending;
use super::preview::{self, Preview};
use super::remote::RemoteSeen;
use super::replica::Replicated;
use super::reply::{Reply, Status};
use super::request::{Request, Sender};
use super::roster::Roster;
use super::state::State;
use super::undelivered::{self, DeadLetters};
use super::view::GameView;
use super::watch::{self, Watched};
use super::{handle, start};
use crate::journal::entry::RemoteStatusDetail;

/// A move's reading (or why it does not read) and every game of its player, as one answer.
pub type PreviewAmongGames = (Result<Preview, Reply>, Vec<GameView>);

/// A handle to the relay task.
#[derive(Clone)]
pub struct Relay {
    tx: mpsc::Sender<Job>,
    /// Mail refused for good, for the admin's `DEAD` (answered here: no game is involved).
    undelivered: DeadLetters,
    changes: broadcast::Sender<String>,
    roster: Roster,
}

/// How many game changes a slow listener may fall behind before it is told it lagged (and
/// reads again what it shows).
const CHANGES: usize = 64;

/// A request and where its reply goes.
struct Call {
    request: Request,
    reply: oneshot::Sender<Pending>,
}

/// What the relay task is asked: a command, or a query that changes nothing a player did.
enum Job {
    /// Boxed: a command is large and most jobs are commands, so the queue holds pointers.
    Call(Box<Call>),
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
        line: MoveLine,
        reply: oneshot::Sender<Result<Preview, Reply>>,
    },
    /// A move read as it would be, and then the player's games: a page showing the reading.
    PreviewAmongGames {
        player: String,
        game: String,
        line: MoveLine,
        reply: oneshot::Sender<(Pending, PreviewAmongGames)>,
    },
    /// The rating list in effect today (docs/ratings.md).
    Ratings {
        reply: oneshot::Sender<(Pending, crate::event::rating::RatingList)>,
    },
    /// A knock-out's bracket as it stands.
    Bracket {
        event: String,
        reply: oneshot::Sender<(Pending, Option<crate::event::knockout::Bracket>)>,
    },
    /// An entry of the record the other node of a link keeps.
    Replicate {
        entry: Replicated,
        reply: oneshot::Sender<Pending>,
    },
    /// A game on a remote XFCC server, as the bridge saw it.
    Remote {
        seen: Box<RemoteSeen>,
        reply: oneshot::Sender<Pending>,
    },
    /// A remote account's standing: the last told, answered; a new one, if given, told.
    RemoteStatus {
        remote: String,
        report: Option<RemoteStatusDetail>,
        reply: oneshot::Sender<(Pending, Option<RemoteStatusDetail>)>,
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
        let state = start::state(config, journal, replayed).await?;
        let roster = state.people.roster.clone();
        let (tx, rx) = mpsc::channel::<Job>(queue.max(1));
        let (changes, _) = broadcast::channel(CHANGES);
        let mut ticks = tokio::time::interval(config.clock.check_interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let task = tokio::spawn(run(state, rx, changes.clone(), ticks));
        // A relay that died (a bug) must not leave a daemon answering 421 forever.
        tokio::spawn(async move {
            if let Err(e) = task.await {
                tracing::error!(error = %e, "the relay task failed; stopping");
                failed.cancel();
            }
        });
        Ok(Relay {
            tx,
            undelivered: DeadLetters::new(&config.data_dir),
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
        self.ask(|reply| Job::Watch {
            game: game.map(str::to_owned),
            full,
            reply,
        })
        .await
    }

    /// The rating list in effect today, from every game the relay holds, once what it counts
    /// is on disk.
    pub async fn ratings(&self) -> Result<crate::event::rating::RatingList, Reply> {
        self.ask(|reply| Job::Ratings { reply }).await
    }

    /// Knock-out `event`'s bracket as it stands (`None` for an event of another system), once
    /// what it shows is on disk.
    pub async fn bracket(
        &self,
        event: &str,
    ) -> Result<Option<crate::event::knockout::Bracket>, Reply> {
        let event = event.to_owned();
        self.ask(|reply| Job::Bracket { event, reply }).await
    }

    /// Sends a request and waits for its (committed) reply.
    pub async fn call(&self, request: Request) -> Reply {
        self.submit(request).await.await
    }

    /// Queues a request, in order with every request queued before it, and gives back what
    /// its reply waits on: a session hands the relay its next command while the journal
    /// commits this one, and writes the replies in the order of the commands.
    pub async fn submit(&self, request: Request) -> impl Future<Output = Reply> + Send + 'static {
        enum Queued {
            Undelivered(DeadLetters, Sender, DeadAction),
            Relay(oneshot::Receiver<Pending>),
            Refused,
        }
        let queued = if let Command::Dead { action } = request.command {
            Queued::Undelivered(self.undelivered.clone(), request.sender, action)
        } else {
            let (reply, rx) = oneshot::channel();
            let call = Call { request, reply };
            if self.tx.send(Job::Call(Box::new(call))).await.is_err() {
                Queued::Refused
            } else {
                Queued::Relay(rx)
            }
        };
        async move {
            match queued {
                Queued::Undelivered(store, sender, action) => {
                    undelivered::answer(store, &sender, action).await
                }
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

    /// Applies what a remote XFCC server shows of one of an account's games (see
    /// [`RemoteSeen`]: the server keeps its record) and waits for the commit.
    pub async fn remote_seen(&self, seen: RemoteSeen) -> Reply {
        let (reply, rx) = oneshot::channel();
        let job = Job::Remote {
            seen: Box::new(seen),
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Reply::shutting_down();
        }
        match rx.await {
            Ok(pending) => pending.resolve().await,
            Err(_) => Reply::shutting_down(),
        }
    }

    /// The standing last told of remote account `remote` (`None`: nothing was ever told);
    /// the refusing reply if the relay is stopping.
    pub async fn remote_standing(&self, remote: &str) -> Result<Option<RemoteStatusDetail>, Reply> {
        self.ask(|reply| Job::RemoteStatus {
            remote: remote.to_owned(),
            report: None,
            reply,
        })
        .await
    }

    /// Tells a remote account's player and the admin of its new standing, once: journaled
    /// with their notices if it changes what was told last (`Done`), else `Seen`.
    pub async fn remote_status(&self, detail: RemoteStatusDetail) -> Reply {
        let (reply, rx) = oneshot::channel();
        let job = Job::RemoteStatus {
            remote: detail.remote.clone(),
            report: Some(detail),
            reply,
        };
        if self.tx.send(job).await.is_err() {
            return Reply::shutting_down();
        }
        match rx.await {
            Ok((pending, _)) => pending.resolve().await,
            Err(_) => Reply::shutting_down(),
        }
    }

    /// `player`'s move `line` in `game` as the relay would read it now, or the refusing reply
    /// it would get; nothing is journaled or changed (see [`Preview`]).
    pub async fn preview(
        &self,
        player: &str,
        game: &str,
        line: MoveLine,
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
        line: MoveLine,
    ) -> Result<PreviewAmongGames, Reply> {
        self.ask(|reply| Job::PreviewAmongGames {
            player: player.to_owned(),
            game: game.to_owned(),
            line,
            reply,
        })
        .await
    }

    /// Every game `player` plays in, as they see it, once what it shows is on disk; the
    /// refusing reply if the relay is stopping or the journal failed.
    pub async fn games_of(&self, player: &str) -> Result<Vec<GameView>, Reply> {
        self.ask(|reply| Job::GamesOf {
            player: player.to_owned(),
            reply,
        })
        .await
    }

    /// Sends the job `made` with the channel its answer comes back on, and waits until what
    /// the answer shows is on disk: the answer, or the refusing reply (the relay stopping, the
    /// journal failed).
    async fn ask<T>(
        &self,
        made: impl FnOnce(oneshot::Sender<(Pending, T)>) -> Job,
    ) -> Result<T, Reply> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(made(reply)).await.is_err() {
            return Err(Reply::shutting_down());
        }
        let Ok((pending, answer)) = rx.await else {
            return Err(Reply::shutting_down());
        };
        let reply = pending.resolve().await;
        if reply.status.is_success() {
            Ok(answer)
        } else {
            Err(reply)
        }
    }
}

/// The task: every job in the order it came, and the clock's checks between them, until
/// every handle is gone.
async fn run(
    mut state: State,
    mut jobs: mpsc::Receiver<Job>,
    changed: broadcast::Sender<String>,
    mut ticks: tokio::time::Interval,
) {
    loop {
        tokio::select! {
            job = jobs.recv() => match job {
                None => break,
                Some(job) => serve(&mut state, job, &changed).await,
            },
            _ = ticks.tick() => {
                handle::clock::tick(&mut state).await;
                for game in handle::knockout::advance(&mut state).await {
                    let _ = changed.send(game);
                }
            }
        }
    }
}

/// One job: a command, or a query answered from the state as it stands.
async fn serve(state: &mut State, job: Job, changed: &broadcast::Sender<String>) {
    match job {
        Job::Call(call) => answer(state, *call, changed).await,
        Job::GamesOf { player, reply } => {
            let _ = reply.send(handle::games::games_of(state, &player).await);
        }
        Job::Watch { game, full, reply } => {
            let _ = reply.send(watch::watch(state, game.as_deref(), full).await);
        }
        Job::Bracket { event, reply } => {
            let bracket = handle::knockout::bracket_of(state, &event);
            let done = state.after_commit(Reply::new(Status::Done, "")).await;
            let _ = reply.send((done, bracket));
        }
        Job::Ratings { reply } => {
            state.recorder.catch_up();
            let today = crate::game::clock::date_of(state.recorder.now);
            let list = handle::ratings::current_list(&state.people, &state.games, today);
            let done = state.after_commit(Reply::new(Status::Done, "")).await;
            let _ = reply.send((done, list));
        }
        Job::Preview {
            player,
            game,
            line,
            reply,
        } => {
            let _ = reply.send(preview::preview(state, &player, &game, &line));
        }
        Job::PreviewAmongGames {
            player,
            game,
            line,
            reply,
        } => {
            let read = preview::preview(state, &player, &game, &line);
            let (pending, games) = handle::games::games_of(state, &player).await;
            let _ = reply.send((pending, (read, games)));
        }
        Job::Replicate { entry, reply } => {
            state.recorder.catch_up();
            let game = entry.game.clone();
            let pending = handle::replica::replicate(state, entry).await;
            if let Pending::AfterCommit(..) = &pending {
                let _ = changed.send(game);
            }
            let _ = reply.send(pending);
        }
        Job::Remote { seen, reply } => {
            state.recorder.catch_up();
            let game = seen.game.clone();
            let pending = handle::remote::seen(state, *seen).await;
            if let Pending::AfterCommit(..) = &pending {
                let _ = changed.send(game);
            }
            let _ = reply.send(pending);
        }
        Job::RemoteStatus {
            remote,
            report,
            reply,
        } => {
            state.recorder.catch_up();
            let known = handle::remote_status::known(state, &remote);
            let pending = match report {
                Some(detail) => handle::remote_status::report(state, detail).await,
                None => state.after_commit(Reply::new(Status::Done, "")).await,
            };
            let _ = reply.send((pending, known));
        }
    }
}

/// A command: handled once (an action with an id this node has recorded already, sent again
/// after a lost acknowledgement or a restart, is not applied twice), its game announced as
/// changed once its records are queued.
async fn answer(state: &mut State, call: Call, changed: &broadcast::Sender<String>) {
    let Call { request, reply } = call;
    if let Some(key) = &request.key {
        match state.recorder.journal.seen(key).await {
            Ok(Some(seen)) => {
                let text = format!("handled before: entry {}", seen.seq);
                let _ = reply.send(Pending::Now(Reply::new(Status::Seen, text)));
                return;
            }
            Ok(None) => {}
            Err(e) => {
                let _ = reply.send(Pending::Now(Reply::not_recorded(&e)));
                return;
            }
        }
    }
    let game = request.command.game().map(str::to_owned);
    let pending = dispatch::handle_with_message(state, request).await;
    // Listeners read the game again through the queue, so they see the change only once it is
    // committed.
    if let (Some(game), Pending::AfterCommit(..)) = (game, &pending) {
        let _ = changed.send(game);
    }
    // A result may have decided a knock-out's match: what it makes due is journaled after it.
    for game in handle::knockout::advance(state).await {
        let _ = changed.send(game);
    }
    let _ = reply.send(pending);
}
