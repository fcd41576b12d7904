//! Move generation by the Russian rules.
//!
//! - A man moves one square diagonally forward; a king any distance along a free diagonal.
//! - Capturing is compulsory, men capture forward and backward, and a capture goes on while the
//!   capturing piece can take more. The player chooses freely among captures: there is no
//!   majority rule.
//! - The Turkish strike: pieces taken are removed only after the whole capture, so a piece is
//!   never jumped twice and a taken piece still standing blocks the way.
//! - A man reaching the last row during a capture is crowned at once and goes on capturing as a
//!   king.
//! - A king takes from a distance and lands on any free square beyond the piece it takes;
//!   but if from some of those squares it can take again, it must land on one of them and go on.
//!
//! Two capture paths that start and end on the same squares, take the same pieces and crown
//! alike leave the same position: [`legal_moves`] counts them as one move (the first path
//! found), [`all_moves`] keeps every path (a player may write either).

use super::board::{Color, Dir, Kind, Piece, Position, Square};

/// The most landing squares one move can have: one per piece taken, and a side has at most
/// 31 pieces to take.
pub const MAX_LANDINGS: usize = 31;

/// A move: the square it starts from and every square the piece lands on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    landings: [Square; MAX_LANDINGS],
    len: u8,
    captured: u32,
    crowns: bool,
}

impl Move {
    fn new(from: Square, landings: &[Square], captured: u32, crowns: bool) -> Move {
        let mut all = [from; MAX_LANDINGS];
        all[..landings.len()].copy_from_slice(landings);
        Move {
            from,
            landings: all,
            len: landings.len() as u8,
            captured,
            crowns,
        }
    }

    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the move ends on.
    pub fn to(&self) -> Square {
        self.landings[usize::from(self.len) - 1]
    }

    /// Every square the piece lands on, the last one included (one for a quiet move).
    pub fn landings(&self) -> &[Square] {
        &self.landings[..usize::from(self.len)]
    }

    /// The squares of the pieces taken, as bits.
    pub fn captured(&self) -> u32 {
        self.captured
    }

    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// A man that becomes a king by this move.
    pub fn crowns(&self) -> bool {
        self.crowns
    }

    /// Leaves the same position as `other`: same start, end, pieces taken and crowning.
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to() == other.to()
            && self.captured == other.captured
            && self.crowns == other.crowns
    }
}

/// Every legal move path: the captures if there are any, else the quiet moves.
pub fn all_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    let me = pos.turn();
    for from in Square::all() {
        if let Some(piece) = pos.piece_at(from).filter(|p| p.color == me) {
            let mut ctx = Capture {
                me,
                from,
                started_as_man: piece.kind == Kind::Man,
                enemy: pos.pieces(me.other()),
                occupied: pos.occupied() & !from.bit(),
                path: Vec::with_capacity(8),
                out: &mut out,
            };
            ctx.search(from, piece.kind == Kind::King, 0);
        }
    }
    if out.is_empty() {
        quiet_moves(pos, &mut out);
    }
    out
}

/// The legal moves, each effect once (see the module header).
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    dedup(all_moves(pos))
}

/// Keeps the first path of every effect.
pub fn dedup(moves: Vec<Move>) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for m in moves {
        if !out.iter().any(|o| o.same_effect(&m)) {
            out.push(m);
        }
    }
    out
}

/// Whether the side to move has a capture.
pub fn has_capture(pos: &Position) -> bool {
    all_moves(pos).first().is_some_and(Move::is_capture)
}

