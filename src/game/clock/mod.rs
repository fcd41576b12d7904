//! Correspondence time: a time control counted in days, each side's thinking time, leave that
//! stops a side's clock, reminders to a silent player and the silence limit. The controls and
//! their words are in [`control`], the arithmetic of every control (what a move is charged,
//! Fischer's increment, Triple Block's bank, the instant a side runs out) in [`engine`]: one
//! engine, so every clock shown, pushed or exported is the same clock.
//!
//! Pure arithmetic over instants the caller passes in (the journal's entry times), so the same
//! record always gives the same clocks, and tests set the time.
//!
//! A side's clock runs from the moment the opponent's move was made available to it (committed
//! to its outbox) until it moves, except during its announced leave.
//!
//! ```
//! use ccrelay::game::clock::TimeControl;
//! let iccf: TimeControl = "10 moves in 50 days".parse().unwrap();
//! assert_eq!(iccf, TimeControl::MovesInDays { moves: 10, days: 50 });
//! assert_eq!(iccf.to_pgn(), "10/4320000");
//! assert_eq!("3 days per move".parse(), Ok(TimeControl::DaysPerMove { days: 3 }));
//! ```

use std::fmt;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

#[cfg(test)]
mod cases;
pub mod control;
pub mod engine;
mod refusal;

pub use self::control::{Counting, TimeControl, TripleBlock};
pub use self::engine::{Ledger, MoveCharge, Refill};
pub use self::refusal::{LeaveRefusal, RefillRefusal, ReflectionRefusal};

/// Seconds in a day: correspondence time is counted in days.
pub const DAY: i64 = 86_400;

/// ICCF's day after which a move's days count double (Rules art. 2.4.2).
pub const ICCF_DOUBLE_AFTER_DAYS: u32 = 20;

/// What happens to a side past its time or silence limit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    /// The side loses at once.
    #[default]
    Forfeit,
    /// The game goes on; the arbiter is told and decides (`ADJUDICATE`).
    Arbiter,
}

/// An event's rules of play, fixed for a game when it starts (and journaled with its start):
/// its time rules, and the one rule on draws an event may set (no draw offer before a move),
/// kept here so that a game in progress keeps it as it keeps its clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub time_control: TimeControl,
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// Days of silence on one move after which the silent side is reminded, ascending.
    #[serde(default)]
    pub reminder_days: Vec<u32>,
    /// Days of silence on one move after which the side is out of time, as if past its limit.
    #[serde(default)]
    pub silence_days: Option<u32>,
    /// Leave days each side may take per calendar year.
    #[serde(default)]
    pub leave_days_per_year: u32,
    /// How a move's thinking is counted: to the second, or in whole days as ICCF counts.
    /// Written only when not exact, so older records and the presets read the same.
    #[serde(default, skip_serializing_if = "Counting::is_exact")]
    pub counting: Counting,
    /// Days of thinking on one move after which each further day is charged twice (ICCF: 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double_after_days: Option<u32>,
    /// The first move number at which a draw may be offered or agreed (an organiser's rule,
    /// "no draw offer before move N"); none: from the first move. Written only when set, so
    /// older records read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offers_from_move: Option<u32>,
}

impl Default for Rules {
    /// ICCF's: 10 moves in 50 days, a loss on time, 45 days of leave a year; no reminders.
    fn default() -> Rules {
        Rules {
            time_control: TimeControl::default(),
            on_timeout: OnTimeout::Forfeit,
            reminder_days: Vec::new(),
            silence_days: None,
            leave_days_per_year: 45,
            counting: Counting::Exact,
            double_after_days: None,
            draw_offers_from_move: None,
        }
    }
}

impl Rules {
    /// No clock at all: for games whose journal predates clocks.
    pub fn unlimited() -> Rules {
        Rules {
            time_control: TimeControl::Unlimited,
            on_timeout: OnTimeout::Forfeit,
            reminder_days: Vec::new(),
            silence_days: None,
            leave_days_per_year: 0,
            counting: Counting::Exact,
            double_after_days: None,
            draw_offers_from_move: None,
        }
    }

