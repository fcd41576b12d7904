//! What a player does on their pages, each the command they would send over TCP, sent to the
//! relay as theirs (channel `http`): a move (with the move number it was meant for), a draw
//! offer, acceptance or decline, resignation (with its confirmation box ticked), a claim, a
//! message, a conditional line, leave. The relay's reply is shown on the page the browser is
//! sent back to, with its receipt. The preview asks the relay how a move reads and changes
//! nothing.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use shakmaty::Color;

use super::super::{Web, not_found, unavailable};
use super::game::{Shown, page_of};
use super::{Me, forged, form_is_ours, me, to_login};
use crate::command::{Command, MoveLine, bounded_text};
use crate::game::Claim;
use crate::notation::number::MoveNumber;
use crate::relay::{Channel, Reply, Request, Sender, Status, mended_message};

/// A form of a game's page.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Act {
    form: String,
    #[serde(rename = "do")]
    action: String,
    #[serde(rename = "move")]
    text: String,
    number: Option<u32>,
    claim: String,
    with: String,
    line: String,
    message: String,
    sure: String,
}

/// The reply to a player past their command budget.
fn too_many() -> Reply {
    Reply::new(
        Status::TooMany,
        "too many commands (limits.commands_per_minute): slow down",
    )
}

fn sender(me: &Me) -> Sender {
    Sender {
        player: me.session.player.clone(),
        admin: false,
        channel: Channel::Http,
    }
}

/// The move typed in the box, with the move number the page showed when the player wrote
/// no number of their own: a move sent from a page that is out of date is refused.
fn move_line(text: &str, number: Option<u32>, color: Option<Color>) -> Result<MoveLine, Reply> {
    let mut line =
        MoveLine::parse(text.trim()).map_err(|e| Reply::new(Status::BadCommand, e.to_string()))?;
    if line.number.is_none()
        && let (Some(number), Some(color)) = (number, color)
    {
        line.number = Some(MoveNumber {
            number,
            black: color == Color::Black,
        });
    }
    Ok(line)
}

/// The player's colour in `game`, if they play in it.
async fn color_in(web: &Web, me: &Me, game: &str) -> Result<Option<Color>, Response> {
    match web.ctx.relay.games_of(&me.session.player).await {
        Ok(games) => Ok(games.iter().find(|g| g.id == game).map(|g| g.color)),
        Err(_) => Err(unavailable(me.tongue)),
    }
}

/// What a form asks of the relay (but a message alone: [`message_alone`]), or the reply
/// refusing its words. A message riding with a move is never refused for its words: the
/// relay mends it (a text box holds line breaks) and records that it did.
fn said_of(sender: Sender, act: &Act, game: &str, color: Option<Color>) -> Result<Request, Reply> {
    let said = Request::new(sender, command_of(act, game, color)?);
    let written = act.message.trim();
    Ok(match act.action.as_str() {
        "move" if !written.is_empty() => said.message(Some(written.to_owned())),
        _ => said,
    })
}

/// A message sent alone from the page's box: mended, never refused for its words (a text
/// box holds line breaks), the reply saying when it was mended.
async fn message_alone(web: &Web, me: &Me, game: &str, text: &str) -> Reply {
    let Some(alone) = mended_message(sender(me), game, text) else {
        return Reply::new(Status::BadCommand, "the message is empty: write something");
    };
    let reply = web.ctx.relay.call(alone.request.clone()).await;
    alone.told(reply)
}

/// The command a form asks for (but a message), or the reply refusing its words.
fn command_of(act: &Act, game: &str, color: Option<Color>) -> Result<Command, Reply> {
    let game = game.to_owned();
    let bad = |why: String| Reply::new(Status::BadCommand, why);
    Ok(match act.action.as_str() {
        "move" => Command::Move {
            line: move_line(&act.text, act.number, color)?,
            game,
        },
        "offer" => Command::OfferDraw { game },
        "accept" => Command::AcceptDraw { game },
        "decline" => Command::DeclineDraw { game },
        "resign" if act.sure == "yes" => Command::Resign { game },
        "resign" => return Err(bad("tick the box to confirm the resignation".to_owned())),
        "claim" => {
            let claim: Claim = act.claim.parse().map_err(bad)?;
            let words = format!("CLAIM {} {}", claim.as_str(), act.with.trim());
            Command::parse_in(&words, &game).map_err(|e| bad(e.to_string()))?
        }
        "line" | "cancel-line" => {
            let moves = if act.action == "line" {
                act.line.trim()
            } else {
                "CANCEL"
            };
            Command::parse_in(&format!("IF {moves}"), &game).map_err(|e| bad(e.to_string()))?
        }
        other => {
            return Err(bad(format!(
                "{other:?} is not something a game's page does"
            )));
        }
    })
}

