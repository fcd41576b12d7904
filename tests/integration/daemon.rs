//! The relay daemon as players meet it: the real binary, a temporary data directory, an
//! ephemeral port, real sockets.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use ccrelay::notation::{Iccf, Lang, Notation, lan, san, uci};
use shakmaty::{Chess, Position};

use crate::support::config::{
    ADMIN_SECRET, ALICE, BORIS, Player, config_text, config_text_with, temp_setup,
};
use crate::support::convert::convert_text;
use crate::support::daemon::Daemon;
use crate::support::games::long_game;
use crate::support::journal::{assert_journal_verifies, journal_export};
use crate::support::line::{Client, moves_in};
use crate::support::process::{ccrelay, output_within};
use crate::support::tls::tls_client_trusting;

/// A move written the `i`-th way of a rotation through every notation and two languages.
fn written(i: usize, pos: &Chess, m: shakmaty::Move, russian: bool) -> String {
    let lang = if russian {
        Lang::Russian
    } else {
        Lang::English
    };
    match i % 5 {
        0 => Iccf::from_move(m).to_string(),
        1 => san::write(pos, m, lang),
        2 => lan::write(pos, m, lang),
        3 => uci::write(m),
        _ => san::write(
            pos,
            m,
            if russian {
                Lang::Russian
            } else {
                Lang::Figurine
            },
        ),
    }
}

#[test]
fn a_whole_game_over_tcp_in_mixed_notations_each_side_reading_its_own() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("match-1", "alice", "boris")]);
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    for (who, c) in [("alice", &mut alice), ("boris", &mut boris)] {
        let (_, body) = c.next_push();
        assert!(body.starts_with("GAME match-1 started"), "{who}: {body}");
    }
    let moves = long_game();
    for (i, (pos, m)) in moves.iter().enumerate() {
        let white = pos.turn() == shakmaty::Color::White;
        let (mover, receiver) = if white {
            (&mut alice, &mut boris)
        } else {
            (&mut boris, &mut alice)
        };
        let text = written(i / 2, pos, *m, !white);
        let number = pos.fullmoves();
        let (code, reply) = mover.call(&format!("MOVE match-1 {number} {text}"));
        assert_eq!(code, 250, "move {i} {text:?}: {reply}");
        let iccf = Iccf::from_move(*m).to_string();
        assert!(
            reply.contains(&format!("({iccf})")) || reply.contains(&iccf),
            "{reply}"
        );
        // The opponent reads it in their own notation: alice English SAN, boris Russian LAN.
        let expected = if white {
            Notation::Lan(Lang::Russian)
        } else {
            Notation::San(Lang::English)
        }
        .write(pos, *m);
        let (id, body) = receiver.next_push();
        assert!(
            body.contains(&format!(" {expected} ")),
            "move {i}: push {body:?} lacks {expected:?}"
        );
        let (code, _) = receiver.call(&format!("ACK {id}"));
        assert_eq!(code, 250);
    }
    let (code, shown) = alice.call("SHOW match-1");
    assert_eq!(code, 250);
    // K+B against K: the daemon ends the game itself.
    assert!(
        shown.contains("result: 1/2-1/2 (insufficient material)"),
        "{shown}"
    );
    assert!(shown.contains("f5xg6") || shown.contains("fxg6"), "{shown}");
    assert!(shown.contains("g8=N"), "{shown}");
}

