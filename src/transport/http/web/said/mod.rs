//! What the relay says, in the page's language: a reply rendered from its typed kind and
//! values ([`crate::relay::Said`]) through the catalog, never from the line protocol's English
//! line (which stays the protocol's); the game's refusals and why a move cannot be read, in
//! the same words; the page's own refusals of a form ([`Own`]); a time control as the pages
//! write it.
//!
//! A reply that says nothing typed (none of the player's forms gets one) is told by its
//! status, with the protocol's words marked as English.

use crate::catalog::{Arg, Key, Tongue};
use crate::game::clock::{LeaveRefusal, RefillRefusal, ReflectionRefusal, TimeControl};
use crate::game::{Claim, ClaimRefusal, GameResult, LineRefusal, Refusal};
use crate::relay::{MessageFate, Reply, Said, ShortReceipt};

use super::words::Words;

mod moves;

use moves::move_words;

/// A form refused by the page itself, before the relay is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Own {
    /// The resignation's box was not ticked.
    ConfirmResignation,
    /// Nothing readable is left of the message.
    EmptyMessage,
    /// The move number sent with the move box is no move number.
    BadNumber(String),
    /// A field's words cannot be read (the move, the claim's move, the line, leave's dates).
    NotUnderstood(String),
    /// A form's action that no page sends.
    NotAnAction,
    /// Past the player's command budget.
    TooMany,
}

/// What a page tells the player about an action: the relay's reply, or the page's own refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told {
    Relay(Reply),
    Page(Own),
}

impl Told {
    /// The action was carried out.
    pub fn ok(&self) -> bool {
        match self {
            Told::Relay(reply) => reply.status.is_success(),
            Told::Page(_) => false,
        }
    }

    /// The short receipt of what the action recorded, if it recorded something.
    pub fn receipt(&self) -> Option<&ShortReceipt> {
        match self {
            Told::Relay(reply) => reply.receipt.as_ref(),
            Told::Page(_) => None,
        }
    }
}

/// A reply as the page says it.
pub struct Saying {
    /// The words, in the page's language (or the protocol's English, see `english`).
    pub text: String,
    /// What a message's mending did, when a message was mended.
    pub mended: Option<String>,
    /// The text is the protocol's English: a reply that says nothing typed.
    pub english: bool,
}

/// `told` in `tongue`.
pub fn saying(tongue: Tongue, told: &Told) -> Saying {
    let plain = |text: String| Saying {
        text,
        mended: None,
        english: false,
    };
    match told {
        Told::Page(own) => plain(own_words(tongue, own)),
        Told::Relay(reply) => match reply.said.as_deref() {
            Some(said) => {
                let mended = mended(said).then(|| tongue.word(Key::ReplyMended));
                Saying {
                    text: said_words(tongue, said),
                    mended,
                    english: false,
                }
            }
            None => Saying {
                text: reply.text.clone(),
                mended: None,
                english: true,
            },
        },
    }
}

/// Whether what was said sent a message mended for its reader.
fn mended(said: &Said) -> bool {
    match said {
        Said::MessageSent { mended } => *mended,
        Said::WithMessage {
            message: MessageFate::Sent { mended },
            ..
        } => *mended,
        _ => false,
    }
}

fn own_words(t: Tongue, own: &Own) -> String {
    match own {
        Own::ConfirmResignation => t.word(Key::ReplyConfirmResignation),
        Own::EmptyMessage => t.word(Key::ReplyEmptyMessage),
        Own::BadNumber(number) => t.say(Key::ReplyBadNumber, &[("number", number.into())]),
        Own::NotUnderstood(text) => t.say(Key::ReplyNotUnderstood, &[("text", text.into())]),
        Own::NotAnAction => t.word(Key::ReplyNotAnAction),
        Own::TooMany => t.word(Key::ReplyTooMany),
    }
}

fn yes(b: bool) -> Arg<'static> {
    Arg::Text(if b { "yes" } else { "no" })
}

fn side(color: shakmaty::Color) -> Arg<'static> {
    Arg::Text(match color {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    })
}

