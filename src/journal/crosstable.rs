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
fn halves(points2: u32) -> String {
    match (points2 / 2, points2 % 2) {
        (0, 1) => "½".to_owned(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

/// Points counted in quarters, written `1¾`.
fn quarters(points4: u32) -> String {
    let frac = ["", "¼", "½", "¾"][(points4 % 4) as usize];
    match points4 / 4 {
        0 if !frac.is_empty() => frac.to_owned(),
        whole => format!("{whole}{frac}"),
    }
}

/// One player's line in a crosstable.
struct Standing {
    id: String,
    points2: u32,
    games: u32,
    /// Against each opponent: their results, `1`, `½`, `0` or `*` (in progress).
    against: BTreeMap<String, Vec<&'static str>>,
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
    let mut standings: BTreeMap<String, Standing> = BTreeMap::new();
    let mut games = Vec::new();
    for (id, entries) in by_game {
        let record = rebuild(&id, entries)?;
        if record.detail.event.as_deref() != Some(event_id) {
            continue;
        }
        for color in [Color::White, Color::Black] {
            let me = record.game.player(color).to_owned();
            let opponent = record.game.player(!color).to_owned();
            let (mark, points2) = match record.game.result() {
                None => ("*", 0),
                Some(r) => match r.winner {
                    None => ("½", 1),
                    Some(w) if w == color => ("1", 2),
                    Some(_) => ("0", 0),
                },
            };
            let standing = standings.entry(me.clone()).or_insert_with(|| Standing {
                id: me.clone(),
                points2: 0,
                games: 0,
                against: BTreeMap::new(),
            });
            standing.points2 += points2;
            if mark != "*" {
                standing.games += 1;
            }
            standing.against.entry(opponent).or_default().push(mark);
        }
        games.push(record);
    }
    if games.is_empty() {
        return Err(JournalError::Corrupt(format!(
            "no game of event {event_id:?} in the journal"
        )));
    }
    // Sonneborn-Berger, in quarter points: each finished game's score times the opponent's
    // total. It breaks ties; players equal on both share the place.
    let sb4 = |s: &Standing| -> u32 {
        s.against
            .iter()
            .map(|(opponent, marks)| {
                let theirs = standings.get(opponent).map_or(0, |o| o.points2);
                marks
                    .iter()
                    .map(|m| match *m {
                        "1" => 2 * theirs,
                        "½" => theirs,
                        _ => 0,
                    })
                    .sum::<u32>()
            })
            .sum()
    };
    let mut order: Vec<(&Standing, u32)> = standings.values().map(|s| (s, sb4(s))).collect();
    order.sort_by(|(a, a_sb), (b, b_sb)| {
        b.points2
            .cmp(&a.points2)
            .then(b_sb.cmp(a_sb))
            .then(a.id.cmp(&b.id))
    });
    let place = |i: usize| -> String {
        let key = |j: usize| (order[j].0.points2, order[j].1);
        let first = (0..=i)
            .rev()
            .take_while(|&j| key(j) == key(i))
            .last()
            .unwrap_or(i);
        let last = (i..order.len())
            .take_while(|&j| key(j) == key(i))
            .last()
            .unwrap_or(i);
        if first == last {
            (i + 1).to_string()
        } else {
            format!("{}-{}", first + 1, last + 1)
        }
    };
    let (event, site) = names.events.get(event_id).map_or_else(
        || (event_id.to_owned(), "?".to_owned()),
        |e| (e.name.clone(), e.site.clone()),
    );
    let mut out = String::new();
    let _ = writeln!(out, "CROSSTABLE {event} ({site})\n");
    let width = order
        .iter()
        .map(|(s, _)| names.player(&s.id).chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let _ = write!(out, "{:>5}  {:<width$} ", "Place", "Player");
    for i in 0..order.len() {
        let _ = write!(out, " {:^5}", i + 1);
    }
    let _ = writeln!(out, "  Points  Games  S-B");
    for (i, (s, sb)) in order.iter().enumerate() {
        let _ = write!(out, "{:>5}  {:<width$} ", place(i), names.player(&s.id));
        for (other, _) in &order {
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
            quarters(*sb)
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
