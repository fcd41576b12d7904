//! The clock line of every control, as stored before it said more, and in every language.

use super::*;
use crate::relay::render::clock::ordinal;

/// The clock line of every control, written out from the rules (docs/rules.md): what was
/// used, what it was charged where that differs, what is left (Fischer's and Triple
/// Block's clock, with its bank), and the side told once its days count double. English
/// mails and pages say the same words, from the catalog.
#[test]
fn every_control_writes_its_clock_line() {
    let exact = |time_control| Rules {
        time_control,
        ..Rules::default()
    };
    let fischer = |base, increment, cap| TimeControl::Fischer {
        base,
        increment,
        cap,
    };
    let block = TimeControl::TripleBlock(TripleBlock::iccf(3, 75));
    let iccf = Rules::iccf;
    let d = 24;
    type Case = (
        Rules,
        &'static [(&'static str, i64)],
        i64,
        &'static str,
        Option<&'static str>,
    );
    let cases: Vec<Case> = vec![
        // Moves in days, counted exactly: nothing differs, the line as it always was.
        (
            Rules::default(),
            &[("e4", 3 * 24 + 4)],
            4 * 24 + 4,
            "clock: White 3d 04h used, 46d 20h left to move 10 | Black 1d 00h used, 49d 00h left to move 10 (running)",
            None,
        ),
        // ICCF: whole days, the part of a day dropped...
        (
            iccf(TimeControl::default()),
            &[],
            20 * d - 1,
            "clock: White 19d 23h used, charged 19d, 31d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
            None,
        ),
        // ... 20 days charged as 20, and the 21st day counts double from its start ...
        (
            iccf(TimeControl::default()),
            &[],
            20 * d,
            "clock: White 20d 00h used, 30d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
            Some("White: 21st day on this move, days now count double"),
        ),
        // ... 21 days charged 22 ...
        (
            iccf(TimeControl::default()),
            &[],
            21 * d,
            "clock: White 21d 00h used, charged 22d, 28d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
            Some("White: 22nd day on this move, days now count double"),
        ),
        // ... 23 days (and hours) charged 26.
        (
            iccf(TimeControl::default()),
            &[],
            23 * d + 5,
            "clock: White 23d 05h used, charged 26d, 24d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
            Some("White: 24th day on this move, days now count double"),
        ),
        // Days per move, ICCF: the move in hand, its charge, the other side waiting.
        (
            iccf(TimeControl::DaysPerMove { days: 30 }),
            &[],
            21 * d + 3,
            "clock: White 21d 03h on this move, charged 22d, 8d 00h left (running) | Black waiting",
            Some("White: 22nd day on this move, days now count double"),
        ),
        // Fischer, counted exactly: the clock, no control move.
        (
            exact(fischer(30, 3, None)),
            &[("e4", 2 * 24 + 5)],
            3 * d + 5,
            "clock: White 2d 05h used, 30d 19h left | Black 1d 00h used, 29d 00h left (running)",
            None,
        ),
        // Fischer, ICCF: White charged 2 whole days (30 - 2 + 3); Black 22 days, charged 24.
        (
            iccf(fischer(30, 3, None)),
            &[("e4", 2 * 24 + 5)],
            24 * d + 5,
            "clock: White 2d 05h used, charged 2d, 31d 00h left | Black 22d 00h used, charged 24d, 6d 00h left (running)",
            Some("Black: 23rd day on this move, days now count double"),
        ),
        // Fischer with a cap: the clock holds at most 31 days however quick the moves.
        (
            exact(fischer(30, 1, Some(31))),
            &[("e4", 0), ("e5", 0), ("Nf3", 0)],
            0,
            "clock: White 0d 00h used, 31d 00h left | Black 0d 00h used, 31d 00h left (running)",
            None,
        ),
        // Triple Block: 48 + 3 = 51, one day over the clock's 50 to a bank already full.
        (
            iccf(block),
            &[("e4", 2 * 24)],
            12 * d,
            "clock: White clock 50d 00h, bank 75d | Black clock 40d 00h, bank 75d (running)",
            None,
        ),
        // Triple Block: 9d 12h + 3 refilled from the bank to 50, the bank left with part
        // of a day.
        (
            iccf(block),
            &[("e4", 40 * 24 + 12)],
            40 * d + 12,
            "clock: White clock 50d 00h, bank 37d 12h | Black clock 50d 00h, bank 75d (running)",
            None,
        ),
    ];
    for (rules, moves, now, line, note) in cases {
        let game = timed(rules, moves);
        let c = Clocks::of(&game, at(now)).expect("a limit");
        assert_eq!(clocks(&c), line, "{moves:?} at {now}h");
        assert_eq!(doubling_note(&c).as_deref(), note, "{line}");
        // A push says both; SHOW says the note on a line of its own.
        let pushed = clocks_and_note(&c);
        assert_eq!(
            pushed,
            match note {
                Some(note) => format!("{line}; {note}"),
                None => line.to_owned(),
            }
        );
        let shown = show(&game, Notation::Iccf, "alice", at(now));
        assert!(shown.contains(&format!("\n{line}")), "{shown}");
        if let Some(note) = note {
            assert!(shown.contains(&format!("{line}\n{note}")), "{shown}");
        }
        // English mails and pages say what the protocol says.
        assert_eq!(clock_words(Tongue::En, &c), pushed);
        // A notice stored before the charge and the bank were kept reads as it was.
        let stored = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Clocks>(&stored).unwrap(), c);
    }
}

