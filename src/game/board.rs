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
//!
//! // Each board reads its own game's moves and says why it refuses one, in its own terms.
//! let pos = board("draughts-ru".parse::<Kind>().unwrap(), None).unwrap();
//! let refusal = pos.read("c3-e5", None).unwrap_err();
//! assert!(refusal.to_string().contains("legal moves from c3: c3-b4, c3-d4"));
//! assert!(!refusal.is_ambiguous());
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::draughts;
use crate::notation::{Lang, LangSet, Notation, ReadIn, ReadMoveError};

use super::GameResult;

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
    /// The languages whose piece letters read the text as this move and no other (all of
    /// them for a text without piece letters, and on a board whose moves have none).
    pub langs: LangSet,
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
    fn read(&self, text: &str, lang: Option<Lang>) -> Result<ReadPly, MoveError> {
        self.read_in(text, ReadIn::from(lang))
    }

    /// Reads a player's `text` as a legal move here, its piece letters in the languages
    /// `read_in` allows (a player's own, or those their earlier moves in the game fit).
    fn read_in(&self, text: &str, read_in: ReadIn) -> Result<ReadPly, MoveError>;

    /// Reads the form the record keeps ([`Board::code`]) as a legal move here.
    fn read_code(&self, code: &str) -> Option<Ply>;

    /// Reads the form the record keeps as the move it names here, not checked legal where
    /// the board can tell a move from its code alone: for the moves of a signed snapshot,
    /// which were checked when they were played ([`crate::game::Game::from_signed_saved`]).
    /// A board that cannot reads it as [`Board::read_code`] does.
    fn read_code_unchecked(&self, code: &str) -> Option<Ply> {
        self.read_code(code)
    }

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

    /// The position as one line of text (FEN for chess), read back by [`board`](crate::game::board).
    fn fen(&self) -> String;

    /// The position drawn as text for a reader.
    fn diagram(&self) -> String;
}

impl Clone for Box<dyn Board> {
    fn clone(&self) -> Box<dyn Board> {
        self.boxed()
    }
}
