//! A game's clock through its rules: time running out into a forfeit or a flag, the day
//! days start to count double and the loss it decides, leave, the arbiter's decision, Triple
//! Block's refills, and a long reflection past the silence limit.

use super::*;

#[test]
fn time_runs_out_into_a_forfeit_or_a_flag() {
    let rules = Rules {
        time_control: TimeControl::MovesInDays { moves: 2, days: 10 },
        ..Rules::default()
    };
    let mut game = timed(rules.clone());
    play_at(&mut game, "e4", day(4));
    play_at(&mut game, "e5", day(5));
    // White has used 4 days; the second move must come within 10 in all.
    assert_eq!(game.due(day(11)), None);
    assert_eq!(
        game.due(day(11) + jiff::SignedDuration::from_secs(1)),
        Some(Due::TimeUp {
            color: Color::White,
            overdue: Overdue::TimeControl
        })
    );
    let mut forfeited = game.clone();
    forfeited.apply_by(
        Color::White,
        &Action::TimeUp {
            overdue: Overdue::TimeControl,
            forfeit: true,
        },
        day(12),
    );
    assert_eq!(
        forfeited.result(),
        Some(&GameResult::new(Some(Color::Black), EndReason::TimeForfeit))
    );
    let mut flagged = game.clone();
    flagged.apply_by(
        Color::White,
        &Action::TimeUp {
            overdue: Overdue::TimeControl,
            forfeit: false,
        },
        day(12),
    );
    assert!(flagged.flagged());
    assert_eq!(flagged.result(), None);
    assert_eq!(flagged.due(day(13)), None, "flagged once per move");
}

/// The day a side's days start to count double is told as a reminder is, between the
/// reminders and once per move: not again on a day a reminder already falls on, and
/// again on the next move.
#[test]
fn the_doubling_day_is_told_once_per_move_among_the_reminders() {
    for (reminder_days, told) in [
        (vec![14, 28], vec![14, 20, 28]),
        (vec![14, 20, 28], vec![14, 20, 28]),
        (vec![], vec![20]),
    ] {
        let mut rules = Rules::iccf(TimeControl::MovesInDays {
            moves: 10,
            days: 100,
        });
        rules.reminder_days = reminder_days.clone();
        let mut game = timed(rules);
        for mv in ["e4", "e5"] {
            let from = game.timeline().moves().last().copied().unwrap_or(day(0));
            let mut heard = Vec::new();
            for hour in 0..40 * 24 {
                let at = from + jiff::SignedDuration::from_hours(hour);
                if let Some(Due::Remind { color, days }) = game.due(at) {
                    heard.push(days);
                    game.apply_by(color, &Action::Remind { days }, at);
                }
            }
            assert_eq!(heard, told, "{reminder_days:?}, before {mv}");
            play_at(
                &mut game,
                mv,
                from + jiff::SignedDuration::from_hours(40 * 24),
            );
        }
    }
    // Triple Block never doubles: nothing more than its reminders.
    let mut rules = Rules::iccf(TimeControl::TripleBlock(clock::TripleBlock::iccf(3, 75)));
    rules.reminder_days = vec![14];
    let game = timed(rules);
    assert_eq!(
        game.due(day(21)),
        Some(Due::Remind {
            color: Color::White,
            days: 14
        })
    );
}

/// ICCF's doubling decides when a side runs out: with 50 days for its first move, the
/// 35th day is charged 50 and the 36th 52.
#[test]
fn doubled_days_decide_the_instant_of_a_loss_on_time() {
    let rules = Rules::iccf(TimeControl::default());
    let mut game = timed(rules);
    let second = jiff::SignedDuration::from_secs(1);
    // Told once, the moment its days start to count double (and not before).
    assert_eq!(game.due(day(20) - second), None);
    assert_eq!(
        game.due(day(20)),
        Some(Due::Remind {
            color: Color::White,
            days: 20
        })
    );
    game.apply_by(Color::White, &Action::Remind { days: 20 }, day(20));
    assert_eq!(game.due(day(36) - second), None);
    assert_eq!(
        game.due(day(36)),
        Some(Due::TimeUp {
            color: Color::White,
            overdue: Overdue::TimeControl,
        })
    );
    let white = game.side_time(Color::White, day(36));
    assert_eq!(
        (white.used, white.charged),
        (36 * clock::DAY, 52 * clock::DAY)
    );
    assert_eq!(white.out_at, Some(day(36)));
}

