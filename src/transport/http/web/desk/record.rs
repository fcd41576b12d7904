//! The record at the desk: `journal verify`'s verdict, the chain's head and the last signed
//! head, the official exports as files (a game's PGN or ICCF scoresheet, an event's PGN or
//! record), and the day's entries the arbiter made (`?day=2027-03-12`, today by default),
//! each read through the relay's mailbox from the journal `ccrelay journal` reads.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use super::super::{Web, bad_request, not_found};
use super::{Arbiter, frame, words};
use crate::relay::{AdminEntry, ExportFormat, Heads, ListFormat, write_list};

/// The day asked for (`YYYY-MM-DD`), or today's (UTC).
fn day_of(query: &BTreeMap<String, String>) -> Option<String> {
    match query.get("day") {
        Some(day) => day.parse::<jiff::civil::Date>().ok().map(|d| d.to_string()),
        None => Some(jiff::Timestamp::now().strftime("%Y-%m-%d").to_string()),
    }
}

/// `GET /desk/record`.
pub async fn page(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match frame::viewing(&web, &headers, &query, "/desk/record") {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let Some(day) = day_of(&query) else {
        return bad_request(a.tongue, "day: a date, 2027-03-12");
    };
    let mailbox = &web.ctx.mailbox;
    let verdict = mailbox.verdict().await.map(|v| v.to_string());
    let heads = mailbox.heads().await.ok();
    let log = mailbox.admin_entries(&day).await.unwrap_or_default();
    let d = words(a.tongue);
    let body = html! {
        h1 { (d.record) }
        h2 { (d.verdict) }
        @match &verdict {
            Ok(line) => p #verdict .flash.done { samp { (line) } },
            Err(e) => p #verdict .flash.refused { (d.verify_failed) " " samp { (e.to_string()) } },
        }
        @if let Some(heads) = &heads { (heads_list(&a, heads)) }
        (exports(&a))
        (day_log(&a, &day, &log))
    };
    frame::page(&a, &d.record, None, body)
}

fn heads_list(a: &Arbiter, heads: &Heads) -> Markup {
    let d = words(a.tongue);
    html! {
        dl.facts #heads {
            dt { (d.head) } dd { code { (heads.seq) " " (heads.hash) } }
            dt { (d.signed_head) }
            dd { @match &heads.signed {
                Some((seq, hash, key)) => code #signed-head { (seq) " " (hash) " " (key) },
                None => (d.no_signed_head),
            } }
        }
    }
}

fn exports(a: &Arbiter) -> Markup {
    let d = words(a.tongue);
    html! {
        h2 { (d.exports) }
        form.desk #export-game method="get" action="/desk/record/game" {
            label { (d.export_game) " " input type="text" name="game" required maxlength="64"; }
            select name="format" { option value="pgn" { "PGN" } option value="iccf" { (d.format_iccf) } }
            button type="submit" { (d.download) }
        }
        form.desk #export-event method="get" action="/desk/record/event" {
            label { (d.export_event) " " input type="text" name="event" required maxlength="64"; }
            select name="format" { option value="pgn" { "PGN" } option value="record" { (d.event_record) } }
            button type="submit" { (d.download) }
        }
        form.desk #export-ratings method="get" action="/desk/record/ratings" {
            label { (d.export_ratings) " "
                select name="format" { option value="csv" { "CSV" } option value="text" { (d.format_text) } }
            }
            button type="submit" { (d.download) }
        }
    }
}

fn day_log(a: &Arbiter, day: &str, log: &[AdminEntry]) -> Markup {
    let d = words(a.tongue);
    html! {
        h2 { (d.day_log) }
        form.desk method="get" action="/desk/record" {
            label { (d.day) " " input type="date" name="day" value=(day); }
            button type="submit" { (d.search) }
        }
        @if log.is_empty() { p { (d.nothing_that_day) } }
        @else {
            div.scroll { table.desk #day-log {
                thead { tr { th.num { (d.entry) } th { (d.time) } th { (d.channel) } th { (d.kind) } th { (d.command) } } }
                tbody { @for (seq, time, channel, kind, text) in log {
                    tr { td.num { (seq) } td { (time) } td { (channel) } td { (kind) } td { code { (text) } } }
                } }
            } }
        }
    }
}

/// A text file to download, named `name` (every export is UTF-8 text).
fn file(name: &str, text: String) -> Response {
    let disposition = format!("attachment; filename=\"{name}\"");
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}

/// `GET /desk/record/game?game=g1&format=pgn|iccf`.
pub async fn game(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match super::arbiter(&web, &headers) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let id = query.get("game").map_or("", |g| g.trim());
    let format = query.get("format").map_or("pgn", String::as_str);
    let (format, ext) = match format {
        "iccf" => (ExportFormat::Iccf, "txt"),
        _ => (ExportFormat::Pgn, "pgn"),
    };
    if !super::is_id(id) {
        return not_found(a.tongue);
    }
    match web.ctx.mailbox.export_game(id, format).await {
        Ok(text) => file(&format!("{id}.{ext}"), text),
        Err(_) => not_found(a.tongue),
    }
}

/// `GET /desk/record/ratings?format=csv|text`: the rating list in effect today, as
/// `ccrelay journal ratings` writes it (the same function over the same results; unsigned, as
/// the desk's other downloads: the command line signs).
pub async fn ratings(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match super::arbiter(&web, &headers) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let (format, ext) = match query.get("format").map(String::as_str) {
        Some("text") => (ListFormat::Text, "txt"),
        _ => (ListFormat::Csv, "csv"),
    };
    let Ok(list) = web.ctx.relay.ratings().await else {
        return super::super::unavailable(a.tongue);
    };
    let names = crate::relay::names(&web.ctx.config, false);
    let text = write_list(&list, &web.ctx.config.ratings, &names, format);
    file(&format!("ratings-{}.{ext}", list.effective), text)
}

/// `GET /desk/record/event?event=club&format=pgn|record`.
pub async fn event(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match super::arbiter(&web, &headers) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let id = query.get("event").map_or("", |e| e.trim());
    let record = query.get("format").is_some_and(|f| f == "record");
    if !super::is_id(id) {
        return not_found(a.tongue);
    }
    let name = if record {
        format!("{id}-record.txt")
    } else {
        format!("{id}.pgn")
    };
    match web.ctx.mailbox.export_event(id, record).await {
        Ok(text) => file(&name, text),
        Err(_) => not_found(a.tongue),
    }
}
