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
//! | `/play`, `/play/...` | a player's own games, played from the browser (`play/`) |
//! | `/desk`, `/desk/...` | the arbiter's desk: players, events, decisions (`desk/`) |
//! | `/assets/ccrelay.css`, `/assets/live.js` | the pages' style and script, as files (the Content-Security-Policy allows no inline ones) |
//!
//! Every page depends on the login (the arbiter sees private games on it) and on the viewer's
//! cookies: each answer says `Vary: Cookie` and `Cache-Control: no-store`, so no cache keeps
//! an arbiter's page for anyone else, nor on disk.
//!
//! What a spectator may see is decided by the relay ([`crate::relay::Watched`]): the pages
//! never hold a hidden move. Files: `pages.rs` (index and event), `game.rs` (a game),
//! `board.rs` (SVG), `live.rs` (SSE), `login.rs` (arbiter), `words.rs` (English, Russian,
//! Ukrainian), `said/` (the relay's replies and refusals in the page's language), `layout.rs` (the frame every page shares), `moves.rs` (a game's moves as the pages list them), `play/` (a player's pages) and
//! `sessions.rs` (players' sessions, kept across restarts).

pub mod board;
mod bracket;
mod desk;
mod game;
mod layout;
mod live;
mod login;
mod moves;
mod pages;
mod play;
mod ratings;
mod said;
pub mod sessions;
mod words;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::Semaphore;

use super::super::context::Context;
use super::super::per_address::PerAddress;
use crate::config::HttpConfig;
use crate::notation::{Lang, Notation};
use words::{Tongue, Words};

/// What every page handler shares.
pub struct Web {
    ctx: Arc<Context>,
    /// One permit per spectator's live listener (`http.max_listeners`).
    listeners: Arc<Semaphore>,
    max_listeners: usize,
    /// Spectators' live listeners by address (`http.max_listeners_per_address`).
    listeners_by_address: PerAddress,
    listeners_per_address: usize,
    /// Players' own live pages, by player ([`live::PLAYER_LISTENERS`]).
    player_listeners: PerAddress,
    /// Addresses the per-address limit does not apply to.
    exempt: crate::config::AddressSet,
    arbiters: login::Sessions,
    /// Cookies are marked `Secure` when the server speaks TLS.
    tls: bool,
    /// The players' sessions and the replies waiting to be shown to them.
    play: play::Play,
    /// The answers to the arbiter's forms, waiting to be shown on the desk.
    desk: desk::Answers,
}

impl Web {
    /// The pages' shared state under the HTTP settings.
    pub fn new(ctx: Arc<Context>, http: &HttpConfig) -> Result<Arc<Web>, sessions::SessionsError> {
        let play = play::Play {
            sessions: sessions::PlayerSessions::open(&ctx.config.data_dir)?,
            flashes: Default::default(),
            commands: crate::limiter::KeyedBudget::new(
                ctx.config.limits.commands_per_minute,
                ctx.config.limits.commands_per_minute,
                play::MAX_BUDGETS,
            ),
            notify_key: notify_key(&ctx.config),
        };
        // A secret changed while the daemon was stopped, or before a crash let the sessions
        // of the old one be deleted: they end now.
        let roster = ctx.relay.roster().clone();
        play.sessions
            .end_every_old_secret(|player| roster.with(player, |p| p.secret_hash.clone()));
        let web = Arc::new(Web {
            ctx,
            listeners: Arc::new(Semaphore::new(http.max_listeners)),
            max_listeners: http.max_listeners,
            listeners_by_address: Default::default(),
            player_listeners: Default::default(),
            listeners_per_address: http.max_listeners_per_address,
            exempt: http.exempt_addresses.clone(),
            arbiters: login::Sessions::default(),
            tls: http.tls.is_some(),
            play,
            desk: desk::Answers::default(),
        });
        web.ctx
            .tracker
            .spawn(end_sessions_of_old_secrets(web.clone()));
        Ok(web)
    }

    /// Whether the request carries a live arbiter session's cookie.
    pub fn is_arbiter(&self, headers: &HeaderMap) -> bool {
        self.arbiters.is_arbiter(headers)
    }
}

/// The key the unsubscribe links of the mails when it is a player's move are checked with,
/// when the relay sends mail (the email transport made it at its start, or it is made now).
fn notify_key(
    config: &crate::config::Config,
) -> Option<Arc<crate::transport::unsubscribe::UnsubscribeKey>> {
    config.email.as_ref()?;
    match crate::transport::unsubscribe::UnsubscribeKey::open(&config.data_dir) {
        Ok(key) => Some(Arc::new(key)),
        Err(e) => {
            tracing::error!(error = %e, "the unsubscribe links cannot be checked");
            None
        }
    }
}

