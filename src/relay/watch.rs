//! The games as spectators (and the arbiter) see them on the web pages. The event's viewing
//! rule (`config::Viewing`) is applied here, in the relay, so that a hidden move, clock or
//! private game never leaves it: a front end gets only what it may show.
//!
//! - public: everything, live;
//! - delay N: a game in progress without its last N plies; its clocks and draw offer, which
//!   would tell of the hidden moves, are withheld; a finished game whole;
//! - finished: only finished games;
//! - private: nothing (the game does not exist for a spectator).
//!
//! Games outside any event are public. The arbiter (`full`) sees every game whole.

use jiff::Timestamp;
use shakmaty::Color;

use crate::config::Viewing;
use crate::event::standings::{Played, Row, standings};
use crate::game::clock::TimeControl;
use crate::game::{Kind, Ply};
use crate::journal::notice::Clocks;
use crate::relay::pending::Pending;
use crate::relay::reply::{Reply, Status};
use crate::relay::state::State;
use crate::relay::view::Standing;

/// One game as a spectator may see it.
#[derive(Clone, Debug)]
pub struct Watched {
    pub id: String,
    pub kind: Kind,
    /// The players' names (their ids when the configuration gives none).
    pub white: String,
    pub black: String,
    /// The players' ids, for the crosstable.
    pub white_id: String,
    pub black_id: String,
    /// The event's id, name and site.
    pub event: Option<String>,
    pub event_name: Option<String>,
    pub site: Option<String>,
    pub round: Option<String>,
    pub started: Option<Timestamp>,
    /// The viewing rule the game is shown under (public for a game outside any event).
    pub view: Viewing,
    /// The position the game started from, when not the usual one.
    pub start_fen: Option<String>,
    /// The moves shown, when one game was request for (empty in a list of games).
    pub moves: Vec<Ply>,
    /// How many plies are shown.
    pub plies: usize,
    /// Some plies are withheld (the delay rule).
    pub delayed: bool,
    /// When the last move shown was made.
    pub last_move_at: Option<Timestamp>,
    /// Who moves in the position shown.
    pub to_move: Color,
    pub standing: Standing,
    /// The side whose draw offer stands (withheld under a delay).
    pub draw_offer: Option<Color>,
    /// Seconds each side has left to its next time control (withheld under a delay).
    pub time_left: [Option<i64>; 2],
    /// Both clocks as the engine counts them (withheld under a delay, as `time_left`).
    pub clocks: Option<Clocks>,
    pub on_leave: [bool; 2],
    pub time_control: TimeControl,
    /// Why the game is stopped for the arbiter, if it is (two records of it disagree).
    pub stopped: Option<String>,
}

impl Watched {
    /// What changes when something shown changes: a live page compares it to know whether
    /// to tell its browser.
    pub fn fingerprint(&self) -> String {
        format!(
            "{}:{}:{:?}:{:?}:{:?}",
            self.id, self.plies, self.standing, self.draw_offer, self.on_leave
        )
    }
}

/// An event's crosstable from the games a spectator may see of it.
pub fn crosstable(games: &[Watched]) -> Vec<Row> {
    let played: Vec<Played> = games
        .iter()
        .map(|g| Played {
            white: g.white_id.clone(),
            black: g.black_id.clone(),
            result: match &g.standing {
                Standing::Over { winner, .. } => Some(*winner),
                _ => None,
            },
            forfeit: matches!(
                &g.standing,
                Standing::Over {
                    reason: crate::game::EndReason::Withdrawal,
                    ..
                }
            ),
        })
        .collect();
    standings(&played)
}

/// The games shown (one, or all sorted by id), once what they show is on disk.
pub(in crate::relay) async fn watch(
    state: &mut State,
    game: Option<&str>,
    full: bool,
) -> (Pending, Vec<Watched>) {
    state.recorder.catch_up();
    let shown: Vec<Watched> = match game {
        Some(id) => watched(state, id, full, true).into_iter().collect(),
        None => {
            let mut ids: Vec<&String> = state.games.by_id.keys().collect();
            ids.sort();
            ids.iter()
                .filter_map(|id| watched(state, id, full, false))
                .collect()
        }
    };
    (
        state.after_commit(Reply::new(Status::Done, "")).await,
        shown,
    )
}

fn watched(state: &State, id: &str, full: bool, with_moves: bool) -> Option<Watched> {
    let game = state.games.by_id.get(id)?;
    let facts = state.games.notes.get(id).cloned().unwrap_or_default();
    let event = facts
        .event
        .as_ref()
        .and_then(|e| state.people.events.get(e));
    let view = event.map(|e| e.view).unwrap_or_default();
    let over = game.result().is_some();
    if !full && !state.spectators_see(id) {
        return None;
    }
    let hide = match (full, view) {
        (false, Viewing::Delay(n)) if !over => n as usize,
        _ => 0,
    };
    let all = game.moves();
    let plies = all.len().saturating_sub(hide);
    let delayed = plies < all.len();
    let standing = Standing::of(game, !delayed);
    let first = game.start().turn();
    let to_move = if plies % 2 == 0 { first } else { !first };
    let side = |c: Color| game.side_time(c, state.recorder.now);
    let withheld = delayed;
    Some(Watched {
        id: id.to_owned(),
        kind: game.kind(),
        white: state.people.player_name(&game.white),
        black: state.people.player_name(&game.black),
        white_id: game.white.clone(),
        black_id: game.black.clone(),
        event: facts.event.clone(),
        event_name: event.map(|e| e.name.clone()).or(facts.event.clone()),
        site: event.map(|e| e.site.clone()).filter(|s| !s.is_empty()),
        round: facts.round.clone(),
        started: facts.started,
        view,
        start_fen: game.start_fen().map(str::to_owned),
        moves: if with_moves {
            all[..plies].to_vec()
        } else {
            Vec::new()
        },
        plies,
        delayed,
        last_move_at: plies
            .checked_sub(1)
            .and_then(|i| game.timeline().moves().get(i).copied()),
        to_move,
        standing,
        draw_offer: if withheld { None } else { game.draw_offer() },
        time_left: if withheld {
            [None, None]
        } else {
            [side(Color::White).left, side(Color::Black).left]
        },
        clocks: if withheld {
            None
        } else {
            Clocks::of(game, state.recorder.now)
        },
        on_leave: [side(Color::White).on_leave, side(Color::Black).on_leave],
        time_control: game.rules().time_control,
        stopped: game.stopped().map(str::to_owned),
    })
}
