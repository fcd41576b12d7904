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
use shakmaty::{CastlingSide, Chess, Move, Position};

use super::Lang;

/// The SAN of `m` (legal in `pos`) in `lang`, with `+` or `#`.
pub fn write(pos: &Chess, m: Move, lang: Lang) -> String {
    let san = San::from_move(pos, m);
    let mut after = pos.clone();
    after.play_unchecked(m);
    let mut out = String::with_capacity(8);
    append(
        &mut out,
        SanPlus {
            san,
            suffix: suffix(&after),
        },
        lang,
    );
    out
}

/// `+` or `#` for the position after a move. shakmaty's `Suffix::from_position` asks for the
/// game's outcome, which generates every legal move even when the king is not in check; a
/// suffix needs them only to tell mate from check, so this generates them only then.
pub(super) fn suffix(after: &Chess) -> Option<Suffix> {
    if !after.is_check() {
        None
    } else if after.legal_moves().is_empty() {
        Some(Suffix::Checkmate)
    } else {
        Some(Suffix::Check)
    }
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

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    /// Positions with mates, checks, a stalemate, promotions, castling and en passant to move
    /// from, and the start.
    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        "3qk3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
        "r3k2r/ppp1qppp/2n5/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 9",
        "4k3/8/8/8/8/8/3r4/R3K3 w Q - 0 1",
    ];

    /// The suffix without generating moves when not in check is shakmaty's, on every legal
    /// move of these positions and of the positions a step on from them.
    #[test]
    fn the_suffix_is_shakmatys_on_every_move() {
        let mut checked = 0;
        let mut marks = [0; 3];
        for fen in FENS {
            for pos in crate::notation::and_one_move_on(fen) {
                for m in pos.legal_moves() {
                    let theirs = SanPlus::from_move(pos.clone(), m);
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    assert_eq!(suffix(&after), theirs.suffix, "{fen}: {m:?}");
                    assert_eq!(write(&pos, m, Lang::English), theirs.to_string(), "{fen}");
                    marks[match theirs.suffix {
                        None => 0,
                        Some(Suffix::Check) => 1,
                        Some(Suffix::Checkmate) => 2,
                    }] += 1;
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} moves");
        assert!(marks.iter().all(|&n| n > 0), "none, check, mate: {marks:?}");
    }
}
