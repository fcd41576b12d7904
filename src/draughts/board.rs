//! The board: 32 dark squares, men and kings, the side to move.
//!
//! Squares are kept as PDN numbers them for Russian draughts, from White's far side: 1 = b8,
//! 4 = h8, 5 = a7, …, 29 = a1, 32 = g1 (index 0..32 inside). The algebraic names are the
//! chess ones, a1 dark and White at the bottom, so `22` is c3 and `18` is d4.

use std::fmt;

/// White or Black. White moves first and its men move up the board (a1 towards a8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The rank (0-based) where this side's men become kings.
    pub fn crowning_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// The direction this side's men move in, in ranks.
    fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A dark square; `index()` is its PDN number minus one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All 32 squares, in PDN order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }

    /// From the PDN number 1..=32.
    pub fn from_number(n: u32) -> Option<Square> {
        (1..=32).contains(&n).then(|| Square((n - 1) as u8))
    }

    /// From 0-based file and rank; `None` for a light square or off the board.
    pub fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if !(0..8).contains(&file) || !(0..8).contains(&rank) || (file + rank) % 2 != 0 {
            return None;
        }
        let row = 7 - rank; // 0 = rank 8
        Some(Square((row * 4 + file / 2) as u8))
    }

    /// From an algebraic name such as `c3` (ASCII, lower case).
    pub fn from_name(name: &str) -> Option<Square> {
        let b = name.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The PDN number, 1..=32.
    pub fn number(self) -> u32 {
        u32::from(self.0) + 1
    }

    pub fn rank(self) -> u8 {
        7 - self.0 / 4
    }

    pub fn file(self) -> u8 {
        let row = self.0 / 4;
        2 * (self.0 % 4) + u8::from(row.is_multiple_of(2))
    }

    pub fn bit(self) -> u32 {
        1 << self.0
    }

    /// The next square in `dir`, if on the board.
    pub fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        Square::from_coords(self.file() as i8 + df, self.rank() as i8 + dr)
    }

    /// The algebraic name, `c3`.
    pub fn name(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }

    /// On the main road (the long diagonal a1–h8).
    pub fn on_main_road(self) -> bool {
        self.file() == self.rank()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.name();
        write!(f, "{}{}", char::from(a), char::from(b))
    }
}

/// One of the four diagonal directions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    fn delta(self) -> (i8, i8) {
        match self {
            Dir::UpLeft => (-1, 1),
            Dir::UpRight => (1, 1),
            Dir::DownLeft => (-1, -1),
            Dir::DownRight => (1, -1),
        }
    }

    /// The two directions a man of `color` moves in without capturing.
    pub fn forward(color: Color) -> [Dir; 2] {
        if color.forward() > 0 {
            [Dir::UpLeft, Dir::UpRight]
        } else {
            [Dir::DownLeft, Dir::DownRight]
        }
    }
}

/// A man or a king.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Man,
    King,
}

/// A piece: its colour and kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// A position: where every piece stands and whose move it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    white: u32,
    black: u32,
    kings: u32,
    turn: Color,
}

impl Default for Position {
    /// The initial position: White on 21–32 (a1–h3), Black on 1–12 (b8–h6), White to move.
    fn default() -> Position {
        Position {
            white: 0xfff0_0000,
            black: 0x0000_0fff,
            kings: 0,
            turn: Color::White,
        }
    }
}

impl Position {
    /// An empty board with `turn` to move.
    pub fn empty(turn: Color) -> Position {
        Position {
            white: 0,
            black: 0,
            kings: 0,
            turn,
        }
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        let color = if self.white & bit != 0 {
            Color::White
        } else if self.black & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings & bit != 0 {
            Kind::King
        } else {
            Kind::Man
        };
        Some(Piece { color, kind })
    }

    /// Puts `piece` on `sq` (or clears it), replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let bit = sq.bit();
        self.white &= !bit;
        self.black &= !bit;
        self.kings &= !bit;
        if let Some(p) = piece {
            match p.color {
                Color::White => self.white |= bit,
                Color::Black => self.black |= bit,
            }
            if p.kind == Kind::King {
                self.kings |= bit;
            }
        }
    }

    /// The squares of `color`'s pieces, as bits.
    pub fn pieces(&self, color: Color) -> u32 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub fn occupied(&self) -> u32 {
        self.white | self.black
    }

    pub fn kings(&self) -> u32 {
        self.kings
    }

    /// `(men, kings)` of `color`.
    pub fn count(&self, color: Color) -> (u32, u32) {
        let pieces = self.pieces(color);
        (
            (pieces & !self.kings).count_ones(),
            (pieces & self.kings).count_ones(),
        )
    }

    /// A man standing on its own crowning row cannot arise in play (it would have been crowned).
    pub fn man_on_crowning_row(&self) -> Option<Square> {
        Square::all().find(|&sq| {
            self.piece_at(sq)
                .is_some_and(|p| p.kind == Kind::Man && sq.rank() == p.color.crowning_rank())
        })
    }

    /// The squares of `color`'s pieces of `kind`, in PDN order.
    pub fn squares(&self, color: Color, kind: Kind) -> impl Iterator<Item = Square> + '_ {
        Square::all().filter(move |&sq| self.piece_at(sq) == Some(Piece { color, kind }))
    }
}

/// Squares of a bit set, in PDN order.
pub fn squares_of(bits: u32) -> impl Iterator<Item = Square> {
    Square::all().filter(move |sq| bits & sq.bit() != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_numbers_and_names() {
        for (n, name) in [
            (1, "b8"),
            (4, "h8"),
            (5, "a7"),
            (8, "g7"),
            (18, "d4"),
            (22, "c3"),
            (29, "a1"),
            (32, "g1"),
        ] {
            let sq = Square::from_number(n).unwrap();
            assert_eq!(sq.to_string(), name, "{n}");
            assert_eq!(Square::from_name(name), Some(sq), "{name}");
            assert_eq!(sq.number(), n);
        }
        assert_eq!(Square::from_name("a2"), None, "a light square");
        assert_eq!(Square::from_number(0), None);
        assert_eq!(Square::from_number(33), None);
    }

    #[test]
    fn every_square_round_trips_through_coordinates() {
        for sq in Square::all() {
            let back = Square::from_coords(sq.file() as i8, sq.rank() as i8);
            assert_eq!(back, Some(sq));
        }
    }

    #[test]
    fn initial_position() {
        let pos = Position::default();
        assert_eq!(pos.count(Color::White), (12, 0));
        assert_eq!(pos.count(Color::Black), (12, 0));
        let white: Vec<u32> = squares_of(pos.pieces(Color::White))
            .map(Square::number)
            .collect();
        assert_eq!(white, (21..=32).collect::<Vec<_>>());
        assert_eq!(
            pos.piece_at(Square::from_name("a1").unwrap())
                .map(|p| p.color),
            Some(Color::White)
        );
        assert_eq!(
            pos.piece_at(Square::from_name("h6").unwrap())
                .map(|p| p.color),
            Some(Color::Black)
        );
    }

    #[test]
    fn steps_stay_on_dark_squares() {
        let c3 = Square::from_name("c3").unwrap();
        assert_eq!(c3.step(Dir::UpRight).unwrap().to_string(), "d4");
        assert_eq!(c3.step(Dir::UpLeft).unwrap().to_string(), "b4");
        assert_eq!(c3.step(Dir::DownLeft).unwrap().to_string(), "b2");
        let a1 = Square::from_name("a1").unwrap();
        assert_eq!(a1.step(Dir::DownLeft), None);
        assert!(a1.on_main_road());
    }
}
