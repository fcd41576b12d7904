//! The rating list from the journal alone (`ccrelay journal ratings`, docs/ratings.md): the
//! games the record holds, each counted or not by the rules ([`rated_game`]), the starting
//! ratings the arbiter journaled, and the list they give ([`rating_list`]), written as CSV
//! or as text. Its first line names the day it takes effect and the rules, so that
//! `journal verify --ratings` can make it again from the journal and compare it byte for
//! byte.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::civil::Date;
use rusqlite::Connection;

use super::JournalError;
use super::record::Names;
use super::registry::Registry;
use super::replay::Replayed;
use crate::command::text::escaped;
use crate::event::Event;
use crate::event::rating::{
    RatedGame, RatingList, RatingRules, RatingsInEffect, Seed, rated_game, rating_list,
};

/// How a list is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ListFormat {
    /// `id,name,games,rating,deviation,provisional,change`, one player a line.
    Csv,
    /// A table for people.
    Text,
}

impl std::str::FromStr for ListFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<ListFormat, String> {
        match s {
            "csv" => Ok(ListFormat::Csv),
            "text" => Ok(ListFormat::Text),
            _ => Err(format!("{s:?}: a list is written as csv or text")),
        }
    }
}

/// Whether each event's games are rated: the configuration's (`configured`, each event's id
/// and whether it is rated), then the registry's, which say so in the record.
fn rated_events(
    registry: &Registry,
    configured: impl IntoIterator<Item = (String, bool)>,
) -> BTreeMap<String, bool> {
    let mut rated: BTreeMap<String, bool> = configured.into_iter().collect();
    for (id, record) in &registry.events {
        rated.insert(id.clone(), record.event.rated);
    }
    rated
}

/// Every game of the record that counts by `rules`, and every starting rating.
pub fn inputs(
    replayed: &Replayed,
    configured: &BTreeMap<String, Event>,
    rules: &RatingRules,
) -> (Vec<RatedGame>, Vec<Seed>) {
    let configured = configured.iter().map(|(id, e)| (id.clone(), e.rated));
    inputs_rated(
        replayed,
        rated_events(&replayed.registry, configured),
        rules,
    )
}

/// Every player's rating on each list in effect up to `through`, by the rules and events
/// `names` carries from the configuration: what a PGN export names as the ratings in effect
/// when each of its games started (`WhiteRating`, `BlackRating`), made once for the export.
pub fn in_effect(replayed: &Replayed, names: &Names, through: Date) -> RatingsInEffect {
    let configured = names.rated_events.iter().map(|(id, r)| (id.clone(), *r));
    let rated = rated_events(&replayed.registry, configured);
    let (games, seeds) = inputs_rated(replayed, rated, &names.rating_rules);
    RatingsInEffect::new(&names.rating_rules, &games, &seeds, through)
}

/// [`inputs`], each event's being rated or not given.
fn inputs_rated(
    replayed: &Replayed,
    rated: BTreeMap<String, bool>,
    rules: &RatingRules,
) -> (Vec<RatedGame>, Vec<Seed>) {
    let games = replayed
        .games
        .iter()
        .filter_map(|(id, g)| {
            let in_event = g
                .event
                .as_ref()
                .map(|e| rated.get(e).copied().unwrap_or(true));
            rated_game(rules, id, &g.game, in_event)
        })
        .collect();
    (games, seeds(&replayed.registry))
}

/// The starting ratings the arbiter journaled, in the record's order.
pub fn seeds(registry: &Registry) -> Vec<Seed> {
    registry
        .ratings
        .iter()
        .map(|(d, at)| Seed {
            player: d.player.clone(),
            rating: f64::from(d.rating),
            deviation: f64::from(d.deviation),
            on: at.to_zoned_datetime(jiff::tz::TimeZone::UTC).date(),
        })
        .collect()
}

/// The list in effect on `as_of`, from the journal (its whole chain checked first).
pub fn list_from_journal(
    conn: &Connection,
    configured: &BTreeMap<String, Event>,
    rules: &RatingRules,
    as_of: Date,
) -> Result<(RatingList, Replayed), JournalError> {
    let replayed = super::replay::verify(conn)?;
    let (games, seeds) = inputs(&replayed, configured, rules);
    Ok((rating_list(rules, &games, &seeds, as_of), replayed))
}

/// The list's first line: the day it takes effect and every rule that made it.
pub fn header(list: &RatingList, rules: &RatingRules) -> String {
    let previous = list
        .previous
        .map_or_else(|| "none".to_owned(), |d| d.to_string());
    format!(
        "# ccrelay rating list effective {} (previous {previous}): Glicko-2, period {}, start {}/{}/{}, tau {}, forfeits after moves {}, games outside events {}",
        list.effective,
        rules.period.as_str(),
        rules.start.rating,
        rules.start.deviation,
        rules.start.volatility,
        rules.tau,
        if rules.forfeits_after_moves {
            "rated"
        } else {
            "unrated"
        },
        if rules.outside_events {
            "rated"
        } else {
            "unrated"
        },
    )
}

/// The day a written list says it takes effect (its first line), if it says.
pub fn effective_of(text: &str) -> Option<Date> {
    let rest = text
        .lines()
        .next()?
        .strip_prefix("# ccrelay rating list effective ")?;
    rest.split_whitespace().next()?.parse().ok()
}

/// The list written in `format`, names from `names` (an id when none).
pub fn write_list(
    list: &RatingList,
    rules: &RatingRules,
    names: &Names,
    format: ListFormat,
) -> String {
    let mut out = header(list, rules);
    out.push('\n');
    match format {
        ListFormat::Csv => write_csv(&mut out, list, names),
        ListFormat::Text => write_text(&mut out, list, names),
    }
    out
}

fn change(change: Option<f64>) -> String {
    change.map_or_else(String::new, |c| format!("{c:+.2}"))
}

fn write_csv(out: &mut String, list: &RatingList, names: &Names) {
    out.push_str("id,name,games,rating,deviation,provisional,change\n");
    for s in &list.standings {
        let name = names.player(&s.player).replace('"', "\"\"");
        let _ = writeln!(
            out,
            "{},\"{name}\",{},{:.2},{:.2},{},{}",
            s.player,
            s.games,
            s.rating.rating,
            s.rating.deviation,
            if s.rating.provisional() { "yes" } else { "no" },
            change(s.change()),
        );
    }
}

fn write_text(out: &mut String, list: &RatingList, names: &Names) {
    let width = list
        .standings
        .iter()
        .map(|s| names.player(&s.player).chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:<16} {:>5} {:>9} {:>7} {:>8}",
        "#", "Player", "Id", "Games", "Rating", "RD", "Change"
    );
    for (place, s) in list.standings.iter().enumerate() {
        let mark = if s.rating.provisional() { "?" } else { " " };
        let change = s
            .change()
            .map_or_else(|| "new".to_owned(), |c| format!("{c:+.2}"));
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:<16} {:>5} {:>8.2}{mark} {:>7.2} {:>8}",
            place + 1,
            escaped(&names.player(&s.player)),
            s.player,
            s.games,
            s.rating.rating,
            s.rating.deviation,
            change,
        );
    }
    let _ = writeln!(
        out,
        "\n? provisional: a deviation of {} or more",
        crate::event::rating::PROVISIONAL_FROM
    );
}