#[test]
fn bad_input_gets_the_right_error_and_changes_nothing() {
    let (_dir, config) = temp_setup(
        &[
            ALICE,
            BORIS,
            Player {
                id: "carol",
                secret: "carol-secret",
                notation: "iccf",
                lang: None,
            },
        ],
        &[("g1", "alice", "boris")],
    );
    let daemon = Daemon::start(&config);

    let mut stranger = daemon.connect();
    assert_eq!(stranger.call("MOVE g1 e4").0, 401, "unauthenticated");
    assert_eq!(
        stranger.call("LOGIN alice wrong-secret").0,
        430,
        "wrong secret"
    );
    assert_eq!(
        stranger.call("LOGIN nobody whatever").0,
        430,
        "unknown player"
    );
    assert_eq!(stranger.call("GAMES").0, 401);

    let mut alice = daemon.login(&ALICE);
    let mut carol = daemon.login(&Player {
        id: "carol",
        secret: "carol-secret",
        notation: "iccf",
        lang: None,
    });
    // (who: alice or carol, line, code, what the reply says)
    let cases: [(bool, &str, u16, &str); 9] = [
        (true, "MOVE g1 e5", 422, "no such move here"),
        (true, "MOVE g1 Ke2", 422, "no legal move goes to e2"),
        (true, "MOVE g1 2 e4", 409, "wrong move number"),
        (true, "MOVE g9 e4", 404, "no game"),
        (false, "MOVE g1 e4", 403, "you do not play in game g1"),
        (true, "MOVE g1 hello", 422, "not a move"),
        (true, "FROB the board", 400, "unknown command"),
        (true, "DRAW g1 ACCEPT", 409, "no draw offer"),
        (true, "CREATE g2 alice boris", 403, "only the admin"),
    ];
    for (is_alice, line, code, says) in cases {
        let client = if is_alice { &mut alice } else { &mut carol };
        let (got, text) = client.call(line);
        assert_eq!(got, code, "{line}: {text}");
        assert!(text.contains(says), "{line}: {text}");
    }
    // Out of turn.
    let mut boris = daemon.login(&BORIS);
    let (code, text) = boris.call("MOVE g1 e5");
    assert_eq!(code, 409, "{text}");
    assert!(text.contains("not your move"), "{text}");
    // Garbage bytes and an over-long line.
    alice.send_raw(b"\xff\xfe\x00garbage\n");
    assert_eq!(alice.read_reply().0, 400);
    alice.send_raw(&[b'x'; 500]);
    alice.send_raw(b"\n");
    let (code, text) = alice.read_reply();
    assert_eq!(code, 500, "{text}");
    // Nothing changed: still move 1, White to move, and the game record has no move.
    assert_eq!(moves_in(&mut alice, "g1"), 0);
    // A good move still works afterwards.
    assert_eq!(alice.call("MOVE g1 e4").0, 250);
}

#[test]
fn an_offline_player_gets_every_missed_move_once_in_order() {
    let games: Vec<(String, &str, &str)> = (1..=5)
        .map(|i| (format!("g{i}"), "alice", "boris"))
        .collect();
    let games: Vec<(&str, &str, &str)> =
        games.iter().map(|(g, w, b)| (g.as_str(), *w, *b)).collect();
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &games);
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    for (g, _, _) in &games {
        assert_eq!(alice.call(&format!("MOVE {g} d4")).0, 250);
    }
    drop(alice);
    let mut boris = daemon.login(&BORIS);
    let mut seen = Vec::new();
    // Five game starts and five moves, in commit order.
    for _ in 0..10 {
        seen.push(boris.next_push());
    }
    let ids: Vec<i64> = seen.iter().map(|(id, _)| *id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    let moves: Vec<&String> = seen
        .iter()
        .map(|(_, b)| b)
        .filter(|b| b.starts_with("MOVE"))
        .collect();
    assert_eq!(moves.len(), 5);
    for (i, body) in moves.iter().enumerate() {
        assert!(
            body.starts_with(&format!("MOVE g{} 1. d2—d4 (4244) by alice", i + 1)),
            "{body}"
        );
    }
    assert_eq!(boris.call("ACK").0, 250);
    drop(boris);
    // Acknowledged: not sent again.
    let mut boris = daemon.login(&BORIS);
    let (code, _) = boris.call("GAMES");
    assert_eq!(code, 250);
    assert!(boris.pushes.is_empty(), "sent twice: {:?}", boris.pushes);
}

