//! One `[[remotes]]` account's task: it polls the server (`GetMyGames`) every `poll_minutes`,
//! at start and at once after sending a proposal; applies each game to the local one through
//! the relay (`Relay::remote_seen`: the server keeps the record); and sends the player's
//! proposals waiting in the outbox (`MakeAMove`, with the move's number as its guard), each
//! once: a proposal is acknowledged when the server answered it, and one found waiting after a
//! crash or a failed call is sent again only if the server's game, just polled, shows it was
//! not applied ([`moves::sending`]).
//!
//! Failures keep everything: the server unreachable, slow (every call has a deadline), too
//! large an answer, a fault, HTML instead of SOAP: the proposals wait, the task backs off with
//! the one backoff, and after an hour of failing tells the player and the admin once, and
//! once again when the server answers ([`super::health`], through `Relay::remote_status`). A
//! refused login (`AuthenticationFailed`) pauses the account, told at once, until its
//! configuration changes: a restart with the same configuration (`RemoteConfig::stamp`) stays
//! paused without asking the server. A message alone is never sent twice across a crash
//! ([`super::in_flight`]). `/metrics` shows each account's last success and failures.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::backoff::Backoff;
use crate::command::Command;
use crate::command::text::Logged;
use crate::config::{Config, RemoteConfig};
use crate::relay::remote::{RemoteEnd, RemoteSeen, ServerClocks, game_id, outside_player};
use crate::relay::{Channel, Mailbox, Notice, Relay, Request, Sender, Status, refusal_key};
use crate::relay::{RemoteHealth, RemoteStatusDetail};
use crate::transport::http::xfcc::MoveResult;

use super::answer::{self, AnswerError};
use super::client::{self, CallError, Endpoint};
use super::game::RemoteGame;
use super::health::Health;
use super::in_flight::{InFlight, may_have_arrived};
use super::moves::{self, Sending, Shown};
use super::request::{self, Credentials};

/// The deadline of one call to the server, connection to last byte.
const CALL_DEADLINE: Duration = Duration::from_secs(60);
/// How often the outbox is looked at for a new proposal between polls (a local read).
const OUTBOX_LOOK: Duration = Duration::from_secs(2);
/// The backoff's first and longest waits.
const BACKOFF_FIRST: Duration = Duration::from_secs(10);
const BACKOFF_MAX: Duration = Duration::from_secs(900);
/// Why a message alone found in flight after a stop is not sent again.
const MAY_HAVE_ARRIVED: &str = "the relay stopped while sending this message to the remote server, which may have it: not sent again, so that it never arrives twice; send it again if your opponent does not have it";
/// Proposals read from the outbox at once.
const BATCH: usize = 50;

/// Why a round with the server failed.
#[derive(Debug)]
enum Failure {
    /// The server refused the account's name or password.
    Authentication,
    /// Anything else: tried again after the backoff.
    Other(String),
}

impl From<CallError> for Failure {
    fn from(e: CallError) -> Failure {
        Failure::Other(e.to_string())
    }
}

impl From<AnswerError> for Failure {
    fn from(e: AnswerError) -> Failure {
        if e.is_authentication() {
            Failure::Authentication
        } else {
            Failure::Other(e.to_string())
        }
    }
}

/// One account and what its task knows.
pub struct Account {
    config: RemoteConfig,
    endpoint: Endpoint,
    relay: Relay,
    mailbox: Mailbox,
    shutdown: CancellationToken,
    /// The local ids of the account's opponents: the outbox's readers of its proposals.
    outside: BTreeSet<String>,
    /// The account's games at the last poll, by local id.
    shown: BTreeMap<String, Shown>,
    /// Games not played here, said once each.
    skipped: BTreeSet<String>,
    /// The player's message the server took, by local game, for the next poll to put in the
    /// record (`GetMyGames` shows only the opponent's).
    taken_messages: BTreeMap<String, String>,
    /// A message alone that may be on its way to the server.
    in_flight: InFlight,
}

