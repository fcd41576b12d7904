//! What arrives from the peer, handed to the relay: an entry of a record the peer keeps
//! ([`crate::relay::Relay::replicate`]), an action proposed for a record this node keeps (the
//! remote player's command, with its id and the time it was made), or the peer's refusal of
//! one of our player's proposals. A message is acknowledged only once the relay has settled
//! it (journaled, or refused for good); a relay that could not decide (a failed commit,
//! shutting down) leaves it unacknowledged, and the peer sends it again.

use super::message::{
    Act, Actor, Body, Message, Side, Text, entry_kind_of, unpack_iccf, unpack_path,
};
use super::{LinkError, LinkTask, RELAY_TIMEOUT};
use crate::command::text::{self, Logged, MAX_REASON_CHARS};
use crate::command::{Command, MoveLine};
use crate::notation::written::Marks;
use crate::relay::DRAW_OFFER;
use crate::relay::EntryKind;
use crate::relay::{
    Actor as RecordActor, Channel, Replicated, Request, Sender, Status, proposal_key, refusal_key,
};

/// REFUSED messages waiting to be sent, at most (the refusals are in the journal anyway).
const REFUSALS_MAX: usize = 256;
/// The longest text put together from pieces.
const MAX_TEXT: usize = 8192;

/// A text message whose later pieces have not arrived yet: the message of its first piece
/// and the text so far.
pub(super) struct Partial {
    first: Message,
    text: String,
}

/// The ICCF (or square-path) text of a compact move, and whether a draw was offered with it.
fn move_text(act: &Act) -> Option<(String, bool)> {
    match act {
        Act::Move {
            from,
            to,
            promotion,
            draw_offer,
        } => Some((unpack_iccf(*from, *to, *promotion), *draw_offer)),
        Act::Path {
            squares,
            len,
            capture,
            draw_offer,
        } => Some((
            unpack_path(
                squares.get(..usize::from(*len)).unwrap_or_default(),
                *capture,
            ),
            *draw_offer,
        )),
        _ => None,
    }
}

fn side_char(actor: Actor) -> char {
    match actor {
        Actor::Side(Side::White) => 'w',
        Actor::Side(Side::Black) => 'b',
        Actor::Arbiter => 'a',
    }
}

impl LinkTask {
    /// Applies a message from the peer. `Err` only when the relay did not settle it (the frame
    /// is then not acknowledged and the peer sends it again).
    pub(super) async fn apply(&mut self, message: Message) -> Result<(), LinkError> {
        // Pieces of a text wait for the last one.
        let (message, text) = match message.body() {
            Some(Body::Text(t)) => {
                let t: Text = t.clone();
                let partial = if t.first { None } else { self.partial.take() };
                let Some(mut partial) = partial.or_else(|| {
                    t.first.then(|| Partial {
                        first: message.clone(),
                        text: String::new(),
                    })
                }) else {
                    tracing::warn!(link = %self.config.id, "a later piece of a text whose first piece did not come; dropped");
                    return Ok(());
                };
                if partial.text.len() + t.chunk.len() > MAX_TEXT {
                    tracing::warn!(link = %self.config.id, "a text from the peer too long; dropped");
                    return Ok(());
                }
                partial.text.push_str(&t.chunk);
                if t.more {
                    self.partial = Some(partial);
                    return Ok(());
                }
                (partial.first, Some(partial.text))
            }
            _ => {
                self.partial = None;
                (message, None)
            }
        };
        match message {
            Message::Record {
                game,
                side,
                index,
                delta,
                body,
            } => {
                self.apply_record(game, side, index, delta, body, text)
                    .await
            }
            Message::Proposal {
                game,
                side,
                number,
                age,
                body,
            } => {
                self.apply_proposal(game, side, number, age, body, text)
                    .await
            }
            Message::Refused {
                game,
                side,
                number,
                reason,
            } => self.refused_by_peer(game, side, number, reason).await,
        }
    }

