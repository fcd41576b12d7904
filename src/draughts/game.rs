//! A game: the moves played from a start position, and its result by the Russian rules.
//!
//! A side with no legal move (no pieces, or every piece blocked) loses. The draws the rules
//! impose are recognised as soon as they arise ([`Game::outcome`]); what is done with them (end
//! the game, let a player claim) is the caller's choice. docs/draughts.md cites the rules.
//!
//! - Threefold repetition: the same position, the same side to move, three times.
//! - Fifteen moves (30 half-moves) in a row made only by kings, without a capture.
//! - Three kings or more against a lone king: not taken by the stronger side's 15th move,
//!   counted from when that balance arose.
//! - Three pieces (at least one a king) against a lone king on the main road (a1–h8): the lone
//!   king still holds the road after the stronger side's 5th move.
//! - Both sides have kings and the balance (no capture, no crowning) is unchanged for 30 moves
//!   in 4- and 5-piece endings, or for 60 moves in 6- and 7-piece endings.

use std::fmt;

use super::board::{Color, Kind, Position};
use super::movegen::{Move, apply, legal_moves};

/// Why a game is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same position with the same side to move for the third time.
    Repetition,
    /// 15 moves by both sides made only with kings, with no capture.
    KingMoves,
    /// Three kings or more against one king, not won by the stronger side's 15th move.
    ThreeKingsAgainstOne,
    /// Three pieces against a lone king holding the main road, after the stronger side's 5th move.
    MainRoad,
    /// Both sides with kings, balance unchanged for 30 moves (4 and 5 pieces) or 60 (6 and 7).
    UnchangedBalance { pieces: u32, moves: u32 },
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::Repetition => f.write_str("the same position for the third time"),
            DrawReason::KingMoves => {
                f.write_str("15 moves made only with kings, without a capture")
            }
            DrawReason::ThreeKingsAgainstOne => {
                f.write_str("three kings against one, not won within 15 moves")
            }
            DrawReason::MainRoad => f.write_str(
                "three pieces against a lone king on the main road, not won within 5 moves",
            ),
            DrawReason::UnchangedBalance { pieces, moves } => write!(
                f,
                "a {pieces}-piece ending with kings on both sides unchanged for {moves} moves"
            ),
        }
    }
}

/// How a game has ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The winner; the loser has no legal move.
    Win(Color),
    Draw(DrawReason),
}

impl Outcome {
    /// PGN/PDN's form: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Positions since the last man move or capture (none can repeat across one), the current
    /// one last.
    reversible: Vec<Position>,
    /// Half-moves in a row made by kings without a capture.
    king_plies: u32,
    /// Half-moves since the balance last changed (a capture or a crowning) or the game began.
    balance_plies: u32,
    /// Who was to move when the balance last changed.
    balance_turn: Color,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            pos: start,
            moves: Vec::new(),
            reversible: vec![start],
            king_plies: 0,
            balance_plies: 0,
            balance_turn: start.turn(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `m`, which must be one of [`Game::legal_moves`].
    pub fn play(&mut self, m: Move) {
        let mover = self.pos.piece_at(m.from()).map(|p| p.kind);
        self.pos = apply(&self.pos, &m);
        self.moves.push(m);
        if m.is_capture() || mover == Some(Kind::Man) {
            self.reversible.clear();
            self.king_plies = 0;
        } else {
            self.king_plies += 1;
        }
        self.reversible.push(self.pos);
        if m.is_capture() || m.crowns() {
            self.balance_plies = 0;
            self.balance_turn = self.pos.turn();
        } else {
            self.balance_plies += 1;
        }
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        legal_moves(&self.pos)
    }

    /// The result, if the game is over by the rules: a side without a legal move, or a draw.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.legal_moves().is_empty() {
            return Some(Outcome::Win(self.pos.turn().other()));
        }
        self.draw().map(Outcome::Draw)
    }

    /// The moves `side` has made since the balance last changed.
    fn moves_since_balance(&self, side: Color) -> u32 {
        let first = u32::from(self.balance_turn == side);
        (self.balance_plies + first) / 2
    }

    fn draw(&self) -> Option<DrawReason> {
        let repeated = self.reversible.iter().filter(|&&p| p == self.pos).count();
        if repeated >= 3 {
            return Some(DrawReason::Repetition);
        }
        let (wm, wk) = self.pos.count(Color::White);
        let (bm, bk) = self.pos.count(Color::Black);
        for (strong, (sm, sk), (lm, lk)) in [
            (Color::White, (wm, wk), (bm, bk)),
            (Color::Black, (bm, bk), (wm, wk)),
        ] {
            if lm != 0 || lk != 1 {
                continue;
            }
            let strong_moves = self.moves_since_balance(strong);
            if sm == 0 && sk >= 3 && strong_moves >= 15 {
                return Some(DrawReason::ThreeKingsAgainstOne);
            }
            let lone_on_road = super::board::squares_of(self.pos.pieces(strong.other()))
                .all(|sq| sq.on_main_road());
            if sm + sk == 3 && sk >= 1 && strong_moves >= 5 && lone_on_road {
                return Some(DrawReason::MainRoad);
            }
        }
        if self.king_plies >= 30 {
            return Some(DrawReason::KingMoves);
        }
        let pieces = wm + wk + bm + bk;
        if wk > 0 && bk > 0 {
            let moves = match pieces {
                4 | 5 => 30,
                6 | 7 => 60,
                _ => 0,
            };
            if moves > 0 && self.balance_plies >= 2 * moves {
                return Some(DrawReason::UnchangedBalance { pieces, moves });
            }
        }
        None
    }
}
