//! Correcting a finished game's result (a forfeit caused by an outage, an appeal upheld): the
//! form under the decisions, sending `ADJUDICATE` on the finished game, which the relay takes
//! as the correction (docs/rules.md, "Adjudication"): the new result and its reason are
//! journaled after the old one, both players are told, and every record counts the last
//! decision.

use std::sync::Arc;

use axum::Form;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use maud::{Markup, html};

use super::{Arbiter, Fields, frame, posting, send, words};
use crate::command::Command;
use crate::notation::result::Score;
use crate::relay::{Standing, Watched};
use crate::transport::http::web::Web;

/// The PGN result of a finished game, `None` for a game in progress.
fn result_of(g: &Watched) -> Option<&'static str> {
    match g.standing {
        Standing::Over { winner, .. } => Some(Score::of_winner(winner).pgn()),
        _ => None,
    }
}

/// The form: a finished game (each named with its players and result), the new result and
/// the reason; nothing when no game has finished.
pub fn form(a: &Arbiter, games: &[Watched]) -> Markup {
    let finished: Vec<(&Watched, &str)> = games
        .iter()
        .filter_map(|g| result_of(g).map(|r| (g, r)))
        .collect();
    let d = words(a.tongue);
    html! {
        @if !finished.is_empty() {
            section #correct {
                h2 { (d.correct) }
                form.desk.correct method="post" action="/desk/correct" {
                    (frame::token(a))
                    p.note { (d.correct_help) }
                    label { (d.game) " "
                        select name="game" required {
                            @for (g, result) in &finished {
                                option value=(g.id) { (g.id) " · " (g.white) " – " (g.black) " · " (result) }
                            }
                        }
                    }
                    (frame::result_and_reason(a))
                    button type="submit" { (d.correct_button) }
                }
            }
        }
    }
}

/// `POST /desk/correct`: `ADJUDICATE` on the finished game, then back to the desk with the
/// answer. A game in progress is refused here (its decision is the adjudication form's).
pub async fn correct(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let f = Fields::new(pairs);
    let a = match posting(&web, &headers, &f) {
        Ok(a) => a,
        Err(page) => return *page,
    };
    let game = f.get("game");
    let finished = match web.ctx.relay.watch(None, true).await {
        Ok(games) => games.iter().any(|g| g.id == game && result_of(g).is_some()),
        Err(_) => false,
    };
    let reply = if !finished {
        crate::relay::Reply::new(
            crate::relay::Status::Refused,
            format!("{game:?} is not a finished game: a game in progress is adjudicated"),
        )
    } else {
        match Command::adjudicate(game, f.get("result"), f.get("reason")) {
            Ok(command) => send(&web, command).await,
            Err(e) => super::refusal(&e),
        }
    };
    frame::answered(&web, &a, &reply, "/desk")
}
