//! An event's official records: every game as PGN (by round and board, with the Event,
//! Round and Board tags), and its record as text: who registered its players and made,
//! entered, drew, started it and withdrew from it, when and how (every such entry, without
//! a secret or a hash, which the record never holds), then its games. Like every export, they
//! check the whole hash chain first.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rusqlite::Connection;

use super::entry::{GameStartDetail, Meaning};
use super::export::{pgn, ratings_for};
use super::record::{Names, Record, corrupt, rebuild};
use super::registry::{
    DrawDetail, EnterDetail, EventRecord, LotDetail, SecretDetail, StartDetail, WithdrawDetail,
};
use super::{Entry, EntryKind, JournalError, store};

/// Every game of `event_id` as PGN, by round and board (then id), the chain checked first;
/// an error if the event has no game.
pub fn export_event(
    conn: &Connection,
    event_id: &str,
    names: &Names,
    progress: &mut dyn FnMut(u64),
) -> Result<String, JournalError> {
    let replayed = super::replay::verify_reporting(conn, progress)?;
    let names = &names.with_registry(&replayed.registry);
    let mut games: Vec<Record> = Vec::new();
    for record in event_games(conn, event_id)? {
        games.push(record);
    }
    if games.is_empty() {
        return Err(corrupt(format!(
            "no game of event {event_id:?} in the journal"
        )));
    }
    let ratings = ratings_for(&replayed, names, &games);
    let mut out = String::new();
    for record in &games {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&pgn(record, names, &ratings));
    }
    Ok(out)
}

/// The games of `event_id`, rebuilt, by round and board (then id).
pub(super) fn event_games(conn: &Connection, event_id: &str) -> Result<Vec<Record>, JournalError> {
    let mut by_game: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    let mut of_event = std::collections::BTreeSet::new();
    store::for_each_entry(conn, None, |e| {
        if e.kind.is_gameless() {
            return Ok(());
        }
        if e.kind == EntryKind::GameStart
            && GameStartDetail::of(&e).is_ok_and(|d| d.event.as_deref() == Some(event_id))
        {
            of_event.insert(e.game.clone());
        }
        by_game.entry(e.game.clone()).or_default().push(e);
        Ok(())
    })?;
    let mut games = Vec::new();
    for (id, entries) in by_game {
        if of_event.contains(&id) {
            games.push(rebuild(&id, entries)?);
        }
    }
    let round = |r: &Record| {
        r.detail
            .round
            .as_deref()
            .and_then(|r| r.parse::<u32>().ok())
            .unwrap_or(u32::MAX)
    };
    games.sort_by(|a, b| {
        (round(a), a.detail.board.unwrap_or(u32::MAX), &a.id).cmp(&(
            round(b),
            b.detail.board.unwrap_or(u32::MAX),
            &b.id,
        ))
    });
    Ok(games)
}

/// The event's record as text: its registry entries and its players', then its games.
pub fn event_text(
    conn: &Connection,
    event_id: &str,
    names: &Names,
    progress: &mut dyn FnMut(u64),
) -> Result<String, JournalError> {
    let replayed = super::replay::verify_reporting(conn, progress)?;
    let names = &names.with_registry(&replayed.registry);
    let Some(record) = replayed.registry.events.get(event_id) else {
        return Err(corrupt(format!(
            "no event {event_id:?} was made while the relay ran (a configured event's games are exported one by one)"
        )));
    };
    let entrants = record.places();
    let about = |e: &Entry| -> bool {
        let event_of = |event: &str| event == event_id;
        match Meaning::of(e) {
            Ok(Meaning::EventNew(ev)) => event_of(&ev.id),
            Ok(Meaning::EventEnter(EnterDetail { event, .. }))
            | Ok(Meaning::EventDraw(DrawDetail { event, .. }))
            | Ok(Meaning::EventStart(StartDetail { event, .. }))
            | Ok(Meaning::EventWithdraw(WithdrawDetail { event, .. }))
            | Ok(Meaning::EventLot(LotDetail { event, .. })) => event_of(&event),
            Ok(Meaning::PlayerAdd(p) | Meaning::PlayerSet(p)) => entrants.contains(&p.id),
            Ok(Meaning::PlayerSecret(SecretDetail { player })) => entrants.contains(&player),
            _ => false,
        }
    };
    let mut entries = Vec::new();
    store::for_each_entry(conn, Some(""), |e| {
        if about(&e) {
            entries.push(e);
        }
        Ok(())
    })?;
    let (name, site) = names
        .events
        .get(event_id)
        .map_or((event_id.to_owned(), "?".to_owned()), |e| {
            (e.name.clone(), e.site.clone())
        });
    let system = record
        .event
        .system
        .map_or("-", crate::event::System::as_str);
    let mut out = String::new();
    let _ = writeln!(out, "Event {event_id}: {name}, {site} ({system})");
    let _ = writeln!(out, "Entries about it and its players: {}\n", entries.len());
    for e in &entries {
        let _ = writeln!(
            out,
            "#{:<6} {}  {:<10} {:<11} {:<14} {:?} [{}]",
            e.seq,
            e.time,
            e.player,
            e.channel,
            e.kind.as_str(),
            e.text,
            e.detail
        );
    }
    let games = event_games(conn, event_id)?;
    if let Some(bracket) = bracket(event_id, record, &games) {
        let _ = writeln!(out, "\nBracket:");
        for line in crate::event::knockout::text::lines(&bracket) {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = writeln!(out, "\nGames:");
    for game in games {
        let result = game
            .game
            .result()
            .map_or_else(|| "* (in progress)".to_owned(), ToString::to_string);
        let _ = writeln!(
            out,
            "  {:<16} round {}, board {}: {} - {}  {result}",
            game.id,
            game.detail.round.as_deref().unwrap_or("-"),
            game.detail
                .board
                .map_or_else(|| "-".to_owned(), |b| b.to_string()),
            names.player(&game.detail.white),
            names.player(&game.detail.black),
        );
    }
    Ok(out)
}

/// A knock-out's bracket as the record holds it: its seeds, its games' results, its lots and
/// withdrawals (`None` for any other system).
fn bracket(
    event_id: &str,
    record: &EventRecord,
    games: &[Record],
) -> Option<crate::event::knockout::Bracket> {
    if record.event.system != Some(crate::event::System::Knockout) {
        return None;
    }
    let played = games
        .iter()
        .map(|g| {
            let result = g.game.result();
            (
                g.id.clone(),
                crate::event::standings::Played {
                    white: g.detail.white.clone(),
                    black: g.detail.black.clone(),
                    result: result.map(|r| r.winner),
                    forfeit: result.is_some_and(|r| r.reason == crate::game::EndReason::Withdrawal),
                },
            )
        })
        .collect();
    crate::event::knockout::bracket(
        event_id,
        &record.entrants,
        &played,
        &record.lot_winners(),
        &record.withdrawn_players(),
    )
}