#[test]
fn games_are_created_at_runtime_and_survive_a_restart_with_journal_verify_and_export() {
    let (dir, config) = temp_setup(&[ALICE, BORIS], &[]);
    let mut daemon = Daemon::start(&config);
    let mut admin = daemon.connect();
    assert_eq!(admin.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    let (code, text) = admin.call("CREATE fromfen alice boris FEN 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(code, 250, "{text}");
    assert_eq!(admin.call("CREATE fromfen alice boris").0, 409);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(alice.call("MOVE fromfen e4").0, 250);
    let mut boris = daemon.login(&BORIS);
    assert_eq!(boris.call("MOVE fromfen Крd7 (=)").0, 250);
    assert_eq!(alice.call("DRAW fromfen DECLINE").0, 250);
    assert_eq!(alice.call("MOVE fromfen e5").0, 250);
    drop((admin, alice, boris));
    assert!(daemon.terminate().success(), "SIGTERM exits 0");

    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(moves_in(&mut alice, "fromfen"), 3);
    assert_eq!(
        alice.call("MOVE fromfen e6").0,
        409,
        "Black is to move after the restart"
    );
    drop(daemon);

    assert_journal_verifies(&config);
    let export = |format: &str| journal_export(&config, "fromfen", format);
    let pgn = export("pgn");
    assert!(
        pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"),
        "{pgn}"
    );
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let without_comments = strip_comments(&movetext);
    assert_eq!(without_comments.trim(), "1. e4 1... Kd7 2. e5 *", "{pgn}");
    // Each move carries its date; the draw offer rides with Black's move.
    assert_eq!(pgn.matches("[%ccsnt ").count(), 3, "{pgn}");
    assert!(pgn.contains("1... Kd7 {(=) [%ccsnt "), "{pgn}");
    // The exported PGN reads back in ccrelay's own reader.
    let back = convert_text(&pgn, ccrelay::convert::Format::Uci, None, None);
    assert_eq!(back.out, "e2e4 e8d7 e4e5\n", "{}", back.err);
    let sheet = export("iccf");
    let rows: Vec<Vec<&str>> = sheet
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{sheet}");
    assert_eq!(
        (rows[0][0], rows[0][1], rows[0][4]),
        ("1.", "5254", "5847"),
        "{sheet}"
    );
    assert_eq!(rows[0][5], "=", "the draw offer is marked: {sheet}");
    assert_eq!((rows[1][0], rows[1][1]), ("2.", "5455"), "{sheet}");
    assert!(sheet.contains("Result: * (in progress)"), "{sheet}");
    let text = export("text");
    assert!(text.contains("draw_decline"), "{text}");
    drop(dir);
}

/// Movetext without its `{...}` comments.
fn strip_comments(movetext: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_journal_refuses_a_tampered_entry() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(alice.call("MOVE g1 e4").0, 250);
    drop(alice);
    drop(daemon);
    let data = config
        .parent()
        .expect("dir")
        .join("data")
        .join("journal.sqlite3");
    let conn = rusqlite::Connection::open(&data).expect("open");
    conn.execute("UPDATE entries SET iccf = '4244' WHERE kind = 'move'", [])
        .expect("tamper");
    drop(conn);
    let verify = ccrelay()
        .args(["journal", "verify", "--config"])
        .arg(&config)
        .output()
        .expect("verify");
    assert_eq!(verify.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&verify.stderr).contains("hash does not match"),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
}

#[test]
fn kill_9_at_random_moments_loses_no_acknowledged_move_and_applies_none_twice() {
    const GAMES: usize = 8;
    const ROUNDS: usize = 20;
    let ids: Vec<String> = (1..=GAMES).map(|i| format!("c{i}")).collect();
    let games: Vec<(&str, &str, &str)> =
        ids.iter().map(|g| (g.as_str(), "alice", "boris")).collect();
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &games);
    let line = long_game();
    // Per game: half-moves acknowledged so far.
    let mut acked = [0usize; GAMES];
    // Every push boris saw (id -> text), the highest id he acknowledged, and any violation.
    let mut boris_seen: std::collections::BTreeMap<i64, String> = std::collections::BTreeMap::new();
    let mut boris_acked: i64 = 0;
    let mut violations: Vec<String> = Vec::new();
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut kills = 0;
    for round in 0..ROUNDS {
        let mut daemon = Daemon::start(&config);
        {
            // The journal holds every acknowledged move, and at most the one in flight.
            let mut alice = daemon.login(&ALICE);
            for (g, id) in ids.iter().enumerate() {
                let n = moves_in(&mut alice, id);
                assert!(
                    n == acked[g] || n == acked[g] + 1,
                    "round {round}, {id}: {n} moves, {} acknowledged",
                    acked[g]
                );
                acked[g] = n;
            }
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let kill_after = Duration::from_millis(1 + rng % 15);
        let pid = daemon.child.id();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(kill_after);
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        let addr = daemon.addr;
        // Alice plays White in every game while boris is offline; then boris logs in, reads
        // what he missed, acknowledges it and answers. The kill lands anywhere in this.
        let interrupted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut alice = Client::connect(addr);
            alice.call(&format!("LOGIN {} {}", ALICE.id, ALICE.secret));
            for g in 0..GAMES {
                let ply = acked[g];
                let white_to_move = ply.is_multiple_of(2) && ply < line.len();
                if white_to_move
                    && alice
                        .call(&format!("MOVE {} {}", ids[g], uci::write(line[ply].1)))
                        .0
                        == 250
                {
                    acked[g] = ply + 1;
                }
            }
            let mut boris = Client::connect(addr);
            boris.call(&format!("LOGIN {} {}", BORIS.id, BORIS.secret));
            boris.call("GAMES");
            let mut highest = boris_acked;
            for (id, body) in std::mem::take(&mut boris.pushes) {
                if id <= boris_acked {
                    violations.push(format!(
                        "round {round}: message {id} came again after its ACK: {body}"
                    ));
                }
                if boris_seen
                    .insert(id, body.clone())
                    .is_some_and(|earlier| earlier != body)
                {
                    violations.push(format!("message {id} changed"));
                }
                highest = highest.max(id);
            }
            if boris.call(&format!("ACK {highest}")).0 == 250 {
                boris_acked = highest;
            }
            for g in 0..GAMES {
                let ply = acked[g];
                let black_to_move = !ply.is_multiple_of(2) && ply < line.len();
                if black_to_move
                    && boris
                        .call(&format!("MOVE {} {}", ids[g], Iccf::from_move(line[ply].1)))
                        .0
                        == 250
                {
                    acked[g] = ply + 1;
                }
            }
        }));
        killer.join().expect("killer");
        // Count the rounds where the client saw the daemon die under it.
        if interrupted.is_err() {
            kills += 1;
        }
        daemon.kill9();
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    assert!(
        kills >= ROUNDS / 4,
        "only {kills} of {ROUNDS} rounds were killed mid-way"
    );
    // The journal holds a consistent record.
    assert_journal_verifies(&config);
    // Every White move reached boris exactly once (a move journaled twice would be two messages).
    let daemon = Daemon::start(&config);
    let mut boris = daemon.login(&BORIS);
    boris.call("GAMES");
    for (id, body) in std::mem::take(&mut boris.pushes) {
        assert!(id > boris_acked, "message {id} came again: {body}");
        boris_seen.insert(id, body);
    }
    let mut white_moves = 0;
    for (g, id) in ids.iter().enumerate() {
        let n = moves_in(&mut boris, id);
        assert!(
            n >= acked[g],
            "{id}: {n} moves but {} were acknowledged",
            acked[g]
        );
        for ply in (0..n).step_by(2) {
            let (pos, m) = &line[ply];
            let text = Notation::Lan(Lang::Russian).write(pos, *m);
            let wanted = format!("MOVE {id} {}. {text} (", ply / 2 + 1);
            let count = boris_seen
                .values()
                .filter(|b| b.starts_with(&wanted))
                .count();
            assert_eq!(count, 1, "{wanted}: received {count} times");
            white_moves += 1;
        }
    }
    assert!(
        white_moves >= 2 * GAMES,
        "the test played too little: {white_moves} White moves"
    );
}