#[test]
fn leave_stops_the_clock_and_pauses_reminders() {
    let rules = Rules {
        time_control: TimeControl::DaysPerMove { days: 10 },
        reminder_days: vec![3, 6],
        silence_days: Some(9),
        ..Rules::default()
    };
    let mut game = timed(rules);
    let leave = Leave {
        first: clock::date_of(day(1)),
        days: 5,
        special: false,
    };
    assert!(matches!(
        game.check(Color::White, &Action::Leave(leave), day(1)),
        Err(Refusal::Leave(_))
    ));
    assert_eq!(
        game.check(Color::White, &Action::Leave(leave), day(0)),
        Ok(())
    );
    game.apply_by(Color::White, &Action::Leave(leave), day(0));
    assert_eq!(game.due(day(3)), None, "on leave");
    // The game started at 08:00 the day before the leave: 16 hours count before it, then
    // the time since it ended (5 days later, at midnight).
    let used = game.side_time(Color::White, day(7)).used;
    assert_eq!(used, 2 * clock::DAY);
    // Reminders after 3 and 6 days counted, then the silence limit.
    let due = game.due(day(9));
    assert!(matches!(due, Some(Due::Remind { days: 3, .. })), "{due:?}");
    game.apply_by(Color::White, &Action::Remind { days: 3 }, day(9));
    assert_eq!(game.due(day(9)), None);
    assert!(matches!(
        game.due(day(12)),
        Some(Due::Remind { days: 6, .. })
    ));
    assert!(matches!(
        game.due(day(15)),
        Some(Due::TimeUp {
            overdue: Overdue::Silence,
            ..
        })
    ));
}

#[test]
fn the_arbiter_decides_with_a_reason() {
    let mut game = Game::new("g", "w", "b", None).unwrap();
    let mut result = GameResult::new(Some(Color::White), EndReason::Adjudication);
    result.note = Some("Black abandoned the game".to_owned());
    game.apply_by(Color::White, &Action::Adjudicate(result), T0);
    assert_eq!(
        game.result().map(ToString::to_string).as_deref(),
        Some("1-0 (adjudicated: Black abandoned the game)")
    );
    assert_eq!(
        game.result().map(|r| r.reason.termination()),
        Some("adjudication")
    );
}

fn triple_block_by_hand() -> Rules {
    Rules::iccf(
        "triple block 50 days + 3 days per move, bank 75, refill by hand"
            .parse()
            .expect("control"),
    )
}

/// docs/rules.md's worked example: White thinks 30 days (clock 23, bank 75); 10 days into
/// its next move it moves 20 days from the bank (clock 33 from then, bank 55); the move
/// 5 days later leaves 31 and 55.
#[test]
fn a_refill_moves_days_from_the_bank_to_the_clock() {
    let mut game = timed(triple_block_by_hand());
    play_at(&mut game, "e4", day(30));
    play_at(&mut game, "e5", day(30));
    let refill = Action::Refill { days: 20 };
    assert_eq!(game.check(Color::White, &refill, day(40)), Ok(()));
    game.apply_by(Color::White, &refill, day(40));
    let white = game.side_time(Color::White, day(40));
    assert_eq!(
        (white.left, white.bank),
        (Some(33 * clock::DAY), Some(55 * clock::DAY))
    );
    assert_eq!(white.out_at, Some(day(73)));
    play_at(&mut game, "Nf3", day(45));
    let white = game.side_time(Color::White, day(45));
    assert_eq!(
        (white.left, white.bank),
        (Some(31 * clock::DAY), Some(55 * clock::DAY))
    );
}