/// Starts a task for every `[[remotes]]` account.
pub fn spawn_all(
    config: &Arc<Config>,
    relay: &Relay,
    mailbox: &Mailbox,
    shutdown: &CancellationToken,
    tracker: &TaskTracker,
) {
    for remote in &config.remotes {
        let endpoint = match Endpoint::from_url(&remote.url) {
            Ok(endpoint) => endpoint,
            Err(e) => {
                tracing::error!(remote = %remote.id, error = %e, "remote account not started");
                continue;
            }
        };
        let account = Account {
            config: remote.clone(),
            endpoint,
            relay: relay.clone(),
            mailbox: mailbox.clone(),
            shutdown: shutdown.clone(),
            outside: BTreeSet::new(),
            shown: BTreeMap::new(),
            skipped: BTreeSet::new(),
            taken_messages: BTreeMap::new(),
            in_flight: InFlight::open(&config.data_dir, &remote.id),
        };
        tracker.spawn(account.run());
    }
}

impl Account {
    async fn run(mut self) {
        let id = self.config.id.clone();
        let Ok(told) = self.relay.remote_standing(&id).await else {
            return;
        };
        let paused = told
            .as_ref()
            .is_some_and(|t| t.health == RemoteHealth::Paused && t.stamp == self.config.stamp);
        metrics::gauge!("ccrelay_remote_paused", "remote" => id.clone()).set(if paused {
            1.0
        } else {
            0.0
        });
        if paused {
            tracing::error!(remote = %id, "the remote account stays paused: its configuration has not changed since the server refused its name or password");
            self.shutdown.cancelled().await;
            return;
        }
        tracing::info!(remote = %id, url = %self.config.url, "remote account started");
        let mut health = Health::new(told.map(|t| t.health));
        let mut backoff = Backoff::new(BACKOFF_FIRST, BACKOFF_MAX);
        loop {
            match self.round().await {
                Ok(()) => {
                    backoff.reset();
                    let now = jiff::Timestamp::now().as_second() as f64;
                    metrics::gauge!("ccrelay_remote_last_success_seconds", "remote" => id.clone())
                        .set(now);
                    if let Some(news) = health.succeeded() {
                        tracing::info!(remote = %id, "the remote server answers again");
                        self.tell(news, "").await;
                    }
                }
                Err(Failure::Authentication) => {
                    metrics::counter!("ccrelay_remote_failures_total", "remote" => id.clone())
                        .increment(1);
                    metrics::gauge!("ccrelay_remote_paused", "remote" => id.clone()).set(1.0);
                    tracing::error!(remote = %id, username = %Logged(&self.config.username), "the remote server refused the account's name or password: the account is paused until its configuration changes");
                    if let Some(news) = health.refused() {
                        self.tell(news, "").await;
                    }
                    self.shutdown.cancelled().await;
                    return;
                }
                Err(Failure::Other(why)) => {
                    metrics::counter!("ccrelay_remote_failures_total", "remote" => id.clone())
                        .increment(1);
                    if let Some(news) = health.failed(Instant::now()) {
                        tracing::error!(remote = %id, player = %self.config.player, error = %Logged(&why), "the remote server has failed for an hour; the player's proposals wait");
                        self.tell(news, &why).await;
                    } else {
                        tracing::warn!(remote = %id, error = %Logged(&why), "the remote server failed; trying again later");
                    }
                    if backoff.wait(&self.shutdown).await.is_err() {
                        return;
                    }
                    continue;
                }
            }
            if !self.wait_for_next_round().await {
                return;
            }
        }
    }

    /// Tells the account's player and the admin how it stands now (the relay journals it
    /// once, and tells nothing it told last).
    async fn tell(&self, health: RemoteHealth, why: &str) {
        let detail = RemoteStatusDetail {
            remote: self.config.id.clone(),
            player: self.config.player.clone(),
            health,
            stamp: if health == RemoteHealth::Paused {
                self.config.stamp.clone()
            } else {
                String::new()
            },
            why: Logged(why).to_string().chars().take(200).collect(),
        };
        let reply = self.relay.remote_status(detail).await;
        if !reply.status.is_final() {
            tracing::warn!(remote = %self.config.id, reply = %Logged(&reply.text), "the account's standing not told");
        }
    }

