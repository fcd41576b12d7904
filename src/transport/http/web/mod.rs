//! Web pages for spectators, arbiters and players: the games and events the relay holds,
//! server-rendered HTML (maud, escaped), a board drawn as SVG, and a little plain JavaScript
//! that follows a page live over Server-Sent Events.
//!
//! | route | what |
//! |---|---|
//! | `/` | events and games: players, moves, whose move, result, last move's date |
//! | `/games/{id}` | one game: board, moves (`?notation=iccf\|san\|lan&lang=ru`, `?ply=N`), clocks, draw offer, result, time control, chain head |
//! | `/games/{id}.pgn` | the official PGN export (as much as the viewing rule shows) |
//! | `/events/{id}` | the crosstable and every game; `/events/{id}.pgn` the whole event |
//! | `/live`, `/games/{id}/live`, `/events/{id}/live` | Server-Sent Events: `change` when what the page shows changed |
//! | `/login`, `/logout` | the arbiter's login with the admin secret (a session cookie) |
//!
//! What a spectator may see is decided by the relay ([`crate::relay::Watched`]): the pages
//! never hold a hidden move. Files: `pages.rs` (index and event), `game.rs` (a game),
//! `board.rs` (SVG), `live.rs` (SSE), `login.rs` (arbiter), `words.rs` (English, Russian),
//! `layout.rs` (the frame every page shares).

mod board;
mod game;
mod layout;
mod live;
mod login;
mod pages;
mod words;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::Semaphore;

use super::super::session::Context;
use crate::config::HttpConfig;
use crate::notation::{Lang, Notation};
use words::{Tongue, Words};

/// What every page handler shares.
pub struct Web {
    ctx: Arc<Context>,
    /// One permit per live listener (`http.max_listeners`).
    listeners: Arc<Semaphore>,
    arbiters: login::Sessions,
    /// Cookies are marked `Secure` when the server speaks TLS.
    tls: bool,
}

/// The web pages' routes.
pub fn routes(ctx: Arc<Context>, http: &HttpConfig) -> Router {
    let web = Arc::new(Web {
        ctx,
        listeners: Arc::new(Semaphore::new(http.max_listeners)),
        arbiters: login::Sessions::default(),
        tls: http.tls.is_some(),
    });
    Router::new()
        .route("/", get(pages::index))
        .route("/live", get(live::index))
        .route("/games/{id}", get(game::page))
        .route("/games/{id}/live", get(live::game))
        .route("/events/{id}", get(pages::event))
        .route("/events/{id}/live", get(live::event))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .with_state(web)
}

/// How the viewer reads: the pages' language, the moves' notation and language, and whether
/// the viewer is the arbiter. From the query first, then cookies, then `Accept-Language`.
pub struct Viewer {
    pub tongue: Tongue,
    /// The language of the moves' piece letters.
    pub lang: Lang,
    /// `iccf`, `san` or `lan`.
    pub notation: &'static str,
    pub arbiter: bool,
    /// Cookies to set: a choice made in the query is remembered.
    pub cookies: Vec<String>,
}

impl Viewer {
    pub fn words(&self) -> &'static Words {
        self.tongue.words()
    }

    /// The notation moves are written in for a chess game.
    pub fn chess_notation(&self) -> Notation {
        match self.notation {
            "iccf" => Notation::Iccf,
            "lan" => Notation::Lan(self.lang),
            _ => Notation::San(self.lang),
        }
    }

    /// The query string that keeps the viewer's choices, for links (`?notation=san&lang=en`).
    pub fn query(&self) -> String {
        format!("notation={}&lang={}", self.notation, self.lang.code())
    }
}

/// The value of cookie `name` in the request.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

/// A year, in seconds: how long a viewer's choice is remembered.
const REMEMBER: u32 = 365 * 24 * 3600;

