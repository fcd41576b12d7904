//! The one clock engine: a side's time under any control, walked move by move over the
//! timeline (each move's thinking, leave taken out, the bank's refills), with what each move
//! was charged, the bank, and the exact instant the side runs out of time.
//!
//! Every control goes through the same steps: a move's thinking is counted ([`Rules::charge`]:
//! to the second, or in whole days with ICCF's doubling), then the control's arithmetic runs
//! (a period's allowance, Fischer's increment and cap, Triple Block's clock and bank). The
//! plain controls ccrelay always had (exact counting, no doubling) keep their quicker sum in
//! [`Timeline::side_time`]; a test holds the two to the same answers.

use jiff::Timestamp;
use shakmaty::Color;

use super::{
    Counting, DAY, RefillRefusal, Rules, SideTime, TimeControl, Timeline, TripleBlock, index,
};

/// One move as the clock saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveCharge {
    /// The move's index in the game (0-based, both sides' moves counted).
    pub ply: usize,
    /// Thinking on the move, leave excluded, in seconds.
    pub used: i64,
    /// What the control charged for it, in seconds (whole days, doubled past the limit).
    pub charged: i64,
    /// Fischer and Triple Block: the clock after the move (increment, cap, refill and
    /// protection applied), in seconds.
    pub clock: Option<i64>,
    /// Triple Block: the bank after the move, in seconds.
    pub bank: Option<i64>,
}

/// A side's clock from the start of the game to `now`: every move it made, and its time now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ledger {
    pub moves: Vec<MoveCharge>,
    pub time: SideTime,
}

/// A bank's refill: days moved from the bank to the clock while the side was to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Refill {
    pub at: Timestamp,
    pub days: u32,
}

impl Rules {
    /// What one move's `used` seconds of thinking are charged: counted as the rules count
    /// (whole days drop the part of a day), and every day past `double_after_days` twice
    /// (ICCF: 23 days used on one move are charged 26). Triple Block counts to the second and
    /// never doubles.
    pub fn charge(&self, used: i64) -> i64 {
        let used = used.max(0);
        if matches!(self.time_control, TimeControl::TripleBlock(_)) {
            return used;
        }
        let counted = match self.counting {
            Counting::Exact => used,
            Counting::WholeDays => used / DAY * DAY,
        };
        match self.double_after_days {
            Some(days) => counted + (counted - i64::from(days) * DAY).max(0),
            None => counted,
        }
    }

    /// Whether a move with `used` seconds of thinking has been charged a doubled day already
    /// (ICCF: from 21 whole days on). The side is told earlier, from the moment the day that
    /// will count double begins (`journal::notice::Clocks::doubling_day`, and the reminder
    /// [`Rules::reminder_schedule`] adds).
    pub fn doubling(&self, used: i64) -> bool {
        self.charge(used) > self.charge_undoubled(used)
    }

    fn charge_undoubled(&self, used: i64) -> i64 {
        Rules {
            double_after_days: None,
            ..self.clone()
        }
        .charge(used)
    }

    /// The first second of thinking on a move at which its charge passes `budget`: the side is
    /// out of time from then on. The charge only grows, so a search finds it.
    fn first_over(&self, budget: i64) -> i64 {
        if self.charge(0) > budget {
            return 0;
        }
        // The charge at `high` is at least `high - DAY + 1` (whole days drop under a day).
        let (mut low, mut high) = (0, budget.max(0) + 2 * DAY + 1);
        while high - low > 1 {
            let mid = low + (high - low) / 2;
            if self.charge(mid) > budget {
                high = mid;
            } else {
                low = mid;
            }
        }
        high
    }

    /// Whether these rules are the plain ones whose sums [`Timeline::side_time`] keeps.
    pub(super) fn is_plain(&self) -> bool {
        self.counting == Counting::Exact
            && self.double_after_days.is_none()
            && matches!(
                self.time_control,
                TimeControl::MovesInDays { .. }
                    | TimeControl::DaysPerMove { .. }
                    | TimeControl::Unlimited
            )
    }
}

/// A Triple Block side's clock and bank as the walk goes, in seconds.
struct Block {
    rules: TripleBlock,
    clock: i64,
    bank: i64,
}

