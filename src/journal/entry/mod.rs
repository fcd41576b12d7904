//! What an entry means, in one place: a typed [`Meaning`] for every [`EntryKind`], and the
//! one encoder and decoder between it and the columns the record stores (the kind, the move
//! in the `iccf` column, the `detail` text). The structured details are defined here too
//! (the registry and the key history name theirs as they always have), so that the modules
//! that read them use this one and it uses none of them.
//!
//! The relay writes entries through [`NewEntry::set_meaning`]; replay, the outbox's moves read
//! back, the registry, the key history and the exports read them through [`Meaning::of`]. A
//! new kind is a variant here, and the compiler names every place that must learn it. The
//! stored form is the chain's: an encoder here must write exactly the bytes the relay has
//! always written (the tests check every entry of a journal written by an earlier release).

pub mod hash;
pub mod kind;
mod registry_detail;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

pub use self::kind::EntryKind;
pub use self::registry_detail::{
    DigestDetail, DrawDetail, EnterDetail, LotDetail, NotifyDetail, PlayerRecord, RatingDetail,
    RemoteHealth, RemoteStatusDetail, SecretDetail, StartDetail, WithdrawDetail,
};
use super::{Entry, JournalError, NewEntry};
use crate::event::Event;
use crate::game::clock::{Leave, Overdue, Rules};
use crate::game::{Action, Authority, Claim, Game, Kind};

/// A move entry's detail when the move carried a draw offer (otherwise it is empty).
pub const DRAW_OFFER: &str = "draw_offer";

/// What an entry says beyond who, when, by which channel and the text as received: one
/// variant per [`EntryKind`], holding what its `iccf` and `detail` columns carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// A game's players, start position, rules and place in an event.
    GameStart(Box<GameStartDetail>),
    /// A move, as the record keeps it (ICCF numeric for chess), and whether a draw offer
    /// rode with it.
    Move {
        iccf: String,
        draw_offer: bool,
    },
    /// A refused attempt, and why.
    Rejected {
        reason: String,
    },
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    /// How a game ended, as the relay wrote it (`1-0 (resignation)`); it follows from the
    /// entries before it.
    Result {
        text: String,
    },
    Leave(Leave),
    /// A conditional line: its moves as the record keeps them (empty: the line cancelled).
    Conditional {
        line: Vec<String>,
    },
    /// A draw claim, on the position or with a move.
    Claim {
        claim: Claim,
        iccf: Option<String>,
    },
    TimeUp(TimeUpDetail),
    /// The player to move was reminded after so many days.
    Reminder {
        days: u32,
    },
    Adjudication(AdjudicationDetail),
    SpecialLeave(SpecialLeaveDetail),
    /// The game stopped for the arbiter, and why.
    Stopped {
        reason: String,
    },
    /// A message to the opponent.
    Message {
        text: String,
    },
    /// The relay's first signing key: its public half is in the entry's text, the detail
    /// is empty.
    SigningKey,
    KeyRotation(RotationDetail),
    /// An action for the node that keeps a game's record, as a command's text, with its move
    /// as the record keeps it when it is one.
    Proposal {
        command: String,
        iccf: Option<String>,
    },
    PlayerAdd(PlayerRecord),
    PlayerSet(PlayerRecord),
    PlayerSecret(SecretDetail),
    EventNew(Box<Event>),
    EventEnter(EnterDetail),
    EventDraw(DrawDetail),
    EventStart(StartDetail),
    EventWithdraw(WithdrawDetail),
    /// The manual clock's new time.
    ClockSet {
        at: Timestamp,
    },
    /// Days the acting side moved from its Triple Block bank to its clock.
    Refill {
        days: u32,
    },
    /// The acting side declared a reflection longer than the silence limit on its current
    /// move, or its next one if the opponent is to move: which one follows from the entries
    /// before it.
    LongReflection,
    /// A player's choice of mail when it is their move.
    Notify(NotifyDetail),
    /// A player's daily digest came due.
    NotifyDigest(DigestDetail),
    /// A starting rating the arbiter gave a player.
    RatingSet(RatingDetail),
    /// A knock-out's level match decided by lot.
    EventLot(LotDetail),
    /// A `[[remotes]]` account's standing with its server changed.
    RemoteStatus(RemoteStatusDetail),
}

