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
use super::reader::{ReadMoveError, Reader};
use super::written::{Marks, Written};

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
                    if let Some(result) = result_of(&word) {
                        game.result = Some(result);
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
        let mut word = if let Some((written, black)) = number {
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

/// `12.`, `12...`, `12…`, `12.e4`, `12...Nf6`: the number, whether Black is to move (`...`),
/// and what follows.
pub(crate) fn split_move_number(word: &str) -> (Option<(u32, bool)>, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 {
        return (None, word);
    }
    let rest = &word[digits..];
    let (black, after) =
        if let Some(after) = rest.strip_prefix("...").or_else(|| rest.strip_prefix('…')) {
            (true, after)
        } else if let Some(after) = rest.strip_prefix('.') {
            (false, after.trim_start_matches('.'))
        } else {
            return (None, word);
        };
    match word[..digits].parse() {
        Ok(n) => (Some((n, black)), after),
        Err(_) => (None, word),
    }
}

/// Results as written, in PGN's form; any dash (`1–0`), `:` (`1:0`) or `½`.
fn result_of(word: &str) -> Option<&'static str> {
    if word.len() > 12 {
        return None;
    }
    let normalized: String;
    let word = if word.is_ascii() {
        word
    } else {
        normalized = word
            .chars()
            .map(|c| {
                if c == ':' {
                    c
                } else {
                    super::fold::fold_char(c)
                }
            })
            .collect();
        &normalized
    };
    Some(match word {
        "1-0" | "1:0" => "1-0",
        "0-1" | "0:1" => "0-1",
        "1/2-1/2" | "½-½" | "½:½" | "1/2:1/2" | "0.5-0.5" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// A token fit for an error message: cut short, control characters escaped.
pub(crate) fn printable(token: &str) -> String {
    token.chars().take(MAX_WORD_BYTES).collect()
}

/// What the lexer hands the game reader (the draughts reader shares it).
pub(crate) enum Token<'a> {
    Word(&'a [u8]),
    WordTooLong,
    Tag(String, String),
    BadTag,
    /// A comment's first bytes.
    Comment(&'a [u8]),
    /// A `{` comment the input ends inside.
    UnterminatedComment,
    VariationOpen,
    VariationClose,
    DrawOffer,
    Nag,
    BlankLine,
    Eof,
}

/// Cuts a byte stream into tokens through a fixed buffer. "Need more bytes" (refill) is kept
/// apart from "bad bytes" (which are just words that will not read as moves).
pub(crate) struct Lexer<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    pub(crate) line: u64,
    at_line_start: bool,
    started: bool,
    comment: [u8; MAX_COMMENT_KEPT],
    pending_tag: Option<(String, String)>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_delimiter(b: u8) -> bool {
    is_space(b) || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$')
}

impl<R: Read> Lexer<R> {
    pub(crate) fn new(src: R) -> Lexer<R> {
        Lexer {
            src,
            buf: vec![0; BUFFER_BYTES].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            line: 1,
            at_line_start: true,
            started: false,
            comment: [0; MAX_COMMENT_KEPT],
            pending_tag: None,
        }
    }

    pub(crate) fn push_back_tag(&mut self, name: String, value: String) {
        self.pending_tag = Some((name, value));
    }

    /// The next token and the line it starts on.
    pub(crate) fn next(&mut self) -> io::Result<(Token<'_>, u64)> {
        if let Some((name, value)) = self.pending_tag.take() {
            return Ok((Token::Tag(name, value), self.line));
        }
        if self.skip_space()? {
            return Ok((Token::BlankLine, self.line));
        }
        let line = self.line;
        Ok((self.next_token()?, line))
    }

    /// Makes at least `n` bytes available from `pos`, unless the input ends first.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        while self.end - self.pos < n {
            if self.eof {
                return Ok(false);
            }
            if self.pos > 0 {
                self.buf.copy_within(self.pos..self.end, 0);
                self.end -= self.pos;
                self.pos = 0;
            }
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(read) => self.end += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn peek(&mut self, k: usize) -> io::Result<Option<u8>> {
        Ok(if self.fill(k + 1)? {
            Some(self.buf[self.pos + k])
        } else {
            None
        })
    }

    fn bump(&mut self) {
        if self.buf[self.pos] == b'\n' {
            self.line += 1;
            self.at_line_start = true;
        } else {
            self.at_line_start = false;
        }
        self.pos += 1;
    }

    /// The length of the space character at offset `k`, or 0. Besides ASCII spaces, the Unicode
    /// spaces word processors put in movetext count (no-break, narrow no-break, thin, en, em,
    /// ideographic), and so does a byte-order mark, which `cat a.pgn b.pgn` leaves mid-stream.
    fn space_len_at(&mut self, k: usize) -> io::Result<usize> {
        let Some(b0) = self.peek(k)? else {
            return Ok(0);
        };
        if is_space(b0) {
            return Ok(1);
        }
        if !matches!(b0, 0xc2 | 0xe2 | 0xe3 | 0xef) {
            return Ok(0);
        }
        let b1 = self.peek(k + 1)?;
        if b0 == 0xc2 {
            return Ok(if b1 == Some(0xa0) { 2 } else { 0 });
        }
        let b2 = self.peek(k + 2)?;
        let space = matches!(
            (b0, b1, b2),
            (0xe2, Some(0x80), Some(0x80..=0x8b | 0xaf))
                | (0xe2, Some(0x81), Some(0x9f))
                | (0xe3, Some(0x80), Some(0x80))
                | (0xef, Some(0xbb), Some(0xbf))
        );
        Ok(if space { 3 } else { 0 })
    }

    fn space_len(&mut self) -> io::Result<usize> {
        self.space_len_at(0)
    }

    /// Skips spaces and `%` escape lines; true if they held a blank line.
    fn skip_space(&mut self) -> io::Result<bool> {
        if !self.started {
            self.started = true;
            if self.fill(3)? && self.buf[self.pos..self.pos + 3] == [0xef, 0xbb, 0xbf] {
                self.pos += 3;
            }
        }
        let mut newlines = 0;
        loop {
            let n = self.space_len()?;
            if n > 0 {
                for _ in 0..n {
                    if self.buf[self.pos] == b'\n' {
                        newlines += 1;
                    }
                    self.bump();
                }
                continue;
            }
            // `%` at the start of a line escapes the line (PGN 6).
            if self.at_line_start && self.peek(0)? == Some(b'%') {
                self.skip_line()?;
                continue;
            }
            return Ok(newlines >= 2);
        }
    }

    /// The next token, with spaces already skipped.
    fn next_token(&mut self) -> io::Result<Token<'_>> {
        let Some(b) = self.peek(0)? else {
            return Ok(Token::Eof);
        };
        match b {
            b';' => {
                self.skip_line()?;
                Ok(Token::Comment(&[]))
            }
            b'{' => {
                self.bump();
                let mut kept = 0;
                loop {
                    let Some(c) = self.peek(0)? else {
                        return Ok(Token::UnterminatedComment);
                    };
                    self.bump();
                    if c == b'}' {
                        break;
                    }
                    if kept < MAX_COMMENT_KEPT {
                        self.comment[kept] = c;
                        kept += 1;
                    }
                }
                Ok(Token::Comment(&self.comment[..kept]))
            }
            b'(' => {
                if self.peek(1)? == Some(b'=') && self.peek(2)? == Some(b')') {
                    self.pos += 3;
                    return Ok(Token::DrawOffer);
                }
                self.bump();
                Ok(Token::VariationOpen)
            }
            b')' => {
                self.bump();
                Ok(Token::VariationClose)
            }
            b'}' => {
                self.bump();
                Ok(Token::Word(b"}"))
            }
            b']' => {
                self.bump();
                Ok(Token::Word(b"]"))
            }
            b'$' => {
                self.bump();
                while let Some(c) = self.peek(0)? {
                    if !c.is_ascii_digit() {
                        break;
                    }
                    self.bump();
                }
                Ok(Token::Nag)
            }
            b'[' => self.tag(),
            _ => self.word(),
        }
    }

    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(c) = self.peek(0)? {
            if c == b'\n' {
                break;
            }
            self.bump();
        }
        Ok(())
    }

    fn word(&mut self) -> io::Result<Token<'_>> {
        let mut len = 0;
        while let Some(b) = self.peek(len)? {
            if is_delimiter(b) || (b >= 0xc2 && self.space_len_at(len)? > 0) {
                break;
            }
            len += 1;
            if len > MAX_WORD_BYTES {
                while let Some(b) = self.peek(0)? {
                    if is_delimiter(b) {
                        break;
                    }
                    self.bump();
                }
                return Ok(Token::WordTooLong);
            }
        }
        let start = self.pos;
        self.pos += len;
        self.at_line_start = false;
        Ok(Token::Word(&self.buf[start..start + len]))
    }

    /// `[Name "value"]`, with `\"` and `\\` escapes. A malformed tag skips its line.
    fn tag(&mut self) -> io::Result<Token<'_>> {
        self.bump();
        let mut name = Vec::new();
        while let Some(c) = self.peek(0)? {
            if c.is_ascii_alphanumeric() || c == b'_' {
                if name.len() >= MAX_TAG_NAME_BYTES {
                    break;
                }
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        while matches!(self.peek(0)?, Some(b' ' | b'\t')) {
            self.bump();
        }
        if name.is_empty() || self.peek(0)? != Some(b'"') {
            self.skip_line()?;
            return Ok(Token::BadTag);
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            match self.peek(0)? {
                None | Some(b'\n') => return Ok(Token::BadTag),
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    self.bump();
                    if let Some(c) = self.peek(0)?
                        && c != b'\n'
                    {
                        self.bump();
                        if value.len() < MAX_TAG_VALUE_BYTES {
                            value.push(c);
                        }
                    }
                }
                Some(c) => {
                    self.bump();
                    if value.len() < MAX_TAG_VALUE_BYTES {
                        value.push(c);
                    }
                }
            }
        }
        while matches!(self.peek(0)?, Some(b' ' | b'\t')) {
            self.bump();
        }
        if self.peek(0)? == Some(b']') {
            self.bump();
        } else {
            self.skip_line()?;
            return Ok(Token::BadTag);
        }
        Ok(Token::Tag(
            String::from_utf8_lossy(&name).into_owned(),
            String::from_utf8_lossy(&value).into_owned(),
        ))
    }
}
