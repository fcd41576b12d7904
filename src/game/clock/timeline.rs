//! A game's timeline: when each move was made, each side's leave, Triple Block's refills and
//! the long reflections declared; each side's time computed from it, through the one engine.

use std::fmt;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::*;

/// Why a side ran out of time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Overdue {
    /// Past the time control.
    TimeControl,
    /// Silent on one move longer than the silence limit.
    Silence,
}

impl fmt::Display for Overdue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Overdue::TimeControl => "time limit exceeded",
            Overdue::Silence => "silence limit exceeded",
        })
    }
}

/// One side's time, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideTime {
    /// Thinking time counted against the limit: all of it (moves in days, Fischer, Triple
    /// Block) or on the current move (days per move), leave excluded; in seconds.
    pub used: i64,
    /// What the control charged for `used`: the same seconds when counted exactly; whole
    /// days, with the days past the doubling limit twice, as ICCF counts.
    pub charged: i64,
    /// Thinking on the move the side is making now (0 when its clock is stopped)...
    pub move_used: i64,
    /// ...and what it is charged so far.
    pub move_charged: i64,
    /// Seconds left before the limit (negative when past it); `None` without a limit. For
    /// Fischer and Triple Block, the clock (Triple Block's without its bank).
    pub left: Option<i64>,
    /// Triple Block: the bank, in seconds.
    pub bank: Option<i64>,
    /// The side's own move count by which `left` must be spent (moves in days; the next
    /// move for Fischer and Triple Block).
    pub control_at: Option<u32>,
    /// Whether the side's clock is running now.
    pub running: bool,
    pub on_leave: bool,
    /// Whether the side is out of time: past its limit, or (Triple Block) its clock at zero.
    pub out: bool,
    /// While its clock runs, the instant the side is out of time if it does not move: the
    /// first at which `out` holds.
    pub out_at: Option<Timestamp>,
}

/// When each move was made, and each side's leave: what a game's clocks are computed from.
#[derive(Debug)]
pub struct Timeline {
    pub(super) started: Timestamp,
    /// Who moves first.
    pub(super) first: Color,
    /// The instant of every move, in order.
    pub(super) moves: Vec<Timestamp>,
    /// Each side's leave (White, Black), without overlaps.
    pub(super) leave: [Vec<Leave>; 2],
    /// Each side's thinking on the moves it has made, leave excluded (White, Black): what
    /// [`Timeline::used_total`] sums, kept as moves are made so that a side's clock is not
    /// a walk over the whole game on every move. Counted again whenever what it is made of
    /// changes other than by a move (the start, leave).
    pub(super) spent: [i64; 2],
    /// Each side's refills of its clock from a Triple Block bank (White, Black), in order.
    pub(super) refills: [Vec<Refill>; 2],
    /// The moves (0-based, both sides' counted, as [`Timeline::moves`] numbers them) for
    /// which their side declared ahead that it would think longer than the silence limit
    /// (ICCF's "Use 40+ reflection"), in order: the silence limit does not end the game on
    /// them.
    pub(super) long_reflection: Vec<usize>,
}

pub(super) fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clone for Timeline {
    /// With room for one more move: see [`Game`](crate::game::Game)'s copy.
    fn clone(&self) -> Timeline {
        Timeline {
            started: self.started,
            first: self.first,
            moves: crate::game::with_room_for_one(&self.moves),
            leave: self.leave.clone(),
            spent: self.spent,
            refills: self.refills.clone(),
            long_reflection: self.long_reflection.clone(),
        }
    }
}

impl Timeline {
    pub fn new(started: Timestamp, first: Color) -> Timeline {
        Timeline::of(started, first, Vec::new(), [Vec::new(), Vec::new()])
    }

    /// A timeline with these moves made and this leave taken (as a saved game holds them).
    pub fn of(
        started: Timestamp,
        first: Color,
        moves: Vec<Timestamp>,
        leave: [Vec<Leave>; 2],
    ) -> Timeline {
        let mut timeline = Timeline {
            started,
            first,
            moves,
            leave,
            spent: [0, 0],
            refills: [Vec::new(), Vec::new()],
            long_reflection: Vec::new(),
        };
        timeline.count_spent();
        timeline
    }

    pub fn started(&self) -> Timestamp {
        self.started
    }

    /// Who moves first.
    pub fn first(&self) -> Color {
        self.first
    }

