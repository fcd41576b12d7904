//! Why a player's act on their own clock is refused (leave, a Triple Block refill, a long
//! reflection), typed: the line protocol writes each in its English words (`Display`, the words
//! it always had), and a front end that writes its own words (the web pages, in the reader's
//! language) renders it from its kind and values.

use std::fmt;

use jiff::civil::Date;

use super::Leave;

/// Why leave is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LeaveRefusal {
    /// A Triple Block game has no leave: its bank replaces it.
    TripleBlock,
    /// Leave of no days.
    NoDays,
    /// Leave starting today or before: it is announced ahead, from `earliest` on.
    NotAhead { earliest: Date },
    /// It overlaps leave already announced.
    Overlaps { announced: Leave },
    /// More days in `year` than the rules allow a year.
    OverYear {
        asked: u32,
        year: i16,
        taken: u32,
        allowed: u32,
    },
}

impl fmt::Display for LeaveRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeaveRefusal::TripleBlock => {
                f.write_str("a Triple Block game has no leave: refill the clock from the bank")
            }
            LeaveRefusal::NoDays => f.write_str("leave is at least one day"),
            LeaveRefusal::NotAhead { earliest } => write!(
                f,
                "leave is announced ahead: it can start tomorrow ({earliest}) at the earliest"
            ),
            LeaveRefusal::Overlaps { announced } => {
                write!(f, "it overlaps leave already announced: {announced}")
            }
            LeaveRefusal::OverYear {
                asked,
                year,
                taken,
                allowed,
            } => write!(
                f,
                "{asked} day(s) of leave in {year} asked, {taken} taken already, {allowed} allowed a year"
            ),
        }
    }
}

/// Why a Triple Block refill (`BANK`) is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefillRefusal {
    /// The game is not played under Triple Block.
    NoBank,
    /// The side is not to move.
    NotToMove,
    /// A refill of no days.
    NoDays,
    /// The clock has run out.
    OutOfTime,
    /// The bank holds fewer days than asked.
    BankShort { bank_days: i64, asked: u32 },
    /// The clock has no room for the days asked.
    ClockFull {
        clock_days: u32,
        room_days: i64,
        asked: u32,
    },
}

impl fmt::Display for RefillRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefillRefusal::NoBank => f.write_str("only a Triple Block game has a bank"),
            RefillRefusal::NotToMove => {
                f.write_str("a clock is refilled while its side is to move")
            }
            RefillRefusal::NoDays => f.write_str("a refill is at least one day"),
            RefillRefusal::OutOfTime => f.write_str("the clock has run out"),
            RefillRefusal::BankShort { bank_days, asked } => {
                write!(f, "the bank holds {bank_days} day(s), {asked} asked")
            }
            RefillRefusal::ClockFull {
                clock_days,
                room_days,
                asked,
            } => write!(
                f,
                "the clock holds at most {clock_days} days: {room_days} day(s) fit on it now, {asked} asked"
            ),
        }
    }
}

/// Why a long reflection (`SILENCE g1 LONG`) is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReflectionRefusal {
    /// A Triple Block game has no silence limit.
    TripleBlock,
    /// The game has no silence limit.
    NoSilenceLimit,
    /// Declared already for the move it would cover (`next`: the side's next move, not the
    /// one it is making).
    Already { next: bool },
}

impl fmt::Display for ReflectionRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReflectionRefusal::TripleBlock => f.write_str(
                "a Triple Block game has no silence limit: its clock is the limit, and it runs whatever is declared",
            ),
            ReflectionRefusal::NoSilenceLimit => {
                f.write_str("this game has no silence limit: there is nothing to declare")
            }
            ReflectionRefusal::Already { next } => write!(
                f,
                "a long reflection is declared already for your {} move",
                if *next { "next" } else { "current" }
            ),
        }
    }
}
