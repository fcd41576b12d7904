//! `LEAVE first days FOR player reason`: the arbiter's special leave (ICCF: "special leave
//! (illness, work) granted by the tournament director"). It stops the player's clock in every
//! game they have in progress here, as their own leave does, but is not counted in their
//! yearly allowance; it must still lie ahead and apart from leave already taken, so that no
//! move already made is counted again. Journaled in each game as a `special_leave` entry by
//! the arbiter, naming the player and the reason; both players are told.

use jiff::civil::Date;

use crate::game::clock::{Leave, LeaveRefusal};
use crate::game::{Action, Game, Refusal};
use crate::journal::entry::{Meaning, SpecialLeaveDetail};
use crate::journal::notice::Notice;
use crate::journal::{NewOutbox, Record};
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::State;

/// Why a game in progress takes no special leave here.
enum LeftOut {
    /// The game's rules have none (Triple Block: the bank replaces it).
    Rules(LeaveRefusal),
    /// The other node of a link keeps the game's record: the arbiter there grants it.
    OtherNode,
}

/// The arbiter's special leave for `player`: `days` from `first`, in every game of theirs in
/// progress that this node keeps.
pub(in crate::relay) async fn grant(
    state: &mut State,
    request: &Request,
    player: &str,
    (first, days): (Date, u32),
    reason: &str,
) -> Pending {
    if !request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "special leave is granted by the arbiter: your own leave is LEAVE <first day> <days>",
        ));
    }
    if !state.people.players.contains_key(player) {
        return Pending::Now(Reply::new(
            Status::NotFound,
            format!("no player {player:?}"),
        ));
    }
    let leave = Leave::special(first, days);
    let (ids, left_out) = games_taking_it(state, player);
    let mut not_in = String::new();
    for (id, why) in &left_out {
        let why = match why {
            LeftOut::Rules(refusal) => Refusal::Leave(*refusal).to_string(),
            LeftOut::OtherNode => "the other node keeps its record: grant it there".to_owned(),
        };
        not_in.push_str(&format!("; not in {id}: {why}"));
    }
    if ids.is_empty() {
        return Pending::Now(Reply::new(
            Status::Refused,
            format!("{player} has no game in progress here to take leave from{not_in}"),
        ));
    }
    let taken = state.games.leave_of(player);
    let mut afters = Vec::new();
    let mut records = Vec::new();
    for id in &ids {
        let game = &state.games.by_id[id];
        let Some(color) = game.side_of(player) else {
            continue;
        };
        let now = state.recorder.now;
        let checked =
            crate::game::clock::check_leave(&taken, leave, now, game.rules().leave_days_per_year)
                .map_err(Refusal::Leave)
                .and_then(|()| game.check(color, &Action::Leave(leave), now));
        if let Err(refusal) = checked {
            return Pending::Now(Reply::new(Status::Refused, format!("game {id}: {refusal}")));
        }
        let detail = Meaning::SpecialLeave(SpecialLeaveDetail {
            player: player.to_owned(),
            first,
            days,
            reason: reason.to_owned(),
        });
        let entry = match state.recorder.request_entry(request, id, &detail) {
            Ok(entry) => entry,
            Err(reply) => return Pending::Now(reply),
        };
        let notice = Notice::Leave {
            game: id.clone(),
            by: player.to_owned(),
            side: color.into(),
            leave,
        };
        records.push(Record {
            entry,
            outbox: [player, game.player(!color)]
                .into_iter()
                .map(|reader| NewOutbox::notice(reader, notice.clone()))
                .collect(),
        });
        let mut after = Game::clone(game);
        after.apply_by(color, &Action::Leave(leave), now);
        afters.push(after);
    }
    let reply = format!(
        "special leave {leave} for {player} in {}{not_in}",
        ids.join(", ")
    );
    state.commit_many(request, afters, records, reply).await
}

/// The games `player` has in progress that take the leave here, by id, and those that do not
/// with why.
fn games_taking_it(state: &State, player: &str) -> (Vec<String>, Vec<(String, LeftOut)>) {
    let mut ids: Vec<&String> = state
        .games
        .by_id
        .iter()
        .filter(|(_, g)| g.result().is_none() && g.side_of(player).is_some())
        .map(|(id, _)| id)
        .collect();
    ids.sort();
    let mut taking = Vec::new();
    let mut left_out = Vec::new();
    for id in ids {
        if matches!(state.role(id), Some(LinkRole::Replica { .. })) {
            left_out.push((id.clone(), LeftOut::OtherNode));
        } else if let Some(why) = state.games.by_id[id].rules().leave_refused() {
            left_out.push((id.clone(), LeftOut::Rules(why)));
        } else {
            taking.push(id.clone());
        }
    }
    (taking, left_out)
}
