//! `[clock]`: where the relay's time comes from, and how often the games' clocks are looked at.

use std::time::Duration;

use serde::Deserialize;

use super::check::{Checker, Field};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawClock {
    mode: Option<Field<ClockMode>>,
    start: Option<String>,
    check_secs: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ClockMode {
    /// Real time.
    System,
    /// Time moves only by the administrator's `CLOCK` command.
    Manual,
}

/// Where the relay's time comes from.
#[derive(Clone, Debug)]
pub struct ClockConfig {
    /// `Some(start)`: a manual clock, starting at `start` (or the journal's last entry, if
    /// later), moved only by the administrator's `CLOCK` command. For tests and demonstrations.
    pub manual_start: Option<jiff::Timestamp>,
    /// How often the clocks of all games are checked (time forfeits, reminders).
    pub check_interval: Duration,
}

/// Checks `[clock]`: the system clock, checked every minute, when absent.
pub(super) fn check(c: &mut Checker, raw: Option<RawClock>) -> ClockConfig {
    let raw = raw.unwrap_or_default();
    let mode = match raw.mode {
        None => Some(ClockMode::System),
        given => c.read("clock.mode", given),
    };
    let manual_start = match mode {
        // Refused, and reported as such.
        None => None,
        Some(ClockMode::System) => {
            if raw.start.is_some() {
                c.problem("clock.start", "only for mode = \"manual\"");
            }
            None
        }
        Some(ClockMode::Manual) => {
            let text = raw
                .start
                .unwrap_or_else(|| "2026-01-01T00:00:00Z".to_owned());
            match text.parse::<jiff::Timestamp>() {
                Ok(t) => Some(t),
                Err(e) => {
                    c.problem("clock.start", format!("{text:?}: {e}"));
                    None
                }
            }
        }
    };
    ClockConfig {
        manual_start,
        check_interval: Duration::from_secs(c.positive(
            "clock.check_secs",
            raw.check_secs,
            60,
            86_400,
        )),
    }
}