    /// ICCF's counting for `time_control`: whole days, each day past the 20th on one move
    /// charged twice; Triple Block's own (to the second, never doubled, no leave).
    pub fn iccf(time_control: TimeControl) -> Rules {
        let mut rules = Rules {
            time_control,
            ..Rules::default()
        };
        match time_control {
            TimeControl::TripleBlock(_) => rules.leave_days_per_year = 0,
            TimeControl::Unlimited => {}
            _ => {
                rules.counting = Counting::WholeDays;
                rules.double_after_days = Some(ICCF_DOUBLE_AFTER_DAYS);
            }
        }
        rules
    }

    /// Why these rules do not hold together, if they do not: Triple Block counts to the
    /// second, never doubles, has no leave and no silence limit (its clock is the limit);
    /// nothing doubles without a limit.
    pub fn problem(&self) -> Option<String> {
        if let Some(problem) = self.time_control.problem() {
            return Some(problem);
        }
        match self.time_control {
            TimeControl::TripleBlock(_) => {
                if !self.counting.is_exact() {
                    Some("Triple Block counts time to the second, not in whole days".to_owned())
                } else if self.double_after_days.is_some() {
                    Some("Triple Block never doubles time".to_owned())
                } else if self.leave_days_per_year > 0 {
                    Some("Triple Block has no leave: the bank replaces it".to_owned())
                } else if self.silence_days.is_some() {
                    Some("Triple Block has no silence limit: its clock is the limit".to_owned())
                } else {
                    None
                }
            }
            TimeControl::Unlimited if self.double_after_days.is_some() => {
                Some("without a time limit no time is doubled".to_owned())
            }
            _ => None,
        }
    }

    /// Why a player may not take leave in a game under these rules, if they may not.
    pub fn leave_refused(&self) -> Option<LeaveRefusal> {
        match self.time_control {
            TimeControl::TripleBlock(_) => Some(LeaveRefusal::TripleBlock),
            _ => None,
        }
    }

    /// Why a player may not declare a long reflection (ICCF's "Use 40+ reflection") in a game
    /// under these rules, if they may not: only a silence limit can be waived.
    pub fn long_reflection_refused(&self) -> Option<ReflectionRefusal> {
        match (self.time_control, self.silence_days) {
            (TimeControl::TripleBlock(_), _) => Some(ReflectionRefusal::TripleBlock),
            (_, None) => Some(ReflectionRefusal::NoSilenceLimit),
            _ => None,
        }
    }

    /// The days of silence on one move at which the side to move is told (each once, in no
    /// particular order): each of `reminder_days`, and the day after which its days count
    /// double (ICCF's 20), so that a side hears that its days now cost twice the moment they
    /// start to. Journaled as reminders are, and so sent once per move.
    pub fn reminder_schedule(&self) -> impl Iterator<Item = u32> + '_ {
        let doubling = self.double_after_days.filter(|d| {
            self.time_control != TimeControl::Unlimited && !self.reminder_days.contains(d)
        });
        self.reminder_days.iter().copied().chain(doubling)
    }

    /// The control in ccrelay's words with how its days are counted, for a `CCTimeControl`
    /// tag: `10 moves in 50 days, whole days, doubled after 20 days`. Read back by
    /// [`Rules::read_time_words`].
    pub fn time_words(&self) -> String {
        let mut words = self.time_control.to_string();
        if self.counting == Counting::WholeDays {
            words.push_str(", whole days");
        }
        if let Some(days) = self.double_after_days {
            words.push_str(&format!(", doubled after {days} days"));
        }
        words
    }

    /// [`Rules::time_words`] read back: the control, the counting and the doubling.
    pub fn read_time_words(text: &str) -> Result<(TimeControl, Counting, Option<u32>), String> {
        let mut control = text.trim();
        let mut counting = Counting::Exact;
        let mut double = None;
        // The counting's clauses come last, doubling after whole days.
        if let Some((head, tail)) = control.rsplit_once(',')
            && let Some(days) = tail
                .trim()
                .strip_prefix("doubled after ")
                .and_then(|d| d.strip_suffix(" days").or_else(|| d.strip_suffix(" day")))
        {
            double = Some(
                days.parse::<u32>()
                    .ok()
                    .filter(|d| (1..=10_000).contains(d))
                    .ok_or_else(|| format!("{days:?} is not a number of days to double after"))?,
            );
            control = head;
        }
        if let Some((head, tail)) = control.rsplit_once(',')
            && tail.trim() == "whole days"
        {
            counting = Counting::WholeDays;
            control = head;
        }
        Ok((control.parse()?, counting, double))
    }
}

