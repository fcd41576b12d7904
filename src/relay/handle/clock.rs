//! Time: the clock's consequences (loss on time, flags, reminders), a player's own acts on
//! their clock (a Triple Block refill from the bank, `BANK`; a long reflection declared
//! ahead, `SILENCE g1 LONG`), and the admin's manual clock.

use shakmaty::Color;

use crate::command::ClockSetting;
use crate::game::clock::OnTimeout;
use crate::game::{Action, Due, Game};
use crate::journal::entry::Meaning;
use crate::journal::notice::{ClockAct, Clocks, Notice};
use crate::journal::replay::TimeUpDetail;
use crate::journal::{NewOutbox, Record};
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::recorder::Clock;
use crate::relay::render;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::{Request, Sender};
use crate::relay::said::Said;
use crate::relay::state::State;

/// Applies what the clock requires of one game now: a loss on time or a flag for the
/// arbiter, and reminders. Journaled like any action, by the channel `clock`.
pub(in crate::relay) async fn settle(state: &mut State, game_id: &str) {
    for _ in 0..4 {
        let Some(game) = state.games.by_id.get(game_id) else {
            return;
        };
        let Some(due) = game.due(state.recorder.now) else {
            return;
        };
        let due_color = match &due {
            Due::TimeUp { color, .. } | Due::Remind { color, .. } => *color,
        };
        // In a game played across a link, the node that keeps the record times both
        // players (its time-outs come to the other node in its record), and each node
        // reminds its own player.
        let remote = state.role(game_id).map(|role| match role {
            LinkRole::Keeper { remote } => (false, remote),
            LinkRole::Replica { remote } => (true, remote),
        });
        if let Some((replica, remote)) = remote {
            let skip = match &due {
                Due::TimeUp { .. } => replica,
                Due::Remind { .. } => game.player(due_color) == remote,
            };
            if skip {
                return;
            }
        }
        let (color, action, meaning, text) = match due {
            Due::TimeUp { color, overdue } => {
                let forfeit = game.rules().on_timeout == OnTimeout::Forfeit;
                (
                    color,
                    Action::TimeUp { overdue, forfeit },
                    Meaning::TimeUp(TimeUpDetail { overdue, forfeit }),
                    overdue.to_string(),
                )
            }
            Due::Remind { color, days } => (
                color,
                Action::Remind { days },
                Meaning::Reminder { days },
                format!("reminder after {days} days"),
            ),
        };
        let player = game.player(color).to_owned();
        let opponent = game.player(!color).to_owned();
        let side = color.into();
        let mut after = Game::clone(game);
        after.apply_by(color, &action, state.recorder.now);
        let clocks = Clocks::of(&after, state.recorder.now);
        let game = game_id.to_owned();
        let outbox = match &action {
            Action::TimeUp { overdue, forfeit } => {
                let notice = Notice::TimeUp {
                    game,
                    player: player.clone(),
                    side,
                    overdue: *overdue,
                    forfeit: *forfeit,
                    clocks,
                };
                // A flag is for the arbiter too.
                let admin = (!*forfeit).then_some("admin");
                [player.as_str(), opponent.as_str()]
                    .into_iter()
                    .chain(admin)
                    .map(|p| NewOutbox::notice(p, notice.clone()))
                    .collect()
            }
            Action::Remind { days } => vec![NewOutbox::notice(
                &player,
                Notice::Reminder {
                    game,
                    days: *days,
                    clocks,
                },
            )],
            _ => Vec::new(),
        };
        let entry = match state
            .recorder
            .entry(game_id, &player, Channel::Clock, &meaning, &text)
        {
            Ok(entry) => entry,
            Err(reply) => {
                tracing::error!(game = game_id, error = %reply.text, "clock's entry not recorded");
                return;
            }
        };
        let by = Sender {
            player: player.clone(),
            admin: false,
            channel: Channel::Clock,
        };
        tracing::info!(game = game_id, player, what = text, "clock");
        // Queued in order before anything that follows; its commit is awaited by them.
        let _ = state
            .commit(&by, after, vec![Record { entry, outbox }], String::new())
            .await;
    }
}

/// Checks every game's clock.
pub(in crate::relay) async fn tick(state: &mut State) {
    state.recorder.catch_up();
    let mut ids: Vec<String> = state
        .games
        .by_id
        .iter()
        .filter(|(_, g)| g.result().is_none())
        .map(|(id, _)| id.clone())
        .collect();
    ids.sort();
    for id in ids {
        settle(state, &id).await;
    }
    // The players' daily digests, after the games the clock changed.
    super::notify::digests(state).await;
}

