//! The syntax of one written move, before any position is looked at.
//!
//! [`Written::parse`] accepts everything players write (see the module list in
//! [`crate::notation`]) and answers only "is this a move at all?": a [`SyntaxError`] means the
//! token is not a move in any notation. Whether the move exists on the board, and what its piece
//! letters mean, is the resolver's question ([`super::reader`]), and its errors are a different
//! type, as in shakmaty (`ParseSanError` vs `SanError`).
//!
//! ```
//! use ccrelay::notation::written::{Written, WrittenMove};
//! let w = Written::parse("exd6 e.p.").unwrap_err(); // one token at a time: the space is not a move
//! let w = Written::parse("Кf6:е4+").unwrap();
//! assert!(matches!(w.what, WrittenMove::Algebraic { capture: true, .. }));
//! assert!(Written::parse("5254").is_ok());
//! assert!(Written::parse("hello").is_err());
//! ```

use std::fmt;

use shakmaty::{CastlingSide, File, Rank, Role, Square};

use super::fold::{figurine_role, fold_char, fold_piece_letters};

/// The longest token read as a move; anything longer is refused without being looked at.
pub const MAX_TOKEN_CHARS: usize = 32;

/// A move as written: what the writer said, with every mark kept apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub what: WrittenMove,
    pub marks: Marks,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckMark {
    Check,
    Mate,
}

/// The move itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrittenMove {
    /// `O-O`, `0-0-0`, `О—О`.
    Castle(CastlingSide),
    /// ICCF numeric: `5254`, `57581`.
    Numeric {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// Short or long algebraic, or UCI: `e4`, `Nf3`, `Кg1f3`, `e5xd4`, `e7e8q`, `d8Ф`.
    Algebraic {
        /// No mark means a pawn in short form, and any piece in long form (`g1f3` is UCI).
        piece: Option<PieceMark>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<PieceMark>,
    },
}

/// How a piece was named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceMark {
    /// A figurine (`♘`): means the same in every language.
    Figurine(Role),
    /// Letters, folded to their shape (`Kp` for `Кр`); their meaning depends on the language.
    Letters(String),
    /// A UCI promotion letter (`q`, `r`, `b`, `n`), always English.
    Uci(Role),
}

/// Why a token is not a move in any notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SyntaxError {
    #[error("empty")]
    Empty,
    #[error("longer than {MAX_TOKEN_CHARS} characters")]
    TooLong,
    #[error("a null move is not a move")]
    NullMove,
    #[error("not a numeric move: {0}")]
    Numeric(&'static str),
    #[error("no piece is written {0:?}")]
    UnknownPieceLetters(String),
    #[error("no destination square")]
    NoDestination,
    #[error("the promotion piece is missing after '='")]
    PromotionPieceMissing,
    #[error("unexpected {0:?}")]
    Unexpected(String),
}

impl Written {
    /// Reads one token.
    pub fn parse(token: &str) -> Result<Written, SyntaxError> {
        if token.chars().nth(MAX_TOKEN_CHARS).is_some() {
            return Err(SyntaxError::TooLong);
        }
        let mut chars: Vec<char> = token.chars().map(fold_char).collect();
        let mut marks = strip_marks(&mut chars);
        // Seed 001 marks a draw offer with a bare `=`. After a piece move it can mean nothing
        // else; after a pawn move it is a promotion missing its piece, and refused as such.
        if chars.len() > 1
            && chars.last() == Some(&'=')
            && chars[0].is_uppercase()
            && chars[0] != 'O'
        {
            chars.pop();
            marks.draw_offer = true;
        }
        if chars.is_empty() {
            return Err(SyntaxError::Empty);
        }
        let what = parse_move(&chars)?;
        Ok(Written { what, marks })
    }
}

/// The marks that may follow a move, on their own (`exd6 e.p.`, `Крb1 (=)`, `Nf3 !?`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// `+`, or `#`/`++` for mate. Kept as written; the board decides the truth.
    pub check: Option<CheckMark>,
    /// `!`, `?`, `!?`, `?!`, `!!`, `??`.
    pub annotation: Option<&'static str>,
    /// `e.p.`, `ep`, `е.р.` was written.
    pub en_passant: bool,
    /// `(=)` was written with the move: a draw offer.
    pub draw_offer: bool,
}

impl Marks {
    /// Reads a token made of marks alone, as written apart from its move.
    pub fn parse(token: &str) -> Option<Marks> {
        let mut chars: Vec<char> = token.chars().map(fold_char).collect();
        if chars.as_slice() == ['='] {
            return Some(Marks {
                draw_offer: true,
                ..Marks::default()
            });
        }
        // The en passant mark leads; a check or an annotation may follow it (`e.p.+`).
        let mut en_passant = false;
        for ep in ["e.p.", "e.p", "ep"] {
            if chars.len() >= ep.len() && chars.iter().copied().take(ep.len()).eq(ep.chars()) {
                en_passant = true;
                chars.drain(..ep.len());
                break;
            }
        }
        let mut marks = strip_marks(&mut chars);
        marks.en_passant |= en_passant;
        (chars.is_empty() && marks != Marks::default()).then_some(marks)
    }
}

