//! The relay's state, as three plain parts (the games and what is known of them, the people,
//! the recorder), and the commit of what a command changes: journal records queued in order,
//! then the in-memory games. Every handler commits through here, so a change is never in
//! memory without its records queued before it.

//! a command changes (journal records queued in order, then the in-memory games).

pub(super) use crate::relay::link_role::LinkRole;

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::Command;
use crate::config::Viewing;
use crate::game::{Authority, Game, Refusal, side_of};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::replay::{Ledger, proposer};
use crate::journal::{Committed, EntryKind, NewOutbox, Record};
use crate::relay::games::Games;
use crate::relay::notes::GameNotes;
use crate::relay::peers::{number_of_key, start_of};
use crate::relay::pending::Pending;
use crate::relay::people::People;
use crate::relay::recorder::Recorder;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::{Request, Sender};
use crate::relay::said::Said;

/// Everything the relay task owns, in the parts a handler takes: a handler that only reads
/// players takes [`People`]; one that changes a game commits through [`State`].
pub(super) struct State {
    pub(super) games: Games,
    pub(super) people: People,
    pub(super) recorder: Recorder,
}

/// Whether `command`, by a local player or the arbiter in a game the other node keeps, is
/// sent there as a proposal: everything that acts on the game. (A conditional line stays on
/// its player's node, which plays it.)
pub(super) fn goes_as_proposal(command: &Command) -> bool {
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
            | Command::Bank { .. }
            | Command::LongReflection { .. }
    )
}

pub(super) fn dots(color: Color) -> &'static str {
    if color == Color::White { "." } else { "..." }
}

/// A refusal worth journaling: the player plays in the game.
pub(super) struct Refused {
    pub(super) status: Status,
    pub(super) reason: String,
    /// The refusal, typed (see [`Said`]).
    pub(super) said: Option<Said>,
}

impl Refused {
    /// The reply that says it.
    pub(super) fn reply(self) -> Reply {
        let reply = Reply::new(self.status, self.reason);
        match self.said {
            Some(said) => reply.saying(said),
            None => reply,
        }
    }
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
            said: Some(Said::Refused(refusal)),
        }
    }
}

