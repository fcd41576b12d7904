//! Games to play: a long real one with castling on both sides, en passant and an
//! under-promotion.

use ccrelay::notation::Reader;
use shakmaty::{Chess, Position};

/// A real game (TWIC, Kosanovic - Stanojevic, 133 half-moves) with castling on both sides,
/// en passant (f5xg6) and an under-promotion (g7-g8=N).
pub const LONG_GAME: &str = "d2d4 d7d5 g1f3 g8f6 e2e3 a7a6 c2c4 e7e6 b1c3 c7c5 d4c5 f8c5 a2a3 e8g8 b2b4 c5d6 c1b2 a6a5 c4c5 d6e7 c3a4 b8d7 f1b5 a5b4 a3b4 b7b6 e1g1 b6c5 b5d7 c8d7 a4c5 d7b5 f1e1 f6d7 d1d4 e7f6 d4d2 f6b2 a1a8 d8a8 c5d7 b5d7 d2b2 f7f6 h2h4 f8b8 h4h5 a8b7 e1b1 h7h6 b2d2 e6e5 f3h4 d7g4 b4b5 g4h5 b5b6 h5f7 d2b4 b7d7 f2f4 e5f4 e3f4 d5d4 b1d1 d4d3 b4e4 d3d2 h4f3 f7d5 e4d3 d7c6 f3d4 c6c1 d3d2 c1d2 d1d2 b8b6 d4f5 d5e6 f5e3 b6b4 g2g3 b4a4 g1f2 a4a2 d2a2 e6a2 f4f5 h6h5 g3g4 h5g4 f2g3 a2b1 g3g4 g8f7 g4f4 f7e7 e3f1 b1a2 f1g3 a2f7 g3e4 e7d7 e4c5 d7c6 c5e4 c6d5 e4g3 d5d4 g3e4 f7d5 e4g3 d5f7 g3e2 d4d3 e2g3 f7e8 g3e4 d3e2 e4c5 e8f7 c5e6 g7g5 f5g6 f7e6 g6g7 e2d3 g7g8n e6g8 f4f5 g8h7 f5f6";

/// The moves of [`LONG_GAME`], with the position each is played in.
pub fn long_game() -> Vec<(Chess, shakmaty::Move)> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for u in LONG_GAME.split_whitespace() {
        let m = Reader::new(None).read(&pos, u).expect("legal").m;
        out.push((pos.clone(), m));
        pos.play_unchecked(m);
    }
    out
}