/// What a reply says, in `t`.
pub fn said_words(t: Tongue, said: &Said) -> String {
    match said {
        Said::Moved {
            number,
            color,
            written,
            draw_offer,
        } => {
            let dots = match color {
                shakmaty::Color::White => ".",
                shakmaty::Color::Black => "…",
            };
            let numbered = format!("{number}{dots} {written}");
            t.say(
                Key::ReplyMoved,
                &[("move", (&numbered).into()), ("offer", yes(*draw_offer))],
            )
        }
        Said::DrawOffered => t.word(Key::ReplyDrawOffered),
        Said::DrawAccepted => t.word(Key::ReplyDrawAccepted),
        Said::DrawDeclined => t.word(Key::ReplyDrawDeclined),
        Said::Resigned => t.word(Key::ReplyResigned),
        Said::Claimed { claim } => {
            let claim = match claim {
                Claim::Repetition => "threefold",
                Claim::FiftyMoves => "fifty",
            };
            t.say(Key::ReplyClaimed, &[("claim", claim.into())])
        }
        Said::LineSet { pairs } => {
            let line: Vec<String> = pairs
                .iter()
                .map(|(expected, answer)| {
                    t.say(
                        Key::ReplyLinePair,
                        &[("expected", expected.into()), ("answer", answer.into())],
                    )
                })
                .collect();
            t.say(Key::ReplyLineSet, &[("line", (&line.join("; ")).into())])
        }
        Said::LineCancelled => t.word(Key::ReplyLineCancelled),
        Said::MessageSent { .. } => t.word(Key::ReplyMessageSent),
        Said::LeaveTaken {
            leave,
            games,
            proposed,
            without,
        } => {
            let mut parts = Vec::new();
            if !games.is_empty() {
                let (first, last) = (leave.first.to_string(), leave.last().to_string());
                parts.push(t.say(
                    Key::ReplyLeaveTaken,
                    &[
                        ("first", (&first).into()),
                        ("last", (&last).into()),
                        ("days", leave.days.into()),
                        ("games", (&games.join(", ")).into()),
                    ],
                ));
            }
            if !proposed.is_empty() {
                parts.push(t.say(
                    Key::ReplyLeaveProposed,
                    &[("games", (&proposed.join(", ")).into())],
                ));
            }
            for (game, why) in without {
                let why = leave_words(t, why);
                parts.push(t.say(
                    Key::ReplyLeaveNotIn,
                    &[("game", game.into()), ("why", (&why).into())],
                ));
            }
            parts.join(" ")
        }
        Said::Refilled { days } => t.say(Key::ReplyRefilled, &[("days", (*days).into())]),
        Said::ReflectionDeclared { number } => {
            t.say(Key::ReplyReflection, &[("number", (*number).into())])
        }
        Said::Proposed => t.word(Key::ReplyProposed),
        Said::Refused(refusal) => refusal_words(t, refusal),
        Said::RefusedIn { game, refusal } => {
            let why = refusal_reason(t, refusal);
            t.say(
                Key::ReplyInGame,
                &[("game", game.into()), ("why", (&why).into())],
            )
        }
        Said::NoGameForLeave => t.word(Key::ReplyNoGameForLeave),
        Said::WithMessage { command, message } => {
            let first = said_words(t, command);
            let then = match message {
                MessageFate::Sent { .. } => t.word(Key::ReplyMessageSent),
                MessageFate::Empty => t.word(Key::ReplyMessageEmpty),
                MessageFate::NotSent(why) => {
                    let not_sent = t.word(Key::ReplyMessageNotSent);
                    match why.as_deref() {
                        Some(why) => format!("{not_sent} {}", said_words(t, why)),
                        None => not_sent,
                    }
                }
            };
            format!("{first} {then}")
        }
        Said::NotRecorded => t.word(Key::ReplyNotRecorded),
        Said::ShuttingDown => t.word(Key::ReplyShuttingDown),
    }
}

/// Why the game refuses, as a sentence in `t`.
pub fn refusal_words(t: Tongue, refusal: &Refusal) -> String {
    sentence(&refusal_reason(t, refusal))
}

