//! Games with a player on another node, across a link: which node keeps each game's record
//! (its [`Role`] here), the proposals this node sends when the other keeps it, and the outbox
//! rows a link sends (docs/link.md, "One record").
//!
//! The node that keeps a game's record orders every action in it: its own player's, the
//! other node's player's (which arrive as proposals, each with an id recorded with its
//! entry, so that a repeat is known by the id), the arbiter's and the clock's. The other node
//! applies that record entry by entry in the same order, with the same times: both journals
//! hold the same record.

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::{Command, MoveLine};
use crate::game::{Action, Authority, Game, Refusal, side_of};
use crate::journal::replay::{GameStartDetail, Ledger, proposer};
use crate::journal::{EntryKind, NewEntry, Record};

use super::asked::Asked;
use super::notice::{MoveData, Notice};
pub(super) use super::role::Role;
use super::state::{Refused, State, notice_for};
use super::{Channel, Pending, Reply, Status};

/// The idempotency key of action `number` of `side` (`w`, `b`, or `a` for the arbiter) in
/// `game`, proposed by the other node: recorded with the entry the action made (accepted or
/// refused), so that the action sent again is known by it.
pub fn proposal_key(game: &str, side: char, number: u32) -> String {
    format!("link:{side}:{number}:{game}")
}

/// The action number a [`proposal_key`] holds.
fn number_of_key(key: &str) -> Option<u32> {
    let rest = key.strip_prefix("link:")?;
    let mut parts = rest.splitn(3, ':');
    let _side = parts.next()?;
    parts.next()?.parse().ok()
}

/// The game a [`proposal_key`] names.
pub(super) fn game_of_key(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("link:")?;
    rest.splitn(3, ':').nth(2)
}

/// The idempotency key of the other node's refusal of this node's proposal `number` by
/// `side` in `game`.
pub fn refusal_key(game: &str, side: char, number: u32) -> String {
    format!("link-refused:{side}:{number}:{game}")
}

/// A game's players and whose node keeps it, from its start entry's detail.
fn start_of(detail: &str) -> Option<(String, String, Authority)> {
    let d: GameStartDetail = serde_json::from_str(detail).ok()?;
    Some((d.white, d.black, d.authority))
}

