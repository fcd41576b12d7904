//! Special leave from the desk: the form on the players' page, sending the arbiter's
//! `LEAVE first days FOR player reason` (docs/rules.md, "Leave"): the player's clocks stop in
//! every game they have in progress here, outside their yearly allowance.

use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{Markup, html};

use super::{Arbiter, Fields, frame, posting, send, words};
use crate::command::Command;
use crate::config::Player;
use crate::transport::http::web::Web;

/// The form: the player, the first day, the number of days, the reason.
pub fn form(a: &Arbiter, players: &[&Player]) -> Markup {
    let d = words(a.tongue);
    html! {
        @if !players.is_empty() {
            section #special-leave {
                h2 { (d.special_leave) }
                form.desk.special-leave method="post" action="/desk/leave" {
                    (frame::token(a))
                    p.note { (d.special_leave_help) }
                    label { (d.player) " "
                        select name="player" required {
                            @for p in players { option value=(p.id) { (p.id) " · " (p.name) } }
                        }
                    }
                    label { (d.first_day) " " input type="date" name="first" required; }
                    label { (d.days) " " input type="number" name="days" min="1" max="366" required; }
                    label { (d.reason) " " input type="text" name="reason" required maxlength="200"; }
                    button type="submit" { (d.grant) }
                }
            }
        }
    }
}

/// `POST /desk/leave`: the arbiter's special leave, then back to the players with the answer.
pub async fn grant(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let command = Command::leave(f.get("first"), f.get("days")).and_then(|leave| match leave {
        Command::Leave { first, days } => {
            Command::special_leave(f.get("player"), first, days, f.get("reason"))
        }
        other => Ok(other),
    });
    let reply = match command {
        Ok(command) => send(&web, command).await,
        Err(e) => super::refusal(&e),
    };
    frame::answered(&web, &a, &reply, "/desk/players")
}
