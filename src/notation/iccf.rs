//! ICCF numeric notation (Savenkov's telegraph code).
//!
//! A square is its file digit then its rank digit (a1 = 11, h8 = 88); a move is the from square
//! then the to square (`5254` = e2-e4). Castling is the king's move (`5171`, `5131`, `5878`,
//! `5838`); a promotion adds a fifth digit: 1 queen, 2 rook, 3 bishop, 4 knight.
//!
//! ```
//! use ccrelay::notation::Iccf;
//! use shakmaty::{Chess, Position};
//!
//! let pos = Chess::default();
//! let iccf: Iccf = "5254".parse().unwrap();
//! let m = iccf.to_move(&pos).unwrap();
//! assert_eq!(Iccf::from_move(m).to_string(), "5254");
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::{File, Move, Position, Rank, Role, Square};

use super::reader::{ReadMoveError, resolve_coordinates};
use super::written::{SyntaxError, Written, WrittenMove};

/// A move in ICCF numeric notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Iccf {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

impl Iccf {
    /// The numeric form of a move; castling is written as the king's move.
    pub fn from_move(m: Move) -> Iccf {
        let (from, to) = super::king_move_squares(m);
        Iccf {
            from,
            to,
            promotion: m.promotion(),
        }
    }

    /// The legal move this stands for, refusing a promotion written without its digit.
    pub fn to_move<P: Position>(self, pos: &P) -> Result<Move, ReadMoveError> {
        resolve_coordinates(pos, self.from, self.to, self.promotion)
    }

    /// The move these squares name here, not checked legal: for moves read back from a record
    /// that checked each one when it was played (a start's signed snapshot), where checking
    /// them again was about a quarter of reading it. shakmaty reads two squares only with its
    /// legality check ([`shakmaty::uci::UciMove::to_move`]); this builds the same move
    /// without it. The king's move onto a rook it may castle with, or two squares along its
    /// back rank from the e-file, is castling; a pawn's diagonal move to an empty square is
    /// en passant. `None` when the side to move has no piece on the from square.
    pub fn to_move_unchecked<P: Position>(self, pos: &P) -> Option<Move> {
        let (from, to, turn) = (self.from, self.to, pos.turn());
        let board = pos.board();
        if board.color_at(from) != Some(turn) {
            return None;
        }
        let role = board.role_at(from)?;
        let back_rank = turn.fold_wb(Rank::First, Rank::Eighth);
        let castling_with = if role != Role::King {
            None
        } else if (pos.castles().castling_rights() & pos.us()).contains(to) {
            Some(to)
        } else if from == turn.fold_wb(Square::E1, Square::E8)
            && to.rank() == back_rank
            && from.distance(to) == 2
        {
            let file = if from.file() < to.file() {
                File::H
            } else {
                File::A
            };
            Some(Square::from_coords(file, back_rank))
        } else {
            None
        };
        Some(match castling_with {
            Some(rook) => Move::Castle { king: from, rook },
            None if role == Role::Pawn
                && from.file() != to.file()
                && !board.occupied().contains(to) =>
            {
                Move::EnPassant { from, to }
            }
            None => Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: self.promotion,
            },
        })
    }

    /// Appends the digits to `buf` without allocating.
    pub fn append_to(self, buf: &mut Vec<u8>) {
        buf.extend(self.digits());
    }

    /// The code's ASCII digits: file and rank of the from square, of the to square, and the
    /// promotion's digit if any.
    fn digits(self) -> impl Iterator<Item = u8> {
        let square = |sq: Square| [b'1' + u8::from(sq.file()), b'1' + u8::from(sq.rank())];
        square(self.from)
            .into_iter()
            .chain(square(self.to))
            .chain(self.promotion.and_then(promotion_digit))
    }

    /// The digits as a string (`5254`), what [`Display`](fmt::Display) writes, without the
    /// formatter: the relay writes a move's code several times for every move.
    pub fn to_code(self) -> String {
        let mut code = String::with_capacity(5);
        code.extend(self.digits().map(char::from));
        code
    }
}

