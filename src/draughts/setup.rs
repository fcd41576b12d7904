//! Positions written down: PDN's FEN and the position listing of seed 003.
//!
//! - FEN: `W:W21,22,…,32:B1,2,…,12`, the side to move, then each side's squares, `K` before a
//!   king; ranges (`W21-32`), algebraic squares (`W:Wa1,c1:Bb8`, as some programs write for 8×8
//!   boards), a `[FEN "…"]` wrapper and trailing fields (`:H0:F1`) are read too.
//! - The listing: `White: king e1, man f2. Black: b6, c3, c5, d6, e5, e7` or, as seed 003
//!   writes it, `Белые: дамка e1, простая шашка f2. Черные: простые b6, c3, c5, d6, e5, e7`
//!   (abbreviated `б.`, `ч.`, `д.`, `пр.`; a count in brackets, `(3)`, is checked). White is to
//!   move unless the text says otherwise (`ход черных`, `Black to move`).

use super::board::{Color, Kind, Piece, Position, Square};

/// Why a position text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("expected W or B for the side to move, found {0:?}")]
    Turn(String),
    #[error("expected the pieces as :W… and :B…")]
    Fields,
    #[error("{0:?} is not a square")]
    Square(String),
    #[error("square {0} is listed twice")]
    Twice(Square),
    #[error("a man on {0} stands on its own crowning row")]
    ManOnCrowningRow(Square),
    #[error("the listing says {said} pieces for {side}, but names {named}")]
    Count {
        side: &'static str,
        said: u32,
        named: u32,
    },
    #[error("neither White nor Black is named")]
    NoSides,
}

/// Reads a FEN or a listing, whichever `text` is.
pub fn parse_any(text: &str) -> Result<Position, SetupError> {
    let t = text.trim();
    let inner = t
        .strip_prefix("[FEN")
        .map(|r| r.trim().trim_end_matches(']').trim().trim_matches('"'))
        .unwrap_or(t)
        .trim_matches('"');
    if inner.len() >= 2 && matches!(inner.as_bytes()[0], b'W' | b'B') && inner.as_bytes()[1] == b':'
    {
        parse_fen(inner)
    } else {
        parse_listing(t)
    }
}

fn square(text: &str) -> Result<Square, SetupError> {
    let t = text.trim();
    if t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok().and_then(Square::from_number)
    } else {
        Square::from_name(&t.to_ascii_lowercase())
    }
    .ok_or_else(|| SetupError::Square(t.to_owned()))
}

fn place(pos: &mut Position, sq: Square, piece: Piece) -> Result<(), SetupError> {
    if pos.piece_at(sq).is_some() {
        return Err(SetupError::Twice(sq));
    }
    if piece.kind == Kind::Man && sq.rank() == piece.color.crowning_rank() {
        return Err(SetupError::ManOnCrowningRow(sq));
    }
    pos.set(sq, Some(piece));
    Ok(())
}

/// Reads PDN's FEN: `W:W21,22:B1,K2`.
pub fn parse_fen(fen: &str) -> Result<Position, SetupError> {
    let mut fields = fen.trim().split(':');
    let turn = match fields.next().map(str::trim) {
        Some("W" | "w") => Color::White,
        Some("B" | "b") => Color::Black,
        other => return Err(SetupError::Turn(other.unwrap_or("").to_owned())),
    };
    let mut pos = Position::empty(turn);
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        let (color, list) = match field.as_bytes().first() {
            Some(b'W' | b'w') => (Color::White, &field[1..]),
            Some(b'B' | b'b') => (Color::Black, &field[1..]),
            // Trailing counters (`H0`, `F1`) and the like are not pieces.
            _ => continue,
        };
        let index = usize::from(color == Color::Black);
        if seen[index] {
            continue;
        }
        seen[index] = true;
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (kind, rest) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (Kind::King, rest),
                None => (Kind::Man, item),
            };
            let piece = Piece { color, kind };
            if let Some((a, b)) = rest.split_once('-') {
                let (a, b) = (square(a)?, square(b)?);
                if a > b {
                    return Err(SetupError::Square(rest.to_owned()));
                }
                for n in a.number()..=b.number() {
                    let sq = Square::from_number(n).ok_or(SetupError::Fields)?;
                    place(&mut pos, sq, piece)?;
                }
            } else {
                place(&mut pos, square(rest)?, piece)?;
            }
        }
    }
    if !seen[0] && !seen[1] {
        return Err(SetupError::Fields);
    }
    Ok(pos)
}

