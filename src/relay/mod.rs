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

use shakmaty::Color;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::config::{Config, Player, valid_id};
use crate::game::{Action, ColorName, Game, Refusal};
use crate::journal::replay::{DRAW_OFFER, GameStartDetail, JournaledGame};
use crate::journal::{Committed, EntryKind, Journal, JournalError, NewEntry, NewOutbox, Record};
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
    /// Admin: start a game.
    Create {
        game: String,
        white: String,
        black: String,
        event: Option<String>,
        fen: Option<String>,
    },
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
        games: BTreeMap<String, JournaledGame>,
        queue: usize,
        failed: CancellationToken,
    ) -> Result<Relay, JournalError> {
        let mut state = State {
            games: games.into_iter().map(|(id, g)| (id, g.game)).collect(),
            players: config.players.clone(),
            journal,
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
        let task = tokio::spawn(async move {
            while let Some(request) = rx.recv().await {
                state.key = request.key;
                let pending = state.handle(&request.sender, request.command).await;
                state.key = None;
                let _ = request.reply.send(pending);
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

struct State {
    games: HashMap<String, Game>,
    players: BTreeMap<String, Player>,
    journal: Journal,
    /// The idempotency key of the request being handled, recorded with its first entry.
    key: Option<String>,
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
            } => self.create(sender, game, white, black, event, fen).await,
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
        }
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
        Reply::new(250, render::show(game, notation))
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
        let mut entry = NewEntry::new(
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

        let before = game.position().clone();
        let number = game.move_number();
        let opponent = game.player(!color).to_owned();
        let iccf = Iccf::from_move(m).to_string();
        let san_en = san::write(&before, m, Lang::English);
        let mut entry = NewEntry::new(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Move,
            &written,
        );
        entry.iccf = Some(iccf.clone());
        entry.san = Some(san_en);
        if draw_offer {
            entry.detail = DRAW_OFFER.to_owned();
        }
        let mut after = game.clone();
        after.apply_by(color, &Action::Move { m, draw_offer });
        let opponent_text = self
            .players
            .get(&opponent)
            .map_or_else(|| iccf.clone(), |p| p.notation.write(&before, m));
        let body = render::move_push(&after, color, number, &opponent_text, &iccf, draw_offer);
        let records = vec![Record {
            entry,
            outbox: vec![NewOutbox {
                player: opponent.clone(),
                body,
            }],
        }];
        let own_text = self
            .players
            .get(&sender.player)
            .map_or_else(|| iccf.clone(), |p| p.notation.write(&before, m));
        let dots = if color == Color::White { "." } else { "..." };
        let mut reply = format!(
            "accepted {game_id} {number}{dots} {}",
            render::with_numeric(&own_text, &iccf)
        );
        if draw_offer {
            reply.push_str(", draw offered");
        }
        self.commit(sender, after, records, reply).await
    }

    /// Queues the records (and the result, if `after` has one) and, once queued, makes `after`
    /// the game's state; `reply` goes out when they are committed.
    async fn commit(
        &mut self,
        sender: &Sender,
        after: Game,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        if let Some(result) = after.result() {
            records.push(self.result_record(&after, result, sender));
            reply.push_str(&format!("; game over: {result}"));
        }
        match self.enqueue(records).await {
            Ok(committed) => {
                self.games.insert(after.id.clone(), after);
                Pending::AfterCommit(committed, Reply::new(250, reply))
            }
            Err(refused) => Pending::Now(refused),
        }
    }

    fn result_record(
        &self,
        game: &Game,
        result: &crate::game::GameResult,
        sender: &Sender,
    ) -> Record {
        let mut entry = NewEntry::new(
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
        if let Err(refusal) = game.check(color, &action) {
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
        after.apply_by(color, &action);
        let side = ColorName(color);
        let body = match action {
            Action::OfferDraw => format!("DRAW {game_id} offered by {} ({side})", sender.player),
            Action::AcceptDraw => format!("DRAW {game_id} accepted by {} ({side})", sender.player),
            Action::DeclineDraw => format!("DRAW {game_id} declined by {} ({side})", sender.player),
            _ => format!("RESIGN {game_id} {} ({side}) resigns", sender.player),
        };
        let entry = NewEntry::new(game_id, &sender.player, sender.channel, kind, word);
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

    async fn create(
        &mut self,
        sender: &Sender,
        game_id: String,
        white: String,
        black: String,
        event: Option<String>,
        fen: Option<String>,
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
        for player in [&white, &black] {
            if !self.players.contains_key(player) {
                return Pending::Now(Reply::new(404, format!("no player {player:?}")));
            }
        }
        if white == black {
            return Pending::Now(Reply::new(400, "a player cannot play themself"));
        }
        let game = match Game::new(&game_id, &white, &black, fen.as_deref()) {
            Ok(game) => game,
            Err(e) => return Pending::Now(Reply::new(400, format!("bad FEN: {e}"))),
        };
        let detail = GameStartDetail {
            white: white.clone(),
            black: black.clone(),
            event,
            fen,
        };
        let mut entry = NewEntry::new(
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
