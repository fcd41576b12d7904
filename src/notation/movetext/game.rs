//! One game being read: its tags, its start, its words one by one, its first error.

use std::io;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use super::error::{GameError, GameErrorKind};
use super::fork::{Fork, Outcome};
use super::{GameStart, MAX_PLIES, MoveEvent, Visitor, parse_position, printable};
use crate::notation::number::{MoveNumber, split_move_number};
use crate::notation::reader::{ReadIn, ReadMoveError, Reader};
use crate::notation::written::{Marks, Written};

/// One game being read.
pub(super) struct Game {
    pub(super) index: u64,
    pub(super) tags: Vec<(String, String)>,
    /// A blank line followed the tags: the next tag begins another game.
    pub(super) tags_closed: bool,
    pub(super) started: bool,
    reader: Reader,
    /// The position after the last move handed to the visitor.
    pub(super) pos: Chess,
    /// The moves handed to the visitor.
    pub(super) plies: u32,
    pub(super) depth: u32,
    /// Where the outermost open variation began.
    pub(super) variation_line: u64,
    pub(super) error: Option<GameError>,
    pub(super) result: Option<&'static str>,
    pub(super) continues: bool,
    /// The last word was a move number (`12.`), so a `...` after it is a placeholder.
    after_number: bool,
    /// The readings of a move whose language the game has not settled yet, read on until
    /// the game's later moves decide between them (see [`super::fork`]).
    fork: Option<Box<Fork>>,
}

impl Game {
    pub(super) fn new(index: u64, reader: Reader) -> Game {
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
            fork: None,
        }
    }

    /// The position the next move is played in (in every reading of an undecided move).
    fn now(&self) -> &Chess {
        self.fork.as_ref().map_or(&self.pos, |fork| fork.pos())
    }

    pub(super) fn has_content(&self) -> bool {
        self.started || !self.tags.is_empty()
    }

    /// Still reading moves: no error, no "and so on".
    pub(super) fn reading(&self) -> bool {
        self.error.is_none() && !self.continues
    }

    /// Sets up the start position once the tags are complete and tells the visitor.
    pub(super) fn start<V: Visitor>(
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

    /// Records the game's first error; later ones follow from it and are not reported. (An
    /// undecided move before it may still fail the game earlier: see [`Game::settle`].)
    pub(super) fn fail(&mut self, token: String, kind: GameErrorKind, line: u64) {
        if self.error.is_some() {
            return;
        }
        self.error = Some(GameError {
            game: self.index,
            line,
            number: self.now().fullmoves().get(),
            color: self.now().turn(),
            token,
            kind,
        });
    }

    /// The game's text has ended (or broke off): a move still undecided is settled now, or
    /// fails the game (before any error after it).
    pub(super) fn settle<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        let Some(fork) = self.fork.take() else {
            return Ok(());
        };
        let concluded = fork.conclude(visitor)?;
        if let Some((reader, pos, plies)) = concluded.going_on {
            self.reader = reader;
            self.pos = pos;
            self.plies += plies;
        }
        if let Some(error) = concluded.error {
            self.error = Some(error);
        }
        Ok(())
    }

    /// What the lookahead came to after a word.
    fn went<V: Visitor>(&mut self, visitor: &mut V, outcome: Outcome) -> io::Result<()> {
        match outcome {
            Outcome::Open => Ok(()),
            Outcome::Done => self.settle(visitor),
        }
    }

    pub(super) fn marks<V: Visitor>(
        &mut self,
        visitor: &mut V,
        marks: Marks,
        token: &str,
        line: u64,
    ) -> io::Result<()> {
        if !self.reading() {
            return Ok(());
        }
        if let Some(fork) = &mut self.fork {
            let outcome = fork.marks(marks);
            return self.went(visitor, outcome);
        }
        if self.plies == 0 {
            self.fail(printable(token), GameErrorKind::MarksWithoutMove, line);
            return Ok(());
        }
        visitor.on_marks(&marks)
    }

    pub(super) fn word<V: Visitor>(
        &mut self,
        visitor: &mut V,
        word: &str,
        line: u64,
    ) -> io::Result<()> {
        let after_number = std::mem::take(&mut self.after_number);
        let (number, rest) = split_move_number(word);
        let mut word = if let Some(MoveNumber {
            number: written,
            black,
        }) = number
        {
            let expected = self.now().fullmoves().get();
            if written != expected || (black && self.now().turn() == Color::White) {
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
            if self.now().turn() == Color::White {
                let written = self.now().fullmoves().get();
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
        let plies = self.plies + self.fork.as_ref().map_or(0, |fork| fork.plies());
        if plies >= MAX_PLIES {
            self.fail(printable(word), GameErrorKind::TooManyMoves, line);
            return Ok(());
        }
        if let Some(fork) = &mut self.fork {
            let outcome = fork.read(word, line);
            return self.went(visitor, outcome);
        }
        let read_in = self.reader.read_in();
        match self.reader.read(&self.pos, word) {
            Ok(read) => {
                // English first, but another language the game may be in reads it otherwise:
                // the game's later moves may show it is not English.
                if let ReadIn::AnyOf(possible) = read_in
                    && let Some(fork) =
                        Fork::contest(&self.pos, possible, word, &read, |ambiguity| {
                            self.at(word, line, ReadMoveError::Ambiguous(ambiguity))
                        })
                {
                    self.fork = Some(fork);
                    return Ok(());
                }
                visitor.on_move(&MoveEvent {
                    token: word,
                    before: &self.pos,
                    m: read.m,
                    marks: &read.marks,
                })?;
                self.pos.play_unchecked(read.m);
                self.plies += 1;
            }
            Err(e @ ReadMoveError::Ambiguous(_)) => {
                // Without a language, the game's later moves may say which reading it is.
                let at = self.at(word, line, e);
                let marks = Written::parse(word).map(|w| w.marks).unwrap_or_default();
                match Fork::open(&self.pos, &self.reader, word, marks, at) {
                    Ok(fork) => self.fork = Some(fork),
                    Err(at) => self.error = Some(at),
                }
            }
            Err(e) => self.fail(printable(word), GameErrorKind::Move(e), line),
        }
        Ok(())
    }
}

impl Game {
    /// An error at `word`, on `line`, in the position now.
    fn at(&self, word: &str, line: u64, error: ReadMoveError) -> GameError {
        GameError {
            game: self.index,
            line,
            number: self.now().fullmoves().get(),
            color: self.now().turn(),
            token: printable(word),
            kind: GameErrorKind::Move(error),
        }
    }
}

/// A cheap test that keeps [`Marks::parse`] off the hot path of ordinary moves.
fn may_be_marks(word: &str) -> bool {
    word.starts_with(['+', '#', '!', '?', '(', '‡', '='])
        || ((word.starts_with('e') || word.starts_with('е'))
            && !word.contains(|c: char| c.is_ascii_digit()))
}
