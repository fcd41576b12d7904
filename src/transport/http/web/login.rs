//! The arbiter's login: the admin secret, checked at every transport's one login door (failed
//! logins limited per address and per name, with every other transport's), opens a session
//! held in memory and named by a random token in an `HttpOnly`, `SameSite=Strict` cookie
//! (`Secure` when the server speaks TLS). The arbiter then sees every game whole, private
//! ones included. Sessions end after [`SESSION`], at logout, or when the daemon stops; at
//! most [`MAX_SESSIONS`] are open (the oldest goes first).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Form;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;

use super::super::PeerAddr;
use super::words::{Tongue, Words};
use super::{Web, cookie, layout};

/// How long an arbiter's session lasts.
const SESSION: Duration = Duration::from_secs(12 * 3600);
/// Sessions open at once, at most.
const MAX_SESSIONS: usize = 64;
/// The session cookie's name.
const COOKIE: &str = "ccrelay_arbiter";

/// The open arbiter sessions, by token: when each was opened, and its form token (every
/// form of the arbiter's desk carries it, so a page elsewhere cannot post one in the
/// arbiter's name).
#[derive(Default)]
pub struct Sessions(Mutex<HashMap<String, (Instant, String)>>);

/// A live arbiter session: the token its cookie holds and its form token.
#[derive(Clone)]
pub struct ArbiterSession {
    pub token: String,
    pub form_token: String,
}

/// 32 random bytes in hex.
fn random_token() -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(hex::encode(bytes))
}

impl Sessions {
    /// Whether the request carries a live session's cookie.
    pub fn is_arbiter(&self, headers: &HeaderMap) -> bool {
        self.session(headers).is_some()
    }

    /// The live session the request's cookie names, if any.
    pub fn session(&self, headers: &HeaderMap) -> Option<ArbiterSession> {
        let token = cookie(headers, COOKIE)?;
        let sessions = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let (opened, form_token) = sessions.get(token)?;
        (opened.elapsed() < SESSION).then(|| ArbiterSession {
            token: token.to_owned(),
            form_token: form_token.clone(),
        })
    }

    fn open(&self) -> Option<String> {
        let token = random_token()?;
        let form_token = random_token()?;
        let mut sessions = self.0.lock().unwrap_or_else(|p| p.into_inner());
        sessions.retain(|_, (opened, _)| opened.elapsed() < SESSION);
        if sessions.len() >= MAX_SESSIONS
            && let Some(oldest) = sessions
                .iter()
                .min_by_key(|(_, (opened, _))| *opened)
                .map(|(t, _)| t.clone())
        {
            sessions.remove(&oldest);
        }
        sessions.insert(token.clone(), (Instant::now(), form_token));
        Some(token)
    }

    fn close(&self, headers: &HeaderMap) {
        if let Some(token) = cookie(headers, COOKIE) {
            self.0
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(token);
        }
    }
}

fn tongue(headers: &HeaderMap) -> Tongue {
    super::tongue_of(headers, None)
}

fn login_page(tongue: Tongue, status: StatusCode, refused: bool, arbiter: bool) -> Response {
    let w = Words::of(tongue);
    let body = html! {
        main #main {
            h1 { (w.arbiter) }
            @if refused { p.error { (w.login_failed) } }
            @if arbiter {
                p { (w.logged_in) }
                p { a href="/desk" { (tongue.word(crate::catalog::Key::Desk)) } }
                form method="post" action="/logout" { button type="submit" { (w.logout) } }
            } @else {
                form method="post" action="/login" {
                    label { (w.secret) " " input type="password" name="secret" autocomplete="current-password" required; }
                    " " button type="submit" { (w.login) }
                }
            }
        }
    };
    super::html(status, layout::page(tongue, &w.arbiter, None, body))
}

/// `GET /login`.
pub async fn form(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let arbiter = web.arbiters.is_arbiter(&headers);
    login_page(tongue(&headers), StatusCode::OK, false, arbiter)
}

#[derive(Deserialize)]
pub struct Login {
    secret: String,
}

/// `POST /login`: a session cookie and back to the games, or the form again with 403.
pub async fn submit(
    State(web): State<Arc<Web>>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Form(login): Form<Login>,
) -> Response {
    let tongue = tongue(&headers);
    let peer = super::login_key(peer);
    if let Err(refusal) = web.ctx.log_in(&peer, "admin", login.secret).await {
        tracing::warn!(%peer, "web arbiter {refusal}");
        return login_page(tongue, super::refused_status(&refusal), true, false);
    }
    let Some(token) = web.arbiters.open() else {
        return login_page(tongue, StatusCode::SERVICE_UNAVAILABLE, true, false);
    };
    tracing::info!(%peer, "arbiter logged in on the web");
    let secure = if web.tls { "; Secure" } else { "" };
    let cookie = format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        SESSION.as_secs()
    );
    ([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response()
}

/// `POST /logout`.
pub async fn logout(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    web.arbiters.close(&headers);
    let cookie = format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    ([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response()
}