fn quiet_moves(pos: &Position, out: &mut Vec<Move>) {
    let me = pos.turn();
    let occupied = pos.occupied();
    for from in Square::all() {
        let Some(piece) = pos.piece_at(from).filter(|p| p.color == me) else {
            continue;
        };
        match piece.kind {
            Kind::Man => {
                for dir in Dir::forward(me) {
                    if let Some(to) = from.step(dir).filter(|s| occupied & s.bit() == 0) {
                        let crowns = to.rank() == me.crowning_rank();
                        out.push(Move::new(from, &[to], 0, crowns));
                    }
                }
            }
            Kind::King => {
                for dir in Dir::ALL {
                    let mut at = from.step(dir);
                    while let Some(to) = at.filter(|s| occupied & s.bit() == 0) {
                        out.push(Move::new(from, &[to], 0, false));
                        at = to.step(dir);
                    }
                }
            }
        }
    }
}

/// The search for one piece's capture paths.
struct Capture<'a> {
    me: Color,
    from: Square,
    started_as_man: bool,
    enemy: u32,
    /// Every square with a piece on it, the capturing piece's start square excepted (it has
    /// left it); pieces taken stay on the board until the move ends.
    occupied: u32,
    path: Vec<Square>,
    out: &'a mut Vec<Move>,
}

impl Capture<'_> {
    /// The piece taken and the free squares beyond it, going from `at` in `dir`.
    fn jump(
        &self,
        at: Square,
        dir: Dir,
        king: bool,
        captured: u32,
    ) -> Option<(Square, Vec<Square>)> {
        let mut victim = at.step(dir)?;
        if king {
            while self.occupied & victim.bit() == 0 {
                victim = victim.step(dir)?;
            }
        }
        if self.enemy & victim.bit() == 0 || captured & victim.bit() != 0 {
            return None;
        }
        let mut beyond = Vec::new();
        let mut next = victim.step(dir);
        while let Some(sq) = next.filter(|s| self.occupied & s.bit() == 0) {
            beyond.push(sq);
            if !king {
                break;
            }
            next = sq.step(dir);
        }
        (!beyond.is_empty()).then_some((victim, beyond))
    }

    fn can_take(&self, at: Square, king: bool, captured: u32) -> bool {
        Dir::ALL
            .into_iter()
            .any(|dir| self.jump(at, dir, king, captured).is_some())
    }

    fn search(&mut self, at: Square, king: bool, captured: u32) {
        let mut took = false;
        for dir in Dir::ALL {
            let Some((victim, beyond)) = self.jump(at, dir, king, captured) else {
                continue;
            };
            took = true;
            let captured = captured | victim.bit();
            let crowning_rank = self.me.crowning_rank();
            let crowned = |sq: Square| king || sq.rank() == crowning_rank;
            // A king that can go on from some landing squares must land on one of them.
            let going_on: Vec<Square> = beyond
                .iter()
                .copied()
                .filter(|&sq| self.can_take(sq, crowned(sq), captured))
                .collect();
            let landings = if going_on.is_empty() {
                beyond
            } else {
                going_on
            };
            for sq in landings {
                self.path.push(sq);
                self.search(sq, crowned(sq), captured);
                self.path.pop();
            }
        }
        if !took && !self.path.is_empty() {
            let crowns = self.started_as_man && king;
            self.out
                .push(Move::new(self.from, &self.path, captured, crowns));
        }
    }
}

/// The position after `m`, legal in `pos`.
pub fn apply(pos: &Position, m: &Move) -> Position {
    let mut next = *pos;
    let Some(piece) = pos.piece_at(m.from()) else {
        return next;
    };
    next.set(m.from(), None);
    for sq in super::board::squares_of(m.captured()) {
        next.set(sq, None);
    }
    let kind = if m.crowns() { Kind::King } else { piece.kind };
    next.set(
        m.to(),
        Some(Piece {
            color: piece.color,
            kind,
        }),
    );
    next.set_turn(pos.turn().other());
    next
}

/// The number of move sequences `depth` half-moves deep (each effect counted once).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&apply(pos, m), depth - 1)).sum()
}

/// Like [`perft`], counting every capture path apart.
pub fn perft_paths(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = all_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft_paths(&apply(pos, m), depth - 1))
        .sum()
}
