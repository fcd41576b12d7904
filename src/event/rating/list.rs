//! The list itself: the rating periods walked from the first game or starting rating to the
//! list's day, each rated with Glickman's Glicko-2 update (the `skillratings` crate's
//! `glicko2_rating_period`, which our tests hold to his paper's worked example).
//!
//! Determinism is the point: within a period games are taken in the order of their ids and
//! players in the order of theirs, every opponent is counted at the rating they had when the
//! period began, so the order the journal recorded games in changes nothing, and the same
//! games give the same list, digit for digit, on any machine that rounds IEEE doubles alike
//! (the list prints two decimals).
//!
//! A player who played nobody in a period keeps their rating and their deviation grows by
//! Glickman's step 6, capped at 350 as the crate caps it (his paper does not cap it; a
//! deviation above the starting one would say less is known of a player who once played
//! than of one who never did).

use std::collections::BTreeMap;

use jiff::civil::Date;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use super::{RatedGame, Rating, RatingRules, Score, Seed};

/// One player on a list.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub player: String,
    pub rating: Rating,
    /// Rated games, all periods together.
    pub games: u32,
    /// The rating on the list before this one, if the player was on it.
    pub previous: Option<f64>,
    /// After each period since the player's first: the day its list took effect, the rating
    /// and the deviation then.
    pub history: Vec<(Date, f64, f64)>,
}

impl Standing {
    /// The change since the list before (none for a player new on this one).
    pub fn change(&self) -> Option<f64> {
        self.previous.map(|before| self.rating.rating - before)
    }
}

/// A rating list, as of a day.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingList {
    /// The day it takes effect: the first day of the period that holds the day asked for,
    /// every game that ended before it counted.
    pub effective: Date,
    /// The day the list before it took effect, if there was one.
    pub previous: Option<Date>,
    /// Highest rating first; equal ratings by the players' ids.
    pub standings: Vec<Standing>,
}

impl RatingList {
    pub fn get(&self, player: &str) -> Option<&Standing> {
        self.standings.iter().find(|s| s.player == player)
    }
}

/// Every player's rating on each list up to a day, from one computation: what a game's
/// record names as the ratings in effect when it started (PGN's `WhiteRating`), for games
/// that started on many days, without making a list for each.
///
/// A list's history holds each player's rating on every list since their first, so the list
/// in effect on a day `d` at or before the last one is read from it: the player's last
/// entry on a list that took effect on or before `d`.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingsInEffect {
    list: RatingList,
    /// The day the list after the last one takes effect: nothing is known from it on.
    known_until: Date,
}

impl RatingsInEffect {
    /// The ratings of every list in effect up to `through`.
    pub fn new(
        rules: &RatingRules,
        games: &[RatedGame],
        seeds: &[Seed],
        through: Date,
    ) -> RatingsInEffect {
        let list = rating_list(rules, games, seeds, through);
        let known_until = rules.period.after(list.effective);
        RatingsInEffect { list, known_until }
    }

    /// `player`'s rating on the list in effect on `day`; none for a player not on it, and
    /// none for a day after the last list this was made through (it would not know).
    pub fn on(&self, player: &str, day: Date) -> Option<f64> {
        if day >= self.known_until {
            return None;
        }
        let standing = self.list.get(player)?;
        let last = standing
            .history
            .iter()
            .take_while(|(took_effect, _, _)| *took_effect <= day)
            .last()?;
        Some(last.1)
    }
}

