//! Property tests: in random legal positions, every legal move written in every notation and
//! language reads back to the same move; whole games round-trip through movetext; no input
//! makes the reader panic.

use ccrelay::convert::Format;
use ccrelay::notation::movetext::parse_position;
use ccrelay::notation::{Iccf, Lang, Reader, lan, san, uci};
use proptest::prelude::*;
use shakmaty::{Chess, Move, Position};

use crate::support::convert::convert_text;

/// Start positions rich in what random play seldom reaches: promotions (with and without
/// capture, both colours), en passant, castling on both sides.
const STARTS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1",
    "r3k2r/pPp3pp/8/8/8/8/PpP3PP/R3K2R b KQkq - 0 1",
];

/// The position after playing `choices` (each picks one legal move) from a start position.
fn position(start: usize, choices: &[u16]) -> (Chess, Vec<Move>) {
    let mut pos = parse_position(STARTS[start % STARTS.len()]).expect("valid start");
    let mut played = Vec::new();
    for &choice in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(choice) % legal.len()];
        pos.play_unchecked(m);
        played.push(m);
    }
    (pos, played)
}

fn all_langs() -> impl Iterator<Item = Lang> {
    Lang::LETTERED.iter().copied().chain([Lang::Figurine])
}

fn read(lang: Option<Lang>, pos: &Chess, text: &str) -> Result<Move, String> {
    Reader::new(lang)
        .read(pos, text)
        .map(|r| r.m)
        .map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_legal_move_in_every_notation_reads_back(start in 0usize..3, choices in proptest::collection::vec(any::<u16>(), 0..60)) {
        let (pos, _) = position(start, &choices);
        for m in pos.legal_moves() {
            let iccf = Iccf::from_move(m).to_string();
            prop_assert_eq!(read(None, &pos, &iccf), Ok(m), "ICCF {}", iccf);
            let u = uci::write(m);
            prop_assert_eq!(read(None, &pos, &u), Ok(m), "UCI {}", u);
            let english = san::write(&pos, m, Lang::English);
            prop_assert_eq!(read(None, &pos, &english), Ok(m), "SAN {} read in any language", english);
            for lang in all_langs() {
                let s = san::write(&pos, m, lang);
                prop_assert_eq!(read(Some(lang), &pos, &s), Ok(m), "SAN {} in {}", s, lang);
                let l = lan::write(&pos, m, lang);
                prop_assert_eq!(read(Some(lang), &pos, &l), Ok(m), "LAN {} in {}", l, lang);
            }
        }
    }

    #[test]
    fn whole_games_round_trip_through_movetext(start in 0usize..3, choices in proptest::collection::vec(any::<u16>(), 1..120), lang_index in 0usize..21) {
        let (_, played) = position(start, &choices);
        let lang = all_langs().nth(lang_index).expect("21 languages");
        let fen = STARTS[start % STARTS.len()];
        let expected: Vec<String> = played.iter().map(|m| uci::write(*m)).collect();
        let expected = format!("{}\n", expected.join(" "));
        // Write the game in each numbered notation, then read it back to UCI.
        let first = convert_text(&expected, Format::Pgn, Some(lang), Some(fen));
        prop_assert_eq!(first.totals.failed, 0, "{}", first.err);
        let back = convert_text(&first.out, Format::Uci, Some(lang), None);
        prop_assert_eq!(&back.out, &expected, "PGN in {}: {}", lang, first.out);
        for to in [Format::Iccf, Format::San, Format::Lan] {
            let written = convert_text(&expected, to, Some(lang), Some(fen));
            let back = convert_text(&written.out, Format::Uci, Some(lang), Some(fen));
            prop_assert_eq!(&back.out, &expected, "{} in {}: {} / {}", to, lang, written.out, back.err);
        }
    }

    #[test]
    fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for to in [Format::Uci, Format::Json, Format::Pgn] {
            let converted = convert_text(&text, to, None, None);
            if to == Format::Uci {
                prop_assert_eq!(converted.out.lines().count() as u64, converted.totals.games);
            }
        }
    }

    #[test]
    fn movetext_words_never_panic(words in proptest::collection::vec("[a-hKQRBNOКФЛСxх:0-9=+#!?.()\\-—e]{1,8}", 0..40)) {
        let text = words.join(" ");
        let converted = convert_text(&text, Format::Uci, None, None);
        // A result (`0:1`, `1-0`, `0—1`) ends a game, and words after it begin another.
        let results = words.iter().filter(|w| w.contains('0') && w.contains('1')).count();
        prop_assert!(converted.totals.games <= 1 + results as u64);
    }
}
