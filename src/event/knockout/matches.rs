//! The bracket as it stands: each match's two sides, its games (the first pair, and the extra
//! pair once the first is level), its score and whether and how it is decided, computed from
//! the seeds, the games' results, the lots drawn and the withdrawals. What is due next (games
//! whose players are known, lots for matches level after both pairs) follows from it, so the
//! relay never keeps a bracket of its own that could drift from the record.

use std::collections::BTreeMap;

use shakmaty::Color;

use super::{game_id, placement, rounds, size_for};
use crate::event::standings::Played;

/// One side of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// A player, with their seed (from 1).
    Player { id: String, seed: usize },
    /// No one: a bye in the first round, or a match that sent no one on (both its players
    /// withdrew).
    Empty,
    /// Not known yet: the match feeding this side is still being played.
    Open,
}

impl Side {
    /// The player on this side, if one is known.
    pub fn player(&self) -> Option<&str> {
        match self {
            Side::Player { id, .. } => Some(id),
            _ => None,
        }
    }
}

/// One game of a match, started or due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSlot {
    pub id: String,
    /// The game within the match, from 1: 1 and 2 the first pair, 3 and 4 the extra pair.
    pub game: u32,
    pub white: String,
    pub black: String,
    /// `None` in progress or not started; `Some(None)` drawn; `Some(Some(c))` won by `c`.
    pub result: Option<Option<Color>>,
    /// Lost by a withdrawal rather than played out.
    pub forfeit: bool,
    /// Whether the game exists (its start is in the record).
    pub started: bool,
}

/// How a match was decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// The other side was empty.
    Bye,
    /// By the first pair of games.
    Games,
    /// By the extra pair, after a level first pair.
    ExtraGames,
    /// By the lot, after both pairs were level.
    Lot,
    /// A player withdrew before the games decided it.
    Withdrawal,
}

impl How {
    /// The word `EVENT SHOW` and the export use.
    pub fn as_str(self) -> &'static str {
        match self {
            How::Bye => "bye",
            How::Games => "games",
            How::ExtraGames => "extra games",
            How::Lot => "lot",
            How::Withdrawal => "withdrawal",
        }
    }
}

/// A decided match: who goes on (no one when both its players withdrew) and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    pub winner: Option<String>,
    pub how: How,
}

/// One match of the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// From 1 (the first round) to the final.
    pub round: u32,
    /// From 1, top to bottom within the round.
    pub number: u32,
    /// The upper side (White in the odd games) and the lower.
    pub sides: [Side; 2],
    pub games: Vec<GameSlot>,
    /// Each side's points in finished games, in halves.
    pub score2: [u32; 2],
    pub decided: Option<Decided>,
    /// Level after both pairs, with no lot in the record yet.
    pub lot_due: bool,
}

/// A lot the relay is to draw and journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LotDue {
    pub round: u32,
    pub number: u32,
    /// The upper side's player, then the lower's: the order the lot shuffles.
    pub players: [String; 2],
}

/// What is due next: games to start, lots to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Due {
    /// Each with its round and match.
    pub games: Vec<(u32, u32, GameSlot)>,
    pub lots: Vec<LotDue>,
}

/// The whole bracket, round by round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    /// Its places: 2, 4, ... 64.
    pub size: usize,
    /// `rounds[r - 1]` is round `r`'s matches in order.
    pub rounds: Vec<Vec<Match>>,
}

impl Bracket {
    /// Games whose players are known and that have not started; lots due.
    pub fn due(&self) -> Due {
        let mut due = Due::default();
        for m in self.rounds.iter().flatten() {
            if m.decided.is_some() {
                continue;
            }
            for slot in m.games.iter().filter(|g| !g.started) {
                due.games.push((m.round, m.number, slot.clone()));
            }
            if let (true, Some(a), Some(b)) = (m.lot_due, m.sides[0].player(), m.sides[1].player())
            {
                due.lots.push(LotDue {
                    round: m.round,
                    number: m.number,
                    players: [a.to_owned(), b.to_owned()],
                });
            }
        }
        due
    }

    /// The winner of the final, once it is decided.
    pub fn champion(&self) -> Option<&str> {
        self.rounds
            .last()?
            .first()?
            .decided
            .as_ref()?
            .winner
            .as_deref()
    }

    /// Whether the final is decided.
    pub fn finished(&self) -> bool {
        self.rounds
            .last()
            .and_then(|r| r.first())
            .is_some_and(|m| m.decided.is_some())
    }
}

/// The bracket of event `event` for `seeds` (the entrants in seed order: seed 1 first), with
/// the results of its games that have started (`games`, by id), the lots drawn (`lots`: the
/// winner by round and match) and the players who withdrew. `None` for fewer than 2 seeds or
/// more than 64.
pub fn bracket(
    event: &str,
    seeds: &[String],
    games: &BTreeMap<String, Played>,
    lots: &BTreeMap<(u32, u32), String>,
    withdrawn: &[String],
) -> Option<Bracket> {
    let size = size_for(seeds.len())?;
    let places = placement(size);
    let seat = |place: usize| match seeds.get(places[place]) {
        Some(id) => Side::Player {
            id: id.clone(),
            seed: places[place] + 1,
        },
        None => Side::Empty,
    };
    let seed_of = |id: &str| seeds.iter().position(|s| s == id).map_or(0, |i| i + 1);
    let context = Context {
        event,
        games,
        lots,
        withdrawn,
    };
    let mut all: Vec<Vec<Match>> = Vec::new();
    for round in 1..=rounds(size) {
        let count = (size >> round) as u32;
        let mut this = Vec::with_capacity(count as usize);
        for number in 1..=count {
            let sides = if round == 1 {
                let top = 2 * (number as usize - 1);
                [seat(top), seat(top + 1)]
            } else {
                let before = &all[round as usize - 2];
                let from = |i: usize| match before.get(i).and_then(|m| m.decided.as_ref()) {
                    Some(Decided {
                        winner: Some(id), ..
                    }) => Side::Player {
                        id: id.clone(),
                        seed: seed_of(id),
                    },
                    Some(Decided { winner: None, .. }) => Side::Empty,
                    None => Side::Open,
                };
                let top = 2 * (number as usize - 1);
                [from(top), from(top + 1)]
            };
            this.push(context.decide(round, number, sides));
        }
        all.push(this);
    }
    Some(Bracket { size, rounds: all })
}