impl State {
    /// The other node refused an action this node accepted: the record says so, and the
    /// player hears it. Only a link may say this.
    pub(super) async fn peer_refused(
        &mut self,
        asked: &Asked,
        game_id: &str,
        number: u32,
        reason: &str,
    ) -> Pending {
        if asked.channel != Channel::Link {
            return Pending::Now(Reply::new(
                Status::Forbidden,
                "only a link reports refusals",
            ));
        }
        if let Err(reply) = self.seat(asked, game_id) {
            return Pending::Now(reply);
        }
        if !matches!(self.role(game_id), Some(Role::Replica { .. })) {
            return Pending::Now(Reply::new(
                Status::Refused,
                format!(
                    "this node keeps game {game_id}'s record: the other node cannot refuse in it"
                ),
            ));
        }
        let mut entry = self.entry(
            game_id,
            &asked.player,
            asked.channel,
            EntryKind::Rejected,
            &format!("refused by the other node: action {number}"),
        );
        entry.key.clone_from(&asked.key);
        entry.detail = reason.to_owned();
        let notice = Notice::Refused {
            game: game_id.to_owned(),
            number,
            reason: reason.to_owned(),
        };
        let record = Record {
            entry,
            outbox: vec![notice_for(&asked.player, &notice)],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => {
                Pending::AfterCommit(committed, Reply::new(Status::Done, "refusal recorded"))
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    /// This node's role in a game between `white` and `black` whose record `authority`'s
    /// node keeps; `None` unless exactly one of them plays across a link.
    pub(super) fn role_of(&self, white: &str, black: &str, authority: Authority) -> Option<Role> {
        let (w, b) = (self.across_link(white), self.across_link(black));
        if w == b {
            return None;
        }
        let remote = if w { white } else { black }.to_owned();
        let keeper_is_remote = match authority {
            Authority::White => w,
            Authority::Black => b,
        };
        Some(if keeper_is_remote {
            Role::Replica { remote }
        } else {
            Role::Keeper { remote }
        })
    }

    /// This node's role in game `game_id`, if it is played across a link.
    pub(super) fn role(&self, game_id: &str) -> Option<Role> {
        let game = self.games.get(game_id)?;
        let authority = self
            .ledgers
            .get(game_id)
            .map_or(Authority::White, |l| l.authority);
        self.role_of(&game.white, &game.black, authority)
    }

    /// Counts a record's entry in its game's ledger and, in a game played across a link, makes
    /// its outbox rows for the player on the other node what the link is to send: nothing of
    /// what the relay writes for a player (the other node tells its own player), but, where
    /// this node keeps the record, each record entry and each refusal of that player's
    /// proposals; where the other node keeps it, each proposal.
    pub(super) fn count_and_route(&mut self, record: &mut Record) {
        let entry = &record.entry;
        // The players read where they are, not copied: this runs for every entry.
        let (color, role, authority) = match self.games.get(&entry.game) {
            Some(g) => {
                let authority = self
                    .ledgers
                    .get(&entry.game)
                    .map_or(Authority::White, |l| l.authority);
                (
                    g.side_of(&entry.player),
                    self.role_of(&g.white, &g.black, authority),
                    authority,
                )
            }
            None if entry.kind == EntryKind::GameStart => match start_of(&entry.detail) {
                Some((white, black, authority)) => (
                    side_of(&white, &black, &entry.player),
                    self.role_of(&white, &black, authority),
                    authority,
                ),
                None => return,
            },
            None => return,
        };
        if !self.ledgers.contains_key(&entry.game) {
            self.ledgers.insert(
                entry.game.clone(),
                Ledger {
                    authority,
                    ..Ledger::default()
                },
            );
        }
        let Some(ledger) = self.ledgers.get_mut(&entry.game) else {
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
            Role::Keeper { .. } if entry.kind.is_record() => Some(Notice::Record {
                game,
                index: before.records,
            }),
            Role::Keeper { .. }
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
            Role::Replica { .. } if entry.kind == EntryKind::Proposal => Some(Notice::Proposal {
                game,
                number: before.proposals[proposer(color)],
            }),
            _ => None,
        };
        if let Some(row) = row {
            record.outbox.push(notice_for(&remote, &row));
        }
    }

    /// A local player's (or the arbiter's) action in a game the other node keeps: checked
    /// here as far as this node can (a move's legality, whose turn it is), journaled as a
    /// proposal, and sent; it is in the game once the other node's record brings it back,
    /// and the player is told then.
    pub(super) async fn propose(
        &mut self,
        asked: &Asked,
        game_id: &str,
        command: Command,
    ) -> Pending {
        let Some(game) = self.games.get(game_id) else {
            return Pending::Now(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
        };
        let color = if asked.admin {
            None
        } else {
            match self.seat(asked, game_id) {
                Ok(color) => Some(color),
                Err(reply) => return Pending::Now(reply),
            }
        };
        let lang = self.lang_of(&asked.player);
        let mut iccf = None;
        let checked: Result<Command, Refusal> = match (command, color) {
            (Command::Move { game: g, mut line }, Some(color)) => {
                match game.check_move(color, &line.text, line.number, lang) {
                    Ok(read) => {
                        let code = game.board().code(&read.ply);
                        line.marks.draw_offer |= read.draw_offer;
                        line.text = code.clone();
                        line.number = None;
                        line.repeat = None;
                        iccf = Some(code);
                        Ok(Command::Move { game: g, line })
                    }
                    Err(refusal) => Err(refusal),
                }
            }
            (c @ Command::OfferDraw { .. }, Some(color)) => {
                game.check(color, &Action::OfferDraw, self.now).map(|()| c)
            }
            (c @ Command::AcceptDraw { .. }, Some(color)) => {
                game.check(color, &Action::AcceptDraw, self.now).map(|()| c)
            }
            (c @ Command::DeclineDraw { .. }, Some(color)) => game
                .check(color, &Action::DeclineDraw, self.now)
                .map(|()| c),
            (c @ Command::Resign { .. }, Some(color)) => {
                game.check(color, &Action::Resign, self.now).map(|()| c)
            }
            // The rest is for the keeping node to check.
            (c, _) => Ok(c),
        };
        let command = match checked {
            Ok(command) => command,
            Err(refusal) => return self.refuse(asked, game_id, Refused::from(refusal)).await,
        };
        let mut entry = self.said_entry(asked, game_id, EntryKind::Proposal);
        entry.iccf = iccf;
        entry.detail = command.to_string();
        let record = Record {
            entry,
            outbox: vec![],
        };
        let reply = format!(
            "sent {game_id}: {}; the other node keeps this game's record, and you will be told when it is in it",
            command
        );
        match self.enqueue(vec![record]).await {
            Ok(committed) => Pending::AfterCommit(committed, Reply::new(Status::Proposed, reply)),
            Err(reply) => Pending::Now(reply),
        }
    }

    /// The answer the conditional line of this node's player gives to `mover`'s move, just
    /// recorded in `after`, in a game the other node keeps: proposed at once, at the move's
    /// own time, as its owner would by hand (the line advances when the record brings the
    /// answer back, as any move on it does). The owner hears that the line answered.
    pub(super) fn line_answer(
        &self,
        game_id: &str,
        after: &Game,
        mover: Color,
        time: Timestamp,
    ) -> Option<Record> {
        let answer = after.conditional_reply()?;
        let owner = after.player(!mover);
        if self.across_link(owner) {
            return None;
        }
        let code = after.board().code(&answer);
        let mut entry = NewEntry::new(
            game_id,
            owner,
            Channel::Conditional.as_str(),
            EntryKind::Proposal,
            &format!("conditional {code}"),
        );
        entry.time = time;
        entry.iccf = Some(code.clone());
        entry.detail = Command::Move {
            game: game_id.to_owned(),
            line: MoveLine {
                text: code,
                ..MoveLine::default()
            },
        }
        .to_string();
        let left = after.conditional(!mover).len().saturating_sub(1) / 2;
        let notice = Notice::LinePlayed {
            game: game_id.to_owned(),
            mv: Box::new(MoveData::of(after, &answer)),
            left: u32::try_from(left).unwrap_or(u32::MAX),
        };
        Some(Record {
            entry,
            outbox: vec![notice_for(owner, &notice)],
        })
    }

    /// The time to record an action of the other node's player made at `at` (the moment it
    /// was made there): never before the game's last record entry, never after now.
    pub(super) fn time_of_proposal(&self, game_id: &str, at: Timestamp) -> Timestamp {
        let last = self
            .ledgers
            .get(game_id)
            .and_then(|l| l.last)
            .unwrap_or(Timestamp::UNIX_EPOCH);
        at.max(last).min(self.now)
    }

    /// Whether `player` plays on another node, across a link.
    pub(super) fn across_link(&self, player: &str) -> bool {
        self.anyone_across_link
            && self
                .players
                .get(player)
                .is_some_and(|p| matches!(p.reach, crate::config::Reach::Link(_)))
    }
}
