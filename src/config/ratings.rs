//! `[ratings]`: the rules the rating list is computed by (docs/ratings.md). Every key is
//! optional; the defaults are Glickman's and ICCF's publishing calendar:
//!
//! ```toml
//! [ratings]
//! period = "quarter"            # or "month", "week"
//! rating = 1500.0               # where a player without a rating starts
//! deviation = 350.0
//! volatility = 0.06
//! tau = 0.5
//! forfeits_after_moves = true   # a loss on time after the loser moved counts
//! outside_events = false        # games in no event are not rated
//! ```

use serde::Deserialize;

use super::check::Checker;
use crate::event::rating::{Period, Rating, RatingRules};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRatings {
    period: Option<String>,
    rating: Option<f64>,
    deviation: Option<f64>,
    volatility: Option<f64>,
    tau: Option<f64>,
    forfeits_after_moves: Option<bool>,
    outside_events: Option<bool>,
}

/// Checks `[ratings]`: each number within what Glicko-2 can work with.
pub(super) fn check(c: &mut Checker, raw: Option<RawRatings>) -> RatingRules {
    let raw = raw.unwrap_or_default();
    let d = RatingRules::default();
    let period = match raw.period.as_deref().map(str::parse::<Period>) {
        None => d.period,
        Some(Ok(period)) => period,
        Some(Err(why)) => {
            c.problem("ratings.period", why);
            d.period
        }
    };
    let mut within = |key: &str, value: Option<f64>, low: f64, high: f64, default: f64| match value
    {
        None => default,
        Some(v) if v.is_finite() && (low..=high).contains(&v) => v,
        Some(v) => {
            c.problem(
                format!("ratings.{key}"),
                format!("{v} is not within {low} to {high}"),
            );
            default
        }
    };
    let start = Rating {
        rating: within("rating", raw.rating, 100.0, 4000.0, d.start.rating),
        deviation: within("deviation", raw.deviation, 30.0, 350.0, d.start.deviation),
        volatility: within("volatility", raw.volatility, 0.001, 1.0, d.start.volatility),
    };
    let tau = within("tau", raw.tau, 0.1, 2.0, d.tau);
    RatingRules {
        period,
        start,
        tau,
        forfeits_after_moves: raw.forfeits_after_moves.unwrap_or(d.forfeits_after_moves),
        outside_events: raw.outside_events.unwrap_or(d.outside_events),
    }
}