    /// The instant of every move, in order.
    pub fn moves(&self) -> &[Timestamp] {
        &self.moves
    }

    /// Each side's leave (White, Black).
    pub fn leave(&self) -> &[Vec<Leave>; 2] {
        &self.leave
    }

    /// Each side's refills from a Triple Block bank (White, Black).
    pub fn refills(&self) -> &[Vec<Refill>; 2] {
        &self.refills
    }

    /// This timeline with these refills made (as a saved game holds them).
    pub fn with_refills(mut self, refills: [Vec<Refill>; 2]) -> Timeline {
        self.refills = refills;
        self
    }

    /// The moves (0-based) whose side declared a long reflection on them ahead.
    pub fn long_reflections(&self) -> &[usize] {
        &self.long_reflection
    }

    /// This timeline with these declarations of a long reflection (as a saved game holds
    /// them).
    pub fn with_long_reflections(mut self, plies: Vec<usize>) -> Timeline {
        self.long_reflection = plies;
        self
    }

    /// The move (0-based) a declaration of a long reflection by `color` now covers: the one
    /// it is making if it is to move, else its next one.
    pub fn next_move_of(&self, color: Color) -> usize {
        let ply = self.moves.len();
        if self.mover(ply) == color {
            ply
        } else {
            ply + 1
        }
    }

    /// Whether the move now being made (the side to move's) was declared a long reflection.
    pub fn long_reflection_now(&self) -> bool {
        self.long_reflection.contains(&self.moves.len())
    }

    /// Checks a long reflection `color` declares now: not declared already for that move.
    pub fn check_long_reflection(&self, color: Color) -> Result<(), ReflectionRefusal> {
        let ply = self.next_move_of(color);
        if self.long_reflection.contains(&ply) {
            return Err(ReflectionRefusal::Already {
                next: ply != self.moves.len(),
            });
        }
        Ok(())
    }

    /// A long reflection `color` declared (checked by [`Timeline::check_long_reflection`]).
    pub fn add_long_reflection(&mut self, color: Color) {
        let ply = self.next_move_of(color);
        if !self.long_reflection.contains(&ply) {
            self.long_reflection.push(ply);
        }
    }

    /// The clocks start at `started` instead (before any move is made).
    pub fn restart(&mut self, started: Timestamp) {
        self.started = started;
        self.count_spent();
    }

    /// A move made at `at`.
    pub fn push_move(&mut self, at: Timestamp) {
        let ply = self.moves.len();
        self.moves.push(at);
        self.spent[index(self.mover(ply))] += self.used_on_ply(ply);
    }

    /// [`Timeline::spent`] counted from every move.
    pub(super) fn count_spent(&mut self) {
        self.spent = [0, 0];
        for ply in 0..self.moves.len() {
            self.spent[index(self.mover(ply))] += self.used_on_ply(ply);
        }
    }

    pub fn leave_of(&self, color: Color) -> &[Leave] {
        &self.leave[index(color)]
    }

    /// Who makes move `ply` (0-based).
    pub(super) fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    /// When move `ply` became the mover's to make.
    pub(super) fn available(&self, ply: usize) -> i64 {
        match ply.checked_sub(1) {
            None => self.started.as_second(),
            Some(prev) => self.moves[prev].as_second(),
        }
    }

    /// Seconds of `[from, to)` not on `color`'s leave.
    pub(super) fn counted(&self, color: Color, from: i64, to: i64) -> i64 {
        if to <= from {
            return 0;
        }
        let on_leave: i64 = self.leave[index(color)]
            .iter()
            .map(|l| {
                let (a, b) = l.span();
                (b.min(to) - a.max(from)).max(0)
            })
            .sum();
        to - from - on_leave
    }

