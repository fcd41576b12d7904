//! The correspondence rules a player or the arbiter invokes: draw claims, conditional lines,
//! leave, adjudication.

use shakmaty::Color;

use crate::game::clock::Leave;
use crate::game::{Action, Claim, EndReason, GameResult, Refusal};
use crate::journal::replay::AdjudicationDetail;
use crate::journal::{EntryKind, Record};
use crate::notation::{Iccf, Lang, san};

use super::notice::{MoveData, Notice};
use super::state::{Refused, State, notice_for};
use super::{Pending, Reply, Sender, render};

impl State {
    pub(super) async fn claim(
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
        let mv = m.map(|m| {
            let mv = MoveData::of(game, m);
            entry.iccf = Some(mv.iccf.clone());
            entry.san = Some(san::write(game.position(), m, Lang::English));
            Box::new(mv)
        });
        let notice = Notice::Claim {
            game: game_id.to_owned(),
            by: sender.player.clone(),
            side: color.into(),
            claim: claim.as_str().to_owned(),
            mv,
        };
        let mut after = game.clone();
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

    pub(super) async fn leave(&mut self, sender: &Sender, first: &str, days: &str) -> Pending {
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
}
