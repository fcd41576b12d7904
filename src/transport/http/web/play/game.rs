//! `GET /play/games/{id}`: a game of the player's, from their side. The board turned to
//! them, the moves in their notation and language, both clocks, the opponent, the draw offer
//! standing, the conversation, and the forms that act on the game: the move box (with its
//! preview), draw, resign, claim, message, conditional line, and where the game's clock has
//! them a Triple Block refill and a long reflection. Every form works without JavaScript; the
//! script adds moving pieces on the board and the preview as one types.
//!
//! On a phone the page is one column: the board, then at once the move box (its reading and
//! Send within the screen's height from 360 × 640 up), then the reply to the last action, the
//! facts and the rest. The reply never stands above the board, so it never pushes it down.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::{Markup, PreEscaped, html};
use shakmaty::Color;

use super::super::board::{Drawn, Marks, svg_from};
use super::super::game::clocks;
use super::super::moves::{ListedMove, notation_for, numbered};
use super::super::pages::{result_text, when};
use super::super::said::{Told, saying, time_control};
use super::super::{Web, not_found, unavailable};
use super::{Me, me, page, switch_language, to_login};
use crate::game::clock::TimeControl;
use crate::game::{Kind, board};
use crate::notation::number::MoveNumber;
use crate::relay::{GameView, Preview, Standing};

/// The game's moves written for `me`.
pub fn written(me: &Me, g: &GameView) -> Vec<ListedMove> {
    let notation = notation_for(g.kind, me.notation, me.lang);
    let Ok(mut pos) = board(g.kind, g.start_fen.as_deref()) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(g.moves.len());
    for m in &g.moves {
        out.push(ListedMove {
            number: pos.move_number(),
            color: pos.turn(),
            text: pos.write(m, notation),
        });
        pos.play(m);
    }
    out
}

/// What the page shows besides the game: the reply to the last action, or a preview asked
/// for without the script, and the text it was asked for.
#[derive(Default)]
pub struct Shown {
    pub flash: Option<Told>,
    pub preview: Option<(String, Result<Preview, Told>)>,
}

fn move_list(moves: &[ListedMove]) -> Markup {
    numbered(moves, |_, m| html! { span.move { (m.text) } })
}

/// The reply to the player's last action, in their language: short, with its receipt.
pub fn flash(me: &Me, told: &Told) -> Markup {
    let w = me.words();
    let ok = told.ok();
    let said = saying(me.tongue, told);
    html! {
        div #flash .flash .(if ok { "done" } else { "refused" }) role="status" {
            strong { (if ok { &w.play_done } else { &w.play_refused }) ": " }
            span.reply lang=[said.english.then_some("en")] { (said.text) }
            @if let Some(mended) = &said.mended { " " span.mended { (mended) } }
            @if let Some(receipt) = told.receipt() {
                " · " (w.play_receipt) " " code.receipt { (receipt.to_string()) }
                " (" a #receipt-link href={ "/play/receipts/" (receipt.seq) } download { (w.play_download_receipt) } ")"
            }
        }
    }
}

/// The move box: type a move, see it read, send it with the move number it is meant for.
fn move_box(me: &Me, g: &GameView, shown: &Shown) -> Markup {
    let w = me.words();
    let (typed, preview) = match &shown.preview {
        Some((typed, preview)) => (typed.as_str(), Some(preview)),
        None => ("", None),
    };
    html! {
        form.move-box #move-form method="post" action={ "/play/games/" (g.id) } {
            input type="hidden" name="form" value=(me.session.form_token);
            // The number as the page shows it, for the player's side: sent back with the move.
            input type="hidden" name="number" value=(MoveNumber { number: g.move_number, black: g.color == Color::Black });
            label for="move" { (w.play_move) " " (g.move_number) (if g.color == Color::Black { "…" } else { "." }) }
            " "
            input #move type="text" name="move" value=(typed) autocomplete="off" autocapitalize="none" spellcheck="false" required;
            " "
            span.buttons {
                button #check type="submit" name="do" value="check" { (w.play_check) }
                " "
                button #send type="submit" name="do" value="move" { (w.play_send) }
            }
            output #preview for="move" aria-live="polite" data-read-as={ (w.play_read_as) ":" } {
                @match preview {
                    Some(Ok(p)) => {
                        span.understood { (w.play_read_as) ": " strong #read-as { (p.written) }
                            @if p.draw_offer { " (" (w.play_with_draw_offer) ")" } }
                    }
                    Some(Err(told)) => { span.error { (saying(me.tongue, told).text) } }
                    None => {}
                }
            }
            p.note { (w.play_move_help) }
        }
    }
}