    /// How many moves `color` has made.
    pub fn moves_by(&self, color: Color) -> u32 {
        let n = self.moves.len();
        let by_first = n.div_ceil(2);
        let count = if color == self.first {
            by_first
        } else {
            n - by_first
        };
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// `color`'s thinking on all its moves, the current one counted to `now` if `running`.
    pub fn used_total(&self, color: Color, now: Timestamp, running: bool) -> i64 {
        let mut used = self.spent[index(color)];
        if running {
            used += self.used_on_move(color, now);
        }
        used
    }

    /// `color`'s thinking on the move it is to make now.
    pub fn used_on_move(&self, color: Color, now: Timestamp) -> i64 {
        self.counted(
            color,
            self.available(self.moves.len()),
            now.as_second().max(self.available(self.moves.len())),
        )
    }

    pub fn on_leave(&self, color: Color, at: Timestamp) -> bool {
        let t = at.as_second();
        self.leave[index(color)].iter().any(|l| {
            let (a, b) = l.span();
            a <= t && t < b
        })
    }

    /// `color`'s time under `rules`; `running` says whether its clock runs now. The plain
    /// controls are summed from what the timeline keeps; the others walk the side's moves
    /// ([`Timeline::ledger`]).
    pub fn side_time_under(
        &self,
        rules: &Rules,
        color: Color,
        now: Timestamp,
        running: bool,
    ) -> SideTime {
        if rules.is_plain() {
            self.side_time(rules.time_control, color, now, running)
        } else {
            self.ledger(rules, color, now, running).time
        }
    }

    /// `color`'s time under `control`, counted to the second without doubling; `running`
    /// says whether its clock runs now.
    pub fn side_time(
        &self,
        control: TimeControl,
        color: Color,
        now: Timestamp,
        running: bool,
    ) -> SideTime {
        let mut time = self.plain_side_time(control, color, now, running);
        time.charged = time.used;
        if running {
            time.move_used = self.used_on_move(color, now);
            time.move_charged = time.move_used;
        }
        time.out = time.left.is_some_and(|left| left < 0);
        if running && let Some(left) = time.left {
            // Out once more than the limit is used: a second after the time left.
            let budget = left + time.move_used;
            time.out_at = Some(self.instant_after(
                color,
                self.available(self.moves.len()),
                budget.max(-1) + 1,
            ));
        }
        time
    }

    /// [`Timeline::side_time`]'s sums; a control other than the plain ones is walked by the
    /// engine (the timeline alone does not know how its days are counted).
    pub(super) fn plain_side_time(
        &self,
        control: TimeControl,
        color: Color,
        now: Timestamp,
        running: bool,
    ) -> SideTime {
        if !matches!(
            control,
            TimeControl::MovesInDays { .. }
                | TimeControl::DaysPerMove { .. }
                | TimeControl::Unlimited
        ) {
            return self
                .ledger(
                    &Rules {
                        time_control: control,
                        ..Rules::default()
                    },
                    color,
                    now,
                    running,
                )
                .time;
        }
        let on_leave = self.on_leave(color, now);
        let blank = SideTime {
            used: 0,
            charged: 0,
            move_used: 0,
            move_charged: 0,
            left: None,
            bank: None,
            control_at: None,
            running,
            on_leave,
            out: false,
            out_at: None,
        };
        match control {
            TimeControl::MovesInDays { moves, days } => {
                let made = self.moves_by(color);
                // The control this side's next move falls under.
                let period = made / moves + 1;
                let allowance = i64::from(period) * i64::from(days) * DAY;
                let used = self.used_total(color, now, running);
                SideTime {
                    used,
                    left: Some(allowance - used),
                    control_at: Some(period * moves),
                    ..blank
                }
            }
            TimeControl::DaysPerMove { days } => {
                let used = if running {
                    self.used_on_move(color, now)
                } else {
                    0
                };
                SideTime {
                    used,
                    left: Some(i64::from(days) * DAY - used),
                    ..blank
                }
            }
            _ => SideTime {
                used: self.used_total(color, now, running),
                ..blank
            },
        }
    }

    /// Checks a leave `color` announces at `now` against this game's record of its leave.
    pub fn check_leave(
        &self,
        color: Color,
        leave: Leave,
        now: Timestamp,
        per_year: u32,
    ) -> Result<(), LeaveRefusal> {
        check_leave(&self.leave[index(color)], leave, now, per_year)
    }

    /// `color`'s thinking on move `ply` (0-based, made), leave excluded, in seconds.
    pub fn used_on_ply(&self, ply: usize) -> i64 {
        match self.moves.get(ply) {
            Some(at) => self.counted(self.mover(ply), self.available(ply), at.as_second()),
            None => 0,
        }
    }

    pub fn add_leave(&mut self, color: Color, leave: Leave) {
        self.leave[index(color)].push(leave);
        // Leave is announced ahead and so lies after every move made; counted again all
        // the same, so that no order of the record's entries can leave a stale sum.
        self.count_spent();
    }
}