impl Block {
    fn new(rules: TripleBlock) -> Block {
        Block {
            rules,
            clock: i64::from(rules.clock) * DAY,
            bank: i64::from(rules.bank) * DAY,
        }
    }

    fn cap(&self) -> i64 {
        i64::from(self.rules.clock) * DAY
    }

    /// A refill of `days` asked after `thought` seconds on the move: what the bank holds and
    /// the clock has room for, and only while the clock has time on it.
    fn refill(&mut self, thought: i64, days: u32) {
        let now = self.clock - thought;
        if now <= 0 {
            return;
        }
        let moved = (i64::from(days) * DAY)
            .min(self.bank)
            .min(self.cap() - now)
            .max(0);
        self.clock += moved;
        self.bank -= moved;
    }

    /// The side's `number`-th move (1-based) made after `used` seconds.
    fn after_move(&mut self, number: u32, used: i64) {
        let cap = self.cap();
        self.clock -= used;
        if number <= self.rules.moves {
            self.clock += i64::from(self.rules.increment) * DAY;
            if self.clock > cap {
                let bank_cap = i64::from(self.rules.bank) * DAY;
                self.bank = (self.bank + self.clock - cap).min(bank_cap);
                self.clock = cap;
            }
        }
        if self.rules.auto_refill && self.clock > 0 && self.clock < cap {
            let moved = self.bank.min(cap - self.clock);
            self.clock += moved;
            self.bank -= moved;
        }
        if let Some(days) = self.rules.protection
            && number > self.rules.moves
            && self.clock + self.bank < i64::from(days) * DAY
        {
            self.clock = i64::from(days) * DAY;
        }
    }
}

impl Timeline {
    /// `color`'s clock under `rules` at `now`, every move it made with its charge; `running`
    /// says whether its clock runs now (it is to move and the game goes on).
    pub fn ledger(&self, rules: &Rules, color: Color, now: Timestamp, running: bool) -> Ledger {
        let own: Vec<usize> = (0..self.moves.len())
            .filter(|&ply| self.mover(ply) == color)
            .collect();
        let made = u32::try_from(own.len()).unwrap_or(u32::MAX);
        let mut moves = Vec::with_capacity(own.len());
        let (mut used_before, mut charged_before) = (0i64, 0i64);
        let mut fischer = match rules.time_control {
            TimeControl::Fischer { base, .. } => Some(i64::from(base) * DAY),
            _ => None,
        };
        let mut block = match rules.time_control {
            TimeControl::TripleBlock(t) => Some(Block::new(t)),
            _ => None,
        };
        for (number, &ply) in (1u32..).zip(&own) {
            let used = self.used_on_ply(ply);
            let charged = rules.charge(used);
            if let Some(block) = &mut block {
                let from = self.available(ply);
                self.refills_between(color, from, self.moves[ply].as_second(), |at, days| {
                    block.refill(self.counted(color, from, at), days);
                });
                block.after_move(number, used);
            }
            if let (Some(clock), TimeControl::Fischer { increment, cap, .. }) =
                (&mut fischer, rules.time_control)
            {
                *clock += i64::from(increment) * DAY - charged;
                if let Some(cap) = cap {
                    *clock = (*clock).min(i64::from(cap) * DAY);
                }
            }
            used_before += used;
            charged_before += charged;
            moves.push(MoveCharge {
                ply,
                used,
                charged,
                clock: fischer.or(block.as_ref().map(|b| b.clock)),
                bank: block.as_ref().map(|b| b.bank),
            });
        }
        // The move being thought about now.
        let from = self.available(self.moves.len());
        let move_used = if running {
            self.used_on_move(color, now)
        } else {
            0
        };
        if running && let Some(block) = &mut block {
            self.refills_between(color, from, now.as_second() + 1, |at, days| {
                block.refill(self.counted(color, from, at), days);
            });
        }
        let move_charged = rules.charge(move_used);
        // The most this move may be charged before the side is out of time, and whether the
        // limit is reached at it (Triple Block: the clock reaching zero) or past it.
        let (budget, control_at, reached_is_out) = match rules.time_control {
            TimeControl::MovesInDays { moves: n, days } => {
                let period = made / n + 1;
                let allowance = i64::from(period) * i64::from(days) * DAY;
                (Some(allowance - charged_before), Some(period * n), false)
            }
            TimeControl::DaysPerMove { days } => (Some(i64::from(days) * DAY), None, false),
            TimeControl::Fischer { .. } => (fischer, Some(made + 1), false),
            TimeControl::TripleBlock(_) => (block.as_ref().map(|b| b.clock), Some(made + 1), true),
            TimeControl::Unlimited => (None, None, false),
        };
        let left = budget.map(|b| b - move_charged);
        let out = left.is_some_and(|l| if reached_is_out { l <= 0 } else { l < 0 });
        let out_at = match (budget, running) {
            (Some(budget), true) => {
                let thought = if reached_is_out {
                    budget.max(0)
                } else {
                    rules.first_over(budget)
                };
                Some(self.instant_after(color, from, thought))
            }
            _ => None,
        };
        let per_move = matches!(rules.time_control, TimeControl::DaysPerMove { .. });
        let time = SideTime {
            used: if per_move {
                move_used
            } else {
                used_before + move_used
            },
            charged: if per_move {
                move_charged
            } else {
                charged_before + move_charged
            },
            move_used,
            move_charged,
            left,
            bank: block.as_ref().map(|b| b.bank),
            control_at,
            running,
            on_leave: self.on_leave(color, now),
            out,
            out_at,
        };
        Ledger { moves, time }
    }

