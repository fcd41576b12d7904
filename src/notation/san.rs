//! Writing short algebraic notation (SAN) in any language's piece letters, or figurines.
//!
//! Reading is the tolerant reader's job ([`super::reader`]); this side is strict and writes what
//! each language's readers expect: English `Nf3`, `exd8=Q`, `O-O`; Russian `Кf3`, `exd8Ф`, `0-0`
//! (the forms of seed 000); figurine `♘f3`.
//!
//! ```
//! use ccrelay::notation::{Lang, san};
//! use shakmaty::{Chess, Position, Square, Move, Role};
//!
//! let pos = Chess::default();
//! let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
//! assert_eq!(san::write(&pos, m, Lang::English), "Nf3");
//! assert_eq!(san::write(&pos, m, Lang::Russian), "Кf3");
//! assert_eq!(san::write(&pos, m, Lang::Figurine), "♘f3");
//! ```

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess, Move};

use super::Lang;

/// The SAN of `m` (legal in `pos`) in `lang`, with `+` or `#`.
pub fn write(pos: &Chess, m: Move, lang: Lang) -> String {
    let san_plus = SanPlus::from_move(pos.clone(), m);
    let mut out = String::with_capacity(8);
    append(&mut out, san_plus, lang);
    out
}

/// Appends an already computed [`SanPlus`] in `lang`'s letters.
pub fn append(out: &mut String, san_plus: SanPlus, lang: Lang) {
    match san_plus.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            out.push_str(lang.letter(role));
            if let Some(file) = file {
                out.push(file.char());
            }
            if let Some(rank) = rank {
                out.push(rank.char());
            }
            if capture {
                out.push('x');
            }
            out.push_str(&to.to_string());
            if let Some(promotion) = promotion {
                if !lang.is_cyrillic() {
                    out.push('=');
                }
                out.push_str(lang.letter(promotion));
            }
        }
        San::Castle(side) => out.push_str(castle(side, lang, '-')),
        San::Put { role, to } => {
            out.push_str(lang.letter(role));
            out.push('@');
            out.push_str(&to.to_string());
        }
        San::Null => out.push_str("--"),
    }
    match san_plus.suffix {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push('#'),
        None => {}
    }
}

/// `O-O` in Latin-letter languages, `0-0` in the Russian manner; `dash` between the marks.
pub(super) fn castle(side: CastlingSide, lang: Lang, dash: char) -> &'static str {
    match (side, lang.is_cyrillic(), dash) {
        (CastlingSide::KingSide, false, _) => "O-O",
        (CastlingSide::QueenSide, false, _) => "O-O-O",
        (CastlingSide::KingSide, true, '-') => "0-0",
        (CastlingSide::QueenSide, true, '-') => "0-0-0",
        (CastlingSide::KingSide, true, _) => "0—0",
        (CastlingSide::QueenSide, true, _) => "0—0—0",
    }
}