/// The viewer of a request, or the 400 page naming the query value that is not understood.
pub fn viewer(
    web: &Web,
    headers: &HeaderMap,
    query: &BTreeMap<String, String>,
) -> Result<Viewer, Box<Response>> {
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Tongue::from_accept);
    let mut cookies = Vec::new();
    let lang = match query.get("lang") {
        Some(code) => match code.parse::<Lang>() {
            Ok(lang) => {
                cookies.push(format!(
                    "lang={}; Path=/; Max-Age={REMEMBER}; SameSite=Lax",
                    lang.code()
                ));
                Some(lang)
            }
            Err(_) => {
                let tongue = accept.unwrap_or(Tongue::En);
                return Err(Box::new(bad_request(
                    tongue,
                    &format!("lang={code:?}: not a language code (en, ru, de, fr, ...)"),
                )));
            }
        },
        None => cookie(headers, "lang").and_then(|c| c.parse::<Lang>().ok()),
    };
    let tongue = match lang {
        Some(Lang::Russian) => Tongue::Ru,
        Some(_) => Tongue::En,
        None => accept.unwrap_or(Tongue::En),
    };
    let lang = lang.unwrap_or(match tongue {
        Tongue::Ru => Lang::Russian,
        Tongue::En => Lang::English,
    });
    let known = |n: &str| ["iccf", "san", "lan"].into_iter().find(|k| *k == n);
    let notation = match query.get("notation") {
        Some(n) => match known(n) {
            Some(n) => {
                cookies.push(format!(
                    "notation={n}; Path=/; Max-Age={REMEMBER}; SameSite=Lax"
                ));
                n
            }
            None => {
                return Err(Box::new(bad_request(
                    tongue,
                    &format!("notation={n:?}: not a notation (iccf, san, lan)"),
                )));
            }
        },
        None => cookie(headers, "notation").and_then(known).unwrap_or("san"),
    };
    let arbiter = web.arbiters.is_arbiter(headers);
    Ok(Viewer {
        tongue,
        lang,
        notation,
        arbiter,
        cookies,
    })
}

/// A page as an HTML response.
pub fn html(status: StatusCode, body: maud::Markup) -> Response {
    (status, axum::response::Html(body.into_string())).into_response()
}

/// A page with the viewer's cookies set.
pub fn with_cookies(viewer: &Viewer, status: StatusCode, body: maud::Markup) -> Response {
    let mut response = html(status, body);
    for c in &viewer.cookies {
        if let Ok(value) = c.parse() {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

/// The 404 page: the same for a game that does not exist and one the viewer may not see.
pub fn not_found(tongue: Tongue) -> Response {
    let w = tongue.words();
    let body = layout::page(
        tongue,
        w.not_found,
        None,
        maud::html! {
            h1 { (w.not_found) }
            p { (w.not_found_text) }
            ul {
                li { a href="/" { (w.home) } }
                li { "XFCC: " code { "/xfccbasic.asmx" } }
                li { code { "/healthz" } ", " code { "/metrics" } }
            }
        },
    );
    html(StatusCode::NOT_FOUND, body)
}

/// The 404 page for any path no route serves, in the browser's language.
pub async fn fallback(headers: HeaderMap) -> Response {
    let tongue = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Tongue::from_accept)
        .unwrap_or(Tongue::En);
    not_found(tongue)
}

/// The 400 page, saying what was not understood.
pub fn bad_request(tongue: Tongue, why: &str) -> Response {
    let w = tongue.words();
    let body = layout::page(
        tongue,
        w.bad_request,
        None,
        maud::html! {
            h1 { (w.bad_request) }
            p { (why) }
            p { a href="/" { (w.home) } }
        },
    );
    html(StatusCode::BAD_REQUEST, body)
}

/// The 503 page: the relay is stopping or its journal does not commit.
pub fn unavailable(tongue: Tongue) -> Response {
    let w = tongue.words();
    let body = layout::page(
        tongue,
        w.unavailable,
        None,
        maud::html! { p { (w.unavailable) } },
    );
    html(StatusCode::SERVICE_UNAVAILABLE, body)
}
