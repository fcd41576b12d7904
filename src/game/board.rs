//! The seam between a game and its board. A [`Game`](super::Game) keeps what every board game
//! played by correspondence shares (the players, whose turn it is, move numbers, draw offers,
//! claims, conditional lines, the clock, the result); everything that depends on the pieces is
//! asked of a [`Board`]: read a move, is it legal, play it, has the board ended the game, write
//! a move or the position for a reader. The relay, the journal and the transports hold moves as
//! [`Ply`] values and positions as `Box<dyn Board>`, so a second game plugs in here, as a new
//! [`Kind`] with its own board, without touching them.
//!
//! ```
//! use ccrelay::game::{Kind, board};
//! use ccrelay::notation::Notation;
//!
//! let mut pos = board(Kind::Chess, None).unwrap();
//! let read = pos.read("Nf3", None).unwrap();
//! assert_eq!(pos.code(&read.ply), "7163"); // the record keeps ICCF numeric
//! assert_eq!(pos.write(&read.ply, Notation::Uci), "g1f3");
//! pos.play(&read.ply);
//! assert_eq!(pos.move_number(), 1);
//! assert!(pos.read_code("7163").is_none()); // not legal now: it is Black's move
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::draughts;
use crate::notation::{Lang, Notation, ReadMoveError};

use super::GameResult;
use super::chess::ChessBoard;
use super::draughts::DraughtsBoard;

/// Which game is played on a board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Kind {
    /// Chess, FIDE rules (the relay's first game).
    #[default]
    Chess,
    /// Russian draughts (shashki), 8×8.
    DraughtsRu,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Chess => "chess",
            Kind::DraughtsRu => "draughts-ru",
        }
    }

    /// PDN's `GameType` tag for a game other than chess (`25`: Russian draughts).
    pub fn game_type(self) -> Option<&'static str> {
        match self {
            Kind::Chess => None,
            Kind::DraughtsRu => Some("25"),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "chess" => Ok(Kind::Chess),
            "draughts-ru" => Ok(Kind::DraughtsRu),
            other => Err(format!(
                "unknown game {other:?} (known: chess, draughts-ru)"
            )),
        }
    }
}

/// One move of some game, as its board read it. Opaque outside `game`: a board makes and
/// reads its own moves; everyone else compares, stores and passes them back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply(pub(super) PlyOf);

/// The moves of each kind of board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum PlyOf {
    Chess(shakmaty::Move),
    /// Boxed: a draughts move holds its whole path, and a chess game's record stays as
    /// small as a list of chess moves.
    Draughts(Box<draughts::Move>),
}

/// Why a player's text is not a legal move, as the board's own reader says it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    #[error("{0}")]
    Chess(ReadMoveError),
    #[error("{0}")]
    Draughts(draughts::notation::ReadError),
}

impl MoveError {
    /// More than one legal move fits the text (front ends that name that case ask).
    pub fn is_ambiguous(&self) -> bool {
        matches!(
            self,
            MoveError::Chess(ReadMoveError::Ambiguous(_))
                | MoveError::Draughts(draughts::notation::ReadError::Ambiguous { .. })
        )
    }
}

/// A move read from a player's text, with the draw offer written with it (`(=)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadPly {
    pub ply: Ply,
    pub draw_offer: bool,
}

/// A position of one game: what a [`Game`](super::Game) asks of the pieces. Pure: no I/O.
pub trait Board: fmt::Debug + Send + Sync {
    fn kind(&self) -> Kind;

    /// A copy of this position (boards are held boxed).
    fn boxed(&self) -> Box<dyn Board>;

    /// The side to move.
    fn turn(&self) -> Color;

    /// The number of the move to be made now (`12` for both `12.` and `12...`).
    fn move_number(&self) -> u32;

    /// Reads a player's `text` as a legal move here, in `lang` first.
    fn read(&self, text: &str, lang: Option<Lang>) -> Result<ReadPly, MoveError>;