/// A daemon for Alice and Boris playing `games`, with these `[limits]`.
fn daemon_with_limits(games: &[(&str, &str, &str)], limits: &str) -> (tempfile::TempDir, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], games, limits);
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    (dir, daemon)
}

#[test]
fn logins_are_rate_limited_and_idle_connections_closed() {
    let limits = "failed_logins_per_minute = 3\nidle_timeout_secs = 1\nlogin_timeout_secs = 1\n";
    let (_dir, daemon) = daemon_with_limits(&[], limits);
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN alice nope").0, 430);
    assert_eq!(c.call("LOGIN alice nope").0, 430);
    assert_eq!(c.call("LOGIN alice nope").0, 430);
    let (code, text) = c.call(&format!("LOGIN alice {}", ALICE.secret));
    assert_eq!(
        code, 429,
        "after three failures in a minute the address is refused even the right secret: {text}"
    );
    // No login in time: closed.
    let mut slow = daemon.connect();
    assert_eq!(slow.read_reply().0, 421);
    assert_eq!(slow.read_line(), None);
}

#[test]
fn an_idle_session_is_closed_even_while_messages_arrive() {
    let (_dir, daemon) = daemon_with_limits(&[("g1", "alice", "boris")], "idle_timeout_secs = 1\n");
    let mut boris = daemon.login(&BORIS);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(alice.call("MOVE g1 e4").0, 250);
    // Boris said nothing since logging in; the push does not keep him connected.
    let started = std::time::Instant::now();
    loop {
        match boris.read_line() {
            Some(line) if line.starts_with("421") => break,
            Some(_) => continue,
            None => panic!("closed without a 421"),
        }
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// The session's timer is moved on only when it fires, and moved earlier at login when the
/// idle limit is shorter than what was left of the login limit.
#[test]
fn a_talking_session_stays_open_past_the_idle_limit_and_is_closed_once_silent() {
    // The login limit stays at its default, 30 seconds: far longer than the idle one.
    let (_dir, daemon) = daemon_with_limits(&[], "idle_timeout_secs = 1\n");
    let mut alice = daemon.login(&ALICE);
    let talking = std::time::Instant::now();
    while talking.elapsed() < Duration::from_millis(2500) {
        assert_eq!(alice.call("GAMES").0, 250, "still open while talking");
        std::thread::sleep(Duration::from_millis(300));
    }
    let silent = std::time::Instant::now();
    assert_eq!(alice.read_reply().0, 421, "closed once silent");
    assert_eq!(alice.read_line(), None);
    assert!(
        silent.elapsed() < Duration::from_secs(5),
        "closed after the idle limit, not the login limit: {:?}",
        silent.elapsed()
    );
}

#[test]
fn tls_connections_speak_the_same_protocol() {
    use rustls::pki_types::ServerName;

    use std::sync::Arc;

    let dir = tempfile::tempdir().expect("tempdir");
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("certificate");
    std::fs::write(dir.path().join("cert.pem"), certified.cert.pem()).expect("cert");
    std::fs::write(
        dir.path().join("key.pem"),
        certified.signing_key.serialize_pem(),
    )
    .expect("key");
    let config = dir.path().join("ccrelay.toml");
    let text = config_text(
        &dir.path().join("data"),
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
    )
    .replacen(
        "[limits]\n",
        "tls_cert = \"cert.pem\"\ntls_key = \"key.pem\"\n[limits]\n",
        1,
    );
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);

    let client_config = tls_client_trusting(certified.cert.der());
    let server_name = ServerName::try_from("localhost").expect("name");
    let connection =
        rustls::ClientConnection::new(Arc::new(client_config), server_name).expect("client");
    let tcp = TcpStream::connect(daemon.addr).expect("connect");
    tcp.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let mut tls = BufReader::new(rustls::StreamOwned::new(connection, tcp));
    let mut line = String::new();
    tls.read_line(&mut line).expect("greeting over TLS");
    assert!(line.starts_with("200 ccrelay"), "{line:?}");
    tls.get_mut()
        .write_all(format!("LOGIN alice {}\nMOVE g1 e4\n", ALICE.secret).as_bytes())
        .expect("write");
    let mut replies = Vec::new();
    while replies.len() < 2 {
        line.clear();
        tls.read_line(&mut line).expect("read");
        if !line.starts_with('*') {
            replies.push(line.trim_end().to_owned());
        }
    }
    assert!(replies[0].starts_with("230 "), "{replies:?}");
    assert!(
        replies[1].starts_with("250 accepted g1 1. e4"),
        "{replies:?}"
    );

    // Plain text to the TLS port gets no protocol at all.
    let mut plain = TcpStream::connect(daemon.addr).expect("connect");
    plain
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    plain
        .write_all(b"LOGIN alice alice-secret\n")
        .expect("write");
    let mut buf = [0u8; 64];
    let n = std::io::Read::read(&mut plain, &mut buf).unwrap_or(0);
    assert!(
        !buf[..n].starts_with(b"200") && !buf[..n].starts_with(b"230"),
        "{:?}",
        &buf[..n]
    );
}

/// `bench --fill` writes a journal the daemon starts on: verified, every game replayed with
/// its moves, a player able to log in and play on.
#[test]
fn a_filled_journal_verifies_and_the_daemon_plays_on_from_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fill = dir.path().display().to_string();
    let report = ccrelay_ok(&["bench", "--games", "3", "--plies", "10", "--fill", &fill]);
    assert!(report.contains("moves:              30"), "{report}");
    let config = dir.path().join("ccrelay.toml");
    assert_journal_verifies(&config);
    // A second fill into the same folder is refused: it would mix two journals.
    let again = ccrelay()
        .args(["bench", "--games", "3", "--fill"])
        .arg(dir.path())
        .output()
        .expect("fill again");
    assert!(!again.status.success());
    let daemon = Daemon::start(&config);
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN p0 bench").0, 230);
    assert_eq!(moves_in(&mut c, "g0"), 10);
    let (code, text) = c.call("SHOW g0");
    assert_eq!(code, 250, "{text}");
    assert!(text.contains("to move: White (p0), move 6"), "{text}");
}