/// The list in effect on `as_of`, from every game that counts and every starting rating the
/// arbiter gave (`seeds` in the order the journal holds them: a later one in the same period
/// wins).
pub fn rating_list(
    rules: &RatingRules,
    games: &[RatedGame],
    seeds: &[Seed],
    as_of: Date,
) -> RatingList {
    let effective = rules.period.start_of(as_of);
    let mut ordered: Vec<&RatedGame> = games.iter().filter(|g| g.ended < effective).collect();
    ordered.sort_by(|a, b| {
        let key = |g: &RatedGame| (rules.period.start_of(g.ended), g.id.clone());
        key(a).cmp(&key(b))
    });
    let seeds: Vec<&Seed> = seeds.iter().filter(|s| s.on < effective).collect();
    let first = ordered
        .iter()
        .map(|g| g.ended)
        .chain(seeds.iter().map(|s| s.on))
        .min();
    let mut players: BTreeMap<String, Standing> = BTreeMap::new();
    let mut previous = None;
    let mut start = first.map_or(effective, |day| rules.period.start_of(day));
    let mut next_game = 0;
    while start < effective {
        let end = rules.period.after(start);
        let count = ordered[next_game..]
            .iter()
            .take_while(|g| g.ended < end)
            .count();
        let in_period = &ordered[next_game..next_game + count];
        next_game += count;
        let seeded: Vec<&Seed> = seeds
            .iter()
            .filter(|s| s.on >= start && s.on < end)
            .copied()
            .collect();
        if !players.is_empty() {
            previous = Some(start);
        }
        for standing in players.values_mut() {
            standing.previous = Some(standing.rating.rating);
        }
        rate_period(rules, &mut players, in_period, &seeded, end);
        start = end;
    }
    let mut standings: Vec<Standing> = players.into_values().collect();
    standings.sort_by(|a, b| {
        b.rating
            .rating
            .total_cmp(&a.rating.rating)
            .then_with(|| a.player.cmp(&b.player))
    });
    RatingList {
        effective,
        previous,
        standings,
    }
}

/// One period: the starting ratings given in it, then every player's update against the
/// ratings their opponents had when it began.
fn rate_period(
    rules: &RatingRules,
    players: &mut BTreeMap<String, Standing>,
    games: &[&RatedGame],
    seeds: &[&Seed],
    end: Date,
) {
    for seed in seeds {
        let standing = newcomer(players, &seed.player, rules);
        standing.rating = Rating {
            rating: seed.rating,
            deviation: seed.deviation,
            volatility: rules.start.volatility,
        };
    }
    for game in games {
        newcomer(players, &game.white, rules);
        newcomer(players, &game.black, rules);
    }
    let before: BTreeMap<String, Glicko2Rating> = players
        .iter()
        .map(|(id, s)| (id.clone(), glicko(s.rating)))
        .collect();
    let mut results: BTreeMap<&str, Vec<(Glicko2Rating, Outcomes)>> = BTreeMap::new();
    for game in games {
        let (Some(white), Some(black)) = (before.get(&game.white), before.get(&game.black)) else {
            continue;
        };
        let outcome = outcome(game.score);
        results
            .entry(&game.white)
            .or_default()
            .push((*black, outcome));
        results
            .entry(&game.black)
            .or_default()
            .push((*white, flipped(outcome)));
    }
    let config = Glicko2Config {
        tau: rules.tau,
        ..Glicko2Config::new()
    };
    for (id, standing) in players.iter_mut() {
        let played = results.get(id.as_str()).map_or(&[][..], Vec::as_slice);
        let after = glicko2_rating_period(&glicko(standing.rating), played, &config);
        standing.rating = Rating {
            rating: after.rating,
            deviation: after.deviation,
            volatility: after.volatility,
        };
        standing.games += u32::try_from(played.len()).unwrap_or(u32::MAX);
        standing
            .history
            .push((end, standing.rating.rating, standing.rating.deviation));
    }
}

/// The player's standing, made at the starting rating if they had none.
fn newcomer<'a>(
    players: &'a mut BTreeMap<String, Standing>,
    id: &str,
    rules: &RatingRules,
) -> &'a mut Standing {
    players.entry(id.to_owned()).or_insert_with(|| Standing {
        player: id.to_owned(),
        rating: rules.start,
        games: 0,
        previous: None,
        history: Vec::new(),
    })
}

fn glicko(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn outcome(score: Score) -> Outcomes {
    match score {
        Score::WhiteWins => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::BlackWins => Outcomes::LOSS,
    }
}

fn flipped(outcome: Outcomes) -> Outcomes {
    match outcome {
        Outcomes::WIN => Outcomes::LOSS,
        Outcomes::LOSS => Outcomes::WIN,
        Outcomes::DRAW => Outcomes::DRAW,
    }
}