/// A side's leave: whole UTC days, from midnight `first` for `days` days.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    pub first: Date,
    pub days: u32,
}

impl Leave {
    /// `[start, end)` in seconds.
    fn span(self) -> (i64, i64) {
        let start = midnight(self.first);
        (start, start + i64::from(self.days) * DAY)
    }

    /// The last day of leave.
    pub fn last(self) -> Date {
        self.first
            .checked_add(jiff::Span::new().days(i64::from(self.days.max(1)) - 1))
            .unwrap_or(self.first)
    }

    fn overlaps(self, other: Leave) -> bool {
        let (a, b) = self.span();
        let (c, d) = other.span();
        a < d && c < b
    }

    /// Its days falling in `year`.
    fn days_in(self, year: i16) -> u32 {
        let (start, end) = self.span();
        let year_start = Date::new(year, 1, 1).map_or(i64::MIN, midnight);
        let year_end = year
            .checked_add(1)
            .and_then(|y| Date::new(y, 1, 1).ok())
            .map_or(i64::MAX, midnight);
        let overlap = end.min(year_end) - start.max(year_start);
        u32::try_from(overlap.max(0) / DAY).unwrap_or(0)
    }
}

impl fmt::Display for Leave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} to {} ({} day{})",
            self.first,
            self.last(),
            self.days,
            if self.days == 1 { "" } else { "s" }
        )
    }
}

fn midnight(date: Date) -> i64 {
    date.to_zoned_datetime(TimeZone::UTC)
        .map_or(0, |z| z.timestamp().as_second())
}