/// Why the game refuses, as a reason in `t` (lower case, no full stop).
fn refusal_reason(t: Tongue, refusal: &Refusal) -> String {
    let why = |key: Key, reason: String| t.say(key, &[("why", (&reason).into())]);
    match refusal {
        Refusal::GameOver(result) => {
            let result = result_words(t, result);
            t.say(Key::RefusedGameOver, &[("result", (&result).into())])
        }
        Refusal::NotYourTurn(color) => t.say(Key::RefusedNotYourTurn, &[("side", side(color.0))]),
        Refusal::WrongNumber { written, expected } => t.say(
            Key::RefusedWrongNumber,
            &[
                ("written", (*written).into()),
                ("expected", (*expected).into()),
            ],
        ),
        Refusal::BlackNumberForWhite { written, expected } => {
            let written = written.to_string();
            t.say(
                Key::RefusedBlackNumber,
                &[
                    ("written", (&written).into()),
                    ("expected", (*expected).into()),
                ],
            )
        }
        Refusal::Move(e) => move_words(t, e),
        Refusal::NoDrawOffer => t.word(Key::RefusedNoDrawOffer),
        Refusal::OwnDrawOffer => t.word(Key::RefusedOwnDrawOffer),
        Refusal::WrongRepeat { written, actual } => t.say(
            Key::RefusedWrongRepeat,
            &[("written", written.into()), ("actual", actual.into())],
        ),
        Refusal::WrongClaim(c) => why(Key::RefusedClaim, claim_words(t, c)),
        Refusal::Leave(l) => why(Key::RefusedLeave, leave_words(t, l)),
        Refusal::Refill(r) => why(Key::RefusedRefill, refill_words(t, r)),
        Refusal::LongReflection(r) => why(Key::RefusedReflection, reflection_words(t, r)),
        Refusal::DrawTooEarly { from, now } => t.say(
            Key::RefusedDrawTooEarly,
            &[("from", (*from).into()), ("now", (*now).into())],
        ),
        Refusal::Conditional(l) => why(Key::RefusedLine, line_words(t, l)),
        Refusal::Stopped(reason) => why(Key::RefusedStopped, reason.clone()),
    }
}

/// A reason as a sentence: its first letter capitalised, a full stop after it.
fn sentence(reason: &str) -> String {
    let mut chars = reason.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// A result as the pages write it: `1-0 (checkmate)`.
fn result_words(t: Tongue, result: &GameResult) -> String {
    format!("{} ({})", result.pgn(), Words::of(t).reason(result.reason))
}

fn when(after_move: bool) -> Arg<'static> {
    Arg::Text(if after_move { "after" } else { "now" })
}

fn claim_words(t: Tongue, c: &ClaimRefusal) -> String {
    match c {
        ClaimRefusal::IllegalMove => t.word(Key::ClaimIllegalMove),
        ClaimRefusal::Repetition { after_move, seen } => t.say(
            Key::ClaimRepetition,
            &[("when", when(*after_move)), ("seen", (*seen).into())],
        ),
        ClaimRefusal::NoFiftyMoveRule => t.word(Key::ClaimNoFifty),
        ClaimRefusal::FiftyMoves { after_move, moves } => t.say(
            Key::ClaimFifty,
            &[("when", when(*after_move)), ("moves", (*moves).into())],
        ),
    }
}

fn leave_words(t: Tongue, l: &LeaveRefusal) -> String {
    match l {
        LeaveRefusal::TripleBlock => t.word(Key::LeaveTripleBlock),
        LeaveRefusal::NoDays => t.word(Key::LeaveNoDays),
        LeaveRefusal::NotAhead { earliest } => {
            let earliest = earliest.to_string();
            t.say(Key::LeaveNotAhead, &[("earliest", (&earliest).into())])
        }
        LeaveRefusal::Overlaps { announced } => {
            let (first, last) = (announced.first.to_string(), announced.last().to_string());
            t.say(
                Key::LeaveOverlaps,
                &[("first", (&first).into()), ("last", (&last).into())],
            )
        }
        LeaveRefusal::OverYear {
            asked,
            year,
            taken,
            allowed,
        } => {
            let year = year.to_string();
            t.say(
                Key::LeaveOverYear,
                &[
                    ("asked", (*asked).into()),
                    ("year", (&year).into()),
                    ("taken", (*taken).into()),
                    ("allowed", (*allowed).into()),
                ],
            )
        }
    }
}

