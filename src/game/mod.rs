//! One game: the position and its history, whose turn it is, draw offers and claims,
//! resignation, the correspondence clock and leave, conditional moves, and the result. Pure
//! code: the time is passed in, nothing is stored or sent. The relay asks a [`Game`] whether an
//! action is allowed ([`Game::check_move`], [`Game::check`] and friends, which change nothing),
//! journals it, and only then applies it ([`Game::apply_by`]), so a refused or unrecorded
//! action never changes a game.
//!
//! ```
//! use ccrelay::game::{Game, Action};
//! use jiff::Timestamp;
//! use shakmaty::Color;
//!
//! let mut game = Game::new("g1", "alice", "boris", None).unwrap();
//! let m = game.check_move(Color::White, "5254", None, None).unwrap().ply;
//! game.apply(&Action::Move { m, draw_offer: false }, Timestamp::UNIX_EPOCH);
//! assert_eq!(game.turn(), Color::Black);
//! assert!(game.check_move(Color::White, "d4", None, None).is_err()); // not White's turn
//! ```

mod action;
mod authority;
mod board;
mod boards;
mod check;
mod chess;
pub mod clock;
mod conditional;
pub mod days_hours;
mod diagram;
mod draughts;
mod saved;

pub use action::{
    Action, Claim, ClaimRefusal, ColorName, Due, EndReason, GameResult, LineRefusal, Refusal,
};
pub use authority::Authority;
pub use board::{Board, Figure, FileRank, Kind, MoveError, PieceOn, Ply, ReadPly};
pub use boards::{board, codes, replay};
pub use chess::ChessBoard;
pub use conditional::MAX_CONDITIONAL;
pub use diagram::diagram;
pub use draughts::DraughtsBoard;
pub use saved::SavedGame;

use jiff::Timestamp;
use shakmaty::Color;

use self::clock::{Overdue, Rules, SideTime, Timeline};

use crate::notation::LangSet;

/// A game between two players.
#[derive(Debug)]
pub struct Game {
    pub id: String,
    pub white: String,
    pub black: String,
    /// Shared by every game from the usual position (see [`boards::shared_start`]).
    start: std::sync::Arc<dyn Board>,
    start_fen: Option<String>,
    pos: Box<dyn Board>,
    moves: Vec<Ply>,
    /// The side whose draw offer stands.
    draw_offer: Option<Color>,
    result: Option<GameResult>,
    rules: Rules,
    timeline: Timeline,
    /// Reminders sent to the side to move on its current move.
    reminders_sent: usize,
    /// The side to move was flagged for the arbiter on its current move.
    flagged: bool,
    /// Stopped for the arbiter, and why (two records of the game disagree): nothing but the
    /// arbiter's decision is taken, and no clock is due, until the arbiter decides.
    stopped: Option<String>,
    /// Each side's conditional line (White, Black).
    conditional: [Vec<Ply>; 2],
    /// When the game ended other than by a move (resignation, time, agreement, the arbiter).
    ended: Option<Timestamp>,
    /// Each side's (White, Black) languages: those whose piece letters read every move the
    /// side's player sent in this game as the move it was. A player without a language of
    /// their own is read in these, so their game's language settles as it goes on.
    langs: [LangSet; 2],
}

/// The colour `player` plays in a game between `white` and `black`, if they play in it.
pub fn side_of(white: &str, black: &str, player: &str) -> Option<Color> {
    if white == player {
        Some(Color::White)
    } else if black == player {
        Some(Color::Black)
    } else {
        None
    }
}

/// The relay applies most actions to a copy of a game (a move a player sends is played on the
/// game itself), and some of them play a move on it (a claim with its move, a move replicated
/// from another node): each history is copied with room for that move, so playing it does not
/// grow (reallocate and copy) the copy again.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            id: self.id.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            start: self.start.clone(),
            start_fen: self.start_fen.clone(),
            pos: self.pos.clone(),
            moves: with_room_for_one(&self.moves),
            draw_offer: self.draw_offer,
            result: self.result.clone(),
            rules: self.rules.clone(),
            timeline: self.timeline.clone(),
            reminders_sent: self.reminders_sent,
            flagged: self.flagged,
            stopped: self.stopped.clone(),
            conditional: self.conditional.clone(),
            ended: self.ended,
            langs: self.langs,
        }
    }
}

