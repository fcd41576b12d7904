//! Writing long algebraic notation: both squares always written.
//!
//! Latin-letter languages write `e2-e4`, `Ng1-f3`, `Nf6xe4`, `O-O`; the Russian manner (seed
//! 004) writes `e2—e4`, `Кg1—f3`, `Кf6:e4`, `0—0`. A promotion follows the destination
//! (`e7-e8=Q`, `e7—e8Ф`); `+` and `#` are kept.
//!
//! ```
//! use ccrelay::notation::{Lang, lan};
//! use shakmaty::{Chess, Move, Role, Square};
//!
//! let pos = Chess::default();
//! let m = Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None };
//! assert_eq!(lan::write(&pos, m, Lang::English), "Ng1-f3");
//! assert_eq!(lan::write(&pos, m, Lang::Russian), "Кg1—f3");
//! ```

use shakmaty::san::Suffix;
use shakmaty::{Chess, Move, Position};

use super::{Lang, king_move_squares, san};

/// The long algebraic form of `m` (legal in `pos`) in `lang`.
pub fn write(pos: &Chess, m: Move, lang: Lang) -> String {
    let (dash, capture_mark) = if lang.is_cyrillic() {
        ('—', ':')
    } else {
        ('-', 'x')
    };
    let mut out = String::with_capacity(10);
    if let Some(side) = m.castling_side() {
        out.push_str(san::castle(side, lang, dash));
    } else {
        let (from, to) = king_move_squares(m);
        out.push_str(lang.letter(m.role()));
        out.push_str(&from.to_string());
        out.push(if m.is_capture() { capture_mark } else { dash });
        out.push_str(&to.to_string());
        if let Some(promotion) = m.promotion() {
            if !lang.is_cyrillic() {
                out.push('=');
            }
            out.push_str(lang.letter(promotion));
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    match san::suffix(&after) {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push('#'),
        None => {}
    }
    out
}
