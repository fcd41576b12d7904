//! Every kind of entry read back as written, and written back byte for byte as read.

use proptest::prelude::*;

use super::*;
use crate::command::Notify;
use crate::event::Viewing;
use crate::game::clock::{Rules, TimeControl};

/// Examples of what entries of `kind` say. A `match` without a catch-all: a new kind does not
/// compile until it has examples here, so the round trip below covers it.
fn examples(kind: EntryKind) -> Vec<Meaning> {
    let leave = Leave {
        first: jiff::civil::date(2026, 7, 1),
        days: 14,
        special: false,
    };
    let player = PlayerRecord {
        id: "carol".to_owned(),
        name: "Carol Ruiz".to_owned(),
        notation: "san".to_owned(),
        lang: Some("uk".to_owned()),
        reach: "email".to_owned(),
        email: Some("carol@example.org".to_owned()),
        callsign: None,
        aprs_width: None,
    };
    match kind {
        EntryKind::GameStart => vec![
            Meaning::GameStart(Box::new(GameStartDetail {
                kind: Kind::Chess,
                white: "alice".to_owned(),
                black: "boris".to_owned(),
                event: None,
                fen: None,
                rules: None,
                round: None,
                board: None,
                leave: [Vec::new(), Vec::new()],
                authority: Authority::White,
            })),
            Meaning::GameStart(Box::new(GameStartDetail {
                kind: Kind::DraughtsRu,
                white: "alice".to_owned(),
                black: "boris".to_owned(),
                event: Some("e1".to_owned()),
                fen: Some("W:W21,22:B1,2".to_owned()),
                rules: Some(Rules {
                    time_control: TimeControl::DaysPerMove { days: 5 },
                    ..Rules::unlimited()
                }),
                round: Some("2".to_owned()),
                board: Some(3),
                leave: [vec![leave], Vec::new()],
                authority: Authority::Black,
            })),
        ],
        EntryKind::Move => vec![
            Meaning::Move {
                iccf: "5254".to_owned(),
                draw_offer: false,
            },
            Meaning::Move {
                iccf: "7163".to_owned(),
                draw_offer: true,
            },
        ],
        EntryKind::Rejected => vec![Meaning::Rejected {
            reason: "not your turn".to_owned(),
        }],
        EntryKind::DrawOffer => vec![Meaning::DrawOffer],
        EntryKind::DrawAccept => vec![Meaning::DrawAccept],
        EntryKind::DrawDecline => vec![Meaning::DrawDecline],
        EntryKind::Resign => vec![Meaning::Resign],
        EntryKind::Result => vec![Meaning::Result {
            text: "1-0 (resignation)".to_owned(),
        }],
        EntryKind::Leave => vec![Meaning::Leave(leave)],
        EntryKind::Conditional => vec![
            Meaning::Conditional { line: Vec::new() },
            Meaning::Conditional {
                line: vec!["5254".to_owned(), "5755".to_owned()],
            },
        ],
        EntryKind::Claim => vec![
            Meaning::Claim {
                claim: Claim::Repetition,
                iccf: None,
            },
            Meaning::Claim {
                claim: Claim::FiftyMoves,
                iccf: Some("7163".to_owned()),
            },
        ],
        EntryKind::TimeUp => vec![
            Meaning::TimeUp(TimeUpDetail {
                overdue: Overdue::TimeControl,
                forfeit: true,
            }),
            Meaning::TimeUp(TimeUpDetail {
                overdue: Overdue::Silence,
                forfeit: false,
            }),
        ],
        EntryKind::Reminder => vec![Meaning::Reminder { days: 7 }],
        EntryKind::Adjudication => vec![
            Meaning::Adjudication(AdjudicationDetail {
                result: "1-0".to_owned(),
                reason: "won ending".to_owned(),
                withdrawal: false,
            }),
            Meaning::Adjudication(AdjudicationDetail {
                result: "0-1".to_owned(),
                reason: "withdrew".to_owned(),
                withdrawal: true,
            }),
        ],
        EntryKind::Stopped => vec![Meaning::Stopped {
            reason: "entry 7 of game m1's record does not apply here".to_owned(),
        }],
        EntryKind::SpecialLeave => vec![Meaning::SpecialLeave(SpecialLeaveDetail {
            player: "boris".to_owned(),
            first: jiff::civil::date(2027, 3, 1),
            days: 60,
            reason: "illness, with a doctor's note".to_owned(),
        })],
        EntryKind::Message => vec![Meaning::Message {
            text: "good luck \"and\" thanks".to_owned(),
        }],
        EntryKind::SigningKey => vec![Meaning::SigningKey],
        EntryKind::KeyRotation => vec![Meaning::KeyRotation(RotationDetail {
            old: "aa".repeat(32),
            new: "bb".repeat(32),
            signature: "cc".repeat(64),
        })],
        EntryKind::Proposal => vec![
            Meaning::Proposal {
                command: "MOVE g1 5254 (=)".to_owned(),
                iccf: Some("5254".to_owned()),
            },
            Meaning::Proposal {
                command: "RESIGN g1".to_owned(),
                iccf: None,
            },
        ],
        EntryKind::PlayerAdd => vec![Meaning::PlayerAdd(player.clone())],
        EntryKind::PlayerSet => vec![Meaning::PlayerSet(PlayerRecord {
            lang: None,
            email: None,
            reach: "radio".to_owned(),
            callsign: Some("N0CALL-7".to_owned()),
            aprs_width: Some(45),
            ..player
        })],
        EntryKind::PlayerSecret => vec![Meaning::PlayerSecret(SecretDetail {
            player: "carol".to_owned(),
        })],
        EntryKind::EventNew => vec![Meaning::EventNew(Box::new(Event {
            id: "e1".to_owned(),
            name: "Autumn".to_owned(),
            site: "ICCF".to_owned(),
            system: None,
            game: Kind::Chess,
            rules: Rules::unlimited(),
            view: Viewing::Delay(2),
            timeout_bar_days: None,
            rated: false,
        }))],
        EntryKind::EventEnter => vec![
            Meaning::EventEnter(EnterDetail {
                event: "e1".to_owned(),
                team: Some("north".to_owned()),
                players: vec!["alice".to_owned(), "boris".to_owned()],
                overriding: None,
            }),
            Meaning::EventEnter(EnterDetail {
                event: "e1".to_owned(),
                team: None,
                players: vec!["carol".to_owned()],
                overriding: Some("lost on a server outage".to_owned()),
            }),
        ],
        EntryKind::EventDraw => vec![Meaning::EventDraw(DrawDetail {
            event: "e1".to_owned(),
            seed: "00ff".to_owned(),
            order: vec!["boris".to_owned(), "alice".to_owned()],
            ratings: Vec::new(),
        })],
        EntryKind::EventStart => vec![Meaning::EventStart(StartDetail {
            event: "e1".to_owned(),
            games: 6,
        })],
        EntryKind::EventWithdraw => vec![Meaning::EventWithdraw(WithdrawDetail {
            event: "e1".to_owned(),
            player: "boris".to_owned(),
            reason: "ill".to_owned(),
        })],
        EntryKind::ClockSet => vec![Meaning::ClockSet {
            at: "2026-12-01T10:00:00Z".parse().expect("time"),
        }],
        EntryKind::Refill => vec![Meaning::Refill { days: 1 }, Meaning::Refill { days: 75 }],
        EntryKind::LongReflection => vec![Meaning::LongReflection],
        EntryKind::Notify => vec![
            Meaning::Notify(NotifyDetail {
                player: "carol".to_owned(),
                notify: Notify::Off,
            }),
            Meaning::Notify(NotifyDetail {
                player: "carol".to_owned(),
                notify: Notify::Each {
                    address: "carol@example.org".to_owned(),
                },
            }),
            Meaning::Notify(NotifyDetail {
                player: "carol".to_owned(),
                notify: Notify::Digest {
                    hour: 8,
                    zone: None,
                    address: "carol@example.org".to_owned(),
                },
            }),
            Meaning::Notify(NotifyDetail {
                player: "carol".to_owned(),
                notify: Notify::Digest {
                    hour: 19,
                    zone: Some("Europe/Kyiv".to_owned()),
                    address: "carol@example.org".to_owned(),
                },
            }),
        ],
        EntryKind::NotifyDigest => vec![Meaning::NotifyDigest(DigestDetail {
            player: "carol".to_owned(),
            due: "2026-12-01T08:00:00Z".parse().expect("time"),
        })],
        EntryKind::RatingSet => vec![Meaning::RatingSet(RatingDetail {
            player: "carol".to_owned(),
            rating: 1850,
            deviation: 120,
            reason: "ICCF list 2026/4".to_owned(),
        })],
        EntryKind::EventLot => vec![Meaning::EventLot(LotDetail {
            event: "cup".to_owned(),
            round: 2,
            number: 1,
            players: ["anna".to_owned(), "boris".to_owned()],
            seed: "00".repeat(32),
            winner: "boris".to_owned(),
        })],
        EntryKind::RemoteStatus => vec![
            Meaning::RemoteStatus(RemoteStatusDetail {
                remote: "iccf".to_owned(),
                player: "carol".to_owned(),
                health: RemoteHealth::Paused,
                stamp: "9f".repeat(32),
                why: String::new(),
            }),
            Meaning::RemoteStatus(RemoteStatusDetail {
                remote: "iccf".to_owned(),
                player: "carol".to_owned(),
                health: RemoteHealth::Failing,
                stamp: String::new(),
                why: "cannot connect to www.iccf.com".to_owned(),
            }),
        ],
    }
}

