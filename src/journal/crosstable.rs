//! An event's crosstable from the journal: every player against every other, points,
//! Sonneborn-Berger, and places (shared when both are equal). Like every export, it checks the
//! whole hash chain first.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rusqlite::Connection;
use shakmaty::Color;

use super::export::{Names, rebuild};
use super::{Entry, EntryKind, JournalError, store};

/// Points counted in halves, written `1½`.
pub fn halves(points2: u32) -> String {
    match (points2 / 2, points2 % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Points counted in quarters, written `1¾`.
pub fn quarters(points4: u32) -> String {
    let frac = ["", "¼", "½", "¾"][(points4 % 4) as usize];
    match points4 / 4 {
        0 if !frac.is_empty() => frac.to_owned(),
        whole => format!("{whole}{frac}"),
    }
}

/// A game as a crosstable counts it.
#[derive(Clone, Debug)]
pub struct Played {
    pub white: String,
    pub black: String,
    /// `None` in progress; `Some(None)` a draw; `Some(Some(colour))` won by that colour.
    pub result: Option<Option<Color>>,
}

/// One player's line in a crosstable, in the order of places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: String,
    /// Points counted in halves (see [`halves`]).
    pub points2: u32,
    /// Games finished.
    pub games: u32,
    /// Sonneborn-Berger, in quarter points (see [`quarters`]).
    pub sb4: u32,
    /// `1`, or `2-3` when shared.
    pub place: String,
    /// Against each opponent: their results, `1`, `½`, `0` or `*` (in progress).
    pub against: BTreeMap<String, Vec<&'static str>>,
}

/// Every player of `games` against every other, points, Sonneborn-Berger, and places
/// (shared when both are equal), best first.
pub fn standings(games: &[Played]) -> Vec<Row> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for game in games {
        for color in [Color::White, Color::Black] {
            let (me, opponent) = match color {
                Color::White => (&game.white, &game.black),
                Color::Black => (&game.black, &game.white),
            };
            let (mark, points2) = match game.result {
                None => ("*", 0),
                Some(None) => ("½", 1),
                Some(Some(w)) if w == color => ("1", 2),
                Some(Some(_)) => ("0", 0),
            };
            let row = rows.entry(me.clone()).or_insert_with(|| Row {
                id: me.clone(),
                points2: 0,
                games: 0,
                sb4: 0,
                place: String::new(),
                against: BTreeMap::new(),
            });
            row.points2 += points2;
            if mark != "*" {
                row.games += 1;
            }
            row.against.entry(opponent.clone()).or_default().push(mark);
        }
    }
    // Sonneborn-Berger, in quarter points: each finished game's score times the opponent's
    // total. It breaks ties; players equal on both share the place.
    let points: BTreeMap<String, u32> =
        rows.iter().map(|(id, r)| (id.clone(), r.points2)).collect();
    for row in rows.values_mut() {
        row.sb4 = row
            .against
            .iter()
            .map(|(opponent, marks)| {
                let theirs = points.get(opponent).copied().unwrap_or(0);
                marks
                    .iter()
                    .map(|m| match *m {
                        "1" => 2 * theirs,
                        "½" => theirs,
                        _ => 0,
                    })
                    .sum::<u32>()
            })
            .sum();
    }
    let mut order: Vec<Row> = rows.into_values().collect();
    order.sort_by(|a, b| {
        b.points2
            .cmp(&a.points2)
            .then(b.sb4.cmp(&a.sb4))
            .then(a.id.cmp(&b.id))
    });
    let key = |r: &Row| (r.points2, r.sb4);
    let places: Vec<String> = (0..order.len())
        .map(|i| {
            let first = (0..=i)
                .rev()
                .take_while(|&j| key(&order[j]) == key(&order[i]))
                .last()
                .unwrap_or(i);
            let last = (i..order.len())
                .take_while(|&j| key(&order[j]) == key(&order[i]))
                .last()
                .unwrap_or(i);
            if first == last {
                (i + 1).to_string()
            } else {
                format!("{}-{}", first + 1, last + 1)
            }
        })
        .collect();
    for (row, place) in order.iter_mut().zip(places) {
        row.place = place;
    }
    order
}

/// The crosstable of an event: every player against every other, points, Sonneborn-Berger,
/// and places (shared when both are equal).
pub fn crosstable(
    conn: &Connection,
    event_id: &str,
    names: &Names,
) -> Result<String, JournalError> {
    super::replay::verify(conn)?;
    let mut by_game: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    store::for_each_entry(conn, None, |e| {
        // The relay's key entries belong to no game.
        if !matches!(e.kind, EntryKind::SigningKey | EntryKind::KeyRotation) {
            by_game.entry(e.game.clone()).or_default().push(e);
        }
        Ok(())
    })?;
    let mut games = Vec::new();
    let mut played = Vec::new();
    for (id, entries) in by_game {
        let record = rebuild(&id, entries)?;
        if record.detail.event.as_deref() != Some(event_id) {
            continue;
        }
        played.push(Played {
            white: record.game.player(Color::White).to_owned(),
            black: record.game.player(Color::Black).to_owned(),
            result: record.game.result().map(|r| r.winner),
        });
        games.push(record);
    }
    if games.is_empty() {
        return Err(JournalError::Corrupt(format!(
            "no game of event {event_id:?} in the journal"
        )));
    }
    let order = standings(&played);
    let (event, site) = names.events.get(event_id).map_or_else(
        || (event_id.to_owned(), "?".to_owned()),
        |e| (e.name.clone(), e.site.clone()),
    );
    let mut out = String::new();
    let _ = writeln!(out, "CROSSTABLE {event} ({site})\n");
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
    let _ = writeln!(out, "  Points  Games  S-B");
    for s in &order {
        let _ = write!(out, "{:>5}  {:<width$} ", s.place, names.player(&s.id));
        for other in &order {
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
            "  {:>6}  {:>5}  {:>3}",
            halves(s.points2),
            s.games,
            quarters(s.sb4)
        );
    }
    let _ = writeln!(out, "\nGames:");
    for record in &games {
        let result = record
            .game
            .result()
            .map_or_else(|| "* (in progress)".to_owned(), ToString::to_string);
        let _ = writeln!(
            out,
            "  {:<16} {} - {}  {result}, {} moves",
            record.id,
            names.player(&record.detail.white),
            names.player(&record.detail.black),
            record.moves.len()
        );
    }
    Ok(out)
}
