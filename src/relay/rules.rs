//! The correspondence rules a player or the arbiter invokes: draw claims, conditional lines,
//! leave, adjudication.

use shakmaty::Color;

use crate::command::{Command, NumberedMove};
use crate::game::clock::Leave;
use crate::game::{Action, Claim, EndReason, Game, GameResult, Refusal, codes};
use crate::journal::replay::AdjudicationDetail;
use crate::journal::{EntryKind, Record, detail};
use crate::notation::result::Score;
use crate::notation::{Lang, Notation};
use jiff::civil::Date;

use super::notice::{MoveData, Notice};
use super::peers::game_of_key;
use super::role::Role;
use super::state::{Refused, State, notice_for};
use super::{Channel, Pending, Reply, Sender, Status, render};

impl State {
    pub(super) async fn claim(
        &mut self,
        sender: &Sender,
        game_id: &str,
        claim: Claim,
        with: Option<NumberedMove>,
    ) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let game = &self.games[game_id];
        let m = match with {
            None => None,
            Some(with) => {
                let lang = self.lang_of(&sender.player);
                match game.check_move(color, &with.text, with.number, lang) {
                    Ok(read) => Some(read.ply),
                    Err(refusal) => return self.refuse(sender, game_id, refusal.into()).await,
                }
            }
        };
        let action = Action::Claim {
            claim,
            m: m.clone(),
        };
        if let Err(refusal) = game.check(color, &action, self.now) {
            return self.refuse(sender, game_id, refusal.into()).await;
        }
        let opponent = game.player(!color).to_owned();
        let mut entry = self.said_entry(sender, game_id, EntryKind::Claim);
        entry.detail = claim.as_str().to_owned();
        let mv = m.as_ref().map(|m| {
            let mv = MoveData::of(game, m);
            entry.iccf = Some(mv.iccf.clone());
            entry.san = Some(game.board().write(m, Notation::San(Lang::English)));
            Box::new(mv)
        });
        let notice = Notice::Claim {
            game: game_id.to_owned(),
            by: sender.player.clone(),
            side: color.into(),
            claim: claim.as_str().to_owned(),
            mv,
        };
        let mut after = Game::clone(game);
        after.apply_by(color, &action, self.now);
        let records = vec![Record {
            entry,
            outbox: vec![notice_for(&opponent, &notice)],
        }];
        let reply = format!("claim accepted {game_id}");
        self.commit(sender, after, records, reply).await
    }

    pub(super) async fn conditional(
        &mut self,
        sender: &Sender,
        game_id: &str,
        moves: &[NumberedMove],
    ) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let game = &self.games[game_id];
        let texts: Vec<_> = moves.iter().map(|m| (m.number, m.text.clone())).collect();
        let line = match game.read_conditional(color, &texts, self.lang_of(&sender.player)) {
            Ok(line) => line,
            Err(refusal) => return self.refuse(sender, game_id, refusal.into()).await,
        };
        let mut entry = self.said_entry(sender, game_id, EntryKind::Conditional);
        entry.detail = codes(game.board(), &line).join(" ");
        let reply = if line.is_empty() {
            format!("conditional line cancelled {game_id}")
        } else {
            let notation = self
                .players
                .get(&sender.player)
                .map_or(Notation::Iccf, |p| p.notation);
            format!(
                "conditional line set {game_id}: {}",
                render::line_text(game, &line, notation)
            )
        };
        let mut after = Game::clone(game);
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

    pub(super) async fn leave(&mut self, sender: &Sender, first: Date, days: u32) -> Pending {
        if sender.admin {
            return Pending::Now(Reply::new(Status::Forbidden, "leave is a player's"));
        }
        let leave = Leave { first, days };
        let mut ids: Vec<&String> = self
            .games
            .iter()
            .filter(|(_, g)| g.result().is_none() && g.side_of(&sender.player).is_some())
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        // Games the other node of a link keeps take the leave there: one proposal goes for
        // all of them (that node applies it to every game of the player it keeps).
        let replica = |id: &String| matches!(self.role(id), Some(Role::Replica { .. }));
        let proposed: Vec<String> = ids
            .iter()
            .filter(|id| replica(id))
            .map(|id| (*id).clone())
            .collect();
        // One game per link the proposal goes across.
        let mut links = Vec::new();
        let mut carriers = Vec::new();
        for id in &proposed {
            let remote = self
                .role(id)
                .map(|r| r.remote().to_owned())
                .unwrap_or_default();
            let link = self.players.get(&remote).map(|p| p.reach.clone());
            if !links.contains(&link) {
                links.push(link);
                carriers.push(id.clone());
            }
        }
        ids.retain(|id| !replica(id));
        // A leave from the other node is one action with an id, proposed in one game there
        // (its key names it): a refusal is recorded in that game, so that it goes back.
        let carrier = self
            .key
            .as_deref()
            .and_then(game_of_key)
            .filter(|g| sender.channel == Channel::Link && self.games.contains_key(*g))
            .map(str::to_owned);
        if ids.is_empty() && (proposed.is_empty() || sender.channel == Channel::Link) {
            let refused = Refused {
                status: Status::Refused,
                reason: "you have no game in progress to take leave from".to_owned(),
            };
            return match carrier {
                Some(game) => self.refuse(sender, &game, refused).await,
                None => Pending::Now(Reply::new(refused.status, refused.reason)),
            };
        }
        // Leave is the player's: checked against all of it, in every game, finished or not.
        let mut taken = self.leave_of(&sender.player);
        if sender.channel == Channel::Link {
            // The same leave recorded already came in the other node's record of another
            // game: one announcement, not two.
            taken.retain(|l| *l != leave);
        }
        for id in &ids {
            let game = &self.games[*id];
            let color = game.side_of(&sender.player).unwrap_or(Color::White);
            let per_year = game.rules().leave_days_per_year;
            let checked = crate::game::clock::check_leave(&taken, leave, self.now, per_year)
                .map_err(Refusal::Leave)
                .and_then(|()| game.check(color, &Action::Leave(leave), self.now));
            if let Err(refusal) = checked {
                let refused = Refused {
                    status: Status::Refused,
                    reason: format!("game {id}: {refusal}"),
                };
                let id = carrier.unwrap_or_else(|| (*id).clone());
                return self.refuse(sender, &id, refused).await;
            }
        }
        let mut afters = Vec::new();
        let mut records = Vec::new();
        for id in &ids {
            let game = &self.games[*id];
            let color = game.side_of(&sender.player).unwrap_or(Color::White);
            let mut entry = self.said_entry(sender, id, EntryKind::Leave);
            entry.detail = match detail(&leave) {
                Ok(detail) => detail,
                Err(e) => return Pending::Now(Reply::not_recorded(&e)),
            };
            let notice = Notice::Leave {
                game: (*id).clone(),
                by: sender.player.clone(),
                side: color.into(),
                leave,
            };
            records.push(Record {
                entry,
                outbox: vec![notice_for(game.player(!color), &notice)],
            });
            let mut after = Game::clone(game);
            after.apply_by(color, &Action::Leave(leave), self.now);
            afters.push(after);
        }
        let mut reply = format!(
            "leave {leave} in {}",
            ids.iter()
                .map(|id| id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !proposed.is_empty() && sender.channel != Channel::Link {
            for carrier in &carriers {
                let mut entry = self.said_entry(sender, carrier, EntryKind::Proposal);
                entry.detail = Command::Leave { first, days }.to_string();
                records.push(Record {
                    entry,
                    outbox: vec![],
                });
            }
            let sent = format!(
                "leave {leave} sent for {} to the other node, which keeps their records: you will be told",
                proposed.join(", ")
            );
            reply = if ids.is_empty() {
                sent
            } else {
                format!("{reply}; {sent}")
            };
        }
        self.commit_many(sender, afters, records, reply).await
    }

    /// Every leave `player` has announced, in any game.
    pub(super) fn leave_of(&self, player: &str) -> Vec<Leave> {
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

    pub(super) async fn adjudicate(
        &mut self,
        sender: &Sender,
        game_id: &str,
        score: Score,
        reason: &str,
    ) -> Pending {
        if !sender.admin {
            return Pending::Now(Reply::new(
                Status::Forbidden,
                "only the arbiter (admin) adjudicates",
            ));
        }
        let Some(game) = self.games.get(game_id) else {
            return Pending::Now(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
        };
        let Some(winner) = score.winner() else {
            return Pending::Now(Reply::new(
                Status::BadCommand,
                "an adjudication decides the game: say 1-0, 0-1 or 1/2-1/2",
            ));
        };
        let mut decided = GameResult::new(winner, EndReason::Adjudication);
        decided.note = Some(reason.to_owned());
        let action = Action::Adjudicate(decided.clone());
        if let Err(refusal) = game.check(game.turn(), &action, self.now) {
            return Pending::Now(Reply::new(Status::Refused, refusal.to_string()));
        }
        let mut entry = self.said_entry(sender, game_id, EntryKind::Adjudication);
        entry.detail = match detail(&AdjudicationDetail {
            result: decided.pgn().to_owned(),
            reason: reason.to_owned(),
            withdrawal: false,
        }) {
            Ok(detail) => detail,
            Err(e) => return Pending::Now(Reply::not_recorded(&e)),
        };
        let mut after = Game::clone(game);
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
}
