//! Regression tests, one per bug found in review, named after the bug.

use ccrelay::convert::Format;
use ccrelay::notation::Lang;

use crate::support::convert::convert_text;

fn uci(text: &str, lang: Option<Lang>, fen: Option<&str>) -> (String, String, u64) {
    let c = convert_text(text, Format::Uci, lang, fen);
    (c.out, c.err, c.totals.failed)
}

#[test]
fn fast_path_took_a_p_pawn_letter_and_a_bare_capture() {
    // `P` is no English piece letter (it is the Dutch knight), and `xd5` names no pawn.
    assert_eq!(uci("1. Pf3", None, None).0, uci("1. Pf3!", None, None).0);
    assert_eq!(uci("1. Pf3", None, None).0.trim(), "g1f3");
    let (_, err, failed) = uci("1. e4 d5 2. xd5", None, None);
    assert_eq!(failed, 1, "{err}");
}

#[test]
fn number_then_dots_then_blacks_move_dropped_the_game() {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    for text in [
        "1. ...e5 2. Nf3 Nc6",
        "1. …e5 2. Nf3 Nc6",
        "1.…e5 2. Nf3 Nc6",
        "1... e5 2. Nf3 Nc6",
        "...e5 2. Nf3 Nc6",
    ] {
        let (out, err, failed) = uci(text, None, Some(after_e4));
        assert_eq!(
            (out.as_str(), failed),
            ("e7e5 g1f3 b8c6\n", 0),
            "{text}: {err}"
        );
    }
}

#[test]
fn a_settled_language_fell_back_to_a_third_languages_guess() {
    // The Russian bishop cannot reach f3; the French knight `C` could, but nobody wrote French.
    let (_, err, failed) = uci("1. Сf3", Some(Lang::Russian), None);
    assert_eq!(failed, 1, "{err}");
    let (_, err, failed) = uci("1. Кc3 d5 2. Сf3", None, None);
    assert_eq!(failed, 1, "{err}");
    let (_, err, failed) = uci("1. Sf3", Some(Lang::French), None);
    assert_eq!(failed, 1, "{err}");
    // English stays the fallback of a declared language.
    assert_eq!(uci("1. Nf3", Some(Lang::Russian), None).0, "g1f3\n");
}

#[test]
fn an_unterminated_comment_or_variation_was_silent() {
    let (_, err, failed) = uci(
        "1. e4 {oops 2. Nf3\n\n[Event \"2\"]\n\n1. d4 d5 *\n",
        None,
        None,
    );
    assert_eq!(failed, 1);
    assert!(
        err.contains("comment opened with { is never closed"),
        "{err}"
    );
    let (_, err, failed) = uci("1. e4 ( e5 2. Nf3 Nc6", None, None);
    assert_eq!(failed, 1);
    assert!(
        err.contains("variation opened here is never closed"),
        "{err}"
    );
}

#[test]
fn malformed_tags_were_ignored() {
    let (_, err, failed) = uci("1. e4 e5 2. Nf3 [x] Nc6 3. Bb5\n", None, None);
    assert_eq!(failed, 1);
    assert!(err.contains("malformed tag"), "{err}");
    let (_, err, failed) = uci("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1]\n\n1. e4\n", None, None);
    assert_eq!(failed, 1, "{err}");
}

#[test]
fn a_tags_only_game_merged_into_the_next() {
    let c = convert_text(
        "[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n\n1. e4 *\n",
        Format::Json,
        None,
        None,
    );
    let games: Vec<serde_json::Value> = c
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{}", c.out);
    assert_eq!(games[0]["tags"]["Event"], "a");
    assert_eq!(games[1]["tags"]["Event"], "b");
    assert_eq!(games[1]["tags"].get("Result"), None);
}

#[test]
fn pgn_result_tag_contradicted_the_movetext() {
    let c = convert_text("1. e4 e5 1-0", Format::Pgn, None, None);
    assert!(c.out.contains("[Result \"1-0\"]"), "{}", c.out);
    assert!(c.out.trim_end().ends_with("1. e4 e5 1-0"), "{}", c.out);
}

