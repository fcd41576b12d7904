//! Events while the relay runs: `EVENT NEW`, `ENTER`, `DRAW`, `START`, `WITHDRAW`, `SHOW` and
//! `EVENTS`. Every change is a journal entry (replayed at start); `EVENT START` journals the
//! event's start and every game's start in one commit, paired by [`crate::event`]'s tables,
//! and tells each player of their games on their own channel: a push per game over the line
//! protocol, one mail listing them all by email. A refusal changes nothing and says why.

use std::collections::BTreeMap;

use shakmaty::Color;

use crate::command::EventAction;
use crate::command::text::Logged;
use crate::config::registered::event_from_keys;
use crate::config::{Reach, valid_game_id};
use crate::event::{self, System};
use crate::game::{Action, EndReason, GameResult};
use crate::journal::entry::Meaning;
use crate::journal::notice::{EventGame, Notice};
use crate::journal::registry::{DrawDetail, EnterDetail, EventRecord, StartDetail, WithdrawDetail};
use crate::journal::replay::{AdjudicationDetail, GameStartDetail};
use crate::journal::{Committed, NewOutbox, Record};
use crate::relay::handle::event_lists::{self, numbered};
use crate::relay::pending::Pending;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::State;

/// The longest event id: its games' ids (`<event>-r12b3`) must stay within an id's 64.
const MAX_EVENT_ID: usize = 48;

pub(super) fn refused(status: Status, text: impl Into<String>) -> Reply {
    Reply::new(status, text)
}

/// `EVENT <verb> <id> ...`.
pub(in crate::relay) async fn event(
    state: &mut State,
    request: &Request,
    id: &str,
    action: EventAction,
) -> Pending {
    if !request.admin && !matches!(action, EventAction::Show) {
        return Pending::Now(refused(
            Status::Forbidden,
            "only the arbiter (admin) makes and runs events",
        ));
    }
    let done = match action {
        EventAction::New { system, keys } => new_event(state, request, id, system, &keys).await,
        EventAction::Enter {
            team,
            players,
            overriding,
        } => {
            enter(
                state,
                request,
                id,
                team.as_deref(),
                &players,
                overriding.as_deref(),
            )
            .await
        }
        EventAction::Draw => draw(state, request, id, false).await,
        EventAction::Seed => draw(state, request, id, true).await,
        EventAction::Start => start_event(state, request, id).await,
        EventAction::Withdraw { player, reason } => {
            withdraw(state, request, id, &player, &reason).await
        }
        EventAction::Show => event_lists::show_event(state, request, id).map(Pending::Now),
    };
    done.unwrap_or_else(Pending::Now)
}

/// The event made here (not in the configuration), or why not.
fn registered<'a>(state: &'a State, id: &str) -> Result<&'a EventRecord, Reply> {
    match state.people.registry.events.get(id) {
        Some(record) => Ok(record),
        None if state.people.events.contains_key(id) => Err(refused(
            Status::Refused,
            format!("event {id} is in the configuration: its games are listed there"),
        )),
        None => Err(refused(Status::NotFound, format!("no event {id:?}"))),
    }
}

/// The event made here, not started yet.
fn open_event<'a>(state: &'a State, id: &str) -> Result<&'a EventRecord, Reply> {
    let record = registered(state, id)?;
    if record.started {
        return Err(refused(
            Status::Refused,
            format!("event {id} has started: its entrants are fixed"),
        ));
    }
    Ok(record)
}

async fn journal_one(
    state: &mut State,
    request: &Request,
    meaning: &Meaning,
    outbox: Vec<NewOutbox>,
) -> Result<Committed, Reply> {
    let entry = state.recorder.request_entry(request, "", meaning)?;
    state.enqueue(vec![Record { entry, outbox }]).await
}