/// A copy of `items` with room for one more.
fn with_room_for_one<T: Clone>(items: &[T]) -> Vec<T> {
    let mut copy = Vec::with_capacity(items.len() + 1);
    copy.extend_from_slice(items);
    copy
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Game {
    /// A new game of chess from the initial position, or from `fen`.
    pub fn new(id: &str, white: &str, black: &str, fen: Option<&str>) -> Result<Game, String> {
        Game::of_kind(Kind::Chess, id, white, black, fen)
    }

    /// A new game of `kind` from its initial position, or from `fen`.
    pub fn of_kind(
        kind: Kind,
        id: &str,
        white: &str,
        black: &str,
        fen: Option<&str>,
    ) -> Result<Game, String> {
        let start = boards::shared_start(kind, fen)?;
        let first = start.turn();
        Ok(Game {
            id: id.to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            pos: start.boxed(),
            start,
            start_fen: fen.map(str::to_owned),
            moves: Vec::new(),
            draw_offer: None,
            result: None,
            rules: Rules::unlimited(),
            timeline: Timeline::new(Timestamp::UNIX_EPOCH, first),
            reminders_sent: 0,
            flagged: false,
            stopped: None,
            conditional: [Vec::new(), Vec::new()],
            ended: None,
            langs: [LangSet::ALL; 2],
        })
    }

    /// The game under `rules`, started (its first side's clock running) at `started`.
    pub fn with_rules(mut self, rules: Rules, started: Timestamp) -> Game {
        self.rules = rules;
        self.timeline.restart(started);
        self
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// `color`'s time at `now`. Once the game is over, the side that was to move is counted
    /// up to when it ended (a loss on time shows the time that was overstepped).
    pub fn side_time(&self, color: Color, now: Timestamp) -> SideTime {
        let to_move = self.turn() == color;
        match (&self.result, self.ended) {
            (None, _) => self
                .timeline
                .side_time_under(&self.rules, color, now, to_move),
            (Some(_), Some(ended)) if to_move => {
                let mut time = self
                    .timeline
                    .side_time_under(&self.rules, color, ended, true);
                time.running = false;
                time.out_at = None;
                time
            }
            (Some(_), _) => self
                .timeline
                .side_time_under(&self.rules, color, now, false),
        }
    }

    /// When the game ended other than by a move (resignation, time, agreement, the arbiter):
    /// a loss on time at the instant it was recorded.
    pub fn ended(&self) -> Option<Timestamp> {
        self.ended
    }

    /// Whether the side to move was flagged for the arbiter on this move.
    pub fn flagged(&self) -> bool {
        self.flagged
    }

    /// Why the game is stopped for the arbiter, if it is ([`Action::Stop`]).
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// `color`'s conditional line still pending.
    pub fn conditional(&self, color: Color) -> &[Ply] {
        &self.conditional[side_index(color)]
    }

    /// The move the side to move plays at once from its conditional line, if the opponent's
    /// last move was the one it expected.
    pub fn conditional_reply(&self) -> Option<Ply> {
        if self.result.is_some() {
            return None;
        }
        self.conditional[side_index(self.turn())]
            .first()
            .filter(|m| self.pos.is_legal(m))
            .cloned()
    }

    /// What the clock requires at `now`: the side to move out of time or silent too long
    /// (unless already flagged on this move), or a reminder due (not while it is on leave).
    pub fn due(&self, now: Timestamp) -> Option<Due> {
        if self.result.is_some() || self.stopped.is_some() {
            return None;
        }
        let color = self.turn();
        // Counted time does not grow on leave, but an overstep from before it still counts.
        let silence = self.timeline.used_on_move(color, now);
        if !self.flagged {
            if self.side_time(color, now).out {
                return Some(Due::TimeUp {
                    color,
                    overdue: Overdue::TimeControl,
                });
            }
            if let Some(days) = self.rules.silence_days
                && silence > i64::from(days) * clock::DAY
                && !self.timeline.long_reflection_now()
            {
                return Some(Due::TimeUp {
                    color,
                    overdue: Overdue::Silence,
                });
            }
        }
        if self.timeline.on_leave(color, now) {
            return None;
        }
        let (mut reached, mut latest) = (0, 0);
        for days in self.rules.reminder_schedule() {
            if silence >= i64::from(days) * clock::DAY {
                reached += 1;
                latest = latest.max(days);
            }
        }
        (reached > self.reminders_sent).then_some(Due::Remind {
            color,
            days: latest,
        })
    }

    /// The colour `player` plays, if they play in this game.
    pub fn side_of(&self, player: &str) -> Option<Color> {
        side_of(&self.white, &self.black, player)
    }

    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn kind(&self) -> Kind {
        self.pos.kind()
    }

    /// The position now.
    pub fn board(&self) -> &dyn Board {
        self.pos.as_ref()
    }

    /// The position the game started from.
    pub fn start(&self) -> &dyn Board {
        self.start.as_ref()
    }

    pub fn start_fen(&self) -> Option<&str> {
        self.start_fen.as_deref()
    }

    pub fn moves(&self) -> &[Ply] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The number of the move to be made now.
    pub fn move_number(&self) -> u32 {
        self.pos.move_number()
    }

    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Applies an action already checked (and journaled), done at `at`. `color` is who acts:
    /// for a move, the side to move; for the clock's actions, the side whose clock it is.
    pub fn apply_by(&mut self, color: Color, action: &Action, at: Timestamp) {
        let was_over = self.result.is_some();
        self.apply_action(color, action, at);
        let by_move = matches!(
            action,
            Action::Move { .. } | Action::Claim { m: Some(_), .. }
        );
        if !was_over && self.result.is_some() && !by_move {
            self.ended = Some(at);
        }
    }

    fn apply_action(&mut self, color: Color, action: &Action, at: Timestamp) {
        match action {
            Action::Move { m, draw_offer } => {
                self.play(m, at);
                // A move answers a standing offer by the opponent (declines it).
                self.draw_offer = draw_offer.then_some(color);
                if *draw_offer {
                    // The opponent decides on the offer itself: no automatic answer.
                    self.conditional[side_index(!color)].clear();
                }
                self.result = self.pos.outcome();
            }
            Action::OfferDraw => self.draw_offer = Some(color),
            Action::DeclineDraw => self.draw_offer = None,
            Action::AcceptDraw => {
                self.draw_offer = None;
                self.result = Some(GameResult::new(None, EndReason::Agreement));
            }
            Action::Resign => {
                self.result = Some(GameResult::new(Some(!color), EndReason::Resignation));
            }
            Action::Claim { claim, m } => {
                if let Some(m) = m {
                    self.play(m, at);
                    self.draw_offer = None;
                }
                self.result = self.pos.outcome().or(Some(GameResult::new(
                    None,
                    match claim {
                        Claim::Repetition => EndReason::Repetition,
                        Claim::FiftyMoves => EndReason::FiftyMoves,
                    },
                )));
            }
            Action::Leave(leave) => self.timeline.add_leave(color, *leave),
            Action::Refill { days } => self
                .timeline
                .add_refill(color, clock::Refill { at, days: *days }),
            Action::LongReflection => self.timeline.add_long_reflection(color),
            Action::Conditional(line) => self.conditional[side_index(color)] = line.clone(),
            Action::TimeUp { overdue, forfeit } => {
                if *forfeit {
                    let reason = match overdue {
                        Overdue::TimeControl => EndReason::TimeForfeit,
                        Overdue::Silence => EndReason::Silence,
                    };
                    self.result = Some(GameResult::new(Some(!color), reason));
                } else {
                    self.flagged = true;
                }
            }
            Action::Remind { days } => {
                self.reminders_sent = self
                    .rules
                    .reminder_schedule()
                    .filter(|d| *d <= *days)
                    .count();
            }
            Action::Adjudicate(result) => self.result = Some(result.clone()),
            Action::Stop(why) => self.stopped = Some(why.clone()),
        }
    }

    /// Applies an action by the side to move.
    pub fn apply(&mut self, action: &Action, at: Timestamp) {
        let color = self.turn();
        self.apply_by(color, action, at);
    }

    /// Plays `m` at `at`: the position, the record, the clocks, the conditional
    /// lines (a move on a line advances it; any other move cancels it).
    fn play(&mut self, m: &Ply, at: Timestamp) {
        self.pos.play(m);
        self.moves.push(m.clone());
        self.timeline.push_move(at);
        self.reminders_sent = 0;
        self.flagged = false;
        for line in &mut self.conditional {
            if line.first() == Some(m) {
                line.remove(0);
            } else {
                line.clear();
            }
        }
    }

    /// A text diagram of the position, White at the bottom, with files and ranks.
    pub fn diagram(&self) -> String {
        self.pos.diagram()
    }
}

#[cfg(test)]
mod tests;
