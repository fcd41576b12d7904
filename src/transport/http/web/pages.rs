//! The index (every event and game a viewer may see) and an event's page (its crosstable and
//! games, or the whole event as PGN).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jiff::Timestamp;
use maud::{Markup, html};
use shakmaty::Color;

use super::words::Words;
use super::{Viewer, Web, bad_request, layout, not_found, unavailable, viewer, with_cookies};
use crate::config::Viewing;
use crate::relay::{Standing, Watched, crosstable};

/// `1-0`, `0-1`, `½-½`, or `*` in progress.
pub fn score(standing: &Standing) -> &'static str {
    match standing {
        Standing::Over {
            winner: Some(Color::White),
            ..
        } => "1-0",
        Standing::Over {
            winner: Some(Color::Black),
            ..
        } => "0-1",
        Standing::Over { winner: None, .. } => "½-½",
        _ => "*",
    }
}

/// The result in words: `1-0 (resignation)`, `in progress`.
pub fn result_text(w: &Words, standing: &Standing) -> String {
    match standing {
        Standing::Ongoing => w.in_progress.to_owned(),
        Standing::AwaitingArbiter => w.awaiting_arbiter.to_owned(),
        Standing::Over { reason, .. } => format!("{} ({})", score(standing), w.reason(*reason)),
    }
}

/// A date and time as the pages show it: `2026-12-01 14:05 UTC`.
pub fn when(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Full moves from plies: the number of the last move shown.
pub fn move_count(plies: usize) -> usize {
    plies.div_ceil(2)
}

/// The viewer's games, or the page to answer instead.
async fn watched(web: &Web, v: &Viewer, game: Option<&str>) -> Result<Vec<Watched>, Response> {
    web.ctx
        .relay
        .watch(game, v.arbiter)
        .await
        .map_err(|_| unavailable(v.tongue))
}

fn games_table(w: &Words, v: &Viewer, games: &[&Watched], with_event: bool) -> Markup {
    html! {
        table.games {
            thead { tr {
                th { (w.game) }
                @if with_event { th { (w.event) } }
                th { (w.white) } th { (w.black) }
                th.num { (w.moves) } th { (w.to_move) } th { (w.result) } th { (w.last_move) }
            } }
            tbody {
                @for g in games {
                    tr data-game=(g.id) {
                        td { a href={ "/games/" (g.id) "?" (v.query()) } { (g.id) } }
                        @if with_event {
                            td { @if let Some(e) = &g.event {
                                a href={ "/events/" (e) } { (g.event_name.as_deref().unwrap_or(e)) }
                            } }
                        }
                        td { (g.white) } td { (g.black) }
                        td.num.plies data-plies=(g.plies) { (move_count(g.plies)) }
                        td { @if g.standing == Standing::Ongoing { (w.color(g.to_move)) } }
                        td.result { (result_text(w, &g.standing)) }
                        td { @if let Some(t) = g.last_move_at { (when(t)) } }
                    }
                }
            }
        }
    }
}

/// Games on one page of the index.
pub const INDEX_PAGE: usize = 100;

/// `/`: the events and the games.
pub async fn index(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let v = match viewer(&web, &headers, &query) {
        Ok(v) => v,
        Err(page) => return *page,
    };
    let games = match watched(&web, &v, None).await {
        Ok(games) => games,
        Err(page) => return page,
    };
    let w = v.words();
    let mut events: BTreeMap<&str, &str> = BTreeMap::new();
    for g in &games {
        if let Some(e) = &g.event {
            events.insert(e, g.event_name.as_deref().unwrap_or(e));
        }
    }
    // A club's thousands of games are shown a page at a time (`?page=N`, from 1).
    let pages = games.len().div_ceil(INDEX_PAGE).max(1);
    let page = match query.get("page").map(|p| p.parse::<usize>()) {
        None => 1,
        Some(Ok(n)) if (1..=pages).contains(&n) => n,
        Some(_) => {
            return bad_request(v.tongue, &format!("page: a number from 1 to {pages}"));
        }
    };
    let all: Vec<&Watched> = games
        .iter()
        .skip((page - 1) * INDEX_PAGE)
        .take(INDEX_PAGE)
        .collect();
    let body = html! {
        main #main {
            @if v.arbiter { p.note { (w.logged_in) } }
            @if !events.is_empty() {
                h2 { (w.events) }
                ul.events { @for (id, name) in &events {
                    li { a href={ "/events/" (id) } { (name) } }
                } }
            }
            h2 { (w.games) }
            @if all.is_empty() { p { (w.no_games) } } @else { (games_table(w, &v, &all, true)) }
            @if pages > 1 {
                nav.pages {
                    @if page > 1 { a rel="prev" href={ "?page=" (page - 1) } { "« " (w.previous) } " " }
                    span { (w.page) " " (page) " " (w.of) " " (pages) }
                    @if page < pages { " " a rel="next" href={ "?page=" (page + 1) } { (w.next) " »" } }
                }
            }
        }
    };
    with_cookies(
        &v,
        StatusCode::OK,
        layout::page(v.tongue, &w.games, Some("/live"), body),
    )
}

