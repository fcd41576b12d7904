//! The time controls as people write them and as the records carry them: the words of an
//! event's `TIME` (`"10 moves in 50 days"`, `"30 days + 1 day per move, max 45"`,
//! `"triple block 50 days + 3 days per move, bank 75"`), PGN's `TimeControl` tag, and the
//! words of a `CCTimeControl` tag, which add how the days are counted so that anyone can
//! recompute the clocks from the record.
//!
//! One reader for every front end (configuration, `EVENT NEW`, the export's tag read back),
//! so a control is written one way and read back to the same value.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::DAY;

/// How much time a side has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// `moves` moves in `days` days, cumulative: by its `k·moves`-th move a side may have used
    /// at most `k·days` days (ICCF's 10 moves in 50 days).
    MovesInDays { moves: u32, days: u32 },
    /// Every move within `days` days; unused time is not carried over.
    DaysPerMove { days: u32 },
    /// Fischer days: the clock starts at `base` days, each move made adds `increment` days,
    /// and with a `cap` the clock never holds more than `cap` days (ICCF's World Cup plays
    /// 30 + 3 without a cap; other servers cap it, 30 + 1 at most 45).
    Fischer {
        base: u32,
        increment: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cap: Option<u32>,
    },
    /// ICCF's Triple Block: a clock, increments for the first moves, and a bank.
    TripleBlock(TripleBlock),
    /// No limit.
    Unlimited,
}

/// ICCF's Triple Block (Rules, Appendix 3): the clock starts at `clock` days and never holds
/// more; each of the side's first `moves` moves earns `increment` days, and what would lift
/// the clock over `clock` goes to the bank, which holds at most `bank` days and starts full.
/// The side refills its clock from the bank while it is to move, and (with `auto_refill`)
/// after each of its moves. Time is counted to the second, never doubled; the side loses
/// when its clock reaches zero. With `protection`, a side whose clock and bank hold less than
/// `protection` days after a move past the `moves`-th has its clock set to `protection` days.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleBlock {
    /// Days the clock starts at, and its most (ICCF: 50).
    pub clock: u32,
    /// Days each earning move adds (ICCF's organisers choose 3 or 5).
    pub increment: u32,
    /// How many of the side's first moves earn the increment (ICCF: 50).
    pub moves: u32,
    /// The bank's most, and its start (ICCF: 75 or 50).
    pub bank: u32,
    /// The clock is filled from the bank after each move.
    pub auto_refill: bool,
    /// Days a clock is set to after a move past `moves` when clock and bank hold less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection: Option<u32>,
}

/// ICCF's clock and earning moves: the numbers every Triple Block event shares.
const TRIPLE_BLOCK_CLOCK_DAYS: u32 = 50;
const TRIPLE_BLOCK_EARNING_MOVES: u32 = 50;

/// How a move's thinking becomes the time charged for it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counting {
    /// To the second, as the time passed.
    #[default]
    Exact,
    /// In whole days of 24 hours, each move on its own, the part of a day dropped (ICCF's
    /// Rules art. 2.4.2: a day is charged once 24 hours of a move's reflection have passed).
    WholeDays,
}

impl Counting {
    pub fn is_exact(&self) -> bool {
        *self == Counting::Exact
    }
}

