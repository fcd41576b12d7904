//! The mail when it is a player's move, from the web (docs/web.md "Mail when it is your
//! move"): the logged-in player's settings page, and the one-click unsubscribe every such mail
//! links to.
//!
//! | route | what |
//! |---|---|
//! | `GET /play/notify` | the player's setting: the address; no mail, a mail at each move, or a daily digest at an hour (and time zone) |
//! | `POST /play/notify` | the setting sent as the player's `NOTIFY` (with the session's form token, as every form) |
//! | `GET /notify/unsubscribe?p=&t=` | a page with one button: link scanners fetch what a mail links to, so a GET changes nothing |
//! | `POST /notify/unsubscribe?p=&t=` | RFC 8058's one-click: with the right token (no login), the player's `NOTIFY OFF`; a wrong one (or one whose mails are already stopped) is answered 403 and changes nothing |
//!
//! Both send the command to the relay as the player's, on channel `http`: it is journaled as
//! any other. The token is [`crate::transport::unsubscribe`]'s.

use crate::transport::http::web::said::{Told, saying};
use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use super::super::words::Tongue;
use super::super::{Web, html as page_response, layout, tongue_of, unavailable};
use super::{Me, done, forged, form_is_ours, me, page, switch_language, to_login};
use crate::catalog::Key;
use crate::command::{Command, Notify};
use crate::config::Reach;
use crate::relay::{Channel, Reply, Request, Sender, Status};

/// Whether the relay sends these mails at all: an `[email]` section to send them, and a
/// public address to link to.
fn available(web: &Web) -> bool {
    let config = &web.ctx.config;
    config.email.is_some() && config.http.as_ref().is_some_and(|h| h.public_url.is_some())
}

/// The settings form, showing `setting`.
fn form(me: &Me, setting: Option<&Notify>) -> Markup {
    let said = me.tongue;
    let (mode, address, hour, zone) = match setting {
        None | Some(Notify::Off) => ("off", "", 8, ""),
        Some(Notify::Each { address }) => ("each", address.as_str(), 8, ""),
        Some(Notify::Digest {
            hour,
            zone,
            address,
        }) => (
            "digest",
            address.as_str(),
            *hour,
            zone.as_deref().unwrap_or(""),
        ),
    };
    html! {
        form #notify-form method="post" action="/play/notify" {
            input type="hidden" name="form" value=(me.session.form_token);
            p {
                label { (said.word(Key::NotifyPageAddress)) " "
                    input #address type="email" name="address" value=(address) autocomplete="email"; }
            }
            fieldset {
                @for (value, key) in [("off", Key::NotifyPageOff), ("each", Key::NotifyPageEach), ("digest", Key::NotifyPageDigest)] {
                    label.mode {
                        input type="radio" name="mode" value=(value) checked[mode == value];
                        " " (said.word(key))
                    }
                    br;
                }
                label { (said.word(Key::NotifyPageHour)) " "
                    select #hour name="hour" {
                        @for h in 0..24u8 {
                            option value=(h) selected[h == hour] { (format!("{h:02}:00")) }
                        }
                    }
                }
                br;
                label { (said.word(Key::NotifyPageZone)) " "
                    input #zone type="text" name="zone" value=(zone) maxlength="64" autocomplete="off"; }
            }
            p { button type="submit" { (said.word(Key::NotifyPageSave)) } }
        }
    }
}

/// The settings page, with the reply to the last save if any.
async fn settings_page(web: &Web, me: &Me, flash: Option<Told>) -> Response {
    let Ok(games) = web.ctx.relay.games_of(&me.session.player).await else {
        return unavailable(me.tongue);
    };
    let waiting = games.iter().filter(|g| g.my_turn()).count();
    let player = web.ctx.relay.roster().get(&me.session.player);
    let by_mail = player.as_ref().is_some_and(|p| p.reach == Reach::Email);
    let setting = player.as_ref().and_then(|p| p.notify.clone());
    let said = me.tongue;
    let title = said.word(Key::NotifyPageTitle);
    let body = html! {
        main #main {
            h1 { (title) }
            @if let Some(told) = &flash {
                @let ok = told.ok();
                div #flash .flash .(if ok { "done" } else { "refused" }) role="status" {
                    @if ok { (said.word(Key::NotifyPageSaved)) } @else { span.reply { (saying(me.tongue, told).text) } }
                }
            }
            @if by_mail {
                p #notify-by-mail { (said.word(Key::NotifyPageByMail)) }
            } @else if !available(web) {
                p #notify-unavailable { (said.word(Key::NotifyPageUnavailable)) }
            } @else {
                p { (said.word(Key::NotifyPageIntro)) }
                (form(me, setting.as_ref()))
            }
        }
    };
    page_response(StatusCode::OK, page(me, &title, waiting, body))
}

/// `GET /play/notify`.
pub async fn show(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    if let Some(switch) = switch_language(&query, "/play/notify") {
        return switch;
    }
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    let flash = web.play.flashes.get(&me.session, done(&query));
    settings_page(&web, &me, flash).await
}

/// The settings form's fields.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NotifyForm {
    form: String,
    mode: String,
    address: String,
    hour: String,
    zone: String,
}

