//! A player's login and logout. The secret is checked at every transport's one login door
//! (failed logins limited per address and per player, with TCP's and XFCC's); the login form
//! itself carries a token matching a cookie set with it (`SameSite=Strict`), so another site
//! cannot log a visitor in under its own account.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;

use super::super::super::PeerAddr;
use super::super::sessions::{LIFETIME, random_token};
use super::super::words::{Tongue, Words};
use super::super::{Web, cookie, layout};
use super::{COOKIE, forged, form_is_ours, me};

/// The cookie holding the login form's token.
const FORM_COOKIE: &str = "ccrelay_login_form";

fn secure(web: &Web) -> &'static str {
    if web.tls { "; Secure" } else { "" }
}

/// The login form (`refused`: after a refused login), with its token's cookie.
pub fn form(web: &Web, tongue: Tongue, status: StatusCode, refused: bool) -> Response {
    let w = Words::of(tongue);
    let token = random_token().unwrap_or_default();
    let body = html! {
        main #main {
            h1 { (w.play_login_title) }
            p { (w.play_login_needed) }
            @if refused { p.error #login-refused { (w.login_failed) } }
            form.login method="post" action="/play/login" {
                input #login-form-token type="hidden" name="form" value=(token);
                label { (w.play_id) " " input type="text" name="player" autocomplete="username" required autocapitalize="none"; }
                label { (w.play_secret) " " input type="password" name="secret" autocomplete="current-password" required; }
                button type="submit" { (w.login) }
            }
        }
    };
    let mut response = super::super::html(
        status,
        layout::page(tongue, &w.play_login_title, None, body),
    );
    let cookie = format!(
        "{FORM_COOKIE}={token}; Path=/play; HttpOnly; SameSite=Strict{}",
        secure(web)
    );
    if let Ok(value) = cookie.parse() {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

#[derive(Deserialize)]
pub struct Login {
    #[serde(default)]
    form: String,
    player: String,
    secret: String,
}

/// `POST /play/login`: a session and the player's games, or the form again (403, 429).
pub async fn submit(
    State(web): State<Arc<Web>>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Form(login): Form<Login>,
) -> Response {
    let tongue = super::super::tongue_of(&headers, None);
    let expected = cookie(&headers, FORM_COOKIE).unwrap_or("");
    if expected.is_empty() || login.form != expected {
        return forged(tongue);
    }
    let peer = super::super::login_key(peer);
    let player = login.player.trim().to_owned();
    // The session keeps the hash the secret was checked against: a new secret since ends it.
    let hash = match web.ctx.log_in_player(&peer, &player, login.secret).await {
        Ok(hash) => hash,
        Err(refusal) => {
            tracing::warn!(%peer, "web player {refusal}");
            return form(&web, tongue, super::super::refused_status(&refusal), true);
        }
    };
    let Some(token) = web.play.sessions.open_session(&player, &hash) else {
        return form(&web, tongue, StatusCode::SERVICE_UNAVAILABLE, true);
    };
    tracing::info!(%peer, player = %player, "player logged in on the web");
    let cookie = format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{}",
        LIFETIME.as_secs(),
        secure(&web)
    );
    (
        StatusCode::SEE_OTHER,
        [
            (header::SET_COOKIE, cookie),
            (header::LOCATION, "/play".to_owned()),
        ],
    )
        .into_response()
}

#[derive(Deserialize)]
pub struct Logout {
    #[serde(default)]
    form: String,
}

/// `POST /play/logout`.
pub async fn logout(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(out): Form<Logout>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return Redirect::to("/play").into_response();
    };
    if !form_is_ours(&me, Some(&out.form)) {
        return forged(me.tongue);
    }
    web.play.sessions.close(&me.session);
    let cookie = format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    (
        StatusCode::SEE_OTHER,
        [
            (header::SET_COOKIE, cookie),
            (header::LOCATION, "/play".to_owned()),
        ],
    )
        .into_response()
}