    /// Reads the form the record keeps ([`Board::code`]) as a legal move here.
    fn read_code(&self, code: &str) -> Option<Ply>;

    fn is_legal(&self, ply: &Ply) -> bool;

    /// Plays `ply`, which must be legal here: read by this board ([`Board::read`],
    /// [`Board::read_code`]) or checked with [`Board::is_legal`]. A move of another kind of
    /// board changes nothing; an illegal one of the same kind is a caller's error (checked in
    /// debug builds), never a panic in release.
    fn play(&mut self, ply: &Ply);

    /// The result the board itself gives (mate, stalemate, no move left), if any.
    fn outcome(&self) -> Option<GameResult>;

    /// What makes two positions the same for a repetition claim.
    fn repetition_key(&self) -> String;

    /// Half-moves since the last irreversible one (a capture, a pawn move), for the
    /// fifty-move claim; `None` where that rule is not this game's.
    fn quiet_plies(&self) -> Option<u32>;

    /// A legal move in the form the record keeps (ICCF numeric for chess).
    fn code(&self, ply: &Ply) -> String;

    /// A legal move written for a reader in `notation`.
    fn write(&self, ply: &Ply, notation: Notation) -> String;

    /// The position as one line of text (FEN for chess), read back by [`board`].
    fn fen(&self) -> String;

    /// The position drawn as text for a reader.
    fn diagram(&self) -> String;
}

impl Clone for Box<dyn Board> {
    fn clone(&self) -> Box<dyn Board> {
        self.boxed()
    }
}

/// A board of `kind` in its usual starting position, or in the one `fen` describes.
pub fn board(kind: Kind, fen: Option<&str>) -> Result<Box<dyn Board>, String> {
    match kind {
        Kind::Chess => Ok(Box::new(ChessBoard::new(fen)?)),
        Kind::DraughtsRu => Ok(Box::new(DraughtsBoard::new(fen)?)),
    }
}

/// `codes` (as the record keeps them) played from `start` (a FEN, or the usual position): the
/// starting position and the moves, if every one reads and is legal.
pub fn replay(
    kind: Kind,
    start: Option<&str>,
    codes: &[String],
) -> Option<(Box<dyn Board>, Vec<Ply>)> {
    let start = board(kind, start).ok()?;
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(codes.len());
    for code in codes {
        let ply = pos.read_code(code)?;
        pos.play(&ply);
        plies.push(ply);
    }
    Some((start, plies))
}

/// `plies`, played in turn from `from`, in the form the record keeps.
pub fn codes(from: &dyn Board, plies: &[Ply]) -> Vec<String> {
    let mut pos = from.boxed();
    plies
        .iter()
        .map(|ply| {
            let code = pos.code(ply);
            pos.play(ply);
            code
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game keeps every move it played (and each side's conditional line): a chess move
    /// stays the size of a chess move and a pointer, whatever other games' moves hold.
    #[test]
    fn a_ply_stays_small() {
        assert!(
            std::mem::size_of::<Ply>() <= 16,
            "{}",
            std::mem::size_of::<Ply>()
        );
    }

    #[test]
    fn kinds_read_and_write_their_names() {
        for kind in [Kind::Chess, Kind::DraughtsRu] {
            assert_eq!(kind.as_str().parse::<Kind>(), Ok(kind));
        }
        assert!("checkers".parse::<Kind>().is_err());
    }

    /// A move of one board is no move on another: refused, never misread.
    #[test]
    fn a_move_of_another_game_is_not_legal() {
        let chess = board(Kind::Chess, None).unwrap();
        let draughts = board(Kind::DraughtsRu, None).unwrap();
        let e4 = chess.read("e4", None).unwrap().ply;
        let c3d4 = draughts.read("c3-d4", None).unwrap().ply;
        assert!(!draughts.is_legal(&e4) && !chess.is_legal(&c3d4));
        assert_eq!(draughts.code(&e4), "");
        let mut after = draughts.clone();
        after.play(&e4);
        assert_eq!(after.fen(), draughts.fen(), "nothing played");
    }
}
