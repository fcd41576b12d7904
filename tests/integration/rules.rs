//! Correspondence rules through the real daemon, with its manual clock (`[clock] mode =
//! "manual"`) moved by the admin's `CLOCK` command: time forfeit, a flag for the arbiter and
//! an adjudication, leave (across a restart), a conditional line, draw claims; and the
//! official records read by pgn-extract and python-chess.

use std::path::PathBuf;
use std::process::Command;

use crate::support::config::{ALICE, BORIS, config_text_with};
use crate::support::daemon::{Daemon, admin};
use crate::support::journal::{assert_journal_verifies, journal_export, rehash_from};
use crate::support::line::{ok, push_starting};
use crate::support::peers::pgn_extract;
use crate::support::process::ccrelay;

const START: &str = "2027-01-01T00:00:00Z";

/// A daemon config with a manual clock and one event `ev` with `rules` (TOML lines).
fn setup(rules: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let extra = format!(
        "[clock]\nmode = \"manual\"\nstart = \"{START}\"\n\
         [[events]]\nid = \"ev\"\nname = \"Rules test\"\nsite = \"ccrelay\"\n{rules}\n"
    );
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], &extra);
    std::fs::write(&config, text).expect("write config");
    (dir, config)
}

#[test]
fn a_player_past_the_time_limit_loses_on_time() {
    let (_dir, config) = setup("time_control = \"2 moves in 10 days\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut arbiter, "CLOCK +1d");
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut arbiter, "CLOCK +3d");
    let reply = ok(&mut boris, "MOVE g1 e5");
    // Both clocks with every move: White used 1 day, Black 3.
    assert!(
        reply.contains(
            "White 1d 00h used, 9d 00h left to move 2 (running) | Black 3d 00h used, 7d 00h left to move 2"
        ),
        "{reply}"
    );
    let push = push_starting(&mut alice, "MOVE g1 1... e5");
    assert!(
        push.contains("White 1d 00h used") && push.contains("(running)"),
        "{push}"
    );
    // White has 9 days left for move 2; 9 days and an hour later the clock takes the game.
    ok(&mut arbiter, "CLOCK +9d");
    assert!(!ok(&mut alice, "SHOW g1").contains("result:"));
    ok(&mut arbiter, "CLOCK +1h");
    let told = push_starting(&mut alice, "TIME g1");
    assert!(told.contains("time limit exceeded, lost on time"), "{told}");
    // The clock shown is the one that ran out: 10 days and an hour used, an hour over.
    assert!(
        told.contains("White 10d 01h used, -0d 01h left to move 2"),
        "{told}"
    );
    assert!(push_starting(&mut boris, "RESULT g1").contains("0-1 (lost on time)"));
    let (code, text) = alice.call("MOVE g1 Nf3");
    assert_eq!(code, 409, "{text}");
    assert!(text.contains("game is over: 0-1 (lost on time)"), "{text}");
    drop((alice, boris, arbiter, daemon));
    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "g1", "pgn");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[TimeControl \"2/864000\"]"),
        "{pgn}"
    );
}

/// `journal verify` recomputes the clocks: the same loss on time, its entry moved three days
/// earlier by someone with write access who recomputes every hash after it, fails with the
/// clock's reason (the chain alone cannot show it).
#[test]
fn a_loss_on_time_moved_earlier_in_the_journal_fails_verify_on_the_clocks() {
    let (_dir, config) = setup("time_control = \"2 moves in 10 days\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    ok(&mut arbiter, "CLOCK +10d");
    ok(&mut arbiter, "CLOCK +1h");
    assert!(push_starting(&mut alice, "TIME g1").contains("lost on time"));
    drop((alice, arbiter, daemon));
    let verified = assert_journal_verifies(&config);
    assert!(
        verified.contains("clocks agree with every result (1 games timed)"),
        "{verified}"
    );

    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn = rusqlite::Connection::open(data).expect("journal");
    let seq: i64 = conn
        .query_row("SELECT seq FROM entries WHERE kind = 'time_up'", [], |r| {
            r.get(0)
        })
        .expect("the loss on time's entry");
    conn.execute(
        "UPDATE entries SET time = '2027-01-08T01:00:00Z' WHERE seq = ?1",
        [seq],
    )
    .expect("move it earlier");
    rehash_from(&conn, seq);
    let out = ccrelay()
        .args(["journal", "verify", "--config"])
        .arg(&config)
        .output()
        .expect("verify");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains(&format!("entry {seq}: a loss on time of alice recorded at 2027-01-08T01:00:00Z, but the clock gives it 2d 23h left")),
        "{said}"
    );
}

