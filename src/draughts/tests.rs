//! The rules and the notation, table by table.

use super::notation::{Form, ReadError, read, write_algebraic, write_numeric, write_path};
use super::*;

fn pos(text: &str) -> Position {
    setup::parse_any(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn paths(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p)
        .iter()
        .map(|m| write_path(m, Form::Algebraic))
        .collect();
    v.sort();
    v
}

#[test]
fn perft_from_the_initial_position() {
    // The same counts come from both Python libraries (tests/integration/draughts.rs).
    let start = Position::default();
    let counts: Vec<u64> = (1..=6).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [7, 49, 302, 1469, 7482, 37986]);
}

#[test]
fn rules_table() {
    // (position, the legal moves expected, why)
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "W:W22:B1",
            &["c3-b4", "c3-d4"],
            "a man moves one square forward",
        ),
        (
            "B:W22:B1",
            &["b8-a7", "b8-c7"],
            "a black man moves one square down",
        ),
        (
            "W:W18,22:B14",
            &["d4:b6"],
            "capturing is compulsory: the quiet moves go",
        ),
        ("W:W14:B18", &["c5:e3"], "a man captures backward too"),
        (
            "W:W22:B18,11",
            &["c3:e5:g7"],
            "a capture goes on while there is something to take",
        ),
        (
            "W:W22,28:B18,11,24",
            &["c3:e5:g7", "h2:f4"],
            "free choice among captures: one piece instead of two (no majority rule)",
        ),
        (
            "W:W21:B17,10,11",
            &["a3:c5:e7:g5"],
            "a capture goes on, turning as it must",
        ),
        (
            "W:W11:B7,6",
            &["f6:d8:a5", "f6:d8:b6"],
            "a man crowned by a capture goes on as a king at once",
        ),
        (
            "W:W7:B3",
            &["e7-d8"],
            "a man moves onto the crowning row (f8 is taken)",
        ),
        (
            "W:WK29:B22",
            &["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"],
            "a king captures from a distance and lands on any free square beyond",
        ),
        (
            "W:WK29:B22,10",
            &["a1:e5:c7", "a1:e5:b8"],
            "a king must land where it can go on taking",
        ),
    ];
    for (fen, expected, why) in cases {
        let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        expected.sort();
        assert_eq!(paths(&pos(fen)), expected, "{why} ({fen})");
    }
}

#[test]
fn turkish_strike_a_piece_taken_still_blocks_and_is_never_taken_twice() {
    // Seed 003, diagram 2: the king takes c3, b6, e7 and e5 and must stop on d4: c5 cannot
    // be taken because b6, taken but still on the board, stands behind it; c3 cannot be
    // jumped again.
    let p = pos("Белые: дамка e1, простая шашка f2. Черные: простые b6, c3, c5, d6, e5, e7.");
    assert_eq!(paths(&p), ["e1:a5:d8:f6:d4"]);
    let m = legal_moves(&p)[0];
    let taken: Vec<String> = board::squares_of(m.captured())
        .map(|s| s.to_string())
        .collect();
    let mut taken = taken;
    taken.sort();
    assert_eq!(taken, ["b6", "c3", "e5", "e7"]);
    // Then Black takes c5:e3:g1 and White has no piece left: Black wins.
    let mut game = Game::new(p);
    game.play(m);
    assert_eq!(paths(game.position()), ["c5:e3:g1"]);
    let reply = legal_moves(game.position())[0];
    assert!(reply.crowns(), "g1 is Black's crowning row");
    game.play(reply);
    assert_eq!(game.outcome(), Some(Outcome::Win(Color::Black)));
}