pub(in crate::relay) async fn set_clock(
    state: &mut State,
    request: &Request,
    set: Option<ClockSetting>,
) -> Pending {
    if !request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "only the admin sets the clock",
        ));
    }
    let Clock::Manual(current) = state.recorder.clock else {
        if set.is_none() {
            return Pending::Now(Reply::new(
                Status::Done,
                format!("clock {} (system)", state.recorder.now),
            ));
        }
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "the clock is the system clock; only [clock] mode = \"manual\" can be set",
        ));
    };
    let Some(set) = set else {
        return Pending::Now(Reply::new(
            Status::Done,
            format!("clock {current} (manual)"),
        ));
    };
    let target = match set {
        ClockSetting::At(at) => at,
        ClockSetting::Advance(by) => match current.checked_add(by) {
            Ok(t) => t,
            Err(e) => return Pending::Now(Reply::new(Status::BadCommand, e.to_string())),
        },
    };
    if target < current {
        return Pending::Now(Reply::new(
            Status::Refused,
            format!("the clock never goes back: it is {current}"),
        ));
    }
    state.recorder.clock = Clock::Manual(target);
    state.recorder.catch_up();
    // Journaled at the clock's new time: a restart starts the manual clock no earlier
    // than the record's last entry, so the clock never goes back.
    let entry = match state
        .recorder
        .request_entry(request, "", &Meaning::ClockSet { at: target })
    {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let record = Record {
        entry,
        outbox: Vec::new(),
    };
    if let Err(refused) = state.enqueue(vec![record]).await {
        return Pending::Now(refused);
    }
    tick(state).await;
    state
        .after_commit(Reply::new(
            Status::Done,
            format!("clock {}", state.recorder.now),
        ))
        .await
}

/// `BANK g1 10`: days from the sender's Triple Block bank to their clock, while it is their
/// move (refused, journaled as refused, with [`crate::game::clock::Timeline::check_refill`]'s
/// reason otherwise); the opponent is told.
pub(in crate::relay) async fn bank(
    state: &mut State,
    request: &Request,
    game_id: &str,
    days: u32,
) -> Pending {
    own_clock(state, request, game_id, Action::Refill { days }).await
}

/// `SILENCE g1 LONG`: the sender declares ahead a reflection longer than the silence limit on
/// their current or next move; the opponent and the arbiter are told.
pub(in crate::relay) async fn long_reflection(
    state: &mut State,
    request: &Request,
    game_id: &str,
) -> Pending {
    own_clock(state, request, game_id, Action::LongReflection).await
}

/// What the opponent (and, for a long reflection, the arbiter) is told of `color`'s act on
/// its own clock in `game` (as it stands after it, at `now`), on this node or on the other
/// node of a link, where the record brings it. `None` for any other action.
pub(in crate::relay) fn own_clock_notice(
    game_id: &str,
    game: &Game,
    color: Color,
    action: &Action,
    now: jiff::Timestamp,
) -> Option<Notice> {
    let act = match action {
        Action::Refill { days } => ClockAct::Refill { days: *days },
        Action::LongReflection => ClockAct::LongReflection {
            number: declared_move(game, color),
        },
        _ => return None,
    };
    Some(Notice::OwnClock {
        game: game_id.to_owned(),
        by: game.player(color).to_owned(),
        side: color.into(),
        act,
        clocks: Clocks::of(game, now),
    })
}

/// The number of the move a long reflection `color` declared covers in `game` (as it stands
/// after the declaration): the move it is making, or its next one.
fn declared_move(game: &Game, color: Color) -> u32 {
    let now = game.move_number();
    if game.turn() == color || color == Color::Black {
        now
    } else {
        now.saturating_add(1)
    }
}

/// A player's act on their own clock in one game: checked by the game, journaled, the opponent
/// told (and the arbiter, for a long reflection, as for a flag).
async fn own_clock(state: &mut State, request: &Request, game_id: &str, action: Action) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let game = &state.games.by_id[game_id];
    if let Err(refusal) = game.check(color, &action, state.recorder.now) {
        return state.refuse(request, game_id, refusal.into()).await;
    }
    let meaning = match action {
        Action::Refill { days } => Meaning::Refill { days },
        _ => Meaning::LongReflection,
    };
    let mut after = Game::clone(game);
    after.apply_by(color, &action, state.recorder.now);
    let Some(notice) = own_clock_notice(game_id, &after, color, &action, state.recorder.now) else {
        return Pending::Now(Reply::new(Status::Refused, "not an act on a clock"));
    };
    let opponent = after.player(!color).to_owned();
    let arbiter = matches!(action, Action::LongReflection).then_some("admin");
    let outbox = std::iter::once(opponent.as_str())
        .chain(arbiter)
        .map(|reader| NewOutbox::notice(reader, notice.clone()))
        .collect();
    let entry = match state.recorder.request_entry(request, game_id, &meaning) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let (mut reply, said) = match action {
        Action::Refill { days } => (
            format!("bank {game_id}: {days} day(s) moved to the clock"),
            Said::Refilled { days },
        ),
        _ => {
            let number = declared_move(&after, color);
            (
                format!(
                    "silence {game_id}: a long reflection declared for your move {number}; the silence limit does not end the game on it, the time control still does"
                ),
                Said::ReflectionDeclared { number },
            )
        }
    };
    if let Some(clocks) = Clocks::of(&after, state.recorder.now) {
        reply.push_str("; ");
        render::push_clocks(&mut reply, &clocks);
    }
    let records = vec![Record { entry, outbox }];
    state
        .commit(request, after, records, reply)
        .await
        .saying(said)
}
