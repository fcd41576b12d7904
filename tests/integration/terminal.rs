//! A person typing at a terminal on a serial line: the real daemon serves a pseudo-terminal
//! (`[[terminals]]`), and the test types on its other end as picocom would pass keys through:
//! numeric and algebraic moves, a typo corrected with backspace, a typo sent, an illegal move,
//! the opponent's move arriving while a line is half typed; and a game of Russian draughts.

use std::time::Duration;

use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, config_text_with};
use crate::support::daemon::{Daemon, admin};
use crate::support::line::ok;
use crate::support::terminal::Terminal;

/// A daemon serving `terminal` as a `[[terminals]]` line, with game `game` of `kind` between
/// alice (White) and boris.
fn serve(terminal: &Terminal, game: &str, kind: &str) -> (tempfile::TempDir, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let extra = format!(
        "[[terminals]]\ndevice = {:?}\nbaud = 9600\nexclusive = false\n",
        terminal.path
    );
    let text = config_text_with(
        &dir.path().join("data"),
        &[ALICE, BORIS],
        &[(game, "alice", "boris")],
        &extra,
    );
    let id_line = format!("id = {game:?}\n");
    assert!(text.contains(&id_line), "{text}");
    let text = text.replace(&id_line, &format!("{id_line}game = {kind:?}\n"));
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    (dir, daemon)
}

#[test]
fn a_person_plays_from_a_terminal_on_a_serial_line() {
    let mut terminal = Terminal::open();
    let (_dir, daemon) = serve(&terminal, "g1", "chess");
    let mut boris = daemon.login(&BORIS);

    // The line is quiet until someone types; Enter brings the greeting and a prompt.
    std::thread::sleep(Duration::from_millis(300));
    terminal.type_bytes(b"\r");
    terminal.expect("200 ccrelay");
    terminal.expect("\r\n> ");
    terminal.type_bytes(b"LOGIN alice alice-secret\r");
    let login = terminal.expect("230 welcome alice");
    assert!(login.contains("LOGIN alice ************\r\n"), "{login:?}");
    assert!(
        !login.contains("alice-secret"),
        "the secret was echoed: {login:?}"
    );

    // A numeric move.
    terminal.type_bytes(b"MOVE g1 5254\r");
    terminal.expect("MOVE g1 5254\r\n");
    terminal.expect("250 accepted g1 1. e4 (5254); clock: ");
    terminal.expect("\r\n> ");

    // Half a line typed when Boris's move arrives: the move is printed above, the half line
    // typed out again, and finishing it works.
    terminal.type_bytes(b"MOVE g1 Ng");
    terminal.expect("MOVE g1 Ng");
    assert_eq!(boris.call("MOVE g1 e7-e5").0, 250);
    terminal.expect("\r\n* ");
    terminal.expect("MOVE g1 1... e5 (5755) by boris; clock: ");
    terminal.expect("to move 10 r");
    terminal.expect("\r\n> MOVE g1 Ng");
    terminal.type_bytes(b"f3\r");
    terminal.expect("250 accepted g1 2. Nf3 (7163)");
    assert_eq!(boris.call("MOVE g1 Кb8-c6").0, 250);
    terminal.expect("MOVE g1 2... Nc6");

    // A typo, sent: refused, nothing changes.
    terminal.type_bytes(b"MOVE g1 Bx5\r");
    terminal.expect("422 ");
    // A typo corrected with backspace before Enter.
    terminal.type_bytes(b"MOVE g1 Bc5\x084\r");
    terminal.expect("MOVE g1 Bc5\x08 \x084\r\n");
    terminal.expect("250 accepted g1 3. Bc4 (6134)");
    assert_eq!(boris.call("MOVE g1 Кg8-f6").0, 250);
    terminal.expect("MOVE g1 3... Nf6");

    // An illegal move: refused, with what is legal said.
    terminal.type_bytes(b"MOVE g1 Ke3\r");
    terminal.expect("MOVE g1 Ke3\r\n422 ");
    let refused = terminal.expect("\r\n> ");
    assert!(refused.contains("e3"), "{refused:?}");
    terminal.type_bytes(b"SHOW g1\r");
    let shown = terminal.expect("to move: White (alice), move 4");
    assert!(
        shown.contains("moves: 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6"),
        "{shown:?}"
    );

    // ACK acknowledges what was printed on the line: the game start and Boris's three moves.
    terminal.type_bytes(b"ACK\r");
    terminal.expect("250 acknowledged up to ");
    terminal.expect(" (4 message(s))");

    // QUIT ends the session. The LF of a CR LF arriving apart from its CR does not start a
    // new one: the line is quiet until someone types again.
    terminal.type_bytes(b"QUIT\r");
    terminal.expect("221 bye");
    std::thread::sleep(Duration::from_millis(50));
    terminal.type_bytes(b"\n");
    std::thread::sleep(Duration::from_millis(1000));
    let after = terminal.unread();
    assert!(
        !String::from_utf8_lossy(&after).contains("200 ccrelay"),
        "a stray LF started a session: {after:?}"
    );
    terminal.type_bytes(b"\r");
    terminal.expect("200 ccrelay");
    drop(daemon);
}

