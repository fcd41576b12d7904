//! The boards by kind: a board of a game's kind from its starting position, and a record's
//! moves replayed on it. The one place that names every board, so that adding a game touches
//! this file and [`Kind`], not the code that uses boards.
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

use std::sync::{Arc, OnceLock};

use super::board::{Board, Kind, Ply};
use super::chess::ChessBoard;
use super::draughts::DraughtsBoard;

/// A board of `kind` in its usual starting position, or in the one `fen` describes.
pub fn board(kind: Kind, fen: Option<&str>) -> Result<Box<dyn Board>, String> {
    match kind {
        Kind::Chess => Ok(Box::new(ChessBoard::new(fen)?)),
        Kind::DraughtsRu => Ok(Box::new(DraughtsBoard::new(fen)?)),
    }
}

/// The position a game of `kind` starts from: from `fen`, its own; from the usual position,
/// one board shared by every such game (an idle game then holds only its current position).
pub fn shared_start(kind: Kind, fen: Option<&str>) -> Result<Arc<dyn Board>, String> {
    static USUAL: [OnceLock<Arc<dyn Board>>; 2] = [OnceLock::new(), OnceLock::new()];
    if fen.is_some() {
        return Ok(Arc::from(board(kind, fen)?));
    }
    let slot = match kind {
        Kind::Chess => &USUAL[0],
        Kind::DraughtsRu => &USUAL[1],
    };
    if let Some(usual) = slot.get() {
        return Ok(usual.clone());
    }
    let usual: Arc<dyn Board> = Arc::from(board(kind, None)?);
    Ok(slot.get_or_init(|| usual).clone())
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
