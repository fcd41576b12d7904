//! Every refusal says which game, which move and side, the token as written, and why; syntax
//! errors apart from legality errors; nothing guessed.

use ccrelay::convert::Format;
use ccrelay::notation::Lang;

use crate::support::convert::convert_text;

struct Refusal {
    fen: Option<&'static str>,
    lang: Option<Lang>,
    text: &'static str,
    /// Substrings the error must hold.
    says: &'static [&'static str],
}

const fn refusal(
    fen: Option<&'static str>,
    lang: Option<Lang>,
    text: &'static str,
    says: &'static [&'static str],
) -> Refusal {
    Refusal {
        fen,
        lang,
        text,
        says,
    }
}

const TWO_KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
const PROMOTION: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

const REFUSALS: &[Refusal] = &[
    refusal(
        None,
        None,
        "Ke2",
        &[
            "game 1 (line 1), move 1 (White) \"Ke2\"",
            "no such move here; no legal move goes to e2",
        ],
    ),
    refusal(
        None,
        None,
        "1. e4 e4",
        &[
            "move 1 (Black) \"e4\"",
            "no such move here; no legal move goes to e4",
        ],
    ),
    refusal(
        None,
        None,
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7",
        &["move 4 (Black)", "the game is over"],
    ),
    refusal(
        Some(TWO_KNIGHTS),
        None,
        "Nd2",
        &["\"Nd2\"", "ambiguous: it could be Nbd2 or Nfd2"],
    ),
    refusal(
        Some(TWO_KNIGHTS),
        Some(Lang::Russian),
        "Кd2",
        &["ambiguous: it could be Кbd2 or Кfd2"],
    ),
    refusal(
        Some(PROMOTION),
        None,
        "e8",
        &["the piece to promote to is missing", "e8=Q", "e8=N"],
    ),
    refusal(
        Some(PROMOTION),
        None,
        "e7e8",
        &["the piece to promote to is missing"],
    ),
    refusal(
        Some(PROMOTION),
        None,
        "5758",
        &["the piece to promote to is missing", "57581", "57584"],
    ),
    refusal(
        Some(PROMOTION),
        None,
        "e8=",
        &["not a move: the promotion piece is missing after '='"],
    ),
    refusal(
        None,
        None,
        "hello",
        &["\"hello\"", "not a move: no destination square"],
    ),
    refusal(
        None,
        None,
        "0000",
        &["not a move: a null move is not a move"],
    ),
    refusal(
        None,
        None,
        "e2e4 --",
        &["move 1 (Black) \"--\"", "a null move is not a move"],
    ),
    refusal(
        None,
        None,
        "Zf3",
        &["not a move: no piece is written \"Z\""],
    ),
    refusal(
        None,
        None,
        "5294",
        &["not a move: not a numeric move: squares are numbered 11 to 88"],
    ),
    refusal(
        None,
        None,
        "1. e4 e5 3. Nf3",
        &[
            "move 2 (White) \"3.\"",
            "the move number 3. is written, but this is move 2 for White",
        ],
    ),
    refusal(None, None, "1... e4", &["the move number 1... is written"]),
    refusal(None, None, "(=) 1. e4", &["a mark with no move before it"]),
    refusal(
        None,
        None,
        "1. e4 e5\n\n1. d4 d5 2. Bb5",
        &[
            "game 2 (line 3), move 2 (White) \"Bb5\"",
            "no such move here; no legal move goes to b5",
        ],
    ),
];

#[test]
fn refusals_name_the_game_the_move_the_token_and_the_reason() {
    let mut failures = Vec::new();
    for r in REFUSALS {
        let converted = convert_text(r.text, Format::Uci, r.lang, r.fen);
        let missing: Vec<&&str> = r
            .says
            .iter()
            .filter(|s| !converted.err.contains(**s))
            .collect();
        if converted.totals.failed != 1 || !missing.is_empty() {
            failures.push(format!(
                "{:?}: failed {} games; missing {missing:?} in {:?}",
                r.text, converted.totals.failed, converted.err
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_failed_game_keeps_its_line_with_the_moves_before_the_bad_one() {
    let converted = convert_text("1. e4 e5 2. Nf3 Ke2\n\n1. d4 d5\n", Format::Uci, None, None);
    assert_eq!(converted.out, "e2e4 e7e5 g1f3\nd2d4 d7d5\n");
    assert_eq!(converted.totals.games, 2);
    assert_eq!(converted.totals.failed, 1);
}

#[test]
fn english_comes_first_and_other_languages_only_where_english_is_illegal() {
    // `Kf3` is an English king move where one is legal...
    let king = convert_text(
        "Kf3",
        Format::Uci,
        None,
        Some("4k3/8/8/8/8/8/4K3/6N1 w - - 0 1"),
    );
    assert_eq!(king.out.trim(), "e2f3");
    // ...and the Russian knight where no king can go there.
    let knight = convert_text(
        "Kf3",
        Format::Uci,
        None,
        Some("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"),
    );
    assert_eq!(knight.out.trim(), "g1f3");
    // With the player's language given, its own letter comes first: a Cyrillic `К` is the
    // Russian knight even where the king could also go.
    let russian = convert_text(
        "Кf3",
        Format::Uci,
        Some(Lang::Russian),
        Some("4k3/8/8/8/8/8/4K3/6N1 w - - 0 1"),
    );
    assert_eq!(russian.out.trim(), "g1f3");
}

/// With `--lang ru`, a Latin `Kf1` where the king on e1 and a knight on h2 can both reach f1
/// was taken as the knight without a word; a sent move binds, so both readings are named.
#[test]
fn regression_a_latin_k_legal_as_king_and_russian_knight_was_taken_as_the_knight() {
    let fen = Some("4k3/8/8/8/8/8/7N/4K3 w - - 0 1");
    let latin = convert_text("Kf1", Format::Uci, Some(Lang::Russian), fen);
    assert_eq!(latin.totals.failed, 1, "{}", latin.out);
    assert!(
        latin.err.contains("ambiguous") && latin.err.contains("Крf1") && latin.err.contains("Кf1"),
        "{}",
        latin.err
    );
    // Where only one of them can go, the move is read.
    let only_knight = convert_text(
        "Kf3",
        Format::Uci,
        Some(Lang::Russian),
        Some("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1"),
    );
    assert_eq!(only_knight.out.trim(), "g1f3");
}

#[test]
fn earlier_moves_settle_a_players_language() {
    // After `Кf3` (only a knight can go there), White's `C` is the Russian bishop, not the
    // French knight, although both are legal.
    let text = "1. Кf3 d5 2. d3 e5 3. Cd2";
    let converted = convert_text(text, Format::Uci, None, None);
    assert_eq!(
        converted.out.trim(),
        "g1f3 d7d5 d2d3 e7e5 c1d2",
        "{}",
        converted.err
    );
    // Without that history the same `Cd2` has two readings and is refused, naming both.
    let alone = convert_text(
        "Cd2",
        Format::Uci,
        None,
        Some("rnbqkbnr/ppp2ppp/8/3pp3/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 3"),
    );
    assert_eq!(alone.totals.failed, 1);
    assert!(
        alone.err.contains("Bd2 (in Russian/Ukrainian)"),
        "{}",
        alone.err
    );
    assert!(
        alone
            .err
            .contains("Nbd2 (in French/Spanish/Italian/Portuguese/Romanian)"),
        "{}",
        alone.err
    );
}