    /// Waits for the poll interval, or less if a proposal is waiting; `false` at shutdown.
    async fn wait_for_next_round(&mut self) -> bool {
        let due = Instant::now() + self.config.poll;
        while Instant::now() < due {
            if crate::backoff::sleep(OUTBOX_LOOK, &self.shutdown)
                .await
                .is_err()
            {
                return false;
            }
            if self.proposals().await.is_ok_and(|rows| !rows.is_empty()) {
                break;
            }
        }
        true
    }

    /// A poll, the proposals waiting sent, and a poll again if any was.
    async fn round(&mut self) -> Result<(), Failure> {
        self.poll().await?;
        if self.send_proposals().await? {
            self.poll().await?;
        }
        Ok(())
    }

    fn credentials(&self) -> Credentials<'_> {
        Credentials {
            username: &self.config.username,
            password: &self.config.password.0,
        }
    }

    async fn call(&self, operation: &str, envelope: String) -> Result<Vec<u8>, Failure> {
        Ok(client::call(
            &self.endpoint,
            self.config.ca_file.as_deref(),
            operation,
            envelope,
            CALL_DEADLINE,
        )
        .await?)
    }

    /// `GetMyGames`, each game applied here.
    async fn poll(&mut self) -> Result<(), Failure> {
        let envelope = request::get_my_games(&self.credentials());
        let answer = self.call("GetMyGames", envelope).await?;
        let games = answer::games(&answer)?;
        for game in games {
            self.apply(game).await?;
        }
        Ok(())
    }

    /// One game the server lists, applied to the local one.
    async fn apply(&mut self, g: RemoteGame) -> Result<(), Failure> {
        let remote = self.config.id.clone();
        let skip = |skipped: &mut BTreeSet<String>, why: &str| {
            if skipped.insert(g.id.clone()) {
                tracing::warn!(remote = %remote, game = %Logged(&g.id), why, "a remote game not played here");
            }
        };
        if !self.config.takes_event(&g.event) {
            return Ok(());
        }
        let Some(local) = game_id(&remote, &g.id) else {
            skip(&mut self.skipped, "its id is not a game id here");
            return Ok(());
        };
        let replayed = match moves::replay(&g.moves, g.fen.as_deref()) {
            Ok(replayed) => replayed,
            Err(e) => {
                tracing::error!(remote = %remote, game = %local, error = %Logged(&e), "the server's moves do not read; the game waits for the arbiter");
                return Ok(());
            }
        };
        let opponent = outside_player(&remote, if g.has_white { &g.black } else { &g.white });
        let end = match (g.result.is_ongoing(), g.result.winner()) {
            (true, _) => None,
            (false, Some(winner)) => Some(RemoteEnd::Scored(winner)),
            (false, None) => Some(RemoteEnd::Unscored(format!("{:?}", g.result))),
        };
        let seen = RemoteSeen {
            remote: remote.clone(),
            player: self.config.player.clone(),
            game: local.clone(),
            opponent: opponent.clone(),
            color: g.color(),
            event: Some(g.event.clone()).filter(|e| !e.is_empty()),
            fen: g.fen.clone(),
            moves: replayed.codes.clone(),
            opponent_offers_draw: g.draw_offered,
            opponent_message: g.message.clone(),
            own_message: self.taken_messages.remove(&local),
            end,
            server_clocks: server_clocks(&g),
        };
        let reply = self.relay.remote_seen(seen).await;
        match reply.status {
            Status::Closing => return Err(Failure::Other("the relay is stopping".to_owned())),
            s if s.is_success() || s == Status::Seen => {}
            _ => {
                tracing::warn!(remote = %remote, game = %local, reply = %Logged(&reply.text), "the remote game was not applied here")
            }
        }
        self.outside.insert(opponent);
        self.shown.insert(
            local,
            Shown {
                remote_game: g.id.clone(),
                replayed,
                color: g.color(),
                my_turn: g.my_turn,
                draw_offered: g.draw_offered,
            },
        );
        Ok(())
    }

    /// The proposals waiting for the account's opponents, oldest first.
    async fn proposals(&self) -> Result<Vec<crate::relay::mailbox::LinkItem>, Failure> {
        if self.outside.is_empty() {
            return Ok(Vec::new());
        }
        let readers = self.outside.iter().cloned().collect();
        self.mailbox
            .link_waiting(readers, 0, BATCH)
            .await
            .map_err(|e| Failure::Other(e.to_string()))
    }

    /// Sends the proposals waiting, each once; `true` if the server took any.
    async fn send_proposals(&mut self) -> Result<bool, Failure> {
        let mut took = false;
        let mut rows = self.proposals().await?.into_iter().peekable();
        while let Some(row) = rows.next() {
            let Notice::Proposal { number, .. } = row.notice else {
                self.acknowledge(&row.to, row.id).await?;
                continue;
            };
            let Some(shown) = self.shown.get(&row.game) else {
                self.refused(
                    &row.game,
                    number,
                    "the remote server no longer lists this game",
                )
                .await?;
                self.acknowledge(&row.to, row.id).await?;
                continue;
            };
            let sending = moves::sending(&row.detail, row.iccf.as_deref(), shown);
            // The message proposed right after a move in the same game rode with it: it goes
            // in the move's call, and shares its fate (applied, refused or taken).
            let is_move = matches!(&sending, Sending::Call(call) if call.my_move.is_some())
                || (matches!(sending, Sending::Applied | Sending::Overtaken(_))
                    && row.iccf.is_some());
            // The rider: its reader, outbox row, proposal number and words.
            let rider = match rows.peek() {
                Some(next) if is_move => {
                    match (&next.notice, moves::riding_message(&next.detail, &row.game)) {
                        (Notice::Proposal { number, .. }, Some(text)) => {
                            Some((next.to.clone(), next.id, *number, text))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            if rider.is_some() {
                rows.next();
            }
            let sending = match (sending, &rider) {
                (Sending::Call(mut call), Some((.., text))) => {
                    call.message = Some(text.clone());
                    Sending::Call(call)
                }
                (sending, _) => sending,
            };
            match sending {
                Sending::Applied => {
                    tracing::info!(remote = %self.config.id, game = %row.game, number, "a proposal the server shows applied or past; not sent again");
                }
                Sending::Unsupported(why) => self.refused(&row.game, number, why).await?,
                Sending::Overtaken(why) => {
                    tracing::info!(remote = %self.config.id, game = %row.game, number, why, "a proposal the server's game went on without");
                    self.not_sent(&row.game, number, why.to_owned()).await?;
                    if let Some((_, _, message, _)) = &rider {
                        self.not_sent(&row.game, *message, why.to_owned()).await?;
                    }
                }
                Sending::Call(call) if call.is_message_alone() => {
                    if self.send_message(&row.game, number, row.id, &call).await? {
                        took = true;
                        self.note_taken(&row.game, &call);
                    }
                    // Acknowledged before it is forgotten: a stop between the two finds it
                    // acknowledged, never waiting and forgotten.
                    self.acknowledge(&row.to, row.id).await?;
                    self.in_flight
                        .clear()
                        .map_err(|e| Failure::Other(format!("the message in flight: {e}")))?;
                    continue;
                }
                Sending::Call(call) => {
                    let envelope = request::make_a_move(&self.credentials(), &call);
                    let answer = self.call("MakeAMove", envelope).await?;
                    match answer::move_result(&answer)? {
                        MoveResult::Success => {
                            took = true;
                            self.note_taken(&row.game, &call);
                            tracing::info!(remote = %self.config.id, game = %row.game, number, "proposal sent; the server took it");
                        }
                        MoveResult::AuthenticationFailed => return Err(Failure::Authentication),
                        MoveResult::ServerError => {
                            return Err(Failure::Other(
                                "the server's error on MakeAMove".to_owned(),
                            ));
                        }
                        refusal => {
                            self.refused(&row.game, number, refusal.as_str()).await?;
                            if let Some((_, _, message, _)) = &rider {
                                self.refused(&row.game, *message, refusal.as_str()).await?;
                            }
                        }
                    }
                }
            }
            self.acknowledge(&row.to, row.id).await?;
            if let Some((to, id, ..)) = &rider {
                self.acknowledge(to, *id).await?;
            }
        }
        Ok(took)
    }

    /// Sends a message alone, once across a crash ([`InFlight`]): one the last run may have
    /// sent is not sent again, and its player is told; `true` if the server took it. The
    /// caller acknowledges the row, then forgets it in flight.
    async fn send_message(
        &mut self,
        game: &str,
        number: u32,
        row: i64,
        call: &request::MoveCall,
    ) -> Result<bool, Failure> {
        let local = |e: std::io::Error| Failure::Other(format!("the message in flight: {e}"));
        if self.in_flight.was_sending(row) {
            tracing::warn!(remote = %self.config.id, game, number, "a message alone that may have reached the server before a stop; not sent again");
            self.not_sent(game, number, MAY_HAVE_ARRIVED.to_owned())
                .await?;
            return Ok(false);
        }
        self.in_flight.mark(row).map_err(local)?;
        let envelope = request::make_a_move(&self.credentials(), call);
        let answer = match client::call(
            &self.endpoint,
            self.config.ca_file.as_deref(),
            "MakeAMove",
            envelope,
            CALL_DEADLINE,
        )
        .await
        {
            Ok(answer) => answer,
            Err(e) => {
                if !may_have_arrived(&e) {
                    self.in_flight.clear().map_err(local)?;
                }
                return Err(e.into());
            }
        };
        let took = match answer::move_result(&answer) {
            Ok(MoveResult::Success) => true,
            Ok(MoveResult::AuthenticationFailed) => {
                self.in_flight.clear().map_err(local)?;
                return Err(Failure::Authentication);
            }
            Ok(MoveResult::ServerError) | Err(_) => {
                // The server's own error, or an answer that does not read: it may have
                // kept the message; the next round tells the player so.
                return Err(Failure::Other(
                    "no readable answer to a message sent alone".to_owned(),
                ));
            }
            Ok(refusal) => {
                self.refused(game, number, refusal.as_str()).await?;
                false
            }
        };
        Ok(took)
    }

    /// The server took `call`: its message, if it had one, goes into the record at the next
    /// poll.
    fn note_taken(&mut self, game: &str, call: &request::MoveCall) {
        if let Some(text) = &call.message {
            self.taken_messages.insert(game.to_owned(), text.clone());
        }
    }

    async fn acknowledge(&self, reader: &str, id: i64) -> Result<(), Failure> {
        self.mailbox
            .acknowledge(reader, id)
            .await
            .map(drop)
            .map_err(|e| Failure::Other(e.to_string()))
    }

    /// The server refused proposal `number` in `game` (or it cannot be sent): recorded once,
    /// and the player told, with the reason.
    async fn refused(&self, game: &str, number: u32, reason: &str) -> Result<(), Failure> {
        tracing::info!(remote = %self.config.id, game, number, reason, "the remote server refused a proposal");
        self.not_sent(game, number, format!("the remote server says {reason}"))
            .await
    }

    /// Proposal `number` in `game` is not in the server's record, for `reason`: recorded once,
    /// and the player told.
    async fn not_sent(&self, game: &str, number: u32, reason: String) -> Result<(), Failure> {
        let player = self.config.player.clone();
        let sender = Sender {
            player,
            admin: false,
            channel: Channel::Link,
        };
        let command = Command::PeerRefused {
            game: game.to_owned(),
            number,
            reason,
        };
        // Only the account's player proposes in the game: the number alone names the proposal.
        let key = refusal_key(game, 'r', number);
        let reply = self
            .relay
            .call(Request::new(sender, command).key(Some(key)))
            .await;
        if reply.status.is_final() {
            Ok(())
        } else {
            Err(Failure::Other(format!(
                "the refusal not recorded: {}",
                reply.text
            )))
        }
    }
}

/// The server's clocks in `g`, White's first, as of now; none when it sends none (every field
/// zero or left out: a server that keeps no clock).
fn server_clocks(g: &RemoteGame) -> Option<ServerClocks> {
    if g.time_left == [0, 0] {
        return None;
    }
    let [mine, theirs] = g.time_left;
    Some(ServerClocks {
        left: if g.has_white {
            [mine, theirs]
        } else {
            [theirs, mine]
        },
        polled: jiff::Timestamp::now(),
    })
}