impl State {
    /// `reply`, sent once everything queued before it is committed.
    pub(super) async fn after_commit(&mut self, reply: Reply) -> Pending {
        match self.enqueue(Vec::new()).await {
            Ok(committed) => Pending::AfterCommit(committed, reply),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// The game and the sender's colour in it, or the reply refusing. A game the sender does
    /// not play in and a spectator may not see (a private event's, a game of a "finished" event
    /// still in progress) is answered as a game that does not exist, word for word: whether it
    /// exists is not the sender's to learn. A game spectators see is answered "you do not play
    /// in it", which tells nothing the web pages do not.
    pub(super) fn seat(&self, sender: &Sender, game_id: &str) -> Result<Color, Reply> {
        let no_game = || Reply::new(Status::NotFound, format!("no game {game_id:?}"));
        let Some(game) = self.games.by_id.get(game_id) else {
            return Err(no_game());
        };
        game.side_of(&sender.player).ok_or_else(|| {
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

    /// Whether a spectator may see that game `id` exists, under its event's viewing rule
    /// (see the `watch` module): not a private event's game, nor a "finished" event's game in
    /// progress. Its last moves may still be delayed.
    pub(super) fn spectators_see(&self, id: &str) -> bool {
        let Some(game) = self.games.by_id.get(id) else {
            return false;
        };
        let view = self
            .games
            .notes
            .get(id)
            .and_then(|notes| notes.event.as_ref())
            .and_then(|event| self.people.events.get(event))
            .map(|event| event.view)
            .unwrap_or_default();
        match view {
            Viewing::Private => false,
            Viewing::Finished => game.result().is_some(),
            Viewing::Public | Viewing::Delay(_) => true,
        }
    }

    pub(super) async fn enqueue(&mut self, mut records: Vec<Record>) -> Result<Committed, Reply> {
        for record in &mut records {
            self.count_and_route(record);
        }
        // A player who asked for a mail at each move gets one more row, for that mail.
        crate::relay::notify::add_rows(&self.people, &mut records);
        // A player whose client asks (XFCC) is pushed nothing: no outbox rows wait for them.
        for record in &mut records {
            record.outbox.retain(|row| {
                self.people
                    .players
                    .get(&row.player)
                    .is_none_or(|p| p.reach != crate::config::Reach::Xfcc)
            });
        }
        self.recorder
            .journal
            .enqueue(records)
            .await
            .map_err(|e| Reply::not_recorded(&e))
    }

    /// Journals a refused attempt by a player of the game, then replies with the refusal.
    pub(super) async fn refuse(
        &mut self,
        request: &Request,
        game_id: &str,
        refused: Refused,
    ) -> Pending {
        let entry = match self.recorder.request_entry(
            request,
            game_id,
            &Meaning::Rejected {
                reason: refused.reason.clone(),
            },
        ) {
            Ok(entry) => entry,
            Err(reply) => return Pending::Now(reply),
        };
        let record = Record {
            entry,
            outbox: vec![],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => Pending::AfterCommit(committed, refused.reply()),
            Err(reply) => Pending::Now(reply),
        }
    }

    /// Queues the records (and the result, if `after` has one) and, once queued, makes `after`
    /// the game's state; `reply` goes out when they are committed.
    pub(super) async fn commit(
        &mut self,
        by: &Sender,
        after: Game,
        records: Vec<Record>,
        reply: String,
    ) -> Pending {
        self.commit_many(by, vec![after], records, reply).await
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
        by: &Sender,
        (id, game): (String, Box<Game>),
        before: Option<crate::game::GameResult>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        let recorded = self.record_result(by, &game, before.as_ref(), &mut records, &mut reply);
        // Back before the records are queued: routing them reads the game (its link).
        self.games.by_id.insert(id, game);
        if let Err(refused) = recorded {
            return Pending::Now(refused);
        }
        match self.enqueue(records).await {
            Ok(committed) => Pending::AfterCommit(committed, Reply::new(Status::Done, reply)),
            Err(refused) => Pending::Now(refused),
        }
    }

    /// [`State::commit`] for several games at once (leave is taken in all a player's games).
    pub(super) async fn commit_many(
        &mut self,
        by: &Sender,
        afters: Vec<Game>,
        mut records: Vec<Record>,
        mut reply: String,
    ) -> Pending {
        for after in &afters {
            let before = self.games.by_id.get(&after.id).and_then(|g| g.result());
            if let Err(refused) = self.record_result(by, after, before, &mut records, &mut reply) {
                return Pending::Now(refused);
            }
        }
        match self.enqueue(records).await {
            Ok(committed) => {
                for after in afters {
                    match self.games.by_id.get_mut(&after.id) {
                        Some(game) => **game = after,
                        None => {
                            self.games.by_id.insert(after.id.clone(), Box::new(after));
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
        by: &Sender,
        after: &Game,
        before: Option<&crate::game::GameResult>,
        records: &mut Vec<Record>,
        reply: &mut String,
    ) -> Result<(), Reply> {
        if let Some(result) = after.result()
            && before != Some(result)
        {
            records.push(self.result_record(after, result, by)?);
            reply.push_str(&format!("; game over: {result}"));
        }
        Ok(())
    }

    pub(super) fn result_record(
        &self,
        game: &Game,
        result: &crate::game::GameResult,
        by: &Sender,
    ) -> Result<Record, Reply> {
        let entry = self.recorder.entry(
            &game.id,
            &by.player,
            by.channel,
            &Meaning::Result {
                text: result.to_string(),
            },
            result.pgn(),
        )?;
        let notice = Notice::Result {
            game: game.id.clone(),
            pgn: result.pgn().to_owned(),
            text: result.to_string(),
        };
        Ok(Record {
            entry,
            outbox: [&game.white, &game.black]
                .into_iter()
                .map(|p| NewOutbox::notice(p, notice.clone()))
                .collect(),
        })
    }

    /// This node's role in game `game_id`, if it is played across a link.
    pub(super) fn role(&self, game_id: &str) -> Option<LinkRole> {
        let game = self.games.by_id.get(game_id)?;
        let authority = self
            .games
            .ledgers
            .get(game_id)
            .map_or(Authority::White, |l| l.authority);
        self.people.role_of(&game.white, &game.black, authority)
    }

    /// Counts a record's entry in its game's ledger and, in a game played across a link, makes
    /// its outbox rows for the player on the other node what the link is to send: nothing of
    /// what the relay writes for a player (the other node tells its own player), but, where
    /// this node keeps the record, each record entry and each refusal of that player's
    /// proposals; where the other node keeps it, each proposal.
    pub(super) fn count_and_route(&mut self, record: &mut Record) {
        let entry = &record.entry;
        // The players read where they are, not copied: this runs for every entry.
        let (color, role, authority) = match self.games.by_id.get(&entry.game) {
            Some(g) => {
                let authority = self
                    .games
                    .ledgers
                    .get(&entry.game)
                    .map_or(Authority::White, |l| l.authority);
                (
                    g.side_of(&entry.player),
                    self.people.role_of(&g.white, &g.black, authority),
                    authority,
                )
            }
            None if entry.kind == EntryKind::GameStart => match start_of(&entry.detail) {
                Some((white, black, authority)) => (
                    side_of(&white, &black, &entry.player),
                    self.people.role_of(&white, &black, authority),
                    authority,
                ),
                None => return,
            },
            None => return,
        };
        if !self.games.ledgers.contains_key(&entry.game) {
            self.games.ledgers.insert(
                entry.game.clone(),
                Ledger {
                    authority,
                    ..Ledger::default()
                },
            );
        }
        let Some(ledger) = self.games.ledgers.get_mut(&entry.game) else {
            return;
        };
        let before = *ledger;
        ledger.count(entry.kind, entry.time, color);
        let Some(role) = role else {
            return;
        };
        let remote = role.remote().to_owned();
        record.outbox.retain(|row| row.player != remote);
        let game = entry.game.clone();
        let row = match role {
            LinkRole::Keeper { .. } if entry.kind.is_record() => Some(Notice::Record {
                game,
                index: before.records,
            }),
            LinkRole::Keeper { .. }
                if entry.kind == EntryKind::Rejected && entry.channel == Channel::Link.as_str() =>
            {
                entry
                    .key
                    .as_deref()
                    .and_then(number_of_key)
                    .map(|number| Notice::Refused {
                        game,
                        number,
                        reason: entry.detail.clone(),
                    })
            }
            LinkRole::Replica { .. } if entry.kind == EntryKind::Proposal => {
                Some(Notice::Proposal {
                    game,
                    number: before.proposals[proposer(color)],
                })
            }
            _ => None,
        };
        if let Some(row) = row {
            record.outbox.push(NewOutbox::notice(&remote, row));
        }
    }

    /// The time to record an action of the other node's player made at `at` (the moment it
    /// was made there): never before the game's last record entry, never after now.
    pub(super) fn time_of_proposal(&self, game_id: &str, at: Timestamp) -> Timestamp {
        let last = self
            .games
            .ledgers
            .get(game_id)
            .and_then(|l| l.last)
            .unwrap_or(Timestamp::UNIX_EPOCH);
        at.max(last).min(self.recorder.now)
    }

    /// Records the facts of a game just started.
    pub(super) fn note_start(&mut self, game: &str, event: Option<String>, round: Option<String>) {
        let facts = GameNotes {
            event,
            round,
            started: Some(self.recorder.now),
            messages: Default::default(),
            conversation: Vec::new(),
        };
        self.games.notes.insert(game.to_owned(), facts);
    }
}