/// `bench --connect` plays against a daemon of its own, started on the configuration
/// `bench --fill --plies 0` wrote: every move carried, players holding several games each
/// (the last pair one game only).
#[test]
fn the_benchmark_drives_a_daemon_running_as_its_own_process() {
    let (_dir, daemon) = bench_daemon(5, 2);
    let addr = daemon.addr.to_string();
    let mut args = vec!["bench", "--games", "5", "--games-per-player", "2"];
    args.extend(["--plies", "6", "--rate", "0", "--connect", &addr]);
    let report = ccrelay_ok(&args);
    assert!(report.contains("players:            6"), "{report}");
    assert!(report.contains("moves:              30"), "{report}");
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN p5 bench").0, 230);
    assert_eq!(moves_in(&mut c, "g4"), 6);
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN p3 bench").0, 230);
    assert_eq!(moves_in(&mut c, "g2"), 6);
    assert_eq!(moves_in(&mut c, "g3"), 6);
}

/// Regression: a second run against the same daemon found its games past their start, its
/// first move refused, and waited for ever for the push that a refused move never makes.
#[test]
fn a_benchmark_whose_move_is_refused_stops_with_the_refusal_not_a_hang() {
    let (_dir, daemon) = bench_daemon(2, 1);
    let addr = daemon.addr.to_string();
    let args = [
        "bench",
        "--games",
        "2",
        "--plies",
        "2",
        "--rate",
        "0",
        "--connect",
        &addr,
    ];
    ccrelay_ok(&args);
    let mut again = ccrelay();
    again.args(args);
    let out = output_within(again, Duration::from_secs(60));
    assert!(!out.status.success(), "the second run succeeded");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("ply 0: 4") && stderr.contains("ccrelay bench --fill"),
        "{stderr}"
    );
}