#[test]
fn a_bare_equals_draw_offer_was_refused() {
    // Seed 001: "a draw offer is marked with the symbol =".
    for text in ["1. e4 e5 2. Nf3 =", "1. e4 e5 2. Nf3="] {
        let c = convert_text(text, Format::Json, None, None);
        let game: serde_json::Value = serde_json::from_str(c.out.trim()).unwrap();
        assert_eq!(game["moves"][2]["draw_offer"], true, "{text}: {}", c.err);
    }
    // After a pawn reaching the last rank, `=` is a promotion missing its piece.
    let (_, err, failed) = uci("e8=", None, Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"));
    assert_eq!(failed, 1);
    assert!(err.contains("promotion piece is missing"), "{err}");
}

#[test]
fn results_with_typographic_dashes_were_refused() {
    for text in [
        "1. e4 e5 1–0",
        "1. e4 e5 ½–½",
        "1. e4 e5 0—1",
        "1. e4 e5 1:0",
    ] {
        let (out, err, failed) = uci(text, None, None);
        assert_eq!((out.as_str(), failed), ("e2e4 e7e5\n", 0), "{text}: {err}");
    }
}

#[test]
fn a_byte_order_mark_mid_stream_made_an_extra_game() {
    let text = "\u{feff}[Event \"a\"]\n\n1. e4 *\n\n\u{feff}[Event \"b\"]\n\n1. d4 *\n";
    let (out, err, failed) = uci(text, None, None);
    assert_eq!((out.as_str(), failed), ("e2e4\nd2d4\n", 0), "{err}");
    let (out, _, failed) = uci("1.\u{202f}e4\u{2009}e5", None, None);
    assert_eq!((out.as_str(), failed), ("e2e4 e7e5\n", 0));
}

#[test]
fn a_failed_game_without_moves_had_no_paragraph() {
    let c = convert_text("1. e4\n\n1. Ke4\n\n1. d4\n", Format::Iccf, None, None);
    assert_eq!(c.out, "1. 5254\n\n*\n\n1. 4244\n");
}

#[test]
fn error_messages_named_the_wrong_token_or_line() {
    let (_, err, _) = uci("1. e4 ]", None, None);
    assert!(err.contains("\"]\""), "{err}");
    let (_, err, _) = uci("1. e4 e5\n\n[FEN \"bad\"]\n\n1. e4\n", None, None);
    assert!(err.contains("game 2 (line 5)"), "{err}");
    let (_, err, _) = uci("\u{feff}\u{feff}x\u{7}", None, None);
    assert!(!err.contains("\\\\"), "escaped twice: {err}");
    let (_, err, _) = uci("1. Qxf7X", None, None);
    assert!(err.contains("no piece is written \"X\""), "{err}");
}

#[test]
fn a_bare_pawn_square_was_read_as_a_capture() {
    // `d5` is a pawn push; with no pawn that can push there, it is no move, not exd5.
    let (_, err, failed) = uci("1. e4 d5 2. d5", None, None);
    assert_eq!(failed, 1, "{err}");
    assert!(err.contains("legal moves to d5: exd5"), "{err}");
}

/// Found by the `movetext_words_never_panic` property (input `0:1 N`): its claim of at most
/// one game was wrong, not the reader. A result ends a game; what follows is another.
#[test]
fn a_result_in_mid_text_ends_the_game_and_the_next_words_begin_another() {
    let converted = convert_text("e4 0:1 e4 1-0\n", Format::Uci, None, None);
    assert_eq!(converted.out, "e2e4\ne2e4\n");
    assert_eq!(converted.totals.games, 2);
    let converted = convert_text("0:1 N\n", Format::Uci, None, None);
    assert_eq!(converted.totals.games, 2, "{}", converted.err);
    assert_eq!(
        converted.totals.failed, 1,
        "the second game's \"N\" is not a move"
    );
}