/// What the record stores of a [`Meaning`] in an entry's columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    pub kind: EntryKind,
    pub iccf: Option<String>,
    pub detail: String,
}

impl Meaning {
    /// The kind of entry that says this.
    pub fn kind(&self) -> EntryKind {
        match self {
            Meaning::GameStart(_) => EntryKind::GameStart,
            Meaning::Move { .. } => EntryKind::Move,
            Meaning::Rejected { .. } => EntryKind::Rejected,
            Meaning::DrawOffer => EntryKind::DrawOffer,
            Meaning::DrawAccept => EntryKind::DrawAccept,
            Meaning::DrawDecline => EntryKind::DrawDecline,
            Meaning::Resign => EntryKind::Resign,
            Meaning::Result { .. } => EntryKind::Result,
            Meaning::Leave(_) => EntryKind::Leave,
            Meaning::Conditional { .. } => EntryKind::Conditional,
            Meaning::Claim { .. } => EntryKind::Claim,
            Meaning::TimeUp(_) => EntryKind::TimeUp,
            Meaning::Reminder { .. } => EntryKind::Reminder,
            Meaning::Adjudication(_) => EntryKind::Adjudication,
            Meaning::SpecialLeave(_) => EntryKind::SpecialLeave,
            Meaning::Stopped { .. } => EntryKind::Stopped,
            Meaning::Message { .. } => EntryKind::Message,
            Meaning::SigningKey => EntryKind::SigningKey,
            Meaning::KeyRotation(_) => EntryKind::KeyRotation,
            Meaning::Proposal { .. } => EntryKind::Proposal,
            Meaning::PlayerAdd(_) => EntryKind::PlayerAdd,
            Meaning::PlayerSet(_) => EntryKind::PlayerSet,
            Meaning::PlayerSecret(_) => EntryKind::PlayerSecret,
            Meaning::EventNew(_) => EntryKind::EventNew,
            Meaning::EventEnter(_) => EntryKind::EventEnter,
            Meaning::EventDraw(_) => EntryKind::EventDraw,
            Meaning::EventStart(_) => EntryKind::EventStart,
            Meaning::EventWithdraw(_) => EntryKind::EventWithdraw,
            Meaning::ClockSet { .. } => EntryKind::ClockSet,
            Meaning::Refill { .. } => EntryKind::Refill,
            Meaning::LongReflection => EntryKind::LongReflection,
            Meaning::Notify(_) => EntryKind::Notify,
            Meaning::NotifyDigest(_) => EntryKind::NotifyDigest,
            Meaning::RatingSet(_) => EntryKind::RatingSet,
            Meaning::EventLot(_) => EntryKind::EventLot,
            Meaning::RemoteStatus(_) => EntryKind::RemoteStatus,
        }
    }

    /// The entry's meaning of one of the simple actions, which need nothing but their kind:
    /// a draw offer, its acceptance or decline, a resignation. `None` for any other action.
    pub fn of_simple_action(action: &Action) -> Option<Meaning> {
        match action {
            Action::OfferDraw => Some(Meaning::DrawOffer),
            Action::AcceptDraw => Some(Meaning::DrawAccept),
            Action::DeclineDraw => Some(Meaning::DrawDecline),
            Action::Resign => Some(Meaning::Resign),
            _ => None,
        }
    }

