//! The frame of the desk's pages (its menu, the answer to the last form) and the answers
//! themselves: after a form the browser is sent back to a page (303, `?done=1`), so that a
//! reload does not send the command again, and the page shows the relay's answer kept for
//! the session. A secret is never kept here: the pages that show one are answered at once.
//! Also the pieces several desk forms share: the form token, a decision's result and reason.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};

use super::super::login::ArbiterSession;
use super::super::words::Tongue;
use super::super::{Web, html as html_response, layout};
use super::{Arbiter, line_of, words};
use crate::relay::Reply;

/// How long an answer waits to be shown.
const KEPT: Duration = Duration::from_secs(600);
/// Answers kept at once, at most (one a session, and sessions are few).
const MAX_ANSWERS: usize = 256;

/// The relay's answer as a page shows it: the line, and whether it was a success.
#[derive(Clone)]
pub struct Shown {
    pub line: String,
    pub ok: bool,
}

impl Shown {
    pub fn of(reply: &Reply) -> Shown {
        Shown {
            line: line_of(reply),
            ok: reply.status.is_success(),
        }
    }
}

/// The last answer of each arbiter session, by the session's token.
#[derive(Default)]
pub struct Answers(Mutex<HashMap<String, (Instant, Shown)>>);

impl Answers {
    fn put(&self, session: &ArbiterSession, shown: Shown) {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|_, (at, _)| at.elapsed() < KEPT);
        if map.len() >= MAX_ANSWERS {
            map.clear();
        }
        map.insert(session.token.clone(), (Instant::now(), shown));
    }

    fn get(&self, session: &ArbiterSession) -> Option<Shown> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&session.token)
            .filter(|(at, _)| at.elapsed() < KEPT)
            .map(|(_, shown)| shown.clone())
    }
}

/// After a form: the answer kept for the session, and the browser sent to `path`.
pub fn answered(web: &Web, a: &Arbiter, reply: &Reply, path: &str) -> Response {
    web.desk.put(&a.session, Shown::of(reply));
    Redirect::to(&format!("{path}?done=1")).into_response()
}

/// The answer a page was sent to show (`?done=1`).
pub fn shown(web: &Web, a: &Arbiter, query: &BTreeMap<String, String>) -> Option<Shown> {
    query.get("done")?;
    web.desk.get(&a.session)
}

/// The arbiter of a page's request, after the language switch (`?lang=`, remembered and the
/// page shown again without it); or the way to the login.
pub fn viewing(
    web: &Web,
    headers: &HeaderMap,
    query: &BTreeMap<String, String>,
    path: &str,
) -> Result<Arbiter, Box<Response>> {
    let a = super::arbiter(web, headers)?;
    match super::super::play::switch_language(query, path) {
        Some(switched) => Err(Box::new(switched)),
        None => Ok(a),
    }
}

/// The hidden field with the session's form token, in every form.
pub fn token(a: &Arbiter) -> Markup {
    html! { input type="hidden" name="form" value=(a.session.form_token); }
}

/// The relay's answer, as the line wrote it.
pub fn answer(tongue: Tongue, shown: &Shown) -> Markup {
    let d = words(tongue);
    let class = if shown.ok {
        "flash done"
    } else {
        "flash refused"
    };
    html! {
        div #answer class=(class) role="status" {
            (d.answer) pre { samp { (shown.line) } }
        }
    }
}

/// A whole desk page: the menu, the answer to the last form if there is one, `body`.
pub fn page(a: &Arbiter, title: &str, shown: Option<&Shown>, body: Markup) -> Response {
    let d = words(a.tongue);
    let inner = html! {
        main #main .desk {
            nav.desk {
                strong { (d.desk) } " "
                a href="/desk" { (d.decisions) } " "
                a href="/desk/players" { (d.players) } " "
                a href="/desk/events" { (d.events) } " "
                a href="/desk/record" { (d.record) }
            }
            @if let Some(shown) = shown { (answer(a.tongue, shown)) }
            (body)
        }
    };
    html_response(StatusCode::OK, layout::page(a.tongue, title, None, inner))
}

/// The 403 page for a form without an arbiter's session or its token: nothing was done.
pub fn forged(tongue: Tongue) -> Response {
    let d = words(tongue);
    let body = html! {
        main #main {
            h1 { (d.refused) }
            p.error { (d.forged) }
            p { a href="/login" { (d.desk) } }
        }
    };
    html_response(
        StatusCode::FORBIDDEN,
        layout::page(tongue, &d.refused, None, body),
    )
}

/// A decision's fields, `result` and `reason` (an adjudication, a correction).
pub fn result_and_reason(a: &Arbiter) -> Markup {
    let w = super::super::words::Words::of(a.tongue);
    let d = words(a.tongue);
    html! {
        label { (w.result) " "
            select name="result" required {
                @for r in ["1-0", "0-1", "1/2-1/2"] { option value=(r) { (r) } }
            }
        }
        label { (d.reason) " " input type="text" name="reason" required maxlength="200"; }
    }
}
