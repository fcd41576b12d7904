//! Why a move cannot be read or played, in the page's language: a chess move's syntax, no
//! legal move, more than one, a move only in languages the game's earlier moves ruled out; a
//! draughts move's. The moves and squares stay as the reader writes them.

use crate::catalog::{Key, Tongue};
use crate::draughts::notation::{ReadError, SyntaxError as DraughtsSyntax};
use crate::game::MoveError;
use crate::notation::refusal::Reading;
use crate::notation::{LangSet, ReadMoveError, SyntaxError};

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