#[test]
fn a_flag_goes_to_the_arbiter_who_adjudicates_with_a_reason() {
    let (_dir, config) = setup(
        "time_control = \"10 moves in 50 days\"\non_timeout = \"arbiter\"\nreminder_days = [14, 28]\nsilence_days = 40",
    );
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev ROUND 3");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 d4");
    // Boris is silent: reminded after 14 and 28 days, flagged after 40.
    ok(&mut arbiter, "CLOCK +15d");
    assert!(push_starting(&mut boris, "REMINDER g1").contains("14 days"));
    ok(&mut arbiter, "CLOCK +14d");
    assert!(push_starting(&mut boris, "REMINDER g1").contains("28 days"));
    ok(&mut arbiter, "CLOCK +12d");
    let flag = push_starting(&mut arbiter, "TIME g1 boris (Black)");
    assert!(
        flag.contains("silence limit exceeded; the arbiter decides"),
        "{flag}"
    );
    assert!(ok(&mut boris, "SHOW g1").contains("past the time limit: the arbiter decides"));
    // Nothing is sent twice after a restart: the reminders and the flag are in the journal.
    ok(&mut boris, "ACK");
    ok(&mut arbiter, "ACK");
    drop((alice, boris, arbiter, daemon));
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CLOCK +1d");
    let mut boris = daemon.login(&BORIS);
    ok(&mut boris, "GAMES");
    assert!(boris.pushes.is_empty(), "sent again: {:?}", boris.pushes);
    assert!(
        arbiter.pushes.is_empty(),
        "sent again: {:?}",
        arbiter.pushes
    );
    let mut alice = daemon.login(&ALICE);
    // Only the arbiter adjudicates, and says why.
    assert_eq!(boris.call("ADJUDICATE g1 0-1 I say so").0, 403);
    assert_eq!(arbiter.call("ADJUDICATE g1 2-0 typo").0, 400);
    ok(&mut arbiter, "ADJUDICATE g1 1-0 Black silent for 41 days");
    let result = push_starting(&mut alice, "RESULT g1");
    assert!(
        result.contains("1-0 (adjudicated: Black silent for 41 days)"),
        "{result}"
    );
    assert!(push_starting(&mut boris, "RESULT g1").contains("adjudicated"));
    // The arbiter may correct a decision (or a result the clock gave); both players are told.
    ok(
        &mut arbiter,
        "ADJUDICATE g1 1/2-1/2 corrected on appeal {see minutes}",
    );
    assert!(push_starting(&mut alice, "RESULT g1").contains("1/2-1/2 (adjudicated: corrected"));
    drop((alice, boris, arbiter, daemon));
    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "g1", "pgn");
    assert!(
        pgn.contains("[Termination \"adjudication\"]") && pgn.contains("[Round \"3\"]"),
        "{pgn}"
    );
    // The last decision stands; the reason's braces cannot break the comment.
    let one_line = pgn.replace('\n', " ");
    assert!(
        one_line.contains("{1/2-1/2 (adjudicated: corrected on appeal (see minutes))} 1/2-1/2"),
        "{pgn}"
    );
    let report = journal_export(&config, "g1", "report");
    assert!(
        report.contains("reminder") && report.contains("time up"),
        "{report}"
    );
}

