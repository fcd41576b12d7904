//! Movetext and PGN, read game by game from a stream, in bounded memory.
//!
//! Reads PGN (tags, `1.`/`1...`/`1…` move numbers, `{}` and `;` comments, `( )` variations,
//! `$n` NAGs, results, `%` escape lines, many games per file, a BOM, CRLF) and the plain
//! movetext people write (seeds 000, 002, 004): each move token goes through the tolerant
//! [`Reader`]. A game ends at its result, at the next tag section, at a blank line after its
//! moves, or at the end of the input. A standalone `...` that is not a move-number placeholder
//! (`17.a5 ...і т.д.`, "and so on") ends the game's moves: the rest of that paragraph is skipped
//! and the game counts as unfinished.
//!
//! Nothing is slurped: bytes are read through a fixed buffer, a token longer than
//! [`MAX_WORD_BYTES`] is skipped unread, comments and tags are cut at fixed sizes, and moves are
//! handed to a [`Visitor`] as they are read.
//!
//! Variations are skipped (their moves are not checked); comments are dropped, except a comment
//! holding just `(=)`, which is read as a draw offer (that is how [`super::pgn`] writes one).
//!
//! ```
//! use ccrelay::notation::movetext::{MovetextReader, Visitor, GameStart, MoveEvent, GameEnd};
//! use ccrelay::notation::Iccf;
//!
//! #[derive(Default)]
//! struct Numeric(Vec<String>);
//! impl Visitor for Numeric {
//!     fn begin_game(&mut self, _: &GameStart<'_>) -> std::io::Result<()> { Ok(()) }
//!     fn on_move(&mut self, mv: &MoveEvent<'_>) -> std::io::Result<()> {
//!         self.0.push(Iccf::from_move(mv.m).to_string());
//!         Ok(())
//!     }
//!     fn end_game(&mut self, _: &GameEnd<'_>) -> std::io::Result<()> { Ok(()) }
//! }
//!
//! let text = "1. е2—е4 е7—е5 2. Kg1—f3 Kb8—с6 3. Cf1—b5 а7—а6";
//! let mut numeric = Numeric::default();
//! MovetextReader::new(text.as_bytes(), None, None).read_all(&mut numeric).unwrap();
//! assert_eq!(numeric.0, ["5254", "5755", "7163", "2836", "6125", "1716"]);
//! ```

use std::io::{self, Read};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::Lang;

mod error;
mod fork;
mod game;
mod lexer;

use super::reader::Reader;
use super::result::Score;
use super::written::Marks;
pub use error::{GameError, GameErrorKind, Stop, Undecided};
use game::Game;
pub(crate) use lexer::{Lexer, Token};

/// The longest token read; longer ones are skipped and reported.
pub const MAX_WORD_BYTES: usize = 64;
/// The most bytes of a tag value kept; the rest is skipped.
pub const MAX_TAG_VALUE_BYTES: usize = 1024;
/// The most half-moves a game may have. The 75-move rule ends every game before about 11,800
/// half-moves, so anything longer is not a chess game (and PGN output may buffer a game).
pub const MAX_PLIES: u32 = 12_000;
/// The most tags kept per game; later ones are skipped.
pub const MAX_TAGS: usize = 64;
const MAX_TAG_NAME_BYTES: usize = 64;
const MAX_COMMENT_KEPT: usize = 16;
const BUFFER_BYTES: usize = 64 * 1024;

/// Receives games as they are read.
pub trait Visitor {
    /// A game's tags are complete and its first move is about to be read.
    fn begin_game(&mut self, game: &GameStart<'_>) -> io::Result<()>;
    /// A move was read; `before` is the position it was played in.
    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()>;
    /// Marks written apart from the last move (`exd6 e.p.`, `Крb1 (=)`).
    fn on_marks(&mut self, _marks: &Marks) -> io::Result<()> {
        Ok(())
    }
    /// The game ended: by its result, by an error, or where its text stops.
    fn end_game(&mut self, end: &GameEnd<'_>) -> io::Result<()>;
}

/// A game about to be read.
pub struct GameStart<'a> {
    /// 1 for the first game of the input.
    pub index: u64,
    pub tags: &'a [(String, String)],
    pub start: &'a Chess,
    /// The FEN the game starts from, when it does not start from the initial position.
    pub start_fen: Option<&'a str>,
}

/// One move read.
pub struct MoveEvent<'a> {
    /// The token exactly as written (the move, without separately written marks).
    pub token: &'a str,
    pub before: &'a Chess,
    pub m: Move,
    pub marks: &'a Marks,
}

impl MoveEvent<'_> {
    pub fn number(&self) -> u32 {
        self.before.fullmoves().get()
    }

    pub fn color(&self) -> Color {
        self.before.turn()
    }
}

/// How a game ended.
pub struct GameEnd<'a> {
    pub index: u64,
    /// The result as written (`1-0`, `0-1`, `1/2-1/2`, `*`), normalized to PGN's form.
    pub result: Option<&'static str>,
    pub error: Option<&'a GameError>,
    /// The text said the game goes on (`...`, "and so on") and the rest of it was skipped.
    pub continues: bool,
    pub plies: u32,
    /// The position after the last move read.
    pub last: &'a Chess,
}