/// A notice written before its clocks said more (no charge, no move's days, no bank, no
/// doubling; Fischer and Triple Block were written as moves in days) reads as it did.
#[test]
fn clocks_stored_before_the_charge_and_the_bank_read_as_they_were() {
    let stored = r#"{"kind":"moves_in_days","white":{"used":93600,"left":4226400,"by_move":10,"running":true,"on_leave":false},"black":{"used":0,"left":4320000,"by_move":10,"running":false,"on_leave":false}}"#;
    let c: Clocks = serde_json::from_str(stored).unwrap();
    assert_eq!(
        clocks(&c),
        "clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10"
    );
    assert_eq!(doubling_note(&c), None);
    // And the new fields are written only when they say something.
    assert_eq!(serde_json::to_string(&c).unwrap(), stored);
}

/// Mails in Russian and Ukrainian say the clocks in their words: the charge, the bank,
/// the doubling.
#[test]
fn the_clocks_speak_the_readers_language() {
    let iccf = timed(Rules::iccf(TimeControl::default()), &[]);
    let c = Clocks::of(&iccf, at(23 * 24 + 5)).unwrap();
    assert_eq!(
        clock_words(Tongue::Ru, &c),
        "часы: Белые: 23 дн. 05 ч использовано, засчитано 26 дн., осталось 24 дн. 00 ч до 10-го хода (часы идут) | Чёрные: 0 дн. 00 ч использовано, осталось 50 дн. 00 ч до 10-го хода; Белые: 24-й день на этом ходу, теперь каждый день считается вдвойне"
    );
    assert_eq!(
        clock_words(Tongue::Uk, &c),
        "годинник: Білі: 23 дн. 05 год використано, зараховано 26 дн., залишилося 24 дн. 00 год до 10-го ходу (годинник іде) | Чорні: 0 дн. 00 год використано, залишилося 50 дн. 00 год до 10-го ходу; Білі: 24-й день на цьому ході, тепер кожен день рахується подвійно"
    );
    let block = timed(
        Rules::iccf(TimeControl::TripleBlock(TripleBlock::iccf(3, 75))),
        &[("e4", 40 * 24 + 12)],
    );
    let c = Clocks::of(&block, at(41 * 24)).unwrap();
    assert_eq!(
        clock_words(Tongue::Ru, &c),
        "часы: Белые: на часах 50 дн. 00 ч, в банке 37 дн. 12 ч | Чёрные: на часах 49 дн. 12 ч, в банке 75 дн. (часы идут)"
    );
    assert_eq!(
        clock_words(Tongue::Uk, &c),
        "годинник: Білі: на годиннику 50 дн. 00 год, у банку 37 дн. 12 год | Чорні: на годиннику 49 дн. 12 год, у банку 75 дн. (годинник іде)"
    );
    // Below the protocol's line of a mail, for a reader of any language.
    let reminder = Notice::Reminder {
        game: "g1".into(),
        days: 23,
        clocks: Some(c.clone()),
    };
    assert_eq!(
        mail_clocks(&reminder, Some(Lang::Russian)),
        Some(clock_words(Tongue::Ru, &c))
    );
    assert_eq!(mail_clocks(&Notice::from_body("legacy"), None), None);
    // English ordinals, as the protocol writes them.
    for (day, text) in [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
    ] {
        assert_eq!(ordinal(day), text);
        assert_eq!(
            Tongue::En.say(
                crate::catalog::Key::ClockDoubling,
                &[("side", "white".into()), ("day", day.into())]
            ),
            format!("White: {text} day on this move, days now count double")
        );
    }
}
