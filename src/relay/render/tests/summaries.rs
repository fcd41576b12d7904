//! A mail's summary and details in the reader's language; in English, what the line says.

use super::notices::table;
use super::*;
use crate::relay::render::notice::parts;

#[test]
fn summaries_drop_the_game() {
    let m = Notice::Move(Box::new(move_notice(&["e4"], "e5")));
    assert_eq!(summary(&m, &san_en()), "move 1... e5 (5755) by boris");
    let r = Notice::Reminder {
        game: "g1".into(),
        days: 3,
        clocks: None,
    };
    assert_eq!(
        summary(&r, &iccf()),
        "reminder your move has waited 3 days; "
    );
}

#[test]
fn a_russian_reader_reads_summaries_in_russian() {
    let m = Notice::Move(Box::new(move_notice(&["e4"], "e5")));
    assert_eq!(summary(&m, &lan_ru()), "ход 1... e7—e5 (5755), boris");
    let started = Notice::GameStarted {
        game: "g1".into(),
        side: Side::Black,
        opponent: "alice".into(),
    };
    assert_eq!(
        summary(&started, &lan_ru()),
        "партия началась: вы играете чёрными против alice"
    );
    let result = Notice::Result {
        game: "g1".into(),
        pgn: "0-1".into(),
        text: "0-1 (checkmate)".into(),
    };
    assert_eq!(summary(&result, &lan_ru()), "партия окончена: 0-1");
    let recorded = Notice::Recorded {
        game: "g1".into(),
        what: "your move 5755 is in the record".into(),
        mv: Some(Box::new(MoveData::of(
            &game(&["e4"]),
            &next(&game(&["e4"]), "e5"),
        ))),
    };
    assert_eq!(
        summary(&recorded, &lan_ru()),
        "ваш ход 1... e7—e5 (5755) записан в партию"
    );
    // Every typed item has a Russian summary of its own.
    for (notice, expected) in table() {
        let ru = summary(&notice, &lan_ru());
        assert!(!ru.is_empty() && ru != summary(&notice, &san_en()), "{ru}");
        assert!(!ru.contains(expected[2]), "{ru}");
    }
}

/// An English summary is the protocol's line with its keyword lower-cased and without its
/// game, as it was before the catalog; only counts read as English counts ("2 pairs").
#[test]
fn an_english_summary_says_what_the_line_says() {
    for (notice, _) in table() {
        for reader in [iccf(), san_en()] {
            let (verb, _, rest) = parts(&notice, &reader).unwrap();
            let rest = rest.trim_start_matches(':').trim_start();
            let line = format!("{} {rest}", verb.to_lowercase());
            let line = line
                .replace("2 pair(s)", "2 pairs")
                .replace("20 day(s)", "20 days");
            assert_eq!(summary(&notice, &reader), line);
        }
    }
}

#[test]
fn a_ukrainian_reader_reads_summaries_in_ukrainian() {
    let m = Notice::Move(Box::new(move_notice(&["e4", "e5"], "Nf3")));
    assert_eq!(summary(&m, &san_uk()), "хід 2. Кf3 (7163), alice");
    let started = Notice::GameStarted {
        game: "g1".into(),
        side: Side::White,
        opponent: "boris".into(),
    };
    assert_eq!(
        summary(&started, &san_uk()),
        "партія почалася: ви граєте білими проти boris"
    );
    let reminder = Notice::Reminder {
        game: "g1".into(),
        days: 3,
        clocks: None,
    };
    assert_eq!(summary(&reminder, &san_uk()), "ваш хід чекає вже 3 дні");
    // Every typed item has a Ukrainian summary of its own, unlike the Russian one.
    for (notice, _) in table() {
        let uk = summary(&notice, &san_uk());
        assert!(!uk.is_empty(), "{notice:?}");
        assert_ne!(uk, summary(&notice, &san_en()));
        assert_ne!(uk, summary(&notice, &lan_ru()));
    }
    // The protocol's line stays the protocol's, in the reader's letters.
    for (moves, mv, line) in [
        (&["a4", "e5"][..], "Ra3", "MOVE g1 2. Тa3 (1113) by alice"),
        (&["e4", "e5"][..], "Ke2", "MOVE g1 2. Крe2 (5152) by alice"),
        (&["e4", "e5"][..], "Qh5", "MOVE g1 2. Фh5 (4185) by alice"),
        (&["e4", "e5"][..], "Nf3", "MOVE g1 2. Кf3 (7163) by alice"),
        (
            &["e4", "e5", "Nf3", "Nc6"][..],
            "Bb5",
            "MOVE g1 3. Сb5 (6125) by alice",
        ),
    ] {
        let m = Notice::Move(Box::new(move_notice(moves, mv)));
        assert_eq!(notice(&m, &san_uk()), line);
    }
}

