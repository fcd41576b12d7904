//! An event's crosstable from the journal: every player against every other, points, and
//! ICCF's tie-breaks in their order (Sonneborn-Berger, the most wins, the game between the
//! players still tied: [`crate::event::standings`]), places shared only when all are equal;
//! a match between two teams board by board with the total. Games lost by a withdrawal are
//! marked `+` and `-`. Like every export, it checks the whole hash chain first.

use std::fmt::Write as _;

use rusqlite::Connection;
use shakmaty::Color;

use super::JournalError;
use super::event_export::event_games;
use super::record::{Names, Record};
use super::registry::EventRecord;
use crate::command::text::escaped;
use crate::event::System;
use crate::event::standings::match_score;
pub use crate::event::standings::{Played, Row, halves, quarters, standings};
use crate::game::EndReason;

/// A game as standings count it.
pub(super) fn played(record: &Record) -> Played {
    let result = record.game.result();
    Played {
        white: record.game.player(Color::White).to_owned(),
        black: record.game.player(Color::Black).to_owned(),
        result: result.map(|r| r.winner),
        forfeit: result.is_some_and(|r| r.reason == EndReason::Withdrawal),
    }
}

/// The crosstable of an event (see the module's documentation).
pub fn crosstable(
    conn: &Connection,
    event_id: &str,
    names: &Names,
) -> Result<String, JournalError> {
    let replayed = super::replay::verify(conn)?;
    let names = &names.with_registry(&replayed.registry);
    let games = event_games(conn, event_id)?;
    if games.is_empty() {
        return Err(JournalError::Corrupt(format!(
            "no game of event {event_id:?} in the journal"
        )));
    }
    let played: Vec<Played> = games.iter().map(played).collect();
    let (event, site) = names.events.get(event_id).map_or_else(
        || (event_id.to_owned(), "?".to_owned()),
        |e| (e.name.clone(), e.site.clone()),
    );
    let registered = replayed.registry.events.get(event_id);
    let mut out = String::new();
    let _ = writeln!(out, "CROSSTABLE {} ({})\n", escaped(&event), escaped(&site));
    if let Some(record) = registered.filter(|r| r.event.system == Some(System::Match)) {
        write_match(&mut out, record, &played, names);
    }
    write_table(&mut out, &standings(&played), names);
    if let Some(record) = registered
        && !record.withdrawn.is_empty()
    {
        let _ = writeln!(out, "\nWithdrawn (unfinished games lost, marked + and -):");
        for (player, reason) in &record.withdrawn {
            let _ = writeln!(
                out,
                "  {}: {}",
                escaped(&names.player(player)),
                escaped(reason)
            );
        }
    }
    let _ = writeln!(out, "\nGames:");
    for record in &games {
        let result = record
            .game
            .result()
            .map_or_else(|| "* (in progress)".to_owned(), ToString::to_string);
        let place = match (&record.detail.round, record.detail.board) {
            (Some(round), Some(board)) => format!("round {round}, board {board}: "),
            (Some(round), None) => format!("round {round}: "),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:<16} {place}{} - {}  {result}, {} moves",
            record.id,
            names.player(&record.detail.white),
            names.player(&record.detail.black),
            record.moves.len()
        );
    }
    Ok(out)
}

/// Place, player, a cell against each other player, then points and the tie-breaks.
fn write_table(out: &mut String, order: &[Row], names: &Names) {
    let width = order
        .iter()
        .map(|s| names.player(&s.id).chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let _ = write!(out, "{:>5}  {:<width$} ", "Place", "Player");
    for i in 0..order.len() {
        let _ = write!(out, " {:^5}", i + 1);
    }
    let _ = writeln!(out, "  Points  Games  S-B  Wins");
    for s in order {
        let _ = write!(out, "{:>5}  {:<width$} ", s.place, names.player(&s.id));
        for other in order {
            let cell = if other.id == s.id {
                "X".to_owned()
            } else {
                s.against
                    .get(&other.id)
                    .map_or_else(|| ".".to_owned(), |marks| marks.join(""))
            };
            let _ = write!(out, " {cell:^5}");
        }
        let _ = writeln!(
            out,
            "  {:>6}  {:>5}  {:>3}  {:>4}",
            halves(s.points2),
            s.games,
            quarters(s.sb4),
            s.wins
        );
    }
}

/// A match: each board's score and the total, the first team's first.
fn write_match(out: &mut String, record: &EventRecord, played: &[Played], names: &Names) {
    let [first, second] = record.teams.as_slice() else {
        return;
    };
    let score = match_score(&first.players, &second.players, played);
    let _ = writeln!(
        out,
        "MATCH {} - {}\n",
        escaped(&first.name),
        escaped(&second.name)
    );
    for (board, (a, b, finished)) in score.boards.iter().enumerate() {
        let _ = writeln!(
            out,
            "  board {}: {} {} - {} {}  ({finished} of 2 finished)",
            board + 1,
            names.player(&first.players[board]),
            halves(*a),
            halves(*b),
            names.player(&second.players[board]),
        );
    }
    let _ = writeln!(
        out,
        "  total: {} {} - {} {}\n",
        escaped(&first.name),
        halves(score.total.0),
        halves(score.total.1),
        escaped(&second.name)
    );
}