/// Encoded, then decoded: the same meaning, of the same kind; decoded, then encoded: the same
/// columns.
fn round_trip(meaning: &Meaning) {
    let encoded = meaning.encode().expect("encode");
    assert_eq!(encoded.kind, meaning.kind());
    let decoded = Meaning::decode(encoded.kind, encoded.iccf.as_deref(), &encoded.detail)
        .unwrap_or_else(|e| panic!("{meaning:?} does not read back: {e}"));
    assert_eq!(&decoded, meaning);
    assert_eq!(decoded.encode().expect("encode again"), encoded);
}

#[test]
fn every_kind_reads_back_as_written() {
    for (kind, _) in EntryKind::NAMES {
        let examples = examples(kind);
        assert!(!examples.is_empty(), "{kind:?}");
        for meaning in &examples {
            assert_eq!(meaning.kind(), kind);
            round_trip(meaning);
        }
    }
}

/// The bytes the relay has always written for the kinds whose detail is not JSON, and a JSON
/// one: a change here would break every signed journal.
#[test]
fn the_stored_forms_are_the_records_own() {
    let cases = [
        (
            Meaning::Move {
                iccf: "5254".to_owned(),
                draw_offer: true,
            },
            Some("5254"),
            "draw_offer",
        ),
        (
            Meaning::Claim {
                claim: Claim::Repetition,
                iccf: None,
            },
            None,
            "threefold",
        ),
        (
            Meaning::Conditional {
                line: vec!["5254".to_owned(), "5755".to_owned()],
            },
            None,
            "5254 5755",
        ),
        (Meaning::Reminder { days: 7 }, None, "7"),
        (Meaning::Resign, None, ""),
        (
            Meaning::TimeUp(TimeUpDetail {
                overdue: Overdue::TimeControl,
                forfeit: true,
            }),
            None,
            r#"{"overdue":"time_control","forfeit":true}"#,
        ),
        (
            Meaning::Adjudication(AdjudicationDetail {
                result: "1-0".to_owned(),
                reason: "won".to_owned(),
                withdrawal: false,
            }),
            None,
            r#"{"result":"1-0","reason":"won"}"#,
        ),
        (
            Meaning::Notify(NotifyDetail {
                player: "carol".to_owned(),
                notify: Notify::Digest {
                    hour: 8,
                    zone: None,
                    address: "c@x.org".to_owned(),
                },
            }),
            None,
            r#"{"player":"carol","notify":{"mode":"digest","hour":8,"address":"c@x.org"}}"#,
        ),
        (
            Meaning::NotifyDigest(DigestDetail {
                player: "carol".to_owned(),
                due: "2026-12-01T08:00:00Z".parse().expect("time"),
            }),
            None,
            r#"{"player":"carol","due":"2026-12-01T08:00:00Z"}"#,
        ),
    ];
    for (meaning, iccf, detail) in cases {
        let encoded = meaning.encode().expect("encode");
        assert_eq!(
            (encoded.iccf.as_deref(), encoded.detail.as_str()),
            (iccf, detail)
        );
    }
}