/// Every refusal of a refill, with its reason, and what a Triple Block game refuses.
#[test]
fn a_refill_is_refused_with_the_reason() {
    let mut game = timed(triple_block_by_hand());
    play_at(&mut game, "e4", day(30));
    let leave = Leave {
        first: clock::date_of(day(60)),
        days: 3,
        special: false,
    };
    for (color, action, at, says) in [
        (
            Color::White,
            Action::Refill { days: 5 },
            day(31),
            "refill refused: a clock is refilled while its side is to move",
        ),
        (
            Color::Black,
            Action::Refill { days: 0 },
            day(31),
            "refill refused: a refill is at least one day",
        ),
        (
            Color::Black,
            Action::Refill { days: 76 },
            day(31),
            "refill refused: the bank holds 75 day(s), 76 asked",
        ),
        (
            Color::Black,
            Action::Refill { days: 2 },
            day(31),
            "refill refused: the clock holds at most 50 days: 1 day(s) fit on it now, 2 asked",
        ),
        (
            Color::Black,
            Action::Refill { days: 5 },
            day(80),
            "refill refused: the clock has run out",
        ),
        (
            Color::White,
            Action::Leave(leave),
            day(31),
            "leave refused: a Triple Block game has no leave: refill the clock from the bank",
        ),
        (
            Color::White,
            Action::LongReflection,
            day(31),
            "long reflection refused: a Triple Block game has no silence limit",
        ),
    ] {
        let refused = game.check(color, &action, at).expect_err(says);
        assert!(refused.to_string().starts_with(says), "{refused}");
    }
    let plain = timed(Rules::default());
    assert_eq!(
        plain
            .check(Color::White, &Action::Refill { days: 1 }, day(1))
            .map_err(|r| r.to_string()),
        Err("refill refused: only a Triple Block game has a bank".to_owned())
    );
}

/// A long reflection declared ahead keeps the game past the silence limit on that move
/// only; the time control still ends it.
#[test]
fn a_long_reflection_waives_the_silence_limit_on_its_move() {
    let rules = Rules {
        time_control: TimeControl::MovesInDays {
            moves: 10,
            days: 50,
        },
        silence_days: Some(40),
        ..Rules::default()
    };
    let mut game = timed(rules);
    play_at(&mut game, "d4", day(1));
    // White declares for its next move while Black is to move.
    assert_eq!(
        game.check(Color::White, &Action::LongReflection, day(2)),
        Ok(())
    );
    game.apply_by(Color::White, &Action::LongReflection, day(2));
    let again = game.check(Color::White, &Action::LongReflection, day(2));
    assert!(
        matches!(&again, Err(Refusal::LongReflection(why)) if why.to_string().contains("your next move")),
        "{again:?}"
    );
    play_at(&mut game, "d5", day(3));
    // 45 days of silence: past the limit, not the clock (49 days left).
    assert_eq!(game.due(day(48)), None);
    assert_eq!(game.due(day(52)), None);
    assert_eq!(
        game.due(day(53)),
        Some(Due::TimeUp {
            color: Color::White,
            overdue: Overdue::TimeControl
        })
    );
    play_at(&mut game, "c4", day(48));
    // Black declared nothing: its silence ends the game after 40 days.
    assert_eq!(
        game.due(day(89)),
        Some(Due::TimeUp {
            color: Color::Black,
            overdue: Overdue::Silence
        })
    );
    // A game without a silence limit has nothing to waive.
    let plain = timed(Rules::default());
    assert_eq!(
        plain
            .check(Color::White, &Action::LongReflection, day(0))
            .map_err(|r| r.to_string()),
        Err(
            "long reflection refused: this game has no silence limit: there is nothing to declare"
                .to_owned()
        )
    );
}
