//! Russian draughts on the [`Board`] seam: the pure rules of [`crate::draughts`], with the
//! game's history (repetitions and the draw limits depend on it) and its move number.
//!
//! Moves are read in either form of seed 003 (`c3-d4`, `g1:e3:c5:a7`, `22-18`, `22x15x24`);
//! the record keeps the numeric form with every landing square; readers of ICCF numeric get
//! the numeric form, the others the algebraic one. The position's text is PDN's FEN with the
//! move number as its `F` field (`W:W21,…:B1,…:F12`), which PDN readers skip.

use shakmaty::Color;

use crate::draughts::notation::{self, Form};
use crate::draughts::{self as rules, Outcome, all_moves, setup};
use crate::notation::{LangSet, Notation, ReadIn};

use super::board::{Board, Figure, FileRank, Kind, MoveError, PieceOn, Ply, PlyOf, ReadPly};
use super::{EndReason, GameResult};

/// A Russian draughts position, with the moves that led to it.
#[derive(Clone, Debug)]
pub struct DraughtsBoard {
    game: rules::Game,
    number: u32,
}

fn color(c: rules::Color) -> Color {
    match c {
        rules::Color::White => Color::White,
        rules::Color::Black => Color::Black,
    }
}

fn ply(m: rules::Move) -> Ply {
    Ply(PlyOf::Draughts(Box::new(m)))
}

impl DraughtsBoard {
    /// The usual starting position, or the one `text` gives (PDN's FEN, with an optional `F`
    /// move number, or seed 003's listing).
    pub fn new(text: Option<&str>) -> Result<DraughtsBoard, String> {
        let Some(text) = text else {
            return Ok(DraughtsBoard {
                game: rules::Game::new(rules::Position::default()),
                number: 1,
            });
        };
        let pos = setup::parse_any(text).map_err(|e| e.to_string())?;
        let number = text
            .split(':')
            .find_map(|field| field.trim().strip_prefix('F')?.parse::<u32>().ok())
            .filter(|n| *n >= 1)
            .unwrap_or(1);
        Ok(DraughtsBoard {
            game: rules::Game::new(pos),
            number,
        })
    }

    fn position(&self) -> &rules::Position {
        self.game.position()
    }

    /// `ply` as a draughts move legal here.
    fn legal(&self, ply: &Ply) -> Option<rules::Move> {
        let m = Self::of(ply)?;
        all_moves(self.position()).contains(m).then_some(*m)
    }

    fn of(ply: &Ply) -> Option<&rules::Move> {
        match &ply.0 {
            PlyOf::Draughts(m) => Some(m),
            PlyOf::Chess(_) => None,
        }
    }
}

impl Board for DraughtsBoard {
    fn kind(&self) -> Kind {
        Kind::DraughtsRu
    }

    fn boxed(&self) -> Box<dyn Board> {
        Box::new(self.clone())
    }

    fn turn(&self) -> Color {
        color(self.position().turn())
    }

    fn move_number(&self) -> u32 {
        self.number
    }

    fn read_in(&self, text: &str, _read_in: ReadIn) -> Result<ReadPly, MoveError> {
        let m = notation::read(self.position(), text).map_err(MoveError::Draughts)?;
        Ok(ReadPly {
            ply: ply(m),
            draw_offer: text.trim_end().ends_with("(=)"),
            langs: LangSet::ALL,
        })
    }

    fn read_code(&self, code: &str) -> Option<Ply> {
        notation::read(self.position(), code).ok().map(ply)
    }

    fn is_legal(&self, ply: &Ply) -> bool {
        self.legal(ply).is_some()
    }

    fn play(&mut self, ply: &Ply) {
        if let Some(m) = self.legal(ply) {
            let black_moved = self.position().turn() == rules::Color::Black;
            self.game.play(m);
            if black_moved {
                self.number = self.number.saturating_add(1);
            }
        }
    }

    fn outcome(&self) -> Option<GameResult> {
        Some(match self.game.outcome()? {
            Outcome::Win(winner) => GameResult::new(Some(color(winner)), EndReason::NoMoves),
            Outcome::Draw(reason) => GameResult {
                note: Some(reason.to_string()),
                ..GameResult::new(None, EndReason::DrawRule)
            },
        })
    }

    fn repetition_key(&self) -> String {
        setup::write_fen(self.position())
    }

    fn quiet_plies(&self) -> Option<u32> {
        // The fifty-move rule is chess's; draughts' own limits end the game by themselves.
        None
    }

    fn code(&self, ply: &Ply) -> String {
        Self::of(ply)
            .map(notation::write_numeric)
            .unwrap_or_default()
    }

    fn write(&self, ply: &Ply, style: Notation) -> String {
        let Some(m) = Self::of(ply) else {
            return String::new();
        };
        match style {
            Notation::Iccf => notation::write_numeric(m),
            Notation::San(_) => notation::write_algebraic(self.position(), m),
            Notation::Lan(_) | Notation::Uci => notation::write_path(m, Form::Algebraic),
        }
    }

    fn fen(&self) -> String {
        format!("{}:F{}", setup::write_fen(self.position()), self.number)
    }

    fn diagram(&self) -> String {
        setup::write_diagram(self.position()).trim_end().to_owned()
    }

    fn pieces(&self) -> Vec<PieceOn> {
        // PDN's order: the top rank first, each rank from the a-file.
        rules::Square::all()
            .filter_map(|square| {
                let piece = self.position().piece_at(square)?;
                Some(PieceOn {
                    at: FileRank::from(square),
                    color: color(piece.color),
                    figure: match piece.kind {
                        rules::Kind::Man => Figure::DraughtsMan,
                        rules::Kind::King => Figure::DraughtsKing,
                    },
                })
            })
            .collect()
    }

    fn checked_king(&self) -> Option<FileRank> {
        // Draughts has no check.
        None
    }
}