/// Commands sent together are answered in their order, whichever of them waits for the
/// journal and whichever is answered at once: a session reads ahead while moves commit.
#[test]
fn commands_sent_together_are_answered_in_their_order() {
    let (_dir, daemon) = bench_daemon(3, 3);
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN p0 bench").0, 230);
    c.send_raw(
        b"MOVE g0 e4\nMOVE g1 d4\nHELP\nMOVE g2 Ke2\nMOVE g1 e5\nNONSENSE\nMOVE g2 c4\nACK\nQUIT\n",
    );
    let codes: Vec<u16> = std::iter::from_fn(|| {
        let (code, _) = c.read_reply();
        Some(code)
    })
    .take(9)
    .collect();
    assert_eq!(codes, [250, 250, 214, 422, 409, 400, 250, 250, 221]);
    let mut c = daemon.connect();
    assert_eq!(c.call("LOGIN p1 bench").0, 230);
    assert_eq!(moves_in(&mut c, "g0"), 1);
    assert_eq!(moves_in(&mut c, "g1"), 1);
    assert_eq!(moves_in(&mut c, "g2"), 1);
}

/// The result a player's own move causes is pushed to them after the reply to that move, even
/// with another command sent behind the move (docs/protocol.md, "Pushes"). A session holds
/// pushes while a reply is due because the journal hands out a commit's pushes a moment
/// before its answers; that moment is too short to force here, so this checks the promise as
/// a client sees it.
#[test]
fn a_push_from_your_own_command_comes_after_its_reply() {
    let (_dir, daemon) = bench_daemon(1, 1);
    let (mut white, mut black) = (daemon.connect(), daemon.connect());
    assert_eq!(white.call("LOGIN p0 bench").0, 230);
    assert_eq!(black.call("LOGIN p1 bench").0, 230);
    assert_eq!(white.call("MOVE g0 f3").0, 250);
    assert_eq!(black.call("MOVE g0 e5").0, 250);
    assert_eq!(white.call("MOVE g0 g4").0, 250);
    let _ = black.next_push(); // f3
    let _ = black.next_push(); // g4
    black.send_raw(b"MOVE g0 Qh4\nGAMES\n");
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.contains("RESULT g0")) {
        lines.push(black.read_line().expect("a line"));
    }
    let reply = lines
        .iter()
        .position(|l| l.starts_with("250 "))
        .expect("the move's reply");
    let result = lines.len() - 1;
    assert!(reply < result, "{lines:#?}");
}

