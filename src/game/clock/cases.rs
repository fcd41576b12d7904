//! The clocks' cases as the rules texts write them (docs/rules.md "Time"), one table per
//! control, on fixed instants: what each move is charged, the time left, the bank, and the
//! instant a side runs out of time.

use jiff::Timestamp;
use jiff::civil::Date;
use shakmaty::Color;

use super::*;

const HOUR: i64 = 3600;

fn start() -> i64 {
    midnight(Date::constant(2027, 1, 1))
}

fn instant(seconds_after_start: i64) -> Timestamp {
    Timestamp::from_second(start() + seconds_after_start).unwrap()
}

/// White thinks each of `thinking` (seconds) and moves; Black answers at once.
fn white_thinks(thinking: &[i64]) -> Timeline {
    let mut t = Timeline::new(instant(0), Color::White);
    let mut now = 0;
    for think in thinking {
        now += think;
        t.push_move(instant(now));
        t.push_move(instant(now));
    }
    t
}

/// The instant White's clock started on its next move, after `thinking`.
fn white_to_move_since(thinking: &[i64]) -> i64 {
    thinking.iter().sum()
}

fn iccf(control: &str) -> Rules {
    Rules::iccf(control.parse().unwrap())
}

#[test]
fn iccf_counts_whole_days_and_doubles_the_days_past_the_twentieth() {
    // Rules art. 2.4.2: whole days; up to 20 as used, each day beyond twice.
    let rules = iccf("10 moves in 50 days");
    for (used, charged) in [
        (23 * HOUR, 0), // under 24 hours: no day charged
        (DAY, DAY),
        (DAY + 23 * HOUR, DAY),
        (20 * DAY, 20 * DAY),
        (20 * DAY + 23 * HOUR, 20 * DAY),
        (21 * DAY, 22 * DAY),
        (23 * DAY, 26 * DAY), // "at least 23 days ... but not 24 ... charged 26"
        (24 * DAY - 1, 26 * DAY),
        (24 * DAY, 28 * DAY),
    ] {
        assert_eq!(rules.charge(used), charged, "{used}s used");
        // The same through the timeline: White's one move, and its time left by move 10.
        let t = white_thinks(&[used]);
        let white = t.side_time_under(&rules, Color::White, instant(used), false);
        assert_eq!((white.used, white.charged), (used, charged));
        assert_eq!(white.left, Some(50 * DAY - charged));
        assert_eq!(white.control_at, Some(10));
        assert_eq!(rules.doubling(used), used >= 21 * DAY, "{used}s used");
    }
    // Whole days without doubling, and exact time with it.
    let whole = Rules {
        double_after_days: None,
        ..rules.clone()
    };
    assert_eq!(whole.charge(23 * DAY + 5 * HOUR), 23 * DAY);
    let exact = Rules {
        counting: Counting::Exact,
        ..rules
    };
    assert_eq!(exact.charge(21 * DAY + 12 * HOUR), 23 * DAY);
}

/// docs/rules.md's table of ICCF's charges, read as written: each row's thinking on one move
/// ("23 hours", "1 day 23 hours", "23 days (up to ...)") is charged the row's days.
#[test]
fn the_charges_table_in_the_rules_doc_holds_as_written() {
    let doc = include_str!("../../../docs/rules.md");
    let table = doc
        .split("| thinking on one move | charged |")
        .nth(1)
        .expect("docs/rules.md has the charges table");
    let rules = iccf("10 moves in 50 days");
    let mut rows = 0;
    for line in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [thinking, charged] = cells[..] else {
            panic!("a row of two cells: {line}");
        };
        let thinking = thinking.split(" (").next().unwrap_or(thinking);
        assert_eq!(
            rules.charge(seconds_of(thinking)),
            seconds_of(charged),
            "{line}"
        );
        rows += 1;
    }
    assert!(rows >= 5, "the table's rows were read: {rows}");
}

/// `"1 day 23 hours"`, `"20 days"`, `"0 days"` in seconds.
fn seconds_of(words: &str) -> i64 {
    let mut seconds = 0;
    let mut tokens = words.split_whitespace();
    while let (Some(n), Some(unit)) = (tokens.next(), tokens.next()) {
        let n: i64 = n
            .parse()
            .unwrap_or_else(|_| panic!("a number in {words:?}"));
        seconds += n * match unit.trim_end_matches('s') {
            "day" => DAY,
            "hour" => HOUR,
            other => panic!("a unit in {words:?}: {other}"),
        };
    }
    seconds
}

