//! A player's own pages: their games, and each game from their side with a move box, a
//! board to move on, draw offers, claims, messages, conditional lines and leave.
//!
//! | route | what |
//! |---|---|
//! | `GET /play` | the login form, or the player's games, those waiting for their move first |
//! | `POST /play/login`, `POST /play/logout` | a session (see [`super::sessions`]) |
//! | `GET /play/games/{id}` | a game of theirs: board from their side, moves in their notation |
//! | `GET /play/games/{id}/preview?move=...` | the move as the relay reads it, as JSON; nothing changes |
//! | `POST /play/games/{id}` | an action (`do=`): preview, move, draw, resign, claim, message, line |
//! | `POST /play/leave` | leave in all their games |
//! | `GET /play/receipts/{n}` | the signed receipt of entry `n`, as a file |
//! | `GET /play/live` | Server-Sent Events: `change` when one of their games changed |
//! | `GET`, `POST /play/notify` | their mail when it is their move; `/notify/unsubscribe` its one-click stop (`notify.rs`) |
//!
//! Everything a player does here is the command they would send over TCP, sent to the relay
//! as theirs: the same journal entry, receipt, refusals and pushes to the opponent. Every
//! form carries the session's form token; a form without it is refused with 403 and changes
//! nothing. After an action the browser is sent back to the game (303, `?done=N`), where the
//! reply shows with its receipt.

mod act;
mod game;
mod login;
mod mine;
mod notify;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use super::said::Told;
use super::sessions::{PlayerSessions, WebSession};
use super::words::{Tongue, Words};
use super::{Web, cookie, layout};
use crate::notation::{Lang, Notation};

/// The session cookie's name.
pub const COOKIE: &str = "ccrelay_player";
/// The script of the players' pages: the board under the mouse, finger and keyboard, the
/// move box's preview, and the page followed live.
pub const SCRIPT: &str = include_str!("play.js");
/// Where [`SCRIPT`] is served.
pub const SCRIPT_PATH: &str = concat!("/assets/play-", env!("CARGO_PKG_VERSION"), ".js");
/// The page's icon, and the icon that says it is the player's move.
pub const ICON_PATH: &str = "/assets/icon.svg";
pub const ICON_TURN_PATH: &str = "/assets/icon-turn.svg";
pub const ICON: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#3b2f24"/><path d="M4 13h8v-2l-2-1v-3l1-2h-6l1 2v3l-2 1z" fill="#f0d9b5"/></svg>"##;
pub const ICON_TURN: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#3b2f24"/><path d="M4 13h8v-2l-2-1v-3l1-2h-6l1 2v3l-2 1z" fill="#f0d9b5"/><circle cx="12.5" cy="3.5" r="3.5" fill="#e03030"/></svg>"##;

/// The replies to players' actions, each shown on the page the browser is sent to after the
/// action (`?done=N`, for [`FLASH_KEPT`]; a page followed live shows it again when it is put
/// in place anew, and a second tab does not take it away). `N` is drawn at random for each
/// reply and found only with its own session: it counts nothing, so it tells nobody how many
/// actions anyone took.
#[derive(Default)]
pub struct Flashes(Mutex<FlashMap>);

#[derive(Default)]
struct FlashMap {
    /// By (session, number): when it was said, and what.
    replies: HashMap<(String, u64), (std::time::Instant, Told)>,
}

/// A reply's number for `session`: random (53 bits, whole in a script's number), never 0,
/// never one the session already has.
fn flash_number(map: &FlashMap, session: &str) -> u64 {
    loop {
        let mut bytes = [0u8; 8];
        let n = match getrandom::fill(&mut bytes) {
            Ok(()) => u64::from_le_bytes(bytes) >> 11,
            // No randomness: one past the session's own numbers, which tell of nobody else.
            Err(_) => {
                let own = map.replies.keys().filter(|(s, _)| s == session);
                own.map(|(_, n)| *n).max().unwrap_or(0) + 1
            }
        };
        if n != 0 && !map.replies.contains_key(&(session.to_owned(), n)) {
            return n;
        }
    }
}

/// Replies kept at once, at most.
const MAX_FLASHES: usize = 4096;
/// How long a reply is shown.
const FLASH_KEPT: std::time::Duration = std::time::Duration::from_secs(600);

impl Flashes {
    /// Keeps `reply` for the session; the number its page asks for it by.
    fn put(&self, session: &WebSession, reply: Told) -> u64 {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.replies.retain(|_, (at, _)| at.elapsed() < FLASH_KEPT);
        if map.replies.len() >= MAX_FLASHES {
            map.replies.clear();
        }
        let n = flash_number(&map, &session.id);
        map.replies
            .insert((session.id.clone(), n), (std::time::Instant::now(), reply));
        n
    }

    /// The reply numbered `n` for the session, if it is still kept.
    fn get(&self, session: &WebSession, n: Option<u64>) -> Option<Told> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.replies
            .get(&(session.id.clone(), n?))
            .filter(|(at, _)| at.elapsed() < FLASH_KEPT)
            .map(|(_, reply)| reply.clone())
    }
}

/// The reply number a page was sent to show (`?done=N`).
fn done(query: &std::collections::BTreeMap<String, String>) -> Option<u64> {
    query.get("done")?.parse().ok()
}

/// What the players' pages share beside [`Web`].
pub struct Play {
    pub sessions: PlayerSessions,
    pub flashes: Flashes,
    /// Each player's actions and previews, as a line-protocol session's commands
    /// (`limits.commands_per_minute`).
    pub commands: crate::limiter::KeyedBudget,
    /// What the unsubscribe links of the mails when it is a player's move are checked with;
    /// none when the relay sends no mail.
    pub notify_key: Option<Arc<crate::transport::unsubscribe::UnsubscribeKey>>,
}