/// A journal written by an earlier release (tests/fixtures/journal-dcc53eb): every entry reads,
/// and writes back to the very bytes that are chained and signed.
#[test]
fn a_journal_of_an_earlier_release_writes_back_byte_for_byte() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/journal-dcc53eb/journal.sqlite3");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::copy(&fixture, dir.path().join(super::super::store::FILE_NAME)).expect("copy");
    let conn = super::super::store::open_read_only(dir.path()).expect("open");
    let mut seen = 0;
    super::super::store::for_each_entry(&conn, None, |e| {
        let encoded = Meaning::of(&e)?.encode()?;
        assert_eq!(
            (
                encoded.kind,
                encoded.iccf.as_deref(),
                encoded.detail.as_str()
            ),
            (e.kind, e.iccf.as_deref(), e.detail.as_str()),
            "entry {}",
            e.seq
        );
        seen += 1;
        Ok(())
    })
    .expect("entries");
    assert_eq!(seen, 5);
}

#[test]
fn a_detail_the_relay_never_writes_is_refused() {
    for (kind, iccf, detail) in [
        (EntryKind::Move, Some("5254"), "draw"),
        (EntryKind::Move, None, ""),
        (EntryKind::Reminder, None, "seven"),
        (EntryKind::Claim, None, "because"),
        (EntryKind::Leave, None, "{}"),
        (EntryKind::GameStart, None, ""),
        (EntryKind::ClockSet, None, "yesterday"),
        (EntryKind::Refill, None, "ten"),
        (EntryKind::Refill, None, "+5"),
        (EntryKind::Refill, None, ""),
        (EntryKind::LongReflection, None, "long"),
        (
            EntryKind::Notify,
            None,
            r#"{"player":"carol","notify":{"mode":"weekly"}}"#,
        ),
        (
            EntryKind::Notify,
            None,
            r#"{"player":"carol","notify":{"mode":"each"}}"#,
        ),
        (
            EntryKind::NotifyDigest,
            None,
            r#"{"player":"carol","due":"noon"}"#,
        ),
        (
            EntryKind::RatingSet,
            None,
            r#"{"player":"carol","rating":"high","deviation":120,"reason":"x"}"#,
        ),
        (
            EntryKind::EventLot,
            None,
            r#"{"event":"cup","round":1,"match":1,"players":["a"],"seed":"00","winner":"a"}"#,
        ),
    ] {
        assert!(
            Meaning::decode(kind, iccf, detail).is_err(),
            "{kind:?} {detail:?}"
        );
    }
}

