//! What a player does on their pages, each the command they would send over TCP, sent to the
//! relay as theirs (channel `http`): a move (with the move number it was meant for), a draw
//! offer, acceptance or decline, resignation (with its confirmation box ticked), a claim, a
//! message, a conditional line, leave, a Triple Block refill (`BANK`), a long reflection
//! (`SILENCE g1 LONG`). The relay's reply is shown on the page the browser is sent back to,
//! with its receipt, in the page's language from the reply's typed kind
//! ([`super::super::said`]). The preview asks the relay how a move reads and changes nothing.
//!
//! Each form is built into its typed command from its fields (the grammar's reader of each
//! piece, [`Command::claim`], [`Command::conditional`], [`Command::leave`],
//! [`Command::bank`]), never written
//! into a line to be read again, and costs one call to the relay: the command itself, whose
//! refusal of a game that is not the player's (the relay's seat: 404, or 403 for a game
//! spectators see) is answered with the same 404 page whether the game exists or not; or, for
//! a form refused here (its words, the budget), the player's games, to answer a game not
//! theirs the same way. The check button without the script asks for the reading and the
//! page's games at once ([`crate::relay::Relay::preview_among_games`]). A request about a
//! game not the player's costs no command of the budget, as when the player's games were
//! asked first.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::super::said::{Own, Told, saying};
use super::super::{Web, not_found, unavailable};
use super::game::{Shown, page_among};
use super::{Me, forged, form_is_ours, me, to_login};
use crate::command::{Command, MoveLine, bounded_text};
use crate::game::Claim;
use crate::notation::number::{MoveNumber, move_number};
use crate::relay::{
    Channel, GameView, MessageAlone, Preview, Reply, Request, Sender, Status, mended_message,
};

/// A form of a game's page.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Act {
    form: String,
    #[serde(rename = "do")]
    action: String,
    #[serde(rename = "move")]
    text: String,
    /// The move number the page showed above its move box, as it wrote it (`12.`, `12...`).
    number: String,
    claim: String,
    with: String,
    line: String,
    message: String,
    sure: String,
    /// Days from the Triple Block bank to the clock.
    days: String,
}

fn sender(me: &Me) -> Sender {
    Sender {
        player: me.session.player.clone(),
        admin: false,
        channel: Channel::Http,
    }
}

/// The relay's refusal of a player's command in a game that is not theirs (its seat: 404 for
/// a game that is not there or not shown, 403 for one spectators see). For a player's command
/// in a game nothing else answers so.
fn not_theirs(reply: &Reply) -> bool {
    matches!(reply.status, Status::NotFound | Status::Forbidden)
}

/// Whether `game` is one of the player's (`None`: the relay did not answer): asked only for a
/// form refused before it reaches the relay, so that a game not theirs is answered as the
/// relay's refusal is.
async fn plays_in(web: &Web, me: &Me, game: &str) -> Option<bool> {
    let games = web.ctx.relay.games_of(&me.session.player).await.ok()?;
    Some(games.iter().any(|g| g.id == game))
}

/// The move number a page sends back as it showed it (`12.`, `12...`; a bare `12` reads as
/// the line protocol reads it), none when the field is empty.
fn shown_number(field: &str) -> Result<Option<MoveNumber>, Own> {
    let field = field.trim();
    if field.is_empty() {
        return Ok(None);
    }
    move_number(field)
        .map(Some)
        .ok_or_else(|| Own::BadNumber(field.to_owned()))
}

/// The move typed in the box, with the move number the page showed when the player wrote
/// no number of their own: a move sent from a page that is out of date is refused.
fn move_line(text: &str, shown: Option<MoveNumber>) -> Result<MoveLine, Own> {
    let mut line =
        MoveLine::parse(text.trim()).map_err(|_| Own::NotUnderstood(bounded_text(text)))?;
    line.number = line.number.or(shown);
    Ok(line)
}

/// What a form asks of the relay (but a message alone: [`message_alone`]), or the reply
/// refusing its words. A message riding with a move is never refused for its words: the
/// relay mends it (a text box holds line breaks) and records that it did.
fn request_of(sender: Sender, act: &Act, game: &str) -> Result<Request, Own> {
    let request = Request::new(sender, command_of(act, game)?);
    let written = act.message.trim();
    Ok(match act.action.as_str() {
        "move" if !written.is_empty() => request.message(Some(written.to_owned())),
        _ => request,
    })
}

/// A message sent alone from the page's box: mended, never refused for its words (a text
/// box holds line breaks); refused only when nothing is left of it.
fn message_alone(sender: Sender, game: &str, text: &str) -> Result<MessageAlone, Own> {
    mended_message(sender, game, text).ok_or(Own::EmptyMessage)
}

