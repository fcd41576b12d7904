//! Why a game could not be read to its end, said with the game, line, move and token.

use std::fmt;

use shakmaty::Color;

use super::{MAX_PLIES, MAX_WORD_BYTES};
use crate::notation::LangSet;
use crate::notation::reader::{AmbiguousMove, ReadMoveError};

/// A game that could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// 1 for the first game of the input.
    pub game: u64,
    /// The input line the bad token is on.
    pub line: u64,
    pub number: u32,
    pub color: Color,
    /// The token as written (cut to [`MAX_WORD_BYTES`], control characters escaped).
    pub token: String,
    pub kind: GameErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    Move(ReadMoveError),
    WrongMoveNumber {
        written: u32,
        black: bool,
    },
    BadFen(String),
    BadTag,
    TooLong,
    TooManyMoves,
    MarksWithoutMove,
    UnterminatedComment,
    UnclosedVariation,
    Unexpected,
    /// A move more than one language reads, each as another move, which the rest of the game
    /// did not decide (see [`Undecided`]).
    Undecided(Box<Undecided>),
}

/// A move the game's other moves could not settle: read on in every language it is a move
/// in, either more than one reading went on to the game's end (or to a break in its text),
/// or none did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecided {
    /// The move's readings, by language.
    pub ambiguity: AmbiguousMove,
    /// The languages of the readings still going when the game's text ended (none: every
    /// reading stopped).
    pub going_on: LangSet,
    /// Where each reading that stopped stopped, and why.
    pub stops: Vec<Stop>,
}

/// Where one reading of an undecided move stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// The languages of the reading.
    pub langs: LangSet,
    pub number: u32,
    pub color: Color,
    pub token: String,
    pub error: ReadMoveError,
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl fmt::Display for Undecided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ambiguity)?;
        if !self.going_on.is_empty() {
            return f.write_str(", and the moves after it do not decide between them");
        }
        f.write_str("; read either way, the game stops")?;
        for (i, stop) in self.stops.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { "; " })?;
            write!(
                f,
                "in {} at move {} ({}) {:?}: {}",
                stop.langs,
                stop.number,
                side_name(stop.color),
                stop.token,
                stop.error
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = side_name(self.color);
        write!(
            f,
            "game {} (line {}), move {} ({side})",
            self.game, self.line, self.number
        )?;
        if !self.token.is_empty() {
            write!(f, " {:?}", self.token)?;
        }
        f.write_str(": ")?;
        match &self.kind {
            GameErrorKind::Move(e) => write!(f, "{e}"),
            GameErrorKind::WrongMoveNumber { written, black } => {
                let dots = if *black { "..." } else { "." };
                write!(
                    f,
                    "the move number {written}{dots} is written, but this is move {} for {side}",
                    self.number
                )
            }
            GameErrorKind::BadFen(e) => write!(f, "bad start position: {e}"),
            GameErrorKind::TooLong => write!(f, "not a move: longer than {MAX_WORD_BYTES} bytes"),
            GameErrorKind::MarksWithoutMove => write!(f, "a mark with no move before it"),
            GameErrorKind::BadTag => write!(f, "a malformed tag pair (write [Name \"value\"])"),
            GameErrorKind::TooManyMoves => write!(
                f,
                "more than {MAX_PLIES} half-moves: no chess game is that long"
            ),
            GameErrorKind::UnterminatedComment => {
                write!(f, "a comment opened with {{ is never closed")
            }
            GameErrorKind::UnclosedVariation => {
                write!(f, "a variation opened here is never closed")
            }
            GameErrorKind::Unexpected => write!(f, "unexpected here"),
            GameErrorKind::Undecided(undecided) => write!(f, "{undecided}"),
        }
    }
}

impl std::error::Error for GameError {}
