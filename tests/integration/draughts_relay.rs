//! Russian draughts through the real daemon: an event whose games are draughts, moves over TCP
//! in both forms of seed 003, refusals by the draughts rules, the board on `SHOW`, a restart
//! that replays the record, and the journal's verify and export.

use std::path::PathBuf;

use crate::support::config::{ALICE, BORIS, config_text_with};
use crate::support::daemon::{Daemon, admin};
use crate::support::journal::{assert_journal_verifies, journal_export};
use crate::support::line::{ok, push_starting};

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let extra =
        "[[events]]\nid = \"shashki\"\nname = \"Telegraph match\"\ngame = \"draughts-ru\"\n";
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], extra);
    std::fs::write(&config, text).expect("write config");
    (dir, config)
}

/// Seed 003, diagram 2, set up from its Russian listing: the king's four-piece capture, written
/// by its ends, is recorded with every landing square.
#[test]
fn a_game_from_the_seed_listing_records_the_whole_capture() {
    let (_dir, config) = setup();
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(
        &mut arbiter,
        "CREATE d2 alice boris GAME draughts-ru FEN Белые: дамка e1, простая шашка f2. \
         Черные: простые b6, c3, c5, d6, e5, e7.",
    );
    let mut alice = daemon.login(&ALICE);
    // Stopping on f6 leaves a piece to take: refused, naming the whole capture.
    let (code, text) = alice.call("MOVE d2 e1:a5:d8:f6");
    assert_eq!(code, 422, "{text}");
    assert!(text.contains("e1:a5:d8:f6:d4"), "{text}");
    let reply = ok(&mut alice, "MOVE d2 e1:d4");
    assert!(reply.contains("31x13x2x11x18"), "{reply}");
    drop((alice, arbiter, daemon));
    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "d2", "pgn");
    assert!(
        pgn.contains("[FEN \"W:W27,K31:B7,9,10,14,15,22:F1\"]"),
        "{pgn}"
    );
}

#[test]
fn a_draughts_game_is_played_refused_by_its_rules_replayed_and_exported() {
    let (_dir, config) = setup();
    let mut daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE d1 alice boris EVENT shashki");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);

    let reply = ok(&mut alice, "MOVE d1 c3-d4");
    assert!(reply.contains("22-18"), "{reply}");
    let push = push_starting(&mut boris, "MOVE d1");
    assert!(push.contains("1. c3-d4 (22-18)"), "{push}");
    // Black's move after a number with an ellipsis, in the numeric form.
    ok(&mut boris, "MOVE d1 1… 11-15");
    // A capture is compulsory: the quiet move is refused, naming the capture.
    let (code, text) = alice.call("MOVE d1 d4-c5");
    assert_eq!(code, 422, "{text}");
    assert!(text.contains("a capture is compulsory"), "{text}");
    assert!(text.contains("d4:f6") || text.contains("18x11"), "{text}");
    // A chess move means nothing on this board.
    assert_eq!(alice.call("MOVE d1 Nf3").0, 422);
    ok(&mut alice, "MOVE d1 d4:f6");
    ok(&mut boris, "MOVE d1 2. g7:e5");
    let show = ok(&mut alice, "SHOW d1");
    assert!(
        show.contains("moves: 1. c3-d4 f6-e5 2. d4:f6 g7:e5"),
        "{show}"
    );
    assert!(show.contains("to move: White (alice), move 3"), "{show}");
    assert!(show.contains("a b c d e f g h"), "{show}");

    // A restart replays the game from the record.
    drop((alice, boris, arbiter));
    daemon.kill9();
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    // All but the clock, which runs on real time through the restart: under load a second
    // passed and White's "50d 00h left" read "49d 23h".
    let without_clock = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("clock: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let replayed = ok(&mut alice, "SHOW d1");
    assert_eq!(without_clock(&replayed), without_clock(&show));
    assert!(
        replayed.contains("\nclock: White 0d 00h used, "),
        "{replayed}"
    );
    ok(&mut alice, "RESIGN d1");
    drop((alice, daemon));

    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "d1", "pgn");
    assert!(pgn.contains("[GameType \"25\"]"), "{pgn}");
    assert!(pgn.contains("1. c3-d4 "), "{pgn}");
    assert!(pgn.contains("2... g7:e5 "), "{pgn}");
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    let scoresheet = journal_export(&config, "d1", "iccf");
    assert!(scoresheet.contains("   2.  18x11 "), "{scoresheet}");
}
