//! Why the tolerant reader ([`super::reader`]) refuses a token: not a move at all, no legal
//! move, more than one legal move, or a move only in a language the earlier moves ruled out.
//! Each says what a player needs to write the move again: the legal moves to the square, or
//! every reading with the languages that read it so.

use std::fmt;

use shakmaty::{Move, Square};

use super::lang::LangSet;
use super::written::SyntaxError;

/// Why a token is not a move in this position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadMoveError {
    /// Not a move at all, in any notation.
    #[error("not a move: {0}")]
    Syntax(#[from] SyntaxError),
    /// A move in form, but no legal move fits it.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// More than one legal move fits it.
    #[error("{0}")]
    Ambiguous(AmbiguousMove),
    /// A legal move only in languages the earlier moves of the game ruled out.
    #[error("{0}")]
    OutOfLanguages(OutOfLanguages),
}

/// No legal move fits the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The square the token moves to, if it names one.
    pub to: Option<Square>,
    /// The legal moves to that square, written in the reader's language.
    pub legal_to_square: Vec<String>,
    /// The position has no legal moves at all.
    pub game_over: bool,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no such move here")?;
        if self.game_over {
            return f.write_str(": the game is over, there are no legal moves");
        }
        match (self.to, self.legal_to_square.as_slice()) {
            (Some(to), []) => write!(f, "; no legal move goes to {to}"),
            (Some(to), legal) => write!(f, "; legal moves to {to}: {}", legal.join(", ")),
            (None, _) => Ok(()),
        }
    }
}

/// More than one legal move fits the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguousMove {
    pub readings: Vec<Reading>,
    /// A pawn reaches the last rank but no piece to promote to was written.
    pub promotion_missing: bool,
}

/// One way to read a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The move in the reader's language.
    pub text: String,
    /// The move itself.
    pub m: Move,
    /// The languages that read the token this way (a language that reads it as two moves is
    /// named with both).
    pub langs: LangSet,
}

impl AmbiguousMove {
    /// The readings each made by some languages alone, with those languages: the ways the
    /// token is one move in one language. Empty when no language reads it as one move (two
    /// knights can reach the square, a promotion without its piece).
    pub fn by_language(&self) -> Vec<(Move, LangSet)> {
        self.readings
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let elsewhere = self
                    .readings
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .fold(LangSet::EMPTY, |acc, (_, other)| acc.union(other.langs));
                let alone = r.langs.difference(elsewhere);
                (!alone.is_empty()).then_some((r.m, alone))
            })
            .collect()
    }
}

/// The readings as a list: `Bd7 (in Russian/Ukrainian) or Nd7 (in French/...)`, naming the
/// languages when they differ between readings.
fn write_readings(f: &mut fmt::Formatter<'_>, readings: &[Reading]) -> fmt::Result {
    let by_language = readings.iter().any(|r| r.langs != readings[0].langs);
    for (i, r) in readings.iter().enumerate() {
        if i > 0 {
            f.write_str(" or ")?;
        }
        f.write_str(&r.text)?;
        if by_language {
            write!(f, " (in {})", r.langs)?;
        }
    }
    Ok(())
}

impl fmt::Display for AmbiguousMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promotion_missing {
            f.write_str("ambiguous: the piece to promote to is missing; write one of ")?;
        } else {
            f.write_str("ambiguous: it could be ")?;
        }
        write_readings(f, &self.readings)
    }
}

/// The token is a legal move only in languages the earlier moves ruled out: the moves of one
/// game (one player's, in the relay) are read in one language, never switching silently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfLanguages {
    /// The languages every earlier move fits.
    pub had: LangSet,
    /// How the other languages read the token.
    pub readings: Vec<Reading>,
}

impl fmt::Display for OutOfLanguages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let readers = self
            .readings
            .iter()
            .fold(LangSet::EMPTY, |acc, r| acc.union(r.langs));
        let fit = if self.had.len() == 1 {
            "the language the earlier moves fit"
        } else {
            "the languages the earlier moves fit"
        };
        write!(
            f,
            "no legal move in {}, {fit}; only {readers} read it, as ",
            self.had
        )?;
        write_readings(f, &self.readings)?;
        f.write_str(" (the moves of one game are read in one language)")
    }
}