impl Default for TimeControl {
    /// ICCF's standard.
    fn default() -> TimeControl {
        TimeControl::MovesInDays {
            moves: 10,
            days: 50,
        }
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag (PGN standard 9.6.1, in seconds): `moves/seconds` by
    /// period, `1/seconds` for a limit per move, `base+increment` for Fischer days (a cap
    /// has no PGN form), `?` for Triple Block (no PGN form fits a bank), `-` for none. The
    /// `CCTimeControl` tag says the rest in words ([`super::Rules::time_words`]).
    pub fn to_pgn(self) -> String {
        match self {
            TimeControl::MovesInDays { moves, days } => {
                format!("{moves}/{}", i64::from(days) * DAY)
            }
            TimeControl::DaysPerMove { days } => format!("1/{}", i64::from(days) * DAY),
            TimeControl::Fischer {
                base, increment, ..
            } => format!("{}+{}", i64::from(base) * DAY, i64::from(increment) * DAY),
            TimeControl::TripleBlock(_) => "?".to_owned(),
            TimeControl::Unlimited => "-".to_owned(),
        }
    }

    /// Why these numbers make no control, if they do not (a cap under the base, a Triple
    /// Block without its clock): checked wherever a control is read or built.
    pub fn problem(self) -> Option<String> {
        match self {
            TimeControl::Fischer {
                base,
                cap: Some(cap),
                ..
            } if cap < base => Some(format!(
                "the cap ({cap} days) is under the starting clock ({base} days)"
            )),
            TimeControl::TripleBlock(t) if t.protection.is_some_and(|p| p > t.clock) => {
                Some(format!(
                    "the protection ({} days) is over the clock's most ({} days)",
                    t.protection.unwrap_or(0),
                    t.clock
                ))
            }
            _ => None,
        }
    }
}

fn days(n: u32) -> &'static str {
    if n == 1 { "day" } else { "days" }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MovesInDays { moves, days } => {
                write!(f, "{moves} moves in {days} days")
            }
            TimeControl::DaysPerMove { days } => write!(f, "{days} days per move"),
            TimeControl::Fischer {
                base,
                increment,
                cap,
            } => {
                write!(
                    f,
                    "{base} {} + {increment} {} per move",
                    days(*base),
                    days(*increment)
                )?;
                match cap {
                    Some(cap) => write!(f, ", max {cap}"),
                    None => Ok(()),
                }
            }
            TimeControl::TripleBlock(t) => t.fmt(f),
            TimeControl::Unlimited => f.write_str("no time limit"),
        }
    }
}

impl fmt::Display for TripleBlock {
    /// `triple block 50 days + 3 days per move, bank 75`, with `for N moves`, `refill by
    /// hand` and `protection N days` when they differ from ICCF's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "triple block {} {} + {} {} per move",
            self.clock,
            days(self.clock),
            self.increment,
            days(self.increment)
        )?;
        if self.moves != TRIPLE_BLOCK_EARNING_MOVES {
            write!(
                f,
                " for {} move{}",
                self.moves,
                if self.moves == 1 { "" } else { "s" }
            )?;
        }
        write!(f, ", bank {}", self.bank)?;
        if !self.auto_refill {
            f.write_str(", refill by hand")?;
        }
        if let Some(p) = self.protection {
            write!(f, ", protection {p} {}", days(p))?;
        }
        Ok(())
    }
}

/// The forms a control is written in, for the error that says what was not understood.
const FORMS: &str = "say \"10 moves in 50 days\", \"10/50\", \"3 days per move\", \
     \"30 days + 3 days per move\", \"30 days + 1 day per move, max 45\", \
     \"triple block 50 days + 3 days per move, bank 75\" or \"none\"";

/// A control's words split for reading: lower case, `+` and `,` apart from the numbers.
fn words_of(clause: &str) -> Vec<String> {
    clause
        .replace('+', " + ")
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect()
}

/// A count of days or moves a control is made of: 1 to 10 000.
fn number(text: &str, what: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=10_000).contains(&n) => Ok(n),
        _ => Err(format!("{text:?} is not a number of {what} (1 to 10000)")),
    }
}

fn is_days(word: &str) -> bool {
    matches!(word, "day" | "days" | "d")
}

