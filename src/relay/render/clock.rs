//! The clock line: both sides' time as each control counts it, the note once a side's days
//! count double, and the two together as a push carries them. English mails and pages say
//! the same words from the catalog (`relay::summary::clock_words`), held equal by a
//! test.

use jiff::Timestamp;

use crate::game::clock::DAY;
use crate::game::days_hours::DaysHours;
use crate::game::{ColorName, Game};
use crate::journal::notice::{ClockKind, Clocks, Side};

/// Both sides' time, on one line: `clock: White 3d 04h used, 46d 20h left to move 10 | ...`.
/// `None` for a game without a time limit.
pub fn clock_line(game: &Game, now: Timestamp) -> Option<String> {
    Clocks::of(game, now).map(|c| clocks(&c))
}

/// [`clock_line`] from stored clocks.
pub fn clocks(clocks: &Clocks) -> String {
    let mut text = String::with_capacity(120);
    push_clocks(&mut text, clocks);
    text
}

/// Appends [`clocks`]'s line to `text`: a clock line goes with every move pushed and every
/// reply, written into the line it ends. Each side by its control:
///
/// - moves in days: `White 3d 04h used, 46d 20h left to move 10`;
/// - days per move: `White 2d 03h on this move, 0d 21h left`, or `White waiting`;
/// - Fischer days: `White 12d 03h used, 21d 04h left` (the clock; no control move);
/// - Triple Block: `White clock 41d 02h, bank 75d` (the clock, then the bank);
///
/// with `, charged 26d` after the time used when the control charged otherwise (whole days,
/// ICCF's doubling), and ` (running)` or ` (on leave)`.
pub fn push_clocks(text: &mut String, clocks: &Clocks) {
    text.push_str("clock: ");
    for side in [Side::White, Side::Black] {
        if side == Side::Black {
            text.push_str(" | ");
        }
        let t = clocks.side(side);
        text.push_str(ColorName(side.into()).as_str());
        let (used, left) = (DaysHours(t.used), DaysHours(t.left));
        let charged = |text: &mut String| {
            if let Some(charged) = t.charged {
                text.push_str(", charged ");
                push_days(text, charged);
            }
        };
        // Appended, not formatted: `White 3d 04h used, 46d 20h left to move 10`.
        match clocks.kind {
            ClockKind::DaysPerMove if !t.running => text.push_str(" waiting"),
            ClockKind::DaysPerMove => {
                text.push(' ');
                used.push_to(text);
                text.push_str(" on this move");
                charged(text);
                text.push_str(", ");
                left.push_to(text);
                text.push_str(" left");
            }
            ClockKind::MovesInDays | ClockKind::Fischer => {
                text.push(' ');
                used.push_to(text);
                text.push_str(" used");
                charged(text);
                text.push_str(", ");
                left.push_to(text);
                text.push_str(" left");
                if clocks.kind == ClockKind::MovesInDays {
                    text.push_str(" to move ");
                    text.push_str(itoa::Buffer::new().format(t.by_move));
                }
            }
            ClockKind::TripleBlock => {
                text.push_str(" clock ");
                left.push_to(text);
                text.push_str(", bank ");
                push_days(text, t.bank.unwrap_or(0));
            }
        }
        if t.on_leave {
            text.push_str(" (on leave)");
        } else if t.running {
            text.push_str(" (running)");
        }
    }
}

/// Appends days as a charge or a bank holds them: `26d` when whole, else `26d 04h`.
fn push_days(text: &mut String, seconds: i64) {
    if seconds % DAY == 0 {
        text.push_str(itoa::Buffer::new().format(seconds / DAY));
        text.push('d');
    } else {
        DaysHours(seconds).push_to(text);
    }
}

/// `21st`, `22nd`, `23rd`, `24th`, `111th`: a day's number as English writes it.
pub(super) fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What the side whose clock runs is told once its days on this move count double:
/// `White: 21st day on this move, days now count double`; `None` before then.
pub fn doubling_note(clocks: &Clocks) -> Option<String> {
    [Side::White, Side::Black].into_iter().find_map(|side| {
        clocks.doubling_day(side).map(|day| {
            format!(
                "{}: {} day on this move, days now count double",
                ColorName(side.into()),
                ordinal(day)
            )
        })
    })
}

/// [`push_clocks_and_note`]'s text.
pub fn clocks_and_note(clocks: &Clocks) -> String {
    let mut text = String::with_capacity(160);
    push_clocks_and_note(&mut text, clocks);
    text
}

/// Appends the clock line and, once the running side's days count double, its note after
/// `; `: what a push carries.
pub fn push_clocks_and_note(text: &mut String, clocks: &Clocks) {
    push_clocks(text, clocks);
    if let Some(note) = doubling_note(clocks) {
        text.push_str("; ");
        text.push_str(&note);
    }
}
