//! `LEAVE`: a player's leave, taken in all their games at once (their clocks stop for it).

use jiff::civil::Date;
use shakmaty::Color;

use crate::command::Command;
use crate::game::clock::{Leave, LeaveRefusal};
use crate::game::{Action, Game, Refusal};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::{NewOutbox, Record};
use crate::relay::link_role::LinkRole;
use crate::relay::peers::game_of_key;
use crate::relay::pending::Pending;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::{Refused, State};

/// `LEAVE`: `days` of leave from `first`, in every game the player has in progress; the games
/// the other node keeps take it there, proposed once a link.
pub(in crate::relay) async fn leave(
    state: &mut State,
    request: &Request,
    first: Date,
    days: u32,
) -> Pending {
    if request.admin {
        return Pending::Now(Reply::new(Status::Forbidden, "leave is a player's"));
    }
    let leave = Leave::new(first, days);
    let mut ids = games_in_progress(state, &request.player);
    // Games the other node of a link keeps take the leave there: one proposal goes for
    // all of them (that node applies it to every game of the player it keeps).
    let replica = |id: &String| matches!(state.role(id), Some(LinkRole::Replica { .. }));
    let proposed: Vec<String> = ids
        .iter()
        .filter(|id| replica(id))
        .map(|id| (*id).clone())
        .collect();
    let carriers = one_game_per_link(state, &proposed);
    ids.retain(|id| !replica(id));
    let without = leave_out_games_without_leave(state, &mut ids);
    let carrier = game_of_the_links_action(state, request);
    if ids.is_empty() && (proposed.is_empty() || request.channel == Channel::Link) {
        let refused = nothing_to_take_leave_from(&without);
        return match carrier {
            Some(game) => state.refuse(request, &game, refused).await,
            None => Pending::Now(refused.reply()),
        };
    }
    if let Err(refusal) = check_in_every_game(state, request, &ids, leave) {
        let (id, refused) = *refusal;
        let id = carrier.unwrap_or(id);
        return state.refuse(request, &id, refused).await;
    }
    let (afters, mut records) = match record_in_every_game(state, request, &ids, leave) {
        Ok(made) => made,
        Err(reply) => return Pending::Now(reply),
    };
    let mut reply = format!(
        "leave {leave} in {}",
        ids.iter()
            .map(|id| id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !proposed.is_empty() && request.channel != Channel::Link {
        match propose_across_links(state, request, &carriers, first, days) {
            Ok(proposals) => records.extend(proposals),
            Err(reply) => return Pending::Now(reply),
        }
        let sent = format!(
            "leave {leave} sent for {} to the other node, which keeps their records: you will be told",
            proposed.join(", ")
        );
        reply = if ids.is_empty() {
            sent
        } else {
            format!("{reply}; {sent}")
        };
    }
    for (id, why) in &without {
        reply.push_str(&format!("; not in {id}: {why}"));
    }
    let said = Said::LeaveTaken {
        leave,
        games: ids.iter().map(|id| (*id).clone()).collect(),
        proposed: if request.channel == Channel::Link {
            Vec::new()
        } else {
            proposed
        },
        without,
    };
    state
        .commit_many(request, afters, records, reply)
        .await
        .saying(said)
}

/// The games `player` plays that have not ended, by id.
fn games_in_progress<'a>(state: &'a State, player: &str) -> Vec<&'a String> {
    let mut ids: Vec<&String> = state
        .games
        .by_id
        .iter()
        .filter(|(_, g)| g.result().is_none() && g.side_of(player).is_some())
        .map(|(id, _)| id)
        .collect();
    ids.sort();
    ids
}

/// Of the games the other node keeps (`proposed`), one per link: the game each link's
/// proposal goes across in.
fn one_game_per_link(state: &State, proposed: &[String]) -> Vec<String> {
    let mut links = Vec::new();
    let mut carriers = Vec::new();
    for id in proposed {
        let remote = state
            .role(id)
            .map(|r| r.remote().to_owned())
            .unwrap_or_default();
        let link = state.people.players.get(&remote).map(|p| p.reach.clone());
        if !links.contains(&link) {
            links.push(link);
            carriers.push(id.clone());
        }
    }
    carriers
}

