//! Reading without a language: a game's language settles from its own moves. In `convert`
//! (a whole game at hand, so its later moves may decide an earlier one) and in the relay (a
//! player without `lang`, whose earlier moves in the game narrow the languages, kept across a
//! restart).

use ccrelay::convert::Format;
use ccrelay::notation::Reader;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::support::config::{BORIS, Player, temp_setup};
use crate::support::convert::convert_text;
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;

/// A game read without a language: its moves in UCI, or the error.
fn read(text: &str, fen: Option<&str>) -> Result<String, String> {
    let c = convert_text(text, Format::Uci, None, fen);
    if c.totals.failed == 0 {
        Ok(c.out.trim().to_owned())
    } else {
        Err(c.err)
    }
}

/// The position after the first `plies` of `uci`, as a FEN.
fn fen_after(uci: &str, plies: usize) -> String {
    let mut pos = Chess::default();
    for u in uci.split_whitespace().take(plies) {
        let m = Reader::new(None).read(&pos, u).expect("legal").m;
        pos.play_unchecked(m);
    }
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

/// A game whose language an earlier move settles: `text` reads as `uci`, while its move
/// `ambiguous` (counted in half-moves from 0), read on its own in the same position, is
/// refused or read as another move: the earlier moves made the difference.
struct Settled {
    name: &'static str,
    text: &'static str,
    uci: &'static str,
    ambiguous: usize,
}

const SETTLED: &[Settled] = &[
    Settled {
        // `Cf3`: only a knight gets there (French, Spanish, ... `C`), so `Cxd7` is the knight's,
        // not the Russian bishop's.
        name: "French C settles C",
        text: "1. Cf3 h6 2. Ce5 h5 3. e3 h4 4. f1b5 a6 5. Cxd7",
        uci: "g1f3 h7h6 f3e5 h6h5 e2e3 h5h4 f1b5 a7a6 e5d7",
        ambiguous: 8,
    },
    Settled {
        // White's `Cf3` settles Black's `Cd7` (the knight's, not the bishop's): one game, one
        // language.
        name: "White's French C settles Black's C",
        text: "1. Cf3 d5 2. e3 Cd7",
        uci: "g1f3 d7d5 e2e3 b8d7",
        ambiguous: 3,
    },
    Settled {
        // `Fb5`: a French (or Hungarian) bishop; neither writes a Russian bishop `C`.
        name: "French F settles C",
        text: "1. e3 h6 2. Fb5 h5 3. g1f3 h4 4. f3e5 a6 5. Cxd7",
        uci: "e2e3 h7h6 f1b5 h6h5 g1f3 h5h4 f3e5 a7a6 e5d7",
        ambiguous: 8,
    },
    Settled {
        // `Sf3`: a German knight (a Czech bishop cannot get there); `Le2` is then the German
        // bishop, not the Estonian queen.
        name: "German S settles L",
        text: "1. e4 e5 2. Sf3 Sc6 3. Le2",
        uci: "e2e4 e7e5 g1f3 b8c6 f1e2",
        ambiguous: 4,
    },
    Settled {
        // `Vh5`: the Hungarian queen (no Czech or Estonian rook gets there); `Hf3` is then the
        // Hungarian knight, not the Polish queen.
        name: "Hungarian V settles H",
        text: "1. e4 e5 2. Vh5 Hc6 3. Hf3",
        uci: "e2e4 e7e5 d1h5 b8c6 g1f3",
        ambiguous: 4,
    },
    Settled {
        // `Fc4`: a Hungarian or French bishop; neither has a Polish queen `H`.
        name: "Hungarian F settles H",
        text: "1. e4 e5 2. Fc4 Hc6 3. Hf3",
        uci: "e2e4 e7e5 f1c4 b8c6 g1f3",
        ambiguous: 4,
    },
    Settled {
        // `Ld3`: only the Estonian queen gets there; `Rh3` is then the Estonian knight, not
        // the English rook English would read first.
        name: "Estonian L settles R",
        text: "1. d4 d5 2. Ld3 Rc6 3. h4 e5 4. Rh3",
        uci: "d2d4 d7d5 d1d3 b8c6 h2h4 e7e5 g1h3",
        ambiguous: 6,
    },
    Settled {
        // `Jc3`: only Czech writes `J`, its knight; `Se2` is then the Czech bishop, not the
        // German knight.
        name: "Czech J settles S",
        text: "1. e4 e5 2. Jc3 Jc6 3. Se2",
        uci: "e2e4 e7e5 b1c3 b8c6 f1e2",
        ambiguous: 4,
    },
    Settled {
        // `Lc4`: a Swedish (German, ...) bishop; Czech has no `L`, so `Se2` is the knight.
        name: "Swedish L settles S",
        text: "1. e4 e5 2. Lc4 Sc6 3. Se2",
        uci: "e2e4 e7e5 f1c4 b8c6 g1e2",
        ambiguous: 4,
    },
    Settled {
        // Latin look-alikes for the Russian letters: `Kc3` is a knight (no king gets there),
        // so the game is Russian (or Ukrainian, Bulgarian), and `Ce2` is the bishop.
        name: "Russian K settles C, in Latin letters",
        text: "1. e4 e5 2. Kc3 Kf6 3. Ce2",
        uci: "e2e4 e7e5 b1c3 g8f6 f1e2",
        ambiguous: 4,
    },
    Settled {
        // The same in Cyrillic (`К`, `С`), folded as ever.
        name: "Russian К settles С, in Cyrillic",
        text: "1. е4 е5 2. Кc3 Кf6 3. Сe2",
        uci: "e2e4 e7e5 b1c3 g8f6 f1e2",
        ambiguous: 4,
    },
];

#[test]
fn a_games_earlier_move_settles_its_language() {
    for case in SETTLED {
        assert_eq!(
            read(case.text, None).as_deref(),
            Ok(case.uci),
            "{}: {}",
            case.name,
            case.text
        );
        // The same move on its own, in the same position, is not read so.
        let token = case
            .text
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .nth(case.ambiguous)
            .expect("the ambiguous token");
        let alone = read(token, Some(&fen_after(case.uci, case.ambiguous)));
        let expected = case.uci.split_whitespace().nth(case.ambiguous);
        assert_ne!(
            alone.as_deref().ok(),
            expected,
            "{}: {token:?} alone reads the same, so the case proves nothing",
            case.name
        );
    }
}

#[test]
fn a_move_ambiguous_to_the_end_of_its_game_is_refused_naming_its_readings() {
    // `Hf3` is a Polish queen or a Hungarian knight, and nothing after it says which.
    for text in ["1. e4 e5 2. Hf3", "1. e4 e5 2. Hf3 a6 3. a3 a5 4. h3"] {
        let err = read(text, None).expect_err(text);
        assert!(err.contains("move 2 (White) \"Hf3\""), "{text}: {err}");
        assert!(
            err.contains("Qf3 (in Polish) or Nf3 (in Hungarian)"),
            "{text}: {err}"
        );
        assert!(err.contains("do not decide"), "{text}: {err}");
    }
    // Read either way, the game stops: the move is refused, and each reading's stop named.
    let err = read("1. e4 e5 2. Hf3 a6 3. e6", None).expect_err("stops");
    assert!(err.contains("move 2 (White) \"Hf3\""), "{err}");
    assert!(err.contains("read either way, the game stops"), "{err}");
    assert!(err.contains("in Polish at move 3 (White) \"e6\""), "{err}");
    assert!(
        err.contains("in Hungarian at move 3 (White) \"e6\""),
        "{err}"
    );
}

#[test]
fn a_game_switching_language_mid_way_is_refused_at_the_move_that_switches() {
    // French knights, then an English one: no silent switch.
    let err = read("1. e4 e5 2. Cf3 Cc6 3. Nxe5", None).expect_err("switch");
    assert!(err.contains("move 3 (White) \"Nxe5\""), "{err}");
    assert!(
        err.contains("no legal move in French/Spanish/Italian/Portuguese/Romanian"),
        "{err}"
    );
    assert!(err.contains("only English read it, as Nxe5"), "{err}");
    // A Russian game (Latin look-alikes) that writes an English bishop.
    let err = read("1. e4 e5 2. Kf3 Kc6 3. Bc4", None).expect_err("switch");
    assert!(err.contains("move 3 (White) \"Bc4\""), "{err}");
    assert!(err.contains("Russian/Ukrainian/Bulgarian"), "{err}");
    // The moves before the switch are read and written.
    let c = convert_text("1. e4 e5 2. Cf3 Cc6 3. Nxe5", Format::Uci, None, None);
    assert_eq!(c.out.trim(), "e2e4 e7e5 g1f3 b8c6");
}

#[test]
fn a_later_move_settles_an_earlier_ambiguous_one() {
    for (text, uci) in [
        // `Hf3` first, before anything settles; Black's `Hc6` is no Polish queen's.
        ("1. e4 e5 2. Hf3 Hc6 3. Fc4", "e2e4 e7e5 g1f3 b8c6 f1c4"),
        // The same, with a draw offer written apart and a mark, kept in their places.
        (
            "1. e4 e5 2. Hf3 (=) Hc6 3. Fc4+",
            "e2e4 e7e5 g1f3 b8c6 f1c4",
        ),
        // `Cd7` (Black): a French knight or a Russian bishop; `Cgf6` is only a knight.
        (
            "1. d4 d5 2. c4 e6 3. b1c3 Cd7 4. c1f4 Cgf6",
            "d2d4 d7d5 c2c4 e7e6 b1c3 b8d7 c1f4 g8f6",
        ),
        // English reads `Кd2` first (the king can get there), but the game is Russian: only
        // the knight's reading reads on to its end.
        (
            "1. e4 e6 2. d4 d5 3. Кd2 Кf6 4. e5 Кfd7",
            "e2e4 e7e6 d2d4 d7d5 b1d2 g8f6 e4e5 f6d7",
        ),
    ] {
        assert_eq!(read(text, None).as_deref(), Ok(uci), "{text}");
    }
    let c = convert_text("1. e4 e5 2. Hf3 (=) Hc6 3. Fc4+", Format::Iccf, None, None);
    assert_eq!(
        c.out.trim(),
        "1. 5254 5755 2. 7163 (=) 2836 3. 6134",
        "{}",
        c.err
    );
}

#[test]
fn english_is_still_read_first_and_its_first_error_stays_the_games() {
    // `Ke2` is an English king or a Russian knight, and so is `Ke7`: nothing after them
    // decides, and English stands, as it does for a move read on its own.
    assert_eq!(
        read("1. e4 e5 2. Ke2 Ke7", None).as_deref(),
        Ok("e2e4 e7e5 e1e2 e8e7")
    );
    // Neither reading reads `Kd5`: the English reading's error is the game's, where it was
    // before anything looked ahead, and its moves before it are written.
    let c = convert_text("1. e4 e5 2. Ke2 Ke7 3. Kd5", Format::Uci, None, None);
    assert_eq!(c.totals.failed, 1);
    assert_eq!(c.out.trim(), "e2e4 e7e5 e1e2 e8e7", "{}", c.err);
    assert!(
        c.err.contains("move 3 (White) \"Kd5\": no such move here"),
        "{}",
        c.err
    );
}

/// A French player with no `lang` of their own.
const FRANCOIS: Player = Player {
    id: "francois",
    secret: "francois-secret",
    notation: "san",
    lang: None,
};

/// Plays the opening up to White's fifth move: White's knight on e5, bishop on b5, so
/// `Cxd7` may be the knight's (French `C`) or the bishop's (Russian `С`). White writes its
/// knight moves in French when `french`, else in UCI (which says nothing of language).
fn up_to_cxd7(white: &mut Client, black: &mut Client, game: &str, french: bool) {
    let (knight_out, knight_on) = if french {
        ("Cf3", "Ce5")
    } else {
        ("g1f3", "f3e5")
    };
    for (white_move, black_move) in [
        (knight_out, "h7-h6"),
        (knight_on, "h6-h5"),
        ("e3", "h5-h4"),
        ("f1b5", "a7-a6"),
    ] {
        let (code, text) = white.call(&format!("MOVE {game} {white_move}"));
        assert_eq!(code, 250, "{game} {white_move}: {text}");
        let (code, text) = black.call(&format!("MOVE {game} {black_move}"));
        assert_eq!(code, 250, "{game} {black_move}: {text}");
    }
}

#[test]
fn a_player_without_a_language_is_read_in_the_language_of_their_earlier_moves() {
    let games = [
        ("settled", "francois", "boris"),
        ("restarted", "francois", "boris"),
        ("unsettled", "francois", "boris"),
    ];
    let (_dir, config) = temp_setup(&[FRANCOIS, BORIS], &games);

    let mut daemon = Daemon::start(&config);
    let mut francois = daemon.login(&FRANCOIS);
    let mut boris = daemon.login(&BORIS);
    up_to_cxd7(&mut francois, &mut boris, "settled", true);
    up_to_cxd7(&mut francois, &mut boris, "restarted", true);
    up_to_cxd7(&mut francois, &mut boris, "unsettled", false);

    // `Cf3` and `Ce5` were knights: this game's `Cxd7` is the knight's (e5-d7: 5547).
    let (code, text) = francois.call("MOVE settled Cxd7");
    assert_eq!(code, 250, "{text}");
    assert!(text.contains("5547"), "{text}");
    // With no letter written before, the same move is refused as ever, naming both readings.
    let (code, text) = francois.call("MOVE unsettled Cxd7");
    assert_eq!(code, 422, "{text}");
    assert!(text.contains("ambiguous"), "{text}");
    assert!(text.contains("(in Russian/Ukrainian)"), "{text}");
    assert!(
        text.contains("(in French/Spanish/Italian/Portuguese/Romanian)"),
        "{text}"
    );
    drop((francois, boris));

    // After a restart the languages are read back with the game.
    assert!(daemon.terminate().success(), "SIGTERM exits 0");
    let daemon = Daemon::start(&config);
    let mut francois = daemon.login(&FRANCOIS);
    let (code, text) = francois.call("MOVE restarted Cxd7");
    assert_eq!(code, 250, "{text}");
    assert!(text.contains("5547"), "{text}");
    let (code, text) = francois.call("MOVE unsettled Cxd7");
    assert_eq!(code, 422, "still ambiguous in the other game: {text}");
    drop(daemon);
    assert_journal_verifies(&config);
}

#[test]
fn a_player_without_a_language_cannot_switch_language_mid_game() {
    let (_dir, config) = temp_setup(&[FRANCOIS, BORIS], &[("g1", "francois", "boris")]);
    let daemon = Daemon::start(&config);
    let mut francois = daemon.login(&FRANCOIS);
    let mut boris = daemon.login(&BORIS);
    assert_eq!(francois.call("MOVE g1 Cf3").0, 250);
    assert_eq!(boris.call("MOVE g1 e7-e5").0, 250);
    let (code, text) = francois.call("MOVE g1 Nxe5");
    assert_eq!(code, 422, "{text}");
    assert!(
        text.contains("no legal move in French/Spanish/Italian/Portuguese/Romanian"),
        "{text}"
    );
    assert!(text.contains("only English read it"), "{text}");
    // In the game's language it is read.
    let (code, text) = francois.call("MOVE g1 Cxe5");
    assert_eq!(code, 250, "{text}");
}
