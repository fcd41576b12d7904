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

use serde::{Deserialize, Serialize};

pub mod control;
pub mod engine;

mod leave;
mod refusal;
mod timeline;

pub use self::control::{Counting, TimeControl, TripleBlock};
pub use self::engine::{Ledger, MoveCharge, Refill};
pub use self::leave::{Leave, check_leave, date_of};
pub use self::refusal::{LeaveRefusal, RefillRefusal, ReflectionRefusal};
pub use self::timeline::{Overdue, SideTime, Timeline};

#[cfg(test)]
use self::leave::midnight;
use self::timeline::index;

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

#[cfg(test)]
mod cases;
#[cfg(test)]
mod tests;
