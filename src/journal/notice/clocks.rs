//! Both sides' clocks as a notice holds them: what the clock engine knew at the moment of the
//! notice ([`crate::game::clock::SideTime`]), kept as data so that a mail sent later says the
//! clocks as they were, in whichever words its reader reads.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::Side;
use crate::game::Game;
use crate::game::clock::{DAY, TimeControl};

/// How a game's time is counted, for the clocks' wording.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    /// So many moves in so many days, cumulative.
    MovesInDays,
    /// Every move within so many days.
    DaysPerMove,
    /// Fischer days: a clock that each move adds to (`left` is the clock; no control move).
    Fischer,
    /// ICCF's Triple Block: a clock (`left`) and a bank beside it.
    TripleBlock,
}

/// One side's time at the moment of the notice: what the clock engine knows of it
/// ([`crate::game::clock::SideTime`]). The fields after `on_leave` came with the controls
/// that charge other than the time used (whole days, ICCF's doubling) and with Triple Block's
/// bank; a notice stored before them reads with them empty, as its clocks then were.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideClock {
    /// Seconds counted against the limit (all of them, or on this move).
    pub used: i64,
    /// Seconds left (negative past the limit): Fischer's clock; Triple Block's clock, its
    /// bank apart.
    pub left: i64,
    /// The game move number by which `left` must be spent (moves in days).
    pub by_move: u32,
    pub running: bool,
    pub on_leave: bool,
    /// What the control charged for `used`, when that is not `used` itself (whole days, the
    /// days past the doubling limit twice): `None` when the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charged: Option<i64>,
    /// Thinking on the move the side is making now (0 while its clock is stopped).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub move_used: i64,
    /// What that move is charged so far, when not `move_used` itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_charged: Option<i64>,
    /// Triple Block: the bank, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank: Option<i64>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl SideClock {
    /// What the control charged: `used` unless the charge differs.
    pub fn charged(&self) -> i64 {
        self.charged.unwrap_or(self.used)
    }
}

/// Both clocks at the moment of the notice. Each side's is boxed: a notice of time (a
/// reminder, a time-up) holds its clocks inline, and every item queued for a session or a
/// mail is as large as the largest notice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub kind: ClockKind,
    pub white: Box<SideClock>,
    pub black: Box<SideClock>,
    /// Days of thinking on one move after which each further day counts double (ICCF: 20),
    /// for the words that say a side has passed them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double_after_days: Option<u32>,
}

impl Clocks {
    /// `game`'s clocks at `now`; `None` for a game without a time limit.
    pub fn of(game: &Game, now: jiff::Timestamp) -> Option<Clocks> {
        let kind = match game.rules().time_control {
            TimeControl::Unlimited => return None,
            TimeControl::DaysPerMove { .. } => ClockKind::DaysPerMove,
            TimeControl::MovesInDays { .. } => ClockKind::MovesInDays,
            TimeControl::Fischer { .. } => ClockKind::Fischer,
            TimeControl::TripleBlock(_) => ClockKind::TripleBlock,
        };
        let side = |color: Color| {
            let t = game.side_time(color, now);
            Box::new(SideClock {
                used: t.used,
                left: t.left.unwrap_or(0),
                by_move: number_of_own_move(game, color, t.control_at.unwrap_or(0)),
                running: t.running,
                on_leave: t.on_leave,
                charged: (t.charged != t.used).then_some(t.charged),
                move_used: t.move_used,
                move_charged: (t.move_charged != t.move_used).then_some(t.move_charged),
                bank: t.bank,
            })
        };
        Some(Clocks {
            kind,
            white: side(Color::White),
            black: side(Color::Black),
            double_after_days: game.rules().double_after_days,
        })
    }

    pub fn side(&self, side: Side) -> &SideClock {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    /// The day of thinking `side` is in on its move (the 21st, from 20 whole days on), when
    /// its clock runs and the days of this move now count double; `None` otherwise. What a
    /// push and `SHOW` tell the side, from the moment its days count double.
    pub fn doubling_day(&self, side: Side) -> Option<u32> {
        let t = self.side(side);
        let after = self.double_after_days?;
        let day = u32::try_from(t.move_used.max(0) / DAY).unwrap_or(u32::MAX);
        (t.running && day >= after).then(|| day.saturating_add(1))
    }
}

/// The game move number of `color`'s `n`-th move (1-based) in `game`.
fn number_of_own_move(game: &Game, color: Color, n: u32) -> u32 {
    let start = game.start();
    let late = u32::from(start.turn() == Color::Black && color == Color::White);
    start
        .move_number()
        .saturating_add(n.saturating_sub(1))
        .saturating_add(late)
}