fn ends_with(chars: &[char], suffix: &str) -> bool {
    let n = suffix.chars().count();
    chars.len() >= n && chars[chars.len() - n..].iter().copied().eq(suffix.chars())
}

/// Takes the trailing marks off, in any order (`exd6e.p.+`, `Nf3+!?`, `Крb1(=)`).
fn strip_marks(chars: &mut Vec<char>) -> Marks {
    const ANNOTATIONS: [&str; 6] = ["!!", "??", "!?", "?!", "!", "?"];
    let mut marks = Marks::default();
    'strip: loop {
        if ends_with(chars, "(=)") {
            marks.draw_offer = true;
            chars.truncate(chars.len() - 3);
            continue;
        }
        for ep in ["e.p.", "e.p", "ep"] {
            let n = ep.len();
            if ends_with(chars, ep)
                && chars.len() > n
                && chars[chars.len() - n - 1].is_ascii_digit()
            {
                marks.en_passant = true;
                chars.truncate(chars.len() - n);
                continue 'strip;
            }
        }
        for a in ANNOTATIONS {
            if ends_with(chars, a) {
                marks.annotation.get_or_insert(a);
                chars.truncate(chars.len() - a.len());
                continue 'strip;
            }
        }
        if ends_with(chars, "++") {
            marks.check = Some(CheckMark::Mate);
            chars.truncate(chars.len() - 2);
            continue;
        }
        match chars.last() {
            Some('#' | '‡') => marks.check = Some(CheckMark::Mate),
            Some('+') => {
                marks.check.get_or_insert(CheckMark::Check);
            }
            _ => break,
        }
        chars.pop();
    }
    marks
}

fn parse_move(chars: &[char]) -> Result<WrittenMove, SyntaxError> {
    let text: String = chars.iter().collect();
    if matches!(text.as_str(), "0000" | "--" | "Z0" | "null" | "@@@@") {
        return Err(SyntaxError::NullMove);
    }
    if let Some(side) = parse_castle(chars) {
        return Ok(side);
    }
    if chars.iter().all(|c| c.is_ascii_digit() || *c == '-') && chars[0].is_ascii_digit() {
        return parse_numeric(chars);
    }
    parse_algebraic(chars)
}

fn parse_castle(chars: &[char]) -> Option<WrittenMove> {
    let mut count = 0;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            'O' | '0' | 'o' => count += 1,
            '-' if i % 2 == 1 => {}
            _ => return None,
        }
    }
    match count {
        2 => Some(WrittenMove::Castle(CastlingSide::KingSide)),
        3 => Some(WrittenMove::Castle(CastlingSide::QueenSide)),
        _ => None,
    }
}

/// `5254`, `52-54`, `57581`.
fn parse_numeric(chars: &[char]) -> Result<WrittenMove, SyntaxError> {
    let digits: Vec<u32> = match chars {
        [a, b, '-', rest @ ..] => [*a, *b]
            .iter()
            .chain(rest)
            .filter_map(|c| c.to_digit(10))
            .collect(),
        _ => chars.iter().filter_map(|c| c.to_digit(10)).collect(),
    };
    if digits.len() != chars.iter().filter(|c| c.is_ascii_digit()).count() {
        return Err(SyntaxError::Numeric(
            "a dash may only stand between the two squares",
        ));
    }
    if digits.len() != 4 && digits.len() != 5 {
        return Err(SyntaxError::Numeric(
            "a numeric move has four digits, or five with a promotion",
        ));
    }
    let square = |file: u32, rank: u32| -> Result<Square, SyntaxError> {
        if (1..=8).contains(&file) && (1..=8).contains(&rank) {
            Ok(Square::from_coords(
                File::new(file - 1),
                Rank::new(rank - 1),
            ))
        } else {
            Err(SyntaxError::Numeric("squares are numbered 11 to 88"))
        }
    };
    let from = square(digits[0], digits[1])?;
    let to = square(digits[2], digits[3])?;
    if from == to {
        return Err(SyntaxError::Numeric("the two squares are the same"));
    }
    let promotion = match digits.get(4) {
        None => None,
        Some(1) => Some(Role::Queen),
        Some(2) => Some(Role::Rook),
        Some(3) => Some(Role::Bishop),
        Some(4) => Some(Role::Knight),
        Some(_) => {
            return Err(SyntaxError::Numeric(
                "a promotion digit is 1 (queen) to 4 (knight)",
            ));
        }
    };
    Ok(WrittenMove::Numeric {
        from,
        to,
        promotion,
    })
}

fn file_of(c: char) -> Option<File> {
    ('a'..='h')
        .contains(&c)
        .then(|| File::new(c as u32 - 'a' as u32))
}

fn rank_of(c: char) -> Option<Rank> {
    ('1'..='8')
        .contains(&c)
        .then(|| Rank::new(c as u32 - '1' as u32))
}

