//! `GET /play`: the login form, or every game of the player's: with whose move it is, the
//! time left on both clocks, the last move (in their notation) and when; the games waiting
//! for their move first (the least time left first among them), then the games waiting for
//! the opponent, then the finished ones. The title counts the games waiting for them.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use shakmaty::Color;

use super::super::pages::{result_text, when};
use super::super::{Web, unavailable};
use super::game::{opponent, written};
use super::{Me, login, me, page, switch_language};
use crate::relay::{GameView, Standing};

/// The order of the list: waiting for the player, waiting for the opponent, over; then the
/// player's time left, least first; then the id.
fn order(g: &GameView) -> (u8, i64, String) {
    let group = match (&g.standing, g.my_turn()) {
        (Standing::Ongoing, true) => 0,
        (Standing::Ongoing | Standing::AwaitingArbiter, _) => 1,
        (Standing::Over { .. }, _) => 2,
    };
    let mine = usize::from(g.color == Color::Black);
    (group, g.time_left[mine].unwrap_or(i64::MAX), g.id.clone())
}

fn list(me: &Me, games: &[GameView]) -> maud::Markup {
    let w = me.words();
    html! {
        @if games.is_empty() {
            p #no-games { (w.play_no_games) }
        } @else {
            table #my-games {
                thead { tr {
                    th { (w.game) } th { (w.play_opponent) } th { (w.to_move) }
                    th { (w.clock) } th { (w.last_move) }
                } }
                tbody {
                    @for g in games {
                        @let mine = usize::from(g.color == Color::Black);
                        tr data-game=(g.id) class=[g.my_turn().then_some("my-turn")] {
                            td { a href={ "/play/games/" (g.id) } { (g.id) } }
                            td { (opponent(g)) " (" (w.color(!g.color)) ")" }
                            td.turn {
                                @match &g.standing {
                                    Standing::Ongoing if g.my_turn() => strong { (w.play_your_move) },
                                    Standing::Ongoing => (w.play_their_move),
                                    other => (result_text(w, other)),
                                }
                            }
                            td.clocks {
                                @for (i, who) in [(mine, &w.play_you), (1 - mine, &w.play_opponent)] {
                                    (who) ": "
                                    @match g.time_left[i] { Some(s) => (w.time_left(s)), None => (w.no_limit) }
                                    @if i == mine { br; }
                                }
                            }
                            td.last {
                                @let moves = written(me, g);
                                @if let Some(m) = moves.last() {
                                    (m.number) (if m.color == Color::Black { "… " } else { ". " }) (m.text)
                                    @if let Some(t) = g.last_move_at { br; span.note { (when(t)) } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn leave_form(me: &Me) -> maud::Markup {
    let w = me.words();
    html! {
        section.leave {
            h2 { (w.play_leave) }
            form #leave-form method="post" action="/play/leave" {
                input type="hidden" name="form" value=(me.session.form_token);
                label { (w.play_leave_first) " " input type="date" name="first" required; }
                " "
                label { (w.play_leave_days) " " input type="number" name="days" min="1" max="366" value="7" required; }
                " "
                button type="submit" { (w.play_take_leave) }
            }
        }
    }
}

/// The player's games page.
pub async fn games_page(web: &Web, me: &Me, flash: Option<crate::relay::Reply>) -> Response {
    let mut games = match web.ctx.relay.games_of(&me.session.player).await {
        Ok(games) => games,
        Err(_) => return unavailable(me.tongue),
    };
    games.sort_by_cached_key(order);
    let waiting = games.iter().filter(|g| g.my_turn()).count();
    let w = me.words();
    let body = html! {
        main #main {
            h1 { (w.play_title) }
            @if let Some(reply) = &flash {
                div #flash .flash .(if reply.status.is_success() { "done" } else { "refused" }) role="status" {
                    span.reply { (reply.text) }
                }
            }
            (list(me, &games))
            (leave_form(me))
        }
    };
    super::super::html(StatusCode::OK, page(me, &w.play_title, waiting, body))
}

/// `GET /play`.
pub async fn index(
    State(web): State<Arc<Web>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    if let Some(switch) = switch_language(&query, "/play") {
        return switch;
    }
    match me(&web, &headers) {
        Some(me) => {
            let flash = web.play.flashes.get(&me.session, super::done(&query));
            games_page(&web, &me, flash).await
        }
        None => login::form(
            &web,
            super::super::tongue_of(&headers, None),
            StatusCode::OK,
            false,
        ),
    }
}
