//! Leave: whole UTC days a side announces ahead, during which its clock stops; its checks
//! (ahead, apart, within the yearly allowance) and the calendar days it is counted in.
//!
//! Special leave is the arbiter's (ICCF: "special leave (illness, work) granted by the
//! tournament director"): it stops the clock as leave does, must be ahead and apart as leave
//! must, but is not counted in the player's yearly allowance.

use std::fmt;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use super::{DAY, LeaveRefusal};

/// A side's leave: whole UTC days, from midnight `first` for `days` days.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    pub first: Date,
    pub days: u32,
    /// Granted by the arbiter: outside the yearly allowance. Absent from the record's JSON
    /// when false, so leave written before special leave existed reads the same.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub special: bool,
}

impl Leave {
    /// Leave a player announces: counted in their yearly allowance.
    pub fn new(first: Date, days: u32) -> Leave {
        Leave {
            first,
            days,
            special: false,
        }
    }

    /// Special leave the arbiter grants: outside the yearly allowance.
    pub fn special(first: Date, days: u32) -> Leave {
        Leave {
            first,
            days,
            special: true,
        }
    }

    /// `[start, end)` in seconds.
    pub(super) fn span(self) -> (i64, i64) {
        let start = midnight(self.first);
        (start, start + i64::from(self.days) * DAY)
    }

    /// The last day of leave.
    pub fn last(self) -> Date {
        self.first
            .checked_add(jiff::Span::new().days(i64::from(self.days.max(1)) - 1))
            .unwrap_or(self.first)
    }

    pub(super) fn overlaps(self, other: Leave) -> bool {
        let (a, b) = self.span();
        let (c, d) = other.span();
        a < d && c < b
    }

    /// Its days falling in `year`.
    pub(super) fn days_in(self, year: i16) -> u32 {
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

pub(super) fn midnight(date: Date) -> i64 {
    date.to_zoned_datetime(TimeZone::UTC)
        .map_or(0, |z| z.timestamp().as_second())
}

/// The UTC date of an instant.
pub fn date_of(at: Timestamp) -> Date {
    at.to_zoned_datetime(TimeZone::UTC).date()
}

/// Checks leave announced at `now` against the leave already `taken` by the same player (in
/// one game, or in all their games): in the future, not overlapping, within `per_year` days
/// in each year it touches (special leave neither counts in the allowance nor is held to it).
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
    if leave.special {
        return Ok(());
    }
    for year in [leave.first.year(), leave.last().year()] {
        let before: u32 = taken
            .iter()
            .filter(|l| !l.special)
            .map(|l| l.days_in(year))
            .sum();
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
