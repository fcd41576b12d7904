//! Every written form of a chess move, read tolerantly and written exactly.
//!
//! Pure code: no I/O, no clock. One notation per module:
//!
//! | module | reads | writes |
//! |---|---|---|
//! | [`written`] | the syntax of any token: SAN, long algebraic, UCI, numeric, castling, marks | |
//! | [`reader`] | a token against a position's legal moves, in the player's language or the game's | |
//! | [`refusal`] | why a token is no move here: the errors a player reads | |
//! | [`iccf`] | (via the reader) | ICCF numeric `5254` |
//! | [`san`] | (via the reader) | SAN in any language, figurine |
//! | [`lan`] | (via the reader) | long algebraic `Ng1-f3`, `Кg1—f3` |
//! | [`uci`] | (via the reader) | UCI `g1f3` |
//! | [`movetext`] | PGN and plain movetext, game by game, streaming | |
//! | [`pgn`] | | PGN games |
//! | [`lang`], [`fold`] | piece letters of every language; look-alike characters | |
//!
//! ```
//! use ccrelay::notation::{Iccf, Lang, Reader, san};
//! use shakmaty::{Chess, Position};
//!
//! // Seed 004: the Russian long form, with a Latin K for the Russian knight.
//! let mut reader = Reader::new(Some(Lang::Russian));
//! let mut pos = Chess::default();
//! let mut numeric = Vec::new();
//! for token in ["е2—е4", "е7—е5", "Kg1—f3", "Kb8—с6"] {
//!     let m = reader.read(&pos, token).unwrap().m;
//!     numeric.push(Iccf::from_move(m).to_string());
//!     pos.play_unchecked(m);
//! }
//! assert_eq!(numeric, ["5254", "5755", "7163", "2836"]);
//! ```

pub mod fold;
pub mod iccf;
pub mod lan;
pub mod lang;
pub mod movetext;
pub mod number;
pub mod pgn;
pub mod reader;
pub mod refusal;
pub mod result;
pub mod san;
pub mod uci;
pub mod written;

pub use iccf::Iccf;
pub use lang::{Lang, LangSet};
pub use reader::{ReadIn, ReadMove, ReadMoveError, Reader};
pub use written::{SyntaxError, Written};

use shakmaty::{CastlingSide, File, Move, Square};

/// A move's squares as a player writes them: castling is the king's move (e1 to g1), as in
/// ICCF numeric and long algebraic, not the king-takes-rook form shakmaty uses inside.
pub fn king_move_squares(m: Move) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => {
            let file = match CastlingSide::from_king_side(king < rook) {
                CastlingSide::KingSide => File::G,
                CastlingSide::QueenSide => File::C,
            };
            (king, Square::from_coords(file, king.rank()))
        }
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Put { to, .. } => (to, to),
    }
}

/// A notation to write moves in, as a player chooses it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// ICCF numeric: `5254`.
    Iccf,
    /// SAN in a language (or figurines): `Nf3`, `Кf3`, `♘f3`.
    San(Lang),
    /// Long algebraic in a language: `Ng1-f3`, `Кg1—f3`.
    Lan(Lang),
    /// UCI: `g1f3`.
    Uci,
}

impl Notation {
    /// Writes `m`, legal in `pos`.
    pub fn write(self, pos: &shakmaty::Chess, m: Move) -> String {
        match self {
            Notation::Iccf => Iccf::from_move(m).to_code(),
            Notation::San(lang) => san::write(pos, m, lang),
            Notation::Lan(lang) => lan::write(pos, m, lang),
            Notation::Uci => uci::write(m),
        }
    }
}

impl std::fmt::Display for Notation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notation::Iccf => f.write_str("iccf"),
            Notation::San(Lang::Figurine) => f.write_str("figurine"),
            Notation::San(lang) => write!(f, "san ({lang})"),
            Notation::Lan(lang) => write!(f, "lan ({lang})"),
            Notation::Uci => f.write_str("uci"),
        }
    }
}

/// A FEN's position and every position one legal move on from it: the positions on which
/// tests hold a shortcut of ours to shakmaty's own answer.
#[cfg(test)]
pub(crate) fn and_one_move_on(fen: &str) -> Vec<shakmaty::Chess> {
    use shakmaty::Position;
    let start = movetext::parse_position(fen).expect("a FEN");
    let mut positions = vec![start.clone()];
    for m in start.legal_moves() {
        let mut next = start.clone();
        next.play_unchecked(m);
        positions.push(next);
    }
    positions
}
