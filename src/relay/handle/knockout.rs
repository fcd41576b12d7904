//! A knock-out event while the relay runs: its first games at `EVENT START`, and after every
//! command and every check of the clocks the games and lots that have come due
//! ([`crate::event::knockout::Bracket::due`]): the next pair of a level match, the next
//! round's match once both matches feeding it are decided, a lot for a match level after both
//! pairs. Each is journaled (`game_start` entries, an `event_lot` entry with its seed) before
//! it is in memory, on the channel `bracket` in the arbiter's name, so a restart rebuilds the
//! bracket from the record and carries on where it stopped, and nothing is started twice: a
//! game due is one whose id the relay does not hold.

use std::collections::BTreeMap;

use shakmaty::Color;

use crate::command::{Command, EventAction};
use crate::config::Reach;
use crate::event::System;
use crate::event::knockout::{self, Bracket, GameSlot};
use crate::event::standings::Played;
use crate::game::{EndReason, Game};
use crate::journal::entry::{LotDetail, Meaning};
use crate::journal::notice::{EventGame, Notice};
use crate::journal::registry::StartDetail;
use crate::journal::replay::GameStartDetail;
use crate::journal::{NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::{Request, Sender};
use crate::relay::state::State;

/// The bracket of knock-out `id` as the relay holds it now, or `None` if `id` is no
/// knock-out made here (or has too few or too many entrants to make one).
pub(in crate::relay) fn bracket_of(state: &State, id: &str) -> Option<Bracket> {
    let record = state.people.registry.events.get(id)?;
    if record.event.system != Some(System::Knockout) {
        return None;
    }
    let games: BTreeMap<String, Played> = state
        .games
        .notes
        .iter()
        .filter(|(_, notes)| notes.event.as_deref() == Some(id))
        .filter_map(|(game_id, _)| {
            let game = state.games.by_id.get(game_id)?;
            let result = game.result();
            Some((
                game_id.clone(),
                Played {
                    white: game.white.clone(),
                    black: game.black.clone(),
                    result: result.map(|r| r.winner),
                    forfeit: result.is_some_and(|r| r.reason == EndReason::Withdrawal),
                },
            ))
        })
        .collect();
    knockout::bracket(
        id,
        &record.entrants,
        &games,
        &record.lot_winners(),
        &record.withdrawn_players(),
    )
}

/// The games started, with the records that start them and each player by mail's list.
struct Starts {
    records: Vec<Record>,
    games: Vec<(String, u32, Game)>,
    by_mail: BTreeMap<String, Vec<EventGame>>,
}

/// The records starting `due` (each with its round and match) in event `id`.
fn starts(
    state: &State,
    request: &Request,
    id: &str,
    due: &[(u32, u32, GameSlot)],
) -> Result<Starts, Reply> {
    let Some(event) = state.people.events.get(id) else {
        return Err(Reply::new(Status::NotFound, format!("no event {id:?}")));
    };
    let mut out = Starts {
        records: Vec::new(),
        games: Vec::new(),
        by_mail: BTreeMap::new(),
    };
    for (round, number, slot) in due {
        let detail = GameStartDetail {
            kind: event.game,
            white: slot.white.clone(),
            black: slot.black.clone(),
            event: Some(id.to_owned()),
            fen: None,
            rules: None,
            round: Some(round.to_string()),
            board: Some(*number),
            leave: Default::default(),
            authority: Default::default(),
        };
        let (mut record, game) =
            crate::relay::handle::games::prepare_start(state, request, &slot.id, detail)?;
        // A player by mail is told of their games in one mail, not a mail a game.
        let by_mail = |player: &str| {
            state
                .people
                .players
                .get(player)
                .is_some_and(|p| p.reach == Reach::Email)
        };
        record.outbox.retain(|row| !by_mail(&row.player));
        for (player, side, opponent) in [
            (&slot.white, Color::White, &slot.black),
            (&slot.black, Color::Black, &slot.white),
        ] {
            if by_mail(player) {
                out.by_mail
                    .entry(player.clone())
                    .or_default()
                    .push(EventGame {
                        game: slot.id.clone(),
                        side: side.into(),
                        opponent: opponent.clone(),
                        round: *round,
                        board: *number,
                    });
            }
        }
        out.records.push(record);
        out.games.push((slot.id.clone(), *round, game));
    }
    Ok(out)
}

/// The mails telling players by mail of their new games.
fn mails(state: &State, id: &str, by_mail: BTreeMap<String, Vec<EventGame>>) -> Vec<NewOutbox> {
    let name = state
        .people
        .events
        .get(id)
        .map_or_else(|| id.to_owned(), |e| e.name.clone());
    by_mail
        .into_iter()
        .map(|(player, games)| {
            let notice = Notice::EventStarted {
                event: id.to_owned(),
                name: name.clone(),
                games,
            };
            NewOutbox::notice(&player, notice)
        })
        .collect()
}

/// Puts the started games in memory, once their records are queued.
fn hold(state: &mut State, id: &str, games: Vec<(String, u32, Game)>) -> Vec<String> {
    let mut ids = Vec::with_capacity(games.len());
    for (game_id, round, game) in games {
        state.games.by_id.insert(game_id.clone(), Box::new(game));
        state.note_start(&game_id, Some(id.to_owned()), Some(round.to_string()));
        ids.push(game_id);
    }
    ids
}

/// `EVENT START` of a knock-out: the event's start, then every game due at once (the first
/// round's matches, and a second round's match between two players whose byes sent them on).
pub(in crate::relay) async fn start(
    state: &mut State,
    request: &Request,
    id: &str,
) -> Result<Pending, Reply> {
    let Some(bracket) = bracket_of(state, id) else {
        return Err(Reply::new(
            Status::BadMove,
            format!("event {id} has no bracket"),
        ));
    };
    let due = bracket.due();
    let Starts {
        records: games_records,
        games,
        by_mail,
    } = starts(state, request, id, &due.games)?;
    let started = Meaning::EventStart(StartDetail {
        event: id.to_owned(),
        games: games.len(),
    });
    let entry = state.recorder.request_entry(request, "", &started)?;
    let mut records = vec![Record {
        entry,
        outbox: mails(state, id, by_mail),
    }];
    records.extend(games_records);
    let committed = state.enqueue(records).await?;
    let mut lines = vec![format!(
        "event {id} started: a bracket of {} places, {} round(s); {} game(s) now",
        bracket.size,
        bracket.rounds.len(),
        games.len()
    )];
    for (game_id, round, game) in &games {
        lines.push(format!(
            "round {round}: {game_id} {} - {}",
            game.white, game.black
        ));
    }
    hold(state, id, games);
    if let Some(record) = state.people.registry.events.get_mut(id) {
        record.started = true;
    }
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, lines.join("\n")),
    ))
}