/// `POST /play/games/{id}`: an action on the game, then back to its page (303) where the
/// reply shows; `do=check` shows the page with the move read, nothing sent.
pub async fn game(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Form(act): Form<Act>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    if !form_is_ours(&me, Some(&act.form)) {
        return forged(me.tongue);
    }
    let color = match color_in(&web, &me, &id).await {
        Ok(color) => color,
        Err(page) => return page,
    };
    if color.is_none() {
        // Not the player's game (or none): the same page whether it exists or not.
        return not_found(me.tongue);
    }
    let within_budget = web.play.commands.spend(&me.session.player);
    if act.action == "check" {
        let preview = match move_line(&act.text, act.number, color) {
            Ok(_) if !within_budget => Err(too_many()),
            Ok(line) => web.ctx.relay.preview(&me.session.player, &id, line).await,
            Err(reply) => Err(reply),
        };
        let shown = Shown {
            flash: None,
            preview: Some((bounded_text(&act.text), preview)),
        };
        return page_of(&web, &me, &id, shown).await;
    }
    let reply = if act.action == "message" && !within_budget {
        too_many()
    } else if act.action == "message" {
        message_alone(&web, &me, &id, &act.message).await
    } else {
        match said_of(sender(&me), &act, &id, color) {
            Ok(_) if !within_budget => too_many(),
            Ok(said) => web.ctx.relay.call(said).await,
            Err(reply) => reply,
        }
    };
    let done = web.play.flashes.put(&me.session, reply);
    Redirect::to(&format!("/play/games/{id}?done={done}")).into_response()
}

/// `GET /play/games/{id}/preview?move=...&number=...`: how the relay reads the move now, as
/// JSON (`{"ok":true,"read":"Кg1—f3 (7163)","draw_offer":false}` or
/// `{"ok":false,"status":422,"reason":"..."}`). Nothing is journaled or changed.
pub async fn preview(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return (StatusCode::UNAUTHORIZED, "log in first\n").into_response();
    };
    let text = query.get("move").map_or("", String::as_str);
    let number = query.get("number").and_then(|n| n.parse().ok());
    let color = match color_in(&web, &me, &id).await {
        Ok(Some(color)) => color,
        Ok(None) => return (StatusCode::NOT_FOUND, "no such game of yours\n").into_response(),
        Err(page) => return page,
    };
    if !web.play.commands.spend(&me.session.player) {
        let json = serde_json::json!({"ok": false, "status": 429, "reason": too_many().text});
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::CONTENT_TYPE, "application/json")],
            json.to_string(),
        )
            .into_response();
    }
    let answer = match move_line(text, number, Some(color)) {
        Ok(line) => web.ctx.relay.preview(&me.session.player, &id, line).await,
        Err(reply) => Err(reply),
    };
    let json = match answer {
        Ok(p) => serde_json::json!({"ok": true, "read": p.written, "draw_offer": p.draw_offer}),
        Err(reply) => {
            serde_json::json!({"ok": false, "status": reply.status.code(), "reason": reply.text})
        }
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        json.to_string(),
    )
        .into_response()
}

/// The leave form.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LeaveForm {
    form: String,
    first: String,
    days: String,
}

/// `POST /play/leave`: leave in all the player's games, then back to their games.
pub async fn leave(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Form(form): Form<LeaveForm>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    if !form_is_ours(&me, Some(&form.form)) {
        return forged(me.tongue);
    }
    let words = format!("LEAVE {} {}", form.first.trim(), form.days.trim());
    let reply = match Command::parse(&words) {
        Ok(_) if !web.play.commands.spend(&me.session.player) => too_many(),
        Ok(command @ Command::Leave { .. }) => {
            web.ctx.relay.call(Request::new(sender(&me), command)).await
        }
        Ok(_) => Reply::new(Status::BadCommand, "a first day and a number of days"),
        Err(e) => Reply::new(Status::BadCommand, e.to_string()),
    };
    let done = web.play.flashes.put(&me.session, reply);
    Redirect::to(&format!("/play?done={done}")).into_response()
}

/// `GET /play/receipts/{entry}`: the signed receipt of a journal entry, as a file to keep.
pub async fn receipt(
    State(web): State<Arc<Web>>,
    Path(entry): Path<i64>,
    headers: HeaderMap,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    // A receipt is signed for the asking: it costs a command like every other request.
    if !web.play.commands.spend(&me.session.player) {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            format!("{}\n", too_many().text),
        )
            .into_response();
    }
    let reply = web
        .ctx
        .relay
        .call(Request::new(sender(&me), Command::Receipt { entry }))
        .await;
    if !reply.status.is_success() {
        let status = match reply.status {
            Status::NotFound => StatusCode::NOT_FOUND,
            _ => StatusCode::SERVICE_UNAVAILABLE,
        };
        return (status, format!("{}\n", reply.text)).into_response();
    }
    let disposition = format!("attachment; filename=\"ccrelay-receipt-{entry}.txt\"");
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        format!("{}\n", reply.text),
    )
        .into_response()
}