#[test]
fn seed_diagram_3_two_paths_to_a7() {
    // The position is not printed in the seed; this one fits its moves: after 1.f2-g3 h4:f2
    // White takes on a7 two ways.
    let mut game = Game::new(pos("White: g1, f2. Black: b6, d4, d6, f4, f6, h4."));
    for token in ["f2-g3", "h4:f2"] {
        let m = read(game.position(), token).unwrap();
        game.play(m);
    }
    let p = *game.position();
    match read(&p, "g1:a7") {
        Err(ReadError::Ambiguous { paths }) => {
            assert_eq!(paths, ["g1:e3:c5:a7", "g1:e3:g5:e7:c5:a7"]);
        }
        other => panic!("g1:a7 should be ambiguous: {other:?}"),
    }
    let short = read(&p, "g1:e3:c5:a7").unwrap();
    assert_eq!(short.captured().count_ones(), 3);
    let long = read(&p, "2.g1:e3:g5:e7:c5:a7".trim_start_matches("2."));
    assert_eq!(long.unwrap().captured().count_ones(), 5);
    // Written back: the full path, since g1:a7 alone does not say which.
    assert_eq!(write_algebraic(&p, &short), "g1:e3:c5:a7");
    // A landing square in the middle is enough to tell them apart.
    assert_eq!(read(&p, "g1:g5:a7").unwrap().captured().count_ones(), 5);
}

#[test]
fn notation_forms() {
    let start = Position::default();
    for (token, alg, num) in [
        ("c3-d4", "c3-d4", "22-18"),
        ("22-18", "c3-d4", "22-18"),
        ("с3—d4", "c3-d4", "22-18"),
        ("c3d4", "c3-d4", "22-18"),
        ("C3-D4", "c3-d4", "22-18"),
        ("c3–d4!", "c3-d4", "22-18"),
        ("a3-b4", "a3-b4", "21-17"),
        ("g3-h4", "g3-h4", "24-20"),
    ] {
        let m = read(&start, token).unwrap_or_else(|e| panic!("{token}: {e}"));
        assert_eq!(write_algebraic(&start, &m), alg, "{token}");
        assert_eq!(write_numeric(&m), num, "{token}");
    }
    // A multi-capture: the numeric form names every landing square, the algebraic its ends.
    let p = pos("W:W22:B18,11");
    let m = read(&p, "22x15x8").unwrap();
    assert_eq!(write_numeric(&m), "22x15x8");
    assert_eq!(write_algebraic(&p, &m), "c3:g7");
    assert_eq!(read(&p, "c3:g7").unwrap(), m);
    assert_eq!(read(&p, "c3:e5:g7").unwrap(), m);
    assert_eq!(read(&p, "22x8").unwrap(), m);
    assert_eq!(
        read(&p, "c3-g7").unwrap(),
        m,
        "a capture written with a dash"
    );
}

#[test]
fn refusals_name_what_is_legal() {
    let start = Position::default();
    let cases: &[(&str, &str, &str)] = &[
        ("W:W22:B18,11", "c3:e5", "the capture goes on: c3:e5:g7"),
        ("W:W22:B18,11", "22x15", "the capture goes on: 22x15x8"),
        (
            "W:W18,22:B14",
            "c3-b4",
            "no such move here; a capture is compulsory; the piece on c3 has no legal move; legal moves: d4:b6",
        ),
    ];
    for (fen, token, message) in cases {
        let err = read(&pos(fen), token).unwrap_err();
        assert_eq!(err.to_string(), *message, "{fen} {token}");
    }
    assert_eq!(
        read(&start, "c3-e5").unwrap_err().to_string(),
        "no such move here; legal moves from c3: c3-b4, c3-d4"
    );
    assert_eq!(
        read(&start, "d4-e5").unwrap_err().to_string(),
        "no such move here; no White piece stands on d4; legal moves: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4"
    );
    assert!(matches!(read(&start, "c3"), Err(ReadError::Syntax(_))));
    assert!(matches!(read(&start, "c3-i4"), Err(ReadError::Syntax(_))));
    assert!(matches!(read(&start, "22-e5"), Err(ReadError::Syntax(_))));
    assert!(matches!(read(&start, "22-33"), Err(ReadError::Syntax(_))));
    assert!(matches!(
        read(&start, "c3-d4:e5"),
        Err(ReadError::Syntax(_))
    ));
}

#[test]
fn diagram_for_a_reader() {
    let p = pos("Белые: дамка e1, простая шашка f2. Черные: простые b6, c3, c5, d6, e5, e7.");
    assert_eq!(
        setup::write_diagram(&p),
        "8    .   .   .   .\n\
         7  .   .   b   .\n\
         6    b   b   .   .\n\
         5  .   b   b   .\n\
         4    .   .   .   .\n\
         3  .   b   .   .\n\
         2    .   .   w   .\n\
         1  .   .   W   .\n\
         \x20  a b c d e f g h   White to move\n"
    );
}

