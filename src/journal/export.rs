//! The official record of one game, from the journal: PGN, the ICCF numeric scoresheet, or a
//! readable report of every entry (rejected attempts included).

use std::io::Write;

use rusqlite::Connection;
use shakmaty::Position;

use super::replay::{GameStartDetail, action_of};
use super::{Entry, EntryKind, JournalError, store};
use crate::game::{Action, Game};
use crate::notation::pgn::{LineWriter, write_tags};
use crate::notation::{Iccf, Lang, san};

/// What `journal export` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Pgn,
    Iccf,
    Text,
}

impl std::str::FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<ExportFormat, String> {
        match s {
            "pgn" => Ok(ExportFormat::Pgn),
            "iccf" => Ok(ExportFormat::Iccf),
            "text" => Ok(ExportFormat::Text),
            _ => Err(format!(
                "unknown export format {s:?} (known: pgn, iccf, text)"
            )),
        }
    }
}

/// The event a game belongs to, as the configuration names it.
#[derive(Clone, Debug, Default)]
pub struct EventInfo {
    pub name: String,
    pub site: String,
}

/// Exports `game_id`.
pub fn export(
    conn: &Connection,
    game_id: &str,
    format: ExportFormat,
    event: Option<&EventInfo>,
) -> Result<String, JournalError> {
    // The record is only official if the whole chain holds.
    super::replay::verify(conn)?;
    let mut entries: Vec<Entry> = Vec::new();
    store::for_each_entry(conn, Some(game_id), |e| {
        entries.push(e);
        Ok(())
    })?;
    let Some(start) = entries.first().filter(|e| e.kind == EntryKind::GameStart) else {
        return Err(JournalError::Corrupt(format!(
            "no game {game_id:?} in the journal"
        )));
    };
    let detail: GameStartDetail = serde_json::from_str(&start.detail)
        .map_err(|e| JournalError::Corrupt(format!("game start detail: {e}")))?;
    let mut game = Game::new(game_id, &detail.white, &detail.black, detail.fen.as_deref())
        .map_err(JournalError::Corrupt)?;
    // Replay, remembering each move's SAN and ICCF and whether it carried a draw offer.
    let mut moves: Vec<(String, Iccf, bool)> = Vec::new();
    for e in &entries {
        let Some((color, action)) = action_of(e, &game)? else {
            continue;
        };
        if let Action::Move { m, draw_offer } = action {
            moves.push((
                san::write(game.position(), m, Lang::English),
                Iccf::from_move(m),
                draw_offer,
            ));
        }
        game.apply_by(color, &action);
    }
    let result = game.result().map_or("*", |r| r.pgn());
    let first_number = game.start().fullmoves().get();
    let black_first = game.start().turn() == shakmaty::Color::Black;
    let numbered = |texts: Vec<String>| -> Vec<String> {
        let mut out = Vec::new();
        for (i, text) in texts.into_iter().enumerate() {
            let ply = i + usize::from(black_first);
            let number = first_number as usize + ply / 2;
            if ply % 2 == 0 {
                out.push(format!("{number}. {text}"));
            } else if i == 0 {
                out.push(format!("{number}... {text}"));
            } else {
                out.push(text);
            }
        }
        out
    };
    let date = start
        .time
        .get(..10)
        .unwrap_or("????-??-??")
        .replace('-', ".");
    let event_name = event.map_or_else(
        || detail.event.clone().unwrap_or_else(|| "?".to_owned()),
        |e| e.name.clone(),
    );
    let site = event.map_or_else(|| "?".to_owned(), |e| e.site.clone());

    let mut out: Vec<u8> = Vec::new();
    let io = |e: std::io::Error| JournalError::Io(e.to_string());
    match format {
        ExportFormat::Pgn => {
            let tags: Vec<(String, String)> = [
                ("Event", event_name.as_str()),
                ("Site", site.as_str()),
                ("Date", date.as_str()),
                ("Round", "-"),
                ("White", detail.white.as_str()),
                ("Black", detail.black.as_str()),
                ("Result", result),
            ]
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
            let mut extra = vec![("GameId", game_id)];
            if let Some(fen) = detail.fen.as_deref() {
                extra.push(("SetUp", "1"));
                extra.push(("FEN", fen));
            }
            write_tags(&mut out, &tags, &extra).map_err(io)?;
            out.push(b'\n');
            let texts = moves
                .iter()
                .map(|(s, _, offer)| with_offer(s, *offer, "{(=)}"))
                .collect();
            write_movetext(&mut out, numbered(texts), result).map_err(io)?;
        }
        ExportFormat::Iccf => {
            writeln!(out, "Game {game_id}: {} - {}", detail.white, detail.black).map_err(io)?;
            writeln!(out, "Event: {event_name}\nStarted: {}", start.time).map_err(io)?;
            if let Some(fen) = &detail.fen {
                writeln!(out, "Start position: {fen}").map_err(io)?;
            }
            out.push(b'\n');
            let texts = moves
                .iter()
                .map(|(_, iccf, offer)| with_offer(&iccf.to_string(), *offer, "(=)"))
                .collect();
            write_movetext(&mut out, numbered(texts), result).map_err(io)?;
        }
        ExportFormat::Text => {
            writeln!(
                out,
                "Game {game_id}: {} (White) - {} (Black)",
                detail.white, detail.black
            )
            .map_err(io)?;
            writeln!(out, "Event: {event_name}, {site}").map_err(io)?;
            match game.result() {
                Some(r) => writeln!(out, "Result: {r}").map_err(io)?,
                None => writeln!(
                    out,
                    "Result: in progress, {} to move",
                    crate::game::ColorName(game.turn())
                )
                .map_err(io)?,
            }
            writeln!(out, "Entries: {}\n", entries.len()).map_err(io)?;
            for e in &entries {
                write!(
                    out,
                    "#{:<6} {}  {:<10} {:<6} {:<12} {:?}",
                    e.seq,
                    e.time,
                    e.player,
                    e.channel,
                    e.kind.as_str(),
                    e.text
                )
                .map_err(io)?;
                if let (Some(iccf), Some(san)) = (&e.iccf, &e.san) {
                    write!(out, " = {san} ({iccf})").map_err(io)?;
                }
                if !e.detail.is_empty() && e.kind != EntryKind::GameStart {
                    write!(out, " [{}]", e.detail).map_err(io)?;
                }
                out.push(b'\n');
            }
            writeln!(
                out,
                "\nJournal hash of the last entry: {}",
                hex::encode(entries.last().map_or([0; 32], |e| e.hash))
            )
            .map_err(io)?;
        }
    }
    String::from_utf8(out).map_err(|e| JournalError::Io(e.to_string()))
}

/// Numbered move tokens and the result, wrapped to 80 columns.
fn write_movetext(out: &mut Vec<u8>, tokens: Vec<String>, result: &str) -> std::io::Result<()> {
    let mut lines = LineWriter::default();
    for token in tokens {
        lines.token(out, token.as_bytes())?;
    }
    lines.token(out, result.as_bytes())?;
    lines.finish(out)
}

/// A move, followed by `mark` when it carried a draw offer.
fn with_offer(text: &str, offer: bool, mark: &str) -> String {
    if offer {
        format!("{text} {mark}")
    } else {
        text.to_owned()
    }
}
