//! Draughts games read from PDN or plain movetext, game by game, in bounded memory.
//!
//! The same lexer as chess movetext (tags, comments, variations, `%` lines, many games per
//! file); each move token goes through [`super::notation::read`], algebraic or numeric. Move
//! numbers `1.`, `1...`, `1…` are checked against the game. A `FEN` tag (PDN's
//! `W:W21,…:B1,…`, or the listing of seed 003) sets the start; a `GameType` tag other than
//! 25 (Russian draughts) is refused. Results: `1-0`, `0-1`, `1/2-1/2`, `*`, and the
//! international forms `2-0`, `0-2`, `1-1`.

use std::fmt;
use std::io::{self, Read};

use super::board::{Color, Position};
use super::game::Game;
use super::movegen::Move;
use super::notation::{self, ReadError};
use super::setup;
use crate::notation::movetext::{Lexer, Token, printable};
use crate::notation::number::{MoveNumber, split_move_number};

/// The most half-moves a game may have. The draw limits end every game long before.
pub const MAX_PLIES: u32 = 2_000;
/// The most tags kept per game.
pub const MAX_TAGS: usize = 64;

/// Receives games as they are read.
pub trait Visitor {
    fn begin_game(&mut self, game: &GameStart<'_>) -> io::Result<()>;
    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()>;
    fn end_game(&mut self, end: &GameEnd<'_>) -> io::Result<()>;
}

/// A game about to be read.
pub struct GameStart<'a> {
    pub index: u64,
    pub tags: &'a [(String, String)],
    pub start: &'a Position,
    /// The start position when it is not the initial one, as PDN's FEN.
    pub start_fen: Option<String>,
}

/// One move read.
pub struct MoveEvent<'a> {
    /// The token as written, without its move number.
    pub token: &'a str,
    pub before: &'a Position,
    pub m: Move,
    pub number: u32,
}

impl MoveEvent<'_> {
    pub fn color(&self) -> Color {
        self.before.turn()
    }
}

/// How a game ended.
pub struct GameEnd<'a> {
    pub index: u64,
    /// The result as written, in PGN's form.
    pub result: Option<&'static str>,
    pub error: Option<&'a GameError>,
    pub plies: u32,
    pub game: &'a Game,
}

/// A game that could not be read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    pub game: u64,
    pub line: u64,
    pub number: u32,
    pub color: Color,
    pub token: String,
    pub kind: GameErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    Move(ReadError),
    WrongMoveNumber {
        written: u32,
        black: bool,
    },
    BadStart(String),
    WrongGameType(String),
    /// A numeric move in a game whose `GameType` says algebraic squares (`A0`).
    NumericInAlgebraicGame(String),
    /// A `GameType` numbering the squares from another corner than 1 = b8 (`N2`).
    OtherNumbering(String),
    BadTag,
    TooLong,
    TooManyMoves,
    UnterminatedComment,
    UnclosedVariation,
    Unexpected,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.color.name();
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
            GameErrorKind::BadStart(e) => write!(f, "bad start position: {e}"),
            GameErrorKind::WrongGameType(t) => write!(
                f,
                "GameType {t:?} is not Russian draughts (GameType \"25\")"
            ),
            GameErrorKind::NumericInAlgebraicGame(t) => write!(
                f,
                "a square number, but GameType {t:?} says the squares are written a1–h8"
            ),
            GameErrorKind::OtherNumbering(t) => write!(
                f,
                "GameType {t:?} numbers the squares from another corner; ccrelay reads numbers with 1 = b8 (N2)"
            ),
            GameErrorKind::BadTag => f.write_str("a malformed tag pair (write [Name \"value\"])"),
            GameErrorKind::TooLong => f.write_str("not a move: too long"),
            GameErrorKind::TooManyMoves => write!(f, "more than {MAX_PLIES} half-moves"),
            GameErrorKind::UnterminatedComment => {
                f.write_str("a comment opened with { is never closed")
            }
            GameErrorKind::UnclosedVariation => {
                f.write_str("a variation opened here is never closed")
            }
            GameErrorKind::Unexpected => f.write_str("unexpected here"),
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

