//! The desk's players: the list as the roster holds it (every transport's view of the
//! players), with what the games say of each (games in progress, the last move they made),
//! searched by id, name or address; a player added (`PLAYER ADD`), changed (`PLAYER SET`),
//! given a new secret (`PLAYER SECRET`). A new secret is shown once, on the answer's own page
//! (not cached, like every page), with a sheet that prints alone for a player who gets it on
//! paper.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::Form;
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use jiff::Timestamp;
use maud::{Markup, html};

use super::super::pages::when;
use super::super::{Web, unavailable};
use super::frame::{self, Shown};
use super::{Arbiter, Fields, posting, private_wire, send, send_secret, words};
use crate::command::{Command, PlayerAction, PlayerFields};
use crate::config::Player;
use crate::relay::{Reply, Standing, Watched, notation_name, reach_name};
use crate::transport::http::{ConnectionPeer, PeerAddr};

/// The notations a player may read, as `PLAYER` names them.
const NOTATIONS: [&str; 5] = ["san", "lan", "iccf", "figurine", "uci"];
/// How a player may be reached from the desk.
const REACHES: [&str; 3] = ["tcp", "email", "xfcc"];
/// The languages the pages offer first (any other code the relay reads may be typed).
const LANGS: [&str; 3] = ["en", "ru", "uk"];

/// What the games say of a player: games in progress, and when they last moved.
#[derive(Default)]
struct Activity {
    in_progress: usize,
    last_heard: Option<Timestamp>,
}

/// Whether a game is over.
pub fn over(g: &Watched) -> bool {
    matches!(g.standing, Standing::Over { .. })
}

/// Each player's [`Activity`], from every game.
fn activity(games: &[Watched]) -> HashMap<&str, Activity> {
    let mut by_player: HashMap<&str, Activity> = HashMap::new();
    for g in games {
        for id in [g.white_id.as_str(), g.black_id.as_str()] {
            by_player.entry(id).or_default().in_progress += usize::from(!over(g));
        }
        // The last move was made by the side not to move now.
        let mover = match g.to_move {
            shakmaty::Color::White => g.black_id.as_str(),
            shakmaty::Color::Black => g.white_id.as_str(),
        };
        if let Some(at) = g.last_move_at {
            let heard = &mut by_player.entry(mover).or_default().last_heard;
            *heard = (*heard).max(Some(at));
        }
    }
    by_player
}

/// Whether `p` answers the search `q` (lower case): in their id, name or address.
fn matches(p: &Player, q: &str) -> bool {
    let address = p.email.as_ref().map(|e| e.address.to_lowercase());
    q.is_empty()
        || p.id.to_lowercase().contains(q)
        || p.name.to_lowercase().contains(q)
        || address.is_some_and(|a| a.contains(q))
}

/// `GET /desk/players`: the players (`?q=` searches), each with their forms, and the form
/// that adds one.
pub async fn list(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let a = match frame::viewing(&web, &headers, &query, "/desk/players") {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let Ok(games) = web.ctx.relay.watch(None, true).await else {
        return unavailable(a.tongue);
    };
    let q = query
        .get("q")
        .map_or(String::new(), |q| q.trim().to_lowercase());
    let roster = web.ctx.relay.roster().snapshot();
    let mut players: Vec<&Player> = roster.values().filter(|p| matches(p, &q)).collect();
    players.sort_unstable_by(|x, y| x.id.cmp(&y.id));
    let shown = frame::shown(&web, &a, &query);
    let d = words(a.tongue);
    let body = html! {
        h1 { (d.players) }
        (search(&a, &q))
        (table(&a, &players, &activity(&games), &super::super::ratings::beside_names(&web).await))
        @for p in &players { (change_form(&a, p)) }
        (super::special_leave::form(&a, &players))
        (add_form(&a))
    };
    frame::page(&a, &d.players, shown.as_ref(), body)
}

fn search(a: &Arbiter, q: &str) -> Markup {
    let d = words(a.tongue);
    html! {
        form.choose #search method="get" action="/desk/players" role="search" {
            input type="search" name="q" value=(q) aria-label=(d.search);
            button type="submit" { (d.search) }
        }
    }
}

/// The players' table; `ratings`: each rated player's rating as written beside a name.
fn table(
    a: &Arbiter,
    players: &[&Player],
    activity: &HashMap<&str, Activity>,
    ratings: &BTreeMap<String, String>,
) -> Markup {
    let d = words(a.tongue);
    let rating = a.tongue.word(crate::catalog::Key::WebRatingsRating);
    let none = Activity::default();
    html! {
        @if players.is_empty() { p { (d.no_players) } }
        @else {
            table.desk #players { thead { tr {
                th { (d.id) } th { (d.name) } th { (d.reach) } th { (d.notation) } th { (d.lang) }
                th.num { (rating) } th.num { (d.in_progress) } th { (d.last_heard) }
            } } tbody { @for p in players {
                @let act = activity.get(p.id.as_str()).unwrap_or(&none);
                tr data-player=(p.id) {
                    td data-label=(d.id) { a href={ "#p-" (p.id) } { (p.id) } }
                    td data-label=(d.name) { (p.name) }
                    td data-label=(d.reach) { (reach_name(&p.reach))
                        @if let Some(e) = &p.email { " <" (e.address) ">" } }
                    td data-label=(d.notation) { (notation_name(p.notation)) }
                    td data-label=(d.lang) { (p.lang.map(|l| l.code()).unwrap_or("")) }
                    td.num.rating data-label=(rating) { (ratings.get(&p.id).map_or("", String::as_str)) }
                    td.num data-label=(d.in_progress) { (act.in_progress) }
                    td data-label=(d.last_heard) { @if let Some(t) = act.last_heard { (when(t)) } }
                }
            } } }
        }
    }
}

