//! The relay's state: every game, the players and events it knows, and the commit of what
//! a command changes (journal records queued in order, then the in-memory games).

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use shakmaty::Color;

use crate::config::{Event, Player};
use crate::game::{Action, Board, Game, Ply, Refusal};
use crate::journal::replay::GameStartDetail;
use crate::journal::{Committed, EntryKind, Journal, NewEntry, NewOutbox, Record};
use crate::notation::Lang;

use super::notice::Notice;
use super::role::Role;
use super::{Channel, Command, Pending, Reply, Sender, Status, render};

/// Where the relay's time comes from.
pub(super) enum Clock {
    System,
    /// Set by the admin's `CLOCK` command only (tests, demonstrations).
    Manual(Timestamp),
}

impl Clock {
    /// The time, in whole seconds: the unit a link carries, so that both nodes of a link
    /// record the same times.
    pub(super) fn now(&self) -> Timestamp {
        whole_seconds(match self {
            Clock::System => Timestamp::now(),
            Clock::Manual(at) => *at,
        })
    }
}

pub(super) struct State {
    /// Boxed: the table keeps room for more games than it holds, and a slot is then a pointer,
    /// not a whole game.
    pub(super) games: HashMap<String, Box<Game>>,
    /// What each game's record holds beside its moves (event, round, messages).
    pub(super) facts: HashMap<String, super::facts::GameFacts>,
    pub(super) players: std::sync::Arc<BTreeMap<String, Player>>,
    /// Whether any player is reached across a link: without one, no game is played across a
    /// link, and asking costs nothing on the way of every move.
    pub(super) anyone_across_link: bool,
    pub(super) events: BTreeMap<String, Event>,
    pub(super) journal: Journal,
    pub(super) clock: Clock,
    /// The time of what is being handled: every entry it writes carries it. Never goes back,
    /// even if the system clock does.
    pub(super) now: Timestamp,
    /// The idempotency key of the request being handled, recorded with its first entry.
    pub(super) key: Option<String>,
    /// The text of the request being handled, as received: what its entries record.
    pub(super) said: String,
    /// How long ago the action being handled was made, if on another node (see
    /// [`super::Said::age`]).
    pub(super) age: Option<jiff::SignedDuration>,
    /// How far each game's record and proposals have gone, for the links.
    pub(super) ledgers: HashMap<String, crate::journal::replay::Ledger>,
    /// The players as every transport sees them (published on each change to `players`).
    pub(super) roster: super::Roster,
    /// The players and events registered while the relay runs, as the record holds them.
    pub(super) registry: crate::journal::registry::Registry,
    /// Whether the relay sends mail (an `[email]` section): a player can be reached by mail.
    pub(super) can_mail: bool,
}

/// The outbox row telling `player` of `notice`.
pub(super) fn notice_for(player: &str, notice: &Notice) -> NewOutbox {
    NewOutbox {
        player: player.to_owned(),
        body: notice.to_body(),
        sensitive: notice.holds_secret(),
    }
}

/// `at` without its fraction of a second (see [`Clock::now`]).
pub(super) fn whole_seconds(at: Timestamp) -> Timestamp {
    Timestamp::from_second(at.as_second()).unwrap_or(at)
}

/// Whether `command`, by a local player or the arbiter in a game the other node keeps, is
/// sent there as a proposal: everything that acts on the game. (A conditional line stays on
/// its player's node, which plays it.)
fn goes_as_proposal(command: &Command) -> bool {
    matches!(
        command,
        Command::Move { .. }
            | Command::OfferDraw { .. }
            | Command::AcceptDraw { .. }
            | Command::DeclineDraw { .. }
            | Command::Resign { .. }
            | Command::Claim { .. }
            | Command::Adjudicate { .. }
            | Command::Message { .. }
    )
}

pub(super) fn dots(color: Color) -> &'static str {
    if color == Color::White { "." } else { "..." }
}

