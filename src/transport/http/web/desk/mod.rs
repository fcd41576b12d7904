//! The arbiter's desk: players, events, the games waiting for a decision, from the browser,
//! for the arbiter logged in at `/login` with the admin secret.
//!
//! | route | what |
//! |---|---|
//! | `GET /desk` | the games waiting for the arbiter, each with its facts and the adjudication form |
//! | `POST /desk/games/{id}` | `ADJUDICATE` |
//! | `POST /desk/correct` | `ADJUDICATE` on a finished game: its result corrected |
//! | `POST /desk/leave` | special leave: `LEAVE first days FOR player reason` |
//! | `GET`, `POST /desk/players` | the players with their ratings (`?q=` searches), and `PLAYER ADD` |
//! | `POST /desk/players/{id}` | `PLAYER SET`, or `PLAYER SECRET` (`do=secret`) |
//! | `GET`, `POST /desk/events` | `EVENTS`, and `EVENT NEW` |
//! | `GET`, `POST /desk/events/{id}` | `EVENT SHOW`, the crosstable and the games with the arbiter's columns; `EVENT ENTER`, `DRAW`, `START`, `WITHDRAW` |
//! | `GET /desk/events/{id}/crosstable.csv` | the crosstable, as a file |
//! | `GET /desk/record` | `journal verify`'s verdict, the heads, the exports, the day's entries of the arbiter (`?day=`) |
//! | `GET /desk/record/game`, `/desk/record/event`, `/desk/record/ratings` | a game's PGN or ICCF scoresheet, an event's PGN or record, the rating list, as files |
//!
//! The desk is a view and a set of forms over the admin's commands of the line protocol, not
//! a second implementation: each form becomes the typed [`Command`] the grammar would read
//! from the same words, sent to the relay as the arbiter's on channel `http`, journaled and
//! answered as over the line; the answer is shown as the line writes it. Its walls are the
//! players' pages': every form carries the session's form token and is refused with 403
//! without it, or without an arbiter's session (a player's session is not one); every page is
//! `no-store`; a command that carries a secret (`PLAYER ADD`, `PLAYER SECRET`) is taken only
//! over a private wire, as the line takes it, and its secret is shown on the answer's page
//! alone, never kept. Files: `players.rs`, `events.rs`, `event.rs`, `decisions.rs`, `record.rs` (a page each; `withdraw.rs` a withdrawal confirmed; `correct.rs` a finished game's result corrected; `special_leave.rs` the arbiter's leave for a player; `standings.rs` the crosstable they share),
//! `frame.rs` (the frame, the answers shown after a form), `words.rs` (the catalog's words).

mod correct;
mod decisions;
mod event;
mod events;
mod frame;
mod players;
mod record;
mod special_leave;
mod standings;
mod withdraw;
mod words;

pub use frame::Answers;
pub use words::words;

use std::sync::Arc;

use axum::Router;
use axum::extract::Extension;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use super::Web;
use super::login::ArbiterSession;
use super::words::Tongue;
use crate::command::Command;
use crate::relay::{Channel, Reply, Request, Sender};
use crate::transport::http::{ConnectionPeer, PeerAddr};

/// The desk's routes.
pub fn routes() -> Router<Arc<Web>> {
    Router::new()
        .route("/desk", get(decisions::page))
        .route("/desk/games/{id}", post(decisions::adjudicate))
        .route("/desk/correct", post(correct::correct))
        .route("/desk/leave", post(special_leave::grant))
        .route("/desk/players", get(players::list).post(players::add))
        .route("/desk/players/{id}", post(players::change))
        .route("/desk/events", get(events::list).post(events::make))
        .route("/desk/events/{id}", get(events::page).post(events::act))
        .route(
            "/desk/events/{id}/crosstable.csv",
            get(events::crosstable_csv),
        )
        .route("/desk/record", get(record::page))
        .route("/desk/record/game", get(record::game))
        .route("/desk/record/event", get(record::event))
        .route("/desk/record/ratings", get(record::ratings))
}

