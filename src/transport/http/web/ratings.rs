//! `/ratings`: the rating list in effect (docs/ratings.md), in the viewer's language, sortable
//! by each column through links (`?sort=name`), so it works without a script; each player's
//! history drawn as a small inline SVG line, because a reader would rather look than read.
//! The list is the relay's (`Relay::ratings`), made by the same function as the published
//! list, so the page and `ccrelay journal ratings` never disagree.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, PreEscaped, html};

use super::{Web, bad_request, layout, unavailable, viewer, with_cookies};
use crate::catalog::{Key, Tongue};
use crate::event::rating::{PROVISIONAL_FROM, Standing};

/// The columns the list sorts by, as `?sort=` names them.
const SORTS: [&str; 5] = ["rating", "name", "games", "deviation", "change"];

/// Each player's rating on the list in effect, as written beside a name on the other pages
/// (`1523`, `1464?` while provisional); empty if the relay cannot say now, so that a page
/// never fails for want of ratings.
pub async fn beside_names(web: &Web) -> BTreeMap<String, String> {
    let Ok(list) = web.ctx.relay.ratings().await else {
        return BTreeMap::new();
    };
    list.standings
        .iter()
        .map(|s| {
            let mark = if s.rating.provisional() { "?" } else { "" };
            (s.player.clone(), format!("{:.0}{mark}", s.rating.rating))
        })
        .collect()
}

/// `player`'s line on their own page: the rating in effect and its deviation, linked to the
/// list; nothing for a player not on it (or while the relay cannot say).
pub async fn own_line(web: &Web, player: &str, t: Tongue) -> Option<Markup> {
    let list = web.ctx.relay.ratings().await.ok()?;
    let s = list.standings.iter().find(|s| s.player == player)?;
    Some(html! {
        p.rating {
            a href="/ratings" { (t.word(Key::WebRatingsRating)) } ": "
            (format!("{:.0}", s.rating.rating)) @if s.rating.provisional() { "?" }
            " · " (t.word(Key::WebRatingsDeviation)) ": " (format!("{:.0}", s.rating.deviation))
        }
    })
}

/// `/ratings`: the list, highest rating first unless `?sort=` says otherwise.
pub async fn page(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let v = match viewer(&web, &headers, &query) {
        Ok(v) => v,
        Err(page) => return *page,
    };
    let sort = query.get("sort").map_or("rating", String::as_str);
    if !SORTS.contains(&sort) {
        return bad_request(v.tongue, &format!("sort: one of {}", SORTS.join(", ")));
    }
    let Ok(list) = web.ctx.relay.ratings().await else {
        return unavailable(v.tongue);
    };
    let roster = web.ctx.relay.roster();
    let name = |id: &str| {
        roster
            .with(id, |p| p.name.clone())
            .unwrap_or_else(|| id.to_owned())
    };
    let mut rows: Vec<(usize, String, &Standing)> = list
        .standings
        .iter()
        .enumerate()
        .map(|(i, s)| (i + 1, name(&s.player), s))
        .collect();
    sort_rows(&mut rows, sort);
    let t = v.tongue;
    let title = t.word(Key::WebRatings);
    let day = list.effective.to_string();
    let effective = t.say(Key::WebRatingsEffective, &[("date", (&day).into())]);
    let body = html! {
        main #main {
            h2 { (effective) }
            @if rows.is_empty() { p { (t.word(Key::WebRatingsNone)) } } @else {
                (table(t, &rows, &v.query()))
                p.note { (t.say(Key::WebRatingsProvisional, &[("rd", (PROVISIONAL_FROM as i64).into())])) }
            }
        }
    };
    with_cookies(&v, StatusCode::OK, layout::page(t, &title, None, body))
}

/// The rows in the order `sort` names; the list's own place stays in the first column.
fn sort_rows(rows: &mut [(usize, String, &Standing)], sort: &str) {
    match sort {
        "name" => rows.sort_by(|a, b| a.1.cmp(&b.1)),
        "games" => rows.sort_by(|a, b| b.2.games.cmp(&a.2.games).then(a.0.cmp(&b.0))),
        "deviation" => rows.sort_by(|a, b| {
            let (x, y) = (a.2.rating.deviation, b.2.rating.deviation);
            x.total_cmp(&y).then(a.0.cmp(&b.0))
        }),
        "change" => rows.sort_by(|a, b| {
            let (x, y) = (a.2.change().unwrap_or(0.0), b.2.change().unwrap_or(0.0));
            y.total_cmp(&x).then(a.0.cmp(&b.0))
        }),
        _ => rows.sort_by_key(|r| r.0),
    }
}

