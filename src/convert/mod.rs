//! `ccrelay convert`: any notation in, one notation out, game by game.
//!
//! ```
//! use ccrelay::convert::{Format, Options, convert};
//!
//! let mut out = Vec::new();
//! let mut err = Vec::new();
//! let options = Options { to: Format::Iccf, lang: None, start: None };
//! let totals = convert("1. e4 e5 2. Nf3 Nc6".as_bytes(), &mut out, &mut err, &options).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "1. 5254 5755 2. 7163 2836\n");
//! assert_eq!(totals.failed, 0);
//! ```

pub mod draughts;

use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, Position};

use crate::notation::movetext::{GameEnd, GameStart, MoveEvent, MovetextReader, Totals, Visitor};
use crate::notation::pgn::{LineWriter, write_tags};
use crate::notation::written::Marks;
use crate::notation::{Iccf, Lang, lan, san, uci};

/// What `convert` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Numbered ICCF numeric movetext: `1. 5254 5755`.
    Iccf,
    /// Numbered SAN in the chosen language: `1. e4 e5`, `1. e4 e5 2. Кf3`.
    San,
    /// Numbered long algebraic: `1. e2-e4 e7-e5`, `1. e2—e4 e7—e5`.
    Lan,
    /// One line per game, its moves in UCI separated by spaces.
    Uci,
    /// Whole PGN games: tags kept, SAN in the chosen language.
    Pgn,
    /// One JSON object per line per game, every move in every notation.
    Json,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "iccf" | "numeric" => Format::Iccf,
            "san" => Format::San,
            "lan" => Format::Lan,
            "uci" => Format::Uci,
            "pgn" => Format::Pgn,
            "json" => Format::Json,
            _ => {
                return Err(format!(
                    "unknown format {s:?} (known: iccf, san, lan, uci, pgn, json)"
                ));
            }
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Iccf => "iccf",
            Format::San => "san",
            Format::Lan => "lan",
            Format::Uci => "uci",
            Format::Pgn => "pgn",
            Format::Json => "json",
        })
    }
}

/// How to convert.
#[derive(Clone, Debug)]
pub struct Options {
    pub to: Format,
    /// The language moves are read in, and SAN/LAN written in (`None`: read any, English
    /// first; write English).
    pub lang: Option<Lang>,
    /// The start position of games without a `FEN` tag.
    pub start: Option<Fen>,
}

/// Converts every game of `input` to `out`; reports each bad game on `err` and goes on.
/// Only an I/O error stops it.
pub fn convert<R: Read, W: Write, E: Write>(
    input: R,
    out: W,
    err: E,
    options: &Options,
) -> io::Result<Totals> {
    let mut sink = Sink {
        format: options.to,
        lang: options.lang.unwrap_or(Lang::English),
        out,
        err,
        lines: LineWriter::default(),
        scratch: Vec::with_capacity(64),
        moves_in_game: 0,
        games: 0,
        pending: None,
        pgn_tags: Vec::new(),
        pgn_moves: Vec::new(),
        json_moves_written: 0,
    };
    let mut reader = MovetextReader::new(input, options.lang, options.start.clone());
    let totals = reader.read_all(&mut sink)?;
    sink.out.flush()?;
    sink.err.flush()?;
    Ok(totals)
}

/// One move in every notation, as `--to json` writes it.
#[derive(Serialize)]
struct JsonMove {
    number: u32,
    side: &'static str,
    written: String,
    iccf: String,
    uci: String,
    san: String,
    lan: String,
    figurine: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    draw_offer: bool,
}

struct Sink<W, E> {
    format: Format,
    lang: Lang,
    out: W,
    err: E,
    lines: LineWriter,
    scratch: Vec<u8>,
    moves_in_game: u32,
    games: u64,
    /// `--to json`: the last move, held back until no more marks can follow it.
    pending: Option<JsonMove>,
    /// `--to pgn`: the game's tags and movetext, until its end.
    pgn_tags: Vec<(String, String)>,
    pgn_moves: Vec<u8>,
    json_moves_written: u32,
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl<W: Write, E: Write> Sink<W, E> {
    fn flush_pending_json(&mut self) -> io::Result<()> {
        if let Some(m) = self.pending.take() {
            if self.json_moves_written > 0 {
                self.out.write_all(b",")?;
            }
            self.json_moves_written += 1;
            serde_json::to_writer(&mut self.out, &m)?;
        }
        Ok(())
    }

    /// Writes `scratch` as one token: to the output, or for PGN to the game's buffer.
    fn emit_scratch(&mut self) -> io::Result<()> {
        if self.format == Format::Pgn {
            self.lines.token(&mut self.pgn_moves, &self.scratch)
        } else {
            self.lines.token(&mut self.out, &self.scratch)
        }
    }

    /// Appends the move's text in the numbered formats to `scratch`.
    fn append_move(&mut self, pos: &Chess, mv: &MoveEvent<'_>) {
        match self.format {
            Format::Iccf => Iccf::from_move(mv.m).append_to(&mut self.scratch),
            Format::Lan => self
                .scratch
                .extend_from_slice(lan::write(pos, mv.m, self.lang).as_bytes()),
            _ => self
                .scratch
                .extend_from_slice(san::write(pos, mv.m, self.lang).as_bytes()),
        }
    }
}

impl<W: Write, E: Write> Visitor for Sink<W, E> {
    fn begin_game(&mut self, game: &GameStart<'_>) -> io::Result<()> {
        self.moves_in_game = 0;
        self.json_moves_written = 0;
        self.lines = LineWriter::default();
        match self.format {
            Format::Uci => {}
            Format::Iccf | Format::San | Format::Lan => {
                if self.games > 0 {
                    self.out.write_all(b"\n")?;
                }
            }
            Format::Pgn => {
                // The tags wait for the game's end, whose result the Result tag must agree
                // with; a game is at most MAX_PLIES half-moves, so the buffer is bounded.
                self.pgn_tags = game.tags.to_vec();
                if let Some(fen) = game.start_fen {
                    self.pgn_tags
                        .retain(|(name, _)| name != "FEN" && name != "SetUp");
                    self.pgn_tags.push(("SetUp".to_owned(), "1".to_owned()));
                    self.pgn_tags.push(("FEN".to_owned(), fen.to_owned()));
                }
                self.pgn_moves.clear();
            }
            Format::Json => {
                self.out.write_all(b"{\"game\":")?;
                serde_json::to_writer(&mut self.out, &game.index)?;
                self.out.write_all(b",\"tags\":")?;
                let tags: serde_json::Map<String, serde_json::Value> = game
                    .tags
                    .iter()
                    .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                    .collect();
                serde_json::to_writer(&mut self.out, &tags)?;
                self.out.write_all(b",\"start\":")?;
                serde_json::to_writer(&mut self.out, &game.start_fen)?;
                self.out.write_all(b",\"lang\":")?;
                serde_json::to_writer(&mut self.out, self.lang.code())?;
                self.out.write_all(b",\"moves\":[")?;
            }
        }
        self.games += 1;
        Ok(())
    }

