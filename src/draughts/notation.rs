//! Draughts moves as people write them, read against a position and written back.
//!
//! Two forms, each read and written:
//!
//! - algebraic, seed 003: `c3-d4`; a capture `d4:b6`; a multi-capture with its landing squares
//!   `g1:e3:c5:a7`, or shortened to its ends `g1:a7` where only one capture fits (when two
//!   paths end on the same square, every landing square must be written);
//! - numeric, the squares as PDN numbers them (1 = b8, 32 = g1): `22-18`, `18x11`, and a
//!   multi-capture with every landing square, `22x15x24`.
//!
//! Reading folds what people type in place of the characters they mean (Cyrillic `а`, `с`,
//! `е`, `Ь` for files, `З` for 3, every dash, `×` and `:` for the capture mark), takes an
//! alphanumeric token with or without separators (`c3d4`), a capture written with a dash, and
//! marks after the move (`!`, `?`, and `X`, `×` for "wins"). Some landing squares may be left out
//! as long as one capture still fits.
//!
//! ```
//! use ccrelay::draughts::{Position, notation};
//!
//! let pos = Position::default();
//! let m = notation::read(&pos, "с3—d4").unwrap(); // Cyrillic с, an em dash
//! assert_eq!(notation::write_numeric(&m), "22-18");
//! assert_eq!(notation::write_algebraic(&pos, &m), "c3-d4");
//! ```

use std::fmt;

use super::board::{Color, Square};
use super::movegen::{Move, all_moves};
use crate::notation::fold::fold_char;

/// The two ways to write a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// `c3-d4`, `g1:e3:c5:a7`.
    Algebraic,
    /// `22-18`, `22x15x24`.
    Numeric,
}

/// A token's syntax: its squares and how they were separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenSyntax {
    pub squares: Vec<Square>,
    /// `Some(true)`: written as a capture (`:`, `x`); `Some(false)`: with a dash; `None`: no
    /// separator (`c3d4`).
    pub capture: Option<bool>,
    pub form: Form,
}

/// Why a token is not a move at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("empty")]
    Empty,
    #[error("{0:?} is not a square (a1–h8 on a dark square, or 1–32)")]
    BadSquare(String),
    #[error("a move needs at least two squares")]
    OneSquare,
    #[error("mixes a dash and a capture mark")]
    MixedSeparators,
    #[error("mixes algebraic squares and square numbers")]
    MixedForms,
    #[error("more squares than any move can have")]
    TooLong,
}