    /// The columns the record stores. A structured detail that cannot be written is an
    /// error, never an empty detail: replay reads it back.
    pub fn encode(&self) -> Result<Encoded, JournalError> {
        let text = |s: &str| Ok(s.to_owned());
        let (iccf, detail) = match self {
            Meaning::GameStart(d) => (None, json(d)),
            Meaning::Move { iccf, draw_offer } => {
                let (iccf, detail) = move_columns(iccf.clone(), *draw_offer);
                (iccf, Ok(detail))
            }
            Meaning::Rejected { reason } => (None, text(reason)),
            Meaning::DrawOffer
            | Meaning::DrawAccept
            | Meaning::DrawDecline
            | Meaning::Resign
            | Meaning::SigningKey
            | Meaning::LongReflection => (None, text("")),
            Meaning::Result { text: result } => (None, text(result)),
            Meaning::Leave(leave) => (None, json(leave)),
            Meaning::Conditional { line } => (None, Ok(line.join(" "))),
            Meaning::Claim { claim, iccf } => (iccf.clone(), text(claim.as_str())),
            Meaning::TimeUp(d) => (None, json(d)),
            Meaning::Reminder { days } => (None, Ok(days.to_string())),
            Meaning::Adjudication(d) => (None, json(d)),
            Meaning::SpecialLeave(d) => (None, json(d)),
            Meaning::Stopped { reason } => (None, text(reason)),
            Meaning::Message { text: message } => (None, text(message)),
            Meaning::KeyRotation(d) => (None, json(d)),
            Meaning::Proposal { command, iccf } => (iccf.clone(), text(command)),
            Meaning::PlayerAdd(d) | Meaning::PlayerSet(d) => (None, json(d)),
            Meaning::PlayerSecret(d) => (None, json(d)),
            Meaning::EventNew(d) => (None, json(d)),
            Meaning::EventEnter(d) => (None, json(d)),
            Meaning::EventDraw(d) => (None, json(d)),
            Meaning::EventStart(d) => (None, json(d)),
            Meaning::EventWithdraw(d) => (None, json(d)),
            Meaning::ClockSet { at } => (None, Ok(at.to_string())),
            Meaning::Refill { days } => (None, Ok(days.to_string())),
            Meaning::Notify(d) => (None, json(d)),
            Meaning::NotifyDigest(d) => (None, json(d)),
            Meaning::RatingSet(d) => (None, json(d)),
            Meaning::EventLot(d) => (None, json(d)),
            Meaning::RemoteStatus(d) => (None, json(d)),
        };
        Ok(Encoded {
            kind: self.kind(),
            iccf,
            detail: detail?,
        })
    }