    /// An entry of the record the peer keeps.
    async fn apply_record(
        &mut self,
        code: u16,
        side: Side,
        index: u8,
        delta: u64,
        body: Body,
        text: Option<String>,
    ) -> Result<(), LinkError> {
        let (kind, actor, iccf, detail) = match (&body, text) {
            (Body::Act(act), _) => {
                let (kind, iccf, detail) = match act {
                    Act::OfferDraw => (EntryKind::DrawOffer, None, String::new()),
                    Act::AcceptDraw => (EntryKind::DrawAccept, None, String::new()),
                    Act::DeclineDraw => (EntryKind::DrawDecline, None, String::new()),
                    Act::Resign => (EntryKind::Resign, None, String::new()),
                    moved => {
                        let (iccf, offer) = move_text(moved).unwrap_or_default();
                        let detail = if offer { DRAW_OFFER } else { "" };
                        (EntryKind::Move, Some(iccf), detail.to_owned())
                    }
                };
                (kind, Actor::Side(side), iccf, detail)
            }
            (Body::Text(t), Some(text)) => {
                let Some(kind) = entry_kind_of(t.kind) else {
                    tracing::warn!(link = %self.config.id, kind = t.kind, "a record entry of a kind not known here; not applied");
                    return Ok(());
                };
                let iccf = (!t.iccf.is_empty()).then(|| t.iccf.clone());
                (kind, t.actor, iccf, text)
            }
            (Body::Text(_), None) => return Ok(()),
            (Body::Start(start), _) => {
                let Some(detail) = super::start::detail_of(start) else {
                    tracing::warn!(link = %self.config.id, "a game start this node cannot read; not applied");
                    return Ok(());
                };
                // Its game's id first, as a start written as text has it.
                let detail = format!("{}\n{detail}", start.id);
                (EntryKind::GameStart, Actor::Arbiter, None, detail)
            }
        };
        // A game's start names its game; anything else names one this node has.
        let (game, detail) = if kind == EntryKind::GameStart {
            let Some((id, detail)) = detail.split_once('\n') else {
                tracing::warn!(link = %self.config.id, text = %Logged(&detail), "a game start without its game; not applied");
                return Ok(());
            };
            if super::message::game_code(id) != code {
                tracing::warn!(link = %self.config.id, game = %Logged(id), "a game start whose code is not its game's; not applied");
                return Ok(());
            }
            (id.to_owned(), detail.to_owned())
        } else {
            match self.game(code).await? {
                Some(g) => (g.id, detail),
                None => {
                    tracing::error!(link = %self.config.id, code, "a record entry of a game not known here; not applied");
                    return Ok(());
                }
            }
        };
        let entry = Replicated {
            game: game.clone(),
            index,
            delta,
            kind,
            actor: match actor {
                Actor::Side(Side::White) => RecordActor::Side(shakmaty::Color::White),
                Actor::Side(Side::Black) => RecordActor::Side(shakmaty::Color::Black),
                Actor::Arbiter => RecordActor::Arbiter,
            },
            iccf,
            detail,
        };
        let reply = tokio::time::timeout(RELAY_TIMEOUT, self.relay.replicate(entry))
            .await
            .map_err(|_| LinkError::Relay("timed out".to_owned()))?;
        if kind == EntryKind::GameStart {
            // A new game: its code names it from now on.
            self.games_read = None;
        }
        match reply.status {
            Status::Done | Status::Seen => Ok(()),
            status if !status.is_final() => Err(LinkError::Relay(reply.text)),
            _ => {
                // The two records disagree: said loudly, and not retried for ever.
                tracing::error!(link = %self.config.id, game = %Logged(&game), reason = %Logged(&reply.text), "the peer's record entry was refused here");
                Ok(())
            }
        }
    }

