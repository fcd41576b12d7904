//! `/games/{id}`: one game. The board after the last move shown (or after `?ply=N`), the
//! moves in the viewer's notation and language, each a link to the board after it, both
//! clocks, a standing draw offer, the result and how it came about, the time control, the
//! journal's chain head, and the PGN download (`/games/{id}.pgn`).
//!
//! `?ply=N` outside `0..=moves shown` is answered 400: a link that points past what the
//! viewer may see (a delayed game) must not be clamped into showing something else.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use shakmaty::Color;

use super::board::{Drawn, Marks, svg};
use super::moves::{ListedMove, notation_for, numbered};
use super::pages::{cut, move_count, pgn_response, result_text, when};
use super::words::Words;
use super::{Viewer, Web, bad_request, layout, not_found, unavailable, viewer, with_cookies};
use crate::config::Viewing;
use crate::game::{PieceOn, board};
use crate::relay::{Clocks, Watched};

/// The game replayed up to `ply`: every move written for the viewer, the position after
/// `ply` (its FEN and pieces) and the marks on it.
struct Replayed {
    moves: Vec<ListedMove>,
    fen: String,
    pieces: Vec<PieceOn>,
    to_move: Color,
    marks: Marks,
}

fn replay(g: &Watched, v: &Viewer, ply: usize) -> Option<Replayed> {
    let notation = notation_for(g.kind, v.chess_notation(), v.lang);
    let mut pos = board(g.kind, g.start_fen.as_deref()).ok()?;
    let mut moves = Vec::with_capacity(g.moves.len());
    let mut shown = pos.boxed();
    for (i, m) in g.moves.iter().enumerate() {
        moves.push(ListedMove {
            number: pos.move_number(),
            color: pos.turn(),
            text: pos.write(m, notation),
        });
        pos.play(m);
        if i + 1 == ply {
            shown = pos.boxed();
        }
    }
    let last = match ply.checked_sub(1).and_then(|i| g.moves.get(i)) {
        Some(m) => m.squares(),
        None => Vec::new(),
    };
    Some(Replayed {
        moves,
        fen: shown.fen(),
        pieces: shown.pieces(),
        to_move: shown.turn(),
        marks: Marks {
            last,
            check: shown.checked_king(),
        },
    })
}

fn move_list(g: &Watched, v: &Viewer, moves: &[ListedMove], ply: usize) -> Markup {
    let link = |n: usize| format!("/games/{}?ply={n}&{}", g.id, v.query());
    html! {
        p { a.ply href=(link(0)) data-ply="0" class=[(ply == 0).then_some("current")] {
            "« " (v.words().start_position)
        } }
        (numbered(moves, |i, m| html! {
            a.move href=(link(i + 1)) data-ply=(i + 1)
                class=[(ply == i + 1).then_some("current")] { (m.text) }
        }))
    }
}

/// Both clocks (White's, then Black's): each side's by its control (the time used and what
/// it was charged, the time left, Triple Block's clock and bank, leave), and the side to move
/// told once its days count double; without a limit, "no limit".
pub fn clocks(w: &Words, clocks: Option<&Clocks>, on_leave: [bool; 2]) -> Markup {
    html! {
        @for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            span data-color=(w.color(color)) {
                @match clocks {
                    Some(c) => (w.side_clock(c, color)),
                    None => {
                        (w.color(color)) ": " (w.no_limit)
                        @if on_leave[i] { " (" (w.on_leave) ")" }
                    }
                }
            }
            @if i == 0 { br; }
        }
        @if let Some(note) = clocks.and_then(|c| w.doubling(c)) {
            br;
            strong.doubling { (note) }
        }
    }
}

fn facts(g: &Watched, v: &Viewer, head: Option<(i64, String)>) -> Markup {
    let w = v.words();
    html! {
        dl.facts {
            @if let Some(e) = &g.event {
                dt { (w.event) }
                dd { a href={ "/events/" (e) } { (g.event_name.as_deref().unwrap_or(e)) } }
            }
            @if let Some(site) = &g.site { dt { (w.site) } dd { (site) } }
            @if let Some(round) = &g.round { dt { (w.round) } dd { (round) } }
            @if let Some(t) = g.started { dt { (w.started) } dd { (when(t)) } }
            dt { (w.time_control) } dd.time-control { (super::said::time_control(v.tongue, &g.time_control)) }
            @if !g.delayed {
                dt { (w.clock) }
                dd.clocks { (clocks(w, g.clocks.as_ref(), g.on_leave)) }
            }
            @if let Some(color) = g.draw_offer {
                dt { (w.draw_offer) } dd.draw-offer { (w.color(color)) }
            }
            dt { (w.result) } dd.result { (result_text(w, &g.standing)) }
            @if let Some(t) = g.last_move_at { dt { (w.last_move) } dd { (when(t)) } }
            @if let Some((seq, hash)) = head {
                dt { (w.chain_head) } dd.chain-head { code { "#" (seq) " " (hash) } }
            }
        }
    }
}