    /// Reads an entry's columns back; an error says what does not read (the relay could not
    /// have written it).
    pub fn decode(kind: EntryKind, iccf: Option<&str>, detail: &str) -> Result<Meaning, String> {
        let what = kind.as_str();
        let parsed = |why: String| format!("{}: {why}", what.replace('_', " "));
        let iccf = iccf.map(str::to_owned);
        Ok(match kind {
            EntryKind::GameStart => Meaning::GameStart(Box::new(
                from_json(detail).map_err(|err| format!("game start detail: {err}"))?,
            )),
            EntryKind::Move => Meaning::Move {
                iccf: iccf.ok_or_else(|| parsed("no move".to_owned()))?,
                draw_offer: match detail {
                    DRAW_OFFER => true,
                    "" => false,
                    other => return Err(parsed(format!("detail {other:?}"))),
                },
            },
            EntryKind::Rejected => Meaning::Rejected {
                reason: detail.to_owned(),
            },
            EntryKind::DrawOffer => Meaning::DrawOffer,
            EntryKind::DrawAccept => Meaning::DrawAccept,
            EntryKind::DrawDecline => Meaning::DrawDecline,
            EntryKind::Resign => Meaning::Resign,
            EntryKind::Result => Meaning::Result {
                text: detail.to_owned(),
            },
            EntryKind::Leave => Meaning::Leave(from_json(detail).map_err(parsed)?),
            EntryKind::Conditional => Meaning::Conditional {
                line: detail.split_whitespace().map(str::to_owned).collect(),
            },
            EntryKind::Claim => Meaning::Claim {
                claim: detail.parse().map_err(parsed)?,
                iccf,
            },
            EntryKind::TimeUp => Meaning::TimeUp(from_json(detail).map_err(parsed)?),
            EntryKind::Reminder => Meaning::Reminder {
                days: detail.parse().map_err(|err| parsed(format!("{err}")))?,
            },
            EntryKind::Adjudication => Meaning::Adjudication(from_json(detail).map_err(parsed)?),
            EntryKind::SpecialLeave => Meaning::SpecialLeave(from_json(detail).map_err(parsed)?),
            EntryKind::Stopped => Meaning::Stopped {
                reason: detail.to_owned(),
            },
            EntryKind::Message => Meaning::Message {
                text: detail.to_owned(),
            },
            EntryKind::SigningKey => Meaning::SigningKey,
            EntryKind::KeyRotation => Meaning::KeyRotation(from_json(detail).map_err(parsed)?),
            EntryKind::Proposal => Meaning::Proposal {
                command: detail.to_owned(),
                iccf,
            },
            EntryKind::PlayerAdd => Meaning::PlayerAdd(registry_detail(kind, detail)?),
            EntryKind::PlayerSet => Meaning::PlayerSet(registry_detail(kind, detail)?),
            EntryKind::PlayerSecret => Meaning::PlayerSecret(registry_detail(kind, detail)?),
            EntryKind::EventNew => Meaning::EventNew(Box::new(registry_detail(kind, detail)?)),
            EntryKind::EventEnter => Meaning::EventEnter(registry_detail(kind, detail)?),
            EntryKind::EventDraw => Meaning::EventDraw(registry_detail(kind, detail)?),
            EntryKind::EventStart => Meaning::EventStart(registry_detail(kind, detail)?),
            EntryKind::EventWithdraw => Meaning::EventWithdraw(registry_detail(kind, detail)?),
            EntryKind::ClockSet => Meaning::ClockSet {
                at: detail.parse().map_err(|err| parsed(format!("{err}")))?,
            },
            EntryKind::Refill => Meaning::Refill {
                days: match detail.parse::<u32>() {
                    // Written by the one encoder: digits only, never `+5` or `05`.
                    Ok(days) if days.to_string() == detail => days,
                    _ => return Err(parsed(format!("detail {detail:?}"))),
                },
            },
            EntryKind::LongReflection => match detail {
                "" => Meaning::LongReflection,
                other => return Err(parsed(format!("detail {other:?}"))),
            },
            EntryKind::Notify => Meaning::Notify(registry_detail(kind, detail)?),
            EntryKind::NotifyDigest => Meaning::NotifyDigest(registry_detail(kind, detail)?),
            EntryKind::RatingSet => Meaning::RatingSet(registry_detail(kind, detail)?),
            EntryKind::EventLot => Meaning::EventLot(registry_detail(kind, detail)?),
            EntryKind::RemoteStatus => Meaning::RemoteStatus(registry_detail(kind, detail)?),
        })
    }

    /// What a committed entry says; an entry that does not read is corrupt, named by its
    /// number.
    pub fn of(e: &Entry) -> Result<Meaning, JournalError> {
        Meaning::decode(e.kind, e.iccf.as_deref(), &e.detail)
            .map_err(|why| JournalError::Corrupt(format!("entry {}: {why}", e.seq)))
    }
}

impl NewEntry {
    /// Writes `meaning` into the entry: its kind, its move, its detail.
    pub fn set_meaning(&mut self, meaning: &Meaning) -> Result<(), JournalError> {
        let encoded = meaning.encode()?;
        self.kind = encoded.kind;
        self.iccf = encoded.iccf;
        self.detail = encoded.detail;
        Ok(())
    }
}

impl NewEntry {
    /// Writes a move into the entry ([`Meaning::Move`]): the move as the record keeps it and
    /// whether a draw offer rode with it. A move's columns are text, so this cannot fail:
    /// the relay writes one a move without an error path to a half-played game.
    pub fn set_move(&mut self, iccf: String, draw_offer: bool) {
        let (iccf, detail) = move_columns(iccf, draw_offer);
        self.kind = EntryKind::Move;
        self.iccf = iccf;
        self.detail = detail;
    }
}

/// A move entry's `iccf` and `detail` columns: the one writer of a move's [`DRAW_OFFER`].
fn move_columns(iccf: String, draw_offer: bool) -> (Option<String>, String) {
    let detail = if draw_offer { DRAW_OFFER } else { "" };
    (Some(iccf), detail.to_owned())
}