#[test]
fn setups_read_and_written() {
    let start = Position::default();
    assert_eq!(
        setup::write_fen(&start),
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(pos("W:W21-32:B1-12"), start);
    assert_eq!(pos("[FEN \"W:W21-32:B1-12\"]"), start);
    assert_eq!(
        pos("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"),
        start
    );
    let kings = pos("B:WK4,22:BK29,1");
    assert_eq!(setup::write_fen(&kings), "B:WK4,22:B1,K29");
    assert_eq!(
        setup::write_listing(&kings),
        "White: kings h8; men c3. Black: kings a1; men b8. Black to move."
    );
    assert_eq!(pos(&setup::write_listing(&kings)), kings);
    let ru = setup::write_listing_in(&kings, setup::ListingLang::Russian);
    assert_eq!(
        ru,
        "Белые: дамки h8; простые c3. Черные: дамки a1; простые b8. Ход черных."
    );
    assert_eq!(pos(&ru), kings);
    assert_eq!(
        pos("б. д. c3, d6, e3 (3). ч. д. a1"),
        pos("W:WK22,K10,K23:BK29")
    );
    for bad in ["W:W1:B5", "W:W22,22:B1", "X:W1", "Б. c3 (2)", "W:W33:B1"] {
        assert!(setup::parse_any(bad).is_err(), "{bad}");
    }
}

/// Plays quiet moves that lead to new positions where nobody can capture, `pick` choosing
/// among them; the game must not end before `plies` half-moves unless `outcome` says so.
fn walk(game: &mut Game, plies: usize, pick: impl Fn(&Game, &Move) -> bool) {
    let mut seen = std::collections::HashSet::new();
    seen.insert(*game.position());
    for ply in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        let p = *game.position();
        let m = legal_moves(&p)
            .into_iter()
            .find(|m| {
                let next = apply(&p, m);
                !m.is_capture()
                    && !m.crowns()
                    && !seen.contains(&next)
                    && !movegen::has_capture(&next)
                    && !movegen::has_capture(&{
                        let mut other = next;
                        other.set_turn(next.turn().other());
                        other
                    })
                    && pick(game, m)
            })
            .unwrap_or_else(|| panic!("no quiet move at ply {ply} in {}", setup::write_fen(&p)));
        seen.insert(apply(&p, &m));
        game.play(m);
    }
}

fn is_king(game: &Game, m: &Move) -> bool {
    game.position()
        .piece_at(m.from())
        .is_some_and(|p| p.kind == Kind::King)
}

#[test]
fn fifteen_moves_of_kings_only() {
    let mut game = Game::new(pos("W:WK29,K30:BK4,K3"));
    walk(&mut game, 29, |_, _| true);
    assert_eq!(game.outcome(), None, "29 half-moves of kings");
    walk(&mut game, 1, |_, _| true);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::KingMoves)));
}

#[test]
fn three_kings_against_one_fifteen_moves() {
    // The stronger side moves first: its 15th move is the 29th half-move.
    let mut game = Game::new(pos("W:WK1,K2,K3:BK13"));
    let off_road =
        |g: &Game, m: &Move| g.position().turn() == Color::White || !m.to().on_main_road();
    walk(&mut game, 28, off_road);
    assert_eq!(game.outcome(), None);
    walk(&mut game, 1, off_road);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::ThreeKingsAgainstOne))
    );
}

#[test]
fn lone_king_on_the_main_road_five_moves() {
    let mut game = Game::new(pos("W:WK1,K2,K3:BK29"));
    let on_road = |g: &Game, m: &Move| g.position().turn() == Color::White || m.to().on_main_road();
    walk(&mut game, 8, on_road);
    assert_eq!(
        game.outcome(),
        None,
        "after White's 4th move and Black's answer"
    );
    walk(&mut game, 1, on_road);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::MainRoad)));
}

#[test]
fn unchanged_balance_in_a_five_piece_ending() {
    // Kings on both sides and men that move now and then (so the kings-only count restarts):
    // 30 moves, 60 half-moves, without a capture or a crowning.
    let mut game = Game::new(pos("W:WK28,29,30:BK1,12"));
    let man_now_and_then = |g: &Game, m: &Move| {
        let want_man = g.moves().len() % 20 == 10 && g.position().turn() == Color::White;
        is_king(g, m) != want_man
    };
    walk(&mut game, 59, man_now_and_then);
    assert_eq!(game.outcome(), None);
    walk(&mut game, 1, man_now_and_then);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(DrawReason::UnchangedBalance {
            pieces: 5,
            moves: 30
        }))
    );
}

