//! Chess on the [`Board`] seam: shakmaty's position, read by the tolerant reader of
//! [`crate::notation`] and written in any of its notations.

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role};

use crate::notation::movetext::parse_position;
use crate::notation::{Iccf, Notation, ReadIn, Reader};

use super::board::{Board, Figure, FileRank, Kind, MoveError, PieceOn, Ply, PlyOf, ReadPly};
use super::{EndReason, GameResult, diagram};

/// A chess position.
#[derive(Clone, Debug)]
pub struct ChessBoard(Chess);

impl ChessBoard {
    /// The usual starting position, or the one `fen` describes.
    pub fn new(fen: Option<&str>) -> Result<ChessBoard, String> {
        match fen {
            Some(fen) => parse_position(fen).map(ChessBoard),
            None => Ok(ChessBoard(Chess::default())),
        }
    }

    /// `ply` as a chess move legal here.
    fn legal(&self, ply: &Ply) -> Option<Move> {
        let PlyOf::Chess(m) = ply.0 else {
            return None;
        };
        self.0.is_legal(m).then_some(m)
    }
}

fn ply(m: Move) -> Ply {
    Ply(PlyOf::Chess(m))
}

/// Room for a FEN: at most 71 bytes for the board (every square written out, and the
/// slashes), the rest for the side to move, castling, en passant and the two counters.
const FEN_CAPACITY: usize = 90;

impl Board for ChessBoard {
    fn kind(&self) -> Kind {
        Kind::Chess
    }

    fn boxed(&self) -> Box<dyn Board> {
        Box::new(self.clone())
    }

    fn turn(&self) -> Color {
        self.0.turn()
    }

    fn move_number(&self) -> u32 {
        self.0.fullmoves().get()
    }

    fn read_in(&self, text: &str, read_in: ReadIn) -> Result<ReadPly, MoveError> {
        let read = Reader::in_langs(read_in)
            .read(&self.0, text)
            .map_err(MoveError::Chess)?;
        Ok(ReadPly {
            ply: ply(read.m),
            draw_offer: read.marks.draw_offer,
            langs: read.langs,
        })
    }

    fn read_code(&self, code: &str) -> Option<Ply> {
        let m = Iccf::from_ascii(code.as_bytes())?.to_move(&self.0).ok()?;
        Some(ply(m))
    }

    fn read_code_unchecked(&self, code: &str) -> Option<Ply> {
        let m = Iccf::from_ascii(code.as_bytes())?.to_move_unchecked(&self.0)?;
        Some(ply(m))
    }

    fn is_legal(&self, ply: &Ply) -> bool {
        self.legal(ply).is_some()
    }

    fn play(&mut self, ply: &Ply) {
        // Every caller holds a move this position read or checked: checking it again would
        // generate the legal moves a second time on every move relayed.
        if let PlyOf::Chess(m) = ply.0 {
            debug_assert!(self.0.is_legal(m), "{m:?} is not legal here");
            self.0.play_unchecked(m);
        }
    }

    fn outcome(&self) -> Option<GameResult> {
        let pos = &self.0;
        if pos.is_checkmate() {
            Some(GameResult::new(Some(!pos.turn()), EndReason::Checkmate))
        } else if !a_pawn_can_step(pos) && pos.is_stalemate() {
            Some(GameResult::new(None, EndReason::Stalemate))
        } else if pos.is_insufficient_material() {
            Some(GameResult::new(None, EndReason::InsufficientMaterial))
        } else {
            None
        }
    }

    fn repetition_key(&self) -> String {
        // Pieces, side to move, castling rights and a capturable en passant square: the FEN
        // without its two counters.
        let fen = self.fen();
        let mut fields = fen.split(' ');
        let key: Vec<&str> = fields.by_ref().take(4).collect();
        key.join(" ")
    }

    fn quiet_plies(&self) -> Option<u32> {
        Some(self.0.halfmoves())
    }

    fn code(&self, ply: &Ply) -> String {
        let PlyOf::Chess(m) = ply.0 else {
            return String::new();
        };
        Iccf::from_move(m).to_code()
    }

