//! The desk's events: the list as `EVENTS` answers it, each event's page, and the form that
//! makes one (`EVENT NEW`), each field with what it means. One event's page is `event.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{Markup, html};

use super::super::Web;
use super::frame;
use super::{Arbiter, Fields, posting, send, words};
use crate::command::Command;

pub use super::event::{act, crosstable_csv, page};

/// The `[[events]]` keys the form offers as typed fields: the key, the input's type, a
/// sample, the label and the help.
fn key_fields(a: &Arbiter) -> [(&'static str, &'static str, &'static str, &str, &str); 7] {
    let d = words(a.tongue);
    let w = super::super::words::Words::of(a.tongue);
    [
        ("name", "text", "", &d.name, &d.event_name_help),
        ("site", "text", "", &d.site, &d.site_help),
        ("time_control", "text", "10/50", &w.time_control, &d.tc_help),
        ("delay", "number", "", &d.delay, &d.delay_help),
        ("silence_days", "number", "", &d.silence, &d.silence_help),
        (
            "reminder_days",
            "text",
            "10,20",
            &d.reminders,
            &d.reminders_help,
        ),
        (
            "leave_days_per_year",
            "number",
            "",
            &d.leave_days,
            &d.leave_help,
        ),
    ]
}

/// The `[[events]]` keys chosen from a list, with their choices.
const CHOICES: [(&str, &[&str]); 3] = [
    ("game", &["chess", "draughts-ru"]),
    ("view", &["public", "delay", "finished", "private"]),
    ("on_timeout", &["forfeit", "arbiter"]),
];

/// The ids the `EVENTS` answer lists (each line after the count begins with one).
fn ids_of(text: &str) -> Vec<&str> {
    text.lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().next())
        .collect()
}

/// `GET /desk/events`: the events as `EVENTS` answers, a link to each, and the form that
/// makes one.
pub async fn list(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match frame::viewing(&web, &headers, &query, "/desk/events") {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let reply = send(&web, Command::Events).await;
    let d = words(a.tongue);
    let shown = frame::shown(&web, &a, &query);
    let body = html! {
        h1 { (d.events) }
        ul.events #event-links { @for id in ids_of(&reply.text) {
            li { a href={ "/desk/events/" (id) } { (id) } }
        } }
        details { summary { (d.event_list) } pre #events-text { samp { (super::line_of(&reply)) } } }
        (new_event_form(&a))
    };
    frame::page(&a, &d.events, shown.as_ref(), body)
}

fn help_of(help: &str) -> Markup {
    html! { small.help { (help) } }
}

fn system_field(a: &Arbiter) -> Markup {
    let d = words(a.tongue);
    let systems = [
        ("round-robin", &d.round_robin),
        ("double-round-robin", &d.double_round_robin),
        ("match", &d.match_system),
        ("knockout", &d.knockout),
    ];
    html! {
        label { (d.system) " "
            select name="system" required {
                @for (value, label) in systems { option value=(value) { (label) } }
            }
        }
        (help_of(&d.system_help))
    }
}

fn choice_fields(a: &Arbiter) -> Markup {
    let d = words(a.tongue);
    let labels = [
        (&d.game_kind, &d.game_help),
        (&d.view, &d.view_help),
        (&d.on_timeout, &d.on_timeout_help),
    ];
    html! {
        @for ((key, choices), (label, help)) in CHOICES.iter().zip(labels) {
            label { (label) " "
                select name=(key) {
                    @for c in choices.iter() { option value=(c) { (c) } }
                }
            }
            (help_of(help))
        }
    }
}

fn new_event_form(a: &Arbiter) -> Markup {
    let d = words(a.tongue);
    html! {
        h2 #new-event { (d.new_event) }
        form.desk.fields #event-form method="post" action="/desk/events" {
            (frame::token(a))
            label { (d.id) " " input type="text" name="id" required maxlength="64" pattern="[A-Za-z0-9._-]+"; }
            (help_of(&d.event_id_help))
            (system_field(a))
            @for (key, kind, placeholder, label, help) in key_fields(a) {
                label { (label) " " input type=(kind) name=(key) placeholder=(placeholder) min="0"; }
                (help_of(help))
            }
            (choice_fields(a))
            button type="submit" { (d.make) }
        }
    }
}

/// The `[[events]]` keys a form gives, each empty one left out; `view` and the rest left
/// at their defaults when the form's choice is the default.
fn keys_of(f: &Fields) -> Vec<(String, String)> {
    let typed = ["name", "site", "time_control", "delay", "silence_days"];
    let more = [
        "reminder_days",
        "leave_days_per_year",
        "game",
        "view",
        "on_timeout",
    ];
    typed
        .iter()
        .chain(more.iter())
        .filter_map(|key| f.some(key).map(|v| ((*key).to_owned(), v)))
        .filter(|(key, v)| !is_default(key, v))
        .collect()
}

/// A choice the configuration makes anyway when the key is absent.
fn is_default(key: &str, value: &str) -> bool {
    matches!(
        (key, value),
        ("game", "chess") | ("view", "public") | ("on_timeout", "forfeit")
    )
}

/// `POST /desk/events`: `EVENT NEW`; to the new event's page, or back with the refusal.
pub async fn make(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let id = f.get("id").to_owned();
    let reply = match Command::event_new(&id, f.get("system"), keys_of(&f)) {
        Ok(command) => send(&web, command).await,
        Err(e) => super::refusal(&e),
    };
    let to = if reply.status.is_success() && super::is_id(&id) {
        format!("/desk/events/{id}")
    } else {
        "/desk/events".to_owned()
    };
    frame::answered(&web, &a, &reply, &to)
}