/// The command a form asks for (but a message), or the page's refusal of its words.
fn command_of(act: &Act, game: &str) -> Result<Command, Own> {
    let unread = |field: &str| Own::NotUnderstood(bounded_text(field));
    let game = game.to_owned();
    Ok(match act.action.as_str() {
        "move" => Command::Move {
            line: move_line(&act.text, shown_number(&act.number)?)?,
            game,
        },
        "offer" => Command::OfferDraw { game },
        "accept" => Command::AcceptDraw { game },
        "decline" => Command::DeclineDraw { game },
        "resign" if act.sure == "yes" => Command::Resign { game },
        "resign" => return Err(Own::ConfirmResignation),
        "claim" => {
            let claim: Claim = act.claim.parse().map_err(|_| unread(&act.claim))?;
            Command::claim(&game, claim, &act.with).map_err(|_| unread(&act.with))?
        }
        "line" => Command::conditional(&game, &act.line).map_err(|_| unread(&act.line))?,
        "cancel-line" => Command::cancel_conditional(&game),
        "bank" => Command::bank(&game, &act.days).map_err(|_| unread(&act.days))?,
        "silence" => Command::LongReflection { game },
        _ => return Err(Own::NotAnAction),
    })
}

/// What a form of a game's page comes to before the relay is asked.
enum ToSend {
    /// A command to send.
    Command(Request),
    /// A message sent alone.
    Message(MessageAlone),
    /// Refused here: its words, or the budget.
    Refused(Own),
}

/// What `act` sends, or the reply refusing it here (its words, or past the budget).
fn to_send(sender: Sender, act: &Act, game: &str, within_budget: bool) -> ToSend {
    let built = match act.action.as_str() {
        "message" => message_alone(sender, game, &act.message).map(ToSend::Message),
        _ => request_of(sender, act, game).map(ToSend::Command),
    };
    match built {
        // A message alone past the budget is refused before its words are looked at.
        _ if act.action == "message" && !within_budget => ToSend::Refused(Own::TooMany),
        Ok(_) if !within_budget => ToSend::Refused(Own::TooMany),
        Ok(asked) => asked,
        Err(own) => ToSend::Refused(own),
    }
}

/// `POST /play/games/{id}`: an action on the game, then back to its page (303) where the
/// reply shows; `do=check` shows the page with the move read, nothing sent. A game that is
/// not the player's is answered 404, and costs no command of the budget.
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
    let within_budget = web.play.commands.spend(&me.session.player);
    let answered = if act.action == "check" {
        check(&web, &me, &id, &act, within_budget).await
    } else {
        act_on(&web, &me, &id, &act, within_budget).await
    };
    answered.unwrap_or_else(|page| unspent(&web, &me, within_budget, page))
}

/// `page`, answering a request that did nothing (not the player's game, or no relay to ask):
/// the command its budget took is given back, so that such requests cost what they did when
/// the player's games were asked first.
fn unspent(web: &Web, me: &Me, within_budget: bool, page: Response) -> Response {
    if within_budget {
        web.play.commands.forgive(&me.session.player);
    }
    page
}

/// `do=check`: the page, with the move as the relay reads it (or why it would be refused).
/// One call to the relay: the reading and the player's games together, or the games alone
/// for a move refused here.
async fn check(
    web: &Web,
    me: &Me,
    id: &str,
    act: &Act,
    within_budget: bool,
) -> Result<Response, Response> {
    let player = &me.session.player;
    let line = shown_number(&act.number).and_then(|shown| move_line(&act.text, shown));
    let asked = match line {
        Ok(line) if within_budget => web
            .ctx
            .relay
            .preview_among_games(player, id, line)
            .await
            .map(|(preview, games)| (preview.map_err(Told::Relay), games)),
        Ok(_) => refused_among_games(web, me, Own::TooMany).await,
        Err(own) => refused_among_games(web, me, own).await,
    };
    let (preview, games) = asked.map_err(|_| unavailable(me.tongue))?;
    let shown = Shown {
        flash: None,
        preview: Some((bounded_text(&act.text), preview)),
    };
    page_among(me, games, id, shown).ok_or_else(|| not_found(me.tongue))
}

/// A move refused before the relay reads it, with the player's games for its page.
async fn refused_among_games(
    web: &Web,
    me: &Me,
    own: Own,
) -> Result<(Result<Preview, Told>, Vec<GameView>), Reply> {
    let games = web.ctx.relay.games_of(&me.session.player).await?;
    Ok((Err(Told::Page(own)), games))
}