/// Strings and numbers of any value, for the kinds that carry them as they are.
fn free_meaning() -> impl Strategy<Value = Meaning> {
    let code = "[0-9a-z]{1,8}";
    prop_oneof![
        (code, any::<bool>()).prop_map(|(iccf, draw_offer)| Meaning::Move { iccf, draw_offer }),
        any::<String>().prop_map(|reason| Meaning::Rejected { reason }),
        any::<String>().prop_map(|text| Meaning::Result { text }),
        any::<String>().prop_map(|text| Meaning::Message { text }),
        (any::<String>(), proptest::option::of(code))
            .prop_map(|(command, iccf)| Meaning::Proposal { command, iccf }),
        any::<u32>().prop_map(|days| Meaning::Reminder { days }),
        any::<u32>().prop_map(|days| Meaning::Refill { days }),
        proptest::collection::vec(code, 0..12).prop_map(|line| Meaning::Conditional { line }),
        (proptest::option::of(code), any::<bool>()).prop_map(|(iccf, fifty)| Meaning::Claim {
            claim: if fifty {
                Claim::FiftyMoves
            } else {
                Claim::Repetition
            },
            iccf,
        }),
        (0..(1u32 << 30), 0..3650u32).prop_map(|(first, days)| Meaning::Leave(Leave {
            first: jiff::civil::date(2000, 1, 1)
                .checked_add(jiff::Span::new().days(i64::from(first % 20_000)))
                .expect("date"),
            days,
            special: false,
        })),
        (0..4_000_000_000i64).prop_map(|second| Meaning::ClockSet {
            at: Timestamp::from_second(second).expect("time"),
        }),
        (
            any::<String>(),
            any::<String>(),
            any::<u8>(),
            proptest::option::of(any::<String>())
        )
            .prop_map(
                |(player, address, hour, zone)| Meaning::Notify(NotifyDetail {
                    player,
                    notify: Notify::Digest {
                        hour,
                        zone,
                        address
                    },
                })
            ),
        (any::<String>(), any::<String>()).prop_map(|(player, address)| Meaning::Notify(
            NotifyDetail {
                player,
                notify: Notify::Each { address },
            }
        )),
        (any::<String>(), 0..4_000_000_000i64).prop_map(|(player, second)| {
            Meaning::NotifyDigest(DigestDetail {
                player,
                due: Timestamp::from_second(second).expect("time"),
            })
        }),
        (any::<String>(), any::<String>(), any::<bool>()).prop_map(
            |(result, reason, withdrawal)| Meaning::Adjudication(AdjudicationDetail {
                result,
                reason,
                withdrawal,
            })
        ),
    ]
}

proptest! {
    #[test]
    fn any_value_reads_back_as_written(meaning in free_meaning()) {
        round_trip(&meaning);
    }
}