fn table(t: Tongue, rows: &[(usize, String, &Standing)], query: &str) -> Markup {
    let head = |key: Key, sort: &str| {
        html! { th { a href={ "?sort=" (sort) "&" (query) } { (t.word(key)) } } }
    };
    html! {
        table.ratings {
            thead { tr {
                th.num { "#" }
                (head(Key::WebRatingsPlayer, "name"))
                (head(Key::WebRatingsRating, "rating"))
                (head(Key::WebRatingsDeviation, "deviation"))
                (head(Key::WebRatingsGames, "games"))
                (head(Key::WebRatingsChange, "change"))
                th { (t.word(Key::WebRatingsHistory)) }
            } }
            tbody {
                @for (place, name, s) in rows {
                    tr data-player=(s.player) {
                        td.num { (place) }
                        td { (name) }
                        td.num { (format!("{:.0}", s.rating.rating))
                            @if s.rating.provisional() { "?" } }
                        td.num { (format!("{:.0}", s.rating.deviation)) }
                        td.num { (s.games) }
                        td.num { @match s.change() {
                            Some(c) => (format!("{c:+.0}")),
                            None => (t.word(Key::WebRatingsNew)),
                        } }
                        td { (history_svg(s)) }
                    }
                }
            }
        }
    }
}

/// The player's rating list by list as a line 120 by 28 pixels, its range from the lowest
/// to the highest rating they had (at least 50 points, so a flat history stays flat).
fn history_svg(s: &Standing) -> Markup {
    const WIDTH: f64 = 120.0;
    const HEIGHT: f64 = 28.0;
    let ratings: Vec<f64> = s.history.iter().map(|(_, r, _)| *r).collect();
    let low = ratings.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let span = (high - low).max(50.0);
    let step = WIDTH / (ratings.len().saturating_sub(1).max(1) as f64);
    let mut points = String::new();
    for (i, r) in ratings.iter().enumerate() {
        let x = i as f64 * step;
        let y = HEIGHT - 2.0 - (r - low) / span * (HEIGHT - 4.0);
        let _ = write!(points, "{x:.1},{y:.1} ");
    }
    let label: Vec<String> = s
        .history
        .iter()
        .map(|(day, r, _)| format!("{day}: {r:.0}"))
        .collect();
    let svg = format!(
        "<svg class=\"history\" width=\"120\" height=\"28\" viewBox=\"0 0 120 28\" role=\"img\"><title>{}</title><polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" points=\"{}\"/></svg>",
        label.join(", "),
        points.trim_end()
    );
    PreEscaped(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::rating::Rating;
    use jiff::civil::date;

    fn standing(history: &[f64]) -> Standing {
        Standing {
            player: "p".into(),
            rating: Rating {
                rating: *history.last().unwrap_or(&1500.0),
                deviation: 90.0,
                volatility: 0.06,
            },
            games: 3,
            previous: None,
            history: history
                .iter()
                .enumerate()
                .map(|(i, r)| (date(2026, 1 + 3 * i as i8, 1), *r, 90.0))
                .collect(),
        }
    }

    #[test]
    fn a_history_is_a_line_through_every_list() {
        let svg = history_svg(&standing(&[1500.0, 1550.0, 1520.0])).into_string();
        assert!(svg.starts_with("<svg class=\"history\""), "{svg}");
        assert!(
            svg.contains("points=\"0.0,26.0 60.0,2.0 120.0,16.4\""),
            "{svg}"
        );
        assert!(
            svg.contains("<title>2026-01-01: 1500, 2026-04-01: 1550"),
            "{svg}"
        );
        let one = history_svg(&standing(&[1500.0])).into_string();
        assert!(one.contains("points=\"0.0,26.0\""), "{one}");
    }
}