async fn new_event(
    state: &mut State,
    request: &Request,
    id: &str,
    system: System,
    keys: &[(String, String)],
) -> Result<Pending, Reply> {
    // Its games are named after it (`club-r1b1`), so it takes a game id's characters.
    if !valid_game_id(id) || id.len() > MAX_EVENT_ID {
        return Err(refused(
            Status::BadCommand,
            format!(
                "{:?} is not an event id (letters, digits, '-', '_'; at most {MAX_EVENT_ID})",
                Logged(id)
            ),
        ));
    }
    if state.people.events.contains_key(id) {
        return Err(refused(
            Status::Refused,
            format!("event {id} exists already"),
        ));
    }
    let keys: Vec<(&str, &str)> = keys.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut event =
        event_from_keys(id, &keys).map_err(|e| refused(Status::BadCommand, e.to_string()))?;
    event.system = Some(system);
    let committed = journal_one(
        state,
        request,
        &Meaning::EventNew(Box::new(event.clone())),
        Vec::new(),
    )
    .await?;
    let reply = format!(
        "event {id} made: {} ({system}, {}); enter players with EVENT ENTER {id}{} <player>...",
        event.name,
        event.rules.time_control,
        if system.has_teams() {
            " TEAM <name>"
        } else {
            ""
        }
    );
    state.people.events.insert(id.to_owned(), event.clone());
    state
        .people
        .registry
        .events
        .insert(id.to_owned(), EventRecord::new(event));
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, reply),
    ))
}

async fn enter(
    state: &mut State,
    request: &Request,
    id: &str,
    team: Option<&str>,
    players: &[String],
    overriding: Option<&str>,
) -> Result<Pending, Reply> {
    let record = open_event(state, id)?;
    let system = record.event.system.unwrap_or(System::RoundRobin);
    match (system.has_teams(), team) {
        (true, None) => {
            return Err(refused(
                Status::BadCommand,
                format!(
                    "a match's players are entered by team: EVENT ENTER {id} TEAM <name> <player>..."
                ),
            ));
        }
        (false, Some(_)) => {
            return Err(refused(
                Status::BadCommand,
                format!("event {id} is a {system}: it has no teams"),
            ));
        }
        (true, Some(name))
            if record.teams.len() >= 2 && !record.teams.iter().any(|t| t.name == name) =>
        {
            return Err(refused(
                Status::Refused,
                format!("match {id} has its two teams already"),
            ));
        }
        _ => {}
    }
    for (i, player) in players.iter().enumerate() {
        if players[..i].contains(player) {
            return Err(refused(
                Status::BadCommand,
                format!("{player} is named twice"),
            ));
        }
        let Some(p) = state.people.players.get(player) else {
            return Err(refused(Status::NotFound, format!("no player {player:?}")));
        };
        if let Reach::Link(_) = p.reach {
            return Err(refused(
                Status::BadCommand,
                format!("{player} plays across a link: their node runs their events"),
            ));
        }
        if record.has(player) {
            return Err(refused(
                Status::Refused,
                format!("{player} is entered in {id} already"),
            ));
        }
    }
    // ICCF's bar on new entries after a loss on time, if the event keeps it: computed from
    // the record's results, so it holds through a restart.
    let mut barred = Vec::new();
    if let Some(bar) = record.event.timeout_bar_days {
        for player in players {
            let losses = state.games.losses_on_time(player);
            if let Some(until) = bar.holds_until(&losses, state.recorder.now) {
                barred.push(format!("{player} (until {until})"));
                if overriding.is_none() {
                    return Err(refused(
                        Status::Refused,
                        format!(
                            "{player} lost a game on time and may not enter a new event until {until} \
                             (event {id}: {} days after a loss on time, {} after one while barred); \
                             the arbiter may enter them with EVENT ENTER {id} {player} OVERRIDE <reason>",
                            bar.first, bar.repeated
                        ),
                    ));
                }
            }
        }
    }
    let detail = EnterDetail {
        event: id.to_owned(),
        team: team.map(str::to_owned),
        players: players.to_vec(),
        overriding: overriding.map(str::to_owned),
    };
    let committed = journal_one(
        state,
        request,
        &Meaning::EventEnter(detail.clone()),
        Vec::new(),
    )
    .await?;
    let record = state
        .people
        .registry
        .events
        .get_mut(id)
        .expect("checked above; the relay is the only writer");
    record.enter(team, players);
    let numbered = numbered(record, team);
    let mut reply = match team {
        Some(team) => format!("entered in {id}, team {team}: {numbered}"),
        None => format!("entered in {id}: {numbered}"),
    };
    if let (false, Some(reason)) = (barred.is_empty(), overriding) {
        reply.push_str(&format!(
            "; the bar after a loss on time overridden for {}: {reason}",
            barred.join(", ")
        ));
    }
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, reply),
    ))
}

