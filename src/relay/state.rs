//! The relay's state: every game, the players and events it knows, and the commit of what
//! a command changes (journal records queued in order, then the in-memory games).

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::text::{self, TextKind};
use crate::config::{Event, Players};
use crate::game::{Action, Board, Game, Ply, Refusal};
use crate::journal::replay::GameStartDetail;
use crate::journal::{Committed, EntryKind, Journal, NewEntry, NewOutbox, Record};
use crate::notation::Lang;

use super::asked::Asked;
use super::notice::{MoveNotice, Notice};
use super::role::Role;
use super::said;
use super::{Channel, Command, Pending, Reply, Status, render};

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

/// A table by game id. Its hasher is foldhash's, not the standard library's SipHash: a
/// move looks a game up several times, and SipHash spent more on those lookups than the
/// table's work. The ids are the config's and the admin's, never a stranger's.
pub(super) type ByGame<V> = HashMap<String, V, foldhash::fast::RandomState>;

pub(super) struct State {
    /// Boxed: the table keeps room for more games than it holds, and a slot is then a pointer,
    /// not a whole game.
    pub(super) games: ByGame<Box<Game>>,
    /// What each game's record holds beside its moves (event, round, messages).
    pub(super) facts: ByGame<super::facts::GameFacts>,
    pub(super) players: std::sync::Arc<Players>,
    /// Whether any player is reached across a link: without one, no game is played across a
    /// link, and asking costs nothing on the way of every move.
    pub(super) anyone_across_link: bool,
    pub(super) events: BTreeMap<String, Event>,
    pub(super) journal: Journal,
    pub(super) clock: Clock,
    /// The time of what is being handled: every entry it writes carries it. Never goes back,
    /// even if the system clock does.
    pub(super) now: Timestamp,
    /// How far each game's record and proposals have gone, for the links.
    pub(super) ledgers: ByGame<crate::journal::replay::Ledger>,
    /// The players as every transport sees them (published on each change to `players`).
    pub(super) roster: super::Roster,
    /// The players and events registered while the relay runs, as the record holds them.
    pub(super) registry: crate::journal::registry::Registry,
    /// Whether the relay sends mail (an `[email]` section): a player can be reached by mail.
    pub(super) can_mail: bool,
    /// The moves counted, by channel and outcome (at most one counter each).
    pub(super) moves_counted: super::counters::MoveCounters,
}

/// The outbox row telling `player` of `notice` ([`NewOutbox::notice`]).
pub(super) fn notice_for(player: &str, notice: &Notice) -> NewOutbox {
    NewOutbox::notice(player, notice.clone())
}

