//! ICCF's bar on new entries after a loss on time (proposal 2022-030, in force since
//! 8 November 2022): a player whose game is lost because their time ran out may not enter a
//! new event for 30 days, or for 90 days if they were already under such a bar when the new
//! loss came. An event that keeps the rule says so with `timeout_bar_days = [30, 90]`.
//!
//! Pure: the losses' instants come from the record (each a journaled result), so the same
//! record always gives the same bar, through any restart.
//!
//! ```
//! use ccrelay::event::bar::TimeoutBar;
//! use jiff::Timestamp;
//! let bar = TimeoutBar { first: 30, repeated: 90 };
//! let loss: Timestamp = "2027-01-10T00:00:00Z".parse().unwrap();
//! assert_eq!(bar.lifts(&[loss]), Some("2027-02-09T00:00:00Z".parse().unwrap()));
//! ```

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

/// How long a loss on time bars a player from entering: `first` days, or `repeated` days
/// when the loss came while an earlier one still barred them. Written `[30, 90]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u32; 2]", into = "[u32; 2]")]
pub struct TimeoutBar {
    pub first: u32,
    pub repeated: u32,
}

impl From<[u32; 2]> for TimeoutBar {
    fn from([first, repeated]: [u32; 2]) -> TimeoutBar {
        TimeoutBar { first, repeated }
    }
}

impl From<TimeoutBar> for [u32; 2] {
    fn from(bar: TimeoutBar) -> [u32; 2] {
        [bar.first, bar.repeated]
    }
}

const DAY: i64 = 86_400;

impl TimeoutBar {
    /// When the bar from a player's losses on time (their instants, in any order) lifts:
    /// walked in order, each loss bars for `first` days from it, or `repeated` days if it
    /// came while the bar of an earlier one still held. `None` for no loss.
    pub fn lifts(&self, losses: &[Timestamp]) -> Option<Timestamp> {
        let mut losses = losses.to_vec();
        losses.sort_unstable();
        let mut lifts: Option<Timestamp> = None;
        for loss in losses {
            let days = match lifts {
                Some(until) if loss < until => self.repeated,
                _ => self.first,
            };
            let until = loss
                .checked_add(SignedDuration::from_secs(i64::from(days) * DAY))
                .unwrap_or(Timestamp::MAX);
            lifts = Some(lifts.map_or(until, |l| l.max(until)));
        }
        lifts
    }

    /// When the bar lifts, if it still holds at `now`.
    pub fn holds_until(&self, losses: &[Timestamp], now: Timestamp) -> Option<Timestamp> {
        self.lifts(losses).filter(|until| now < *until)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(n: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + n * DAY).expect("time")
    }

    /// ICCF's rule, case by case: a first loss bars 30 days; a loss under the bar 90 from
    /// it; a loss after the bar lifted is a first loss again.
    #[test]
    fn the_bar_is_thirty_days_or_ninety_under_a_bar() {
        let bar = TimeoutBar {
            first: 30,
            repeated: 90,
        };
        for (losses, now, holds) in [
            (vec![], 0, None),
            (vec![0], 0, Some(30)),
            (vec![0], 29, Some(30)),
            (vec![0], 30, None),
            // The second loss on day 20, under the first's bar: 90 days from it.
            (vec![0, 20], 21, Some(110)),
            (vec![20, 0], 109, Some(110)),
            // On day 30 the first bar has lifted: a first loss again.
            (vec![0, 30], 31, Some(60)),
            // Two losses at once: the second came under the first's bar.
            (vec![5, 5], 6, Some(95)),
        ] {
            let losses: Vec<Timestamp> = losses.into_iter().map(day).collect();
            assert_eq!(
                bar.holds_until(&losses, day(now)),
                holds.map(day),
                "{losses:?} on day {now}"
            );
        }
    }

    #[test]
    fn the_bar_is_written_as_two_numbers() {
        let bar = TimeoutBar {
            first: 30,
            repeated: 90,
        };
        assert_eq!(serde_json::to_string(&bar).expect("json"), "[30,90]");
        assert_eq!(
            serde_json::from_str::<TimeoutBar>("[30,90]").expect("read"),
            bar
        );
    }
}