/// `EVENT DRAW` (`by_rating` false) and `EVENT SEED ... BY rating`: the numbers by lot, or
/// by the rating list in effect today with ties by the lot.
async fn draw(
    state: &mut State,
    request: &Request,
    id: &str,
    by_rating: bool,
) -> Result<Pending, Reply> {
    let record = open_event(state, id)?;
    if by_rating && !record.teams.is_empty() {
        return Err(refused(
            Status::BadMove,
            format!("event {id} is a match: its teams are drawn by lot (EVENT DRAW)"),
        ));
    }
    let drawn: Vec<String> = if record.teams.is_empty() {
        record.entrants.clone()
    } else {
        record.teams.iter().map(|t| t.name.clone()).collect()
    };
    if drawn.len() < 2 {
        return Err(refused(
            Status::BadMove,
            format!("event {id} has nothing to draw yet: enter its players first"),
        ));
    }
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| {
        refused(
            Status::NotRecorded,
            format!("not recorded: no random source: {e}"),
        )
    })?;
    let lot = event::draw::shuffle(&drawn, &seed);
    let (order, ratings) = if by_rating {
        seeded(state, &lot)
    } else {
        (lot, Vec::new())
    };
    let detail = DrawDetail {
        event: id.to_owned(),
        seed: hex::encode(seed),
        order,
        ratings,
    };
    let committed = journal_one(
        state,
        request,
        &Meaning::EventDraw(detail.clone()),
        Vec::new(),
    )
    .await?;
    let reply = format!(
        "{} with seed {}: {}",
        if by_rating {
            "seeded by rating, ties by lot"
        } else {
            "drawn"
        },
        detail.seed,
        detail
            .order
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {p}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(record) = state.people.registry.events.get_mut(id) {
        record
            .apply_draw(detail)
            .map_err(|e| refused(Status::NotRecorded, e))?;
    }
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, reply),
    ))
}

/// The lot sorted by the rating list in effect today (a player not on it at the starting
/// rating), and each one's rating as the record keeps it, in the lot's order.
fn seeded(state: &State, lot: &[String]) -> (Vec<String>, Vec<String>) {
    let today = crate::game::clock::date_of(state.recorder.now);
    let list = super::ratings::current_list(&state.people, &state.games, today);
    let start = state.people.ratings.start.rating;
    let hundredths = |player: &str| {
        let rating = list.get(player).map_or(start, |s| s.rating.rating);
        (rating * 100.0).round() as i64
    };
    let ratings = lot
        .iter()
        .map(|p| {
            let h = hundredths(p);
            format!("{p} {}.{:02}", h / 100, h % 100)
        })
        .collect();
    (event::draw::by_rating(lot, &hundredths), ratings)
}

async fn start_event(state: &mut State, request: &Request, id: &str) -> Result<Pending, Reply> {
    let record = open_event(state, id)?;
    let event = record.event.clone();
    let system = event.system.unwrap_or(System::RoundRobin);
    let sizes = record.sizes();
    if let Some(why) = system.unpairable(&sizes) {
        return Err(refused(Status::BadMove, why));
    }
    if system == System::Knockout {
        return super::knockout::start(state, request, id).await;
    }
    let places = record.places();
    let pairings = system.pairings(&sizes);
    let mut starts = Vec::with_capacity(pairings.len());
    let mut games = Vec::with_capacity(pairings.len());
    // What each player reached by mail is told in one mail.
    let mut by_mail: BTreeMap<String, Vec<EventGame>> = BTreeMap::new();
    for p in &pairings {
        let game_id = event::game_id(id, p);
        let (white, black) = (places[p.white].clone(), places[p.black].clone());
        let detail = GameStartDetail {
            kind: event.game,
            white: white.clone(),
            black: black.clone(),
            event: Some(id.to_owned()),
            fen: None,
            rules: None,
            round: Some(p.round.to_string()),
            board: Some(p.board),
            leave: Default::default(),
            authority: Default::default(),
        };
        let (mut record, game) =
            crate::relay::handle::games::prepare_start(state, request, &game_id, detail)?;
        record.outbox.retain(|row| {
            state
                .people
                .players
                .get(&row.player)
                .is_none_or(|p| p.reach != Reach::Email)
        });
        for (player, side, opponent) in [
            (&white, Color::White, &black),
            (&black, Color::Black, &white),
        ] {
            if state
                .people
                .players
                .get(player)
                .is_some_and(|p| p.reach == Reach::Email)
            {
                by_mail.entry(player.clone()).or_default().push(EventGame {
                    game: game_id.clone(),
                    side: side.into(),
                    opponent: opponent.clone(),
                    round: p.round,
                    board: p.board,
                });
            }
        }
        starts.push(record);
        games.push((game_id, p.round, game));
    }
    let started = Meaning::EventStart(StartDetail {
        event: id.to_owned(),
        games: starts.len(),
    });
    let entry = state.recorder.request_entry(request, "", &started)?;
    let outbox = by_mail
        .into_iter()
        .map(|(player, games)| {
            let notice = Notice::EventStarted {
                event: id.to_owned(),
                name: event.name.clone(),
                games,
            };
            NewOutbox::notice(&player, notice)
        })
        .collect();
    let mut records = vec![Record { entry, outbox }];
    records.extend(starts);
    let committed = state.enqueue(records).await?;
    let rounds = games.iter().map(|(_, r, _)| *r).max().unwrap_or(0);
    let mut lines = vec![format!(
        "event {id} started: {} game(s) in {rounds} round(s)",
        games.len()
    )];
    for (game_id, round, game) in games {
        lines.push(format!(
            "round {round}: {game_id} {} - {}",
            game.white, game.black
        ));
        state.games.by_id.insert(game_id.clone(), Box::new(game));
        state.note_start(&game_id, Some(id.to_owned()), Some(round.to_string()));
    }
    if let Some(record) = state.people.registry.events.get_mut(id) {
        record.started = true;
    }
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, lines.join("\n")),
    ))
}

