//! Events as an arbiter runs them: how their games are paired ([`pairing`]: FIDE's Berger
//! tables, a match between two teams), the draw of the entrants' numbers by lot ([`draw`]),
//! the standings with ICCF's tie-breaks ([`standings`]), and the rating list every result
//! feeds ([`rating`]: Glicko-2 over rating periods). Pure: no I/O, no time; the relay
//! journals what is decided here and the journal's exports print it.
//!
//! ```
//! use ccrelay::event::{System, pairing};
//! let system: System = "round-robin".parse().unwrap();
//! assert_eq!(system.pairings(&[4]).len(), 6);
//! assert_eq!("match".parse::<System>().unwrap().pairings(&[2, 2]), pairing::team_match(2));
//! ```

pub mod bar;
pub mod draw;
pub mod knockout;
pub mod pairing;
pub mod rating;
pub mod standings;

use serde::{Deserialize, Serialize};

use crate::game::Kind;
use crate::game::clock::Rules;
use pairing::Pairing;

/// An event: its names, the game it plays, its time rules and what spectators may see. One
/// from the configuration's `[[events]]` lists its games by hand; one made while the relay
/// runs (`EVENT NEW`) has a [`System`] that pairs its entrants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub name: String,
    pub site: String,
    /// How its entrants are paired; `None` for an event whose games are listed by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<System>,
    /// The game its games play unless one names another (`game = "draughts-ru"`).
    #[serde(default)]
    pub game: Kind,
    /// The time rules of its games, fixed in each game's record when it starts.
    pub rules: Rules,
    /// What spectators may see of its games on the web pages.
    #[serde(default)]
    pub view: Viewing,
    /// Whether a player who lost a game on time lately may enter it ([`bar::TimeoutBar`]);
    /// none: anyone may. Written only when set, so older records read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_bar_days: Option<bar::TimeoutBar>,
    /// Whether its games count for the rating list ([`rating`]): yes unless it says no
    /// (`rated = false`, `RATED no`). Written only when no, so older records read the same.
    #[serde(default = "rated_by_default", skip_serializing_if = "is_rated")]
    pub rated: bool,
}

fn rated_by_default() -> bool {
    true
}

fn is_rated(rated: &bool) -> bool {
    *rated
}

/// What spectators may see of an event's games (ICCF's viewing rules). The arbiter, logged
/// in, sees everything whatever the rule.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Viewing {
    /// Every game, live.
    #[default]
    Public,
    /// Games in progress without their last `n` plies (single moves of either side), so
    /// that no spectator can help a player; a finished game whole.
    Delay(u32),
    /// Only finished games.
    Finished,
    /// Nothing: the event's games do not exist for spectators.
    Private,
}

/// How an event pairs its entrants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// Everyone against everyone once (Berger tables).
    RoundRobin,
    /// Everyone against everyone twice, the second time with the other colour.
    DoubleRoundRobin,
    /// Two teams, board against board, two games a board.
    Match,
    /// A cup: a bracket of matches of two games, the winner going on ([`knockout`]). Its
    /// games start round by round as the matches feeding them are decided.
    Knockout,
}

impl System {
    pub fn as_str(self) -> &'static str {
        match self {
            System::RoundRobin => "round-robin",
            System::DoubleRoundRobin => "double-round-robin",
            System::Match => "match",
            System::Knockout => "knockout",
        }
    }

    /// Whether entrants come as two teams.
    pub fn has_teams(self) -> bool {
        self == System::Match
    }

    /// Why entrants of these sizes cannot be paired (`sizes`: one number of entrants for a
    /// round robin; each team's for a match), or `None` when they can.
    pub fn unpairable(self, sizes: &[usize]) -> Option<String> {
        match self {
            System::RoundRobin | System::DoubleRoundRobin => {
                let n: usize = sizes.iter().sum();
                (n < 3).then(|| format!("a round robin needs at least 3 players ({n} entered)"))
            }
            System::Knockout => knockout::unpairable(sizes.iter().sum()),
            System::Match => match sizes {
                [a, b] if a == b && *a > 0 => None,
                [a, b] => Some(format!(
                    "a match needs two teams of equal size ({a} and {b} players)"
                )),
                _ => Some(format!(
                    "a match needs exactly two teams ({} entered)",
                    sizes.len()
                )),
            },
        }
    }

    /// Every game, places into the entrants in order (a match: the first team, then the
    /// second, each in board order). None for a knock-out, whose games are not known before
    /// they are due ([`knockout::Bracket::due`]).
    pub fn pairings(self, sizes: &[usize]) -> Vec<Pairing> {
        match self {
            System::Knockout => Vec::new(),
            System::RoundRobin => pairing::round_robin(sizes.iter().sum()),
            System::DoubleRoundRobin => pairing::double_round_robin(sizes.iter().sum()),
            System::Match => pairing::team_match(sizes.first().copied().unwrap_or(0)),
        }
    }
}

impl std::str::FromStr for System {
    type Err = String;

    fn from_str(s: &str) -> Result<System, String> {
        match s.to_ascii_lowercase().as_str() {
            "round-robin" | "rr" => Ok(System::RoundRobin),
            "double-round-robin" | "drr" => Ok(System::DoubleRoundRobin),
            "match" => Ok(System::Match),
            "knockout" | "knock-out" | "ko" | "cup" => Ok(System::Knockout),
            _ => Err(format!(
                "{s:?} is not a system (round-robin, double-round-robin, match or knockout)"
            )),
        }
    }
}

impl std::fmt::Display for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game's id in an event: the event's id, the round and the board (`club-r3b2`).
pub fn game_id(event: &str, p: &Pairing) -> String {
    format!("{event}-r{}b{}", p.round, p.board)
}