fn draw_forms(me: &Me, g: &GameView) -> Markup {
    let w = me.words();
    let offered_to_me = g.draw_offer == Some(!g.color);
    html! {
        @if offered_to_me {
            p.draw-offer #draw-offer { (w.play_draw_offered_to_you) }
            form.inline method="post" action={ "/play/games/" (g.id) } {
                input type="hidden" name="form" value=(me.session.form_token);
                button type="submit" name="do" value="accept" { (w.play_accept_draw) }
                " "
                button type="submit" name="do" value="decline" { (w.play_decline_draw) }
            }
        } @else if g.draw_offer == Some(g.color) {
            p.draw-offer #draw-offer { (w.play_draw_offered_by_you) }
        } @else {
            form.inline method="post" action={ "/play/games/" (g.id) } {
                input type="hidden" name="form" value=(me.session.form_token);
                button type="submit" name="do" value="offer" { (w.play_offer_draw) }
            }
        }
    }
}

fn actions(me: &Me, g: &GameView) -> Markup {
    let w = me.words();
    let action = format!("/play/games/{}", g.id);
    let token = &me.session.form_token;
    html! {
        section.actions {
            h2 { (w.play_actions) }
            (draw_forms(me, g))
            @if g.kind == Kind::Chess {
                form.inline #claim-form method="post" action=(action) {
                    input type="hidden" name="form" value=(token);
                    select name="claim" aria-label=(w.play_claim) {
                        option value="threefold" { (w.play_claim_threefold) }
                        option value="fifty" { (w.play_claim_fifty) }
                    }
                    " "
                    input type="text" name="with" placeholder=(w.play_claim_with) aria-label=(w.play_claim_with) size="10";
                    " "
                    button type="submit" name="do" value="claim" { (w.play_claim) }
                }
            }
            form #line-form method="post" action=(action) {
                input type="hidden" name="form" value=(token);
                label { (w.play_conditional) " "
                    input #line type="text" name="line" placeholder=(w.play_conditional_help) size="28"; }
                " "
                button type="submit" name="do" value="line" { (w.play_set_line) }
                " "
                button type="submit" name="do" value="cancel-line" formnovalidate { (w.play_cancel_line) }
                p.note { (w.play_conditional_help) }
            }
            @if let TimeControl::TripleBlock(block) = g.time_control {
                @if g.my_turn() {
                    form #bank-form method="post" action=(action) {
                        input type="hidden" name="form" value=(token);
                        strong { (w.play_bank) } " "
                        label { (w.play_bank_days) " "
                            input #bank-days type="number" name="days" min="1" max=(block.bank) value="1" required; }
                        " "
                        button type="submit" name="do" value="bank" { (w.play_refill) }
                    }
                }
            } @else if g.silence_days.is_some() {
                form #silence-form method="post" action=(action) {
                    input type="hidden" name="form" value=(token);
                    button type="submit" name="do" value="silence" { (w.play_silence) }
                    p.note { (w.play_silence_help) }
                }
            }
            form.inline #resign-form method="post" action=(action) {
                input type="hidden" name="form" value=(token);
                label { input type="checkbox" name="sure" value="yes" required; " " (w.play_resign_sure) }
                " "
                button.danger type="submit" name="do" value="resign" { (w.play_resign) }
            }
        }
    }
}

fn conversation(me: &Me, g: &GameView) -> Markup {
    let w = me.words();
    html! {
        section.conversation {
            h2 { (w.play_messages) }
            @if g.conversation.is_empty() {
                p.note { (w.play_no_messages) }
            } @else {
                ol.messages #messages {
                    @for s in &g.conversation {
                        li class=(if s.side == g.color { "mine" } else { "theirs" }) {
                            span.who { (if s.side == g.color { w.play_you.clone() } else { opponent(g) }) }
                            " " span.note { (when(s.at)) } br;
                            span.text { (s.text) }
                        }
                    }
                }
            }
            @if g.standing == Standing::Ongoing || matches!(g.standing, Standing::AwaitingArbiter) {
                form #message-form method="post" action={ "/play/games/" (g.id) } {
                    input type="hidden" name="form" value=(me.session.form_token);
                    textarea #message name="message" rows="2" maxlength="500" required aria-label=(w.play_messages) {}
                    br;
                    button type="submit" name="do" value="message" { (w.play_send_message) }
                }
            }
        }
    }
}