#[test]
fn leave_stops_the_clock_and_survives_a_restart() {
    let (_dir, config) = setup("time_control = \"3 days per move\"\nleave_days_per_year = 10");
    let mut daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    // Leave is announced ahead and within the allowance.
    let (code, text) = alice.call("LEAVE 2027-01-01 2");
    assert_eq!(code, 409, "{text}");
    assert!(text.contains("announced ahead"), "{text}");
    let (code, text) = alice.call("LEAVE 2027-01-02 11");
    assert!(
        code == 409 && text.contains("10 allowed a year"),
        "{code} {text}"
    );
    assert_eq!(alice.call("LEAVE 2027-02-30 2").0, 400);
    let reply = ok(&mut alice, "LEAVE 2027-01-02 7");
    assert!(
        reply.contains("2027-01-02 to 2027-01-08 (7 days) in g1"),
        "{reply}"
    );
    let told = push_starting(&mut boris, "LEAVE g1 alice (White)");
    assert!(told.contains("their clock stops"), "{told}");
    // Leave is the player's: a game started during it is covered, and the yearly allowance
    // counts every game (7 of 10 days taken).
    ok(&mut arbiter, "CREATE g2 boris alice EVENT ev");
    let shown = ok(&mut alice, "SHOW g2");
    assert!(
        shown.contains("leave: Black 2027-01-02 to 2027-01-08 (7 days)"),
        "{shown}"
    );
    let (code, text) = alice.call("LEAVE 2027-03-01 4");
    assert!(
        code == 409 && text.contains("7 taken already"),
        "{code} {text}"
    );
    ok(&mut boris, "RESIGN g2");
    drop((alice, boris, arbiter));
    assert!(daemon.terminate().success());

    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    let mut alice = daemon.login(&ALICE);
    // 9 days on: 1 day before the leave and 1 after count; without the leave White would
    // have lost (3 days per move).
    ok(&mut arbiter, "CLOCK +9d");
    let shown = ok(&mut alice, "SHOW g1");
    assert!(
        shown.contains("White 2d 00h on this move, 1d 00h left (running)"),
        "{shown}"
    );
    assert!(
        shown.contains("leave: White 2027-01-02 to 2027-01-08 (7 days)"),
        "{shown}"
    );
    ok(&mut alice, "MOVE g1 e4");
    // Black has no leave: its 3 days run out.
    ok(&mut arbiter, "CLOCK +73h");
    assert!(push_starting(&mut alice, "RESULT g1").contains("1-0 (lost on time)"));
    drop((alice, arbiter, daemon));
    assert_journal_verifies(&config);
    let report = journal_export(&config, "g1", "report");
    assert!(
        report.contains("leave 2027-01-02 to 2027-01-08 (7 days)"),
        "{report}"
    );
}

