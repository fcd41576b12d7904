//! What the relay says, in the page's language: a reply rendered from its typed kind and
//! values ([`crate::relay::Said`]) through the catalog, never from the line protocol's English
//! line (which stays the protocol's); the game's refusals and why a move cannot be read, in
//! the same words; the page's own refusals of a form ([`Own`]); a time control as the pages
//! write it.
//!
//! A reply that says nothing typed (none of the player's forms gets one) is told by its
//! status, with the protocol's words marked as English.

use crate::catalog::{Arg, Key, Tongue};
use crate::draughts::notation::{ReadError, SyntaxError as DraughtsSyntax};
use crate::game::clock::{LeaveRefusal, RefillRefusal, ReflectionRefusal, TimeControl};
use crate::game::{Claim, ClaimRefusal, GameResult, LineRefusal, MoveError, Refusal};
use crate::notation::refusal::Reading;
use crate::notation::{LangSet, ReadMoveError, SyntaxError};
use crate::relay::{MessageFate, Reply, Said, ShortReceipt};

use super::words::Words;

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

/// Why a move cannot be read or played, as a reason (not a sentence), in `t`.
pub fn move_words(t: Tongue, e: &MoveError) -> String {
    match e {
        MoveError::Chess(e) => chess_words(t, e),
        MoveError::Draughts(e) => draughts_words(t, e),
    }
}

fn not_a_move(t: Tongue, why: String) -> String {
    t.say(Key::MoveNotAMove, &[("why", (&why).into())])
}

fn chess_words(t: Tongue, e: &ReadMoveError) -> String {
    match e {
        ReadMoveError::Syntax(s) => not_a_move(t, syntax_words(t, s)),
        ReadMoveError::Illegal(i) => match (i.to, i.legal_to_square.as_slice()) {
            _ if i.game_over => t.word(Key::MoveGameOver),
            (Some(to), []) => {
                let to = to.to_string();
                t.say(Key::MoveNothingTo, &[("square", (&to).into())])
            }
            (Some(to), legal) => {
                let to = to.to_string();
                t.say(
                    Key::MoveLegalTo,
                    &[
                        ("square", (&to).into()),
                        ("moves", (&legal.join(", ")).into()),
                    ],
                )
            }
            (None, _) => t.word(Key::MoveNoSuchMove),
        },
        ReadMoveError::Ambiguous(a) => {
            let readings = readings_words(t, &a.readings);
            let key = if a.promotion_missing {
                Key::MovePromotionMissing
            } else {
                Key::MoveAmbiguous
            };
            t.say(key, &[("readings", (&readings).into())])
        }
        ReadMoveError::OutOfLanguages(o) => {
            let readers = o
                .readings
                .iter()
                .fold(LangSet::EMPTY, |acc, r| acc.union(r.langs));
            let (had, readers) = (langs_words(t, o.had), langs_words(t, readers));
            let readings = readings_words(t, &o.readings);
            t.say(
                Key::MoveOutOfLanguages,
                &[
                    ("had", (&had).into()),
                    ("readers", (&readers).into()),
                    ("readings", (&readings).into()),
                ],
            )
        }
    }
}

/// Languages by their codes (`ru/uk`), or "any language".
fn langs_words(t: Tongue, langs: LangSet) -> String {
    if langs == LangSet::ALL {
        return t.word(Key::MoveAnyLanguage);
    }
    langs.iter().map(|l| l.code()).collect::<Vec<_>>().join("/")
}

/// The readings of an ambiguous move, naming their languages when they differ.
fn readings_words(t: Tongue, readings: &[Reading]) -> String {
    let by_language = readings.iter().any(|r| r.langs != readings[0].langs);
    let each: Vec<String> = readings
        .iter()
        .map(|r| {
            if by_language {
                let langs = langs_words(t, r.langs);
                t.say(
                    Key::MoveReading,
                    &[("move", (&r.text).into()), ("langs", (&langs).into())],
                )
            } else {
                r.text.clone()
            }
        })
        .collect();
    each.join(&t.word(Key::MoveOr))
}

fn syntax_words(t: Tongue, s: &SyntaxError) -> String {
    match s {
        SyntaxError::Empty => t.word(Key::SyntaxEmpty),
        SyntaxError::TooLong => t.word(Key::SyntaxTooLong),
        SyntaxError::NullMove => t.word(Key::SyntaxNullMove),
        SyntaxError::Numeric(_) => t.word(Key::SyntaxNumeric),
        SyntaxError::UnknownPieceLetters(letters) => {
            t.say(Key::SyntaxPieceLetters, &[("letters", letters.into())])
        }
        SyntaxError::NoDestination => t.word(Key::SyntaxNoDestination),
        SyntaxError::PromotionPieceMissing => t.word(Key::SyntaxPromotionPiece),
        SyntaxError::Unexpected(text) => t.say(Key::SyntaxUnexpected, &[("text", text.into())]),
    }
}