impl Iccf {
    /// The move as three small numbers, for a compact wire (the relay-to-relay link): the
    /// from and to squares as 0 (a1) to 63 (h8), and the promotion digit (0 for none).
    pub fn to_packed(self) -> (u8, u8, u8) {
        let promotion = self
            .promotion
            .and_then(promotion_digit)
            .map_or(0, |d| d - b'0');
        (
            u8::try_from(u32::from(self.from)).unwrap_or(0),
            u8::try_from(u32::from(self.to)).unwrap_or(0),
            promotion,
        )
    }

    /// The move [`Iccf::to_packed`] packed; `None` for a square past 63 or a promotion digit
    /// past 4.
    pub fn from_packed(from: u8, to: u8, promotion: u8) -> Option<Iccf> {
        let square = |n: u8| (n < 64).then(|| Square::new(u32::from(n)));
        let promotion = match promotion {
            0 => None,
            1 => Some(Role::Queen),
            2 => Some(Role::Rook),
            3 => Some(Role::Bishop),
            4 => Some(Role::Knight),
            _ => return None,
        };
        Some(Iccf {
            from: square(from)?,
            to: square(to)?,
            promotion,
        })
    }
}

fn promotion_digit(role: Role) -> Option<u8> {
    match role {
        Role::Queen => Some(b'1'),
        Role::Rook => Some(b'2'),
        Role::Bishop => Some(b'3'),
        Role::Knight => Some(b'4'),
        _ => None,
    }
}

impl fmt::Display for Iccf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(5);
        self.append_to(&mut buf);
        f.write_str(&String::from_utf8_lossy(&buf))
    }
}

impl Iccf {
    /// Reads the exact form [`Iccf`] writes (`5254`, `57581`), nothing else: the record's
    /// moves, read back at every start without the tolerant reader's folding and marks.
    pub fn from_ascii(s: &[u8]) -> Option<Iccf> {
        let square = |file: u8, rank: u8| {
            let (f, r) = (file.checked_sub(b'1')?, rank.checked_sub(b'1')?);
            // Lazily: `8 * r` overflows for a byte far past '8' (found by fuzzing).
            (f < 8 && r < 8).then(|| f + 8 * r)
        };
        let (from, to, promotion) = match *s {
            [a, b, c, d] => (square(a, b)?, square(c, d)?, 0),
            [a, b, c, d, p] => (square(a, b)?, square(c, d)?, p.checked_sub(b'0')?),
            _ => return None,
        };
        if promotion == 0 && s.len() == 5 {
            return None;
        }
        Iccf::from_packed(from, to, promotion)
    }
}

impl FromStr for Iccf {
    type Err = SyntaxError;