fn json<T: Serialize>(value: &T) -> Result<String, JournalError> {
    serde_json::to_string(value).map_err(|e| JournalError::Detail(e.to_string()))
}

fn from_json<T: for<'de> Deserialize<'de>>(detail: &str) -> Result<T, String> {
    serde_json::from_str(detail).map_err(|e| e.to_string())
}

/// A registry entry's detail, an error worded as the registry has always worded it.
fn registry_detail<T: for<'de> Deserialize<'de>>(
    kind: EntryKind,
    detail: &str,
) -> Result<T, String> {
    from_json(detail).map_err(|err| format!("{} detail: {err}", kind.as_str()))
}

/// What a `game_start` entry's detail holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GameStartDetail {
    /// The game played (chess when not written, as in every journal older than the field).
    #[serde(default, skip_serializing_if = "is_chess")]
    pub kind: Kind,
    pub white: String,
    pub black: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The time rules the game is played under (none in journals older than clocks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// Round, for the records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// Board within the round, for an event's games paired by the relay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// Leave each player (White, Black) had announced when the game started and that was not
    /// over yet: it covers this game too.
    #[serde(default, skip_serializing_if = "no_leave")]
    pub leave: [Vec<Leave>; 2],
    /// In a game between two nodes, whose node keeps the record and orders every action
    /// (docs/link.md): White's unless written.
    #[serde(default, skip_serializing_if = "is_white")]
    pub authority: Authority,
}

fn is_white(a: &Authority) -> bool {
    *a == Authority::White
}

fn is_chess(kind: &Kind) -> bool {
    *kind == Kind::Chess
}

fn no_leave(leave: &[Vec<Leave>; 2]) -> bool {
    leave.iter().all(Vec::is_empty)
}

impl GameStartDetail {
    /// The game as it starts, at `started`.
    pub fn game(&self, id: &str, started: Timestamp) -> Result<Game, String> {
        let mut game = Game::of_kind(self.kind, id, &self.white, &self.black, self.fen.as_deref())?
            .with_rules(self.rules.clone().unwrap_or_else(Rules::unlimited), started);
        for (color, leave) in [Color::White, Color::Black].into_iter().zip(&self.leave) {
            for l in leave {
                game.apply_by(color, &Action::Leave(*l), started);
            }
        }
        Ok(game)
    }

    /// A `game_start` entry's detail text, read.
    pub fn from_detail(detail: &str) -> Result<GameStartDetail, String> {
        match Meaning::decode(EntryKind::GameStart, None, detail)? {
            Meaning::GameStart(detail) => Ok(*detail),
            _ => Err("not a game's start".to_owned()),
        }
    }

    /// A `game_start` entry's detail; an entry of another kind, or one that does not read,
    /// is corrupt.
    pub fn of(e: &Entry) -> Result<GameStartDetail, JournalError> {
        match Meaning::of(e)? {
            Meaning::GameStart(detail) => Ok(*detail),
            other => Err(JournalError::Corrupt(format!(
                "entry {}: a {} entry, not a game's start",
                e.seq,
                other.kind().as_str()
            ))),
        }
    }
}

/// A `time_up` entry's detail.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TimeUpDetail {
    pub overdue: Overdue,
    pub forfeit: bool,
}

/// An `adjudication` entry's detail.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct AdjudicationDetail {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub reason: String,
    /// Decided because the loser withdrew from the event (the game was not played out).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawal: bool,
}

/// A `special_leave` entry's detail: the arbiter's leave for `player` in one game (the
/// entry's author is the arbiter, so the player on leave is named here).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SpecialLeaveDetail {
    pub player: String,
    pub first: jiff::civil::Date,
    pub days: u32,
    pub reason: String,
}

impl SpecialLeaveDetail {
    /// The leave it grants.
    pub fn leave(&self) -> Leave {
        Leave::special(self.first, self.days)
    }
}

/// A `key_rotation` entry's detail: the old key, the new one, and the old key's signature
/// over the rotation message (`signing::rotation_message`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct RotationDetail {
    pub old: String,
    pub new: String,
    pub signature: String,
}

#[cfg(test)]
mod tests;