#[test]
fn threefold_repetition() {
    let mut game = Game::new(pos("W:WK29,22:BK4,11"));
    for token in [
        "a1-b2", "h8-g7", "b2-a1", "g7-h8", "a1-b2", "h8-g7", "b2-a1",
    ] {
        assert_eq!(game.outcome(), None, "{token}");
        let m = read(game.position(), token).unwrap();
        game.play(m);
    }
    assert_eq!(game.outcome(), None);
    let m = read(game.position(), "g7-h8").unwrap();
    game.play(m);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn no_legal_move_loses() {
    // Black's man on h8? No: a black man on a7 blocked by white men on b6 and c5.
    let blocked = Game::new(pos("B:W9,14:B5"));
    assert_eq!(blocked.outcome(), Some(Outcome::Win(Color::White)));
    let empty = Game::new(pos("B:W22:B"));
    assert_eq!(empty.outcome(), Some(Outcome::Win(Color::White)));
}

#[test]
fn movetext_reads_seed_forms() {
    let text = "1. c3-d4 f6-e5 2. d4:f6 g7:e5 *";
    let mut out = Vec::new();
    let totals = crate::convert::draughts::convert(
        text.as_bytes(),
        &mut out,
        &mut Vec::new(),
        crate::convert::draughts::Format::Num,
        None,
    )
    .unwrap();
    assert_eq!(totals.failed, 0);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "1. 22-18 11-15 2. 18x11 8x15 *\n"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Random legal games: every move written in either form reads back as the same move, and
    /// the whole game converts algebraic → numeric → algebraic unchanged.
    #[test]
    fn random_games_round_trip_through_both_notations(choices in proptest::collection::vec(0usize..1000, 1..160)) {
        let mut game = Game::new(Position::default());
        let mut alg = Vec::new();
        let mut num = Vec::new();
        for choice in choices {
            if game.outcome().is_some() {
                break;
            }
            let p = *game.position();
            let paths = all_moves(&p);
            let m = paths[choice % paths.len()];
            let short = write_algebraic(&p, &m);
            let numeric = write_numeric(&m);
            let full = write_path(&m, Form::Algebraic);
            proptest::prop_assert!(read(&p, &short).unwrap().same_effect(&m), "{short}");
            proptest::prop_assert_eq!(read(&p, &numeric).unwrap(), m, "{}", numeric);
            proptest::prop_assert_eq!(read(&p, &full).unwrap(), m, "{}", full);
            // Paths with one effect (a king landing between two pieces on one line, say)
            // read back by their ends as the first path; the game text uses that one.
            let m = legal_moves(&p)
                .into_iter()
                .find(|c| c.same_effect(&m))
                .unwrap();
            alg.push(write_algebraic(&p, &m));
            num.push(write_numeric(&m));
            game.play(m);
        }
        let number = |moves: &[String]| -> String {
            let mut out = String::new();
            for (i, m) in moves.iter().enumerate() {
                if i % 2 == 0 {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push_str(&format!("{}. ", i / 2 + 1));
                } else {
                    out.push(' ');
                }
                out.push_str(m);
            }
            out
        };
        let via = |text: &str, to| {
            let mut out = Vec::new();
            let totals = crate::convert::draughts::convert(text.as_bytes(), &mut out, &mut Vec::new(), to, None).unwrap();
            assert_eq!(totals.failed, 0, "{text}");
            String::from_utf8(out).unwrap()
        };
        let alg_text = number(&alg);
        let num_expected = number(&num);
        let num_text = via(&alg_text, crate::convert::draughts::Format::Num);
        let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        proptest::prop_assert_eq!(words(&num_text), words(&num_expected));
        let back = via(&num_text, crate::convert::draughts::Format::Alg);
        proptest::prop_assert_eq!(words(&back), words(&alg_text));
    }
}

fn convert_to(text: &str, to: crate::convert::draughts::Format) -> (String, String, u64) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let totals =
        crate::convert::draughts::convert(text.as_bytes(), &mut out, &mut err, to, None).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
        totals.failed,
    )
}

