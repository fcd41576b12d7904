//! Every reply, refusal and reason in every language: none of the line protocol's English
//! words on a Russian or Ukrainian page, and the values kept.

use jiff::civil::Date;
use shakmaty::Color;

use super::*;
use crate::game::clock::{Leave, TripleBlock};
use crate::game::{ColorName, EndReason, Kind, MoveError, board};
use crate::notation::number::MoveNumber;
use crate::notation::{Lang, LangSet, ReadIn};
use crate::relay::Status;

/// Words of the line protocol's English replies and refusals: none may reach a Russian or
/// Ukrainian page.
const ENGLISH: &[&str] = &[
    "accepted",
    "clock",
    "used",
    "left",
    "move",
    "moves",
    "no",
    "such",
    "tick",
    "confirm",
    "in",
    "days",
    "day",
    "refused",
    "legal",
    "game",
    "draw",
    "your",
    "not",
    "the",
    "is",
    "and",
    "or",
    "for",
    "with",
    "leave",
    "bank",
    "offer",
    "ambiguous",
    "could",
    "write",
    "piece",
    "square",
    "limit",
    "silence",
    "line",
    "message",
    "sent",
    "time",
    "claim",
    "over",
    "it",
    "be",
    "to",
    "resignation",
    "box",
    "reflection",
    "long",
];

fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .map(str::to_ascii_lowercase)
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect()
}

/// Why each text is refused as a move on the board of `kind` at `fen`, read as `read_in`.
fn move_errors(kind: Kind, fen: Option<&str>, texts: &[&str], read_in: ReadIn) -> Vec<MoveError> {
    let pos = board(kind, fen).expect("a board");
    texts
        .iter()
        .map(|text| pos.read_in(text, read_in).expect_err(text))
        .collect()
}

fn every_move_error() -> Vec<MoveError> {
    let any = ReadIn::new(None, LangSet::ALL);
    let mut errors = move_errors(
        Kind::Chess,
        None,
        &["e5", "e9", "", "Qh5", "0000", "Zf3", "e4xx"],
        any,
    );
    // Two knights reach c3; a pawn promotes without its piece.
    errors.extend(move_errors(
        Kind::Chess,
        Some("4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1"),
        &["Nc3"],
        any,
    ));
    errors.extend(move_errors(
        Kind::Chess,
        Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        &["a8"],
        any,
    ));
    // A Russian knight in a game whose moves were English.
    let english = ReadIn::new(None, LangSet::only(Lang::English));
    errors.extend(move_errors(Kind::Chess, None, &["Кf3"], english));
    errors.extend(move_errors(
        Kind::DraughtsRu,
        None,
        &["c3-e5", "a1-b2", "z9-c3", "c3", "c3-d4:e5", "22-18-c3", ""],
        any,
    ));
    errors
}

fn every_refusal() -> Vec<Refusal> {
    let leave = Leave {
        first: Date::constant(2030, 1, 10),
        days: 5,
        special: false,
    };
    let mut refusals = vec![
        Refusal::GameOver(GameResult::new(Some(Color::White), EndReason::Checkmate)),
        Refusal::NotYourTurn(ColorName(Color::Black)),
        Refusal::WrongNumber {
            written: 7,
            expected: 1,
        },
        Refusal::BlackNumberForWhite {
            written: MoveNumber {
                number: 3,
                black: true,
            },
            expected: 3,
        },
        Refusal::NoDrawOffer,
        Refusal::OwnDrawOffer,
        Refusal::WrongRepeat {
            written: "Nf3".into(),
            actual: "7163".into(),
        },
        Refusal::DrawTooEarly { from: 20, now: 3 },
        Refusal::WrongClaim(ClaimRefusal::IllegalMove),
        Refusal::WrongClaim(ClaimRefusal::Repetition {
            after_move: true,
            seen: 2,
        }),
        Refusal::WrongClaim(ClaimRefusal::NoFiftyMoveRule),
        Refusal::WrongClaim(ClaimRefusal::FiftyMoves {
            after_move: false,
            moves: 21,
        }),
        Refusal::Leave(LeaveRefusal::TripleBlock),
        Refusal::Leave(LeaveRefusal::NoDays),
        Refusal::Leave(LeaveRefusal::NotAhead {
            earliest: Date::constant(2030, 1, 2),
        }),
        Refusal::Leave(LeaveRefusal::Overlaps { announced: leave }),
        Refusal::Leave(LeaveRefusal::OverYear {
            asked: 20,
            year: 2030,
            taken: 30,
            allowed: 45,
        }),
        Refusal::Refill(RefillRefusal::NoBank),
        Refusal::Refill(RefillRefusal::NotToMove),
        Refusal::Refill(RefillRefusal::NoDays),
        Refusal::Refill(RefillRefusal::OutOfTime),
        Refusal::Refill(RefillRefusal::BankShort {
            bank_days: 35,
            asked: 40,
        }),
        Refusal::Refill(RefillRefusal::ClockFull {
            clock_days: 50,
            room_days: 17,
            asked: 18,
        }),
        Refusal::LongReflection(ReflectionRefusal::TripleBlock),
        Refusal::LongReflection(ReflectionRefusal::NoSilenceLimit),
        Refusal::LongReflection(ReflectionRefusal::Already { next: true }),
        Refusal::Conditional(LineRefusal::YourMove),
        Refusal::Conditional(LineRefusal::Unpaired),
        Refusal::Conditional(LineRefusal::TooLong { max: 40 }),
        Refusal::Conditional(LineRefusal::OverBefore { text: "Nf3".into() }),
        Refusal::Conditional(LineRefusal::InMove {
            index: 1,
            text: "7. e5".into(),
            why: Box::new(Refusal::WrongNumber {
                written: 7,
                expected: 1,
            }),
        }),
    ];
    for e in every_move_error() {
        refusals.push(Refusal::Conditional(LineRefusal::InMove {
            index: 2,
            text: "x".into(),
            why: Box::new(Refusal::Move(e.clone())),
        }));
        refusals.push(Refusal::Move(e));
    }
    refusals
}