/// The UTC date of an instant.
pub fn date_of(at: Timestamp) -> Date {
    at.to_zoned_datetime(TimeZone::UTC).date()
}

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
    started: Timestamp,
    /// Who moves first.
    first: Color,
    /// The instant of every move, in order.
    moves: Vec<Timestamp>,
    /// Each side's leave (White, Black), without overlaps.
    leave: [Vec<Leave>; 2],
    /// Each side's thinking on the moves it has made, leave excluded (White, Black): what
    /// [`Timeline::used_total`] sums, kept as moves are made so that a side's clock is not
    /// a walk over the whole game on every move. Counted again whenever what it is made of
    /// changes other than by a move (the start, leave).
    spent: [i64; 2],
    /// Each side's refills of its clock from a Triple Block bank (White, Black), in order.
    refills: [Vec<Refill>; 2],
    /// The moves (0-based, both sides' counted, as [`Timeline::moves`] numbers them) for
    /// which their side declared ahead that it would think longer than the silence limit
    /// (ICCF's "Use 40+ reflection"), in order: the silence limit does not end the game on
    /// them.
    long_reflection: Vec<usize>,
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clone for Timeline {
    /// With room for one more move: see [`Game`](super::Game)'s copy.
    fn clone(&self) -> Timeline {
        Timeline {
            started: self.started,
            first: self.first,
            moves: super::with_room_for_one(&self.moves),
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
    fn count_spent(&mut self) {
        self.spent = [0, 0];
        for ply in 0..self.moves.len() {
            self.spent[index(self.mover(ply))] += self.used_on_ply(ply);
        }
    }

    pub fn leave_of(&self, color: Color) -> &[Leave] {
        &self.leave[index(color)]
    }

    /// Who makes move `ply` (0-based).
    fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    /// When move `ply` became the mover's to make.
    fn available(&self, ply: usize) -> i64 {
        match ply.checked_sub(1) {
            None => self.started.as_second(),
            Some(prev) => self.moves[prev].as_second(),
        }
    }

    /// Seconds of `[from, to)` not on `color`'s leave.
    fn counted(&self, color: Color, from: i64, to: i64) -> i64 {
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
    fn plain_side_time(
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

/// Checks leave announced at `now` against the leave already `taken` by the same player (in
/// one game, or in all their games): in the future, not overlapping, within `per_year` days
/// in each year it touches.
pub fn check_leave(
    taken: &[Leave],
    leave: Leave,
    now: Timestamp,
    per_year: u32,
) -> Result<(), LeaveRefusal> {
    if leave.days == 0 {
        return Err(LeaveRefusal::NoDays);
    }
    if leave.first <= date_of(now) {
        return Err(LeaveRefusal::NotAhead {
            earliest: date_of(now).tomorrow().unwrap_or(leave.first),
        });
    }
    if let Some(other) = taken.iter().find(|l| l.overlaps(leave)) {
        return Err(LeaveRefusal::Overlaps { announced: *other });
    }
    for year in [leave.first.year(), leave.last().year()] {
        let before: u32 = taken.iter().map(|l| l.days_in(year)).sum();
        let asked = leave.days_in(year);
        if before + asked > per_year {
            return Err(LeaveRefusal::OverYear {
                asked,
                year,
                taken: before,
                allowed: per_year,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(day: i64, hour: i64) -> Timestamp {
        Timestamp::from_second(midnight(Date::constant(2027, 1, 1)) + day * DAY + hour * 3600)
            .unwrap()
    }

    #[test]
    fn time_controls_parse_and_print() {
        for (text, control) in [
            (
                "10 moves in 50 days",
                TimeControl::MovesInDays {
                    moves: 10,
                    days: 50,
                },
            ),
            ("5/30", TimeControl::MovesInDays { moves: 5, days: 30 }),
            ("3 days per move", TimeControl::DaysPerMove { days: 3 }),
            ("none", TimeControl::Unlimited),
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
            assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
        }
        for bad in [
            "",
            "10 in 50",
            "0/50",
            "10/0",
            "ten moves in 50 days",
            "10/50/3",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn each_side_counts_from_when_the_opponents_move_arrived() {
        let mut t = Timeline::new(at(0, 0), Color::White);
        t.push_move(at(2, 0)); // White thought 2 days
        t.push_move(at(3, 12)); // Black 1.5 days
        t.push_move(at(4, 0)); // White 0.5 day
        assert_eq!(
            t.used_total(Color::White, at(9, 0), false),
            2 * DAY + DAY / 2
        );
        // Black is to move since day 4.
        assert_eq!(
            t.used_total(Color::Black, at(5, 0), true),
            DAY + DAY / 2 + DAY
        );
        let control = TimeControl::MovesInDays { moves: 2, days: 3 };
        // White made 2 moves: the next falls under the second control, 6 days by move 4.
        let white = t.side_time(control, Color::White, at(5, 0), false);
        assert_eq!(white.control_at, Some(4));
        assert_eq!(white.left, Some(6 * DAY - (2 * DAY + DAY / 2)));
        let black = t.side_time(control, Color::Black, at(5, 0), true);
        assert_eq!(black.control_at, Some(2));
        assert_eq!(black.left, Some(3 * DAY - (2 * DAY + DAY / 2)));
    }

    #[test]
    fn the_time_kept_per_side_is_the_time_counted_over_every_move() {
        let leave = |d, days| Leave {
            first: Date::constant(2027, 1, d),
            days,
        };
        for first in [Color::White, Color::Black] {
            let mut t = Timeline::new(at(0, 0), first);
            // Moves on and off leave, leave taken before and after moves, and a game read
            // back from its saved parts: every step agrees with a count from the start.
            // A move made on (day, hour), then leave taken.
            type Step = (Option<(i64, i64)>, Option<(Color, Leave)>);
            let steps: [Step; 8] = [
                (Some((1, 3)), None),
                (None, Some((Color::White, leave(4, 3)))),
                (Some((2, 0)), None),
                (Some((5, 12)), None),
                (None, Some((Color::Black, leave(9, 2)))),
                (Some((8, 1)), None),
                (Some((10, 7)), None),
                (Some((10, 8)), None),
            ];
            for (made, taken) in steps {
                if let Some((day, hour)) = made {
                    t.push_move(at(day, hour));
                }
                if let Some((color, leave)) = taken {
                    t.add_leave(color, leave);
                }
                // Counted afresh from every move, as `used_total` once did on every call.
                let mut recounted = t.clone();
                recounted.count_spent();
                for color in [Color::White, Color::Black] {
                    let all = recounted.spent[index(color)];
                    assert_eq!(t.spent[index(color)], all, "{first:?} {color:?}");
                    assert_eq!(t.used_total(color, at(12, 0), false), all);
                }
            }
            assert!(t.spent.iter().all(|&s| s > 0), "{:?}", t.spent);
            let read = Timeline::of(t.started(), t.first(), t.moves.clone(), t.leave.clone());
            assert_eq!(read.spent, t.spent);
            let copy = t.clone();
            assert_eq!(copy.spent, t.spent);
            let mut later = t.clone();
            later.restart(at(0, 12));
            assert_eq!(later.spent[index(first)], t.spent[index(first)] - DAY / 2);
        }
    }

    #[test]
    fn leave_stops_only_its_own_sides_clock() {
        let mut t = Timeline::new(at(0, 0), Color::White);
        t.add_leave(
            Color::White,
            Leave {
                first: Date::constant(2027, 1, 3),
                days: 4,
            },
        );
        // White to move from day 0 to day 10; days 2..6 are leave.
        assert_eq!(t.used_on_move(Color::White, at(10, 0)), 6 * DAY);
        assert!(t.on_leave(Color::White, at(3, 5)));
        assert!(!t.on_leave(Color::Black, at(3, 5)));
        assert_eq!(t.used_on_move(Color::Black, at(10, 0)), 10 * DAY);
    }

    #[test]
    fn leave_must_be_ahead_apart_and_within_the_yearly_allowance() {
        let mut t = Timeline::new(at(0, 0), Color::White);
        let now = at(0, 10);
        let leave = |m, d, days| Leave {
            first: Date::constant(2027, m, d),
            days,
        };
        assert!(
            t.check_leave(Color::White, leave(1, 1, 3), now, 45)
                .unwrap_err()
                .to_string()
                .contains("ahead")
        );
        assert!(
            t.check_leave(Color::White, leave(1, 2, 30), now, 45)
                .is_ok()
        );
        t.add_leave(Color::White, leave(1, 2, 30));
        assert!(
            t.check_leave(Color::White, leave(1, 20, 5), now, 45)
                .unwrap_err()
                .to_string()
                .contains("overlaps")
        );
        assert!(
            t.check_leave(Color::White, leave(3, 1, 16), now, 45)
                .unwrap_err()
                .to_string()
                .contains("45 allowed")
        );
        assert!(
            t.check_leave(Color::White, leave(3, 1, 15), now, 45)
                .is_ok()
        );
        // Black's allowance is its own.
        assert!(
            t.check_leave(Color::Black, leave(1, 2, 45), now, 45)
                .is_ok()
        );
        // Leave over New Year counts in each year.
        assert_eq!(leave(12, 30, 5).days_in(2027), 2);
        assert_eq!(leave(12, 30, 5).days_in(2028), 3);
    }
}
