//! The clock's rules and timeline: time controls parsed and printed, each side counted from
//! when the opponent's move arrived, the time kept per side, and leave: its own side's clock
//! stopped, and asked ahead, apart and within the yearly allowance.

use jiff::Timestamp;
use jiff::civil::Date;
use shakmaty::Color;

use super::*;

fn at(day: i64, hour: i64) -> Timestamp {
    Timestamp::from_second(midnight(Date::constant(2027, 1, 1)) + day * DAY + hour * 3600).unwrap()
}

#[test]
fn time_controls_parse_and_print() {
    for (text, control) in [
        (
            "10 moves in 50 days",
            TimeControl::MovesInDays {
                moves: 10,
                days: 50,
            },
        ),
        ("5/30", TimeControl::MovesInDays { moves: 5, days: 30 }),
        ("3 days per move", TimeControl::DaysPerMove { days: 3 }),
        ("none", TimeControl::Unlimited),
    ] {
        assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
        assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
    }
    for bad in [
        "",
        "10 in 50",
        "0/50",
        "10/0",
        "ten moves in 50 days",
        "10/50/3",
    ] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad:?} accepted");
    }
}

#[test]
fn each_side_counts_from_when_the_opponents_move_arrived() {
    let mut t = Timeline::new(at(0, 0), Color::White);
    t.push_move(at(2, 0)); // White thought 2 days
    t.push_move(at(3, 12)); // Black 1.5 days
    t.push_move(at(4, 0)); // White 0.5 day
    assert_eq!(
        t.used_total(Color::White, at(9, 0), false),
        2 * DAY + DAY / 2
    );
    // Black is to move since day 4.
    assert_eq!(
        t.used_total(Color::Black, at(5, 0), true),
        DAY + DAY / 2 + DAY
    );
    let control = TimeControl::MovesInDays { moves: 2, days: 3 };
    // White made 2 moves: the next falls under the second control, 6 days by move 4.
    let white = t.side_time(control, Color::White, at(5, 0), false);
    assert_eq!(white.control_at, Some(4));
    assert_eq!(white.left, Some(6 * DAY - (2 * DAY + DAY / 2)));
    let black = t.side_time(control, Color::Black, at(5, 0), true);
    assert_eq!(black.control_at, Some(2));
    assert_eq!(black.left, Some(3 * DAY - (2 * DAY + DAY / 2)));
}

#[test]
fn the_time_kept_per_side_is_the_time_counted_over_every_move() {
    let leave = |d, days| Leave {
        first: Date::constant(2027, 1, d),
        days,
        special: false,
    };
    for first in [Color::White, Color::Black] {
        let mut t = Timeline::new(at(0, 0), first);
        // Moves on and off leave, leave taken before and after moves, and a game read
        // back from its saved parts: every step agrees with a count from the start.
        // A move made on (day, hour), then leave taken.
        type Step = (Option<(i64, i64)>, Option<(Color, Leave)>);
        let steps: [Step; 8] = [
            (Some((1, 3)), None),
            (None, Some((Color::White, leave(4, 3)))),
            (Some((2, 0)), None),
            (Some((5, 12)), None),
            (None, Some((Color::Black, leave(9, 2)))),
            (Some((8, 1)), None),
            (Some((10, 7)), None),
            (Some((10, 8)), None),
        ];
        for (made, taken) in steps {
            if let Some((day, hour)) = made {
                t.push_move(at(day, hour));
            }
            if let Some((color, leave)) = taken {
                t.add_leave(color, leave);
            }
            // Counted afresh from every move, as `used_total` once did on every call.
            let mut recounted = t.clone();
            recounted.count_spent();
            for color in [Color::White, Color::Black] {
                let all = recounted.spent[index(color)];
                assert_eq!(t.spent[index(color)], all, "{first:?} {color:?}");
                assert_eq!(t.used_total(color, at(12, 0), false), all);
            }
        }
        assert!(t.spent.iter().all(|&s| s > 0), "{:?}", t.spent);
        let read = Timeline::of(t.started(), t.first(), t.moves.clone(), t.leave.clone());
        assert_eq!(read.spent, t.spent);
        let copy = t.clone();
        assert_eq!(copy.spent, t.spent);
        let mut later = t.clone();
        later.restart(at(0, 12));
        assert_eq!(later.spent[index(first)], t.spent[index(first)] - DAY / 2);
    }
}

#[test]
fn leave_stops_only_its_own_sides_clock() {
    let mut t = Timeline::new(at(0, 0), Color::White);
    t.add_leave(
        Color::White,
        Leave {
            first: Date::constant(2027, 1, 3),
            days: 4,
            special: false,
        },
    );
    // White to move from day 0 to day 10; days 2..6 are leave.
    assert_eq!(t.used_on_move(Color::White, at(10, 0)), 6 * DAY);
    assert!(t.on_leave(Color::White, at(3, 5)));
    assert!(!t.on_leave(Color::Black, at(3, 5)));
    assert_eq!(t.used_on_move(Color::Black, at(10, 0)), 10 * DAY);
}

#[test]
fn leave_must_be_ahead_apart_and_within_the_yearly_allowance() {
    let mut t = Timeline::new(at(0, 0), Color::White);
    let now = at(0, 10);
    let leave = |m, d, days| Leave {
        first: Date::constant(2027, m, d),
        days,
        special: false,
    };
    assert!(
        t.check_leave(Color::White, leave(1, 1, 3), now, 45)
            .unwrap_err()
            .to_string()
            .contains("ahead")
    );
    assert!(
        t.check_leave(Color::White, leave(1, 2, 30), now, 45)
            .is_ok()
    );
    t.add_leave(Color::White, leave(1, 2, 30));
    assert!(
        t.check_leave(Color::White, leave(1, 20, 5), now, 45)
            .unwrap_err()
            .to_string()
            .contains("overlaps")
    );
    assert!(
        t.check_leave(Color::White, leave(3, 1, 16), now, 45)
            .unwrap_err()
            .to_string()
            .contains("45 allowed")
    );
    assert!(
        t.check_leave(Color::White, leave(3, 1, 15), now, 45)
            .is_ok()
    );
    // Black's allowance is its own.
    assert!(
        t.check_leave(Color::Black, leave(1, 2, 45), now, 45)
            .is_ok()
    );
    // Leave over New Year counts in each year.
    assert_eq!(leave(12, 30, 5).days_in(2027), 2);
    assert_eq!(leave(12, 30, 5).days_in(2028), 3);
}