#[test]
fn pdn_written_reads_back_the_same() {
    use crate::convert::draughts::Format;
    let text = "[White \"Savenkov\"]\n[FEN \"B:W18,K29:B10,K4\"]\n\n1... h8:b2 2. a1:b8 1-0\n";
    let (pdn, err, failed) = convert_to(text, Format::Pdn);
    assert_eq!((err.as_str(), failed), ("", 0));
    assert!(pdn.contains("[GameType \"25\"]\n"), "{pdn}");
    assert!(pdn.contains("[FEN \"B:W18,K29:BK4,10\"]\n"), "{pdn}");
    assert!(pdn.contains("[White \"Savenkov\"]\n"), "{pdn}");
    assert!(pdn.ends_with("\n1... 4x25 2. 29x15x1 1-0\n"), "{pdn}");
    let (again, _, failed) = convert_to(&pdn, Format::Pdn);
    assert_eq!((again, failed), (pdn.clone(), 0));
    let (alg, _, _) = convert_to(&pdn, Format::Alg);
    assert_eq!(alg, "1... h8:b2 2. a1:b8 1-0\n");
}

#[test]
fn movetext_errors_keep_the_moves_before() {
    use crate::convert::draughts::Format;
    for (text, out, err) in [
        (
            "1. c3-d4 2. f6-e5",
            "1. c3-d4\n",
            "game 1 (line 1), move 1 (Black) \"2.\": the move number 2. is written, but this is move 1 for Black",
        ),
        (
            "1. c3-d4 f6-e5 2. d4-c5",
            "1. c3-d4 f6-e5\n",
            "game 1 (line 1), move 2 (White) \"d4-c5\": no such move here; a capture is compulsory; legal moves from d4: d4:f6",
        ),
        (
            "1. c3-d4 f6-e5 2. d4:f6 g7:e5 1:0",
            "1. c3-d4 f6-e5 2. d4:f6 g7:e5 1-0\n",
            "",
        ),
        (
            "[GameType \"20\"]\n\n1. 32-28 *",
            "*\n",
            "game 1 (line 3), move 1 (White): GameType \"20\" is not Russian draughts (GameType \"25\")",
        ),
        (
            "1. c3-d4 1… f6-e5 2. d4:f6 1... g7:e5",
            "1. c3-d4 f6-e5 2. d4:f6\n",
            "game 1 (line 1), move 2 (Black) \"1...\": the move number 1... is written, but this is move 2 for Black",
        ),
        (
            "1. c3-d4 1… f6-e5 2. d4:f6 2... g7:e5",
            "1. c3-d4 f6-e5 2. d4:f6 g7:e5\n",
            "",
        ),
        ("1. c3-d4 2-0", "1. c3-d4 1-0\n", ""),
    ] {
        let (o, e, _) = convert_to(text, Format::Alg);
        assert_eq!(o, out, "{text}");
        assert_eq!(e.trim_end().trim_start_matches("ccrelay: "), err, "{text}");
    }
}

#[test]
fn json_names_every_form() {
    let (json, _, _) = convert_to(
        "1. c3-d4 f6-e5 2. d4:f6",
        crate::convert::draughts::Format::Json,
    );
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["moves"][2]["alg"], "d4:f6");
    assert_eq!(v["moves"][2]["num"], "18x11");
    assert_eq!(v["moves"][2]["captures"][0], "e5");
    assert_eq!(v["moves"][1]["side"], "black");
    assert_eq!(v["error"], serde_json::Value::Null);
}

proptest::proptest! {
    /// Whatever the text, reading it refuses or accepts; it never panics.
    #[test]
    fn any_text_is_refused_or_read(
        text in "\\PC{0,40}",
        words in proptest::collection::vec("[a-h1-9xX:.… —–-]{1,8}", 0..12),
    ) {
        let start = Position::default();
        let _ = read(&start, &text);
        let _ = setup::parse_any(&text);
        let movetext = words.join(" ");
        let _ = convert_to(&movetext, crate::convert::draughts::Format::Json);
        let _ = convert_to(&text, crate::convert::draughts::Format::Pdn);
    }
}
