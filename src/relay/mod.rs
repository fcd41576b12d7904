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

pub mod mailbox;
mod render;

pub use mailbox::{Mailbox, Message, Rejected, Subscription};

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use shakmaty::{Chess, Color, Move};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::config::{Config, Event, Player, valid_id};
use crate::game::clock::{Leave, OnTimeout, Rules};
use crate::game::{Action, Claim, ColorName, Due, EndReason, Game, GameResult, Refusal};
use crate::journal::replay::{AdjudicationDetail, DRAW_OFFER, GameStartDetail, TimeUpDetail};
use crate::journal::{
    Committed, EntryKind, Journal, JournalError, NewEntry, NewOutbox, Record, Replayed,
};
use crate::notation::written::Marks;
use crate::notation::{Iccf, Lang, san};

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

/// Where the relay's time comes from.
enum Clock {
    System,
    /// Set by the admin's `CLOCK` command only (tests, demonstrations).
    Manual(Timestamp),
}

impl Clock {
    fn now(&self) -> Timestamp {
        match self {
            Clock::System => Timestamp::now(),
            Clock::Manual(at) => *at,
        }
    }
}

struct State {
    games: HashMap<String, Game>,
    players: BTreeMap<String, Player>,
    events: BTreeMap<String, Event>,
    journal: Journal,
    clock: Clock,
    /// The time of what is being handled: every entry it writes carries it. Never goes back,
    /// even if the system clock does.
    now: Timestamp,
    /// The idempotency key of the request being handled, recorded with its first entry.
    key: Option<String>,
}

/// `+40d`, `+6h`, `+30m` from `now`, or an RFC 3339 time.
fn parse_clock_setting(now: Timestamp, set: &str) -> Result<Timestamp, String> {
    let bad = || format!("{set:?}: say +<n>d, +<n>h, +<n>m or an RFC 3339 time");
    if let Some(rest) = set.strip_prefix('+') {
        let (number, unit) = match rest.char_indices().last() {
            Some((at, unit)) => (&rest[..at], unit),
            None => return Err(bad()),
        };
        let n: i64 = number.parse().map_err(|_| bad())?;
        let seconds = match unit {
            'd' => n.checked_mul(86_400),
            'h' => n.checked_mul(3_600),
            'm' => n.checked_mul(60),
            _ => None,
        }
        .ok_or_else(bad)?;
        now.checked_add(jiff::SignedDuration::from_secs(seconds))
            .map_err(|e| e.to_string())
    } else {
        set.parse().map_err(|_| bad())
    }
}

fn dots(color: Color) -> &'static str {
    if color == Color::White { "." } else { "..." }
}

/// A refusal worth journaling: the player plays in the game.
struct Refused {
    code: u16,
    reason: String,
}

impl State {
    fn lang_of(&self, player: &str) -> Option<Lang> {
        self.players.get(player).and_then(|p| p.lang)
    }

    async fn handle(&mut self, sender: &Sender, command: Command) -> Pending {
        self.now = self.now.max(self.clock.now());
        // The clock acts first: a move that comes after its side's time ran out is too late.
        if let Some(game) = command.game() {
            let game = game.to_owned();
            self.settle(&game).await;
        }
        match command {
            // What is shown includes moves still being committed: answer once they are on disk.
            Command::Games => self.after_commit(self.list_games(sender)).await,
            Command::Show { game } => self.after_commit(self.show(sender, &game)).await,
            Command::Create {
                game,
                white,
                black,
                event,
                fen,
                round,
            } => {
                let detail = GameStartDetail {
                    white,
                    black,
                    event,
                    fen,
                    rules: None,
                    round,
                    leave: Default::default(),
                };
                self.create(sender, game, detail).await
            }
            Command::Move {
                game,
                number,
                text,
                marks,
                repeat,
            } => {
                self.play(sender, &game, number, &text, &marks, repeat.as_deref())
                    .await
            }
            Command::OfferDraw { game } => {
                self.act(sender, &game, Action::OfferDraw, "offer").await
            }
            Command::AcceptDraw { game } => {
                self.act(sender, &game, Action::AcceptDraw, "accept").await
            }
            Command::DeclineDraw { game } => {
                self.act(sender, &game, Action::DeclineDraw, "decline")
                    .await
            }
            Command::Resign { game } => self.act(sender, &game, Action::Resign, "resign").await,
            Command::Claim {
                game,
                claim,
                number,
                text,
            } => match self.refuse_if_linked(&game, "a draw claim") {
                Some(refused) => refused,
                None => {
                    self.claim(sender, &game, &claim, number, text.as_deref())
                        .await
                }
            },
            Command::Conditional { game, moves } => self.conditional(sender, &game, &moves).await,
            Command::Leave { first, days } => self.leave(sender, &first, &days).await,
            Command::Adjudicate {
                game,
                result,
                reason,
            } => match self.refuse_if_linked(&game, "an adjudication") {
                Some(refused) => refused,
                None => self.adjudicate(sender, &game, &result, &reason).await,
            },
            Command::Clock { set } => self.set_clock(sender, set.as_deref()).await,
            Command::PeerRefused {
                game,
                number,
                reason,
            } => self.peer_refused(sender, &game, number, &reason).await,
        }
    }