#[test]
fn the_loss_on_time_comes_at_its_exact_instant() {
    // Each case: rules, White's moves before, the instant its clock runs out (seconds after
    // its clock started on the move it is making).
    let cases: [(&str, Rules, &[i64], i64); 6] = [
        // Exact counting: out once more than the limit is used, a second past it.
        (
            "2 moves in 10 days, exact",
            Rules {
                time_control: "2 moves in 10 days".parse().unwrap(),
                ..Rules::default()
            },
            &[4 * DAY],
            6 * DAY + 1,
        ),
        // ICCF, 50 days on the first move: day 35 is charged 50, day 36 52.
        ("10/50 ICCF", iccf("10 moves in 50 days"), &[], 36 * DAY),
        // ICCF, 10 days left: out when the 11th whole day is charged.
        (
            "10/50 ICCF, 40 days used",
            iccf("10 moves in 50 days"),
            &[20 * DAY, 20 * DAY],
            11 * DAY,
        ),
        // Fischer 30 + 3, ICCF: 33 days after the first move at once; 20 + 2·(d − 20) > 33
        // from d = 27.
        (
            "Fischer ICCF",
            iccf("30 days + 3 days per move"),
            &[0],
            27 * DAY,
        ),
        // Triple Block: out when the clock reaches zero, to the second.
        (
            "Triple Block",
            iccf("triple block 50 days + 3 days per move, bank 75, refill by hand"),
            &[],
            50 * DAY,
        ),
        (
            "Triple Block after a move of 10 days",
            iccf("triple block 50 days + 3 days per move, bank 75, refill by hand"),
            &[10 * DAY],
            43 * DAY,
        ),
    ];
    for (name, rules, before, out_after) in cases {
        let t = white_thinks(before);
        let from = white_to_move_since(before);
        let time = t.side_time_under(&rules, Color::White, instant(from), true);
        assert_eq!(time.out_at, Some(instant(from + out_after)), "{name}");
        let before_out =
            t.side_time_under(&rules, Color::White, instant(from + out_after - 1), true);
        assert!(
            !before_out.out,
            "{name}: out a second early: {before_out:?}"
        );
        let at_out = t.side_time_under(&rules, Color::White, instant(from + out_after), true);
        assert!(at_out.out, "{name}: not out at the instant: {at_out:?}");
    }
}

#[test]
fn leave_moves_the_instant_of_the_loss() {
    let rules = Rules {
        time_control: "2 moves in 10 days".parse().unwrap(),
        ..Rules::default()
    };
    let mut t = Timeline::new(instant(0), Color::White);
    t.add_leave(
        Color::White,
        Leave {
            first: Date::constant(2027, 1, 3),
            days: 4,
            special: false,
        },
    );
    let time = t.side_time_under(&rules, Color::White, instant(0), true);
    assert_eq!(time.out_at, Some(instant(14 * DAY + 1)));
    // The engine's walk agrees with the plain sums.
    let walked = t.ledger(&rules, Color::White, instant(0), true).time;
    assert_eq!(walked, time);
}

#[test]
fn fischer_adds_the_increment_after_each_move_and_keeps_to_its_cap() {
    // Control, White's thinking on each move, its clock after each move (days).
    let cases: [(&str, &[i64], &[i64]); 4] = [
        // ICCF's World Cup: 30 + 3, whole days: 2d 5h is charged 2 days.
        (
            "30 days + 3 days per move",
            &[2 * DAY + 5 * HOUR, 10 * DAY + 12 * HOUR, 0],
            &[31, 24, 27],
        ),
        // The cap reached: 30 + 1, at most 45, after fifteen moves at once.
        (
            "30 days + 1 day per move, max 45",
            &[0; 17],
            &[
                31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 45,
            ],
        ),
        // Under the cap again after a long move, and back up to it.
        (
            "30 days + 3 days per move, max 33",
            &[0, 5 * DAY, 0, 0],
            &[33, 31, 33, 33],
        ),
        // Past the 20th day a move costs double: 22 days are charged 24.
        ("30 days + 3 days per move", &[22 * DAY], &[9]),
    ];
    for (control, thinking, clocks) in cases {
        let rules = iccf(control);
        let t = white_thinks(thinking);
        let now = instant(white_to_move_since(thinking));
        let ledger = t.ledger(&rules, Color::White, now, true);
        let after: Vec<i64> = ledger
            .moves
            .iter()
            .map(|m| m.clock.unwrap() / DAY)
            .collect();
        assert_eq!(after, clocks, "{control}");
        assert_eq!(
            ledger.time.left,
            Some(clocks[clocks.len() - 1] * DAY),
            "{control}"
        );
        assert_eq!(ledger.time.control_at, Some(thinking.len() as u32 + 1));
    }
}

