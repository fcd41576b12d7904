//! Looking ahead when a move's language is not settled yet.
//!
//! Without `--lang`, a game's language settles as its moves are read ([`Reader`]); but a game
//! may write its first ambiguous letter before any move that settles it: in `1. e4 e5 2. Hf3`
//! the `H` is a Polish queen or a Hungarian knight, and only `2... Hc6` (no Polish queen gets
//! there) says the game is Hungarian. A whole game is at hand, so its later moves decide: the
//! game is read on in each language the move is a move in, one *branch* per reading, and a
//! branch stops at the first word it cannot read.
//!
//! - A move more than one language reads, each as another move, opens a fork of equals: when
//!   one branch is left, its moves are the game's; when none is left, or more than one reads
//!   on to the end of the game, the move is refused, naming its readings and where each
//!   stopped.
//! - A move English reads, which another language still possible reads as another move
//!   (`Кd2` in a Russian game: an English king and a Russian knight can both get there),
//!   opens a fork that leans to English, as the reader does: the other reading is the game's
//!   only if it alone reads on to the end while the English one stops. Otherwise the English
//!   reading stands, its first error with it, exactly as without looking ahead.
//!
//! Branches never share a language (each keeps the languages that read the move its way), so
//! there are at most as many as languages; the words read meanwhile are kept once, and each
//! branch keeps only its moves, so a game of [`MAX_PLIES`] half-moves stays within a few
//! hundred kilobytes per branch.

use std::io;

use shakmaty::{Chess, Move, Position};

use super::error::{GameError, GameErrorKind, Stop, Undecided};
use super::{MAX_PLIES, MoveEvent, Visitor, printable};
use crate::notation::reader::{
    AmbiguousMove, ReadIn, ReadMove, ReadMoveError, Reader, Reading, readings_in,
};
use crate::notation::written::{Marks, Written};
use crate::notation::{Lang, LangSet, san};

/// The most words kept while a move is undecided: every half-move of a game, with room for a
/// mark written apart after each. A longer text ends the lookahead as the game's end would.
const MAX_WORDS: usize = 2 * MAX_PLIES as usize;

/// A word read while a move is undecided, the same in every branch.
enum Word {
    /// A move, as written, with its marks (read from its syntax, so the same in every branch).
    Move { token: String, marks: Marks },
    /// Marks written apart from the move before them.
    Marks(Marks),
}

/// One reading of the undecided move, and the game read on from it.
struct Branch {
    reader: Reader,
    /// The position after its last move.
    pos: Chess,
    /// Its moves, one per [`Word::Move`] read since the fork.
    moves: Vec<Move>,
    /// The languages that read the undecided move this branch's way.
    langs: LangSet,
    /// The English reading of a fork that leans to English.
    preferred: bool,
}

impl Branch {
    fn new(pos: &Chess, m: Move, langs: LangSet, preferred: bool) -> Branch {
        let mut after = pos.clone();
        after.play_unchecked(m);
        Branch {
            reader: Reader::in_langs(ReadIn::AnyOf(langs)),
            pos: after,
            moves: vec![m],
            langs,
            preferred,
        }
    }
}

/// What the lookahead came to after a word.
pub(super) enum Outcome {
    /// Still undecided: read on.
    Open,
    /// Nothing more to look at: [`Fork::conclude`] says what the game goes on with.
    Done,
}

/// What a fork came to.
pub(super) struct Concluded {
    /// The reading the game goes on with, its moves handed to the visitor: its reader,
    /// position and number of half-moves (none when nothing decided).
    pub(super) going_on: Option<(Reader, Chess, u32)>,
    /// The game's error: where the reading stopped, or the undecided move.
    pub(super) error: Option<GameError>,
}

/// The readings of an undecided move, read on side by side.
pub(super) struct Fork {
    /// The position the undecided move is played in.
    start: Chess,
    /// The undecided move, where it is and how it reads.
    at: GameError,
    ambiguity: AmbiguousMove,
    words: Vec<Word>,
    branches: Vec<Branch>,
    stops: Vec<Stop>,
    /// The English reading of a fork that leans to English, once it stopped, with its error.
    fallen: Option<(Branch, GameError)>,
}