async fn withdraw(
    state: &mut State,
    request: &Request,
    id: &str,
    player: &str,
    reason: &str,
) -> Result<Pending, Reply> {
    let record = registered(state, id)?;
    if !record.has(player) || record.has_withdrawn(player) {
        return Err(refused(
            Status::NotFound,
            format!("{player} is not entered in {id}"),
        ));
    }
    let started = record.started;
    let detail = WithdrawDetail {
        event: id.to_owned(),
        player: player.to_owned(),
        reason: reason.to_owned(),
    };
    // The player's unfinished games in the event, each lost.
    let mut afters = Vec::new();
    let mut records = Vec::new();
    let mut told = vec![player.to_owned()];
    if started {
        let mut ids: Vec<&String> = state
            .games
            .notes
            .iter()
            .filter(|(_, f)| f.event.as_deref() == Some(id))
            .map(|(g, _)| g)
            .collect();
        ids.sort();
        for game_id in ids {
            let Some(game) = state.games.by_id.get(game_id) else {
                continue;
            };
            let Some(color) = game.side_of(player) else {
                continue;
            };
            if game.result().is_some() {
                continue;
            }
            let mut lost = GameResult::new(Some(!color), EndReason::Withdrawal);
            lost.note = Some(reason.to_owned());
            let action = Action::Adjudicate(lost.clone());
            game.check(game.turn(), &action, state.recorder.now)
                .map_err(|e| refused(Status::Refused, format!("{game_id}: {e}")))?;
            let mut after = crate::game::Game::clone(game);
            after.apply_by(game.turn(), &action, state.recorder.now);
            let adjudicated = Meaning::Adjudication(AdjudicationDetail {
                result: lost.pgn().to_owned(),
                reason: reason.to_owned(),
                withdrawal: true,
            });
            let entry = state
                .recorder
                .request_entry(request, game_id, &adjudicated)?;
            records.push(Record {
                entry,
                outbox: Vec::new(),
            });
            let opponent = game.player(!color).to_owned();
            if !told.contains(&opponent) {
                told.push(opponent);
            }
            afters.push(after);
        }
    }
    let notice = Notice::Withdrawn {
        event: id.to_owned(),
        player: player.to_owned(),
        reason: reason.to_owned(),
    };
    let entry = state
        .recorder
        .request_entry(request, "", &Meaning::EventWithdraw(detail))?;
    let outbox = told
        .iter()
        .map(|p| NewOutbox::notice(p, notice.clone()))
        .collect();
    records.insert(0, Record { entry, outbox });
    let lost = afters.len();
    let reply = if started {
        format!("{player} withdrawn from {id}: {lost} unfinished game(s) lost")
    } else {
        format!("{player} withdrawn from {id} before its start: no longer entered")
    };
    let pending = state.commit_many(request, afters, records, reply).await;
    if let Pending::AfterCommit(..) = &pending
        && let Some(record) = state.people.registry.events.get_mut(id)
    {
        let _ = record.withdraw(player, reason);
    }
    Ok(pending)
}