/// Folds look-alike characters, drops the marks written after a move, and splits the squares.
pub fn parse(token: &str) -> Result<TokenSyntax, SyntaxError> {
    let folded: String = token
        .chars()
        .map(|c| if c == '×' { 'x' } else { fold_char(c) })
        .collect();
    let mut body = folded.trim_end_matches(['!', '?', '+', '*', '#', '=']);
    // `X` (or a trailing capture mark) after the last square: "and wins".
    if let Some(rest) = body.strip_suffix(['X', 'x']) {
        body = rest;
    }
    body = body.trim_end_matches(['!', '?']);
    if body.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let mut squares = Vec::new();
    let mut capture = None;
    let mut form = None;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let separator = match c {
            b'-' => Some(false),
            b'x' | b'X' => Some(true),
            _ => None,
        };
        if let Some(sep) = separator {
            if squares.is_empty()
                || i + 1 == bytes.len()
                || matches!(bytes[i + 1], b'-' | b'x' | b'X')
            {
                return Err(SyntaxError::BadSquare(body.to_owned()));
            }
            if capture.is_some_and(|c| c != sep) {
                return Err(SyntaxError::MixedSeparators);
            }
            capture = Some(sep);
            i += 1;
            continue;
        }
        let (sq, this_form, len) = if c.is_ascii_lowercase() || c.is_ascii_uppercase() {
            let name = body
                .get(i..i + 2)
                .unwrap_or(&body[i..])
                .to_ascii_lowercase();
            let sq =
                Square::from_name(&name).ok_or_else(|| SyntaxError::BadSquare(name.clone()))?;
            (sq, Form::Algebraic, 2)
        } else if c.is_ascii_digit() {
            let len = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            let text = &body[i..i + len];
            let sq = text
                .parse()
                .ok()
                .and_then(Square::from_number)
                .ok_or_else(|| SyntaxError::BadSquare(text.to_owned()))?;
            (sq, Form::Numeric, len)
        } else {
            let bad: String = body[i..].chars().take(1).collect();
            return Err(SyntaxError::BadSquare(bad));
        };
        if form.is_some_and(|f| f != this_form) {
            return Err(SyntaxError::MixedForms);
        }
        // Numbers must be separated; algebraic squares may run together (`c3d4`).
        if this_form == Form::Numeric && !squares.is_empty() && capture.is_none() {
            return Err(SyntaxError::BadSquare(body.to_owned()));
        }
        form = Some(this_form);
        squares.push(sq);
        if squares.len() > super::movegen::MAX_LANDINGS + 1 {
            return Err(SyntaxError::TooLong);
        }
        i += len;
    }
    if squares.len() < 2 {
        return Err(SyntaxError::OneSquare);
    }
    Ok(TokenSyntax {
        squares,
        capture,
        form: form.unwrap_or(Form::Algebraic),
    })
}

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("not a move: {0}")]
    Syntax(#[from] SyntaxError),
    #[error("{0}")]
    Illegal(Illegal),
    /// A capture that stops before its end: the whole capture must be written.
    #[error("the capture goes on: {}", .full.join(" or "))]
    StopsEarly { full: Vec<String> },
    /// A shortened capture that more than one path fits.
    #[error("ambiguous: write the whole capture, {}", .paths.join(" or "))]
    Ambiguous { paths: Vec<String> },
}

/// No legal move fits, and what is legal instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub from: Square,
    pub turn: Color,
    /// What stands on the square the move starts from.
    pub own_piece: bool,
    /// A capture is compulsory and the token is not one.
    pub must_capture: bool,
    /// The legal moves from that square (or every legal move, if none starts there).
    pub legal: Vec<String>,
    pub from_square: bool,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no such move here")?;
        if self.legal.is_empty() {
            return write!(
                f,
                ": the game is over, {} has no legal move",
                self.turn.name()
            );
        }
        if !self.own_piece {
            write!(f, "; no {} piece stands on {}", self.turn.name(), self.from)?;
        }
        if self.must_capture {
            f.write_str("; a capture is compulsory")?;
        }
        if self.from_square {
            write!(
                f,
                "; legal moves from {}: {}",
                self.from,
                self.legal.join(", ")
            )
        } else {
            if self.own_piece {
                write!(f, "; the piece on {} has no legal move", self.from)?;
            }
            write!(f, "; legal moves: {}", self.legal.join(", "))
        }
    }
}

