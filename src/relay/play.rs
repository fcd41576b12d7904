//! Moves and the simple actions (draw offer, acceptance, decline, resignation): checked against
//! the game, journaled, pushed to the opponent.

use shakmaty::{Color, Move};

use crate::game::{Action, Game, Refusal};
use crate::journal::replay::DRAW_OFFER;
use crate::journal::{EntryKind, Record};
use crate::notation::written::Marks;
use crate::notation::{Iccf, Lang, san};

use super::notice::{Clocks, DrawAct, MoveData, MoveNotice, Notice};
use super::state::{Refused, State, dots, notice_for};
use super::{Pending, Sender, render};

impl State {
    pub(super) async fn play(
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
        let (mut after, record) =
            self.move_record(game, color, m, draw_offer, &written, sender.channel, false);
        let mut records = vec![record];
        if let Some(answer) = after.conditional_reply() {
            // The opponent's conditional line expected this move: its answer is played at
            // once, at the same instant (it costs no time).
            let answer_iccf = Iccf::from_move(answer).to_string();
            let played = Box::new(MoveData::of(&after, answer));
            let (answered, mut answer_record) = self.move_record(
                &after,
                !color,
                answer,
                false,
                &format!("conditional {answer_iccf}"),
                "conditional",
                true,
            );
            let left = answered.conditional(!color).len() / 2;
            answer_record.outbox.push(notice_for(
                &owner,
                &Notice::LinePlayed {
                    game: game_id.to_owned(),
                    mv: played,
                    left: u32::try_from(left).unwrap_or(u32::MAX),
                },
            ));
            records.push(answer_record);
            after = answered;
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
    /// written `written`, arriving by `channel`) with the notice telling the opponent, with
    /// both clocks; `from_line` for an answer played from the mover's conditional line.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_record(
        &self,
        game: &Game,
        color: Color,
        m: Move,
        draw_offer: bool,
        written: &str,
        channel: &str,
        from_line: bool,
    ) -> (Game, Record) {
        let before = game.position();
        let player = game.player(color);
        let opponent = game.player(!color);
        let mv = MoveData::of(game, m);
        let mut entry = self.entry(&game.id, player, channel, EntryKind::Move, written);
        entry.iccf = Some(mv.iccf.clone());
        entry.san = Some(san::write(before, m, Lang::English));
        if draw_offer {
            entry.detail = DRAW_OFFER.to_owned();
        }
        let mut after = game.clone();
        after.apply_by(color, &Action::Move { m, draw_offer }, self.now);
        // The opponent's line did not expect this move (or has run out): it is gone.
        let cancels_line = !from_line
            && !game.conditional(!color).is_empty()
            && after.conditional(!color).is_empty()
            && after.conditional_reply().is_none();
        let notice = Notice::Move(Box::new(MoveNotice {
            game: game.id.clone(),
            mover: player.to_owned(),
            mv,
            draw_offer,
            clocks: Clocks::of(&after, self.now),
            from_line,
            cancels_line,
        }));
        let record = Record {
            entry,
            outbox: vec![notice_for(opponent, &notice)],
        };
        (after, record)
    }

    pub(super) async fn act(
        &mut self,
        sender: &Sender,
        game_id: &str,
        action: Action,
        word: &str,
    ) -> Pending {
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
        let (by, side, game) = (sender.player.clone(), color.into(), game_id.to_owned());
        let notice = match action {
            Action::OfferDraw => Notice::Draw {
                game,
                by,
                side,
                act: DrawAct::Offered,
            },
            Action::AcceptDraw => Notice::Draw {
                game,
                by,
                side,
                act: DrawAct::Accepted,
            },
            Action::DeclineDraw => Notice::Draw {
                game,
                by,
                side,
                act: DrawAct::Declined,
            },
            _ => Notice::Resigned { game, by, side },
        };
        let entry = self.entry(game_id, &sender.player, sender.channel, kind, word);
        let records = vec![Record {
            entry,
            outbox: vec![notice_for(&opponent, &notice)],
        }];
        let reply = format!("{} {game_id}", kind.as_str().replace('_', " "));
        self.commit(sender, after, records, reply).await
    }
}
