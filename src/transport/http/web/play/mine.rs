//! `GET /play`: the login form, or every game of the player's: with whose move it is, the
//! time left on both clocks, the last move (in their notation) and when; the games waiting
//! for their move first (the least time left first among them), then the games waiting for
//! the opponent, then the finished ones. The title counts the games waiting for them. A
//! Triple Block game shows each side's bank beside its clock. On a narrow screen the table
//! is one column: each game a card, each value named.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use maud::html;
use shakmaty::Color;

use super::super::pages::{result_text, when};
use super::super::said::Told;
use super::super::{Web, unavailable};
use super::game::{flash, opponent, written};
use super::{Me, login, me, page, switch_language};
use crate::relay::{GameView, Side, Standing};

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
                            td data-label=(w.game) { a href={ "/play/games/" (g.id) } { (g.id) } }
                            td data-label=(w.play_opponent) { (opponent(g)) " (" (w.color(!g.color)) ")" }
                            td.turn data-label=(w.to_move) {
                                @match &g.standing {
                                    Standing::Ongoing if g.my_turn() => strong { (w.play_your_move) },
                                    Standing::Ongoing => (w.play_their_move),
                                    other => (result_text(w, other)),
                                }
                            }
                            td.clocks data-label=(w.clock) {
                                @for (i, who) in [(mine, &w.play_you), (1 - mine, &w.play_opponent)] {
                                    span.clock {
                                        (who) ": "
                                        @match g.time_left[i] { Some(s) => (w.time_left(s)), None => (w.no_limit) }
                                        @if let Some(bank) = bank(g, i) { ", " span.bank { (w.bank(bank)) } }
                                    }
                                    @if i == mine { br; }
                                }
                            }
                            td.last data-label=(w.last_move) {
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

/// Side `i`'s (0 White, 1 Black) Triple Block bank, in seconds; `None` under other controls.
fn bank(g: &GameView, i: usize) -> Option<i64> {
    let side = if i == 0 { Side::White } else { Side::Black };
    g.clocks.as_ref()?.side(side).bank
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

/// For a player by radio: their callsign and which code of their card comes next (the
/// lowest unused, as the stations' stores hold them).
async fn radio_line(web: &Web, me: &Me) -> Option<String> {
    use crate::transport::radio::{card, store};
    let player = web.ctx.relay.roster().get(&me.session.player)?;
    let callsign = player.radio?.callsign;
    let data_dir = web.ctx.config.data_dir.clone();
    let ports: Vec<String> = (web.ctx.config.radio.iter())
        .filter(|r| r.aprs.is_some())
        .map(|r| r.id.clone())
        .collect();
    let id = player.id;
    let (card, used): (u32, Vec<u32>) = tokio::task::spawn_blocking(move || {
        let used = ports
            .iter()
            .flat_map(|port| store::used_codes(&data_dir, port, &id))
            .collect();
        (card::card_of(&data_dir, &id), used)
    })
    .await
    .ok()?;
    let tongue = me.tongue;
    Some(match card::next_code(card, |n| used.contains(&n)) {
        Some(n) => tongue.say(
            crate::catalog::Key::PlayRadioNextCode,
            &[("callsign", callsign.as_str().into()), ("number", n.into())],
        ),
        None => tongue.say(
            crate::catalog::Key::PlayRadioCardUsed,
            &[("callsign", callsign.as_str().into())],
        ),
    })
}

/// The player's games page.
pub async fn games_page(web: &Web, me: &Me, told: Option<Told>) -> Response {
    let mut games = match web.ctx.relay.games_of(&me.session.player).await {
        Ok(games) => games,
        Err(_) => return unavailable(me.tongue),
    };
    games.sort_by_cached_key(order);
    let waiting = games.iter().filter(|g| g.my_turn()).count();
    let rating = super::super::ratings::own_line(web, &me.session.player, me.tongue).await;
    let radio = radio_line(web, me).await;
    let w = me.words();
    let body = html! {
        main #main {
            h1 { (w.play_title) }
            @if let Some(rating) = rating { (rating) }
            @if let Some(radio) = radio { p.radio { (radio) } }
            @if let Some(told) = &told { (flash(me, told)) }
            (list(me, &games))
            (leave_form(me))
            p.notify { a href="/play/notify" { (me.tongue.word(crate::catalog::Key::NotifyPageLink)) } }
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
