//! Russian draughts (shashki): the rules and their notation, as pure code.
//!
//! No I/O and no clock; nothing here imports anything above [`crate::notation`].
//!
//! | module | what |
//! |---|---|
//! | [`board`] | squares (PDN numbers 1–32, algebraic names), pieces, positions |
//! | [`movegen`] | legal moves by the Russian rules, perft |
//! | [`game`] | a game's moves, its result, the draw limits |
//! | [`notation`] | moves read and written: `c3-d4`, `g1:e3:c5:a7`, `22-18`, `22x15x24` |
//! | [`setup`] | positions: PDN's FEN, the listing of seed 003 |
//! | [`movetext`] | PDN and plain movetext, game by game |
//!
//! Seed 003, diagram 2: the white king must take four pieces and stop on d4.
//!
//! ```
//! use ccrelay::draughts::{legal_moves, notation, setup};
//!
//! let pos = setup::parse_listing(
//!     "Белые: дамка e1, простая шашка f2. Черные: простые b6, c3, c5, d6, e5, e7.",
//! )
//! .unwrap();
//! let moves: Vec<String> = legal_moves(&pos)
//!     .iter()
//!     .map(|m| notation::write_path(m, notation::Form::Algebraic))
//!     .collect();
//! assert_eq!(moves, ["e1:a5:d8:f6:d4"]);
//! ```

pub mod board;
pub mod game;
pub mod movegen;
pub mod movetext;
pub mod notation;
pub mod setup;

pub use board::{Color, Kind, Piece, Position, Square};
pub use game::{DrawReason, Game, Outcome};
pub use movegen::{Move, all_moves, apply, legal_moves, perft};

#[cfg(test)]
mod tests;