fn every_said() -> Vec<Said> {
    let leave = Leave {
        first: Date::constant(2030, 1, 10),
        days: 5,
        special: false,
    };
    let moved = Said::Moved {
        number: 6,
        color: Color::White,
        written: "Сf1—g2 (6172)".into(),
        draw_offer: true,
    };
    let mut said = vec![
        moved.clone(),
        Said::DrawOffered,
        Said::DrawAccepted,
        Said::DrawDeclined,
        Said::Resigned,
        Said::Claimed {
            claim: Claim::Repetition,
        },
        Said::Claimed {
            claim: Claim::FiftyMoves,
        },
        Said::LineSet {
            pairs: vec![("12... Кf6".into(), "13. Сg5".into())],
        },
        Said::LineCancelled,
        Said::MessageSent { mended: true },
        Said::LeaveTaken {
            leave,
            games: vec!["g1".into(), "g2".into()],
            proposed: vec!["g3".into()],
            without: vec![("tb1".into(), LeaveRefusal::TripleBlock)],
        },
        Said::Refilled { days: 3 },
        Said::ReflectionDeclared { number: 12 },
        Said::Proposed,
        Said::NoGameForLeave,
        Said::NotRecorded,
        Said::ShuttingDown,
    ];
    for fate in [
        MessageFate::Sent { mended: false },
        MessageFate::Empty,
        MessageFate::NotSent(Some(Box::new(Said::NotRecorded))),
        MessageFate::NotSent(None),
    ] {
        said.push(Said::WithMessage {
            command: Box::new(moved.clone()),
            message: fate,
        });
    }
    for refusal in every_refusal() {
        said.push(Said::RefusedIn {
            game: "g1".into(),
            refusal: refusal.clone(),
        });
        said.push(Said::Refused(refusal));
    }
    said
}

/// Regression: a Russian page said `accepted g1 6. Cg2 (6172); clock: White 0d 00h used,
/// ...` after a move and `no such move here; no legal move goes to h8` after a refusal,
/// the line protocol's English. Every reply, refusal and reason is said in the page's
/// language.
#[test]
fn regression_a_russian_page_showed_the_protocols_english_replies() {
    let said = every_said();
    assert!(said.len() > 80, "{}", said.len());
    for tongue in [Tongue::Ru, Tongue::Uk] {
        for s in &said {
            let text = said_words(tongue, s);
            assert!(!text.trim().is_empty(), "{s:?}");
            assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
        }
        for own in [
            Own::ConfirmResignation,
            Own::EmptyMessage,
            Own::BadNumber("x1".into()),
            Own::NotUnderstood("12... Кf6 13.".into()),
            Own::NotAnAction,
            Own::TooMany,
        ] {
            let text = saying(tongue, &Told::Page(own)).text;
            assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
        }
        let controls = [
            TimeControl::MovesInDays {
                moves: 10,
                days: 50,
            },
            TimeControl::DaysPerMove { days: 3 },
            TimeControl::Fischer {
                base: 30,
                increment: 1,
                cap: Some(45),
            },
            TimeControl::TripleBlock(TripleBlock {
                clock: 50,
                increment: 3,
                moves: 50,
                bank: 75,
                auto_refill: false,
                protection: Some(5),
            }),
            TimeControl::Unlimited,
        ];
        for control in controls {
            let text = time_control(tongue, &control);
            assert!(english_words(&text).is_empty(), "{tongue:?}: {text}");
        }
    }
    let ru = |s: &Said| said_words(Tongue::Ru, s);
    assert_eq!(
        ru(&every_said()[0]),
        "Ход 6. Сf1—g2 (6172) принят, с предложением ничьей."
    );
    assert_eq!(
        time_control(
            Tongue::Ru,
            &TimeControl::MovesInDays {
                moves: 10,
                days: 50
            }
        ),
        "10 ходов за 50 дней"
    );
}

/// The reasons keep what the protocol's words say: the squares, the legal moves, the
/// numbers.
#[test]
fn a_refusal_keeps_its_values_in_every_language() {
    let illegal = &every_move_error()[0];
    for tongue in Tongue::ALL {
        let text = refusal_words(tongue, &Refusal::Move(illegal.clone()));
        assert!(text.contains("e5"), "{text}");
    }
    assert_eq!(
        refusal_words(Tongue::En, &Refusal::Move(illegal.clone())),
        "No such move here: no legal move goes to e5."
    );
    assert_eq!(
        refusal_words(Tongue::Uk, &Refusal::NotYourTurn(ColorName(Color::White))),
        "Зараз не ваш хід: ходять білі."
    );
    let resign = saying(Tongue::Ru, &Told::Page(Own::ConfirmResignation)).text;
    assert_eq!(resign, "Отметьте флажок, чтобы подтвердить сдачу.");
    // A reply that says nothing typed is told in the protocol's words, marked English.
    let untyped = saying(Tongue::Ru, &Told::Relay(Reply::new(Status::Done, "done")));
    assert!(untyped.english && untyped.text == "done");
}