/// The branches an ambiguous token opens in `pos`: one per move some languages the reader
/// allows read it as, and no other; none unless there are two or more, or if the reader has a
/// language of its own (a given language is not looked past).
fn branches(pos: &Chess, reader: &Reader, ambiguity: &AmbiguousMove) -> Vec<Branch> {
    if !matches!(reader.read_in(), ReadIn::AnyOf(_)) {
        return Vec::new();
    }
    let readings = ambiguity.by_language();
    if readings.len() < 2 {
        return Vec::new();
    }
    readings
        .into_iter()
        .map(|(m, langs)| Branch::new(pos, m, langs, false))
        .collect()
}

impl Fork {
    /// A fork at `token`, ambiguous in `pos` as `at` says, if more than one language reads it
    /// as a move of its own; if not, `at` is the game's error.
    pub(super) fn open(
        pos: &Chess,
        reader: &Reader,
        token: &str,
        marks: Marks,
        at: GameError,
    ) -> Result<Box<Fork>, GameError> {
        let GameErrorKind::Move(ReadMoveError::Ambiguous(ambiguity)) = &at.kind else {
            return Err(at);
        };
        let branches = branches(pos, reader, ambiguity);
        if branches.is_empty() {
            return Err(at);
        }
        Ok(Fork::new(
            pos,
            token,
            marks,
            ambiguity.clone(),
            at,
            branches,
        ))
    }

    /// A fork that leans to English, if `read` (the English reading of `token` in `pos`, by
    /// a reader that allowed `possible`) is read otherwise by some other language still
    /// possible; `at` places the token in the game.
    pub(super) fn contest(
        pos: &Chess,
        possible: LangSet,
        token: &str,
        read: &ReadMove,
        at: impl FnOnce(AmbiguousMove) -> GameError,
    ) -> Option<Box<Fork>> {
        let english = Lang::English;
        let others = possible.difference(read.langs);
        if !read.langs.contains(english) || !possible.contains(english) || others.is_empty() {
            return None;
        }
        let rivals: Vec<(Move, LangSet)> = readings_in(pos, token, others)
            .into_iter()
            .filter(|(m, _)| *m != read.m)
            .collect();
        if rivals.is_empty() {
            return None;
        }
        let mine = possible.intersection(read.langs);
        let mut branches = vec![Branch::new(pos, read.m, mine, true)];
        branches.extend(
            rivals
                .iter()
                .map(|&(m, langs)| Branch::new(pos, m, langs, false)),
        );
        let readings = std::iter::once((read.m, mine))
            .chain(rivals)
            .map(|(m, langs)| Reading {
                text: san::write(pos, m, english),
                m,
                langs,
            })
            .collect();
        let ambiguity = AmbiguousMove {
            readings,
            promotion_missing: false,
        };
        let at = at(ambiguity.clone());
        Some(Fork::new(
            pos,
            token,
            read.marks.clone(),
            ambiguity,
            at,
            branches,
        ))
    }

    fn new(
        pos: &Chess,
        token: &str,
        marks: Marks,
        ambiguity: AmbiguousMove,
        at: GameError,
        branches: Vec<Branch>,
    ) -> Box<Fork> {
        Box::new(Fork {
            start: pos.clone(),
            at,
            ambiguity,
            words: vec![Word::Move {
                token: token.to_owned(),
                marks,
            }],
            branches,
            stops: Vec::new(),
            fallen: None,
        })
    }

    /// The position now (the same side to move and move number in every branch).
    pub(super) fn pos(&self) -> &Chess {
        self.branches
            .first()
            .map_or(&self.start, |branch| &branch.pos)
    }

    /// Half-moves read since the fork.
    pub(super) fn plies(&self) -> u32 {
        self.branches
            .first()
            .map_or(0, |b| u32::try_from(b.moves.len()).unwrap_or(u32::MAX))
    }