/// Whether `written` (squares in order, first and last fixed) fits the path of `m`.
fn fits(written: &[Square], m: &Move) -> bool {
    let Some((&first, rest)) = written.split_first() else {
        return false;
    };
    let Some((&last, middle)) = rest.split_last() else {
        return false;
    };
    if m.from() != first || m.to() != last {
        return false;
    }
    is_subsequence(middle, &m.landings()[..m.landings().len() - 1])
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// Reads `token` as a legal move in `pos`.
pub fn read(pos: &super::board::Position, token: &str) -> Result<Move, ReadError> {
    let written = parse(token)?;
    resolve(pos, &written, written.form)
}

/// Resolves a parsed token; errors write moves in `form`.
pub fn resolve(
    pos: &super::board::Position,
    written: &TokenSyntax,
    form: Form,
) -> Result<Move, ReadError> {
    let paths = all_moves(pos);
    let captures = paths.first().is_some_and(Move::is_capture);
    // Every landing square written picks that path; fewer pick every path they fit.
    let exact: Vec<&Move> = paths
        .iter()
        .filter(|m| m.from() == written.squares[0] && m.landings() == &written.squares[1..])
        .collect();
    let fitting: Vec<&Move> = if exact.is_empty() {
        paths.iter().filter(|m| fits(&written.squares, m)).collect()
    } else {
        exact
    };
    if let Some(&first) = fitting.first() {
        let mut effects: Vec<&Move> = Vec::new();
        for &m in &fitting {
            if !effects.iter().any(|e| e.same_effect(m)) {
                effects.push(m);
            }
        }
        if effects.len() == 1 {
            return Ok(*first);
        }
        return Err(ReadError::Ambiguous {
            paths: effects.iter().map(|m| write_path(m, form)).collect(),
        });
    }
    let from = written.squares[0];
    // A capture written up to a square it passes through, not where it ends.
    if captures {
        let early: Vec<&Move> = paths
            .iter()
            .filter(|m| {
                m.from() == from && {
                    let landings = m.landings();
                    (0..landings.len() - 1).any(|k| {
                        landings[k] == *written.squares.last().unwrap_or(&from)
                            && is_subsequence(
                                &written.squares[1..written.squares.len() - 1],
                                &landings[..k],
                            )
                    })
                }
            })
            .collect();
        if !early.is_empty() {
            return Err(ReadError::StopsEarly {
                full: super::movegen::dedup(early.into_iter().copied().collect())
                    .iter()
                    .map(|m| write_path(m, form))
                    .collect(),
            });
        }
    }
    let legal = super::movegen::dedup(paths);
    let own_piece = pos.piece_at(from).is_some_and(|p| p.color == pos.turn());
    let from_here: Vec<String> = legal
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| write_in(pos, m, form))
        .collect();
    let from_square = !from_here.is_empty();
    let list = if from_square {
        from_here
    } else {
        legal.iter().map(|m| write_in(pos, m, form)).collect()
    };
    Err(ReadError::Illegal(Illegal {
        from,
        turn: pos.turn(),
        own_piece,
        must_capture: captures && written.capture != Some(true),
        legal: list,
        from_square,
    }))
}

/// Writes `m` in `form`: algebraic shortened where that is unambiguous, numeric in full.
pub fn write_in(pos: &super::board::Position, m: &Move, form: Form) -> String {
    match form {
        Form::Algebraic => write_algebraic(pos, m),
        Form::Numeric => write_numeric(m),
    }
}

/// Every square of the path: `g1:e3:c5:a7`, `22x15x24`; quiet moves with a dash.
pub fn write_path(m: &Move, form: Form) -> String {
    let mut out = String::with_capacity(4 + 3 * m.landings().len());
    let sep = match (form, m.is_capture()) {
        (_, false) => '-',
        (Form::Algebraic, true) => ':',
        (Form::Numeric, true) => 'x',
    };
    push_square(&mut out, m.from(), form);
    for &sq in m.landings() {
        out.push(sep);
        push_square(&mut out, sq, form);
    }
    out
}

fn push_square(out: &mut String, sq: Square, form: Form) {
    match form {
        Form::Algebraic => out.push_str(&sq.to_string()),
        Form::Numeric => out.push_str(&sq.number().to_string()),
    }
}

/// The numeric form: `22-18`, `18x11`, `22x15x24` (every landing square).
pub fn write_numeric(m: &Move) -> String {
    write_path(m, Form::Numeric)
}

/// The algebraic form of seed 003: `c3-d4`, `d4:b6`, and a multi-capture by its ends
/// (`g1:a7`) unless another capture from the same square ends on the same square, then with
/// every landing square (`g1:e3:c5:a7`).
pub fn write_algebraic(pos: &super::board::Position, m: &Move) -> String {
    if !m.is_capture() || m.landings().len() == 1 {
        return write_path(m, Form::Algebraic);
    }
    let ambiguous = all_moves(pos)
        .iter()
        .any(|o| o.from() == m.from() && o.to() == m.to() && !o.same_effect(m));
    if ambiguous {
        write_path(m, Form::Algebraic)
    } else {
        format!("{}:{}", m.from(), m.to())
    }
}
