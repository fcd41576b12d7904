//! Moves and the simple actions (draw offer, acceptance, decline, resignation): checked against
//! the game, journaled, pushed to the opponent.

use shakmaty::{Color, Move};

use crate::command::MoveLine;
use crate::game::{Action, ColorName, Game};
use crate::journal::replay::DRAW_OFFER;
use crate::journal::{EntryKind, NewOutbox, Record};
use crate::notation::{Iccf, Lang, san};

use super::state::{State, dots};
use super::{Channel, Pending, Reply, Sender, Status, render};

impl State {
    pub(super) async fn play(&mut self, sender: &Sender, game_id: &str, line: MoveLine) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let lang = self.lang_of(&sender.player);
        let game = &self.games[game_id];
        let mut draw_offer = line.marks.draw_offer;
        if let Some(repeat) = &line.repeat
            && let Err(refusal) = game.check_repeat(repeat, lang)
        {
            return self.refuse(sender, game_id, refusal.into()).await;
        }
        let m = match game.check_move(color, &line.text, line.number, lang) {
            Ok(read) => {
                draw_offer |= read.marks.draw_offer;
                read.m
            }
            Err(refusal) => return self.refuse(sender, game_id, refusal.into()).await,
        };

        let number = game.move_number();
        let iccf = Iccf::from_move(m).to_string();
        let own_text = self.written_for(&sender.player, game.position(), m);
        let owner = game.player(!color).to_owned();
        let owner_had_line = !game.conditional(!color).is_empty();
        let (mut after, mut record) =
            self.move_record(game, color, m, draw_offer, &self.said, sender.channel);
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
                Channel::Conditional,
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

    /// `color`'s move `m` in `game`: the game after it, and its record (an entry of `kind`,
    /// written `written`, arriving by `channel`) with the push telling the opponent, in the
    /// opponent's notation, with both clocks.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_record(
        &self,
        game: &Game,
        color: Color,
        m: Move,
        draw_offer: bool,
        written: &str,
        channel: Channel,
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

    pub(super) async fn act(&mut self, sender: &Sender, game_id: &str, action: Action) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let game = &self.games[game_id];
        if let Err(refusal) = game.check(color, &action, self.now) {
            return self.refuse(sender, game_id, refusal.into()).await;
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
        let entry = self.said_entry(sender, game_id, kind);
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

    /// A message to the opponent: journaled, and delivered through the outbox like a move.
    pub(super) async fn message(&mut self, sender: &Sender, game_id: &str, text: &str) -> Pending {
        let color = match self.seat(sender, game_id) {
            Ok(color) => color,
            Err(reply) => return Pending::Now(reply),
        };
        let opponent = self.games[game_id].player(!color).to_owned();
        let mut entry = self.said_entry(sender, game_id, EntryKind::Message);
        entry.detail = text.to_owned();
        let record = Record {
            entry,
            outbox: vec![NewOutbox {
                player: opponent.clone(),
                body: render::message_push(game_id, &sender.player, ColorName(color), text),
            }],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => Pending::AfterCommit(
                committed,
                Reply::new(
                    Status::Done,
                    format!("message sent {game_id} to {opponent}"),
                ),
            ),
            Err(reply) => Pending::Now(reply),
        }
    }
}
