//! A withdrawal confirmed before it is sent: the page shows the standings now and as they
//! would be after (each unfinished game of the player lost by them, as the relay records a
//! withdrawal: [`EndReason::Withdrawal`], counted a forfeit), computed with the crosstable's
//! own arithmetic, and a form that sends `EVENT WITHDRAW` with `sure=yes`.

use axum::response::Response;
use maud::html;

use super::super::{Web, unavailable};
use super::standings::{crosstable_table, games_of};
use super::{Arbiter, Fields, frame, words};
use crate::game::EndReason;
use crate::relay::{Standing, Watched, crosstable};

/// `games` as they would stand once `player` is withdrawn.
fn after_withdrawal(games: &[Watched], player: &str) -> Vec<Watched> {
    games
        .iter()
        .cloned()
        .map(|mut g| {
            let side = if g.white_id == player {
                Some(shakmaty::Color::White)
            } else if g.black_id == player {
                Some(shakmaty::Color::Black)
            } else {
                None
            };
            if let Some(side) = side
                && !matches!(g.standing, Standing::Over { .. })
            {
                g.standing = Standing::Over {
                    winner: Some(!side),
                    reason: EndReason::Withdrawal,
                };
            }
            g
        })
        .collect()
}

/// The page that confirms withdrawing the form's player from event `id`.
pub async fn confirm(web: &Web, a: &Arbiter, id: &str, f: &Fields) -> Response {
    let Some(games) = games_of(web, id).await else {
        return unavailable(a.tongue);
    };
    let (player, reason) = (f.get("player"), f.get("reason"));
    let after = after_withdrawal(&games, player);
    let d = words(a.tongue);
    let body = html! {
        h1 { (d.withdraw) ": " (player) }
        p #withdraw-effect { (d.withdraw_effect) }
        @if !games.is_empty() {
            h2 { (d.now) }
            (crosstable_table(a, &games, &crosstable(&games)))
            h2 { (d.after) }
            div #after { (crosstable_table(a, &after, &crosstable(&after))) }
        }
        form.desk #confirm-withdraw method="post" action={ "/desk/events/" (id) } {
            (frame::token(a))
            input type="hidden" name="do" value="withdraw";
            input type="hidden" name="sure" value="yes";
            input type="hidden" name="player" value=(player);
            label { (d.reason) " " input type="text" name="reason" value=(reason) required maxlength="200"; }
            button.danger type="submit" { (d.confirm) }
            " " a href={ "/desk/events/" (id) } { (d.back) }
        }
    };
    frame::page(a, &d.withdraw, None, body)
}
