//! One event at the desk: what `EVENT SHOW` answers, the crosstable as the spectators' page
//! computes it, every game with the arbiter's columns (time left, the last move, days on
//! this move, leave), and the forms: enter players (`EVENT ENTER`), draw lots (`EVENT
//! DRAW`), start (`EVENT START`), withdraw a player (`EVENT WITHDRAW`, confirmed on a page
//! that shows the standings now and after, `withdraw.rs`; what both draw, `standings.rs`). The crosstable is also a file.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use shakmaty::Color;

use super::super::pages::{result_text, when};
use super::super::{Web, not_found, unavailable};
use super::frame;
use super::standings::{crosstable_table, games_of, mark, names};
use super::{Arbiter, Fields, posting, send, words};
use crate::command::{Command, EventAction};
use crate::relay::{Standing, Watched, crosstable, halves, quarters};

/// `GET /desk/events/{id}`.
pub async fn page(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let path = format!("/desk/events/{id}");
    let a = match frame::viewing(&web, &headers, &query, &path) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let show = Command::Event {
        id: id.clone(),
        action: EventAction::Show,
    };
    let reply = send(&web, show).await;
    if !reply.status.is_success() {
        return not_found(a.tongue);
    }
    let Some(games) = games_of(&web, &id).await else {
        return unavailable(a.tongue);
    };
    let d = words(a.tongue);
    let shown = frame::shown(&web, &a, &query);
    let body = html! {
        h1 { (id) }
        pre #event-text aria-label=(d.event_text) { samp { (super::line_of(&reply)) } }
        @if !games.is_empty() {
            (crosstable_table(&a, &games, &crosstable(&games)))
            p { a #crosstable-csv href={ (path) "/crosstable.csv" } download { (d.download_crosstable) } }
            (games_table(&a, &games))
        }
        (forms(&web, &a, &id, &games))
    };
    frame::page(&a, &id, shown.as_ref(), body)
}

/// The side to move's days on this move, from the clocks (a game with a limit).
fn days_on_move(g: &Watched) -> Option<i64> {
    let clocks = g.clocks.as_ref()?;
    let side = match g.to_move {
        Color::White => &clocks.white,
        Color::Black => &clocks.black,
    };
    Some(side.move_used / crate::game::clock::DAY)
}

/// The days-on-this-move cell: empty for a game over or without a limit.
fn silence_cell(g: &Watched) -> String {
    match (&g.standing, days_on_move(g)) {
        (Standing::Over { .. }, _) | (_, None) => String::new(),
        (_, Some(days)) => days.to_string(),
    }
}

/// Each game with the arbiter's columns.
fn games_table(a: &Arbiter, games: &[Watched]) -> Markup {
    let w = super::super::words::Words::of(a.tongue);
    let d = words(a.tongue);
    let clock = |s: Option<i64>| s.map_or_else(|| "–".to_owned(), |s| w.time_left(s));
    html! {
        div.scroll { table.desk #event-games {
            thead { tr {
                th { (w.round) } th { (w.game) } th { (w.white) } th { (w.black) } th { (w.result) }
                th { (d.time_left) } th { (w.last_move) } th.num { (d.silence_days) } th { (d.leave) }
            } }
            tbody { @for g in games {
                tr data-game=(g.id) {
                    td { (g.round.as_deref().unwrap_or("")) }
                    td { a href={ "/games/" (g.id) } { (g.id) } }
                    td { (g.white) } td { (g.black) }
                    td.result { (result_text(w, &g.standing)) }
                    td { (clock(g.time_left[0])) " / " (clock(g.time_left[1])) }
                    td { @if let Some(t) = g.last_move_at { (when(t)) } }
                    td.num.silence { (silence_cell(g)) }
                    td { @if g.on_leave[0] { (w.white) " " } @if g.on_leave[1] { (w.black) } }
                }
            } }
        } }
    }
}

