//! Russian draughts notation: a move token against a position, and movetext and set-ups.

use std::io;

use ccrelay::draughts::movetext::{GameEnd, GameStart, MoveEvent, MovetextReader, Visitor};
use ccrelay::draughts::notation::{self, Form};
use ccrelay::draughts::{Position, apply, legal_moves, setup};

use super::{choices, text as lossy};

/// One token read against a position reached by play from the start: no panic, a move read is
/// legal; one legal move (picked by the input) written in both forms, shortened and in full,
/// reads back to the same move.
///
/// Input: byte 1 the number of choices, each picks a legal move to play, the rest is the token
/// (its first byte also picks the move written back).
pub fn move_token(data: &[u8]) {
    let (_, plies, rest) = choices(data, 120);
    let mut pos = Position::default();
    for &choice in plies {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        pos = apply(&pos, &legal[usize::from(choice) % legal.len()]);
    }
    let token = lossy(rest);
    let legal = legal_moves(&pos);
    match notation::read(&pos, &token) {
        Ok(m) => assert!(
            legal.iter().any(|l| l.same_effect(&m)),
            "{token:?} read as an illegal move"
        ),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    if legal.is_empty() {
        return;
    }
    let m = &legal[rest.first().copied().map_or(0, usize::from) % legal.len()];
    for written in [
        notation::write_in(&pos, m, Form::Algebraic),
        notation::write_in(&pos, m, Form::Numeric),
        notation::write_path(m, Form::Algebraic),
        notation::write_path(m, Form::Numeric),
    ] {
        match notation::read(&pos, &written) {
            Ok(read) => assert!(read.same_effect(m), "{written} read as another move"),
            Err(e) => panic!("{written}, written by ccrelay, does not read back: {e}"),
        }
    }
}

struct Moves;

impl Visitor for Moves {
    fn begin_game(&mut self, _: &GameStart<'_>) -> io::Result<()> {
        Ok(())
    }

    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()> {
        assert!(
            legal_moves(mv.before).iter().any(|l| l.same_effect(&mv.m)),
            "{:?} read as an illegal move",
            mv.token
        );
        Ok(())
    }

    fn end_game(&mut self, _: &GameEnd<'_>) -> io::Result<()> {
        Ok(())
    }
}

/// Draughts movetext (PDN and plain) and set-ups (PDN's FEN, the listing of seed 003): no
/// panic, every move read legal, and a position read writes as FEN and as a listing that read
/// back to the same position.
pub fn text(data: &[u8]) {
    MovetextReader::new(data, None)
        .read_all(&mut Moves)
        .expect("reading from memory cannot fail");
    let t = lossy(data);
    if let Ok(pos) = setup::parse_any(&t) {
        let fen = setup::write_fen(&pos);
        assert_eq!(setup::parse_fen(&fen), Ok(pos), "{fen}");
        let listing = setup::write_listing(&pos);
        assert_eq!(setup::parse_listing(&listing), Ok(pos), "{listing}");
    }
}