/// The opponent's name.
pub fn opponent(g: &GameView) -> String {
    match g.color {
        Color::White => g.black.clone(),
        Color::Black => g.white.clone(),
    }
}

fn facts(me: &Me, g: &GameView) -> Markup {
    let w = me.words();
    html! {
        dl.facts {
            dt { (w.play_you_play) } dd #my-color { (w.color(g.color)) }
            dt { (w.play_opponent) } dd #opponent { (opponent(g)) }
            dt { (w.time_control) } dd.time-control { (time_control(me.tongue, &g.time_control)) }
            dt { (w.clock) }
            dd.clocks { (clocks(w, g.clocks.as_ref(), g.on_leave)) }
            dt { (w.result) } dd.result #result { (result_text(w, &g.standing)) }
            @if let Some(t) = g.last_move_at { dt { (w.last_move) } dd { (when(t)) } }
            @if let Some(e) = &g.event { dt { (w.event) } dd { (e) } }
            @if let Some(r) = &g.round { dt { (w.round) } dd { (r) } }
        }
    }
}

/// The page of game `g` for `me`.
pub fn render(me: &Me, g: &GameView, waiting: usize, shown: &Shown) -> Markup {
    let w = me.words();
    let moves = written(me, g);
    let marks = Marks {
        last: g.last_move_squares.clone(),
        check: g.king_in_check,
    };
    let label = format!("{} {}: {}", w.board_of, g.id, g.fen);
    let drawn = Drawn {
        kind: g.kind,
        fen: &g.fen,
        pieces: &g.pieces,
    };
    let board = svg_from(&drawn, &marks, &label, g.color);
    let title = format!("{} – {}", g.white, g.black);
    let turn = if g.my_turn() {
        &w.play_your_move
    } else {
        &w.play_their_move
    };
    let body = html! {
        main #main data-game=(g.id) data-color=(if g.color == Color::White { "white" } else { "black" })
            data-kind=(g.kind.as_str()) data-my-turn=(g.my_turn()) data-moves=(g.moves.len()) {
            div.game-head {
                h1 { (title) }
                @if g.standing == Standing::Ongoing { p.turn #turn .(if g.my_turn() { "mine" } else { "theirs" }) { (turn) } }
            }
            div.game {
                div.board-box { (PreEscaped(board)) }
                div.side {
                    @if g.my_turn() { (move_box(me, g, shown)) }
                    @if let Some(told) = &shown.flash { (flash(me, told)) }
                    (facts(me, g))
                    @if g.standing == Standing::Ongoing { (actions(me, g)) }
                    h2 { (w.moves) }
                    (move_list(&moves))
                    (conversation(me, g))
                }
            }
        }
    };
    page(me, &title, waiting, body)
}

/// The page of game `id` for `me`, with what it shows besides the game; the 404 page when it
/// is no game of theirs, 503 when the relay does not answer.
async fn page_of(web: &Web, me: &Me, id: &str, shown: Shown) -> Response {
    let games = match web.ctx.relay.games_of(&me.session.player).await {
        Ok(games) => games,
        Err(_) => return unavailable(me.tongue),
    };
    page_among(me, games, id, shown).unwrap_or_else(|| not_found(me.tongue))
}

/// The page of game `id` among `games`, the player's games as the relay gave them; `None`
/// when it is not one of them.
pub fn page_among(me: &Me, games: Vec<GameView>, id: &str, shown: Shown) -> Option<Response> {
    let waiting = games.iter().filter(|g| g.my_turn()).count();
    let g = games.into_iter().find(|g| g.id == id)?;
    Some(super::super::html(
        StatusCode::OK,
        render(me, &g, waiting, &shown),
    ))
}

/// `GET /play/games/{id}`.
pub async fn show(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    if let Some(switch) = switch_language(&query, &format!("/play/games/{id}")) {
        return switch;
    }
    let Some(me) = me(&web, &headers) else {
        return to_login();
    };
    let shown = Shown {
        flash: web.play.flashes.get(&me.session, super::done(&query)),
        preview: None,
    };
    page_of(&web, &me, &id, shown).await
}