fn block(text: &str) -> Rules {
    Rules::iccf(text.parse().unwrap())
}

#[test]
fn triple_block_fills_its_clock_and_bank_as_appendix_3_says() {
    // Control, White's thinking on each move, (clock, bank) after each move, in hours.
    let d = 24;
    /// A control, White's thinking on each move, (clock, bank) after each move in hours.
    type Case = (&'static str, Vec<i64>, Vec<(i64, i64)>);
    let cases: [Case; 4] = [
        // The increment over the clock's 50 days goes to the bank, which starts full at 75
        // and holds no more: 50 - 2 + 3 = 51, the day over is lost.
        (
            "triple block 50 days + 3 days per move, bank 75",
            vec![2 * DAY],
            vec![(50 * d, 75 * d)],
        ),
        // A long move, the clock refilled from the bank after it (13 + 37 = 50, 75 - 37 =
        // 38); then a quick one: 49 + 3 = 52, two days into the bank.
        (
            "triple block 50 days + 3 days per move, bank 75",
            vec![40 * DAY, DAY],
            vec![(50 * d, 38 * d), (50 * d, 40 * d)],
        ),
        // By hand only: the clock keeps what is left, 50 - 30 + 3 = 23, and 5 days later 21.
        (
            "triple block 50 days + 3 days per move, bank 75, refill by hand",
            vec![30 * DAY, 5 * DAY],
            vec![(23 * d, 75 * d), (21 * d, 75 * d)],
        ),
        // Counted to the second: 49 days 14 hours leave 10 hours, and 5 days are earned.
        (
            "triple block 50 days + 5 days per move, bank 50, refill by hand",
            vec![50 * DAY - 10 * HOUR],
            vec![(5 * d + 10, 50 * d)],
        ),
    ];
    for (control, thinking, expected) in cases {
        let rules = block(control);
        let t = white_thinks(&thinking);
        let now = instant(white_to_move_since(&thinking));
        let ledger = t.ledger(&rules, Color::White, now, true);
        let got: Vec<(i64, i64)> = ledger
            .moves
            .iter()
            .map(|m| (m.clock.unwrap() / HOUR, m.bank.unwrap() / HOUR))
            .collect();
        assert_eq!(got, expected, "{control}");
        let (clock, bank) = expected[expected.len() - 1];
        assert_eq!(ledger.time.left, Some(clock * HOUR));
        assert_eq!(ledger.time.bank, Some(bank * HOUR));
    }
}

#[test]
fn triple_block_refills_by_hand_while_its_side_is_to_move() {
    let rules = block("triple block 50 days + 3 days per move, bank 75, refill by hand");
    // White used 30 days on its first move: clock 23, bank 75.
    let mut t = white_thinks(&[30 * DAY]);
    let from = 30 * DAY;
    // Ten days into its second move (clock 13): 20 days from the bank.
    let asked = instant(from + 10 * DAY);
    assert_eq!(t.check_refill(&rules, Color::White, asked, 20), Ok(()));
    t.add_refill(
        Color::White,
        Refill {
            at: asked,
            days: 20,
        },
    );
    let time = t.side_time_under(&rules, Color::White, asked, true);
    assert_eq!((time.left, time.bank), (Some(33 * DAY), Some(55 * DAY)));
    // Out 33 days later, not 13.
    assert_eq!(time.out_at, Some(instant(from + 43 * DAY)));
    // The clock never holds more than 50: 17 days fit now, not 18; the bank holds 55.
    assert!(
        t.check_refill(&rules, Color::White, asked, 18)
            .unwrap_err()
            .to_string()
            .contains("17 day(s) fit")
    );
    // Black is not to move; a game without a bank has none to draw on.
    assert!(t.check_refill(&rules, Color::Black, asked, 1).is_err());
    assert!(
        t.check_refill(&Rules::default(), Color::White, asked, 1)
            .unwrap_err()
            .to_string()
            .contains("Triple Block")
    );
    // The move made 15 days in: 33 - 5 + 3 = 31, and the refill is in the record.
    t.push_move(instant(from + 15 * DAY));
    let ledger = t.ledger(&rules, Color::White, instant(from + 15 * DAY), false);
    assert_eq!(ledger.moves[1].clock, Some(31 * DAY));
    assert_eq!(ledger.moves[1].bank, Some(55 * DAY));
    // More than the bank holds.
    let mut poor = white_thinks(&[49 * DAY]);
    let asked = instant(49 * DAY + DAY);
    poor.add_refill(
        Color::White,
        Refill {
            at: asked,
            days: 40,
        },
    );
    assert!(
        poor.check_refill(&rules, Color::White, asked, 40)
            .unwrap_err()
            .to_string()
            .contains("the bank holds 35 day(s)")
    );
}

#[test]
fn triple_block_protects_a_low_clock_only_after_move_50() {
    let rules = block("triple block 50 days + 3 days per move, bank 50, protection 3 days");
    // Fifty moves at once (clock 50, bank 50), then 49 days (the clock refilled to 50 from
    // the bank, 1 day left in it), then 49.5 days: 0.5 + 1 = 1.5 days in all, under 3: the
    // clock is set to 3 days.
    let mut thinking = vec![0; 50];
    thinking.push(49 * DAY);
    thinking.push(49 * DAY + 12 * HOUR);
    let t = white_thinks(&thinking);
    let ledger = t.ledger(&rules, Color::White, instant(0), false);
    assert_eq!(ledger.moves[49].clock, Some(50 * DAY));
    assert_eq!(ledger.moves[49].bank, Some(50 * DAY));
    assert_eq!(ledger.moves[50].clock, Some(50 * DAY));
    assert_eq!(ledger.moves[50].bank, Some(DAY));
    assert_eq!(ledger.moves[51].clock, Some(3 * DAY));
    assert_eq!(ledger.moves[51].bank, Some(0));
    // Without the option the clock keeps its day and a half.
    let bare = block("triple block 50 days + 3 days per move, bank 50");
    let ledger = t.ledger(&bare, Color::White, instant(0), false);
    assert_eq!(ledger.moves[51].clock, Some(DAY + 12 * HOUR));
}

#[test]
fn triple_block_has_no_leave_no_doubling_and_no_silence_limit() {
    let rules = block("triple block 50 days + 3 days per move, bank 75");
    assert_eq!(rules.problem(), None);
    assert_eq!(rules.leave_days_per_year, 0);
    assert!(rules.leave_refused().is_some());
    assert_eq!(rules.charge(30 * DAY), 30 * DAY);
    for (bad, says) in [
        (
            Rules {
                leave_days_per_year: 45,
                ..rules.clone()
            },
            "no leave",
        ),
        (
            Rules {
                double_after_days: Some(20),
                ..rules.clone()
            },
            "never doubles",
        ),
        (
            Rules {
                counting: Counting::WholeDays,
                ..rules.clone()
            },
            "to the second",
        ),
        (
            Rules {
                silence_days: Some(40),
                ..rules.clone()
            },
            "no silence limit",
        ),
    ] {
        assert!(bad.problem().unwrap().contains(says), "{bad:?}");
    }
    assert_eq!(iccf("10 moves in 50 days").leave_refused(), None);
}

#[test]
fn the_engine_agrees_with_the_plain_sums() {
    let leave = Leave {
        first: Date::constant(2027, 1, 9),
        days: 2,
        special: false,
    };
    let mut t = white_thinks(&[DAY + 3 * HOUR, 2 * DAY, 7 * HOUR]);
    t.add_leave(Color::Black, leave);
    t.push_move(instant(10 * DAY));
    for control in ["2 moves in 10 days", "3 days per move", "none"] {
        let rules = Rules {
            time_control: control.parse().unwrap(),
            ..Rules::default()
        };
        for color in [Color::White, Color::Black] {
            for running in [true, false] {
                let now = instant(12 * DAY);
                let plain = t.side_time_under(&rules, color, now, running);
                let walked = t.ledger(&rules, color, now, running).time;
                assert_eq!(plain, walked, "{control} {color:?} {running}");
            }
        }
    }
}

#[test]
fn every_control_reads_back_from_its_words() {
    for (text, control, pgn) in [
        (
            "10 moves in 50 days",
            TimeControl::MovesInDays {
                moves: 10,
                days: 50,
            },
            "10/4320000",
        ),
        (
            "3 days per move",
            TimeControl::DaysPerMove { days: 3 },
            "1/259200",
        ),
        (
            "30 days + 3 days per move",
            TimeControl::Fischer {
                base: 30,
                increment: 3,
                cap: None,
            },
            "2592000+259200",
        ),
        (
            "30 days + 1 day per move, max 45",
            TimeControl::Fischer {
                base: 30,
                increment: 1,
                cap: Some(45),
            },
            "2592000+86400",
        ),
        (
            "triple block 50 days + 3 days per move, bank 75",
            TimeControl::TripleBlock(TripleBlock::iccf(3, 75)),
            "?",
        ),
        (
            "triple block 50 days + 5 days per move for 40 moves, bank 50, refill by hand, protection 3 days",
            TimeControl::TripleBlock(TripleBlock {
                clock: 50,
                increment: 5,
                moves: 40,
                bank: 50,
                auto_refill: false,
                protection: Some(3),
            }),
            "?",
        ),
        ("no time limit", TimeControl::Unlimited, "-"),
    ] {
        assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
        assert_eq!(control.to_string(), text);
        assert_eq!(control.to_pgn(), pgn, "{text}");
        // Kept in the record as JSON and read back.
        let json = serde_json::to_string(&control).unwrap();
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), control);
        // The CCTimeControl tag's words, with ICCF's counting, read back.
        let rules = Rules::iccf(control);
        assert_eq!(
            Rules::read_time_words(&rules.time_words()),
            Ok((control, rules.counting, rules.double_after_days)),
            "{}",
            rules.time_words()
        );
    }
    assert_eq!(
        iccf("10/50").time_words(),
        "10 moves in 50 days, whole days, doubled after 20 days"
    );
    // Other spellings of the same controls.
    for (text, same) in [
        ("30 DAYS + 3 DAYS PER MOVE", "30 days + 3 days per move"),
        (
            "30 days+1 day per move, max 45 days",
            "30 days + 1 day per move, max 45",
        ),
        (
            "Triple Block 50 days + 3 days per move, bank 75 days",
            "triple block 50 days + 3 days per move, bank 75",
        ),
    ] {
        assert_eq!(
            text.parse::<TimeControl>(),
            same.parse::<TimeControl>(),
            "{text}"
        );
    }
}

#[test]
fn bad_controls_say_what_is_wrong() {
    for (bad, says) in [
        ("", "not a time control"),
        ("30 days + 3 days", "not a time control"),
        ("30 days + 0 days per move", "not a number of days"),
        (
            "30 days + 1 day per move, max 20",
            "under the starting clock",
        ),
        ("30 days + 1 day per move, bank 20", "only \"max N\""),
        ("triple block 50 days + 3 days per move", "needs its bank"),
        ("triple block 50 days, bank 75", "say \"triple block"),
        (
            "triple block 50 days + 3 days per move, bank 75, sometimes",
            "not part of a Triple Block",
        ),
        (
            "triple block 50 days + 3 days per move, bank 75, protection 60 days",
            "over the clock's most",
        ),
        ("10 moves in 50 days, max 60", "not a time control"),
    ] {
        let err = bad.parse::<TimeControl>().unwrap_err();
        assert!(err.contains(says), "{bad:?}: {err}");
    }
    assert!(Rules::read_time_words("10 moves in 50 days, doubled after x days").is_err());
}