fn choose(g: &Watched, v: &Viewer, ply: usize) -> Markup {
    let w = v.words();
    let langs = [
        ("en", "English"),
        ("ru", "Русский"),
        ("uk", "Українська"),
        ("de", "Deutsch"),
        ("fr", "Français"),
        ("figurine", "♘"),
    ];
    html! {
        form.choose method="get" action={ "/games/" (g.id) } {
            input type="hidden" name="ply" value=(ply);
            label { (w.notation) " "
                select name="notation" {
                    @for n in ["san", "lan", "iccf"] {
                        option value=(n) selected[v.notation == n] { (n.to_uppercase()) }
                    }
                }
            }
            label { (w.language) " "
                select name="lang" {
                    @for (code, name) in langs {
                        option value=(code) selected[v.lang.code() == code] { (name) }
                    }
                }
            }
            button type="submit" { (w.show) }
        }
    }
}

/// `/games/{id}` and `/games/{id}.pgn`.
pub async fn page(
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
    let g = match web.ctx.relay.watch(Some(&id), v.arbiter).await {
        Ok(games) => match games.into_iter().next() {
            Some(g) => g,
            None => return not_found(v.tongue),
        },
        Err(_) => return unavailable(v.tongue),
    };
    if pgn {
        return pgn_response(&web, &v, vec![(g.id.clone(), cut(&g))], &g.id).await;
    }
    let ply = match query.get("ply").map(|p| p.parse::<usize>()) {
        None => g.plies,
        Some(Ok(n)) if n <= g.plies => n,
        Some(_) => {
            return bad_request(
                v.tongue,
                &format!("ply: a number from 0 to {} (the moves shown)", g.plies),
            );
        }
    };
    let Some(r) = replay(&g, &v, ply) else {
        return unavailable(v.tongue);
    };
    let head = if g.delayed {
        None
    } else {
        web.ctx.mailbox.game_head(&g.id).await.ok().flatten()
    };
    let w = v.words();
    let label = format!(
        "{}: {}. {}: {}",
        w.board_of,
        r.fen,
        w.to_move,
        w.color(r.to_move)
    );
    let title = format!("{} – {}", g.white, g.black);
    let body = html! {
        main #main data-game=(g.id) data-plies=(g.plies) data-ply=(ply) {
            h1 { (g.white) " – " (g.black) " " small { (g.id) } }
            @if v.arbiter { p.note { (w.logged_in) } }
            @if g.view != Viewing::Public && !v.arbiter {
                @if let Viewing::Delay(_) = g.view { p.note { (w.delayed) } }
            }
            div.game {
                figure {
                    (PreEscaped(svg(&Drawn { kind: g.kind, fen: &r.fen, pieces: &r.pieces }, &r.marks, &label)))
                    figcaption {
                        p.sr #board-text { (label) }
                        p {
                            (w.position_after) " "
                            @if ply == 0 { (w.start_position) } @else { (move_count(ply)) }
                            " · " (w.to_move) ": " span.to-move { (w.color(r.to_move)) }
                            @if ply < g.plies {
                                " · " a href={ "/games/" (g.id) "?" (v.query()) } { (w.latest) " »" }
                            }
                        }
                    }
                }
                div.side {
                    h2 { (w.moves) }
                    (move_list(&g, &v, &r.moves, ply))
                    (facts(&g, &v, head))
                    (choose(&g, &v, ply))
                    p { a href={ "/games/" (g.id) ".pgn" } download { (w.download_pgn) } }
                }
            }
        }
    };
    let live = format!("/games/{}/live", g.id);
    let keep = if ply < g.plies {
        format!("ply={ply}&")
    } else {
        String::new()
    };
    with_cookies(
        &v,
        StatusCode::OK,
        layout::page_keeping(v.tongue, &title, Some(&live), &keep, body),
    )
}