    fn on_move(&mut self, mv: &MoveEvent<'_>) -> io::Result<()> {
        self.moves_in_game += 1;
        let pos = mv.before;
        match self.format {
            Format::Uci => {
                self.scratch.clear();
                if self.moves_in_game > 1 {
                    self.scratch.push(b' ');
                }
                uci::append_to(mv.m, &mut self.scratch);
                self.out.write_all(&self.scratch)?;
            }
            Format::Iccf | Format::San | Format::Lan | Format::Pgn => {
                // The number and its move stay on one line: `7. 1423`.
                self.scratch.clear();
                if mv.color() == Color::White || self.moves_in_game == 1 {
                    let dots: &[u8] = if mv.color() == Color::White {
                        b". "
                    } else {
                        b"... "
                    };
                    write!(self.scratch, "{}", mv.number())?;
                    self.scratch.extend_from_slice(dots);
                }
                self.append_move(pos, mv);
                self.emit_scratch()?;
                if mv.marks.draw_offer {
                    self.on_marks(mv.marks)?;
                }
            }
            Format::Json => {
                self.flush_pending_json()?;
                self.pending = Some(JsonMove {
                    number: mv.number(),
                    side: side_name(mv.color()),
                    written: mv.token.to_owned(),
                    iccf: Iccf::from_move(mv.m).to_string(),
                    uci: uci::write(mv.m),
                    san: san::write(pos, mv.m, self.lang),
                    lan: lan::write(pos, mv.m, self.lang),
                    figurine: san::write(pos, mv.m, Lang::Figurine),
                    draw_offer: mv.marks.draw_offer,
                });
            }
        }
        Ok(())
    }

    fn on_marks(&mut self, marks: &Marks) -> io::Result<()> {
        if !marks.draw_offer {
            return Ok(());
        }
        match self.format {
            Format::Iccf | Format::San | Format::Lan => self.lines.token(&mut self.out, b"(=)"),
            Format::Pgn => self.lines.token(&mut self.pgn_moves, b"{(=)}"),
            Format::Json => {
                if let Some(pending) = &mut self.pending {
                    pending.draw_offer = true;
                }
                Ok(())
            }
            Format::Uci => Ok(()),
        }
    }

    fn end_game(&mut self, end: &GameEnd<'_>) -> io::Result<()> {
        match self.format {
            Format::Uci => self.out.write_all(b"\n")?,
            Format::Iccf | Format::San | Format::Lan => {
                // Every game gets its paragraph, even one with no move to show.
                let result = end.result.or((self.moves_in_game == 0).then_some("*"));
                if let Some(result) = result {
                    self.lines.token(&mut self.out, result.as_bytes())?;
                }
                self.lines.finish(&mut self.out)?;
            }
            Format::Pgn => {
                let tagged = self
                    .pgn_tags
                    .iter()
                    .find(|(n, _)| n == "Result")
                    .map(|(_, v)| v.as_str());
                let result = end.result.or(tagged).unwrap_or("*").to_owned();
                self.pgn_tags.retain(|(n, _)| n != "Result");
                self.pgn_tags.push(("Result".to_owned(), result.clone()));
                if self.games > 1 {
                    self.out.write_all(b"\n")?;
                }
                write_tags(&mut self.out, &self.pgn_tags, &[])?;
                self.out.write_all(b"\n")?;
                self.lines.token(&mut self.pgn_moves, result.as_bytes())?;
                self.lines.finish(&mut self.pgn_moves)?;
                self.out.write_all(&self.pgn_moves)?;
            }
            Format::Json => {
                self.flush_pending_json()?;
                self.out.write_all(b"],\"result\":")?;
                serde_json::to_writer(&mut self.out, &end.result)?;
                self.out.write_all(b",\"continues\":")?;
                serde_json::to_writer(&mut self.out, &end.continues)?;
                self.out.write_all(b",\"error\":")?;
                serde_json::to_writer(&mut self.out, &end.error.map(ToString::to_string))?;
                self.out.write_all(b"}\n")?;
            }
        }
        if let Some(error) = end.error {
            writeln!(self.err, "ccrelay: {error}")?;
        } else if end.continues {
            writeln!(
                self.err,
                "ccrelay: note: game {}: the text says the game goes on after move {}; the rest of its paragraph was skipped",
                end.index,
                end.last.fullmoves()
            )?;
        }
        Ok(())
    }
}