    /// An action of the player across the link, for a record this node keeps.
    async fn apply_proposal(
        &mut self,
        code: u16,
        side: Side,
        number: u16,
        age: u64,
        body: Body,
        text: Option<String>,
    ) -> Result<(), LinkError> {
        let Some(game) = self.game(code).await? else {
            self.refuse(code, side, number, "no such game on this node".to_owned());
            return Ok(());
        };
        let actor = match &body {
            Body::Text(t) => t.actor,
            Body::Act(_) => Actor::Side(side),
            Body::Start(_) => {
                self.refuse(
                    code,
                    side,
                    number,
                    "a game's start is not proposed".to_owned(),
                );
                return Ok(());
            }
        };
        let sender = match actor {
            Actor::Side(side) => {
                let player = match side {
                    Side::White => game.white.clone(),
                    Side::Black => game.black.clone(),
                };
                if !self.remote.contains(&player) {
                    self.refuse(
                        code,
                        side,
                        number,
                        format!("{player} is not across this link"),
                    );
                    return Ok(());
                }
                Sender {
                    player,
                    admin: false,
                    channel: Channel::Link,
                }
            }
            Actor::Arbiter => Sender {
                player: "admin".to_owned(),
                admin: true,
                channel: Channel::Link,
            },
        };
        let gid = game.id.clone();
        let command = match (&body, text) {
            (Body::Act(act), _) => match act {
                Act::OfferDraw => Command::OfferDraw { game: gid },
                Act::AcceptDraw => Command::AcceptDraw { game: gid },
                Act::DeclineDraw => Command::DeclineDraw { game: gid },
                Act::Resign => Command::Resign { game: gid },
                moved => {
                    let (text, draw_offer) = move_text(moved).unwrap_or_default();
                    Command::Move {
                        game: gid,
                        line: MoveLine {
                            text,
                            marks: Marks {
                                draw_offer,
                                ..Marks::default()
                            },
                            ..MoveLine::default()
                        },
                    }
                }
            },
            (Body::Text(_), Some(text)) => match Command::parse(&text) {
                // What the other node may propose as text: a player's claim, message,
                // leave, refill from a Triple Block bank or long reflection declared, the
                // arbiter's adjudication; in this game only.
                Ok(
                    c @ (Command::Claim { .. }
                    | Command::Message { .. }
                    | Command::Bank { .. }
                    | Command::LongReflection { .. }),
                ) if !sender.admin && c.game() == Some(game.id.as_str()) => c,
                Ok(c @ Command::Leave { .. }) if !sender.admin => c,
                Ok(c @ Command::Adjudicate { .. })
                    if sender.admin && c.game() == Some(game.id.as_str()) =>
                {
                    c
                }
                Ok(_) | Err(_) => {
                    self.refuse(
                        code,
                        side,
                        number,
                        "not an action the link carries".to_owned(),
                    );
                    return Ok(());
                }
            },
            (Body::Text(_), None) | (Body::Start(_), _) => return Ok(()),
        };
        let key = proposal_key(&game.id, side_char(actor), u32::from(number));
        let age = jiff::SignedDuration::from_secs(i64::try_from(age).unwrap_or(i64::MAX / 2));
        let request = Request::new(sender, command)
            .key(Some(key.clone()))
            .age(age);
        let reply = tokio::time::timeout(RELAY_TIMEOUT, self.relay.call(request))
            .await
            .map_err(|_| LinkError::Relay("timed out".to_owned()))?;
        match reply.status {
            status if status.is_success() => Ok(()),
            status if !status.is_final() => Err(LinkError::Relay(reply.text)),
            // Refused: journaled with the action's id by the relay, whose outbox row carries
            // the refusal back. A refusal made before any game was touched (no such game
            // here, no such player) has no entry, and is sent from here.
            _ => {
                if self.mailbox.seen(&key).await?.is_none() {
                    let first = reply.text.lines().next().unwrap_or("").to_owned();
                    self.refuse(code, side, number, first);
                }
                Ok(())
            }
        }
    }

    /// A refusal the relay could not journal in the game: sent from memory, not durably.
    pub(super) fn refuse(&mut self, game: u16, side: Side, number: u16, reason: String) {
        tracing::warn!(link = %self.config.id, game, ?side, number, reason = %Logged(&reason), "refusing the peer's action");
        if self.to_send.len() >= REFUSALS_MAX {
            tracing::warn!(link = %self.config.id, "too many refusals waiting; this one is only logged");
            return;
        }
        self.to_send.push_back((
            None,
            Message::Refused {
                game,
                side,
                number,
                reason,
            },
        ));
    }

    /// The peer refused one of our local player's proposals: journal it and tell the player.
    async fn refused_by_peer(
        &mut self,
        code: u16,
        side: Side,
        number: u16,
        reason: String,
    ) -> Result<(), LinkError> {
        let Some(game) = self.game(code).await? else {
            tracing::warn!(link = %self.config.id, code, reason = %Logged(&reason), "the peer refused an action in a game not known here");
            return Ok(());
        };
        let player = match side {
            Side::White => game.white.clone(),
            Side::Black => game.black.clone(),
        };
        let opponent = match side {
            Side::White => &game.black,
            Side::Black => &game.white,
        };
        if self.remote.contains(&player) || !self.remote.contains(opponent) {
            // Only our own players' actions in games against this link's players can be
            // refused by this peer; anything else would be recorded against the wrong side
            // or in a game the peer has nothing to do with.
            tracing::warn!(link = %self.config.id, game = %game.id, %player, "the peer reported a refusal for a game or player it does not play; ignored");
            return Ok(());
        }
        tracing::warn!(link = %self.config.id, game = %game.id, %player, number, reason = %Logged(&reason), "the peer refused our action");
        let key = refusal_key(&game.id, side_char(Actor::Side(side)), u32::from(number));
        let sender = Sender {
            player,
            admin: false,
            channel: Channel::Link,
        };
        // The peer's words, journaled and shown to our player: made fit by the one text
        // check's scrub (a peer's refusal is not ours to refuse; an empty one says so).
        let reason = match text::scrub(&reason, MAX_REASON_CHARS) {
            r if r.is_empty() => "no reason given".to_owned(),
            r => r,
        };
        let command = Command::PeerRefused {
            game: game.id.clone(),
            number: u32::from(number),
            reason,
        };
        let request = Request::new(sender, command).key(Some(key));
        let reply = tokio::time::timeout(RELAY_TIMEOUT, self.relay.call(request))
            .await
            .map_err(|_| LinkError::Relay("timed out".to_owned()))?;
        if reply.status.is_final() {
            Ok(())
        } else {
            Err(LinkError::Relay(reply.text))
        }
    }
}
