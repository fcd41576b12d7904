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
use crate::notation::{Lang, LangSet, Notation, ReadIn, ReadMoveError, king_move_squares};

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

impl Ply {
    /// The squares the move touches, for a board drawn for a reader: where it starts and
    /// where it ends (castling as the king's move, as the record writes it), and a draughts
    /// capture's every stop between. A move holds them itself: no position is needed.
    pub fn squares(&self) -> Vec<FileRank> {
        match &self.0 {
            PlyOf::Chess(m) => {
                let (from, to) = king_move_squares(*m);
                vec![FileRank::from(from), FileRank::from(to)]
            }
            // Its whole path: where it starts, every square a capture stops on, where it ends
            // (the squares the record's numeric form names).
            PlyOf::Draughts(m) => std::iter::once(m.from())
                .chain(m.landings().iter().copied())
                .map(FileRank::from)
                .collect(),
        }
    }
}

/// A square of the 8×8 board either game is played on, as its file and rank counted from 0
/// at a1: what a board drawn for a reader marks, whichever game it shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileRank {
    pub file: u8,
    pub rank: u8,
}

impl From<shakmaty::Square> for FileRank {
    fn from(square: shakmaty::Square) -> FileRank {
        FileRank {
            file: u8::from(square.file()),
            rank: u8::from(square.rank()),
        }
    }
}

impl From<draughts::Square> for FileRank {
    fn from(square: draughts::Square) -> FileRank {
        FileRank {
            file: square.file(),
            rank: square.rank(),
        }
    }
}

impl FileRank {
    /// Its name, `e4`.
    pub fn name(self) -> String {
        format!(
            "{}{}",
            char::from(b'a' + self.file.min(7)),
            self.rank.min(7) + 1
        )
    }
}

/// What a piece is, for drawing it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    Chess(shakmaty::Role),
    DraughtsMan,
    DraughtsKing,
}

/// A piece on its square, for a board drawn for a reader.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceOn {
    pub at: FileRank,
    pub color: Color,
    pub figure: Figure,
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

    /// Every piece on the board, the top rank first and each rank from the a-file, for a
    /// board drawn for a reader.
    fn pieces(&self) -> Vec<PieceOn>;

    /// The square of the king of the side to move when it is in check; `None` otherwise, and
    /// always in a game without check.
    fn checked_king(&self) -> Option<FileRank>;
}

impl Clone for Box<dyn Board> {
    fn clone(&self) -> Box<dyn Board> {
        self.boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::super::boards::board;
    use super::*;

    /// A move on a position: the squares it touches, and the king in check after it.
    struct Row {
        what: &'static str,
        kind: Kind,
        fen: &'static str,
        text: &'static str,
        squares: &'static [&'static str],
        check_after: Option<&'static str>,
    }

    const ROWS: &[Row] = &[
        Row {
            what: "a quiet move",
            kind: Kind::Chess,
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            text: "Nf3",
            squares: &["g1", "f3"],
            check_after: None,
        },
        Row {
            what: "castling short, as the king's move",
            kind: Kind::Chess,
            fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            text: "O-O",
            squares: &["e1", "g1"],
            check_after: None,
        },
        Row {
            what: "castling long for Black",
            kind: Kind::Chess,
            fen: "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            text: "O-O-O",
            squares: &["e8", "c8"],
            check_after: None,
        },
        Row {
            what: "en passant: where the pawn goes, not the pawn it takes",
            kind: Kind::Chess,
            fen: "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            text: "exd6",
            squares: &["e5", "d6"],
            check_after: None,
        },
        Row {
            what: "a promotion that checks",
            kind: Kind::Chess,
            fen: "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
            text: "e8=Q+",
            squares: &["e7", "e8"],
            check_after: Some("a8"),
        },
        Row {
            what: "a mate: the white king in check",
            kind: Kind::Chess,
            fen: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            text: "Qh4#",
            squares: &["d8", "h4"],
            check_after: Some("e1"),
        },
        Row {
            what: "a draughts move",
            kind: Kind::DraughtsRu,
            fen: "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            text: "c3-d4",
            squares: &["c3", "d4"],
            check_after: None,
        },
        Row {
            what: "a draughts capture: its whole path",
            kind: Kind::DraughtsRu,
            fen: "W:W22:B18,11,1",
            text: "c3:e5:g7",
            squares: &["c3", "e5", "g7"],
            check_after: None,
        },
    ];

    #[test]
    fn a_moves_squares_and_the_king_in_check_after_it() {
        for row in ROWS {
            let mut pos = board(row.kind, Some(row.fen)).expect(row.what);
            assert_eq!(pos.checked_king(), None, "{}: before", row.what);
            let ply = pos.read(row.text, None).expect(row.what).ply;
            let squares: Vec<String> = ply.squares().into_iter().map(FileRank::name).collect();
            assert_eq!(squares, row.squares, "{}", row.what);
            pos.play(&ply);
            assert_eq!(
                pos.checked_king().map(FileRank::name).as_deref(),
                row.check_after,
                "{}",
                row.what
            );
        }
    }

    /// The pieces of a position, the top rank first and each rank from the a-file, as its
    /// FEN lists them.
    #[test]
    fn the_pieces_are_listed_as_the_fen_lists_them() {
        let chess = board(Kind::Chess, Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1")).unwrap();
        let listed: Vec<(String, Color, Figure)> = chess
            .pieces()
            .into_iter()
            .map(|p| (p.at.name(), p.color, p.figure))
            .collect();
        let (white, black) = (Color::White, Color::Black);
        let role = Figure::Chess;
        assert_eq!(
            listed,
            [
                ("e8".to_owned(), black, role(shakmaty::Role::King)),
                ("e2".to_owned(), white, role(shakmaty::Role::Pawn)),
                ("a1".to_owned(), white, role(shakmaty::Role::Rook)),
                ("e1".to_owned(), white, role(shakmaty::Role::King)),
            ]
        );
        let draughts = board(Kind::DraughtsRu, Some("W:W29,K23:B1")).unwrap();
        let listed: Vec<(String, Color, Figure)> = draughts
            .pieces()
            .into_iter()
            .map(|p| (p.at.name(), p.color, p.figure))
            .collect();
        assert_eq!(
            listed,
            [
                ("b8".to_owned(), black, Figure::DraughtsMan),
                ("e3".to_owned(), white, Figure::DraughtsKing),
                ("a1".to_owned(), white, Figure::DraughtsMan),
            ]
        );
        assert_eq!(board(Kind::Chess, None).unwrap().pieces().len(), 32);
        assert_eq!(board(Kind::DraughtsRu, None).unwrap().pieces().len(), 24);
    }
}