/// Ends the players' web sessions (and their live streams) opened with a secret that is no
/// longer theirs, as the roster announces each change, until the daemon stops.
async fn end_sessions_of_old_secrets(web: Arc<Web>) {
    use tokio::sync::broadcast::error::RecvError;
    let roster = web.ctx.relay.roster().clone();
    let mut changes = roster.changes();
    loop {
        let changed = tokio::select! {
            () = web.ctx.shutdown.cancelled() => return,
            changed = changes.recv() => changed,
        };
        let ended = match changed {
            Ok(player) => {
                let hash = roster.with(&player, |p| p.secret_hash.clone());
                web.play.sessions.end_old_secrets(&player, hash.as_deref())
            }
            Err(RecvError::Lagged(_)) => web
                .play
                .sessions
                .end_every_old_secret(|player| roster.with(player, |p| p.secret_hash.clone())),
            Err(RecvError::Closed) => return,
        };
        if ended > 0 {
            tracing::info!(sessions = ended, "web sessions of an old secret ended");
        }
    }
}

/// Every answer of a page: it depends on the login and the viewer's cookies (see the module's
/// documentation).
async fn private_to_the_viewer(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.append(header::VARY, HeaderValue::from_static("Cookie"));
    response
}

/// A file the pages use (style, script, icon): the same for everyone, cached for an hour.
pub fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// The pages' style and live script, as files: the same for everyone, cached for an hour.
pub fn assets() -> Router {
    let file = asset;
    Router::new()
        .route(
            layout::STYLE_PATH,
            get(move || async move { file("text/css; charset=utf-8", layout::STYLE) }),
        )
        .route(
            layout::LIVE_PATH,
            get(move || async move { file("text/javascript; charset=utf-8", layout::LIVE) }),
        )
        .merge(play::assets())
}

/// The web pages' routes.
pub fn routes(web: Arc<Web>) -> Router {
    Router::new()
        .route("/", get(pages::index))
        .route("/live", get(live::index))
        .route("/games/{id}", get(game::page))
        .route("/games/{id}/live", get(live::game))
        .route("/events/{id}", get(pages::event))
        .route("/events/{id}/live", get(live::event))
        .route("/ratings", get(ratings::page))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/play/live", get(live::player))
        .merge(play::routes())
        .merge(desk::routes())
        .with_state(web)
        .layer(axum::middleware::map_response(private_to_the_viewer))
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
        Words::of(self.tongue)
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

/// The language of a page without a viewer's query: the page's switch (the `lang` cookie),
/// else `own` (a player's language), else the browser's, else English.
pub fn tongue_of(headers: &HeaderMap, own: Option<Lang>) -> Tongue {
    cookie(headers, "lang")
        .and_then(Tongue::from_code)
        .or_else(|| own.map(|l| Tongue::of(Some(l))))
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Tongue::from_accept)
        })
        .unwrap_or(Tongue::En)
}

/// What failed logins are counted by for a request: its address (an IPv6 /64).
pub fn login_key(peer: Option<axum::extract::Extension<super::PeerAddr>>) -> String {
    peer.map_or_else(
        || "unknown".to_owned(),
        |p| crate::limiter::address_key(p.0.0.ip()),
    )
}

/// The status of a refused login's page.
pub fn refused_status(refusal: &crate::auth::gate::Refusal) -> StatusCode {
    use crate::auth::gate::Refusal;
    match refusal {
        Refusal::Wrong => StatusCode::FORBIDDEN,
        Refusal::TooMany | Refusal::Busy(_) => StatusCode::TOO_MANY_REQUESTS,
    }
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
    // A language with a catalog speaks its own; any other reads moves in its letters and
    // the pages in English.
    let tongue = match lang {
        Some(lang) => Tongue::of(Some(lang)),
        None => accept.unwrap_or(Tongue::En),
    };
    let lang = lang.unwrap_or(tongue.lang());
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
    let w = Words::of(tongue);
    let body = layout::page(
        tongue,
        &w.not_found,
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
    let w = Words::of(tongue);
    let body = layout::page(
        tongue,
        &w.bad_request,
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
    let w = Words::of(tongue);
    let body = layout::page(
        tongue,
        &w.unavailable,
        None,
        maud::html! { p { (w.unavailable) } },
    );
    html(StatusCode::SERVICE_UNAVAILABLE, body)
}