/// A refusal worth journaling: the player plays in the game.
pub(super) struct Refused {
    pub(super) status: Status,
    pub(super) reason: String,
}

impl From<Refusal> for Refused {
    /// A move or a conditional line that cannot be read or played is `422`; anything else the
    /// game's state refuses is `409`.
    fn from(refusal: Refusal) -> Refused {
        let status = match refusal {
            Refusal::Move(_) | Refusal::Conditional(_) => Status::BadMove,
            _ => Status::Refused,
        };
        Refused {
            status,
            reason: refusal.to_string(),
        }
    }
}

impl State {
    /// Moves the relay's time to the clock's; it never goes back, even if the system clock
    /// does.
    pub(super) fn catch_up(&mut self) {
        self.now = self.now.max(self.clock.now());
    }

    pub(super) fn lang_of(&self, player: &str) -> Option<Lang> {
        self.players.get(player).and_then(|p| p.lang)
    }

    /// Handles a command and, once it is carried out, the message sent with it: the reply
    /// waits for both to be committed (commits are in order, so the later covers both).
    pub(super) async fn handle_with_message(
        &mut self,
        sender: &Sender,
        command: Command,
        message: Option<String>,
    ) -> Pending {
        let game = command.game().map(str::to_owned);
        let pending = self.handle(sender, command).await;
        let (Some(text), Some(game)) = (message, game) else {
            return pending;
        };
        match pending {
            Pending::AfterCommit(_, reply) if reply.status.is_success() => {
                self.key = None;
                self.said = format!("MSG {game} {text}");
                match self.message_noted(sender, &game, &text).await {
                    Pending::AfterCommit(committed, sent) if sent.status.is_success() => {
                        let text = format!("{}\n{}", reply.text, sent.text);
                        Pending::AfterCommit(committed, Reply::new(reply.status, text))
                    }
                    // The command stands; the message could not be sent: say so.
                    Pending::AfterCommit(committed, refused) => {
                        let text = format!("{}\nmessage not sent: {}", reply.text, refused.text);
                        Pending::AfterCommit(committed, Reply::new(reply.status, text))
                    }
                    other => other,
                }
            }
            other => other,
        }
    }

    pub(super) async fn handle(&mut self, sender: &Sender, command: Command) -> Pending {
        self.catch_up();
        // The clock acts first: a move that comes after its side's time ran out is too late.
        if let Some(game) = command.game() {
            let game = game.to_owned();
            self.settle(&game).await;
        }
        if let Some(game) = command.game().map(str::to_owned)
            && let Some(role) = self.role(&game)
        {
            match (role, sender.channel == Channel::Link) {
                (Role::Replica { .. }, false) if goes_as_proposal(&command) => {
                    return self.propose(sender, &game, command).await;
                }
                (Role::Replica { .. }, true) if !matches!(command, Command::PeerRefused { .. }) => {
                    return Pending::Now(Reply::new(
                        Status::Refused,
                        format!(
                            "this node does not keep game {game}'s record: the other node does"
                        ),
                    ));
                }
                _ => {}
            }
        }
        // An action another node made: recorded at the time it was made there.
        let saved = self.now;
        if let (Some(age), Some(game)) = (self.age.take(), command.game()) {
            let at = self.now.checked_sub(age).unwrap_or(Timestamp::UNIX_EPOCH);
            self.now = self.time_of_proposal(game, whole_seconds(at));
        }
        // (A refusal of a refusal stays unjournaled: there is no action of that node's.)
        let game = match command {
            Command::PeerRefused { .. } => None,
            _ => command.game().map(str::to_owned),
        };
        let mut pending = self.dispatch(sender, command).await;
        // Every refusal of another node's action in a game here is journaled (with the
        // action's id): that is what carries the refusal back to that node, durably.
        if let (Pending::Now(reply), Some(game), Channel::Link) = (&pending, &game, sender.channel)
            && reply.status.is_final()
            && !reply.status.is_success()
            && self.games.contains_key(game.as_str())
        {
            let refused = Refused {
                status: reply.status,
                reason: reply.text.clone(),
            };
            pending = self.refuse(sender, game, refused).await;
        }
        self.now = self.now.max(saved);
        pending
    }