/// `D days + I days per move`: a Fischer control's base and increment.
fn base_and_increment(words: &[&str]) -> Option<Result<(u32, u32), String>> {
    match words {
        [b, bd, "+", i, id, "per", "move"] if is_days(bd) && is_days(id) => {
            Some(number(b, "days").and_then(|b| Ok((b, number(i, "days")?))))
        }
        _ => None,
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// `10 moves in 50 days`, `10/50` (moves/days), `3 days per move`, `30 days + 3 days
    /// per move`, `30 days + 1 day per move, max 45`, `triple block 50 days + 3 days per
    /// move, bank 75` (with `for 50 moves`, `refill by hand`, `protection 3 days`), `none`.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || format!("{s:?} is not a time control ({FORMS})");
        let mut clauses = s.split(',');
        let head = words_of(clauses.next().unwrap_or(""));
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        let rest: Vec<Vec<String>> = clauses.map(words_of).collect();
        let control = match head.as_slice() {
            ["triple", "block", tail @ ..] => {
                return triple_block(tail, &rest).map_err(|e| format!("{s:?}: {e}"));
            }
            ["none" | "unlimited" | "-"] | ["no", "time", "limit"] => TimeControl::Unlimited,
            [n, "moves" | "move", "in", d, dd] if is_days(dd) => TimeControl::MovesInDays {
                moves: number(n, "moves").map_err(|_| bad())?,
                days: number(d, "days").map_err(|_| bad())?,
            },
            [d, dd, "per", "move"] if is_days(dd) => TimeControl::DaysPerMove {
                days: number(d, "days").map_err(|_| bad())?,
            },
            [pair] if pair.contains('/') => {
                let (n, d) = pair.split_once('/').ok_or_else(bad)?;
                TimeControl::MovesInDays {
                    moves: number(n, "moves").map_err(|_| bad())?,
                    days: number(d, "days").map_err(|_| bad())?,
                }
            }
            words => match base_and_increment(words) {
                Some(Ok((base, increment))) => {
                    let cap = match rest.as_slice() {
                        [] => None,
                        [clause] => match clause.iter().map(String::as_str).collect::<Vec<_>>()[..]
                        {
                            ["max" | "cap", n] => Some(number(n, "days")?),
                            ["max" | "cap", n, d] if is_days(d) => Some(number(n, "days")?),
                            _ => {
                                return Err(format!(
                                    "{s:?}: after a Fischer control only \"max N\" (the clock's most days) may follow"
                                ));
                            }
                        },
                        _ => return Err(bad()),
                    };
                    let control = TimeControl::Fischer {
                        base,
                        increment,
                        cap,
                    };
                    if let Some(problem) = control.problem() {
                        return Err(format!("{s:?}: {problem}"));
                    }
                    return Ok(control);
                }
                Some(Err(e)) => return Err(format!("{s:?}: {e}")),
                _ => return Err(bad()),
            },
        };
        if !rest.is_empty() {
            return Err(bad());
        }
        Ok(control)
    }
}

/// A Triple Block's words after `triple block`, and the clauses after its first comma.
fn triple_block(head: &[&str], clauses: &[Vec<String>]) -> Result<TimeControl, String> {
    let form = "say \"triple block 50 days + 3 days per move, bank 75\" (then maybe \
                \"refill by hand\", \"protection 3 days\")";
    let (clock, increment, moves) = match head {
        [c, cd, "+", i, id, "per", "move"] if is_days(cd) && is_days(id) => (
            number(c, "days")?,
            number(i, "days")?,
            TRIPLE_BLOCK_EARNING_MOVES,
        ),
        [c, cd, "+", i, id, "per", "move", "for", n, "moves" | "move"]
            if is_days(cd) && is_days(id) =>
        {
            (number(c, "days")?, number(i, "days")?, number(n, "moves")?)
        }
        _ => return Err(form.to_owned()),
    };
    let mut bank = None;
    let mut auto_refill = true;
    let mut protection = None;
    for clause in clauses {
        let words: Vec<&str> = clause.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["bank", n] => bank = Some(number(n, "days")?),
            ["bank", n, d] if is_days(d) => bank = Some(number(n, "days")?),
            ["refill", "by", "hand"] => auto_refill = false,
            ["protection", n, d] if is_days(d) => protection = Some(number(n, "days")?),
            ["protection", n] => protection = Some(number(n, "days")?),
            _ => {
                return Err(format!(
                    "{:?} is not part of a Triple Block ({form})",
                    clause.join(" ")
                ));
            }
        }
    }
    let bank = bank.ok_or_else(|| format!("a Triple Block needs its bank ({form})"))?;
    let control = TimeControl::TripleBlock(TripleBlock {
        clock,
        increment,
        moves,
        bank,
        auto_refill,
        protection,
    });
    match control.problem() {
        Some(problem) => Err(problem),
        None => Ok(control),
    }
}

impl TripleBlock {
    /// ICCF's: a 50-day clock, `increment` days for each of the first 50 moves, a bank of
    /// `bank` days, refilled after each move, no protection.
    pub fn iccf(increment: u32, bank: u32) -> TripleBlock {
        TripleBlock {
            clock: TRIPLE_BLOCK_CLOCK_DAYS,
            increment,
            moves: TRIPLE_BLOCK_EARNING_MOVES,
            bank,
            auto_refill: true,
            protection: None,
        }
    }
}