/// The arbiter at the desk: their session and the pages' language.
pub struct Arbiter {
    pub session: ArbiterSession,
    pub tongue: Tongue,
}

/// The arbiter of a page's request, or the way to the login.
pub fn arbiter(web: &Web, headers: &HeaderMap) -> Result<Arbiter, Box<Response>> {
    let tongue = super::tongue_of(headers, None);
    match web.arbiters.session(headers) {
        Some(session) => Ok(Arbiter { session, tongue }),
        None => Err(Box::new(Redirect::to("/login").into_response())),
    }
}

/// The arbiter of a form's request, when the form carries their session's token; else the
/// 403 page, nothing done (no session, a player's session, a form from elsewhere).
pub fn posting(web: &Web, headers: &HeaderMap, fields: &Fields) -> Result<Arbiter, Box<Response>> {
    let tongue = super::tongue_of(headers, None);
    match web.arbiters.session(headers) {
        Some(session) if same(&session.form_token, fields.get("form")) => {
            Ok(Arbiter { session, tongue })
        }
        _ => Err(Box::new(frame::forged(tongue))),
    }
}

/// `a == b`, in a time that does not tell how much of them matched.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A form's fields in order, a name possibly repeated (the players ticked to enter).
#[derive(Default)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    pub fn new(pairs: Vec<(String, String)>) -> Fields {
        Fields(pairs)
    }

    /// The first value of `name`, trimmed; empty when absent.
    pub fn get(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.trim())
    }

    /// Every non-empty value of `name`, in order.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(n, v)| n == name && !v.trim().is_empty())
            .map(|(_, v)| v.trim().to_owned())
            .collect()
    }

    /// The value of `name`, if it is not empty.
    pub fn some(&self, name: &str) -> Option<String> {
        Some(self.get(name))
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    }
}

/// The arbiter, as the relay takes the desk's commands: the admin, on channel `http`.
fn admin() -> Sender {
    Sender {
        player: "admin".to_owned(),
        admin: true,
        channel: Channel::Http,
    }
}

/// Sends `command` as the arbiter's; the relay's reply.
pub async fn send(web: &Web, command: Command) -> Reply {
    web.ctx.relay.call(Request::new(admin(), command)).await
}

/// Whether no one else can read the wire of this request: TLS, or both hops on this machine
/// (the rule the line protocol applies, `tcp::private_wire`).
pub fn private_wire(
    web: &Web,
    hop: Option<Extension<ConnectionPeer>>,
    client: Option<Extension<PeerAddr>>,
) -> bool {
    match (hop, client) {
        (Some(hop), Some(client)) => {
            crate::transport::tcp::private_wire(web.tls, hop.0.0, client.0.0)
        }
        _ => web.tls,
    }
}

/// Sends `command`, which carries a secret, only over a private wire; else the refusal the
/// line protocol gives, nothing done.
pub async fn send_secret(web: &Web, private: bool, command: Command) -> Reply {
    match command.carries_secret() {
        Some(name) if !private => crate::transport::context::not_private(name),
        _ => send(web, command).await,
    }
}

/// The reply as the line protocol writes it (`250 ...`, its lines, its receipt).
pub fn line_of(reply: &Reply) -> String {
    let mut buf = bytes::BytesMut::new();
    crate::transport::line::put_reply(&mut buf, reply);
    String::from_utf8_lossy(&buf).trim_end().to_owned()
}

/// The line protocol's answer to words it cannot read as a command: what a form whose fields
/// do not make one is answered.
pub fn refusal(e: &crate::command::CommandError) -> Reply {
    crate::transport::line::LineError::from(e.clone()).reply()
}

/// Whether `id` is safe in a path the desk sends the browser to: letters, digits, `-`, `_`,
/// `.`, as ids are.
pub fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}