    /// Reads `token`, on input line `line`, in every branch.
    pub(super) fn read(&mut self, token: &str, line: u64) -> Outcome {
        if self.words.len() >= MAX_WORDS {
            return Outcome::Done;
        }
        let mut marks = None;
        let mut going = Vec::with_capacity(self.branches.len());
        for mut branch in std::mem::take(&mut self.branches) {
            match branch.reader.read(&branch.pos, token) {
                Ok(read) => {
                    branch.pos.play_unchecked(read.m);
                    branch.moves.push(read.m);
                    marks.get_or_insert(read.marks);
                    going.push(branch);
                }
                Err(ReadMoveError::Ambiguous(ambiguity)) => {
                    let split = branches(&branch.pos, &branch.reader, &ambiguity);
                    if split.is_empty() {
                        self.stop(branch, token, line, ReadMoveError::Ambiguous(ambiguity));
                        continue;
                    }
                    marks.get_or_insert_with(|| {
                        Written::parse(token).map(|w| w.marks).unwrap_or_default()
                    });
                    for mut sub in split {
                        let mut moves = Vec::with_capacity(branch.moves.len() + 1);
                        moves.extend_from_slice(&branch.moves);
                        moves.extend_from_slice(&sub.moves);
                        sub.moves = moves;
                        going.push(sub);
                    }
                }
                Err(error) => self.stop(branch, token, line, error),
            }
        }
        self.branches = going;
        if let Some(marks) = marks {
            self.words.push(Word::Move {
                token: token.to_owned(),
                marks,
            });
        }
        match self.branches.as_slice() {
            [] => Outcome::Done,
            // One reading left: the game's, unless it is the other reading of a fork that
            // leans to English, which must read on to the end while the English one stopped.
            [one] if one.preferred || self.fallen.is_none() => Outcome::Done,
            _ => Outcome::Open,
        }
    }

    /// Marks written apart from the last move, kept for the reading that wins.
    pub(super) fn marks(&mut self, marks: Marks) -> Outcome {
        if self.words.len() >= MAX_WORDS {
            return Outcome::Done;
        }
        self.words.push(Word::Marks(marks));
        Outcome::Open
    }

    /// Notes where `branch` stopped: at `token` on `line`, in its position now.
    fn stop(&mut self, branch: Branch, token: &str, line: u64, error: ReadMoveError) {
        self.stops.push(Stop {
            langs: branch.langs,
            number: branch.pos.fullmoves().get(),
            color: branch.pos.turn(),
            token: printable(token),
            error: error.clone(),
        });
        if branch.preferred {
            let stopped = GameError {
                line,
                number: branch.pos.fullmoves().get(),
                color: branch.pos.turn(),
                token: printable(token),
                kind: GameErrorKind::Move(error),
                ..self.at.clone()
            };
            self.fallen = Some((branch, stopped));
        }
    }

    /// The error the game fails with when nothing decides: the undecided move, its readings,
    /// and what became of each.
    fn undecided(&self) -> GameError {
        let going_on = self
            .branches
            .iter()
            .fold(LangSet::EMPTY, |acc, b| acc.union(b.langs));
        GameError {
            kind: GameErrorKind::Undecided(Box::new(Undecided {
                ambiguity: self.ambiguity.clone(),
                going_on,
                stops: self.stops.clone(),
            })),
            ..self.at.clone()
        }
    }

    /// Settles the fork now (its text has ended, or a word said it is decided): the English
    /// reading of a fork that leans to English while it reads on, else the one reading left,
    /// else the English reading that stopped; failing all, the undecided move. The reading
    /// chosen has its moves and marks handed to `visitor` in the order they were written.
    pub(super) fn conclude<V: Visitor>(mut self, visitor: &mut V) -> io::Result<Concluded> {
        let preferred = self.branches.iter().position(|b| b.preferred);
        let (branch, error) = match (preferred, self.branches.len(), self.fallen.take()) {
            (Some(i), _, _) => (self.branches.swap_remove(i), None),
            (None, 1, _) => (self.branches.swap_remove(0), None),
            (None, _, Some((branch, error))) => (branch, Some(error)),
            (None, _, None) => {
                return Ok(Concluded {
                    going_on: None,
                    error: Some(self.undecided()),
                });
            }
        };
        let mut pos = self.start;
        let mut moves = branch.moves.iter();
        for word in &self.words {
            match word {
                Word::Move { token, marks } => {
                    let Some(&m) = moves.next() else { break };
                    visitor.on_move(&MoveEvent {
                        token,
                        before: &pos,
                        m,
                        marks,
                    })?;
                    pos.play_unchecked(m);
                }
                Word::Marks(marks) => visitor.on_marks(marks)?,
            }
        }
        let plies = u32::try_from(branch.moves.len()).unwrap_or(u32::MAX);
        Ok(Concluded {
            going_on: Some((branch.reader, branch.pos, plies)),
            error,
        })
    }
}