/// What deciding a match reads.
struct Context<'a> {
    event: &'a str,
    games: &'a BTreeMap<String, Played>,
    lots: &'a BTreeMap<(u32, u32), String>,
    withdrawn: &'a [String],
}

impl Context<'_> {
    fn withdrew(&self, id: &str) -> bool {
        self.withdrawn.iter().any(|w| w == id)
    }

    /// The match with its games, score and decision.
    fn decide(&self, round: u32, number: u32, sides: [Side; 2]) -> Match {
        let mut m = Match {
            round,
            number,
            sides,
            games: Vec::new(),
            score2: [0, 0],
            decided: None,
            lot_due: false,
        };
        let (a, b) = match (&m.sides[0], &m.sides[1]) {
            (Side::Open, _) | (_, Side::Open) => return m,
            (Side::Empty, Side::Empty) => {
                m.decided = Some(Decided {
                    winner: None,
                    how: How::Bye,
                });
                return m;
            }
            (Side::Player { id, .. }, Side::Empty) | (Side::Empty, Side::Player { id, .. }) => {
                // A player who withdrew goes on to no one.
                m.decided = Some(if self.withdrew(id) {
                    Decided {
                        winner: None,
                        how: How::Withdrawal,
                    }
                } else {
                    Decided {
                        winner: Some(id.clone()),
                        how: How::Bye,
                    }
                });
                return m;
            }
            (Side::Player { id: a, .. }, Side::Player { id: b, .. }) => (a.clone(), b.clone()),
        };
        // The first pair; the extra pair only once the first is finished and level.
        m.games = (1..=2)
            .map(|g| self.slot(round, number, g, &a, &b))
            .collect();
        let first = pair_score(&m.games, &a);
        if let Some([x, y]) = first
            && x == y
        {
            m.games
                .extend((3..=4).map(|g| self.slot(round, number, g, &a, &b)));
        }
        for slot in &m.games {
            if let Some(result) = slot.result {
                let [x, y] = points2(result, slot.white == a);
                m.score2[0] += x;
                m.score2[1] += y;
            }
        }
        let extra = (m.games.len() == 4)
            .then(|| pair_score(&m.games[2..], &a))
            .flatten();
        let by_games = match (first, extra) {
            (Some([x, y]), _) if x != y => Some((x > y, How::Games)),
            (Some(_), Some([x, y])) if x != y => Some((x > y, How::ExtraGames)),
            (Some(_), Some(_)) => self
                .lots
                .get(&(round, number))
                .filter(|w| **w == a || **w == b)
                .map(|w| (*w == a, How::Lot)),
            _ => None,
        };
        let level_after_both = first.is_some() && extra.is_some();
        m.decided = match by_games {
            Some((upper, how)) => Some(Decided {
                winner: Some(if upper { a } else { b }),
                how,
            }),
            None => match (self.withdrew(&a), self.withdrew(&b)) {
                (false, false) => {
                    m.lot_due = level_after_both;
                    None
                }
                (true, true) => Some(Decided {
                    winner: None,
                    how: How::Withdrawal,
                }),
                (wa, _) => Some(Decided {
                    winner: Some(if wa { b } else { a }),
                    how: How::Withdrawal,
                }),
            },
        };
        m
    }

    /// Game `game` of a match between `upper` and `lower`: the upper side has White in the
    /// odd games.
    fn slot(&self, round: u32, number: u32, game: u32, upper: &str, lower: &str) -> GameSlot {
        let id = game_id(self.event, round, number, game);
        let (white, black) = if game % 2 == 1 {
            (upper, lower)
        } else {
            (lower, upper)
        };
        let played = self.games.get(&id);
        GameSlot {
            white: white.to_owned(),
            black: black.to_owned(),
            result: played.and_then(|p| p.result),
            forfeit: played.is_some_and(|p| p.forfeit),
            started: played.is_some(),
            game,
            id,
        }
    }
}

/// Half points to White and Black for a result, turned to the upper side's first when
/// `upper_white`.
fn points2(result: Option<Color>, upper_white: bool) -> [u32; 2] {
    let [w, b] = match result {
        Some(Color::White) => [2, 0],
        Some(Color::Black) => [0, 2],
        None => [1, 1],
    };
    if upper_white { [w, b] } else { [b, w] }
}

/// A pair's score for the upper side `upper` and the other, once both its games are finished.
fn pair_score(pair: &[GameSlot], upper: &str) -> Option<[u32; 2]> {
    let mut score = [0, 0];
    for slot in pair.iter().take(2) {
        let [x, y] = points2(slot.result?, slot.white == upper);
        score[0] += x;
        score[1] += y;
    }
    (pair.len() >= 2).then_some(score)
}