fn draughts_words(t: Tongue, e: &ReadError) -> String {
    let moves = |list: &[String], sep: &str| list.join(sep);
    match e {
        ReadError::Syntax(s) => not_a_move(
            t,
            match s {
                DraughtsSyntax::Empty => t.word(Key::SyntaxEmpty),
                DraughtsSyntax::BadSquare(text) => {
                    t.say(Key::SyntaxBadSquare, &[("text", text.into())])
                }
                DraughtsSyntax::OneSquare => t.word(Key::SyntaxOneSquare),
                DraughtsSyntax::MixedSeparators => t.word(Key::SyntaxMixedSeparators),
                DraughtsSyntax::MixedForms => t.word(Key::SyntaxMixedForms),
                DraughtsSyntax::TooLong => t.word(Key::SyntaxTooLong),
            },
        ),
        ReadError::Illegal(i) => {
            let turn = match i.turn {
                crate::draughts::Color::White => "white",
                crate::draughts::Color::Black => "black",
            };
            if i.legal.is_empty() {
                return t.say(Key::DraughtsNoLegalMove, &[("side", turn.into())]);
            }
            let from = i.from.to_string();
            let mut parts = vec![t.word(Key::MoveNoSuchMove)];
            if !i.own_piece {
                parts.push(t.say(
                    Key::DraughtsNoPiece,
                    &[("side", turn.into()), ("square", (&from).into())],
                ));
            }
            if i.must_capture {
                parts.push(t.word(Key::DraughtsMustCapture));
            }
            let legal = moves(&i.legal, ", ");
            if i.from_square {
                parts.push(t.say(
                    Key::DraughtsLegalFrom,
                    &[("square", (&from).into()), ("moves", (&legal).into())],
                ));
            } else {
                if i.own_piece {
                    parts.push(t.say(Key::DraughtsStuck, &[("square", (&from).into())]));
                }
                parts.push(t.say(Key::DraughtsLegal, &[("moves", (&legal).into())]));
            }
            parts.join("; ")
        }
        ReadError::StopsEarly { full } => {
            let full = moves(full, &t.word(Key::MoveOr));
            t.say(Key::DraughtsStopsEarly, &[("moves", (&full).into())])
        }
        ReadError::Ambiguous { paths } => {
            let paths = moves(paths, &t.word(Key::MoveOr));
            t.say(Key::DraughtsAmbiguous, &[("moves", (&paths).into())])
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
mod tests {
    use jiff::civil::Date;
    use shakmaty::Color;

    use super::*;
    use crate::game::clock::{Leave, TripleBlock};
    use crate::game::{ColorName, EndReason, Kind, board};
    use crate::notation::number::MoveNumber;
    use crate::notation::{Lang, ReadIn};
    use crate::relay::Status;

    /// Words of the line protocol's English replies and refusals: none may reach a Russian or
    /// Ukrainian page.
    const ENGLISH: &[&str] = &[
        "accepted",
        "clock",
        "used",
        "left",
        "move",
        "moves",
        "no",
        "such",
        "tick",
        "confirm",
        "in",
        "days",
        "day",
        "refused",
        "legal",
        "game",
        "draw",
        "your",
        "not",
        "the",
        "is",
        "and",
        "or",
        "for",
        "with",
        "leave",
        "bank",
        "offer",
        "ambiguous",
        "could",
        "write",
        "piece",
        "square",
        "limit",
        "silence",
        "line",
        "message",
        "sent",
        "time",
        "claim",
        "over",
        "it",
        "be",
        "to",
        "resignation",
        "box",
        "reflection",
        "long",
    ];

    fn english_words(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_ascii_alphabetic())
            .map(str::to_ascii_lowercase)
            .filter(|w| ENGLISH.contains(&w.as_str()))
            .collect()
    }

    /// Why each text is refused as a move on the board of `kind` at `fen`, read as `read_in`.
    fn move_errors(
        kind: Kind,
        fen: Option<&str>,
        texts: &[&str],
        read_in: ReadIn,
    ) -> Vec<MoveError> {
        let pos = board(kind, fen).expect("a board");
        texts
            .iter()
            .map(|text| pos.read_in(text, read_in).expect_err(text))
            .collect()
    }

    fn every_move_error() -> Vec<MoveError> {
        let any = ReadIn::new(None, LangSet::ALL);
        let mut errors = move_errors(
            Kind::Chess,
            None,
            &["e5", "e9", "", "Qh5", "0000", "Zf3", "e4xx"],
            any,
        );
        // Two knights reach c3; a pawn promotes without its piece.
        errors.extend(move_errors(
            Kind::Chess,
            Some("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1"),
            &["Nc3"],
            any,
        ));
        errors.extend(move_errors(
            Kind::Chess,
            Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
            &["a8"],
            any,
        ));
        // A Russian knight in a game whose moves were English.
        let english = ReadIn::new(None, LangSet::only(Lang::English));
        errors.extend(move_errors(Kind::Chess, None, &["Кf3"], english));
        errors.extend(move_errors(
            Kind::DraughtsRu,
            None,
            &["c3-e5", "a1-b2", "z9-c3", "c3", "c3-d4:e5", "22-18-c3", ""],
            any,
        ));
        errors
    }

    fn every_refusal() -> Vec<Refusal> {
        let leave = Leave {
            first: Date::constant(2030, 1, 10),
            days: 5,
        };
        let mut refusals = vec![
            Refusal::GameOver(GameResult::new(Some(Color::White), EndReason::Checkmate)),
            Refusal::NotYourTurn(ColorName(Color::Black)),
            Refusal::WrongNumber {
                written: 7,
                expected: 1,
            },
            Refusal::BlackNumberForWhite {
                written: MoveNumber {
                    number: 3,
                    black: true,
                },
                expected: 3,
            },
            Refusal::NoDrawOffer,
            Refusal::OwnDrawOffer,
            Refusal::WrongRepeat {
                written: "Nf3".into(),
                actual: "7163".into(),
            },
            Refusal::DrawTooEarly { from: 20, now: 3 },
            Refusal::WrongClaim(ClaimRefusal::IllegalMove),
            Refusal::WrongClaim(ClaimRefusal::Repetition {
                after_move: true,
                seen: 2,
            }),
            Refusal::WrongClaim(ClaimRefusal::NoFiftyMoveRule),
            Refusal::WrongClaim(ClaimRefusal::FiftyMoves {
                after_move: false,
                moves: 21,
            }),
            Refusal::Leave(LeaveRefusal::TripleBlock),
            Refusal::Leave(LeaveRefusal::NoDays),
            Refusal::Leave(LeaveRefusal::NotAhead {
                earliest: Date::constant(2030, 1, 2),
            }),
            Refusal::Leave(LeaveRefusal::Overlaps { announced: leave }),
            Refusal::Leave(LeaveRefusal::OverYear {
                asked: 20,
                year: 2030,
                taken: 30,
                allowed: 45,
            }),
            Refusal::Refill(RefillRefusal::NoBank),
            Refusal::Refill(RefillRefusal::NotToMove),
            Refusal::Refill(RefillRefusal::NoDays),
            Refusal::Refill(RefillRefusal::OutOfTime),
            Refusal::Refill(RefillRefusal::BankShort {
                bank_days: 35,
                asked: 40,
            }),
            Refusal::Refill(RefillRefusal::ClockFull {
                clock_days: 50,
                room_days: 17,
                asked: 18,
            }),
            Refusal::LongReflection(ReflectionRefusal::TripleBlock),
            Refusal::LongReflection(ReflectionRefusal::NoSilenceLimit),
            Refusal::LongReflection(ReflectionRefusal::Already { next: true }),
            Refusal::Conditional(LineRefusal::YourMove),
            Refusal::Conditional(LineRefusal::Unpaired),
            Refusal::Conditional(LineRefusal::TooLong { max: 40 }),
            Refusal::Conditional(LineRefusal::OverBefore { text: "Nf3".into() }),
            Refusal::Conditional(LineRefusal::InMove {
                index: 1,
                text: "7. e5".into(),
                why: Box::new(Refusal::WrongNumber {
                    written: 7,
                    expected: 1,
                }),
            }),
        ];
        for e in every_move_error() {
            refusals.push(Refusal::Conditional(LineRefusal::InMove {
                index: 2,
                text: "x".into(),
                why: Box::new(Refusal::Move(e.clone())),
            }));
            refusals.push(Refusal::Move(e));
        }
        refusals
    }

    fn every_said() -> Vec<Said> {
        let leave = Leave {
            first: Date::constant(2030, 1, 10),
            days: 5,
        };
        let moved = Said::Moved {
            number: 6,
            color: Color::White,
            written: "Сf1—g2 (6172)".into(),
            draw_offer: true,
        };
        let mut said = vec![
            moved.clone(),
            Said::DrawOffered,
            Said::DrawAccepted,
            Said::DrawDeclined,
            Said::Resigned,
            Said::Claimed {
                claim: Claim::Repetition,
            },
            Said::Claimed {
                claim: Claim::FiftyMoves,
            },
            Said::LineSet {
                pairs: vec![("12... Кf6".into(), "13. Сg5".into())],
            },
            Said::LineCancelled,
            Said::MessageSent { mended: true },
            Said::LeaveTaken {
                leave,
                games: vec!["g1".into(), "g2".into()],
                proposed: vec!["g3".into()],
                without: vec![("tb1".into(), LeaveRefusal::TripleBlock)],
            },
            Said::Refilled { days: 3 },
            Said::ReflectionDeclared { number: 12 },
            Said::Proposed,
            Said::NoGameForLeave,
            Said::NotRecorded,
            Said::ShuttingDown,
        ];
        for fate in [
            MessageFate::Sent { mended: false },
            MessageFate::Empty,
            MessageFate::NotSent(Some(Box::new(Said::NotRecorded))),
            MessageFate::NotSent(None),
        ] {
            said.push(Said::WithMessage {
                command: Box::new(moved.clone()),
                message: fate,
            });
        }
        for refusal in every_refusal() {
            said.push(Said::RefusedIn {
                game: "g1".into(),
                refusal: refusal.clone(),
            });
            said.push(Said::Refused(refusal));
        }
        said
    }

    /// Regression: a Russian page said `accepted g1 6. Cg2 (6172); clock: White 0d 00h used,
    /// ...` after a move and `no such move here; no legal move goes to h8` after a refusal,
    /// the line protocol's English. Every reply, refusal and reason is said in the page's
    /// language.
    #[test]
    fn regression_a_russian_page_showed_the_protocols_english_replies() {
        let said = every_said();
        assert!(said.len() > 80, "{}", said.len());
        for tongue in [Tongue::Ru, Tongue::Uk] {
            for s in &said {
                let text = said_words(tongue, s);
                assert!(!text.trim().is_empty(), "{s:?}");
                assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
            }
            for own in [
                Own::ConfirmResignation,
                Own::EmptyMessage,
                Own::BadNumber("x1".into()),
                Own::NotUnderstood("12... Кf6 13.".into()),
                Own::NotAnAction,
                Own::TooMany,
            ] {
                let text = saying(tongue, &Told::Page(own)).text;
                assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
            }
            let controls = [
                TimeControl::MovesInDays {
                    moves: 10,
                    days: 50,
                },
                TimeControl::DaysPerMove { days: 3 },
                TimeControl::Fischer {
                    base: 30,
                    increment: 1,
                    cap: Some(45),
                },
                TimeControl::TripleBlock(TripleBlock {
                    clock: 50,
                    increment: 3,
                    moves: 50,
                    bank: 75,
                    auto_refill: false,
                    protection: Some(5),
                }),
                TimeControl::Unlimited,
            ];
            for control in controls {
                let text = time_control(tongue, &control);
                assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
            }
        }
        let ru = |s: &Said| said_words(Tongue::Ru, s);
        assert_eq!(
            ru(&every_said()[0]),
            "Ход 6. Сf1—g2 (6172) принят, с предложением ничьей."
        );
        assert_eq!(
            time_control(
                Tongue::Ru,
                &TimeControl::MovesInDays {
                    moves: 10,
                    days: 50
                }
            ),
            "10 ходов за 50 дней"
        );
    }

    /// The reasons keep what the protocol's words say: the squares, the legal moves, the
    /// numbers.
    #[test]
    fn a_refusal_keeps_its_values_in_every_language() {
        let illegal = &every_move_error()[0];
        for tongue in Tongue::ALL {
            let text = refusal_words(tongue, &Refusal::Move(illegal.clone()));
            assert!(text.contains("e5"), "{text}");
        }
        assert_eq!(
            refusal_words(Tongue::En, &Refusal::Move(illegal.clone())),
            "No such move here: no legal move goes to e5."
        );
        assert_eq!(
            refusal_words(Tongue::Uk, &Refusal::NotYourTurn(ColorName(Color::White))),
            "Зараз не ваш хід: ходять білі."
        );
        let resign = saying(Tongue::Ru, &Told::Page(Own::ConfirmResignation)).text;
        assert_eq!(resign, "Отметьте флажок, чтобы подтвердить сдачу.");
        // A reply that says nothing typed is told in the protocol's words, marked English.
        let untyped = saying(Tongue::Ru, &Told::Relay(Reply::new(Status::Done, "done")));
        assert!(untyped.english && untyped.text == "done");
    }
}