/// Every action but `do=check`: the relay's reply kept for the page the browser is sent
/// back to (303).
async fn act_on(
    web: &Web,
    me: &Me,
    id: &str,
    act: &Act,
    within_budget: bool,
) -> Result<Response, Response> {
    let reply = match to_send(sender(me), act, id, within_budget) {
        ToSend::Command(request) => web.ctx.relay.call(request).await,
        ToSend::Message(alone) => {
            let reply = web.ctx.relay.call(alone.request.clone()).await;
            alone.told(reply)
        }
        ToSend::Refused(own) => {
            return match plays_in(web, me, id).await {
                Some(true) => {
                    let done = web.play.flashes.put(&me.session, Told::Page(own));
                    Ok(back_to_game(id, done))
                }
                Some(false) => Err(not_found(me.tongue)),
                None => Err(unavailable(me.tongue)),
            };
        }
    };
    if not_theirs(&reply) {
        // Not the player's game (or none): the same page whether it exists or not.
        return Err(not_found(me.tongue));
    }
    if reply.status == Status::Closing {
        return Err(unavailable(me.tongue));
    }
    let done = web.play.flashes.put(&me.session, Told::Relay(reply));
    Ok(back_to_game(id, done))
}

/// Back to the game's page, where the reply numbered `done` shows (303).
fn back_to_game(id: &str, done: u64) -> Response {
    Redirect::to(&format!("/play/games/{id}?done={done}")).into_response()
}

/// `GET /play/games/{id}/preview?move=...&number=...`: how the relay reads the move now, as
/// JSON (`{"ok":true,"read":"Кg1—f3 (7163)","draw_offer":false}` or
/// `{"ok":false,"status":422,"reason":"..."}`). Nothing is journaled or changed. One call to
/// the relay: the preview, or (for a move refused here: its words, the budget) the player's
/// games. A game not the player's is answered 404 and costs no command of the budget.
pub async fn preview(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let Some(me) = me(&web, &headers) else {
        return (StatusCode::UNAUTHORIZED, "log in first\n").into_response();
    };
    let within_budget = web.play.commands.spend(&me.session.player);
    read_for_the_script(&web, &me, &id, &query, within_budget)
        .await
        .unwrap_or_else(|page| unspent(&web, &me, within_budget, page))
}

/// The preview's answer; `Err` with the page answering a request that did nothing.
async fn read_for_the_script(
    web: &Web,
    me: &Me,
    id: &str,
    query: &BTreeMap<String, String>,
    within_budget: bool,
) -> Result<Response, Response> {
    let text = query.get("move").map_or("", String::as_str);
    let shown = query.get("number").and_then(|n| move_number(n.trim()));
    let not_yours = || (StatusCode::NOT_FOUND, "no such game of yours\n").into_response();
    let answer = match move_line(text, shown) {
        Ok(line) if within_budget => {
            match web.ctx.relay.preview(&me.session.player, id, line).await {
                Err(reply) if not_theirs(&reply) => return Err(not_yours()),
                Err(reply) if reply.status == Status::Closing => {
                    return Err(unavailable(me.tongue));
                }
                read => read.map_err(Told::Relay),
            }
        }
        words => {
            match plays_in(web, me, id).await {
                Some(true) => {}
                Some(false) => return Err(not_yours()),
                None => return Err(unavailable(me.tongue)),
            }
            match words {
                Err(own) if within_budget => Err(Told::Page(own)),
                // Past the budget nothing else is looked at.
                _ => {
                    let reason = saying(me.tongue, &Told::Page(Own::TooMany)).text;
                    let json = serde_json::json!({"ok": false, "status": 429, "reason": reason});
                    return Ok((
                        StatusCode::TOO_MANY_REQUESTS,
                        [(header::CONTENT_TYPE, "application/json")],
                        json.to_string(),
                    )
                        .into_response());
                }
            }
        }
    };
    let json = match answer {
        Ok(p) => serde_json::json!({"ok": true, "read": p.written, "draw_offer": p.draw_offer}),
        Err(told) => {
            let status = match &told {
                Told::Relay(reply) => reply.status,
                Told::Page(Own::TooMany) => Status::TooMany,
                Told::Page(_) => Status::BadCommand,
            };
            let reason = saying(me.tongue, &told).text;
            serde_json::json!({"ok": false, "status": status.code(), "reason": reason})
        }
    };
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        json.to_string(),
    )
        .into_response())
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
    let told = match Command::leave(&form.first, &form.days) {
        Ok(_) if !web.play.commands.spend(&me.session.player) => Told::Page(Own::TooMany),
        Ok(command) => Told::Relay(web.ctx.relay.call(Request::new(sender(&me), command)).await),
        Err(_) => Told::Page(Own::NotUnderstood(bounded_text(&format!(
            "{} {}",
            form.first, form.days
        )))),
    };
    let done = web.play.flashes.put(&me.session, told);
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
        let words = saying(me.tongue, &Told::Page(Own::TooMany)).text;
        return (StatusCode::TOO_MANY_REQUESTS, format!("{words}\n")).into_response();
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