/// Writes PDN's FEN, kings marked `K`, squares in PDN order.
pub fn write_fen(pos: &Position) -> String {
    let side = |color: Color| -> String {
        super::board::squares_of(pos.pieces(color))
            .map(|sq| {
                let king = pos.kings() & sq.bit() != 0;
                format!("{}{}", if king { "K" } else { "" }, sq.number())
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let turn = if pos.turn() == Color::White { "W" } else { "B" };
    format!("{turn}:W{}:B{}", side(Color::White), side(Color::Black))
}

/// The language a listing is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ListingLang {
    /// `White: kings e1; men f2. Black: men b6, c3.`
    English,
    /// Seed 003's words: `Белые: дамки e1; простые f2. Черные: простые b6, c3.`
    Russian,
}

/// Writes the listing of seed 003 in English: kings first, then men, files in order and nearer
/// rows first: `White: kings e1; men f2. Black: men b6, c3.`
pub fn write_listing(pos: &Position) -> String {
    write_listing_in(pos, ListingLang::English)
}

/// Writes the listing of seed 003 in `lang` (see [`write_listing`]).
pub fn write_listing_in(pos: &Position, lang: ListingLang) -> String {
    let russian = lang == ListingLang::Russian;
    let mut parts = Vec::new();
    for color in [Color::White, Color::Black] {
        let mut groups = Vec::new();
        for kind in [Kind::King, Kind::Man] {
            let name = match (kind, russian) {
                (Kind::King, false) => "kings",
                (Kind::Man, false) => "men",
                (Kind::King, true) => "дамки",
                (Kind::Man, true) => "простые",
            };
            let mut squares: Vec<Square> = pos.squares(color, kind).collect();
            squares.sort_by_key(|sq| (sq.file(), sq.rank()));
            if !squares.is_empty() {
                let names: Vec<String> = squares.iter().map(Square::to_string).collect();
                groups.push(format!("{name} {}", names.join(", ")));
            }
        }
        let side = match (color, russian) {
            (_, false) => color.name(),
            (Color::White, true) => "Белые",
            (Color::Black, true) => "Черные",
        };
        parts.push(format!("{side}: {}.", groups.join("; ")));
    }
    let mut out = parts.join(" ");
    if pos.turn() == Color::Black {
        out.push_str(if russian {
            " Ход черных."
        } else {
            " Black to move."
        });
    }
    out
}

/// A board for a reader: White at the bottom, `w` and `b` for men, `W` and `B` for kings, `.`
/// for a free dark square, light squares blank; the side to move under it.
///
/// ```text
/// 8    b   b   b   b
/// 7  b   b   b   b
/// …
/// 1  w   w   w   w
///    a b c d e f g h   White to move
/// ```
pub fn write_diagram(pos: &Position) -> String {
    let mut out = String::with_capacity(200);
    for rank in (0..8i8).rev() {
        out.push(char::from(b'1' + rank as u8));
        out.push(' ');
        for file in 0..8i8 {
            out.push(' ');
            out.push(match Square::from_coords(file, rank) {
                None => ' ',
                Some(sq) => match pos.piece_at(sq) {
                    None => '.',
                    Some(Piece { color, kind }) => match (color, kind) {
                        (Color::White, Kind::Man) => 'w',
                        (Color::White, Kind::King) => 'W',
                        (Color::Black, Kind::Man) => 'b',
                        (Color::Black, Kind::King) => 'B',
                    },
                },
            });
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "   a b c d e f g h   {} to move\n",
        pos.turn().name()
    ));
    out
}

/// What a word of a listing says.
enum Word {
    Side(Color),
    Kind(Kind),
    Square(Square),
    Count(u32),
    Other,
}

fn classify(word: &str) -> Word {
    let lower = word.to_lowercase();
    let w = lower.trim_matches(|c: char| c == '.' || c == ':' || c == ',' || c == ';');
    let folded: String = w.chars().map(crate::notation::fold::fold_char).collect();
    if let Some(sq) = Square::from_name(&folded) {
        return Word::Square(sq);
    }
    if let Some(n) = w
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|n| n.parse().ok())
    {
        return Word::Count(n);
    }
    match w {
        "white" | "whites" | "белые" | "белых" | "б" | "білі" | "w" => {
            Word::Side(Color::White)
        }
        "black" | "blacks" | "черные" | "чёрные" | "черных" | "чёрных" | "ч" | "чорні" | "b" => {
            Word::Side(Color::Black)
        }
        "king" | "kings" | "k" | "дамка" | "дамки" | "дамок" | "д" | "дамками" => {
            Word::Kind(Kind::King)
        }
        "man" | "men" | "простая" | "простые" | "простых" | "пр" | "проста" | "прості" => {
            Word::Kind(Kind::Man)
        }
        _ => Word::Other,
    }
}

/// Reads the listing of seed 003 (see the module header).
pub fn parse_listing(text: &str) -> Result<Position, SetupError> {
    let lower = text.to_lowercase();
    let black_to_move = ["ход черных", "ход чёрных", "black to move", "хід чорних"]
        .iter()
        .any(|p| lower.contains(p));
    let mut pos = Position::empty(if black_to_move {
        Color::Black
    } else {
        Color::White
    });
    let mut side: Option<Color> = None;
    let mut kind = Kind::Man;
    let mut named = [0u32; 2];
    let mut said: [Option<u32>; 2] = [None, None];
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if word.is_empty() {
            continue;
        }
        match classify(word) {
            Word::Side(color) => {
                side = Some(color);
                kind = Kind::Man;
            }
            Word::Kind(k) => kind = k,
            Word::Square(sq) => {
                let color = side.ok_or(SetupError::NoSides)?;
                place(&mut pos, sq, Piece { color, kind })?;
                named[usize::from(color == Color::Black)] += 1;
            }
            Word::Count(n) => {
                if let Some(color) = side {
                    said[usize::from(color == Color::Black)] = Some(n);
                }
            }
            Word::Other => {}
        }
    }
    if side.is_none() {
        return Err(SetupError::NoSides);
    }
    for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
        if let Some(n) = said[i]
            && n != named[i]
        {
            return Err(SetupError::Count {
                side: color.name(),
                said: n,
                named: named[i],
            });
        }
    }
    Ok(pos)
}