/// A piece name at the start of `chars`: a figurine, or one or two letters that are neither a
/// file nor a capture mark.
fn take_piece(chars: &[char]) -> Result<(Option<PieceMark>, usize), SyntaxError> {
    let Some(&first) = chars.first() else {
        return Ok((None, 0));
    };
    if let Some(role) = figurine_role(first) {
        let mark = (role != Role::Pawn).then_some(PieceMark::Figurine(role));
        return Ok((mark, 1));
    }
    let is_letter = |c: char| c.is_alphabetic() && file_of(c).is_none() && c != 'x';
    let n = chars.iter().take_while(|&&c| is_letter(c)).count();
    match n {
        0 => Ok((None, 0)),
        1 | 2 => Ok((
            Some(PieceMark::Letters(fold_piece_letters(
                &chars[..n].iter().collect::<String>(),
            ))),
            n,
        )),
        _ => Err(SyntaxError::UnknownPieceLetters(
            chars[..n].iter().collect(),
        )),
    }
}

fn parse_algebraic(chars: &[char]) -> Result<WrittenMove, SyntaxError> {
    let (piece, mut i) = take_piece(chars)?;
    if let Some(PieceMark::Letters(letters)) = &piece {
        // A lone lower-case letter outside a-h is no piece (pieces are capitals); Кр's `р` is
        // only ever the second letter.
        if letters.chars().next().is_some_and(char::is_lowercase) {
            return Err(SyntaxError::Unexpected(letters.clone()));
        }
    }

    // Files, ranks and at most one separator, up to the destination square.
    let mut squares: Vec<char> = Vec::with_capacity(4);
    let mut separator: Option<(char, usize)> = None;
    while let Some(&c) = chars.get(i) {
        if file_of(c).is_some() || rank_of(c).is_some() {
            squares.push(c);
        } else if c == '-' || c == 'x' {
            if separator.is_some() {
                return Err(SyntaxError::Unexpected(c.to_string()));
            }
            separator = Some((c, squares.len()));
        } else {
            break;
        }
        i += 1;
    }
    // A trailing `b` after a complete destination is a UCI bishop promotion (`b7b8b`).
    let mut promotion = None;
    if squares.len() >= 3
        && squares.last() == Some(&'b')
        && rank_of(squares[squares.len() - 2]).is_some()
    {
        squares.pop();
        promotion = Some(PieceMark::Uci(Role::Bishop));
    }
    let n = squares.len();
    if n < 2 {
        return Err(SyntaxError::NoDestination);
    }
    let (Some(to_file), Some(to_rank)) = (file_of(squares[n - 2]), rank_of(squares[n - 1])) else {
        return Err(SyntaxError::NoDestination);
    };
    let (from_file, from_rank) = match &squares[..n - 2] {
        [] => (None, None),
        [c] if file_of(*c).is_some() => (file_of(*c), None),
        [c] => (None, rank_of(*c)),
        [f, r] if file_of(*f).is_some() && rank_of(*r).is_some() => (file_of(*f), rank_of(*r)),
        _ => return Err(SyntaxError::Unexpected(squares.iter().collect())),
    };
    if let Some((_, at)) = separator
        && (at != n - 2 || (at == 0 && piece.is_none()))
    {
        return Err(SyntaxError::Unexpected(chars.iter().collect()));
    }
    let capture = matches!(separator, Some(('x', _)));

    if promotion.is_none() {
        promotion = take_promotion(&chars[i..])?;
    } else if i != chars.len() {
        return Err(SyntaxError::Unexpected(chars[i..].iter().collect()));
    }
    Ok(WrittenMove::Algebraic {
        piece,
        from_file,
        from_rank,
        capture,
        to: Square::from_coords(to_file, to_rank),
        promotion,
    })
}

/// `=Q`, `Q`, `(Q)`, `/Q`, `Ф`, `♕`, or a UCI letter `q`, `r`, `n`.
fn take_promotion(rest: &[char]) -> Result<Option<PieceMark>, SyntaxError> {
    let rest = match rest {
        [] => return Ok(None),
        ['=' | '/'] => return Err(SyntaxError::PromotionPieceMissing),
        ['=' | '/', tail @ ..] => tail,
        ['(', inner @ .., ')'] => inner,
        _ => rest,
    };
    match rest {
        ['q'] => return Ok(Some(PieceMark::Uci(Role::Queen))),
        ['r'] => return Ok(Some(PieceMark::Uci(Role::Rook))),
        ['n'] => return Ok(Some(PieceMark::Uci(Role::Knight))),
        _ => {}
    }
    match take_piece(rest)? {
        (Some(mark), used) if used == rest.len() => Ok(Some(mark)),
        _ => Err(SyntaxError::Unexpected(rest.iter().collect())),
    }
}

impl fmt::Display for PieceMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceMark::Figurine(role) => write!(f, "{}", super::lang::Lang::Figurine.letter(*role)),
            PieceMark::Letters(s) => f.write_str(s),
            PieceMark::Uci(role) => write!(f, "{}", role.char()),
        }
    }
}

#[cfg(test)]
mod tests;