fn refill_words(t: Tongue, r: &RefillRefusal) -> String {
    match r {
        RefillRefusal::NoBank => t.word(Key::RefillNoBank),
        RefillRefusal::NotToMove => t.word(Key::RefillNotToMove),
        RefillRefusal::NoDays => t.word(Key::RefillNoDays),
        RefillRefusal::OutOfTime => t.word(Key::RefillOutOfTime),
        RefillRefusal::BankShort { bank_days, asked } => t.say(
            Key::RefillBankShort,
            &[("bank", (*bank_days).into()), ("asked", (*asked).into())],
        ),
        RefillRefusal::ClockFull {
            clock_days,
            room_days,
            asked,
        } => t.say(
            Key::RefillClockFull,
            &[
                ("clock", (*clock_days).into()),
                ("room", (*room_days).into()),
                ("asked", (*asked).into()),
            ],
        ),
    }
}

fn reflection_words(t: Tongue, r: &ReflectionRefusal) -> String {
    match r {
        ReflectionRefusal::TripleBlock => t.word(Key::ReflectionTripleBlock),
        ReflectionRefusal::NoSilenceLimit => t.word(Key::ReflectionNoLimit),
        ReflectionRefusal::Already { next } => {
            t.say(Key::ReflectionAlready, &[("next", yes(*next))])
        }
    }
}

fn line_words(t: Tongue, l: &LineRefusal) -> String {
    match l {
        LineRefusal::YourMove => t.word(Key::LineYourMove),
        LineRefusal::Unpaired => t.word(Key::LineUnpaired),
        LineRefusal::TooLong { max } => t.say(Key::LineTooLong, &[("max", (*max).into())]),
        LineRefusal::OverBefore { text } => t.say(Key::LineOverBefore, &[("text", text.into())]),
        LineRefusal::InMove { index, text, why } => {
            let whose = if LineRefusal::opponents(*index) {
                "theirs"
            } else {
                "yours"
            };
            let why = refusal_reason(t, why);
            t.say(
                Key::LineInMove,
                &[
                    ("index", (*index).into()),
                    ("whose", whose.into()),
                    ("text", text.into()),
                    ("why", (&why).into()),
                ],
            )
        }
    }
}

/// A time control in `t`: `10 ходов за 50 дней`.
pub fn time_control(t: Tongue, control: &TimeControl) -> String {
    match control {
        TimeControl::MovesInDays { moves, days } => t.say(
            Key::TcMovesInDays,
            &[("moves", (*moves).into()), ("days", (*days).into())],
        ),
        TimeControl::DaysPerMove { days } => t.say(Key::TcDaysPerMove, &[("days", (*days).into())]),
        TimeControl::Fischer {
            base,
            increment,
            cap: None,
        } => t.say(
            Key::TcFischer,
            &[("base", (*base).into()), ("increment", (*increment).into())],
        ),
        TimeControl::Fischer {
            base,
            increment,
            cap: Some(cap),
        } => t.say(
            Key::TcFischerCap,
            &[
                ("base", (*base).into()),
                ("increment", (*increment).into()),
                ("cap", (*cap).into()),
            ],
        ),
        TimeControl::TripleBlock(block) => {
            let mut text = t.say(
                Key::TcTripleBlock,
                &[
                    ("clock", block.clock.into()),
                    ("increment", block.increment.into()),
                    ("moves", block.moves.into()),
                    ("bank", block.bank.into()),
                ],
            );
            if !block.auto_refill {
                text.push_str(", ");
                text.push_str(&t.word(Key::TcRefillByHand));
            }
            if let Some(days) = block.protection {
                text.push_str(", ");
                text.push_str(&t.say(Key::TcProtection, &[("days", days.into())]));
            }
            text
        }
        TimeControl::Unlimited => t.word(Key::TcNone),
    }
}

#[cfg(test)]
mod tests;
