//! Every outbox item on its line for each reader, read back from its stored form, and a move
//! as of itself.

use super::*;
use crate::relay::render;

/// Every variant, and how each of three readers reads it: ICCF numeric, English SAN,
/// Russian long algebraic.
pub(super) fn table() -> Vec<(Notice, [&'static str; 3])> {
    let mut table = games_and_moves();
    table.extend(draws_resignations_and_claims());
    table.extend(leave_and_time());
    table.extend(results_and_words());
    table
}

/// 3. Bb5 after 1. e4 e5 2. Nf3 Nc6.
fn bb5() -> MoveData {
    let four = game(&["e4", "e5", "Nf3", "Nc6"]);
    MoveData::of(&four, &next(&four, "Bb5"))
}

/// A game's start, a move pushed bare and with an offer, clocks and a line cancelled, and a
/// move played from a conditional line.
fn games_and_moves() -> Vec<(Notice, [&'static str; 3])> {
    let opening = ["e4", "e5", "Nf3"];
    let plain = move_notice(&opening, "Nc6");
    let mut offered = move_notice(&opening, "Nc6");
    offered.draw_offer = true;
    offered.cancels_line = true;
    let mut after = game(&opening);
    let nc6 = next(&after, "Nc6");
    after.apply_by(
        Color::Black,
        &Action::Move {
            m: nc6,
            draw_offer: false,
        },
        T0,
    );
    offered.clocks = Clocks::of(&after, T0 + SignedDuration::from_hours(26));
    vec![
        (
            Notice::GameStarted {
                game: "g1".into(),
                side: Side::Black,
                opponent: "alice".into(),
            },
            ["GAME g1 started: you play Black against alice"; 3],
        ),
        (
            Notice::Move(Box::new(plain)),
            [
                // Said once: the reader's notation is ICCF numeric already.
                "MOVE g1 2... 2836 by boris",
                "MOVE g1 2... Nc6 (2836) by boris",
                "MOVE g1 2... Кb8—c6 (2836) by boris",
            ],
        ),
        (
            Notice::Move(Box::new(offered)),
            [
                "MOVE g1 2... 2836 by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
                "MOVE g1 2... Nc6 (2836) by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
                "MOVE g1 2... Кb8—c6 (2836) by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
            ],
        ),
        (
            Notice::LinePlayed {
                game: "g1".into(),
                mv: Box::new(bb5()),
                left: 2,
            },
            [
                "CONDITIONAL g1 3. 6125 played from your line; 2 pair(s) left in it",
                "CONDITIONAL g1 3. Bb5 (6125) played from your line; 2 pair(s) left in it",
                "CONDITIONAL g1 3. Сf1—b5 (6125) played from your line; 2 pair(s) left in it",
            ],
        ),
    ]
}

/// Each act on a draw offer, a resignation, and a draw claimed without and with a move.
fn draws_resignations_and_claims() -> Vec<(Notice, [&'static str; 3])> {
    vec![
        (
            Notice::Draw {
                game: "g1".into(),
                by: "alice".into(),
                side: Side::White,
                act: DrawAct::Offered,
            },
            ["DRAW g1 offered by alice (White)"; 3],
        ),
        (
            Notice::Draw {
                game: "g1".into(),
                by: "boris".into(),
                side: Side::Black,
                act: DrawAct::Accepted,
            },
            ["DRAW g1 accepted by boris (Black)"; 3],
        ),
        (
            Notice::Draw {
                game: "g1".into(),
                by: "boris".into(),
                side: Side::Black,
                act: DrawAct::Declined,
            },
            ["DRAW g1 declined by boris (Black)"; 3],
        ),
        (
            Notice::Resigned {
                game: "g1".into(),
                by: "alice".into(),
                side: Side::White,
            },
            ["RESIGN g1 alice (White) resigns"; 3],
        ),
        (
            Notice::Claim {
                game: "g1".into(),
                by: "boris".into(),
                side: Side::Black,
                claim: "fifty".into(),
                mv: None,
            },
            ["CLAIM g1 boris (Black) claims a draw (fifty)"; 3],
        ),
        (
            Notice::Claim {
                game: "g1".into(),
                by: "alice".into(),
                side: Side::White,
                claim: "threefold".into(),
                mv: Some(Box::new(bb5())),
            },
            [
                "CLAIM g1 alice (White) claims a draw (threefold) with 3. 6125",
                "CLAIM g1 alice (White) claims a draw (threefold) with 3. Bb5 (6125)",
                "CLAIM g1 alice (White) claims a draw (threefold) with 3. Сf1—b5 (6125)",
            ],
        ),
    ]
}

/// Leave, time running out (forfeit or the arbiter's), reminders, with and without clocks.
fn leave_and_time() -> Vec<(Notice, [&'static str; 3])> {
    let leave = Leave {
        first: jiff::civil::date(2027, 3, 1),
        days: 10,
        special: false,
    };
    vec![
        (
            Notice::Leave {
                game: "g1".into(),
                by: "alice".into(),
                side: Side::White,
                leave,
            },
            ["LEAVE g1 alice (White) is on leave 2027-03-01 to 2027-03-10 (10 days): their clock stops";
                3],
        ),
        (
            Notice::TimeUp {
                game: "g1".into(),
                player: "boris".into(),
                side: Side::Black,
                overdue: Overdue::TimeControl,
                forfeit: true,
                clocks: None,
            },
            ["TIME g1 boris (Black): time limit exceeded, lost on time; "; 3],
        ),
        (
            Notice::TimeUp {
                game: "g1".into(),
                player: "boris".into(),
                side: Side::Black,
                overdue: Overdue::Silence,
                forfeit: false,
                clocks: None,
            },
            ["TIME g1 boris (Black): silence limit exceeded; the arbiter decides; "; 3],
        ),
        (
            Notice::Reminder {
                game: "g1".into(),
                days: 14,
                clocks: None,
            },
            ["REMINDER g1: your move has waited 14 days; "; 3],
        ),
        (
            Notice::Reminder {
                game: "g1".into(),
                days: 23,
                clocks: Clocks::of(
                    &timed(Rules::iccf(TimeControl::default()), &[]),
                    at(23 * 24 + 5),
                ),
            },
            ["REMINDER g1: your move has waited 23 days; clock: White 23d 05h used, charged 26d, 24d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; White: 24th day on this move, days now count double";
                3],
        ),
        (
            Notice::TimeUp {
                game: "g1".into(),
                player: "boris".into(),
                side: Side::Black,
                overdue: Overdue::TimeControl,
                forfeit: false,
                clocks: Clocks::of(
                    &timed(
                        Rules::iccf(TimeControl::TripleBlock(TripleBlock::iccf(3, 75))),
                        &[("e4", 48)],
                    ),
                    at(52 * 24),
                ),
            },
            ["TIME g1 boris (Black): time limit exceeded; the arbiter decides; clock: White clock 50d 00h, bank 75d | Black clock 0d 00h, bank 75d (running)";
                3],
        ),
    ]
}

/// A result, the other node's refusal, a message, and what was recorded.
fn results_and_words() -> Vec<(Notice, [&'static str; 3])> {
    vec![
        (
            Notice::Result {
                game: "g1".into(),
                pgn: "1-0".into(),
                text: "1-0 (resignation)".into(),
            },
            ["RESULT g1 1-0 (resignation)"; 3],
        ),
        (
            Notice::Refused {
                game: "g1".into(),
                number: 3,
                reason: "no such move here".into(),
            },
            ["REFUSED g1 the other node refused your action 3: no such move here"; 3],
        ),
        (
            Notice::Message {
                game: "g1".into(),
                from: "boris".into(),
                text: "Удачи! Good luck".into(),
            },
            ["MSG g1 from boris: Удачи! Good luck"; 3],
        ),
        (
            Notice::Recorded {
                game: "g1".into(),
                what: "your move 1. 5254".into(),
                mv: None,
            },
            ["RECORDED g1 your move 1. 5254"; 3],
        ),
        (
            // The move itself, kept with the notice: written for each reader.
            Notice::Recorded {
                game: "g1".into(),
                what: "your move 6125 is in the record".into(),
                mv: Some(Box::new(bb5())),
            },
            [
                "RECORDED g1 your move 3. 6125 is in the record",
                "RECORDED g1 your move 3. Bb5 (6125) is in the record",
                "RECORDED g1 your move 3. Сf1—b5 (6125) is in the record",
            ],
        ),
        (
            Notice::OwnClock {
                game: "g1".into(),
                by: "alice".into(),
                side: Side::White,
                act: ClockAct::Refill { days: 20 },
                clocks: None,
            },
            ["BANK g1 alice (White) moved 20 day(s) from the bank to the clock"; 3],
        ),
        (
            Notice::OwnClock {
                game: "g1".into(),
                by: "boris".into(),
                side: Side::Black,
                act: ClockAct::LongReflection { number: 2 },
                clocks: None,
            },
            ["SILENCE g1 boris (Black) declared a long reflection for move 2: the silence limit does not end the game on it";
                3],
        ),
    ]
}

#[test]
fn every_notice_renders_for_each_reader() {
    for (notice, expected) in table() {
        for (reader, want) in [iccf(), san_en(), lan_ru()].iter().zip(expected) {
            assert_eq!(render::notice(&notice, reader), want, "{reader:?}");
        }
    }
}

#[test]
fn a_push_to_an_iccf_reader_says_the_move_once() {
    let text = notice(&Notice::Move(Box::new(move_notice(&["e4"], "e5"))), &iccf());
    assert_eq!(text, "MOVE g1 1... 5755 by boris");
    assert!(!text.contains("(5755)"), "{text}");
}

#[test]
fn every_notice_round_trips_through_its_stored_form() {
    for (notice, _) in table() {
        let body = notice.to_body();
        assert!(body.starts_with('{'), "{body}");
        assert_eq!(Notice::from_body(&body), notice, "{body}");
    }
}

#[test]
fn a_move_pushed_live_reads_as_the_same_move_read_back_from_the_outbox() {
    let cases: [(&[&str], &str); 5] = [
        (&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"], "O-O"),
        (
            &["d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7"],
            "O-O-O",
        ),
        (&["e4", "a6", "e5", "d5"], "exd6"),
        (
            &["b4", "a5", "bxa5", "h6", "a6", "h5", "axb7", "h4"],
            "bxa8=N",
        ),
        (&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"], "Qxf7#"),
    ];
    for (moves, text) in cases {
        let live = move_notice(moves, text);
        assert_eq!(format!("{:?}", live.mv.held), "Held", "{text}");
        let Notice::Move(stored) =
            Notice::from_body(&Notice::Move(Box::new(live.clone())).to_body())
        else {
            panic!("{text}: not read back as a move");
        };
        assert_eq!(format!("{:?}", stored.mv.held), "Held(none)", "{text}");
        for reader in [iccf(), san_en(), lan_ru()] {
            assert_eq!(
                numbered(&live.mv, &reader),
                numbered(&stored.mv, &reader),
                "{text} for {reader:?}"
            );
        }
    }
}

#[test]
fn a_row_written_before_items_were_typed_reads_as_its_text() {
    for body in [
        "MOVE g1 1. e2—e4 (5254) by alice",
        "{not json, but braces",
        "",
    ] {
        let notice = Notice::from_body(body);
        assert_eq!(
            notice,
            Notice::Legacy {
                text: body.to_owned()
            }
        );
        assert_eq!(notice.to_body(), body);
        assert_eq!(render::notice(&notice, &lan_ru()), body);
    }
}

#[test]
fn a_move_is_shown_as_of_itself() {
    let m = move_notice(&["e4", "e5", "Nf3"], "Nc6");
    let record: Vec<String> = ["5254", "5755", "7163", "2836"].map(String::from).to_vec();
    let (start, moves) = replay(Kind::Chess, None, &record).unwrap();
    let players = ("alice", "boris");
    let view = as_of(&m, &lan_ru(), players, Some((start.as_ref(), &moves))).unwrap();
    assert!(
        view.starts_with("game g1: alice (White) - boris (Black), as of 2... Кb8—c6 (2836)"),
        "{view}"
    );
    assert!(
        view.contains("moves: 1. e2—e4 e7—e5 2. Кg1—f3 Кb8—c6"),
        "{view}"
    );
    assert!(view.contains("r . b q k b n r"), "{view}");
    assert!(view.contains("to move: White (alice), move 3"), "{view}");
    // Read back from its row, which stores only the position before it, or from a row
    // of the older form, which stored the one after it too: the same view.
    let Notice::Move(stored) = Notice::from_body(&Notice::Move(Box::new(m.clone())).to_body())
    else {
        panic!("a move reads back as a move");
    };
    assert!(stored.mv.after.is_empty(), "one position a move is stored");
    let mut older = stored.clone();
    older.mv.after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into();
    for read_back in [&stored, &older] {
        let again = as_of(
            read_back,
            &lan_ru(),
            players,
            Some((start.as_ref(), &moves)),
        );
        assert_eq!(again.as_deref(), Some(view.as_str()));
    }
    // A record that does not end in this move gives no moves rather than wrong ones.
    let (start, moves) = replay(Kind::Chess, None, &record[..3]).unwrap();
    let view = as_of(&m, &lan_ru(), players, Some((start.as_ref(), &moves))).unwrap();
    assert!(!view.contains("moves:"), "{view}");
    assert!(view.contains("r . b q k b n r"), "{view}");
    // A stored position that no longer reads is not shown rather than shown wrong.
    let mut broken = *stored;
    broken.mv.before = "not a position".into();
    assert_eq!(as_of(&broken, &lan_ru(), players, None), None);
    older.mv.after = "not a position".into();
    assert_eq!(as_of(&older, &lan_ru(), players, None), None);
}
