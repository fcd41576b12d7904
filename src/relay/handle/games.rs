//! The games: `GAMES` (a player's list), `SHOW` (one game), and starting a game (the admin's
//! `CREATE`, or a game of the configuration at start-up).

use shakmaty::Color;

use crate::command::text::Logged;
use crate::config::{GAME_ID_RULE, valid_game_id};
use crate::game::clock::{Leave, Rules};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::replay::GameStartDetail;
use crate::journal::{NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::render;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::State;
use crate::relay::view::{self, GameView};

pub(in crate::relay) fn list_games(state: &State, request: &Request) -> Reply {
    let mut ids: Vec<&String> = state
        .games
        .by_id
        .iter()
        .filter(|(_, g)| request.admin || g.side_of(&request.player).is_some())
        .map(|(id, _)| id)
        .collect();
    ids.sort();
    let mut lines = vec![format!("{} game(s)", ids.len())];
    for id in ids {
        lines.push(render::game_line(&state.games.by_id[id], &request.player));
    }
    Reply::new(Status::Done, lines.join("\n"))
}

pub(in crate::relay) fn show(state: &State, request: &Request, game_id: &str) -> Reply {
    if !request.admin
        && let Err(refusal) = state.seat(request, game_id)
    {
        return refusal;
    }
    let Some(game) = state.games.by_id.get(game_id) else {
        return Reply::new(Status::NotFound, format!("no game {game_id:?}"));
    };
    let notation = state
        .people
        .players
        .get(&request.player)
        .map_or(crate::notation::Notation::Iccf, |p| p.written_notation());
    let mut text = render::show(game, notation, &request.player, state.recorder.now);
    if let Some(clocks) = state.games.server_clocks.get(game_id) {
        text.push('\n');
        text.push_str(&render::server_clocks(clocks));
    }
    Reply::new(Status::Done, text)
}

/// [`State::create`], and the game's facts for the views (its event and round).
pub(in crate::relay) async fn start(
    state: &mut State,
    request: &Request,
    game_id: String,
    detail: GameStartDetail,
) -> Pending {
    let (event, round) = (detail.event.clone(), detail.round.clone());
    let pending = create(state, request, game_id.clone(), detail).await;
    if matches!(&pending, Pending::AfterCommit(_, r) if r.status.is_success()) {
        state.note_start(&game_id, event, round);
    }
    pending
}

/// Starts a game; `detail` without rules: they come from its event.
pub(in crate::relay) async fn create(
    state: &mut State,
    request: &Request,
    game_id: String,
    detail: GameStartDetail,
) -> Pending {
    if !request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "only the admin creates games",
        ));
    }
    let (white, black) = (detail.white.clone(), detail.black.clone());
    let (record, game) = match prepare_start(state, request, &game_id, detail) {
        Ok(prepared) => prepared,
        Err(reply) => return Pending::Now(reply),
    };
    match state.enqueue(vec![record]).await {
        Ok(committed) => {
            state.games.by_id.insert(game_id.clone(), Box::new(game));
            Pending::AfterCommit(
                committed,
                Reply::new(
                    Status::Done,
                    format!("created {game_id}: {white} (White) - {black} (Black)"),
                ),
            )
        }
        Err(reply) => Pending::Now(reply),
    }
}

/// Checks a game's start and makes its `game_start` record (telling each player) and the
/// game as it starts, changing nothing; `detail` without rules: they come from its event.
pub(in crate::relay) fn prepare_start(
    state: &State,
    request: &Request,
    game_id: &str,
    mut detail: GameStartDetail,
) -> Result<(Record, crate::game::Game), Reply> {
    if !valid_game_id(game_id) {
        return Err(Reply::new(
            Status::BadCommand,
            format!("{:?} is not a game id ({GAME_ID_RULE})", Logged(game_id)),
        ));
    }
    if state.games.by_id.contains_key(game_id) {
        return Err(Reply::new(
            Status::Refused,
            format!("game {game_id} exists already"),
        ));
    }
    let (white, black) = (detail.white.clone(), detail.black.clone());
    for player in [&white, &black] {
        if !state.people.players.contains_key(player) {
            return Err(Reply::new(
                Status::NotFound,
                format!("no player {player:?}"),
            ));
        }
    }
    if white == black {
        return Err(Reply::new(
            Status::BadCommand,
            "a player cannot play themself",
        ));
    }
    if let Some(crate::relay::link_role::LinkRole::Replica { remote }) =
        state.people.role_of(&white, &black, detail.authority)
    {
        return Err(Reply::new(
            Status::Refused,
            format!(
                "game {game_id} would be kept by the node of {remote}, across the link: create it there"
            ),
        ));
    }
    let rules = match &detail.event {
        None => Rules::default(),
        Some(id) => match state.people.events.get(id) {
            Some(event) => event.rules.clone(),
            None => {
                return Err(Reply::new(Status::NotFound, format!("no event {id:?}")));
            }
        },
    };
    // Leave already announced covers a game started during it (one with leave at all).
    let has_leave = rules.leave_refused().is_none();
    detail.rules = Some(rules);
    let today = crate::game::clock::date_of(state.recorder.now);
    let current = |player: &str| -> Vec<Leave> {
        state
            .games
            .leave_of(player)
            .into_iter()
            .filter(|l| l.last() >= today)
            .collect()
    };
    if has_leave {
        detail.leave = [current(&white), current(&black)];
    }
    let game = detail
        .game(game_id, state.recorder.now)
        .map_err(|e| Reply::new(Status::BadCommand, format!("bad FEN: {e}")))?;
    let entry = state.recorder.request_entry(
        request,
        game_id,
        &Meaning::GameStart(Box::new(detail.clone())),
    )?;
    let outbox = [
        (&white, Color::White, &black),
        (&black, Color::Black, &white),
    ]
    .into_iter()
    .map(|(player, color, opponent)| {
        let notice = Notice::GameStarted {
            game: game_id.to_owned(),
            side: color.into(),
            opponent: opponent.clone(),
        };
        NewOutbox::notice(player, notice)
    })
    .collect();
    Ok((Record { entry, outbox }, game))
}

/// Every game of `player`, sorted by id, with the clock's consequences applied first; the
/// answer waits until what it shows is on disk.
pub(in crate::relay) async fn games_of(
    state: &mut State,
    player: &str,
) -> (Pending, Vec<GameView>) {
    state.recorder.catch_up();
    let mut ids: Vec<String> = state
        .games
        .by_id
        .iter()
        .filter(|(_, g)| g.side_of(player).is_some())
        .map(|(id, _)| id.clone())
        .collect();
    ids.sort();
    for id in &ids {
        super::clock::settle(state, id).await;
    }
    let views = ids
        .iter()
        .filter_map(|id| view::view(state, id, player))
        .collect();
    (
        state.after_commit(Reply::new(Status::Done, "")).await,
        views,
    )
}
