//! What the event's page and the withdrawal's confirmation share: the event's games as the
//! arbiter sees them, the players' names in them, and the crosstable drawn as the spectators'
//! page draws it.

use std::collections::BTreeMap;

use maud::{Markup, html};

use super::super::Web;
use super::Arbiter;
use crate::relay::{Row, Watched, halves, quarters};

/// The games of `event`, as the arbiter sees them.
pub async fn games_of(web: &Web, event: &str) -> Option<Vec<Watched>> {
    let games = web.ctx.relay.watch(None, true).await.ok()?;
    Some(
        games
            .into_iter()
            .filter(|g| g.event.as_deref() == Some(event))
            .collect(),
    )
}

/// Each player's name in the games (their id when the configuration gives none).
pub fn names(games: &[Watched]) -> BTreeMap<&str, &str> {
    games
        .iter()
        .flat_map(|g| {
            [
                (g.white_id.as_str(), g.white.as_str()),
                (g.black_id.as_str(), g.black.as_str()),
            ]
        })
        .collect()
}

/// The crosstable as the spectators' page shows it.
pub fn crosstable_table(a: &Arbiter, games: &[Watched], rows: &[Row]) -> Markup {
    let w = super::super::words::Words::of(a.tongue);
    let names = names(games);
    html! {
        div.scroll { table.crosstable {
            thead { tr {
                th.num { (w.place) } th { (w.player) }
                @for i in 1..=rows.len() { th.num { (i) } }
                th.num { (w.points) } th.num { (w.played) } th.num { (w.sb) }
            } }
            tbody { @for row in rows {
                tr data-player=(row.id) {
                    td.num { (row.place) }
                    td { (names.get(row.id.as_str()).copied().unwrap_or(&row.id)) }
                    @for other in rows { td.num { (mark(row, other)) } }
                    td.num.points { (halves(row.points2)) }
                    td.num { (row.games) }
                    td.num { (quarters(row.sb4)) }
                }
            } }
        } }
    }
}

/// `row`'s results against `other`: `X` against themselves, `.` before they meet.
pub fn mark(row: &Row, other: &Row) -> String {
    if other.id == row.id {
        return "X".to_owned();
    }
    row.against
        .get(&other.id)
        .map_or_else(|| ".".to_owned(), |marks| marks.join(" "))
}
