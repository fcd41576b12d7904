//! Random commands rendered and read back, and random words read without a panic.

use jiff::SignedDuration;
use proptest::prelude::*;

use super::*;
use crate::notation::written::CheckMark;

fn word() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_.-]{0,7}"
}

fn move_word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-h][1-8]",
        "[KQRBN][a-h][1-8]",
        "[a-h]x[a-h][1-8]",
        "[1-8]{4}",
        Just("O-O".to_owned()),
        "[КФЛС][a-h][1-8]",
    ]
}

fn number() -> impl Strategy<Value = Option<MoveNumber>> {
    proptest::option::of(
        (1u32..999, any::<bool>()).prop_map(|(number, black)| MoveNumber { number, black }),
    )
}

fn marks() -> impl Strategy<Value = Marks> {
    (any::<bool>(), any::<bool>(), 0..3u8, 0..7usize).prop_map(
        |(en_passant, draw_offer, check, annotation)| Marks {
            check: [None, Some(CheckMark::Check), Some(CheckMark::Mate)][usize::from(check)],
            annotation: [
                None,
                Some("!"),
                Some("?"),
                Some("!!"),
                Some("??"),
                Some("!?"),
                Some("?!"),
            ][annotation],
            en_passant,
            draw_offer,
        },
    )
}

fn numbered() -> impl Strategy<Value = NumberedMove> {
    (number(), move_word()).prop_map(|(number, text)| NumberedMove { number, text })
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Games),
        word().prop_map(|game| Command::Show { game }),
        (
            word(),
            number(),
            move_word(),
            marks(),
            proptest::option::of(move_word())
        )
            .prop_map(|(game, number, text, marks, repeat)| Command::Move {
                game,
                line: MoveLine {
                    number,
                    text,
                    marks,
                    repeat,
                },
            }),
        word().prop_map(|game| Command::OfferDraw { game }),
        word().prop_map(|game| Command::AcceptDraw { game }),
        word().prop_map(|game| Command::DeclineDraw { game }),
        word().prop_map(|game| Command::Resign { game }),
        (word(), any::<bool>(), proptest::option::of(numbered())).prop_map(|(game, rep, with)| {
            Command::Claim {
                game,
                claim: if rep {
                    Claim::Repetition
                } else {
                    Claim::FiftyMoves
                },
                with,
            }
        }),
        (word(), proptest::collection::vec(numbered(), 0..6))
            .prop_map(|(game, moves)| Command::Conditional { game, moves }),
        (2000i16..2100, 1i8..13, 1i8..29, 1u32..367).prop_map(|(y, m, d, days)| {
            Command::Leave {
                first: Date::new(y, m, d).unwrap(),
                days,
            }
        }),
        (
            word(),
            2000i16..2100,
            1u32..367,
            "[a-z][A-Za-zА-я0-9 ,.!]{0,40}[a-z]"
        )
            .prop_map(|(player, y, days, reason)| Command::SpecialLeave {
                player,
                first: Date::new(y, 3, 1).unwrap(),
                days,
                reason,
            }),
        (word(), 1u32..10_001).prop_map(|(game, days)| Command::Bank { game, days }),
        word().prop_map(|game| Command::LongReflection { game }),
        (word(), 0..3usize, "[a-z][A-Za-zА-я0-9 ,.!]{0,40}[a-z]").prop_map(|(game, s, reason)| {
            Command::Adjudicate {
                game,
                score: [Score::WhiteWins, Score::BlackWins, Score::Draw][s],
                reason,
            }
        }),
        proptest::option::of(
            (0i64..10_000_000).prop_map(|s| ClockSetting::Advance(SignedDuration::from_secs(s)))
        )
        .prop_map(|set| Command::Clock { set }),
        prop_oneof![
            Just(DeadAction::List),
            "[a-z0-9]{1,12}".prop_map(DeadAction::Retry),
            "[a-z0-9]{1,12}".prop_map(DeadAction::Drop),
        ]
        .prop_map(|action| Command::Dead { action }),
        (1i64..i64::MAX).prop_map(|entry| Command::Receipt { entry }),
        (
            word(),
            word(),
            word(),
            proptest::option::of(word()),
            proptest::option::of(word()),
            proptest::option::of(prop_oneof![Just(Kind::Chess), Just(Kind::DraughtsRu)])
        )
            .prop_map(|(game, white, black, event, round, kind)| Command::Create {
                game,
                white,
                black,
                kind,
                event,
                fen: None,
                round,
            }),
        (word(), "[a-zА-я<&][A-Za-zА-я0-9<>&;:,.!? ]{0,60}[a-z]")
            .prop_map(|(game, text)| Command::Message { game, text }),
        notify().prop_map(|setting| Command::Notify { setting }),
    ]
}

fn notify() -> impl Strategy<Value = Notify> {
    let address = "[a-z0-9._+-]{1,12}@[a-z0-9-]{1,12}\\.[a-z]{2,6}";
    let zone = proptest::option::of(prop_oneof![
        Just("UTC".to_owned()),
        "[A-Z][a-z]{2,9}/[A-Z][a-z_]{2,12}",
    ]);
    prop_oneof![
        Just(Notify::Off),
        address.prop_map(|address| Notify::Each { address }),
        (0u8..24, zone, address).prop_map(|(hour, zone, address)| Notify::Digest {
            hour,
            zone,
            address
        }),
    ]
}

proptest! {
    #[test]
    fn random_commands_render_and_read_back(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(Command::parse(&line), Ok(command), "{}", line);
    }

    #[test]
    fn random_words_never_panic(line in "\\PC{0,80}") {
        let _ = Command::parse(&line);
        let _ = Command::parse_in(&line, "g");
        let _ = MoveLine::parse(&line);
    }
}
