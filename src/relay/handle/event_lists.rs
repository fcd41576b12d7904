//! An event as text: `EVENT SHOW` (the entrants, the games by round, the standings with their
//! tie-breaks) and `EVENTS` (every event and how far it has gone), for the admin and the
//! event's own players. Making and running events is `events.rs`.

use crate::event::{System, standings};
use crate::game::{EndReason, GameResult};
use crate::journal::registry::EventRecord;
use crate::relay::render::shown;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::State;

/// `EVENT SHOW <id>`: the entrants, the games by round and the standings; for the admin
/// and the event's own players. Anyone else is told they do not play in it when
/// spectators see its games, and that there is no such event otherwise.
pub(in crate::relay) fn show_event(
    state: &State,
    request: &Request,
    id: &str,
) -> Result<Reply, Reply> {
    let Some(event) = state.people.events.get(id) else {
        return Err(Reply::new(Status::NotFound, format!("no event {id:?}")));
    };
    let record = state.people.registry.events.get(id);
    let mut games: Vec<(&String, &crate::relay::notes::GameNotes)> = state
        .games
        .notes
        .iter()
        .filter(|(_, f)| f.event.as_deref() == Some(id))
        .collect();
    let plays = |p: &str| {
        games.iter().any(|(g, _)| {
            state
                .games
                .by_id
                .get(*g)
                .is_some_and(|g| g.side_of(p).is_some())
        })
    };
    if !request.admin && !record.is_some_and(|r| r.has(&request.player)) && !plays(&request.player)
    {
        // As for a game (`State::seat`): an event whose games spectators may not see is
        // answered as one that does not exist, word for word, so an id reveals nothing.
        if !games.iter().any(|(g, _)| state.spectators_see(g)) {
            return Err(Reply::new(Status::NotFound, format!("no event {id:?}")));
        }
        return Err(Reply::new(
            Status::Forbidden,
            format!("you do not play in event {id}"),
        ));
    }
    let round = |f: &crate::relay::notes::GameNotes| {
        f.round
            .as_deref()
            .and_then(|r| r.parse::<u32>().ok())
            .unwrap_or(u32::MAX)
    };
    games.sort_by(|a, b| (round(a.1), a.0).cmp(&(round(b.1), b.0)));
    let system = event
        .system
        .map_or("games listed in the configuration", System::as_str);
    let started = match record {
        Some(r) if r.started => "started",
        Some(_) => "not started",
        None => "from the configuration",
    };
    let mut lines = vec![format!(
        "event {id}: {} ({system}, {}), {started}",
        event.name, event.rules.time_control
    )];
    if let Some(r) = record {
        if r.teams.is_empty() {
            lines.push(format!("entrants: {}", numbered(r, None)));
        }
        for team in &r.teams {
            lines.push(format!(
                "team {}: {}",
                shown(&team.name),
                numbered(r, Some(&team.name))
            ));
        }
        if let Some(draw) = &r.draw {
            lines.push(format!("drawn with seed {}", draw.seed));
        }
        for (player, reason) in &r.withdrawn {
            lines.push(format!("withdrawn: {player} ({})", shown(reason)));
        }
    }
    let mut played = Vec::new();
    for (game_id, facts) in &games {
        let Some(game) = state.games.by_id.get(*game_id) else {
            continue;
        };
        let result = game.result();
        lines.push(format!(
            "round {}: {game_id} {} - {} {}",
            facts.round.as_deref().unwrap_or("-"),
            game.white,
            game.black,
            result.map_or("*", GameResult::pgn)
        ));
        played.push(standings::Played {
            white: game.white.clone(),
            black: game.black.clone(),
            result: result.map(|r| r.winner),
            forfeit: result.is_some_and(|r| r.reason == EndReason::Withdrawal),
        });
    }
    if let Some(r) = record.filter(|r| r.teams.len() == 2) {
        let score = standings::match_score(&r.teams[0].players, &r.teams[1].players, &played);
        for (board, (a, b, _)) in score.boards.iter().enumerate() {
            lines.push(format!(
                "board {}: {} {} - {} {}",
                board + 1,
                r.teams[0].players[board],
                standings::halves(*a),
                standings::halves(*b),
                r.teams[1].players[board]
            ));
        }
        lines.push(format!(
            "match: {} {} - {} {}",
            shown(&r.teams[0].name),
            standings::halves(score.total.0),
            standings::halves(score.total.1),
            shown(&r.teams[1].name)
        ));
    }
    if event.system == Some(System::Knockout) {
        lines.extend(super::knockout::shown(state, id));
        return Ok(Reply::new(Status::Done, lines.join("\n")));
    }
    for row in standings::standings(&played) {
        lines.push(format!(
            "{:>5} {} {} points, S-B {}, {} win(s)",
            row.place,
            row.id,
            standings::halves(row.points2),
            standings::quarters(row.sb4),
            row.wins
        ));
    }
    Ok(Reply::new(Status::Done, lines.join("\n")))
}

/// `EVENTS`: every event and how far it has gone.
pub(in crate::relay) fn list_events(state: &State, request: &Request) -> Reply {
    let mut lines = vec![format!("{} event(s)", state.people.events.len())];
    for (id, event) in &state.people.events {
        let record = state.people.registry.events.get(id);
        if !request.admin && !record.is_some_and(|r| r.has(&request.player)) {
            continue;
        }
        let how = match (event.system, record) {
            (Some(system), Some(r)) => format!(
                "{system}, {} entered, {}",
                r.places().len(),
                if r.started { "started" } else { "not started" }
            ),
            _ => "from the configuration".to_owned(),
        };
        lines.push(format!("{id} \"{}\" {how}", event.name));
    }
    if !request.admin {
        lines[0] = format!("{} event(s)", lines.len() - 1);
    }
    Reply::new(Status::Done, lines.join("\n"))
}

/// An event's entrants (or a team's players) with their numbers: `1 alice, 2 boris`.
pub(super) fn numbered(record: &EventRecord, team: Option<&str>) -> String {
    let players: Vec<&String> = match team {
        Some(name) => record
            .teams
            .iter()
            .filter(|t| t.name == name)
            .flat_map(|t| t.players.iter())
            .collect(),
        None => record.entrants.iter().collect(),
    };
    players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} {p}", i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}