/// Players whose command budgets are held at once, at most.
pub const MAX_BUDGETS: usize = 65_536;

/// The players' routes (their live events, `/play/live`, are served with the others by
/// `live.rs`).
pub fn routes() -> Router<Arc<Web>> {
    Router::new()
        .route("/play", get(mine::index))
        .route("/play/login", post(login::submit))
        .route("/play/logout", post(login::logout))
        .route("/play/leave", post(act::leave))
        .route("/play/games/{id}", get(game::show).post(act::game))
        .route("/play/games/{id}/preview", get(act::preview))
        .route("/play/receipts/{entry}", get(act::receipt))
        .route("/play/notify", get(notify::show).post(notify::save))
        .route(
            "/notify/unsubscribe",
            get(notify::confirm).post(notify::unsubscribe),
        )
}

/// The assets of the players' pages.
pub fn assets() -> Router {
    let file = super::asset;
    Router::new()
        .route(
            SCRIPT_PATH,
            get(move || async move { file("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            ICON_PATH,
            get(move || async move { file("image/svg+xml", ICON) }),
        )
        .route(
            ICON_TURN_PATH,
            get(move || async move { file("image/svg+xml", ICON_TURN) }),
        )
}

/// The logged-in player of a request, and how they read.
pub struct Me {
    pub session: WebSession,
    pub name: String,
    pub tongue: Tongue,
    /// The notation and language their moves are written in.
    pub notation: Notation,
    pub lang: Lang,
}

impl Me {
    pub fn words(&self) -> &'static Words {
        Words::of(self.tongue)
    }
}

/// The player of the request's session, if it is live.
pub fn me(web: &Web, headers: &HeaderMap) -> Option<Me> {
    let token = cookie(headers, COOKIE)?;
    let roster = web.ctx.relay.roster();
    let session = web.play.sessions.find(token, |player| {
        roster.with(player, |p| p.secret_hash.clone())
    })?;
    let (name, notation, own) = roster.with(&session.player, |p| {
        let name = if p.name.is_empty() {
            p.id.clone()
        } else {
            p.name.clone()
        };
        (name, p.notation, p.lang)
    })?;
    let lang = own.unwrap_or(match notation {
        Notation::San(l) | Notation::Lan(l) => l,
        _ => Lang::English,
    });
    Some(Me {
        session,
        name,
        tongue: super::tongue_of(headers, own),
        notation,
        lang,
    })
}

/// The answer to a page that needs a login: back to the login form.
pub fn to_login() -> Response {
    Redirect::to("/play").into_response()
}

/// Whether a form carries the session's form token.
pub fn form_is_ours(me: &Me, token: Option<&str>) -> bool {
    token.is_some_and(|t| {
        t.len() == me.session.form_token.len()
            && t.bytes()
                .zip(me.session.form_token.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    })
}

/// The 403 page for a form without the session's token: nothing was done.
pub fn forged(tongue: Tongue) -> Response {
    let w = Words::of(tongue);
    let body = layout::page(
        tongue,
        &w.play_refused,
        None,
        maud::html! {
            main #main {
                h1 { (w.play_refused) }
                p.error { (w.play_forged) }
                p { a href="/play" { (w.play_title) } }
            }
        },
    );
    super::html(StatusCode::FORBIDDEN, body)
}

/// A whole page of the player's: the frame of every page, with the player's name, the
/// logout button, the icon saying whether a move waits (`turn`), and the script that follows
/// the player's games live.
pub fn page(me: &Me, title: &str, waiting: usize, body: maud::Markup) -> maud::Markup {
    use maud::{DOCTYPE, html};
    let w = me.words();
    let title = if waiting > 0 {
        format!("({waiting}) {title} · ccrelay")
    } else {
        format!("{title} · ccrelay")
    };
    let icon = if waiting > 0 {
        ICON_TURN_PATH
    } else {
        ICON_PATH
    };
    html! {
        (DOCTYPE)
        html lang=(me.tongue.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link #icon rel="icon" type="image/svg+xml" href=(icon);
                link rel="stylesheet" href=(layout::STYLE_PATH);
            }
            body.play data-live="/play/live" data-waiting=(waiting) data-version=(layout::version(&body)) {
                // One line on a phone too: the languages by their codes, the name alone.
                header.play {
                    a.brand href="/" { strong { "ccrelay" } }
                    a.mine href="/play" { (w.play_title) }
                    span.right {
                        (layout::language_switch(""))
                        span.me { span.as { (w.play_logged_in_as) " " } strong #me { (me.name) } }
                        form.inline method="post" action="/play/logout" {
                            input type="hidden" name="form" value=(me.session.form_token);
                            button type="submit" { (w.logout) }
                        }
                    }
                }
                (body)
                script src=(SCRIPT_PATH) {}
            }
        }
    }
}

/// The page's language switch, remembered as the spectator pages remember it: `?lang=` sets
/// the cookie and the page is shown again without it.
pub fn switch_language(
    query: &std::collections::BTreeMap<String, String>,
    path: &str,
) -> Option<Response> {
    let code = query.get("lang")?;
    let tongue = Tongue::from_code(code)?;
    let cookie = format!(
        "lang={}; Path=/; Max-Age={}; SameSite=Lax",
        tongue.code(),
        365 * 24 * 3600
    );
    Some(
        (
            StatusCode::SEE_OTHER,
            [
                (header::SET_COOKIE, cookie),
                (header::LOCATION, path.to_owned()),
            ],
        )
            .into_response(),
    )
}