#[test]
fn a_conditional_line_is_played_at_once_and_never_shown_to_the_opponent() {
    let (_dir, config) = setup("time_control = \"10 moves in 50 days\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 e4");
    // A line must start with the opponent's move.
    let (code, text) = boris.call("IF g1 Nf3 Nc6");
    assert_eq!(code, 422, "{text}");
    // Numbers written must be the moves' numbers.
    let (code, text) = alice.call("IF g1 if 9... e5 then 10. Nf3");
    assert!(
        code == 422 && text.contains("9 is written, but this is move 1"),
        "{code} {text}"
    );
    let reply = ok(
        &mut alice,
        "IF g1 if 1... e5 then 2. Nf3, if 2... Nc6 then 3. Bb5",
    );
    assert!(
        reply.contains("if 1... e5 then 2. Nf3; if 2... Nc6 then 3. Bb5"),
        "{reply}"
    );
    assert!(!ok(&mut boris, "SHOW g1").contains("conditional"));
    ok(&mut arbiter, "CLOCK +2d");
    ok(&mut boris, "MOVE g1 e7-e5");
    // Boris receives White's answer at once, in his notation; it cost White no time.
    let answer = push_starting(&mut boris, "MOVE g1 2.");
    assert!(answer.contains("Кg1—f3 (7163) by alice"), "{answer}");
    assert!(answer.contains("White 0d 00h used"), "{answer}");
    let note = push_starting(&mut alice, "CONDITIONAL g1 2. Nf3");
    assert!(note.contains("1 pair(s) left"), "{note}");
    ok(&mut boris, "MOVE g1 Кb8-c6");
    assert!(push_starting(&mut boris, "MOVE g1 3.").contains("Сf1—b5"));
    // The line is used up: the next move is answered by nobody.
    ok(&mut boris, "MOVE g1 a6");
    assert!(ok(&mut alice, "SHOW g1").contains("to move: White"));
    // A move off a new line cancels it, and its owner is told with that move.
    ok(&mut alice, "MOVE g1 Ba4");
    ok(&mut alice, "IF g1 Nf6 O-O");
    ok(&mut boris, "MOVE g1 d6");
    let off = push_starting(&mut alice, "MOVE g1 4... d6");
    assert!(
        off.contains("; your conditional line is cancelled r"),
        "{off}"
    );
    assert!(ok(&mut alice, "SHOW g1").contains("to move: White"));
    // A line cancelled by its owner answers nothing.
    ok(&mut alice, "MOVE g1 c3");
    ok(&mut alice, "IF g1 Nf6 O-O");
    assert!(ok(&mut alice, "IF g1 CANCEL").contains("cancelled"));
    ok(&mut boris, "MOVE g1 Nf6");
    assert!(ok(&mut alice, "SHOW g1").contains("to move: White"));
    // Nothing Boris was ever sent names a line: he acknowledged nothing, so a new login
    // receives everything again.
    drop(boris);
    let mut boris = daemon.login(&BORIS);
    ok(&mut boris, "GAMES");
    assert!(boris.pushes.len() >= 6, "{:?}", boris.pushes);
    for (_, body) in &boris.pushes {
        assert!(!body.to_lowercase().contains("conditional"), "{body}");
    }
    drop((alice, boris, arbiter, daemon));
    assert_journal_verifies(&config);
    // Columns: seq, time, player, channel, kind, text.
    let text = journal_export(&config, "g1", "text");
    let column = |i: usize| {
        text.lines()
            .filter(|l| l.starts_with('#'))
            .filter(|l| l.split_whitespace().nth(i) == Some("conditional"))
            .count()
    };
    assert_eq!(column(4), 4, "three lines set, one cancelled: {text}");
    assert_eq!(column(3), 2, "two moves played from a line: {text}");
}

#[test]
fn draw_claims_are_checked_and_a_wrong_one_is_refused_with_the_reason() {
    let (_dir, config) = setup("");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    ok(
        &mut arbiter,
        "CREATE g2 alice boris EVENT ev FEN 8/8/4k3/8/8/4K3/8/R7 w - - 98 80",
    );
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    for (i, text) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
        .iter()
        .enumerate()
    {
        let who = if i % 2 == 0 { &mut alice } else { &mut boris };
        ok(who, &format!("MOVE g1 {text}"));
    }
    let (code, text) = boris.call("CLAIM g1 THREEFOLD");
    assert_eq!(code, 409, "{text}");
    assert!(
        text.contains("has occurred 2 time(s); a draw by repetition needs 3"),
        "{text}"
    );
    assert_eq!(alice.call("CLAIM g1 THREEFOLD").0, 409, "not Alice's move");
    let reply = ok(&mut boris, "CLAIM g1 threefold 4... Кf6-g8");
    assert!(
        reply.contains("game over: 1/2-1/2 (threefold repetition)"),
        "{reply}"
    );
    push_starting(
        &mut alice,
        "CLAIM g1 boris (Black) claims a draw (threefold) with 4... Ng8",
    );
    assert!(push_starting(&mut alice, "RESULT g1").contains("threefold repetition"));

    // Fifty moves: 98 half-moves made, so a claim needs two more.
    let (code, text) = alice.call("CLAIM g2 FIFTY Ra2");
    assert!(code == 409 && text.contains("49 move(s)"), "{code} {text}");
    ok(&mut alice, "MOVE g2 Ra2");
    let reply = ok(&mut boris, "CLAIM g2 50 Крe6-d5");
    assert!(reply.contains("1/2-1/2 (fifty-move rule)"), "{reply}");
    drop((alice, boris, arbiter, daemon));
    assert_journal_verifies(&config);
    let text = journal_export(&config, "g1", "text");
    assert!(
        text.contains("rejected") && text.contains("needs 3"),
        "the wrong claim is journaled: {text}"
    );
}

