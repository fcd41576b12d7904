//! UCI long algebraic (`e2e4`, `e1g1`, `e7e8q`), the engines' notation.
//!
//! Reading goes through the tolerant reader (`g1f3` is a long algebraic move without a piece
//! letter; `0000` is refused as a null move). Writing is shakmaty's, with castling as the king's
//! two-square move, as UCI engines for standard chess expect.
//!
//! ```
//! use ccrelay::notation::uci;
//! use shakmaty::{Move, Role, Square};
//! let m = Move::Castle { king: Square::E1, rook: Square::H1 };
//! assert_eq!(uci::write(m), "e1g1");
//! ```

use shakmaty::Move;
use shakmaty::uci::UciMove;

/// The UCI form of a move.
pub fn write(m: Move) -> String {
    UciMove::from_standard(m).to_string()
}

/// Appends the UCI form to `buf` without allocating.
pub fn append_to(m: Move, buf: &mut Vec<u8>) {
    UciMove::from_standard(m).append_ascii_to(buf);
}