    async fn dispatch(&mut self, sender: &Sender, command: Command) -> Pending {
        match command {
            // What is shown includes moves still being committed: answer once they are on disk.
            Command::Games => self.after_commit(self.list_games(sender)).await,
            Command::Show { game } => self.after_commit(self.show(sender, &game)).await,
            Command::Create {
                game,
                white,
                black,
                kind,
                event,
                fen,
                round,
            } => {
                let kind = kind
                    .or_else(|| Some(self.events.get(event.as_deref()?)?.game))
                    .unwrap_or_default();
                let detail = GameStartDetail {
                    kind,
                    white,
                    black,
                    event,
                    fen,
                    rules: None,
                    round,
                    board: None,
                    leave: Default::default(),
                    authority: Default::default(),
                };
                self.start(sender, game, detail).await
            }
            Command::Move { game, line } => self.play(sender, &game, line).await,
            Command::OfferDraw { game } => self.act(sender, &game, Action::OfferDraw).await,
            Command::AcceptDraw { game } => self.act(sender, &game, Action::AcceptDraw).await,
            Command::DeclineDraw { game } => self.act(sender, &game, Action::DeclineDraw).await,
            Command::Resign { game } => self.act(sender, &game, Action::Resign).await,
            Command::Claim { game, claim, with } => self.claim(sender, &game, claim, with).await,
            Command::Conditional { game, moves } => self.conditional(sender, &game, &moves).await,
            Command::Leave { first, days } => self.leave(sender, first, days).await,
            Command::Adjudicate {
                game,
                score,
                reason,
            } => self.adjudicate(sender, &game, score, &reason).await,
            Command::Clock { set } => self.set_clock(sender, set).await,
            // Answered by the relay's handle, before it reaches the games.
            Command::Dead { .. } => Pending::Now(Reply::new(
                Status::BadCommand,
                "DEAD is answered by the relay's handle",
            )),
            Command::Receipt { entry } => match self.journal.ask_receipt(entry).await {
                Ok(answer) => Pending::Receipt(entry, answer),
                Err(e) => Pending::Now(Reply::not_recorded(&e)),
            },
            Command::Message { game, text } => self.message_noted(sender, &game, &text).await,
            Command::PeerRefused {
                game,
                number,
                reason,
            } => self.peer_refused(sender, &game, number, &reason).await,
            Command::Player { id, action, fields } => {
                self.player(sender, &id, action, &fields).await
            }
            Command::Players => self.after_commit(self.list_players(sender)).await,
            Command::Secret { secret } => self.own_secret(sender, &secret).await,
            Command::Event { id, action } => self.event(sender, &id, action).await,
            Command::Events => self.after_commit(self.list_events(sender)).await,
        }
    }

    /// A new entry at the relay's time.
    pub(super) fn entry(
        &self,
        game: &str,
        player: &str,
        channel: Channel,
        kind: EntryKind,
        text: &str,
    ) -> NewEntry {
        let mut entry = NewEntry::new(game, player, channel.as_str(), kind, text);
        entry.time = self.now;
        entry
    }

    /// An entry by the sender of the request being handled, recording what they said.
    pub(super) fn said_entry(&self, sender: &Sender, game: &str, kind: EntryKind) -> NewEntry {
        self.entry(game, &sender.player, sender.channel, kind, &self.said)
    }