/// The outbox row telling `player` of a move the relay relayed: it refers to its entry
/// ([`NewOutbox::move_of_entry`]).
pub(super) fn move_notice_to(player: &str, notice: MoveNotice) -> NewOutbox {
    NewOutbox::move_of_entry(player, notice)
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
        asked: &Asked,
        command: Command,
        message: Option<String>,
    ) -> Pending {
        // The words never cost the command (DESIGN: a move is refused only for what is wrong
        // with the move): a message the check would refuse is mended, and the record keeps
        // the words as received beside the words delivered.
        let message = message.map(|written| {
            let mended = text::mend(&written, TextKind::Message);
            (written, mended)
        });
        let game = command.game().map(str::to_owned);
        let pending = self.handle(asked, command).await;
        let (Some((written, mended)), Some(game)) = (message, game) else {
            return pending;
        };
        match pending {
            Pending::AfterCommit(committed, reply)
                if reply.status.is_success() && mended.text.is_empty() =>
            {
                let text = format!(
                    "{}\nmessage not sent: nothing readable was left of it",
                    reply.text
                );
                Pending::AfterCommit(committed, Reply::new(reply.status, text))
            }
            Pending::AfterCommit(_, reply) if reply.status.is_success() => {
                let asked = asked.saying(said::message_said(&game, &written, &mended));
                match self.message_noted(&asked, &game, &mended.text).await {
                    Pending::AfterCommit(committed, sent) if sent.status.is_success() => {
                        let mut text = format!("{}\n{}", reply.text, sent.text);
                        if mended.changed {
                            text.push_str("; ");
                            text.push_str(said::MENDED);
                        }
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

    pub(super) async fn handle(&mut self, asked: &Asked, command: Command) -> Pending {
        self.catch_up();
        // The clock acts first: a move that comes after its side's time ran out is too late.
        if let Some(game) = command.game() {
            let game = game.to_owned();
            self.settle(&game).await;
        }
        if let Some(game) = command.game().map(str::to_owned)
            && let Some(role) = self.role(&game)
        {
            match (role, asked.channel == Channel::Link) {
                (Role::Replica { .. }, false) if goes_as_proposal(&command) => {
                    return self.propose(asked, &game, command).await;
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
        if let (Some(age), Some(game)) = (asked.age, command.game()) {
            let at = self.now.checked_sub(age).unwrap_or(Timestamp::UNIX_EPOCH);
            self.now = self.time_of_proposal(game, whole_seconds(at));
        }
        // (A refusal of a refusal stays unjournaled: there is no action of that node's.)
        let game = match command {
            Command::PeerRefused { .. } => None,
            _ => command.game().map(str::to_owned),
        };
        let mut pending = self.dispatch(asked, command).await;
        // Every refusal of another node's action in a game here is journaled (with the
        // action's id): that is what carries the refusal back to that node, durably.
        if let (Pending::Now(reply), Some(game), Channel::Link) = (&pending, &game, asked.channel)
            && reply.status.is_final()
            && !reply.status.is_success()
            && self.games.contains_key(game.as_str())
        {
            let refused = Refused {
                status: reply.status,
                reason: reply.text.clone(),
            };
            pending = self.refuse(asked, game, refused).await;
        }
        self.now = self.now.max(saved);
        pending
    }

    async fn dispatch(&mut self, asked: &Asked, command: Command) -> Pending {
        // Every text a person wrote, whichever way the command came (a front end that builds
        // commands itself included), passes the one check before anything is applied.
        if let Err(e) = command.check_texts() {
            return Pending::Now(Reply::new(Status::BadCommand, e.to_string()));
        }
        match command {
            // What is shown includes moves still being committed: answer once they are on disk.
            Command::Games => self.after_commit(self.list_games(asked)).await,
            Command::Show { game } => self.after_commit(self.show(asked, &game)).await,
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
                self.start(asked, game, detail).await
            }
            Command::Move { game, line } => self.play(asked, &game, line).await,
            Command::OfferDraw { game } => self.act(asked, &game, Action::OfferDraw).await,
            Command::AcceptDraw { game } => self.act(asked, &game, Action::AcceptDraw).await,
            Command::DeclineDraw { game } => self.act(asked, &game, Action::DeclineDraw).await,
            Command::Resign { game } => self.act(asked, &game, Action::Resign).await,
            Command::Claim { game, claim, with } => self.claim(asked, &game, claim, with).await,
            Command::Conditional { game, moves } => self.conditional(asked, &game, &moves).await,
            Command::Leave { first, days } => self.leave(asked, first, days).await,
            Command::Adjudicate {
                game,
                score,
                reason,
            } => self.adjudicate(asked, &game, score, &reason).await,
            Command::Clock { set } => self.set_clock(asked, set).await,
            // Answered by the relay's handle, before it reaches the games.
            Command::Dead { .. } => Pending::Now(Reply::new(
                Status::BadCommand,
                "DEAD is answered by the relay's handle",
            )),
            Command::Receipt { entry } => match self.journal.ask_receipt(entry).await {
                Ok(answer) => Pending::Receipt(entry, answer),
                Err(e) => Pending::Now(Reply::not_recorded(&e)),
            },
            Command::Message { game, text } => self.message_noted(asked, &game, &text).await,
            Command::PeerRefused {
                game,
                number,
                reason,
            } => self.peer_refused(asked, &game, number, &reason).await,
            Command::Player { id, action, fields } => {
                self.player(asked, &id, action, &fields).await
            }
            Command::Players => self.after_commit(self.list_players(asked)).await,
            Command::Secret { secret } => self.own_secret(asked, &secret).await,
            Command::Event { id, action } => self.event(asked, &id, action).await,
            Command::Events => self.after_commit(self.list_events(asked)).await,
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

    /// An entry by the asked of the request being handled, recording what they said.
    /// It carries the request's idempotency key: the first such entry committed keeps it.
    pub(super) fn said_entry(&self, asked: &Asked, game: &str, kind: EntryKind) -> NewEntry {
        let mut entry = self.entry(game, &asked.player, asked.channel, kind, &asked.said);
        entry.key.clone_from(&asked.key);
        entry
    }

    /// `reply`, sent once everything queued before it is committed.
    pub(super) async fn after_commit(&mut self, reply: Reply) -> Pending {
        match self.enqueue(Vec::new()).await {
            Ok(committed) => Pending::AfterCommit(committed, reply),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// The game and the asked's colour in it, or the reply refusing. A game the asked does
    /// not play in and a spectator may not see (a private event's, a game of a "finished" event
    /// still in progress) is answered as a game that does not exist, word for word: whether it
    /// exists is not the asked's to learn. A game spectators see is answered "you do not play
    /// in it", which tells nothing the web pages do not.
    pub(super) fn seat(&self, asked: &Asked, game_id: &str) -> Result<Color, Reply> {
        let no_game = || Reply::new(Status::NotFound, format!("no game {game_id:?}"));
        let Some(game) = self.games.get(game_id) else {
            return Err(no_game());
        };
        game.side_of(&asked.player).ok_or_else(|| {
            if self.spectators_see(game_id) {
                Reply::new(
                    Status::Forbidden,
                    format!("you do not play in game {game_id}"),
                )
            } else {
                no_game()
            }
        })
    }

    pub(super) fn list_games(&self, asked: &Asked) -> Reply {
        let mut ids: Vec<&String> = self
            .games
            .iter()
            .filter(|(_, g)| asked.admin || g.side_of(&asked.player).is_some())
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        let mut lines = vec![format!("{} game(s)", ids.len())];
        for id in ids {
            lines.push(render::game_line(&self.games[id], &asked.player));
        }
        Reply::new(Status::Done, lines.join("\n"))
    }

    pub(super) fn show(&self, asked: &Asked, game_id: &str) -> Reply {
        if !asked.admin
            && let Err(refusal) = self.seat(asked, game_id)
        {
            return refusal;
        }
        let Some(game) = self.games.get(game_id) else {
            return Reply::new(Status::NotFound, format!("no game {game_id:?}"));
        };
        let notation = self
            .players
            .get(&asked.player)
            .map_or(crate::notation::Notation::Iccf, |p| p.notation);
        Reply::new(
            Status::Done,
            render::show(game, notation, &asked.player, self.now),
        )
    }

    pub(super) async fn enqueue(&mut self, mut records: Vec<Record>) -> Result<Committed, Reply> {
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
        asked: &Asked,
        game_id: &str,
        refused: Refused,
    ) -> Pending {
        let mut entry = self.said_entry(asked, game_id, EntryKind::Rejected);
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
        asked: &Asked,
        after: Game,
        records: Vec<Record>,
        reply: String,
    ) -> Pending {
        self.commit_many(asked, vec![after], records, reply).await
    }

    /// [`State::commit`] for a move played on the game itself, taken out of the table as
    /// `(id, game)` ([`State::play`]) when its result was `before`: the game goes back in its
    /// place.
    ///
    /// The game goes back played even if the journal refuses the records. It refuses them
    /// only once it has stopped (after a failed commit), as a commit that fails after they
    /// were queued leaves the game played too: from then on nothing is acknowledged, and the
    /// daemon stops (see [`Journal::open`]).
    pub(super) async fn commit_played(
        &mut self,
        asked: &Asked,
        (id, game): (String, Box<Game>),
        before: Option<crate::game::GameResult>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        self.record_result(asked, &game, before.as_ref(), &mut records, &mut reply);
        // Back before the records are queued: routing them reads the game (its link).
        self.games.insert(id, game);
        match self.enqueue(records).await {
            Ok(committed) => Pending::AfterCommit(committed, Reply::new(Status::Done, reply)),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// [`State::commit`] for several games at once (leave is taken in all a player's games).
    pub(super) async fn commit_many(
        &mut self,
        asked: &Asked,
        afters: Vec<Game>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        for after in &afters {
            let before = self.games.get(&after.id).and_then(|g| g.result());
            self.record_result(asked, after, before, &mut records, &mut reply);
        }
        match self.enqueue(records).await {
            Ok(committed) => {
                for after in afters {
                    match self.games.get_mut(&after.id) {
                        Some(game) => **game = after,
                        None => {
                            self.games.insert(after.id.clone(), Box::new(after));
                        }
                    }
                }
                Pending::AfterCommit(committed, Reply::new(Status::Done, reply))
            }
            Err(refused) => Pending::Now(refused),
        }
    }

    /// The result's record, and `; game over: ...` in `reply`, if `after` has a result it did
    /// not have `before` the change being committed.
    fn record_result(
        &self,
        asked: &Asked,
        after: &Game,
        before: Option<&crate::game::GameResult>,
        records: &mut Vec<Record>,
        reply: &mut String,
    ) {
        if let Some(result) = after.result()
            && before != Some(result)
        {
            records.push(self.result_record(after, result, asked));
            reply.push_str(&format!("; game over: {result}"));
        }
    }

    pub(super) fn result_record(
        &self,
        game: &Game,
        result: &crate::game::GameResult,
        asked: &Asked,
    ) -> Record {
        let mut entry = self.entry(
            &game.id,
            &asked.player,
            asked.channel,
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
