//! Ratings as a function of the record: Glickman's Glicko-2 over rating periods (a quarter
//! by default, as ICCF publishes four lists a year), so that anyone holding the journal can
//! recompute a published list to the last digit. This module is pure: it is handed the games
//! that count ([`RatedGame`]) and the arbiter's starting ratings ([`Seed`]) and returns the
//! list ([`list::rating_list`]); the journal picks the games from its record
//! (`journal::ratings`) and the relay from the games it holds.
//!
//! What counts ([`counts`]): a finished game; not one lost on time, by silence or by a
//! withdrawal before the loser made a move; one lost so after moves only when the rules say
//! ([`RatingRules::forfeits_after_moves`], yes by default).
//!
//! ```
//! use ccrelay::event::rating::{Period, RatingRules};
//! use jiff::civil::date;
//! let rules = RatingRules::default();
//! assert_eq!(rules.period, Period::Quarter);
//! assert_eq!(Period::Quarter.start_of(date(2026, 11, 30)), date(2026, 10, 1));
//! assert_eq!(Period::Quarter.after(date(2026, 10, 1)), date(2027, 1, 1));
//! ```

pub mod list;

use jiff::ToSpan;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::game::{EndReason, Game};

pub use list::{RatingList, RatingsInEffect, Standing, rating_list};

/// A player is provisional while their deviation is at or above this (as on lichess).
pub const PROVISIONAL_FROM: f64 = 110.0;

/// How long a rating period lasts: every game that ended in one is rated together, against
/// the ratings everyone had when it began, and a list is published when it ends.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Period {
    /// 1 January, 1 April, 1 July, 1 October (ICCF's lists).
    #[default]
    Quarter,
    /// The first of every month (SchemingMind's).
    Month,
    /// Every Monday (ISO weeks).
    Week,
}

impl Period {
    /// The first day of the period that holds `day`.
    pub fn start_of(self, day: Date) -> Date {
        match self {
            Period::Quarter => {
                let month = (day.month() - 1) / 3 * 3 + 1;
                Date::new(day.year(), month, 1).unwrap_or(day)
            }
            Period::Month => day.first_of_month(),
            // Monday whatever the locale: a list's dates must not depend on where it is made.
            Period::Week => {
                let back = i64::from(day.weekday().to_monday_zero_offset());
                day.checked_sub(back.days()).unwrap_or(day)
            }
        }
    }

    /// The first day of the period after the one beginning on `start`.
    pub fn after(self, start: Date) -> Date {
        let span = match self {
            Period::Quarter => 3.months(),
            Period::Month => 1.month(),
            Period::Week => 1.week(),
        };
        start.checked_add(span).unwrap_or(Date::MAX)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Period::Quarter => "quarter",
            Period::Month => "month",
            Period::Week => "week",
        }
    }
}

impl std::str::FromStr for Period {
    type Err = String;

    fn from_str(s: &str) -> Result<Period, String> {
        match s {
            "quarter" => Ok(Period::Quarter),
            "month" => Ok(Period::Month),
            "week" => Ok(Period::Week),
            _ => Err(format!(
                "{s:?} is not a rating period (quarter, month, week)"
            )),
        }
    }
}

/// A rating, its deviation and its volatility, in Glicko's scale (1500 is the average).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// Provisional: too uncertain to be trusted yet ([`PROVISIONAL_FROM`]).
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_FROM
    }
}

/// The rules a list is computed by (`[ratings]` in the configuration, every key optional).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingRules {
    pub period: Period,
    /// Where a player without a rating starts: 1500, deviation 350, volatility 0.06.
    pub start: Rating,
    /// Glickman's τ, which bounds how fast a volatility changes (0.5).
    pub tau: f64,
    /// Whether a game lost on time, by silence or by a withdrawal after the loser had moved
    /// counts as that result (yes).
    pub forfeits_after_moves: bool,
    /// Whether games outside every event are rated (no).
    pub outside_events: bool,
}

impl Default for RatingRules {
    fn default() -> RatingRules {
        RatingRules {
            period: Period::Quarter,
            start: Rating {
                rating: 1500.0,
                deviation: 350.0,
                volatility: 0.06,
            },
            tau: 0.5,
            forfeits_after_moves: true,
            outside_events: false,
        }
    }
}

/// A game's result, from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    BlackWins,
    Draw,
    WhiteWins,
}

impl Score {
    /// White's points, Black's being one less this.
    pub fn white_points(self) -> f64 {
        match self {
            Score::WhiteWins => 1.0,
            Score::Draw => 0.5,
            Score::BlackWins => 0.0,
        }
    }
}

/// A game that counts for the ratings, as the list needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// Its id: the order games are taken in within a period, so that the order they were
    /// recorded in changes nothing.
    pub id: String,
    pub white: String,
    pub black: String,
    pub score: Score,
    /// The day it ended (UTC): the period it counts in.
    pub ended: Date,
}

/// A starting rating the arbiter gave a player (`PLAYER SET p RATING 1850 RD 120 reason`):
/// it replaces whatever the player had from the start of the period it was given in, before
/// that period's games are rated.
#[derive(Clone, Debug, PartialEq)]
pub struct Seed {
    pub player: String,
    pub rating: f64,
    pub deviation: f64,
    /// The day it was journaled (UTC).
    pub on: Date,
}

/// Whether a finished game counts for the ratings: `reason` how it ended, `winner_white`
/// whether White won (`None` a draw), `plies` the moves both sides made.
pub fn counts(
    rules: &RatingRules,
    reason: EndReason,
    winner_white: Option<bool>,
    plies: usize,
) -> bool {
    let forfeit = matches!(
        reason,
        EndReason::TimeForfeit | EndReason::Silence | EndReason::Withdrawal
    );
    if !forfeit {
        return true;
    }
    // The loser's own moves: White moves on the odd plies, Black on the even ones.
    let loser_moved = match winner_white {
        Some(true) => plies >= 2,
        Some(false) => plies >= 1,
        None => plies >= 1,
    };
    loser_moved && rules.forfeits_after_moves
}

/// `game` as the list counts it, if it counts: finished, in a rated event (`rated_event`:
/// whether its event is rated, `None` for a game in no event, rated only if the rules say),
/// and not a forfeit [`counts`] leaves out. It counts on the day (UTC) it ended: its last
/// move, or the resignation, agreement, loss on time or ruling that ended it.
pub fn rated_game(
    rules: &RatingRules,
    id: &str,
    game: &Game,
    rated_event: Option<bool>,
) -> Option<RatedGame> {
    if !rated_event.unwrap_or(rules.outside_events) {
        return None;
    }
    let result = game.result()?;
    let white_won = result.winner.map(|c| c == shakmaty::Color::White);
    if !counts(rules, result.reason, white_won, game.moves().len()) {
        return None;
    }
    let ended = game
        .ended()
        .or_else(|| game.timeline().moves().last().copied())?;
    Some(RatedGame {
        id: id.to_owned(),
        white: game.player(shakmaty::Color::White).to_owned(),
        black: game.player(shakmaty::Color::Black).to_owned(),
        score: match white_won {
            Some(true) => Score::WhiteWins,
            Some(false) => Score::BlackWins,
            None => Score::Draw,
        },
        ended: ended.to_zoned_datetime(jiff::tz::TimeZone::UTC).date(),
    })
}

#[cfg(test)]
mod tests;