    fn from_str(s: &str) -> Result<Iccf, SyntaxError> {
        if let Some(iccf) = Iccf::from_ascii(s.as_bytes()) {
            return Ok(iccf);
        }
        match Written::parse(s)?.what {
            WrittenMove::Numeric {
                from,
                to,
                promotion,
            } => Ok(Iccf {
                from,
                to,
                promotion,
            }),
            _ => Err(SyntaxError::Numeric("not four or five digits")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    /// Found by fuzzing (the `link_message` target, through `frame::pack_iccf`): a four-byte
    /// text with a byte far past '8' (`"A\u{fffd}"`: 41 EF BF BD) made the square's
    /// `8 * rank` overflow before the range was checked: a panic where overflow is checked.
    #[test]
    fn a_byte_far_past_the_board_overflowed_the_square() {
        for text in [
            "A\u{fffd}",
            "A\u{be}",
            "1\u{fffd}",
            "\u{fffd}\u{fffd}",
            "11\u{ff}8",
        ] {
            assert_eq!(Iccf::from_ascii(text.as_bytes()), None, "{text:?}");
            assert!(text.parse::<Iccf>().is_err(), "{text:?}");
        }
        assert_eq!(Iccf::from_ascii(&[b'1', 0xff, b'1', b'1']), None);
        assert_eq!(Iccf::from_ascii(&[b'1', b'1', b'1', 0xff, b'1']), None);
    }

    /// The strict reader reads exactly what the writer writes, and the same as the tolerant
    /// one; anything else is left to the tolerant one.
    #[test]
    fn from_ascii_reads_what_is_written() {
        for from in 0..64u8 {
            for to in [0u8, 9, 27, 63] {
                for promotion in 0..=4u8 {
                    let iccf = Iccf::from_packed(from, to, promotion).unwrap();
                    let text = iccf.to_string();
                    assert_eq!(Iccf::from_ascii(text.as_bytes()), Some(iccf), "{text}");
                    assert_eq!(text.parse::<Iccf>(), Ok(iccf), "{text}");
                }
            }
        }
        for other in [
            "", "525", "0254", "5290", "52540", "52545", "5254 ", "e2e4", "525411",
        ] {
            assert_eq!(Iccf::from_ascii(other.as_bytes()), None, "{other:?}");
        }
    }

    #[test]
    fn castling_is_the_kings_move() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut numeric: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .map(|m| Iccf::from_move(m).to_string())
            .collect();
        numeric.sort();
        assert_eq!(numeric, ["5131", "5171"]);
        let black = pos.swap_turn().unwrap();
        let mut numeric: Vec<String> = black
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .map(|m| Iccf::from_move(m).to_string())
            .collect();
        numeric.sort();
        assert_eq!(numeric, ["5838", "5878"]);
    }

    /// Every legal move, written and read back unchecked, is that move: in positions made
    /// for castling on both sides, en passant, promotions with and without a capture, and
    /// along games played out move by move from them and from the start.
    #[test]
    fn a_written_move_read_back_unchecked_is_the_move() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
        ];
        let mut moves_read = 0;
        for (n, fen) in starts.iter().enumerate() {
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for ply in 0..300 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &m in &legal {
                    let read = Iccf::from_move(m).to_move_unchecked(&pos);
                    assert_eq!(read, Some(m), "{fen}, ply {ply}: {m:?}");
                    let code = Iccf::from_move(m).to_code();
                    assert_eq!(code, Iccf::from_move(m).to_string(), "{fen}, ply {ply}");
                    moves_read += 1;
                }
                pos.play_unchecked(legal[(ply * 7 + n) % legal.len()]);
            }
        }
        assert!(moves_read > 10_000, "{moves_read} moves read");
        let start = Chess::default();
        for (code, why) in [
            ("4344", "no piece on d3"),
            ("5755", "the other side's pawn on e7"),
        ] {
            let iccf: Iccf = code.parse().unwrap();
            assert_eq!(iccf.to_move_unchecked(&start), None, "{code}: {why}");
        }
    }

    #[test]
    fn packed_round_trips() {
        for text in ["5254", "1131", "8818", "57581", "27184"] {
            let iccf: Iccf = text.parse().unwrap();
            let (from, to, promotion) = iccf.to_packed();
            assert!(from < 64 && to < 64 && promotion <= 4);
            assert_eq!(Iccf::from_packed(from, to, promotion), Some(iccf));
        }
        assert_eq!("5254".parse::<Iccf>().unwrap().to_packed(), (12, 28, 0));
        assert_eq!(Iccf::from_packed(64, 0, 0), None);
        assert_eq!(Iccf::from_packed(0, 1, 5), None);
    }

    #[test]
    fn promotion_digits() {
        let pos: Chess = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for (digits, role) in [
            ("57581", Role::Queen),
            ("57582", Role::Rook),
            ("57583", Role::Bishop),
            ("57584", Role::Knight),
        ] {
            let m = digits.parse::<Iccf>().unwrap().to_move(&pos).unwrap();
            assert_eq!(m.promotion(), Some(role));
            assert_eq!(Iccf::from_move(m).to_string(), digits);
        }
        let missing = "5758".parse::<Iccf>().unwrap().to_move(&pos);
        assert!(
            matches!(missing, Err(ReadMoveError::Ambiguous(_))),
            "{missing:?}"
        );
    }
}
