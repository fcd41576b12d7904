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

use std::fmt;
use std::io::{self, Read};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::Lang;

mod lexer;

use super::number::{MoveNumber, split_move_number};
use super::reader::{ReadMoveError, Reader};
use super::result::Score;
use super::written::{Marks, Written};
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

/// A game that could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// 1 for the first game of the input.
    pub game: u64,
    /// The input line the bad token is on.
    pub line: u64,
    pub number: u32,
    pub color: Color,
    /// The token as written (cut to [`MAX_WORD_BYTES`], control characters escaped).
    pub token: String,
    pub kind: GameErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    Move(ReadMoveError),
    WrongMoveNumber { written: u32, black: bool },
    BadFen(String),
    BadTag,
    TooLong,
    TooManyMoves,
    MarksWithoutMove,
    UnterminatedComment,
    UnclosedVariation,
    Unexpected,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.color {
            Color::White => "White",
            Color::Black => "Black",
        };
        write!(
            f,
            "game {} (line {}), move {} ({side})",
            self.game, self.line, self.number
        )?;
        if !self.token.is_empty() {
            write!(f, " {:?}", self.token)?;
        }
        f.write_str(": ")?;
        match &self.kind {
            GameErrorKind::Move(e) => write!(f, "{e}"),
            GameErrorKind::WrongMoveNumber { written, black } => {
                let dots = if *black { "..." } else { "." };
                write!(
                    f,
                    "the move number {written}{dots} is written, but this is move {} for {side}",
                    self.number
                )
            }
            GameErrorKind::BadFen(e) => write!(f, "bad start position: {e}"),
            GameErrorKind::TooLong => write!(f, "not a move: longer than {MAX_WORD_BYTES} bytes"),
            GameErrorKind::MarksWithoutMove => write!(f, "a mark with no move before it"),
            GameErrorKind::BadTag => write!(f, "a malformed tag pair (write [Name \"value\"])"),
            GameErrorKind::TooManyMoves => write!(
                f,
                "more than {MAX_PLIES} half-moves: no chess game is that long"
            ),
            GameErrorKind::UnterminatedComment => {
                write!(f, "a comment opened with {{ is never closed")
            }
            GameErrorKind::UnclosedVariation => {
                write!(f, "a variation opened here is never closed")
            }
            GameErrorKind::Unexpected => write!(f, "unexpected here"),
        }
    }
}

impl std::error::Error for GameError {}

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

/// One game being read.
struct Game {
    index: u64,
    tags: Vec<(String, String)>,
    /// A blank line followed the tags: the next tag begins another game.
    tags_closed: bool,
    started: bool,
    reader: Reader,
    pos: Chess,
    plies: u32,
    depth: u32,
    /// Where the outermost open variation began.
    variation_line: u64,
    error: Option<GameError>,
    result: Option<&'static str>,
    continues: bool,
    /// The last word was a move number (`12.`), so a `...` after it is a placeholder.
    after_number: bool,
}

impl Game {
    fn new(index: u64, reader: Reader) -> Game {
        Game {
            index,
            tags: Vec::new(),
            tags_closed: false,
            started: false,
            reader,
            pos: Chess::default(),
            plies: 0,
            depth: 0,
            variation_line: 0,
            error: None,
            result: None,
            continues: false,
            after_number: false,
        }
    }

    fn has_content(&self) -> bool {
        self.started || !self.tags.is_empty()
    }

    /// Still reading moves: no error, no "and so on".
    fn reading(&self) -> bool {
        self.error.is_none() && !self.continues
    }