/// Counts of what a whole input held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub failed: u64,
    pub moves: u64,
}

/// Reads games from a byte stream.
pub struct MovetextReader<R> {
    lexer: Lexer<R>,
    lang: Option<Lang>,
    default_start: Option<Fen>,
    games: u64,
}

impl<R: Read> MovetextReader<R> {
    /// `lang`: the players' language (`None`: any, English first). `start`: the position of
    /// games without a `FEN` tag (`None`: the initial position).
    pub fn new(src: R, lang: Option<Lang>, start: Option<Fen>) -> MovetextReader<R> {
        MovetextReader {
            lexer: Lexer::new(src),
            lang,
            default_start: start,
            games: 0,
        }
    }

    /// Reads every game, handing each to `visitor`. Only I/O errors stop it; a bad game is
    /// reported to the visitor and reading goes on with the next.
    pub fn read_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Totals> {
        let mut totals = Totals::default();
        while let Some(outcome) = self.read_game(visitor)? {
            totals.games += 1;
            totals.moves += u64::from(outcome.plies);
            if outcome.failed {
                totals.failed += 1;
            }
        }
        Ok(totals)
    }

    /// Reads one game; `None` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<GameOutcome>> {
        let mut game = Game::new(self.games + 1, Reader::new(self.lang));
        let start = self.default_start.as_ref();
        let offer = Marks {
            draw_offer: true,
            ..Marks::default()
        };
        loop {
            let (token, line) = self.lexer.next()?;
            match token {
                Token::Eof => {
                    if !game.has_content() {
                        return Ok(None);
                    }
                    break;
                }
                Token::Tag(name, value) => {
                    if game.started || game.tags_closed {
                        self.lexer.push_back_tag(name, value);
                        break;
                    }
                    if game.tags.len() < MAX_TAGS {
                        game.tags.push((name, value));
                    }
                }
                Token::BadTag => {
                    game.start(visitor, start, line)?;
                    game.fail(String::new(), GameErrorKind::BadTag, line);
                }
                Token::BlankLine => {
                    if game.started {
                        break;
                    }
                    // A tag section followed by a blank line is complete: another tag begins
                    // the next game, even if this one has no moves.
                    game.tags_closed = !game.tags.is_empty();
                }
                // Comments, variations and NAGs belong to a game but do not begin one: a file
                // may open with a comment about the file.
                Token::VariationOpen => {
                    if game.depth == 0 {
                        game.variation_line = line;
                    }
                    game.depth = game.depth.saturating_add(1);
                }
                Token::VariationClose => {
                    if game.depth == 0 {
                        game.start(visitor, start, line)?;
                        game.fail(")".to_owned(), GameErrorKind::Unexpected, line);
                    }
                    game.depth = game.depth.saturating_sub(1);
                }
                Token::Nag => {}
                Token::Comment(text) => {
                    if game.started && game.depth == 0 && text.trim_ascii() == b"(=)" {
                        game.marks(visitor, offer.clone(), "{(=)}", line)?;
                    }
                }
                Token::UnterminatedComment => {
                    game.start(visitor, start, line)?;
                    game.fail(String::new(), GameErrorKind::UnterminatedComment, line);
                }
                Token::DrawOffer => {
                    game.start(visitor, start, line)?;
                    if game.depth == 0 {
                        game.marks(visitor, offer.clone(), "(=)", line)?;
                    }
                }
                Token::WordTooLong => {
                    game.start(visitor, start, line)?;
                    if game.depth == 0 {
                        game.fail(String::new(), GameErrorKind::TooLong, line);
                    }
                }
                Token::Word(bytes) => {
                    game.start(visitor, start, line)?;
                    let word = String::from_utf8_lossy(bytes);
                    if let Some(result) = Score::read(&word) {
                        game.result = Some(result.pgn());
                        break;
                    }
                    if game.depth == 0 && game.reading() {
                        game.word(visitor, &word, line)?;
                    }
                }
            }
        }
        if game.depth > 0 {
            let opened = game.variation_line;
            game.fail("(".to_owned(), GameErrorKind::UnclosedVariation, opened);
        }
        if !game.started {
            game.start(visitor, start, self.lexer.line)?;
        }
        game.settle(visitor)?;
        self.games += 1;
        visitor.end_game(&GameEnd {
            index: game.index,
            result: game.result,
            error: game.error.as_ref(),
            continues: game.continues,
            plies: game.plies,
            last: &game.pos,
        })?;
        Ok(Some(GameOutcome {
            plies: game.plies,
            failed: game.error.is_some(),
        }))
    }
}

/// What one game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOutcome {
    pub plies: u32,
    pub failed: bool,
}

/// A position from a FEN, standard chess.
pub fn parse_position(fen: &str) -> Result<Chess, String> {
    let fen: Fen = fen.trim().parse().map_err(|e| format!("{e}"))?;
    fen.into_position(CastlingMode::Standard)
        .map_err(|e| e.to_string())
}

/// A token fit for an error message: cut short, control characters escaped.
pub(crate) fn printable(token: &str) -> String {
    token.chars().take(MAX_WORD_BYTES).collect()
}