#[test]
fn mail_details_speak_the_readers_language() {
    let welcome = Notice::Welcome {
        player: "olena".into(),
        name: "Olena".into(),
        secret: "k-1".into(),
        notation: "san".into(),
    };
    let en = mail_details(&welcome, "relay@x.test", None).unwrap();
    assert_eq!(
        en,
        "Your key: k-1\n\
         Keep it to yourself: it proves a mail is yours.\n\n\
         To move, write to relay@x.test with the game id and key:k-1 in the subject\n\
         and the move on a line of its own, in any notation (12. Nf3, 7163, g1-f3);\n\
         or reply to the relay's last mail about the game.\n"
    );
    let ru = mail_details(&welcome, "relay@x.test", Some(Lang::Russian)).unwrap();
    assert_eq!(
        ru,
        "Ваш ключ: k-1\n\
         Храните его в тайне: он доказывает, что письмо от вас.\n\n\
         Чтобы сделать ход, напишите на relay@x.test: в теме — номер партии и key:k-1,\n\
         в тексте — ход на отдельной строке в любой записи (12. Кf3, 7163, g1-f3).\n\
         Или ответьте на последнее письмо о партии.\n"
    );
    let uk = mail_details(&welcome, "relay@x.test", Some(Lang::Ukrainian)).unwrap();
    assert!(
        uk.starts_with("Ваш ключ: k-1\nЗберігайте його в таємниці"),
        "{uk}"
    );
    let event = Notice::EventStarted {
        event: "e".into(),
        name: "Club".into(),
        games: vec![crate::journal::notice::EventGame {
            game: "e-1".into(),
            side: Side::Black,
            opponent: "boris".into(),
            round: 2,
            board: 1,
        }],
    };
    for (lang, text) in [
        (
            None,
            "round 2, board 1: game e-1, you play Black against boris\n",
        ),
        (
            Some(Lang::Russian),
            "тур 2, доска 1: партия e-1, вы играете чёрными против boris\n",
        ),
        (
            Some(Lang::Ukrainian),
            "тур 2, дошка 1: партія e-1, ви граєте чорними проти boris\n",
        ),
    ] {
        assert_eq!(mail_details(&event, "r@x", lang).unwrap(), text);
    }
}

/// A refill and a long reflection, as docs/rules.md quotes them, in Russian and Ukrainian.
#[test]
fn a_refill_and_a_long_reflection_read_in_the_readers_language() {
    let refill = Notice::OwnClock {
        game: "g1".into(),
        by: "alice".into(),
        side: Side::White,
        act: ClockAct::Refill { days: 20 },
        clocks: None,
    };
    assert_eq!(
        summary(&refill, &lan_ru()),
        "alice (белые): из банка на часы переведено 20 дней"
    );
    assert_eq!(
        summary(&refill, &san_uk()),
        "alice (білі): з банку на годинник переведено 20 днів"
    );
    let long = Notice::OwnClock {
        game: "g1".into(),
        by: "boris".into(),
        side: Side::Black,
        act: ClockAct::LongReflection { number: 2 },
        clocks: None,
    };
    assert_eq!(
        summary(&long, &lan_ru()),
        "boris (чёрные) заявляет долгое обдумывание хода 2: срок молчания не завершит на нём партию"
    );
}