/// `POST /play/notify`: the player's `NOTIFY`, then back to the page (303) where the reply
/// shows.
pub async fn save(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(form): Form<NotifyForm>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    if !form_is_ours(&me, Some(&form.form)) {
        return forged(me.tongue);
    }
    let sender = Sender {
        player: me.session.player.clone(),
        admin: false,
        channel: Channel::Http,
    };
    let reply = match Command::notify(&form.mode, &form.hour, &form.zone, &form.address) {
        Ok(_) if !web.play.commands.spend(&me.session.player) => Reply::new(
            Status::TooMany,
            "too many commands (limits.commands_per_minute): slow down",
        ),
        Ok(command) => web.ctx.relay.call(Request::new(sender, command)).await,
        Err(e) => Reply::new(Status::BadCommand, e.to_string()),
    };
    if reply.status == Status::Closing {
        return unavailable(me.tongue);
    }
    let done = web.play.flashes.put(&me.session, Told::Relay(reply));
    Redirect::to(&format!("/play/notify?done={done}")).into_response()
}

/// The unsubscribe link's query: the player and the token.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Unsubscribe {
    p: String,
    t: String,
    /// The page's language switch.
    lang: String,
}

/// Whether the link's token holds (it is this server's for the player's mails to the address
/// they go to now: a player sent no such mail, or sent them elsewhere now, has no link that
/// holds, and whether one exists is not told), and the language of its page (the `?lang=`
/// switch, the browser's cookie, the player's own).
fn judge(web: &Web, headers: &HeaderMap, link: &Unsubscribe) -> (bool, Tongue) {
    let player = web.ctx.relay.roster().get(&link.p);
    let tongue = Tongue::from_code(&link.lang)
        .unwrap_or_else(|| tongue_of(headers, player.as_ref().and_then(|p| p.lang)));
    let address = player.as_ref().and_then(|p| {
        crate::relay::notify::wanted(p)
            .and_then(Notify::address)
            .map(str::to_owned)
    });
    let held = match (&web.play.notify_key, address) {
        (Some(key), Some(address)) => key.holds(&link.p, &address, &link.t),
        _ => false,
    };
    (held, tongue)
}

/// The unsubscribe page: `body` in the frame of the pages, its language switch keeping the
/// link's query.
fn unsubscribe_page(
    tongue: Tongue,
    link: &Unsubscribe,
    status: StatusCode,
    body: Markup,
) -> Response {
    let title = tongue.word(Key::UnsubscribeTitle);
    let keep = format!("p={}&t={}&", query_value(&link.p), query_value(&link.t));
    let body = html! { main #main { h1 { (title) } (body) } };
    page_response(
        status,
        layout::page_keeping(tongue, &title, None, &keep, body),
    )
}

/// A value as it may stand in a link's query: the ids and tokens are ASCII letters, digits
/// and `-_.`; anything else is left out rather than written into the page's links.
fn query_value(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(128)
        .collect()
}

/// `GET /notify/unsubscribe?p=&t=`: the page with the one button; nothing changes.
pub async fn confirm(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(link): Query<Unsubscribe>,
) -> Response {
    let (held, tongue) = judge(&web, &headers, &link);
    let action = format!(
        "/notify/unsubscribe?p={}&t={}",
        query_value(&link.p),
        query_value(&link.t)
    );
    if !held {
        return refused(tongue, &link);
    }
    unsubscribe_page(
        tongue,
        &link,
        StatusCode::OK,
        html! {
            p { (tongue.say(Key::UnsubscribeAsk, &[("player", link.p.as_str().into())])) }
            form #unsubscribe method="post" action=(action) {
                input type="hidden" name="List-Unsubscribe" value="One-Click";
                button type="submit" { (tongue.word(Key::UnsubscribeButton)) }
            }
        },
    )
}

fn refused(tongue: Tongue, link: &Unsubscribe) -> Response {
    unsubscribe_page(
        tongue,
        link,
        StatusCode::FORBIDDEN,
        html! { p.error #unsubscribe-refused { (tongue.word(Key::UnsubscribeRefused)) } },
    )
}

/// `POST /notify/unsubscribe?p=&t=`: with the right token, the player's `NOTIFY OFF` (no
/// login: the token is the proof), answered with a page, never a redirect (RFC 8058, 3.1). The
/// body (`List-Unsubscribe=One-Click`) is not needed: the token says everything.
pub async fn unsubscribe(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(link): Query<Unsubscribe>,
) -> Response {
    let (held, tongue) = judge(&web, &headers, &link);
    if !held {
        return refused(tongue, &link);
    }
    let sender = Sender {
        player: link.p.clone(),
        admin: false,
        channel: Channel::Http,
    };
    let command = Command::Notify {
        setting: Notify::Off,
    };
    let reply = web.ctx.relay.call(Request::new(sender, command)).await;
    if !reply.status.is_success() {
        tracing::warn!(player = %link.p, error = %reply.text, "an unsubscribe was not recorded");
        return unavailable(tongue);
    }
    unsubscribe_page(
        tongue,
        &link,
        StatusCode::OK,
        html! { p #unsubscribe-done { (tongue.word(Key::UnsubscribeDone)) } },
    )
}