/// Reads draughts games from a byte stream.
pub struct MovetextReader<R> {
    lexer: Lexer<R>,
    default_start: Option<Position>,
    games: u64,
}

impl<R: Read> MovetextReader<R> {
    /// `start`: the position of games without a `FEN` tag (`None`: the initial position).
    pub fn new(src: R, start: Option<Position>) -> MovetextReader<R> {
        MovetextReader {
            lexer: Lexer::new(src),
            default_start: start,
            games: 0,
        }
    }

    /// Reads every game; only I/O errors stop it.
    pub fn read_all<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Totals> {
        let mut totals = Totals::default();
        while let Some((plies, failed)) = self.read_game(visitor)? {
            totals.games += 1;
            totals.moves += u64::from(plies);
            totals.failed += u64::from(failed);
        }
        Ok(totals)
    }

    /// Reads one game: `(plies, failed)`, or `None` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<(u32, bool)>> {
        let start = self.default_start;
        let mut g = GameReader::new(self.games + 1, start.unwrap_or_default());
        loop {
            let (token, line) = self.lexer.next()?;
            match token {
                Token::Eof => {
                    if !g.started && g.tags.is_empty() {
                        return Ok(None);
                    }
                    break;
                }
                Token::Tag(name, value) => {
                    if g.started || g.tags_closed {
                        self.lexer.push_back_tag(name, value);
                        break;
                    }
                    if g.tags.len() < MAX_TAGS {
                        g.tags.push((name, value));
                    }
                }
                Token::BadTag => {
                    g.start(visitor, start, line)?;
                    g.fail(String::new(), GameErrorKind::BadTag, line);
                }
                Token::BlankLine => {
                    if g.started {
                        break;
                    }
                    g.tags_closed = !g.tags.is_empty();
                }
                Token::VariationOpen => {
                    if g.depth == 0 {
                        g.variation_line = line;
                    }
                    g.depth = g.depth.saturating_add(1);
                }
                Token::VariationClose => {
                    if g.depth == 0 {
                        g.start(visitor, start, line)?;
                        g.fail(")".to_owned(), GameErrorKind::Unexpected, line);
                    }
                    g.depth = g.depth.saturating_sub(1);
                }
                Token::Nag | Token::Comment(_) | Token::DrawOffer => {}
                Token::UnterminatedComment => {
                    g.start(visitor, start, line)?;
                    g.fail(String::new(), GameErrorKind::UnterminatedComment, line);
                }
                Token::WordTooLong => {
                    g.start(visitor, start, line)?;
                    if g.depth == 0 {
                        g.fail(String::new(), GameErrorKind::TooLong, line);
                    }
                }
                Token::Word(bytes) => {
                    g.start(visitor, start, line)?;
                    let word = String::from_utf8_lossy(bytes).into_owned();
                    if let Some(result) = result_of(&word) {
                        g.result = Some(result);
                        break;
                    }
                    if g.depth == 0 && g.error.is_none() {
                        g.word(visitor, &word, line)?;
                    }
                }
            }
        }
        if g.depth > 0 {
            let opened = g.variation_line;
            g.fail("(".to_owned(), GameErrorKind::UnclosedVariation, opened);
        }
        if !g.started {
            g.start(visitor, start, self.lexer.line)?;
        }
        self.games += 1;
        visitor.end_game(&GameEnd {
            index: g.index,
            result: g.result,
            error: g.error.as_ref(),
            plies: g.plies,
            game: &g.game,
        })?;
        Ok(Some((g.plies, g.error.is_some())))
    }
}

/// One game being read.
struct GameReader {
    index: u64,
    tags: Vec<(String, String)>,
    tags_closed: bool,
    started: bool,
    game: Game,
    number: u32,
    plies: u32,
    depth: u32,
    variation_line: u64,
    error: Option<GameError>,
    result: Option<&'static str>,
    /// The `GameType` tag says squares are written algebraically (`25,W,8,8,A0,0`).
    algebraic_only: Option<String>,
}