/// `/events/{id}`: the crosstable and the games; `/events/{id}.pgn`: the whole event as PGN.
pub async fn event(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let v = match viewer(&web, &headers, &query) {
        Ok(v) => v,
        Err(page) => return *page,
    };
    let (id, pgn) = match id.strip_suffix(".pgn") {
        Some(id) => (id.to_owned(), true),
        None => (id, false),
    };
    let games: Vec<Watched> = match watched(&web, &v, None).await {
        Ok(games) => games
            .into_iter()
            .filter(|g| g.event.as_deref() == Some(id.as_str()))
            .collect(),
        Err(page) => return page,
    };
    if games.is_empty() {
        return not_found(v.tongue);
    }
    if pgn {
        let cut = games.iter().map(|g| (g.id.clone(), cut(g))).collect();
        return pgn_response(&web, &v, cut, &id).await;
    }
    let w = v.words();
    let first = &games[0];
    let name = first.event_name.clone().unwrap_or_else(|| id.clone());
    let names: BTreeMap<&str, &str> = games
        .iter()
        .flat_map(|g| {
            [
                (g.white_id.as_str(), g.white.as_str()),
                (g.black_id.as_str(), g.black.as_str()),
            ]
        })
        .collect();
    // A knock-out's bracket, for the viewers who see its games as they go on.
    let bracket = match first.view {
        Viewing::Public | Viewing::Delay(_) => web.ctx.relay.bracket(&id).await.ok().flatten(),
        _ if v.arbiter => web.ctx.relay.bracket(&id).await.ok().flatten(),
        _ => None,
    };
    let rows = crosstable(&games);
    let ratings = super::ratings::beside_names(&web).await;
    let refs: Vec<&Watched> = games.iter().collect();
    // The pairings by round (a round's number as a number, so that 10 comes after 9).
    let mut rounds: BTreeMap<Option<u32>, Vec<&Watched>> = BTreeMap::new();
    for g in &games {
        let round = g.round.as_deref().and_then(|r| r.parse().ok());
        rounds.entry(round).or_default().push(g);
    }
    let body = html! {
        main #main {
            h1 { (name) }
            @if let Some(site) = &first.site { p { (w.site) ": " (site) } }
            @match first.view {
                Viewing::Delay(_) => p.note { (w.delayed) },
                Viewing::Finished => p.note { (w.finished_only) },
                _ => {},
            }
            @if let Some(bracket) = &bracket {
                h2 { (v.tongue.word(crate::catalog::Key::WebBracket)) }
                div.bracket { (super::bracket::svg(v.tongue, bracket, &names)) }
            }
            h2 { (w.crosstable) }
            table.crosstable {
                thead { tr {
                    th.num { (w.place) } th { (w.player) }
                    @for i in 1..=rows.len() { th.num { (i) } }
                    th.num { (w.points) } th.num { (w.played) } th.num { (w.sb) } th.num { (w.wins) }
                } }
                tbody {
                    @for row in &rows {
                        tr data-player=(row.id) {
                            td.num.place { (row.place) }
                            td {
                                (names.get(row.id.as_str()).copied().unwrap_or(&row.id))
                                @if let Some(rating) = ratings.get(&row.id) {
                                    " " span.rating { "(" (rating) ")" }
                                }
                            }
                            @for other in &rows {
                                td.num {
                                    @if other.id == row.id { "X" }
                                    @else if let Some(marks) = row.against.get(&other.id) { (marks.join(" ")) }
                                    @else { "." }
                                }
                            }
                            td.num.points { (crate::relay::halves(row.points2)) }
                            td.num { (row.games) }
                            td.num.sb { (crate::relay::quarters(row.sb4)) }
                            td.num.wins { (row.wins) }
                        }
                    }
                }
            }
            @if rounds.len() > 1 || rounds.keys().any(Option::is_some) {
                h2 { (w.pairings) }
                @for (round, games) in &rounds {
                    h3 { (w.round) " " (round.map_or_else(|| "-".to_owned(), |r| r.to_string())) }
                    ul.pairings { @for g in games {
                        li {
                            a href={ "/games/" (g.id) } { (g.white) " – " (g.black) }
                            " " (result_of(g))
                        }
                    } }
                }
            }
            h2 { (w.games) }
            (games_table(w, &v, &refs, false))
            p { a href={ "/events/" (id) ".pgn" } download { (w.download_pgn) } }
        }
    };
    let live = format!("/events/{id}/live");
    with_cookies(
        &v,
        StatusCode::OK,
        layout::page(v.tongue, &name, Some(&live), body),
    )
}

/// A game's result as PGN writes it, `*` while it goes on.
fn result_of(g: &Watched) -> &'static str {
    match &g.standing {
        crate::relay::Standing::Over { winner, .. } => match winner {
            Some(shakmaty::Color::White) => "1-0",
            Some(shakmaty::Color::Black) => "0-1",
            None => "½-½",
        },
        _ => "*",
    }
}

/// `name` with only letters, digits, `-`, `_` and `.`: safe in a header.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// How many plies of a game the PGN shows: `None` for all of them.
pub fn cut(g: &Watched) -> Option<usize> {
    g.delayed.then_some(g.plies)
}

/// The official PGN of `games`, as a download named `name.pgn`.
pub async fn pgn_response(
    web: &Web,
    v: &Viewer,
    games: Vec<(String, Option<usize>)>,
    name: &str,
) -> Response {
    match web.ctx.mailbox.public_pgn(games).await {
        Ok(text) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8".to_owned(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}.pgn\"", file_name(name)),
                ),
            ],
            text,
        )
            .into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "PGN export for the web failed");
            unavailable(v.tongue)
        }
    }
}
