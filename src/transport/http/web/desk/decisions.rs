//! The desk's first page: the games waiting for the arbiter (a clock past its limit or a
//! silence past its limit, under `on_timeout = "arbiter"`; a game stopped because two records
//! of it disagree), each with the facts the relay
//! shows the arbiter (the players, whose move, the clocks, the last move, the days on this
//! move, leave) and the form that decides it (`ADJUDICATE` with a result and a reason); under
//! them, the form that corrects a finished game's result (`correct.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{Markup, html};
use shakmaty::Color;

use super::super::pages::when;
use super::super::{Web, unavailable};
use super::{Arbiter, Fields, frame, posting, send, words};
use crate::command::Command;
use crate::relay::{Standing, Watched};

/// Whether the side to move is out of time (else it is the silence that stopped the game).
fn out_of_time(g: &Watched) -> bool {
    let i = match g.to_move {
        Color::White => 0,
        Color::Black => 1,
    };
    g.time_left[i].is_some_and(|left| left <= 0)
}

/// `GET /desk`: the games waiting for the arbiter.
pub async fn page(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match frame::viewing(&web, &headers, &query, "/desk") {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let Ok(games) = web.ctx.relay.watch(None, true).await else {
        return unavailable(a.tongue);
    };
    let waiting: Vec<&Watched> = games
        .iter()
        .filter(|g| g.standing == Standing::AwaitingArbiter)
        .collect();
    let d = words(a.tongue);
    let shown = frame::shown(&web, &a, &query);
    let body = html! {
        h1 { (d.decisions) }
        @if waiting.is_empty() { p #no-decisions { (d.no_decisions) } }
        @for g in &waiting { (decision(&a, g)) }
        (super::correct::form(&a, &games))
    };
    frame::page(&a, &d.desk, shown.as_ref(), body)
}

/// One game waiting: its facts and the adjudication form.
fn decision(a: &Arbiter, g: &Watched) -> Markup {
    let w = super::super::words::Words::of(a.tongue);
    let d = words(a.tongue);
    let why = match &g.stopped {
        Some(reason) => format!("{}: {reason}", d.why_stopped),
        None if out_of_time(g) => d.why_time.clone(),
        None => d.why_silence.clone(),
    };
    let clock = |s: Option<i64>| s.map_or_else(|| "–".to_owned(), |s| w.time_left(s));
    let days = g.clocks.as_ref().map(|c| {
        let side = if g.to_move == Color::White {
            &c.white
        } else {
            &c.black
        };
        side.move_used / crate::game::clock::DAY
    });
    html! {
        section.decision data-game=(g.id) {
            h2 { a href={ "/games/" (g.id) } { (g.id) } " · " (g.white) " – " (g.black) }
            dl.facts {
                dt { (d.needs) } dd.why { (why) }
                @if let Some(e) = &g.event { dt { (w.event) } dd { a href={ "/desk/events/" (e) } { (e) } } }
                dt { (w.to_move) } dd { (w.color(g.to_move)) }
                dt { (d.time_left) } dd { (clock(g.time_left[0])) " / " (clock(g.time_left[1])) }
                dt { (w.last_move) } dd { @if let Some(t) = g.last_move_at { (when(t)) } @else { "–" } }
                @if let Some(days) = days { dt { (d.silence_days) } dd.days { (days) } }
                @if g.on_leave.iter().any(|l| *l) { dt { (d.leave) } dd { (w.color(if g.on_leave[0] { Color::White } else { Color::Black })) } }
            }
            (adjudicate_form(a, g))
        }
    }
}

fn adjudicate_form(a: &Arbiter, g: &Watched) -> Markup {
    let d = words(a.tongue);
    html! {
        form.desk.adjudicate method="post" action={ "/desk/games/" (g.id) } {
            (frame::token(a))
            p.note { (d.adjudicate_help) }
            (frame::result_and_reason(a))
            button type="submit" { (d.adjudicate) }
        }
    }
}

/// `POST /desk/games/{id}`: `ADJUDICATE`, then back to the desk with the answer.
pub async fn adjudicate(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let reply = match Command::adjudicate(&id, f.get("result"), f.get("reason")) {
        Ok(command) => send(&web, command).await,
        Err(e) => super::refusal(&e),
    };
    frame::answered(&web, &a, &reply, "/desk")
}