impl GameReader {
    fn new(index: u64, start: Position) -> GameReader {
        GameReader {
            index,
            tags: Vec::new(),
            tags_closed: false,
            started: false,
            game: Game::new(start),
            number: 1,
            plies: 0,
            depth: 0,
            variation_line: 0,
            error: None,
            result: None,
            algebraic_only: None,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn start<V: Visitor>(
        &mut self,
        visitor: &mut V,
        default_start: Option<Position>,
        line: u64,
    ) -> io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        if let Some(kind) = self.tag("GameType").map(str::to_owned) {
            let fields: Vec<&str> = kind.split(',').map(str::trim).collect();
            let notation = fields.get(4).copied().unwrap_or("");
            if fields[0] != "25" {
                self.fail(String::new(), GameErrorKind::WrongGameType(kind), line);
            } else if notation.starts_with(['N', 'n']) && notation.get(1..) != Some("2") {
                self.fail(String::new(), GameErrorKind::OtherNumbering(kind), line);
            } else if notation.starts_with(['A', 'a']) {
                self.algebraic_only = Some(kind);
            }
        }
        let mut start = default_start;
        if let Some(fen) = self.tag("FEN").map(str::to_owned) {
            match setup::parse_any(&fen) {
                Ok(pos) => start = Some(pos),
                Err(e) => self.fail(String::new(), GameErrorKind::BadStart(e.to_string()), line),
            }
        }
        let start_fen = start
            .filter(|p| *p != Position::default())
            .map(|p| setup::write_fen(&p));
        self.game = Game::new(start.unwrap_or_default());
        visitor.begin_game(&GameStart {
            index: self.index,
            tags: &self.tags,
            start: self.game.start(),
            start_fen,
        })
    }

    fn fail(&mut self, token: String, kind: GameErrorKind, line: u64) {
        if self.error.is_some() {
            return;
        }
        self.error = Some(GameError {
            game: self.index,
            line,
            number: self.number,
            color: self.game.position().turn(),
            token,
            kind,
        });
    }

    fn word<V: Visitor>(&mut self, visitor: &mut V, word: &str, line: u64) -> io::Result<()> {
        let original = word;
        let (number, rest) = split_move_number(word);
        let mut word = rest;
        if let Some(MoveNumber {
            number: written,
            black,
        }) = number
        {
            let turn = self.game.position().turn();
            if written != self.number || (black && turn == Color::White) {
                self.fail(
                    printable(original),
                    GameErrorKind::WrongMoveNumber { written, black },
                    line,
                );
                return Ok(());
            }
        }
        if let Some(after) = word.strip_prefix("...").or_else(|| word.strip_prefix('…')) {
            if self.game.position().turn() == Color::White && !after.is_empty() {
                let written = self.number;
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
            word = after;
        }
        if word.is_empty() {
            return Ok(());
        }
        if self.plies >= MAX_PLIES {
            self.fail(printable(word), GameErrorKind::TooManyMoves, line);
            return Ok(());
        }
        let before = *self.game.position();
        if let Some(kind) = &self.algebraic_only
            && matches!(notation::parse(word), Ok(w) if w.form == notation::Form::Numeric)
        {
            let kind = GameErrorKind::NumericInAlgebraicGame(kind.clone());
            self.fail(printable(word), kind, line);
            return Ok(());
        }
        match notation::read(&before, word) {
            Ok(m) => {
                visitor.on_move(&MoveEvent {
                    token: word,
                    before: &before,
                    m,
                    number: self.number,
                })?;
                self.game.play(m);
                self.plies += 1;
                if before.turn() == Color::Black {
                    self.number += 1;
                }
            }
            Err(e) => self.fail(printable(word), GameErrorKind::Move(e), line),
        }
        Ok(())
    }
}

/// Results as written, in PGN's form.
fn result_of(word: &str) -> Option<&'static str> {
    if word.len() > 12 {
        return None;
    }
    let folded: String = word
        .chars()
        .map(|c| {
            if c == ':' {
                c
            } else {
                crate::notation::fold::fold_char(c)
            }
        })
        .collect();
    Some(match folded.as_str() {
        "1-0" | "1:0" | "2-0" | "2:0" => "1-0",
        "0-1" | "0:1" | "0-2" | "0:2" => "0-1",
        "1/2-1/2" | "½-½" | "½:½" | "1-1" | "1:1" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}