    /// Sets up the start position once the tags are complete and tells the visitor.
    fn start<V: Visitor>(
        &mut self,
        visitor: &mut V,
        default_start: Option<&Fen>,
        line: u64,
    ) -> io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let fen_tag = self
            .tags
            .iter()
            .find(|(name, _)| name == "FEN")
            .map(|(_, v)| v.clone());
        let mut start_fen = None;
        match fen_tag {
            Some(text) => match parse_position(&text) {
                Ok(pos) => {
                    self.pos = pos;
                    start_fen = Some(text);
                }
                Err(e) => self.fail(String::new(), GameErrorKind::BadFen(e), line),
            },
            None => {
                if let Some(fen) = default_start {
                    match fen.clone().into_position(CastlingMode::Standard) {
                        Ok(pos) => {
                            self.pos = pos;
                            start_fen = Some(fen.to_string());
                        }
                        Err(e) => {
                            self.fail(String::new(), GameErrorKind::BadFen(e.to_string()), line)
                        }
                    }
                }
            }
        }
        visitor.begin_game(&GameStart {
            index: self.index,
            tags: &self.tags,
            start: &self.pos,
            start_fen: start_fen.as_deref(),
        })
    }

    /// Records the game's first error; later ones follow from it and are not reported.
    fn fail(&mut self, token: String, kind: GameErrorKind, line: u64) {
        if self.error.is_some() {
            return;
        }
        self.error = Some(GameError {
            game: self.index,
            line,
            number: self.pos.fullmoves().get(),
            color: self.pos.turn(),
            token,
            kind,
        });
    }

    fn marks<V: Visitor>(
        &mut self,
        visitor: &mut V,
        marks: Marks,
        token: &str,
        line: u64,
    ) -> io::Result<()> {
        if !self.reading() {
            return Ok(());
        }
        if self.plies == 0 {
            self.fail(printable(token), GameErrorKind::MarksWithoutMove, line);
            return Ok(());
        }
        visitor.on_marks(&marks)
    }

    fn word<V: Visitor>(&mut self, visitor: &mut V, word: &str, line: u64) -> io::Result<()> {
        let after_number = std::mem::take(&mut self.after_number);
        let (number, rest) = split_move_number(word);
        let mut word = if let Some(MoveNumber {
            number: written,
            black,
        }) = number
        {
            let expected = self.pos.fullmoves().get();
            if written != expected || (black && self.pos.turn() == Color::White) {
                self.fail(
                    printable(word),
                    GameErrorKind::WrongMoveNumber { written, black },
                    line,
                );
                return Ok(());
            }
            if rest.is_empty() {
                self.after_number = true;
                return Ok(());
            }
            rest
        } else {
            word
        };
        if let Some(after_dots) = word.strip_prefix("...").or_else(|| word.strip_prefix('…')) {
            if after_dots.is_empty() {
                if !after_number {
                    // `17.a5 ...`: the text goes on without its moves ("and so on").
                    self.continues = true;
                }
                return Ok(()); // `12. ... Nf6`: the placeholder for White's move
            }
            if Written::parse(after_dots).is_err() {
                self.continues = true; // `...і т.д.`
                return Ok(());
            }
            // `1. ...e5`, `...e5`: Black's move.
            if self.pos.turn() == Color::White {
                let written = self.pos.fullmoves().get();
                self.fail(
                    printable(word),
                    GameErrorKind::WrongMoveNumber {
                        written,
                        black: true,
                    },
                    line,
                );
                return Ok(());
            }
            word = after_dots;
        }
        if may_be_marks(word)
            && let Some(marks) = Marks::parse(word)
        {
            return self.marks(visitor, marks, word, line);
        }
        if self.plies >= MAX_PLIES {
            self.fail(printable(word), GameErrorKind::TooManyMoves, line);
            return Ok(());
        }
        match self.reader.read(&self.pos, word) {
            Ok(read) => {
                visitor.on_move(&MoveEvent {
                    token: word,
                    before: &self.pos,
                    m: read.m,
                    marks: &read.marks,
                })?;
                self.pos.play_unchecked(read.m);
                self.plies += 1;
            }
            Err(e) => self.fail(printable(word), GameErrorKind::Move(e), line),
        }
        Ok(())
    }
}

/// A cheap test that keeps [`Marks::parse`] off the hot path of ordinary moves.
fn may_be_marks(word: &str) -> bool {
    word.starts_with(['+', '#', '!', '?', '(', '‡', '='])
        || ((word.starts_with('e') || word.starts_with('е'))
            && !word.contains(|c: char| c.is_ascii_digit()))
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