/// Journals what has come due in every started knock-out (lots first, then the games they and
/// the results make due, until nothing more is), and puts it in memory; the ids of the games
/// started, for the pages that follow them. A failure to record is logged and tried again
/// after the next command or check of the clocks: nothing is in memory that is not queued.
pub(in crate::relay) async fn advance(state: &mut State) -> Vec<String> {
    let running: Vec<String> = state
        .people
        .registry
        .events
        .iter()
        .filter(|(_, r)| r.started && r.event.system == Some(System::Knockout))
        .map(|(id, _)| id.clone())
        .collect();
    let mut started = Vec::new();
    for id in running {
        // Each pass settles at least one match or starts its games; a bracket has at most
        // 63 matches, each with at most two pairs and a lot.
        for _ in 0..256 {
            let Some(bracket) = bracket_of(state, &id) else {
                break;
            };
            if bracket.finished() {
                break;
            }
            let due = bracket.due();
            let done = if !due.lots.is_empty() {
                draw_lots(state, &id, &due.lots).await
            } else if !due.games.is_empty() {
                match start_due(state, &id, &due.games).await {
                    Ok(ids) => {
                        started.extend(ids);
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            } else {
                break;
            };
            if let Err(reply) = done {
                tracing::error!(event = id, error = %reply.text, "knock-out's next step not recorded");
                break;
            }
        }
    }
    started
}

/// The arbiter's request in whose name the bracket's entries are made.
fn bracket_request(id: &str, what: &str) -> Request {
    let sender = Sender {
        player: "admin".to_owned(),
        admin: true,
        channel: Channel::Bracket,
    };
    let command = Command::Event {
        id: id.to_owned(),
        action: EventAction::Start,
    };
    Request::worded(sender, command, format!("bracket of {id}: {what}"))
}

async fn start_due(
    state: &mut State,
    id: &str,
    due: &[(u32, u32, GameSlot)],
) -> Result<Vec<String>, Reply> {
    let what = due
        .iter()
        .map(|(_, _, g)| g.id.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let request = bracket_request(id, &format!("due {what}"));
    let Starts {
        mut records,
        games,
        by_mail,
    } = starts(state, &request, id, due)?;
    if let Some(first) = records.first_mut() {
        first.outbox.extend(mails(state, id, by_mail));
    }
    state.enqueue(records).await?;
    tracing::info!(event = id, games = what, "knock-out's games started");
    Ok(hold(state, id, games))
}

async fn draw_lots(state: &mut State, id: &str, lots: &[knockout::LotDue]) -> Result<(), Reply> {
    let mut records = Vec::new();
    let mut details = Vec::new();
    for lot in lots {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| {
            Reply::new(
                Status::NotRecorded,
                format!("not recorded: no random source: {e}"),
            )
        })?;
        let detail = LotDetail {
            event: id.to_owned(),
            round: lot.round,
            number: lot.number,
            winner: knockout::lot_winner(&lot.players, &seed),
            players: lot.players.clone(),
            seed: hex::encode(seed),
        };
        let request = bracket_request(
            id,
            &format!(
                "round {} match {} level after both pairs: lot",
                lot.round, lot.number
            ),
        );
        let entry =
            state
                .recorder
                .request_entry(&request, "", &Meaning::EventLot(detail.clone()))?;
        // The players learn who goes on from the games that start next and `EVENT SHOW`.
        records.push(Record {
            entry,
            outbox: Vec::new(),
        });
        details.push(detail);
    }
    state.enqueue(records).await?;
    if let Some(record) = state.people.registry.events.get_mut(id) {
        for detail in details {
            record
                .apply_lot(detail)
                .map_err(|e| Reply::new(Status::NotRecorded, e))?;
        }
    }
    Ok(())
}

/// `EVENT SHOW`'s lines for a knock-out: the bracket.
pub(in crate::relay) fn shown(state: &State, id: &str) -> Vec<String> {
    bracket_of(state, id)
        .map(|b| knockout::text::lines(&b))
        .unwrap_or_default()
}
