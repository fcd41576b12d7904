//! What an outbox item becomes on the wire. The relay leaves a player across the link only
//! what the link is to send (docs/link.md, "One record"): where this node keeps a game's
//! record, each entry of it and each refusal of that player's proposals; where the other node
//! keeps it, each proposal of this node's player. A compact form where there is one (a move,
//! a draw offer, an answer, a resignation, a usual game's start), text in pieces for the rest.

use jiff::Timestamp;

use super::message::{
    Act, Actor, Body, MAX_CHUNK, Message, Side, Text, entry_kind_code, game_code, pack_iccf,
    pack_path,
};
use super::{LinkError, LinkTask};
use crate::command::Command;
use crate::relay::DRAW_OFFER;
use crate::relay::EntryKind;
use crate::relay::{GamePlayers, LinkItem, Notice};

/// A move's compact form: ICCF squares for chess, the squares' numbers for a game of numbered
/// squares (`22-18`, `22x15`: ICCF chess moves have no separator).
fn pack_move(iccf: &str, draw_offer: bool) -> Option<Act> {
    if iccf.contains(['-', 'x']) {
        pack_path(iccf, draw_offer)
    } else {
        pack_iccf(iccf).map(|(from, to, promotion)| Act::Move {
            from,
            to,
            promotion,
            draw_offer,
        })
    }
}

/// `text` in pieces of at most [`MAX_CHUNK`] bytes, cut on character boundaries; one empty
/// piece for an empty text.
fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let mut end = rest.len().min(MAX_CHUNK);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
        if rest.is_empty() {
            return out;
        }
    }
}

/// Text `text` (with `iccf` in its first piece) as the bodies of consecutive messages.
fn text_bodies(kind: u8, actor: Actor, iccf: &str, text: &str) -> Vec<Body> {
    let parts = pieces(text);
    let last = parts.len() - 1;
    parts
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            Body::Text(Text {
                kind,
                actor,
                first: i == 0,
                more: i < last,
                iccf: if i == 0 {
                    iccf.to_owned()
                } else {
                    String::new()
                },
                chunk: chunk.to_owned(),
            })
        })
        .collect()
}

fn actor_of(game: &GamePlayers, player: &str) -> Actor {
    if player == game.white {
        Actor::Side(Side::White)
    } else if player == game.black {
        Actor::Side(Side::Black)
    } else {
        Actor::Arbiter
    }
}

fn side_of(actor: Actor) -> Side {
    match actor {
        Actor::Side(side) => side,
        Actor::Arbiter => Side::White,
    }
}

impl LinkTask {
    /// The messages reporting an outbox item to the peer, in order; none for what the link
    /// does not carry (rows written for a player across the link before this protocol).
    pub(super) async fn messages_for(&mut self, row: &LinkItem) -> Result<Vec<Message>, LinkError> {
        if !matches!(
            row.notice,
            Notice::Record { .. } | Notice::Proposal { .. } | Notice::Refused { .. }
        ) {
            return Ok(Vec::new());
        }
        let code = game_code(&row.game);
        let Some(game) = self.game(code).await? else {
            tracing::error!(link = %self.config.id, game = %row.game, "game not in the journal; not sent");
            return Ok(Vec::new());
        };
        let actor = actor_of(&game, &row.actor);
        let side = side_of(actor);
        let messages = match &row.notice {
            Notice::Record { index, .. } => {
                let delta = match row.before {
                    Some(before) => row.time.as_second() - before.as_second(),
                    None => row.time.as_second(),
                };
                let delta = u64::try_from(delta).unwrap_or(0);
                let index = *index as u8;
                let compact = match row.kind {
                    EntryKind::Move => row
                        .iccf
                        .as_deref()
                        .and_then(|m| pack_move(m, row.detail == DRAW_OFFER)),
                    EntryKind::DrawOffer => Some(Act::OfferDraw),
                    EntryKind::DrawAccept => Some(Act::AcceptDraw),
                    EntryKind::DrawDecline => Some(Act::DeclineDraw),
                    EntryKind::Resign => Some(Act::Resign),
                    _ => None,
                };
                let start = (row.kind == EntryKind::GameStart)
                    .then(|| super::start::compact(&row.game, &row.detail))
                    .flatten();
                let bodies = match (compact, actor, start) {
                    (_, _, Some(start)) => vec![Body::Start(start)],
                    (Some(act), Actor::Side(_), None) => vec![Body::Act(act)],
                    _ => {
                        let Some(kind) = entry_kind_code(row.kind) else {
                            return Ok(Vec::new());
                        };
                        // A game's start names the game: the other node has no game to
                        // match the code with yet.
                        let text = if row.kind == EntryKind::GameStart {
                            format!("{}\n{}", row.game, row.detail)
                        } else {
                            row.detail.clone()
                        };
                        text_bodies(kind, actor, row.iccf.as_deref().unwrap_or(""), &text)
                    }
                };
                bodies
                    .into_iter()
                    .map(|body| Message::Record {
                        game: code,
                        side,
                        index,
                        delta,
                        body,
                    })
                    .collect()
            }
            Notice::Proposal { number, .. } => {
                let Ok(number) = u16::try_from(*number) else {
                    tracing::error!(link = %self.config.id, game = %row.game, "more proposals than a frame numbers; not sent");
                    return Ok(Vec::new());
                };
                let age = Timestamp::now().as_second() - row.time.as_second();
                let age = u64::try_from(age).unwrap_or(0);
                let command = match Command::parse(&row.detail) {
                    Ok(command) => command,
                    Err(e) => {
                        tracing::error!(link = %self.config.id, game = %row.game, error = %e, "a proposal that does not read; not sent");
                        return Ok(Vec::new());
                    }
                };
                let compact = match (&command, actor) {
                    (Command::Move { line, .. }, Actor::Side(_)) => row
                        .iccf
                        .as_deref()
                        .and_then(|m| pack_move(m, line.marks.draw_offer)),
                    (Command::OfferDraw { .. }, Actor::Side(_)) => Some(Act::OfferDraw),
                    (Command::AcceptDraw { .. }, Actor::Side(_)) => Some(Act::AcceptDraw),
                    (Command::DeclineDraw { .. }, Actor::Side(_)) => Some(Act::DeclineDraw),
                    (Command::Resign { .. }, Actor::Side(_)) => Some(Act::Resign),
                    _ => None,
                };
                let bodies = match compact {
                    Some(act) => vec![Body::Act(act)],
                    None => text_bodies(0, actor, "", &row.detail),
                };
                bodies
                    .into_iter()
                    .map(|body| Message::Proposal {
                        game: code,
                        side,
                        number,
                        age,
                        body,
                    })
                    .collect()
            }
            Notice::Refused { number, reason, .. } => {
                let Ok(number) = u16::try_from(*number) else {
                    return Ok(Vec::new());
                };
                // The refused action was the reader's: their side.
                vec![Message::Refused {
                    game: code,
                    side: side_of(actor_of(&game, &row.to)),
                    number,
                    reason: reason.clone(),
                }]
            }
            _ => Vec::new(),
        };
        Ok(messages)
    }
}