/// A `<select>` of `choices` named `name`, `first` the empty choice's words.
fn select(name: &str, label: &str, first: &str, choices: &[&str]) -> Markup {
    html! {
        label { (label) " "
            select name=(name) {
                option value="" { (first) }
                @for c in choices { option value=(c) { (c) } }
            }
        }
    }
}

/// The fields a player's details are written in, empty ones left as they are.
fn detail_fields(a: &Arbiter, first: &str) -> Markup {
    let d = words(a.tongue);
    html! {
        label { (d.name) " " input type="text" name="name" maxlength="100"; }
        (select("notation", &d.notation, first, &NOTATIONS))
        label { (d.lang) " " input type="text" name="lang" list="langs" size="4" maxlength="8"; }
        datalist #langs { @for l in LANGS { option value=(l) {} } }
        (select("reach", &d.reach, first, &REACHES))
        label { (d.email) " " input type="email" name="email" maxlength="254"; }
    }
}

fn change_form(a: &Arbiter, p: &Player) -> Markup {
    let d = words(a.tongue);
    let action = format!("/desk/players/{}", p.id);
    html! {
        details.player #{ "p-" (p.id) } {
            summary { (p.id) " · " (d.change) " · " (d.new_secret) }
            form.desk method="post" action=(action) {
                (frame::token(a))
                input type="hidden" name="do" value="set";
                (detail_fields(a, &d.unchanged))
                button type="submit" { (d.change) }
            }
            form.desk method="post" action=(action) {
                (frame::token(a))
                input type="hidden" name="do" value="secret";
                p.note { (d.new_secret_help) }
                button type="submit" { (d.new_secret) }
            }
        }
    }
}

fn add_form(a: &Arbiter) -> Markup {
    let d = words(a.tongue);
    html! {
        h2 #add { (d.add_player) }
        p.note { (d.add_help) }
        form.desk #add-player method="post" action="/desk/players" {
            (frame::token(a))
            label { (d.id) " " input type="text" name="id" required maxlength="64" pattern="[A-Za-z0-9._-]+"; }
            (detail_fields(a, "-"))
            button type="submit" { (d.add) }
        }
    }
}

/// A player's details from a form: each empty field left out.
fn fields_of(f: &Fields) -> PlayerFields {
    PlayerFields {
        name: f.some("name"),
        notation: f.some("notation"),
        lang: f.some("lang"),
        reach: f.some("reach"),
        email: f.some("email"),
        callsign: f.some("callsign"),
        aprs_width: f.some("aprs_width"),
        // A starting rating is given with its reason over the line (`PLAYER SET p RATING`).
        rating: None,
    }
}

/// `POST /desk/players`: `PLAYER ADD`; the new secret's page, or the refusal shown on the
/// list.
pub async fn add(
    State(web): State<Arc<Web>>,
    hop: Option<Extension<ConnectionPeer>>,
    client: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let command = Command::Player {
        id: f.get("id").to_owned(),
        action: PlayerAction::Add,
        fields: fields_of(&f),
    };
    let reply = send_secret(&web, private_wire(&web, hop, client), command).await;
    secret_or_answer(&web, &a, f.get("id"), &reply)
}

/// `POST /desk/players/{id}`: `PLAYER SET` (`do=set`) or `PLAYER SECRET` (`do=secret`).
pub async fn change(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    hop: Option<Extension<ConnectionPeer>>,
    client: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    if f.get("do") == "secret" {
        let command = Command::Player {
            id: id.clone(),
            action: PlayerAction::Secret,
            fields: PlayerFields::default(),
        };
        let reply = send_secret(&web, private_wire(&web, hop, client), command).await;
        return secret_or_answer(&web, &a, &id, &reply);
    }
    let reply = match Command::player_set(&id, fields_of(&f)) {
        Ok(command) => send(&web, command).await,
        Err(e) => super::refusal(&e),
    };
    frame::answered(&web, &a, &reply, "/desk/players")
}

/// The page of a new secret when the reply carries one; else the answer on the list.
fn secret_or_answer(web: &Web, a: &Arbiter, id: &str, reply: &Reply) -> Response {
    let secret = reply
        .ends_with_secret
        .then(|| reply.text.split_whitespace().last())
        .flatten();
    match secret {
        Some(secret) if reply.status.is_success() => secret_page(a, id, secret, reply),
        _ => frame::answered(web, a, reply, "/desk/players"),
    }
}

/// The new secret, once: the answer as the line wrote it, and the sheet that prints alone.
fn secret_page(a: &Arbiter, id: &str, secret: &str, reply: &Reply) -> Response {
    let d = words(a.tongue);
    let body = html! {
        p.note.warning { (d.secret_once) }
        section.sheet #sheet {
            h2 { (d.sheet) }
            dl.facts {
                dt { (d.id) } dd { code #sheet-id { (id) } }
                dt { (d.new_secret) } dd { code #secret { (secret) } }
            }
            p { (d.sheet_how) }
        }
        p.note { (d.print) }
        p { a href="/desk/players" { (d.back) } }
    };
    frame::page(a, &d.new_secret, Some(&Shown::of(reply)), body)
}