/// Takes out of `ids` the games whose rules have no leave (Triple Block: the bank replaces
/// it), with the reason each is left out: nothing is recorded in them.
fn leave_out_games_without_leave(
    state: &State,
    ids: &mut Vec<&String>,
) -> Vec<(String, LeaveRefusal)> {
    let mut without: Vec<(String, LeaveRefusal)> = Vec::new();
    ids.retain(|id| match state.games.by_id[*id].rules().leave_refused() {
        Some(why) => {
            without.push(((*id).clone(), why));
            false
        }
        None => true,
    });
    without
}

/// A leave from the other node is one action with an id, proposed in one game there (its key
/// names it): the game a refusal is recorded in, so that it goes back.
fn game_of_the_links_action(state: &State, request: &Request) -> Option<String> {
    request
        .key
        .as_deref()
        .and_then(game_of_key)
        .filter(|g| request.channel == Channel::Link && state.games.by_id.contains_key(*g))
        .map(str::to_owned)
}

/// The refusal when no game takes the leave: the first game left out and why, or none.
fn nothing_to_take_leave_from(without: &[(String, LeaveRefusal)]) -> Refused {
    match without.first() {
        Some((id, why)) => refused_in(id, Refusal::Leave(*why)),
        None => Refused {
            status: Status::Refused,
            reason: "you have no game in progress to take leave from".to_owned(),
            said: Some(Said::NoGameForLeave),
        },
    }
}

/// Leave refused by game `id` (`game g1: leave refused: ...`).
fn refused_in(id: &str, refusal: Refusal) -> Refused {
    Refused {
        status: Status::Refused,
        reason: format!("game {id}: {refusal}"),
        said: Some(Said::RefusedIn {
            game: id.to_owned(),
            refusal,
        }),
    }
}

/// Checks `leave` in every game of `ids`: against all the player's leave, in every game,
/// finished or not, and against each game's rules. The first refusal, with its game.
fn check_in_every_game(
    state: &State,
    request: &Request,
    ids: &[&String],
    leave: Leave,
) -> Result<(), Box<(String, Refused)>> {
    let mut taken = state.games.leave_of(&request.player);
    if request.channel == Channel::Link {
        // The same leave recorded already came in the other node's record of another
        // game: one announcement, not two.
        taken.retain(|l| *l != leave);
    }
    for id in ids {
        let game = &state.games.by_id[*id];
        let color = game.side_of(&request.player).unwrap_or(Color::White);
        let per_year = game.rules().leave_days_per_year;
        let checked = crate::game::clock::check_leave(&taken, leave, state.recorder.now, per_year)
            .map_err(Refusal::Leave)
            .and_then(|()| game.check(color, &Action::Leave(leave), state.recorder.now));
        if let Err(refusal) = checked {
            return Err(Box::new(((*id).clone(), refused_in(id, refusal))));
        }
    }
    Ok(())
}

/// The leave in every game of `ids`: each game after it, and its entry with the opponent's
/// notice.
fn record_in_every_game(
    state: &State,
    request: &Request,
    ids: &[&String],
    leave: Leave,
) -> Result<(Vec<Game>, Vec<Record>), Reply> {
    let mut afters = Vec::new();
    let mut records = Vec::new();
    for id in ids {
        let game = &state.games.by_id[*id];
        let color = game.side_of(&request.player).unwrap_or(Color::White);
        let entry = state
            .recorder
            .request_entry(request, id, &Meaning::Leave(leave))?;
        let notice = Notice::Leave {
            game: (*id).clone(),
            by: request.player.clone(),
            side: color.into(),
            leave,
        };
        records.push(Record {
            entry,
            outbox: vec![NewOutbox::notice(game.player(!color), notice)],
        });
        let mut after = Game::clone(game);
        after.apply_by(color, &Action::Leave(leave), state.recorder.now);
        afters.push(after);
    }
    Ok((afters, records))
}

/// The proposal of the leave to the other node, one entry in each game of `carriers`.
fn propose_across_links(
    state: &State,
    request: &Request,
    carriers: &[String],
    first: Date,
    days: u32,
) -> Result<Vec<Record>, Reply> {
    let mut records = Vec::new();
    for carrier in carriers {
        let proposal = Meaning::Proposal {
            command: Command::Leave { first, days }.to_string(),
            iccf: None,
        };
        let entry = state.recorder.request_entry(request, carrier, &proposal)?;
        records.push(Record {
            entry,
            outbox: vec![],
        });
    }
    Ok(records)
}