    fn write(&self, ply: &Ply, notation: Notation) -> String {
        let PlyOf::Chess(m) = ply.0 else {
            return String::new();
        };
        notation.write(&self.0, m)
    }

    fn fen(&self) -> String {
        // Appended straight to a string: through `Display` every character would go through
        // the formatter, at several times the cost (this runs twice for every move).
        let mut fen = String::with_capacity(FEN_CAPACITY);
        Fen::from_position(&self.0, EnPassantMode::Legal).append_to_string(&mut fen);
        fen
    }

    fn diagram(&self) -> String {
        diagram(self.0.board())
    }

    fn pieces(&self) -> Vec<PieceOn> {
        let board = self.0.board();
        let mut out = Vec::with_capacity(32);
        for rank in shakmaty::Rank::ALL.into_iter().rev() {
            for file in shakmaty::File::ALL {
                let square = shakmaty::Square::from_coords(file, rank);
                if let Some(piece) = board.piece_at(square) {
                    out.push(PieceOn {
                        at: FileRank::from(square),
                        color: piece.color,
                        figure: Figure::Chess(piece.role),
                    });
                }
            }
        }
        out
    }

    fn checked_king(&self) -> Option<FileRank> {
        if !self.0.is_check() {
            return None;
        }
        self.0.board().king_of(self.0.turn()).map(FileRank::from)
    }
}

/// Whether a pawn of the side to move can step one square forward: a legal move found without
/// generating them all. A stalemate needs there to be none, and after most moves some pawn can
/// step, so asking this first spares the outcome's test of stalemate its full generation.
fn a_pawn_can_step(pos: &Chess) -> bool {
    let pawns = pos.our(Role::Pawn);
    let ahead = match pos.turn() {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    } & !pos.board().occupied();
    ahead
        .into_iter()
        .any(|to| !pos.san_candidates(Role::Pawn, to).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stalemates with no pawn, a blocked pawn and a pinned pawn that has room to step; a
    /// mate; positions where a pawn can step or cannot but pieces move.
    const FENS: &[(&str, Option<EndReason>)] = &[
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Some(EndReason::Stalemate)),
        ("k7/P7/K7/8/8/p7/P7/8 b - - 0 1", Some(EndReason::Stalemate)),
        (
            "4k3/3p4/5Q2/1B6/8/8/8/7K b - - 0 1",
            Some(EndReason::Stalemate),
        ),
        (
            "6k1/5ppp/8/8/8/8/5PPP/r5K1 w - - 0 1",
            Some(EndReason::Checkmate),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            None,
        ),
        (
            "k7/P7/K7/8/8/p7/P7/7N b - - 0 1",
            Some(EndReason::Stalemate),
        ),
        ("k7/P7/K7/8/8/p7/P7/7n b - - 0 1", None),
        ("4k3/3p4/5Q2/1B6/8/8/8/7K w - - 0 1", None),
    ];

    #[test]
    fn the_outcome_tells_stalemate_whether_or_not_a_pawn_has_room() {
        for (fen, want) in FENS {
            let got = ChessBoard(parse_position(fen).expect("a FEN"))
                .outcome()
                .map(|r| r.reason);
            assert_eq!(got, *want, "{fen}");
        }
    }

    /// A pawn that can step is a legal move, and the outcome is shakmaty's, on every
    /// position one move from these.
    #[test]
    fn a_pawn_that_can_step_is_a_legal_move_and_the_outcome_is_shakmatys() {
        let mut seen = 0;
        for (fen, _) in FENS {
            for pos in crate::notation::and_one_move_on(fen) {
                if a_pawn_can_step(&pos) {
                    assert!(!pos.legal_moves().is_empty(), "{fen}");
                }
                let theirs = if pos.is_checkmate() {
                    Some(EndReason::Checkmate)
                } else if pos.is_stalemate() {
                    Some(EndReason::Stalemate)
                } else if pos.is_insufficient_material() {
                    Some(EndReason::InsufficientMaterial)
                } else {
                    None
                };
                let ours = ChessBoard(pos).outcome().map(|r| r.reason);
                assert_eq!(ours, theirs, "{fen}");
                seen += 1;
            }
        }
        assert!(seen > 50, "{seen} positions");
    }
}
