//! What an outbox item becomes on the wire: the typed item a local player's action left for a
//! player across the link, as a frame's message (a move, a draw offer, an answer to one, a
//! resignation); everything else is each node's own business and is not sent.

use super::message::{Act, Message, Side, game_code, pack_iccf, pack_path};
use super::{LinkError, LinkTask};
use crate::game::Kind;
use crate::relay::notice::DrawAct;
use crate::relay::{LinkAction, LinkItem, Notice};

impl LinkTask {
    /// The message reporting an outbox item to the peer; `None` for what the link does not
    /// carry (game starts, results, clock messages: each node makes its own).
    pub(super) async fn message_for(
        &mut self,
        row: &LinkItem,
    ) -> Result<Option<Message>, LinkError> {
        if self.remote.contains(&row.actor) {
            return Ok(None);
        }
        // Chess packs a move as ICCF squares, a game of numbered squares as their path.
        let path = matches!(&row.notice, Notice::Move(m) if m.mv.kind != Kind::Chess);
        let action = match (&row.notice, &row.legacy) {
            (Notice::Move(m), _) => LinkAction::Move {
                iccf: m.mv.iccf.clone(),
                draw_offer: m.draw_offer,
            },
            (Notice::Draw { act, .. }, _) => match act {
                DrawAct::Offered => LinkAction::OfferDraw,
                DrawAct::Accepted => LinkAction::AcceptDraw,
                DrawAct::Declined => LinkAction::DeclineDraw,
            },
            (Notice::Resigned { .. }, _) => LinkAction::Resign,
            (Notice::Legacy { .. }, Some(action)) => action.clone(),
            _ => return Ok(None),
        };
        let act = match action {
            LinkAction::Move { iccf, draw_offer } => {
                let packed = if path {
                    pack_path(&iccf, draw_offer)
                } else {
                    pack_iccf(&iccf).map(|(from, to, promotion)| Act::Move {
                        from,
                        to,
                        promotion,
                        draw_offer,
                    })
                };
                let Some(act) = packed else {
                    tracing::error!(link = %self.config.id, outbox = row.id, "a move in no form the link packs; not sent");
                    return Ok(None);
                };
                act
            }
            LinkAction::OfferDraw => Act::OfferDraw,
            LinkAction::AcceptDraw => Act::AcceptDraw,
            LinkAction::DeclineDraw => Act::DeclineDraw,
            LinkAction::Resign => Act::Resign,
        };
        let code = game_code(&row.game);
        let Some(game) = self.game(code).await? else {
            tracing::error!(link = %self.config.id, game = %row.game, "game not in the journal; not sent");
            return Ok(None);
        };
        let side = if game.white == row.actor {
            Side::White
        } else {
            Side::Black
        };
        let Ok(number) = u16::try_from(row.number) else {
            tracing::error!(link = %self.config.id, game = %row.game, "more actions than a frame numbers; not sent");
            return Ok(None);
        };
        Ok(Some(Message::Action {
            game: code,
            side,
            number,
            act,
        }))
    }
}