/// A daemon started on the configuration `bench --fill --plies 0` writes: `games` games in
/// play, `per_player` of them for each pair of players (`p0` and `p1` play the first ones).
fn bench_daemon(games: usize, per_player: usize) -> (tempfile::TempDir, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let fill = dir.path().display().to_string();
    let (games, per_player) = (games.to_string(), per_player.to_string());
    ccrelay_ok(&[
        "bench",
        "--games",
        &games,
        "--games-per-player",
        &per_player,
        "--plies",
        "0",
        "--fill",
        &fill,
    ]);
    let daemon = Daemon::start(&dir.path().join("ccrelay.toml"));
    (dir, daemon)
}

/// Runs `ccrelay ARGS`, which must succeed; its standard output.
fn ccrelay_ok(args: &[&str]) -> String {
    let out = ccrelay().args(args).output().expect("ccrelay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The log is written by a thread of its own, gathering lines: a move's line still reaches
/// stderr while the daemon runs (not held until a buffer fills), and the last lines at stop.
#[test]
fn at_info_each_move_is_logged_while_the_daemon_runs_and_the_last_line_at_its_stop() {
    let (dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let log = dir.path().join("stderr.log");
    let mut run = ccrelay();
    run.args(["run", "--config"])
        .arg(&config)
        .env("CCRELAY_LOG", "info")
        .env_remove("JOURNAL_STREAM")
        .stderr(std::fs::File::create(&log).expect("log file"));
    let mut daemon = Daemon::spawn(run);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(alice.call("MOVE g1 e4").0, 250);
    let read = || std::fs::read_to_string(&log).expect("read the log");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !read().contains("move relayed game=g1 ply=1 iccf=5254 from=alice to=boris") {
        assert!(
            std::time::Instant::now() < deadline,
            "no line for the move while the daemon runs:\n{}",
            read()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(alice);
    assert!(daemon.terminate().success(), "SIGTERM exits 0");
    let text = read();
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains("INFO ccrelay::server: stopped"), "{text}");
}
