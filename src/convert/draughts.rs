//! `ccrelay convert --game draughts-ru`: Russian draughts games in any form read, one form written.
//!
//! ```
//! use ccrelay::convert::draughts::{Format, convert};
//!
//! let mut out = Vec::new();
//! let totals = convert("1. c3-d4 f6-e5 2. d4:f6 g7:e5".as_bytes(), &mut out, &mut Vec::new(), Format::Num, None).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "1. 22-18 11-15 2. 18x11 8x15\n");
//! assert_eq!(totals.failed, 0);
//! ```

use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;

use serde::Serialize;

use crate::draughts::Position;
use crate::draughts::board::{Color, squares_of};
use crate::draughts::movetext::{GameEnd, GameStart, MoveEvent, MovetextReader, Totals, Visitor};
use crate::draughts::notation::{Form, write_algebraic, write_numeric, write_path};
use crate::notation::pgn::{LineWriter, write_tags};

/// What `convert --game draughts-ru` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Numbered algebraic movetext, seed 003's form: `1. c3-d4 f6-e5`, `g1:a7`.
    Alg,
    /// Numbered numeric movetext, every landing square: `1. 22-18 11-15`, `22x15x24`.
    Num,
    /// PDN games, `GameType "25"`, numeric moves.
    Pdn,
    /// One JSON object per game, every move in every form.
    Json,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "alg" | "algebraic" => Format::Alg,
            "num" | "numeric" => Format::Num,
            "pdn" => Format::Pdn,
            "json" => Format::Json,
            _ => {
                return Err(format!(
                    "unknown draughts format {s:?} (known: alg, num, pdn, json)"
                ));
            }
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Alg => "alg",
            Format::Num => "num",
            Format::Pdn => "pdn",
            Format::Json => "json",
        })
    }
}

/// Converts every game of `input` to `out`; reports each bad game on `err` and goes on (the
/// moves before the error are written). Only an I/O error stops it.
pub fn convert<R: Read, W: Write, E: Write>(
    input: R,
    out: W,
    err: E,
    to: Format,
    start: Option<Position>,
) -> io::Result<Totals> {
    let mut sink = Sink {
        format: to,
        out,
        err,
        lines: LineWriter::default(),
        games: 0,
        moves_in_game: 0,
        tags: Vec::new(),
        body: Vec::new(),
        json_moves: Vec::new(),
        start_fen: None,
    };
    let totals = MovetextReader::new(input, start).read_all(&mut sink)?;
    sink.out.flush()?;
    sink.err.flush()?;
    Ok(totals)
}

/// One move in every form, as `--to json` writes it.
#[derive(Serialize)]
struct JsonMove {
    number: u32,
    side: &'static str,
    written: String,
    alg: String,
    path: String,
    num: String,
    captures: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    crowns: bool,
}

#[derive(Serialize)]
struct JsonGame<'a> {
    game: u64,
    tags: serde_json::Map<String, serde_json::Value>,
    start: Option<&'a str>,
    moves: &'a [JsonMove],
    result: Option<&'a str>,
    error: Option<String>,
}

struct Sink<W, E> {
    format: Format,
    out: W,
    err: E,
    lines: LineWriter,
    games: u64,
    moves_in_game: u32,
    /// `--to pdn`: the game's tags and movetext, until its end (a game is bounded by
    /// [`crate::draughts::movetext::MAX_PLIES`]).
    tags: Vec<(String, String)>,
    body: Vec<u8>,
    json_moves: Vec<JsonMove>,
    start_fen: Option<String>,
}

impl<W: Write, E: Write> Visitor for Sink<W, E> {
    fn begin_game(&mut self, game: &GameStart<'_>) -> io::Result<()> {
        self.moves_in_game = 0;
        self.lines = LineWriter::default();
        self.body.clear();
        self.json_moves.clear();
        self.tags = game.tags.to_vec();
        self.start_fen = game.start_fen.clone();
        if matches!(self.format, Format::Alg | Format::Num) && self.games > 0 {
            self.out.write_all(b"\n")?;
        }
        self.games += 1;
        Ok(())
    }

    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()> {
        self.moves_in_game += 1;
        let white = mv.color() == Color::White;
        if self.format == Format::Json {
            self.json_moves.push(JsonMove {
                number: mv.number,
                side: if white { "white" } else { "black" },
                written: mv.token.to_owned(),
                alg: write_algebraic(mv.before, &mv.m),
                path: write_path(&mv.m, Form::Algebraic),
                num: write_numeric(&mv.m),
                captures: squares_of(mv.m.captured()).map(|s| s.to_string()).collect(),
                crowns: mv.m.crowns(),
            });
            return Ok(());
        }
        let mut token = String::new();
        if white || self.moves_in_game == 1 {
            token.push_str(&mv.number.to_string());
            token.push_str(if white { ". " } else { "... " });
        }
        match self.format {
            Format::Alg => token.push_str(&write_algebraic(mv.before, &mv.m)),
            _ => token.push_str(&write_numeric(&mv.m)),
        }
        if self.format == Format::Pdn {
            self.lines.token(&mut self.body, token.as_bytes())
        } else {
            self.lines.token(&mut self.out, token.as_bytes())
        }
    }

    fn end_game(&mut self, end: &GameEnd<'_>) -> io::Result<()> {
        let tagged = self
            .tags
            .iter()
            .find(|(n, _)| n == "Result")
            .map(|(_, v)| v.as_str());
        match self.format {
            Format::Alg | Format::Num => {
                let result = end.result.or((self.moves_in_game == 0).then_some("*"));
                if let Some(result) = result {
                    self.lines.token(&mut self.out, result.as_bytes())?;
                }
                self.lines.finish(&mut self.out)?;
            }
            Format::Pdn => {
                let result = end.result.or(tagged).unwrap_or("*").to_owned();
                let mut tags = std::mem::take(&mut self.tags);
                tags.retain(|(n, _)| {
                    !matches!(n.as_str(), "Result" | "GameType" | "FEN" | "SetUp")
                });
                tags.push(("Result".to_owned(), result.clone()));
                tags.push(("GameType".to_owned(), "25".to_owned()));
                if let Some(fen) = &self.start_fen {
                    tags.push(("FEN".to_owned(), fen.clone()));
                }
                if self.games > 1 {
                    self.out.write_all(b"\n")?;
                }
                write_tags(&mut self.out, &tags, &[])?;
                self.out.write_all(b"\n")?;
                self.lines.token(&mut self.body, result.as_bytes())?;
                self.lines.finish(&mut self.body)?;
                self.out.write_all(&self.body)?;
            }
            Format::Json => {
                let game = JsonGame {
                    game: end.index,
                    tags: self
                        .tags
                        .iter()
                        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                        .collect(),
                    start: self.start_fen.as_deref(),
                    moves: &self.json_moves,
                    result: end.result,
                    error: end.error.map(ToString::to_string),
                };
                serde_json::to_writer(&mut self.out, &game)?;
                self.out.write_all(b"\n")?;
            }
        }
        if let Some(error) = end.error {
            writeln!(self.err, "ccrelay: {error}")?;
        }
        Ok(())
    }
}
