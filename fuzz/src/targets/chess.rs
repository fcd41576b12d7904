//! Chess notation: the movetext/PGN reader, and one move token read against a position.

use std::io;

use ccrelay::convert::{self, Format, Options};
use ccrelay::notation::movetext::{
    GameEnd, GameStart, MoveEvent, MovetextReader, Visitor, parse_position,
};
use ccrelay::notation::{Iccf, Lang, Reader, lan, san, uci};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::{choices, text};

/// Start positions rich in what random play seldom reaches: promotions (with and without
/// capture, both colours), en passant, castling on both sides.
const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1",
    "r3k2r/pPp3pp/8/8/8/8/PpP3PP/R3K2R b KQkq - 0 1",
    "4k3/1P4P1/8/2Pp4/8/8/1p4p1/4K3 w - d6 0 40",
];

/// The language a selector byte names: `None` (any, English first) or one of them.
fn lang_of(selector: u8) -> Option<Lang> {
    let all: Vec<Lang> = Lang::LETTERED
        .iter()
        .copied()
        .chain([Lang::Figurine])
        .collect();
    match usize::from(selector) % (all.len() + 1) {
        0 => None,
        n => Some(all[n - 1]),
    }
}

/// One game as the reader gave it: where it started, its moves, whether it failed.
#[derive(Default)]
struct Games {
    current: Vec<Move>,
    start: Option<Chess>,
    /// Games read to their end without an error: start position and moves.
    whole: Vec<(Chess, Vec<Move>)>,
}

impl Visitor for Games {
    fn begin_game(&mut self, game: &GameStart<'_>) -> io::Result<()> {
        self.current.clear();
        self.start = Some(game.start.clone());
        Ok(())
    }

    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()> {
        assert!(
            mv.before.is_legal(mv.m),
            "the reader gave an illegal move {:?} for {:?}",
            mv.m,
            mv.token
        );
        self.current.push(mv.m);
        Ok(())
    }

    fn end_game(&mut self, end: &GameEnd<'_>) -> io::Result<()> {
        let start = self.start.take().expect("end_game after begin_game");
        let mut pos = start.clone();
        for &m in &self.current {
            pos.play_unchecked(m);
        }
        assert_eq!(
            pos.board(),
            end.last.board(),
            "the last position is the moves'"
        );
        if end.error.is_none() {
            self.whole.push((start, std::mem::take(&mut self.current)));
        }
        Ok(())
    }
}

/// Numbered SAN movetext of a game, in `lang`: `1. e4 e5 2. Nf3`, `12... Kf8`.
fn write_movetext(start: &Chess, moves: &[Move], lang: Lang) -> String {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let number = pos.fullmoves().get();
        match pos.turn() {
            Color::White => out.push_str(&format!("{number}. ")),
            Color::Black if i == 0 => out.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        out.push_str(&san::write(&pos, m, lang));
        out.push(' ');
        pos.play_unchecked(m);
    }
    out.push('\n');
    out
}

/// PGN and plain movetext: no panic; every move read is legal; every game read to its end
/// writes back as numbered SAN (English and Russian) that reads to the same moves.
pub fn movetext(data: &[u8]) {
    let mut games = Games::default();
    MovetextReader::new(data, None, None)
        .read_all(&mut games)
        .expect("reading from memory cannot fail");
    for (start, moves) in &games.whole {
        let fen = Fen::from_position(start, EnPassantMode::Legal);
        for lang in [Lang::English, Lang::Russian] {
            let written = write_movetext(start, moves, lang);
            let mut again = Games::default();
            let totals = MovetextReader::new(written.as_bytes(), Some(lang), Some(fen.clone()))
                .read_all(&mut again)
                .expect("reading from memory cannot fail");
            assert_eq!(totals.failed, 0, "written back in {lang}: {written}");
            let read: Vec<Move> = again.whole.into_iter().flat_map(|(_, m)| m).collect();
            assert_eq!(&read, moves, "written back in {lang}: {written}");
        }
    }
    // The converter's writers over the same input: no panic, and as many UCI lines as games.
    let mut out = Vec::new();
    let totals = convert::convert(
        data,
        &mut out,
        io::sink(),
        &Options {
            to: Format::Uci,
            lang: None,
            start: None,
        },
    )
    .expect("in-memory I/O");
    assert_eq!(
        out.iter().filter(|&&b| b == b'\n').count() as u64,
        totals.games
    );
    for to in [Format::Pgn, Format::Json] {
        let options = Options {
            to,
            lang: None,
            start: None,
        };
        convert::convert(data, io::sink(), io::sink(), &options).expect("in-memory I/O");
    }
}

/// Reads `token` in `pos` with a fresh reader for `lang`.
fn read(lang: Option<Lang>, pos: &Chess, token: &str) -> Option<Move> {
    Reader::new(lang).read(pos, token).ok().map(|r| r.m)
}

/// One token read against a position reached by play from one of [`STARTS`]: no panic, a
/// move read is legal; and one legal move (picked by the input) written in ICCF, UCI, SAN and
/// long algebraic in the chosen language reads back to itself.
///
/// Input: byte 0 picks the start and the language, byte 1 the number of choices, each choice
/// picks a legal move to play, the rest is the token (its first byte also picks the move
/// written back).
pub fn move_token(data: &[u8]) {
    let (selector, plies, rest) = choices(data, 60);
    let mut pos = parse_position(STARTS[usize::from(selector & 3)]).expect("valid start");
    for &choice in plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(choice) % legal.len()];
        pos.play_unchecked(m);
    }
    let lang = lang_of(selector >> 2);
    let token = text(rest);
    let mut reader = Reader::new(lang);
    if let Ok(read) = reader.read(&pos, &token) {
        assert!(pos.is_legal(read.m), "{token:?} read as an illegal move");
    }
    // The error's text is what a player reads: building it must not panic either.
    if let Err(e) = Reader::new(lang).read(&pos, &token) {
        let _ = e.to_string();
    }
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return;
    }
    let pick = rest.first().copied().map_or(0, usize::from);
    let m = legal[pick % legal.len()];
    let iccf = Iccf::from_move(m).to_string();
    assert_eq!(read(lang, &pos, &iccf), Some(m), "ICCF {iccf}");
    let u = uci::write(m);
    assert_eq!(read(lang, &pos, &u), Some(m), "UCI {u}");
    let written_in = lang.unwrap_or(Lang::English);
    let s = san::write(&pos, m, written_in);
    assert_eq!(read(lang, &pos, &s), Some(m), "SAN {s} in {written_in}");
    let l = lan::write(&pos, m, written_in);
    assert_eq!(read(lang, &pos, &l), Some(m), "LAN {l} in {written_in}");
}