/// Every game of an event, exported, reads cleanly in pgn-extract and python-chess, with the
/// same moves and results; the crosstable adds them up.
#[test]
fn official_records_read_cleanly_in_pgn_extract_and_python_chess() {
    let (dir, config) = setup("time_control = \"10/50\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    for line in [
        "CREATE m1 alice boris EVENT ev ROUND 1",
        "CREATE m2 boris alice EVENT ev ROUND 1",
        "CREATE m3 alice boris EVENT ev ROUND 2 FEN 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ] {
        ok(&mut arbiter, line);
    }
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    // m1: Alice mates (Scholar's mate), with days passing between moves.
    for (i, text) in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
        .iter()
        .enumerate()
    {
        ok(&mut arbiter, "CLOCK +1d");
        let who = if i % 2 == 0 { &mut alice } else { &mut boris };
        ok(who, &format!("MOVE m1 {text}"));
    }
    // m2: Boris offers a draw with his move, Alice accepts.
    ok(&mut boris, "MOVE m2 d4 (=)");
    ok(&mut alice, "DRAW m2 ACCEPT");
    // m3: in progress, from a position.
    ok(&mut alice, "MOVE m3 e4");
    drop((alice, boris, arbiter, daemon));

    let pgn: String = ["m1", "m2", "m3"]
        .iter()
        .map(|g| journal_export(&config, g, "pgn") + "\n")
        .collect();
    let file = dir.path().join("event.pgn");
    std::fs::write(&file, &pgn).expect("write PGN");

    // pgn-extract reads every game without a complaint and gives back the same moves.
    let out = pgn_extract()
        .args(["-Wuci", "--notags", "-C", "-N", "-V", "-s", "-w", "1000"])
        .arg(&file)
        .output()
        .expect("pgn-extract");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "pgn-extract: {stderr}"
    );
    let games: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split("\n\n")
        .map(|g| g.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|g| !g.is_empty())
        .collect();
    assert_eq!(
        games,
        [
            "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7 1-0",
            "d2d4 1/2-1/2",
            "e2e4 *"
        ],
        "{pgn}"
    );

    // python-chess: no parse errors, the tags and the dates of each move.
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        h = game.headers
        moves = list(game.mainline())
        dates = [n.comment for n in moves]
        print(h["GameId"], h["Result"], h["Termination"], h["TimeControl"], h["Mode"], len(moves),
              sum("[%ccsnt " in d for d in dates), game.end().board().fen().split()[0])
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&file)
        .output()
        .expect("python3 (`pip install chess`: .ci/run does)");
    assert!(
        out.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        lines,
        [
            "m1 1-0 normal 10/4320000 TC 7 7 r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR",
            "m2 1/2-1/2 normal 10/4320000 TC 1 1 rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR",
            "m3 * unterminated 10/4320000 TC 1 1 4k3/8/8/8/4P3/8/8/4K3",
        ]
    );

    let out = ccrelay()
        .args(["journal", "crosstable", "--event", "ev", "--config"])
        .arg(&config)
        .output()
        .expect("crosstable");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = |player: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(player))
            .unwrap_or_else(|| panic!("no row for {player}: {table}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    // Alice: won m1, drew m2, m3 in progress: 1½ from 2 games, one win, first.
    assert_eq!(
        row("alice"),
        ["1", "alice", "X", "1½*", "1½", "2", "¾", "1"],
        "{table}"
    );
    assert_eq!(
        row("boris"),
        ["2", "boris", "0½*", "X", "½", "2", "¾", "0"],
        "{table}"
    );
}

/// A manual clock started long before the real date: the signing key's entry, made at the
/// real time on the first start, must not move the clock on a restart (it once did, and every
/// running game was lost on time). The clock starts again from the last game entry's time.
#[test]
fn a_restart_under_the_manual_clock_keeps_its_time_and_forfeits_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let extra = "login_attempts_per_minute = 1000\n[clock]\nmode = \"manual\"\nstart = \"2001-01-01T00:00:00Z\"\n\
         [[events]]\nid = \"ev\"\nname = \"Old times\"\ntime_control = \"10 moves in 50 days\"\n";
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], extra);
    std::fs::write(&config, text).expect("write config");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    ok(&mut arbiter, "CLOCK +2d");
    ok(&mut alice, "MOVE g1 e4");
    let clock = ok(&mut arbiter, "CLOCK");
    assert!(clock.contains("2001-01-03"), "{clock}");
    drop((alice, arbiter, daemon));
    for restart in 0..2 {
        let daemon = Daemon::start(&config);
        let mut arbiter = admin(&daemon);
        let clock = ok(&mut arbiter, "CLOCK");
        assert!(
            clock.contains("2001-01-03"),
            "the clock moved on restart: {clock}"
        );
        let mut boris = daemon.login(&BORIS);
        let shown = ok(&mut boris, "SHOW g1");
        assert!(
            !shown.contains("result:") && !shown.contains("lost on time"),
            "{shown}"
        );
        if restart == 0 {
            ok(&mut boris, "MOVE g1 e5");
        }
        drop((boris, arbiter, daemon));
    }
    assert_journal_verifies(&config);
}