    /// `reply`, sent once everything queued before it is committed.
    pub(super) async fn after_commit(&mut self, reply: Reply) -> Pending {
        match self.enqueue(Vec::new()).await {
            Ok(committed) => Pending::AfterCommit(committed, reply),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// The game and the sender's colour in it, or the reply refusing.
    pub(super) fn seat(&self, sender: &Sender, game_id: &str) -> Result<Color, Reply> {
        let Some(game) = self.games.get(game_id) else {
            return Err(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
        };
        game.side_of(&sender.player).ok_or_else(|| {
            Reply::new(
                Status::Forbidden,
                format!("you do not play in game {game_id}"),
            )
        })
    }

    pub(super) fn list_games(&self, sender: &Sender) -> Reply {
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
        Reply::new(Status::Done, lines.join("\n"))
    }

    pub(super) fn show(&self, sender: &Sender, game_id: &str) -> Reply {
        if !sender.admin
            && let Err(refusal) = self.seat(sender, game_id)
        {
            return refusal;
        }
        let Some(game) = self.games.get(game_id) else {
            return Reply::new(Status::NotFound, format!("no game {game_id:?}"));
        };
        let notation = self
            .players
            .get(&sender.player)
            .map_or(crate::notation::Notation::Iccf, |p| p.notation);
        Reply::new(
            Status::Done,
            render::show(game, notation, &sender.player, self.now),
        )
    }

    pub(super) async fn enqueue(&mut self, mut records: Vec<Record>) -> Result<Committed, Reply> {
        if let (Some(key), Some(first)) = (&self.key, records.first_mut()) {
            first.entry.key = Some(key.clone());
        }
        for record in &mut records {
            self.count_and_route(record);
        }
        // A player whose client asks (XFCC) is pushed nothing: no outbox rows wait for them.
        for record in &mut records {
            record.outbox.retain(|row| {
                self.players
                    .get(&row.player)
                    .is_none_or(|p| p.reach != crate::config::Reach::Xfcc)
            });
        }
        self.journal
            .enqueue(records)
            .await
            .map_err(|e| Reply::not_recorded(&e))
    }

    /// Journals a refused attempt by a player of the game, then replies with the refusal.
    pub(super) async fn refuse(
        &mut self,
        sender: &Sender,
        game_id: &str,
        refused: Refused,
    ) -> Pending {
        let mut entry = self.said_entry(sender, game_id, EntryKind::Rejected);
        entry.detail = refused.reason.clone();
        let record = Record {
            entry,
            outbox: vec![],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => {
                Pending::AfterCommit(committed, Reply::new(refused.status, refused.reason))
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    /// `m` (from `pos`) as `player` reads moves.
    pub(super) fn written_for(&self, player: &str, pos: &dyn Board, m: &Ply) -> String {
        self.players
            .get(player)
            .map_or_else(|| pos.code(m), |p| pos.write(m, p.notation))
    }

    /// Queues the records (and the result, if `after` has one) and, once queued, makes `after`
    /// the game's state; `reply` goes out when they are committed.
    pub(super) async fn commit(
        &mut self,
        sender: &Sender,
        after: Game,
        records: Vec<Record>,
        reply: String,
    ) -> Pending {
        self.commit_many(sender, vec![after], records, reply).await
    }

    /// [`State::commit`] for several games at once (leave is taken in all a player's games).
    pub(super) async fn commit_many(
        &mut self,
        sender: &Sender,
        afters: Vec<Game>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        for after in &afters {
            let before = self.games.get(&after.id).and_then(|g| g.result());
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
                    self.games.insert(after.id.clone(), Box::new(after));
                }
                Pending::AfterCommit(committed, Reply::new(Status::Done, reply))
            }
            Err(refused) => Pending::Now(refused),
        }
    }

    pub(super) fn result_record(
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
        let notice = Notice::Result {
            game: game.id.clone(),
            pgn: result.pgn().to_owned(),
            text: result.to_string(),
        };
        Record {
            entry,
            outbox: [&game.white, &game.black]
                .into_iter()
                .map(|p| notice_for(p, &notice))
                .collect(),
        }
    }
}
