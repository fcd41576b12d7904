//! `RATINGS [player]`: the rating list in effect today, made from the games the relay holds
//! by the same function `ccrelay journal ratings` makes it from the record with
//! (docs/ratings.md), so the two never disagree; or one player's rating and history.

use crate::event::rating::{RatedGame, RatingList, Standing, rated_game, rating_list};
use crate::journal::ratings::seeds;
use crate::relay::games::{Games, KeptRatingList};
use crate::relay::people::People;
use crate::relay::reply::{Reply, Status};
use crate::relay::state::State;

/// The list in effect on `today` (UTC), from every game the relay holds: the kept one when it
/// was made from the same games, starting ratings and day (the inputs are gathered each time,
/// in the games' order, and compared; the Glicko-2 periods are rated again only when they
/// differ).
pub(in crate::relay) fn current_list(
    people: &People,
    games: &Games,
    today: jiff::civil::Date,
) -> RatingList {
    let rules = &people.ratings;
    let mut rated: Vec<RatedGame> = games
        .by_id
        .iter()
        .filter_map(|(id, game)| {
            let event = games.notes.get(id).and_then(|n| n.event.as_deref());
            let in_event = event.map(|e| people.events.get(e).is_none_or(|e| e.rated));
            rated_game(rules, id, game, in_event)
        })
        .collect();
    // The table's order is a hash's: sorted, equal inputs compare equal.
    rated.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    let seeds = seeds(&people.registry);
    // Only the relay's task holds the games: the lock is never waited on.
    let mut kept = games
        .rating_list
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = kept.as_ref()
        && k.today == today
        && k.rated == rated
        && k.seeds == seeds
    {
        return k.list.clone();
    }
    let list = rating_list(rules, &rated, &seeds, today);
    *kept = Some(KeptRatingList {
        today,
        rated,
        seeds,
        list: list.clone(),
    });
    list
}

/// A rating as the line writes it: two decimals, `?` when provisional.
fn rating_words(s: &Standing) -> String {
    let mark = if s.rating.provisional() { "?" } else { "" };
    format!("{:.2}{mark} RD {:.2}", s.rating.rating, s.rating.deviation)
}

fn change_words(s: &Standing) -> String {
    s.change()
        .map_or_else(|| "new".to_owned(), |c| format!("{c:+.2}"))
}

/// `RATINGS`: everyone on the list, highest first; `RATINGS p`: p's line and history.
pub(super) fn ratings(state: &State, player: Option<&str>) -> Reply {
    let today = crate::game::clock::date_of(state.recorder.now);
    let list = current_list(&state.people, &state.games, today);
    let Some(player) = player else {
        let mut lines = vec![format!(
            "rating list effective {} ({} periods): {} player(s); ? provisional",
            list.effective,
            state.people.ratings.period.as_str(),
            list.standings.len()
        )];
        for (place, s) in list.standings.iter().enumerate() {
            lines.push(format!(
                "{} {} {} games {} {}",
                place + 1,
                s.player,
                rating_words(s),
                s.games,
                change_words(s)
            ));
        }
        return Reply::new(Status::Done, lines.join("\n"));
    };
    let Some(s) = list.get(player) else {
        return if state.people.players.contains_key(player) {
            Reply::new(Status::Done, format!("{player}: no rated game yet"))
        } else {
            Reply::new(Status::NotFound, format!("no player {player:?}"))
        };
    };
    let history: Vec<String> = s
        .history
        .iter()
        .map(|(day, rating, rd)| format!("{day} {rating:.2}/{rd:.2}"))
        .collect();
    let text = format!(
        "{player}: {} games {} {} (list effective {})\nhistory: {}",
        rating_words(s),
        s.games,
        change_words(s),
        list.effective,
        history.join(", ")
    );
    Reply::new(Status::Done, text)
}