    /// Calls `each` with every refill of `color` in `[from, to)` (seconds), in order.
    fn refills_between(&self, color: Color, from: i64, to: i64, mut each: impl FnMut(i64, u32)) {
        for refill in &self.refills[index(color)] {
            let at = refill.at.as_second();
            if from <= at && at < to {
                each(at, refill.days);
            }
        }
    }

    /// The instant at which `color`, whose clock runs from `from`, has thought `seconds`,
    /// its leave skipped.
    pub(super) fn instant_after(&self, color: Color, from: i64, seconds: i64) -> Timestamp {
        let mut spans: Vec<(i64, i64)> =
            self.leave[index(color)].iter().map(|l| l.span()).collect();
        spans.sort_unstable();
        let (mut at, mut rest) = (from, seconds.max(0));
        for (start, end) in spans {
            if end <= at {
                continue;
            }
            if start > at {
                if start - at >= rest {
                    break;
                }
                rest -= start - at;
            }
            at = at.max(end);
        }
        Timestamp::from_second(at.saturating_add(rest)).unwrap_or(Timestamp::MAX)
    }

    /// Checks a refill of `days` that `color` asks for at `now`: a Triple Block game, its side
    /// to move with time on its clock, the days in the bank, and room for them on the clock.
    pub fn check_refill(
        &self,
        rules: &Rules,
        color: Color,
        now: Timestamp,
        days: u32,
    ) -> Result<(), RefillRefusal> {
        let TimeControl::TripleBlock(block) = rules.time_control else {
            return Err(RefillRefusal::NoBank);
        };
        if self.mover(self.moves.len()) != color {
            return Err(RefillRefusal::NotToMove);
        }
        if days == 0 {
            return Err(RefillRefusal::NoDays);
        }
        let time = self.ledger(rules, color, now, true).time;
        let clock = time.left.unwrap_or(0);
        let bank = time.bank.unwrap_or(0);
        let asked = i64::from(days) * DAY;
        if time.out {
            return Err(RefillRefusal::OutOfTime);
        }
        if asked > bank {
            return Err(RefillRefusal::BankShort {
                bank_days: bank / DAY,
                asked: days,
            });
        }
        let room = i64::from(block.clock) * DAY - clock;
        if asked > room {
            return Err(RefillRefusal::ClockFull {
                clock_days: block.clock,
                room_days: room / DAY,
                asked: days,
            });
        }
        Ok(())
    }

    /// A refill `color` made (checked by [`Timeline::check_refill`]).
    pub fn add_refill(&mut self, color: Color, refill: Refill) {
        self.refills[index(color)].push(refill);
    }
}