/// The event's forms: enter, draw lots, start, withdraw.
fn forms(web: &Web, a: &Arbiter, id: &str, games: &[Watched]) -> Markup {
    let d = words(a.tongue);
    let roster = web.ctx.relay.roster().snapshot();
    let mut ids: Vec<&str> = roster.keys().map(String::as_str).collect();
    ids.sort_unstable();
    let action = format!("/desk/events/{id}");
    let playing: Vec<&str> = names(games).into_keys().collect();
    let withdrawable = if playing.is_empty() { &ids } else { &playing };
    html! {
        h2 { (d.enter) }
        form.desk #enter method="post" action=(action) {
            (frame::token(a))
            input type="hidden" name="do" value="enter";
            p.note { (d.enter_help) }
            fieldset.players { @for p in &ids {
                label { input type="checkbox" name="player" value=(p); " " (p) }
            } }
            button type="submit" { (d.enter) }
        }
        div.buttons {
            (button(a, &action, "draw", &d.draw_lots))
            (button(a, &action, "start", &d.start))
        }
        p.note { (d.start_help) }
        h2 { (d.withdraw) }
        form.desk #withdraw method="post" action=(action) {
            (frame::token(a))
            input type="hidden" name="do" value="withdraw";
            label { (super::super::words::Words::of(a.tongue).player) " "
                select name="player" required { @for p in withdrawable { option value=(p) { (p) } } } }
            label { (d.reason) " " input type="text" name="reason" required maxlength="200"; }
            button type="submit" { (d.withdraw) }
        }
    }
}

/// A form of one button that sends `do=action`.
fn button(a: &Arbiter, to: &str, action: &str, label: &str) -> Markup {
    html! {
        form.inline method="post" action=(to) {
            (frame::token(a))
            input type="hidden" name="do" value=(action);
            button type="submit" id={ "do-" (action) } { (label) }
        }
    }
}

/// `POST /desk/events/{id}`: `EVENT ENTER`, `DRAW`, `START`, or `WITHDRAW` (confirmed first,
/// `sure=yes`, on the page that shows what it does to the standings).
pub async fn act(
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
    if f.get("do") == "withdraw" && f.get("sure") != "yes" {
        return super::withdraw::confirm(&web, &a, &id, &f).await;
    }
    let command = match f.get("do") {
        "enter" => Command::enter(&id, f.all("player")),
        "withdraw" => Command::withdraw(&id, f.get("player"), f.get("reason")),
        "draw" => Ok(event(&id, EventAction::Draw)),
        "start" => Ok(event(&id, EventAction::Start)),
        _ => Ok(event(&id, EventAction::Show)),
    };
    let reply = match command {
        Ok(command) => send(&web, command).await,
        Err(e) => super::refusal(&e),
    };
    let to = if super::is_id(&id) {
        format!("/desk/events/{id}")
    } else {
        "/desk/events".to_owned()
    };
    frame::answered(&web, &a, &reply, &to)
}

fn event(id: &str, action: EventAction) -> Command {
    Command::Event {
        id: id.to_owned(),
        action,
    }
}

/// A field of a CSV line: quoted when it holds a comma, a quote or a line break; a leading
/// `=`, `+`, `-`, `@` kept from being read as a formula by a spreadsheet.
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) && text.len() > 1 {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// The crosstable as CSV: place, player, a column an opponent by number, points, games, SB.
pub fn crosstable_text(games: &[Watched]) -> String {
    let rows = crosstable(games);
    let names = names(games);
    let mut head = vec!["place".to_owned(), "player".to_owned()];
    head.extend((1..=rows.len()).map(|i| i.to_string()));
    head.extend(["points", "games", "sb"].map(str::to_owned));
    let mut lines = vec![head.join(",")];
    for row in &rows {
        let name = names.get(row.id.as_str()).copied().unwrap_or(&row.id);
        let mut fields = vec![csv_field(&row.place), csv_field(name)];
        // The marks are the crosstable's own (`1`, `½`, `0`, `+`, `-`, `*`), written as they are.
        fields.extend(rows.iter().map(|other| mark(row, other)));
        fields.push(halves(row.points2));
        fields.push(row.games.to_string());
        fields.push(quarters(row.sb4));
        lines.push(fields.join(","));
    }
    lines.join("\n") + "\n"
}

/// `GET /desk/events/{id}/crosstable.csv`.
pub async fn crosstable_csv(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let a = match super::arbiter(&web, &headers) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let Some(games) = games_of(&web, &id).await else {
        return unavailable(a.tongue);
    };
    if games.is_empty() || !super::is_id(&id) {
        return not_found(a.tongue);
    }
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{id}-crosstable.csv\""),
            ),
        ],
        crosstable_text(&games),
    )
        .into_response()
}