    /// The other node refused an action this node accepted: the record says so, and the
    /// player hears it. Only a link may say this.
    async fn peer_refused(
        &mut self,
        sender: &Sender,
        game_id: &str,
        number: u32,
        reason: &str,
    ) -> Pending {
        if sender.channel != "link" {
            return Pending::Now(Reply::new(403, "only a link reports refusals"));
        }
        if let Err(reply) = self.seat(sender, game_id) {
            return Pending::Now(reply);
        }
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Rejected,
            &format!("refused by the other node: action {number}"),
        );
        entry.detail = reason.to_owned();
        let body =
            format!("REFUSED {game_id} the other node refused your action {number}: {reason}");
        let record = Record {
            entry,
            outbox: vec![NewOutbox {
                player: sender.player.clone(),
                body,
            }],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => Pending::AfterCommit(committed, Reply::new(250, "refusal recorded")),
            Err(reply) => Pending::Now(reply),
        }
    }

    /// Whether `player` plays on another node, across a link.
    fn across_link(&self, player: &str) -> bool {
        self.players
            .get(player)
            .is_some_and(|p| matches!(p.reach, crate::config::Reach::Link(_)))
    }

    /// Refuses what the link does not carry yet in a game with a player across it: claims,
    /// leave and adjudication would be recorded on one node only.
    fn refuse_if_linked(&self, game_id: &str, what: &str) -> Option<Pending> {
        let game = self.games.get(game_id)?;
        (self.across_link(&game.white) || self.across_link(&game.black)).then(|| {
            Pending::Now(Reply::new(
                409,
                format!(
                    "{what} in game {game_id} is not carried over the link between nodes yet; the arbiters of both nodes decide"
                ),
            ))
        })
    }

    /// A new entry at the relay's time.
    fn entry(
        &self,
        game: &str,
        player: &str,
        channel: &str,
        kind: EntryKind,
        text: &str,
    ) -> NewEntry {
        let mut entry = NewEntry::new(game, player, channel, kind, text);
        entry.time = self.now;
        entry
    }

    /// `reply`, sent once everything queued before it is committed.
    async fn after_commit(&self, reply: Reply) -> Pending {
        match self.enqueue(Vec::new()).await {
            Ok(committed) => Pending::AfterCommit(committed, reply),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// The game and the sender's colour in it, or the reply refusing.
    fn seat(&self, sender: &Sender, game_id: &str) -> Result<Color, Reply> {
        let Some(game) = self.games.get(game_id) else {
            return Err(Reply::new(404, format!("no game {game_id:?}")));
        };
        game.side_of(&sender.player)
            .ok_or_else(|| Reply::new(403, format!("you do not play in game {game_id}")))
    }

    fn list_games(&self, sender: &Sender) -> Reply {
        let mut ids: Vec<&String> = self
            .games
            .iter()
            .filter(|(_, g)| sender.admin || g.side_of(&sender.player).is_some())
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        let mut lines = vec![format!("{} game(s)", ids.len())];
        for id in ids {
            lines.push(render::game_line(&self.games[id], &sender.player));
        }
        Reply::new(250, lines.join("\n"))
    }

    fn show(&self, sender: &Sender, game_id: &str) -> Reply {
        if !sender.admin
            && let Err(refusal) = self.seat(sender, game_id)
        {
            return refusal;
        }
        let Some(game) = self.games.get(game_id) else {
            return Reply::new(404, format!("no game {game_id:?}"));
        };
        let notation = self
            .players
            .get(&sender.player)
            .map_or(crate::notation::Notation::Iccf, |p| p.notation);
        Reply::new(250, render::show(game, notation, &sender.player, self.now))
    }

    async fn enqueue(&self, mut records: Vec<Record>) -> Result<Committed, Reply> {
        if let (Some(key), Some(first)) = (&self.key, records.first_mut()) {
            first.entry.key = Some(key.clone());
        }
        self.journal
            .enqueue(records)
            .await
            .map_err(|e| Reply::new(500, format!("not recorded: {e}")))
    }

    /// Journals a refused attempt by a player of the game, then replies with the refusal.
    async fn refuse(
        &self,
        sender: &Sender,
        game_id: &str,
        text: &str,
        refused: Refused,
    ) -> Pending {
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Rejected,
            text,
        );
        entry.detail = refused.reason.clone();
        match self
            .enqueue(vec![Record {
                entry,
                outbox: vec![],
            }])
            .await
        {
            Ok(committed) => {
                Pending::AfterCommit(committed, Reply::new(refused.code, refused.reason))
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    async fn play(
        &mut self,
        sender: &Sender,
        game_id: &str,
        number: Option<u32>,
        text: &str,
        marks: &[String],
        repeat: Option<&str>,
    ) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let written = std::iter::once(text)
            .chain(marks.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let lang = self.lang_of(&sender.player);
        let game = &self.games[game_id];
        let mut draw_offer = false;
        for mark in marks {
            match Marks::parse(mark) {
                Some(m) => draw_offer |= m.draw_offer,
                None => {
                    let refused = Refused {
                        code: 422,
                        reason: format!("not a move mark: {mark:?}"),
                    };
                    return self.refuse(sender, game_id, &written, refused).await;
                }
            }
        }
        if let Some(repeat) = repeat
            && let Err(refusal) = game.check_repeat(repeat, lang)
        {
            let refused = Refused {
                code: 409,
                reason: refusal.to_string(),
            };
            return self.refuse(sender, game_id, &written, refused).await;
        }
        let m = match game.check_move(color, text, number, lang) {
            Ok(read) => {
                draw_offer |= read.marks.draw_offer;
                read.m
            }
            Err(refusal) => {
                let code = match refusal {
                    Refusal::Move(_) => 422,
                    _ => 409,
                };
                return self
                    .refuse(
                        sender,
                        game_id,
                        &written,
                        Refused {
                            code,
                            reason: refusal.to_string(),
                        },
                    )
                    .await;
            }
        };

        let number = game.move_number();
        let iccf = Iccf::from_move(m).to_string();
        let own_text = self.written_for(&sender.player, game.position(), m);
        let owner = game.player(!color).to_owned();
        let owner_had_line = !game.conditional(!color).is_empty();
        let (mut after, mut record) =
            self.move_record(game, color, m, draw_offer, &written, sender.channel);
        let mut records = Vec::new();
        if let Some(answer) = after.conditional_reply() {
            // The opponent's conditional line expected this move: its answer is played at
            // once, at the same instant (it costs no time).
            let answer_number = after.move_number();
            let answer_text = self.written_for(&owner, after.position(), answer);
            let answer_iccf = Iccf::from_move(answer).to_string();
            let (answered, mut answer_record) = self.move_record(
                &after,
                !color,
                answer,
                false,
                &format!("conditional {answer_iccf}"),
                "conditional",
            );
            let left = answered.conditional(!color).len() / 2;
            answer_record.outbox.push(NewOutbox {
                player: owner.clone(),
                body: format!(
                    "CONDITIONAL {game_id} {answer_number}{} {} played from your line; {left} pair(s) left in it",
                    dots(!color),
                    render::with_numeric(&answer_text, &answer_iccf)
                ),
            });
            records.push(record);
            records.push(answer_record);
            after = answered;
        } else {
            if owner_had_line && after.conditional(!color).is_empty() {
                for out in &mut record.outbox {
                    out.body.push_str("; your conditional line is cancelled");
                }
            }
            records.push(record);
        }
        let mut reply = format!(
            "accepted {game_id} {number}{} {}",
            dots(color),
            render::with_numeric(&own_text, &iccf)
        );
        if draw_offer {
            reply.push_str(", draw offered");
        }
        if let Some(clocks) = render::clock_line(&after, self.now) {
            reply.push_str("; ");
            reply.push_str(&clocks);
        }
        self.commit(sender, after, records, reply).await
    }

    /// `m` (from `pos`) as `player` reads moves.
    fn written_for(&self, player: &str, pos: &Chess, m: Move) -> String {
        self.players.get(player).map_or_else(
            || Iccf::from_move(m).to_string(),
            |p| p.notation.write(pos, m),
        )
    }

    /// `color`'s move `m` in `game`: the game after it, and its record (an entry of `kind`,
    /// written `written`, arriving by `channel`) with the push telling the opponent, in the
    /// opponent's notation, with both clocks.
    #[allow(clippy::too_many_arguments)]
    fn move_record(
        &self,
        game: &Game,
        color: Color,
        m: Move,
        draw_offer: bool,
        written: &str,
        channel: &str,
    ) -> (Game, Record) {
        let before = game.position();
        let number = game.move_number();
        let player = game.player(color);
        let opponent = game.player(!color);
        let iccf = Iccf::from_move(m).to_string();
        let mut entry = self.entry(&game.id, player, channel, EntryKind::Move, written);
        entry.iccf = Some(iccf.clone());
        entry.san = Some(san::write(before, m, Lang::English));
        if draw_offer {
            entry.detail = DRAW_OFFER.to_owned();
        }
        let mut after = game.clone();
        after.apply_by(color, &Action::Move { m, draw_offer }, self.now);
        let opponent_text = self.written_for(opponent, before, m);
        let mut body = render::move_push(&after, color, number, &opponent_text, &iccf, draw_offer);
        // One line per move relayed, for the operator: never the text or anything secret.
        tracing::info!(
            game = %game.id,
            ply = game.moves().len() + 1,
            iccf = %iccf,
            from = %player,
            to = %opponent,
            channel_in = %channel,
            channel_out = %self.players.get(opponent).map_or("none".to_owned(), |p| match &p.reach {
                crate::config::Reach::Tcp => "tcp".to_owned(),
                crate::config::Reach::Email => "email".to_owned(),
                crate::config::Reach::Link(id) => format!("link:{id}"),
            }),
            "move relayed"
        );
        if let Some(clocks) = render::clock_line(&after, self.now) {
            body.push_str("; ");
            body.push_str(&clocks);
        }
        let record = Record {
            entry,
            outbox: vec![NewOutbox {
                player: opponent.to_owned(),
                body,
            }],
        };
        (after, record)
    }

    /// Queues the records (and the result, if `after` has one) and, once queued, makes `after`
    /// the game's state; `reply` goes out when they are committed.
    async fn commit(
        &mut self,
        sender: &Sender,
        after: Game,
        records: Vec<Record>,
        reply: String,
    ) -> Pending {
        self.commit_many(sender, vec![after], records, reply).await
    }

    /// [`State::commit`] for several games at once (leave is taken in all a player's games).
    async fn commit_many(
        &mut self,
        sender: &Sender,
        afters: Vec<Game>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        for after in &afters {
            let before = self.games.get(&after.id).and_then(Game::result);
            if let Some(result) = after.result()
                && before != Some(result)
            {
                records.push(self.result_record(after, result, sender));
                reply.push_str(&format!("; game over: {result}"));
            }
        }
        match self.enqueue(records).await {
            Ok(committed) => {
                for after in afters {
                    self.games.insert(after.id.clone(), after);
                }
                Pending::AfterCommit(committed, Reply::new(250, reply))
            }
            Err(refused) => Pending::Now(refused),
        }
    }

    /// Applies what the clock requires of one game now: a loss on time or a flag for the
    /// arbiter, and reminders. Journaled like any action, by the channel `clock`.
    async fn settle(&mut self, game_id: &str) {
        for _ in 0..4 {
            let Some(game) = self.games.get(game_id) else {
                return;
            };
            let Some(due) = game.due(self.now) else {
                return;
            };
            let due_color = match &due {
                Due::TimeUp { color, .. } | Due::Remind { color, .. } => *color,
            };
            if self.across_link(game.player(due_color)) {
                // A player across a link is timed by their own node.
                return;
            }
            let (color, action, kind, detail, text) = match due {
                Due::TimeUp { color, overdue } => {
                    let forfeit = game.rules().on_timeout == OnTimeout::Forfeit;
                    let detail = serde_json::to_string(&TimeUpDetail { overdue, forfeit })
                        .unwrap_or_default();
                    (
                        color,
                        Action::TimeUp { overdue, forfeit },
                        EntryKind::TimeUp,
                        detail,
                        overdue.to_string(),
                    )
                }
                Due::Remind { color, days } => (
                    color,
                    Action::Remind { days },
                    EntryKind::Reminder,
                    days.to_string(),
                    format!("reminder after {days} days"),
                ),
            };
            let player = game.player(color).to_owned();
            let opponent = game.player(!color).to_owned();
            let side = ColorName(color);
            let mut after = game.clone();
            after.apply_by(color, &action, self.now);
            let clocks = render::clock_line(&after, self.now).unwrap_or_default();
            let outbox = match &action {
                Action::TimeUp { overdue, forfeit: true } => [&player, &opponent]
                    .map(|p| NewOutbox {
                        player: p.clone(),
                        body: format!("TIME {game_id} {player} ({side}): {overdue}, lost on time; {clocks}"),
                    })
                    .to_vec(),
                Action::TimeUp { overdue, .. } => [&player, &opponent, &"admin".to_owned()]
                    .map(|p| NewOutbox {
                        player: p.clone(),
                        body: format!(
                            "TIME {game_id} {player} ({side}): {overdue}; the arbiter decides; {clocks}"
                        ),
                    })
                    .to_vec(),
                _ => vec![NewOutbox {
                    player: player.clone(),
                    body: format!(
                        "REMINDER {game_id}: your move has waited {}; {clocks}",
                        text.trim_start_matches("reminder after ")
                    ),
                }],
            };
            let mut entry = self.entry(game_id, &player, "clock", kind, &text);
            entry.detail = detail;
            let sender = Sender {
                player: player.clone(),
                admin: false,
                channel: "clock",
            };
            tracing::info!(game = game_id, player, what = text, "clock");
            // Queued in order before anything that follows; its commit is awaited by them.
            let _ = self
                .commit(
                    &sender,
                    after,
                    vec![Record { entry, outbox }],
                    String::new(),
                )
                .await;
        }
    }

    /// Checks every game's clock.
    async fn tick(&mut self) {
        self.now = self.now.max(self.clock.now());
        let mut ids: Vec<String> = self
            .games
            .iter()
            .filter(|(_, g)| g.result().is_none())
            .map(|(id, _)| id.clone())
            .collect();
        ids.sort();
        for id in ids {
            self.settle(&id).await;
        }
    }

    async fn claim(
        &mut self,
        sender: &Sender,
        game_id: &str,
        claim: &str,
        number: Option<u32>,
        text: Option<&str>,
    ) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let written = match text {
            Some(text) => format!("claim {claim} {text}"),
            None => format!("claim {claim}"),
        };
        let claim: Claim = match claim.parse() {
            Ok(claim) => claim,
            Err(e) => return Pending::Now(Reply::new(400, e)),
        };
        let game = &self.games[game_id];
        let m = match text {
            None => None,
            Some(text) => {
                match game.check_move(color, text, number, self.lang_of(&sender.player)) {
                    Ok(read) => Some(read.m),
                    Err(refusal) => {
                        let code = if matches!(refusal, Refusal::Move(_)) {
                            422
                        } else {
                            409
                        };
                        let refused = Refused {
                            code,
                            reason: refusal.to_string(),
                        };
                        return self.refuse(sender, game_id, &written, refused).await;
                    }
                }
            }
        };
        let action = Action::Claim { claim, m };
        if let Err(refusal) = game.check(color, &action, self.now) {
            let refused = Refused {
                code: 409,
                reason: refusal.to_string(),
            };
            return self.refuse(sender, game_id, &written, refused).await;
        }
        let opponent = game.player(!color).to_owned();
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Claim,
            &written,
        );
        entry.detail = claim.as_str().to_owned();
        let mut body = format!(
            "CLAIM {game_id} {} ({}) claims a draw ({})",
            sender.player,
            ColorName(color),
            claim.as_str()
        );
        if let Some(m) = m {
            let iccf = Iccf::from_move(m).to_string();
            entry.iccf = Some(iccf.clone());
            entry.san = Some(san::write(game.position(), m, Lang::English));
            let text = self.written_for(&opponent, game.position(), m);
            body.push_str(&format!(
                " with {}{} {}",
                game.move_number(),
                dots(color),
                render::with_numeric(&text, &iccf)
            ));
        }
        let mut after = game.clone();
        after.apply_by(color, &action, self.now);
        let records = vec![Record {
            entry,
            outbox: vec![NewOutbox {
                player: opponent,
                body,
            }],
        }];
        let reply = format!("claim accepted {game_id}");
        self.commit(sender, after, records, reply).await
    }

    async fn conditional(
        &mut self,
        sender: &Sender,
        game_id: &str,
        moves: &[(Option<u32>, String)],
    ) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let written = if moves.is_empty() {
            "cancel".to_owned()
        } else {
            moves
                .iter()
                .map(|(number, text)| match number {
                    Some(n) => format!("{n}. {text}"),
                    None => text.clone(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let game = &self.games[game_id];
        let line = match game.read_conditional(color, moves, self.lang_of(&sender.player)) {
            Ok(line) => line,
            Err(refusal) => {
                let code = match refusal {
                    Refusal::Move(_) | Refusal::Conditional(_) => 422,
                    _ => 409,
                };
                let refused = Refused {
                    code,
                    reason: refusal.to_string(),
                };
                return self.refuse(sender, game_id, &written, refused).await;
            }
        };
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Conditional,
            &written,
        );
        entry.detail = line
            .iter()
            .map(|m| Iccf::from_move(*m).to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let reply = if line.is_empty() {
            format!("conditional line cancelled {game_id}")
        } else {
            let notation = self
                .players
                .get(&sender.player)
                .map_or(crate::notation::Notation::Iccf, |p| p.notation);
            format!(
                "conditional line set {game_id}: {}",
                render::line_text(game, &line, notation)
            )
        };
        let mut after = game.clone();
        after.apply_by(color, &Action::Conditional(line), self.now);
        // Never shown to the opponent: no message, only the journal entry.
        self.commit(
            sender,
            after,
            vec![Record {
                entry,
                outbox: vec![],
            }],
            reply,
        )
        .await
    }

    async fn leave(&mut self, sender: &Sender, first: &str, days: &str) -> Pending {
        if sender.admin {
            return Pending::Now(Reply::new(403, "leave is a player's"));
        }
        let first: jiff::civil::Date = match first.parse() {
            Ok(date) => date,
            Err(_) => {
                return Pending::Now(Reply::new(
                    400,
                    format!("{first:?} is not a date (YYYY-MM-DD)"),
                ));
            }
        };
        let days: u32 = match days.parse() {
            Ok(days) if (1..=366).contains(&days) => days,
            _ => {
                return Pending::Now(Reply::new(
                    400,
                    format!("{days:?} is not a number of days (1 to 366)"),
                ));
            }
        };
        let leave = Leave { first, days };
        let mut ids: Vec<&String> = self
            .games
            .iter()
            .filter(|(_, g)| g.result().is_none() && g.side_of(&sender.player).is_some())
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        if ids.is_empty() {
            return Pending::Now(Reply::new(
                409,
                "you have no game in progress to take leave from",
            ));
        }
        if let Some(refused) = ids.iter().find_map(|id| self.refuse_if_linked(id, "leave")) {
            return refused;
        }
        let written = format!("leave {first} {days}");
        // Leave is the player's: checked against all of it, in every game, finished or not.
        let taken = self.leave_of(&sender.player);
        for id in &ids {
            let game = &self.games[*id];
            let color = game.side_of(&sender.player).unwrap_or(Color::White);
            let per_year = game.rules().leave_days_per_year;
            let checked = crate::game::clock::check_leave(&taken, leave, self.now, per_year)
                .map_err(Refusal::Leave)
                .and_then(|()| game.check(color, &Action::Leave(leave), self.now));
            if let Err(refusal) = checked {
                let refused = Refused {
                    code: 409,
                    reason: format!("game {id}: {refusal}"),
                };
                let id = (*id).clone();
                return self.refuse(sender, &id, &written, refused).await;
            }
        }
        let mut afters = Vec::new();
        let mut records = Vec::new();
        for id in &ids {
            let game = &self.games[*id];
            let color = game.side_of(&sender.player).unwrap_or(Color::White);
            let mut entry = self.entry(
                id,
                &sender.player,
                sender.channel,
                EntryKind::Leave,
                &written,
            );
            entry.detail = serde_json::to_string(&leave).unwrap_or_default();
            let body = format!(
                "LEAVE {id} {} ({}) is on leave {leave}: their clock stops",
                sender.player,
                ColorName(color)
            );
            records.push(Record {
                entry,
                outbox: vec![NewOutbox {
                    player: game.player(!color).to_owned(),
                    body,
                }],
            });
            let mut after = game.clone();
            after.apply_by(color, &Action::Leave(leave), self.now);
            afters.push(after);
        }
        let reply = format!(
            "leave {leave} in {}",
            ids.iter()
                .map(|id| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        self.commit_many(sender, afters, records, reply).await
    }

    /// Every leave `player` has announced, in any game.
    fn leave_of(&self, player: &str) -> Vec<Leave> {
        let mut all: Vec<Leave> = Vec::new();
        for game in self.games.values() {
            if let Some(color) = game.side_of(player) {
                for leave in game.timeline().leave_of(color) {
                    if !all.contains(leave) {
                        all.push(*leave);
                    }
                }
            }
        }
        all
    }

    async fn adjudicate(
        &mut self,
        sender: &Sender,
        game_id: &str,
        result: &str,
        reason: &str,
    ) -> Pending {
        if !sender.admin {
            return Pending::Now(Reply::new(403, "only the arbiter (admin) adjudicates"));
        }
        let Some(game) = self.games.get(game_id) else {
            return Pending::Now(Reply::new(404, format!("no game {game_id:?}")));
        };
        let Some(winner) = GameResult::winner_from_pgn(result) else {
            return Pending::Now(Reply::new(
                400,
                format!("{result:?}: say 1-0, 0-1 or 1/2-1/2"),
            ));
        };
        let mut decided = GameResult::new(winner, EndReason::Adjudication);
        decided.note = Some(reason.to_owned());
        let action = Action::Adjudicate(decided.clone());
        if let Err(refusal) = game.check(game.turn(), &action, self.now) {
            return Pending::Now(Reply::new(409, refusal.to_string()));
        }
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Adjudication,
            reason,
        );
        entry.detail = serde_json::to_string(&AdjudicationDetail {
            result: decided.pgn().to_owned(),
            reason: reason.to_owned(),
        })
        .unwrap_or_default();
        let mut after = game.clone();
        after.apply_by(game.turn(), &action, self.now);
        let record = Record {
            entry,
            outbox: vec![],
        };
        self.commit(
            sender,
            after,
            vec![record],
            format!("adjudicated {game_id}"),
        )
        .await
    }

    async fn set_clock(&mut self, sender: &Sender, set: Option<&str>) -> Pending {
        if !sender.admin {
            return Pending::Now(Reply::new(403, "only the admin sets the clock"));
        }
        let Clock::Manual(current) = self.clock else {
            if set.is_none() {
                return Pending::Now(Reply::new(250, format!("clock {} (system)", self.now)));
            }
            return Pending::Now(Reply::new(
                403,
                "the clock is the system clock; only [clock] mode = \"manual\" can be set",
            ));
        };
        let Some(set) = set else {
            return Pending::Now(Reply::new(250, format!("clock {current} (manual)")));
        };
        let target = match parse_clock_setting(current, set) {
            Ok(t) => t,
            Err(e) => return Pending::Now(Reply::new(400, e)),
        };
        if target < current {
            return Pending::Now(Reply::new(
                409,
                format!("the clock never goes back: it is {current}"),
            ));
        }
        self.clock = Clock::Manual(target);
        self.tick().await;
        self.after_commit(Reply::new(250, format!("clock {}", self.now)))
            .await
    }

    fn result_record(
        &self,
        game: &Game,
        result: &crate::game::GameResult,
        sender: &Sender,
    ) -> Record {
        let mut entry = self.entry(
            &game.id,
            &sender.player,
            sender.channel,
            EntryKind::Result,
            result.pgn(),
        );
        entry.detail = result.to_string();
        let body = format!("RESULT {} {result}", game.id);
        Record {
            entry,
            outbox: [&game.white, &game.black]
                .into_iter()
                .map(|p| NewOutbox {
                    player: p.clone(),
                    body: body.clone(),
                })
                .collect(),
        }
    }

    async fn act(&mut self, sender: &Sender, game_id: &str, action: Action, word: &str) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let game = &self.games[game_id];
        if let Err(refusal) = game.check(color, &action, self.now) {
            return self
                .refuse(
                    sender,
                    game_id,
                    word,
                    Refused {
                        code: 409,
                        reason: refusal.to_string(),
                    },
                )
                .await;
        }
        let kind = match action {
            Action::OfferDraw => EntryKind::DrawOffer,
            Action::AcceptDraw => EntryKind::DrawAccept,
            Action::DeclineDraw => EntryKind::DrawDecline,
            _ => EntryKind::Resign,
        };
        let opponent = game.player(!color).to_owned();
        let mut after = game.clone();
        after.apply_by(color, &action, self.now);
        let side = ColorName(color);
        let body = match action {
            Action::OfferDraw => format!("DRAW {game_id} offered by {} ({side})", sender.player),
            Action::AcceptDraw => format!("DRAW {game_id} accepted by {} ({side})", sender.player),
            Action::DeclineDraw => format!("DRAW {game_id} declined by {} ({side})", sender.player),
            _ => format!("RESIGN {game_id} {} ({side}) resigns", sender.player),
        };
        let entry = self.entry(game_id, &sender.player, sender.channel, kind, word);
        let records = vec![Record {
            entry,
            outbox: vec![NewOutbox {
                player: opponent,
                body,
            }],
        }];
        let reply = format!("{} {game_id}", kind.as_str().replace('_', " "));
        self.commit(sender, after, records, reply).await
    }

    /// Starts a game; `detail` without rules: they come from its event.
    async fn create(
        &mut self,
        sender: &Sender,
        game_id: String,
        mut detail: GameStartDetail,
    ) -> Pending {
        if !sender.admin {
            return Pending::Now(Reply::new(403, "only the admin creates games"));
        }
        if !valid_id(&game_id) {
            return Pending::Now(Reply::new(
                400,
                format!("{game_id:?} is not a game id (letters, digits, '-', '_', '.')"),
            ));
        }
        if self.games.contains_key(&game_id) {
            return Pending::Now(Reply::new(409, format!("game {game_id} exists already")));
        }
        let (white, black) = (detail.white.clone(), detail.black.clone());
        for player in [&white, &black] {
            if !self.players.contains_key(player) {
                return Pending::Now(Reply::new(404, format!("no player {player:?}")));
            }
        }
        if white == black {
            return Pending::Now(Reply::new(400, "a player cannot play themself"));
        }
        let rules = match &detail.event {
            None => Rules::default(),
            Some(id) => match self.events.get(id) {
                Some(event) => event.rules.clone(),
                None => return Pending::Now(Reply::new(404, format!("no event {id:?}"))),
            },
        };
        detail.rules = Some(rules);
        // Leave already announced covers a game started during it.
        let today = crate::game::clock::date_of(self.now);
        let current = |player: &str| -> Vec<Leave> {
            self.leave_of(player)
                .into_iter()
                .filter(|l| l.last() >= today)
                .collect()
        };
        detail.leave = [current(&white), current(&black)];
        let game = match detail.game(&game_id, self.now) {
            Ok(game) => game,
            Err(e) => return Pending::Now(Reply::new(400, format!("bad FEN: {e}"))),
        };
        let mut entry = self.entry(
            &game_id,
            &sender.player,
            sender.channel,
            EntryKind::GameStart,
            "",
        );
        entry.detail = serde_json::to_string(&detail).unwrap_or_default();
        let outbox = [
            (&white, Color::White, &black),
            (&black, Color::Black, &white),
        ]
        .into_iter()
        .map(|(player, color, opponent)| NewOutbox {
            player: player.clone(),
            body: format!(
                "GAME {game_id} started: you play {} against {opponent}",
                ColorName(color)
            ),
        })
        .collect();
        match self.enqueue(vec![Record { entry, outbox }]).await {
            Ok(committed) => {
                self.games.insert(game_id.clone(), game);
                Pending::AfterCommit(
                    committed,
                    Reply::new(
                        250,
                        format!("created {game_id}: {white} (White) - {black} (Black)"),
                    ),
                )
            }
            Err(reply) => Pending::Now(reply),
        }
    }
}