/// Regression: the manual clock went back on a restart (`CLOCK +3d` was not journaled, and a
/// restart started the clock at the record's last entry). It is journaled at the clock's new
/// time, and after a kill -9 and a restart the clock reads as before; the journal verifies.
#[test]
fn the_manual_clock_never_goes_back_on_a_restart() {
    let (_dir, config) = setup("time_control = \"10 moves in 50 days\"");
    let mut daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let moved = ok(&mut arbiter, "CLOCK +3d");
    assert!(moved.contains("2027-01-04T00:00:00Z"), "{moved}");
    drop(arbiter);
    daemon.kill9();
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    let read = ok(&mut arbiter, "CLOCK");
    assert!(read.contains("2027-01-04T00:00:00Z"), "{read}");
    // Going back is refused, and nothing is journaled for it.
    let (code, text) = arbiter.call(&format!("CLOCK {START}"));
    assert_eq!(code, 409, "{text}");
    drop((arbiter, daemon));
    assert_journal_verifies(&config);
}

/// ICCF's counting through the daemon: whole days charged, the part of a day dropped; the
/// side told the moment its 21st day on a move begins (its days now count double), once, as
/// a reminder is, even across a restart in the middle of the move; `SHOW` says the charge
/// and the doubling; the records say the control in words and each move's instant, and
/// pgn-extract reads them.
#[test]
fn an_iccf_event_charges_whole_days_and_tells_when_they_count_double() {
    let (dir, config) =
        setup("time_control = \"10 moves in 50 days\"\ncounting = \"iccf\"\nreminder_days = [14]");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    // A day and five hours are charged one day.
    ok(&mut arbiter, "CLOCK +1d");
    ok(&mut arbiter, "CLOCK +5h");
    let reply = ok(&mut alice, "MOVE g1 e4");
    assert!(
        reply.contains("White 1d 05h used, charged 1d, 49d 00h left to move 10 | Black 0d 00h used, 50d 00h left to move 10 (running)"),
        "{reply}"
    );
    // Boris thinks: reminded after 14 days, then told as his 21st day begins.
    ok(&mut arbiter, "CLOCK +14d");
    assert!(push_starting(&mut boris, "REMINDER g1").contains("14 days"));
    ok(&mut arbiter, "CLOCK +5d");
    ok(&mut arbiter, "CLOCK +23h");
    let shown = ok(&mut boris, "SHOW g1");
    assert!(
        shown.contains("time control: 10 moves in 50 days, whole days, doubled after 20 days"),
        "{shown}"
    );
    assert!(
        shown.contains("Black 19d 23h used, charged 19d, 31d 00h left to move 10 (running)")
            && !shown.contains("count double"),
        "{shown}"
    );
    ok(&mut arbiter, "CLOCK +1h");
    let told = push_starting(&mut boris, "REMINDER g1");
    // The push, then its receipt.
    assert!(
        told.starts_with(
            "REMINDER g1: your move has waited 20 days; clock: White 1d 05h used, charged 1d, 49d 00h left to move 10 | Black 20d 00h used, 30d 00h left to move 10 (running); Black: 21st day on this move, days now count double "
        ),
        "{told}"
    );
    ok(&mut boris, "ACK");
    // A restart in the middle of the move: nothing is told twice, and the days go on.
    drop((alice, boris, arbiter, daemon));
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CLOCK +3d");
    let mut boris = daemon.login(&BORIS);
    let shown = ok(&mut boris, "SHOW g1");
    assert!(
        shown.contains(
            "clock: White 1d 05h used, charged 1d, 49d 00h left to move 10 | Black 23d 00h used, charged 26d, 24d 00h left to move 10 (running)\nBlack: 24th day on this move, days now count double"
        ),
        "{shown}"
    );
    assert!(
        boris.pushes.iter().all(|(_, p)| !p.starts_with("REMINDER")),
        "told again: {:?}",
        boris.pushes
    );
    let mut alice = daemon.login(&ALICE);
    let reply = ok(&mut boris, "MOVE g1 e5");
    assert!(
        reply.contains("Black 23d 00h used, charged 26d, 24d 00h left to move 10"),
        "{reply}"
    );
    let push = push_starting(&mut alice, "MOVE g1 1... e5");
    assert!(!push.contains("count double"), "{push}");
    drop((alice, boris, arbiter, daemon));

    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "g1", "pgn");
    for tag in [
        "[TimeControl \"10/4320000\"]",
        "[CCTimeControl \"10 moves in 50 days, whole days, doubled after 20 days\"]",
        "[UTCTime \"00:00:00\"]",
        "1. e4 {[%ccsnt 2027.01.02,05:00:00]}",
        "1... e5 {[%ccsnt 2027.01.25,05:00:00]}",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    let file = dir.path().join("iccf.pgn");
    std::fs::write(&file, &pgn).expect("write PGN");
    let out = pgn_extract()
        .args(["-Wuci", "--notags", "-C", "-N", "-V", "-s"])
        .arg(&file)
        .output()
        .expect("pgn-extract");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "pgn-extract: {stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["e2e4", "e7e5", "*"]
    );
    let sheet = journal_export(&config, "g1", "iccf");
    assert!(
        sheet.contains("   1.  5254   2027-01-02    1.2/1  5755   2027-01-25   23.0/26"),
        "{sheet}"
    );
    assert!(
        sheet.contains("  Black: 23d 00h used, charged 26d, 24d 00h left"),
        "{sheet}"
    );
}