/// Russian draughts from the same terminal: a move in either form, the opponent's arriving,
/// a refusal by the draughts rules, and the board on `SHOW`.
#[test]
fn a_draughts_game_from_a_terminal() {
    let mut terminal = Terminal::open();
    let (_dir, daemon) = serve(&terminal, "d1", "draughts-ru");
    let mut boris = daemon.login(&BORIS);

    terminal.log_in(ALICE.id, ALICE.secret);
    // Typed in the numeric form, written back in the reader's notation with the numeric.
    terminal.type_bytes(b"MOVE d1 22-18\r");
    terminal.expect("250 accepted d1 1. c3-d4 (22-18)");
    assert_eq!(boris.call("MOVE d1 1... f6-e5").0, 250);
    terminal.expect("MOVE d1 1... f6-e5 (11-15) by boris");
    // A capture is compulsory: the quiet move is refused, naming the capture.
    terminal.type_bytes(b"MOVE d1 d4-c5\r");
    let refused = terminal.expect("a capture is compulsory");
    assert!(refused.contains("422 "), "{refused:?}");
    terminal.expect("d4:f6");
    terminal.type_bytes(b"MOVE d1 d4:f6\r");
    terminal.expect("250 accepted d1 2. d4:f6 (18x11)");
    terminal.type_bytes(b"SHOW d1\r");
    let shown = terminal.expect("to move: Black (boris), move 2");
    assert!(shown.contains("a b c d e f g h"), "{shown:?}");
}

/// Finding "secrets only on private wires": a serial line may be a radio modem, so a command
/// that carries a secret (`PLAYER ADD` and `PLAYER SECRET` in their replies, `SECRET` in its
/// words) is refused there with its reason and does nothing; on the relay's own machine over
/// TCP the same commands are done.
#[test]
fn secrets_only_on_private_wires() {
    let mut terminal = Terminal::open();
    let (_dir, daemon) = serve(&terminal, "g1", "chess");
    terminal.log_in("admin", ADMIN_SECRET);
    for (line, refused) in [
        ("PLAYER ADD yuri\r", "403 PLAYER ADD carries a secret"),
        (
            "PLAYER SECRET alice\r",
            "403 PLAYER SECRET carries a secret",
        ),
    ] {
        terminal.type_bytes(line.as_bytes());
        let said = terminal.expect("nothing done");
        assert!(said.contains(refused), "{said:?}");
    }
    terminal.type_bytes(b"QUIT\r");
    terminal.expect("221 bye");
    terminal.log_in(ALICE.id, ALICE.secret);
    terminal.type_bytes(b"SECRET correct-horse-battery-staple\r");
    let said = terminal.expect("nothing done");
    assert!(said.contains("403 SECRET carries a secret"), "{said:?}");

    // Nothing was done: no player yuri, Alice's secret the one she had.
    let mut arbiter = admin(&daemon);
    assert!(!ok(&mut arbiter, "PLAYERS").contains("yuri"));
    daemon.login(&ALICE);
    // From the relay's own machine the wire is private: the same commands are done.
    assert!(ok(&mut arbiter, "PLAYER ADD yuri").contains("secret, shown this once"));
    assert!(ok(&mut arbiter, "PLAYER SECRET alice").contains("new secret for alice"));
    drop(daemon);
}
