//! Hostile input to the running daemon, each shown refused or made harmless and nothing
//! changed: texts a person writes (messages, reasons, names) refused by the one text check
//! over TCP, with the reason; names sent to forge or flood the log written escaped and cut;
//! game ids outside the safe set refused by `CREATE` and the configuration, while a journal
//! holding such an id from before still starts; the data directory made private whatever the
//! umask. (XFCC's message and existence answers are in `xfcc.rs`; HTTP's limits, headers and
//! metrics in `web_security.rs`; the manual clock's restart in `rules.rs`.)

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::config::{ALICE, BORIS, config_text, config_text_with};
use crate::support::daemon::{Daemon, admin};
use crate::support::journal::{assert_journal_verifies, journal_export};
use crate::support::line::ok;
use crate::support::process::ccrelay;
use crate::support::xfcc::{envelope, post};

#[test]
fn hostile_text_over_tcp_is_refused_with_its_reason_and_nothing_is_sent() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    // The shipped line limit (1024 bytes), so a message of 501 characters fits on a line.
    let text = config_text_with(
        &dir.path().join("data"),
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
        "login_attempts_per_minute = 1000\n",
    );
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    let mut arbiter = admin(&daemon);
    let refused: [(&str, &str); 8] = [
        ("MSG g1 1-0 \u{202E}0-1", "bidirectional control U+202E"),
        ("MSG g1 a\u{2066}b\u{2069}", "U+2066"),
        ("MSG g1 ad\u{200B}min", "invisible characters (U+200B)"),
        ("MSG g1 a\u{FEFF}b", "U+FEFF"),
        ("MSG g1 line\u{2028}break", "separators (U+2028)"),
        (
            "MSG g1 \u{1b}[2K\u{1b}[1G* 99 RESULT g1 1-0",
            "control characters",
        ),
        ("MSG g1 stray \u{200D} joiner", "only between two letters"),
        ("ADJUDICATE g1 1-0 silent \u{202E}for 40 days", "U+202E"),
    ];
    for (line, says) in refused {
        let caller = if line.starts_with("ADJUDICATE") {
            &mut arbiter
        } else {
            &mut alice
        };
        let (code, reply) = caller.call(line);
        assert_eq!(code, 400, "{line:?}: {reply}");
        assert!(reply.contains(says), "{line:?}: {reply}");
    }
    let (code, reply) = arbiter.call("CREATE g2 alice boris ROUND r\u{202E}1");
    assert_eq!(code, 400, "{reply}");
    let (code, reply) = alice.call(&format!("MSG g1 {}", "z".repeat(501)));
    assert_eq!(code, 400, "{reply}");
    assert!(reply.contains("at most 500 characters"), "{reply}");
    // What a language needs passes: Persian with its ZWNJ, an emoji sequence with ZWJs.
    let persian = "می‌خواهم 👨\u{200D}👩\u{200D}👧";
    ok(&mut alice, &format!("MSG g1 {persian}"));
    // The game is as it was, and the first message Boris is pushed is the Persian one.
    assert!(!ok(&mut alice, "SHOW g1").contains("game over"));
    let mut pushes = Vec::new();
    loop {
        let push = boris.next_push().1;
        let done = push.starts_with("MSG g1");
        pushes.push(push);
        if done {
            break;
        }
    }
    assert!(
        pushes.last().is_some_and(|p| p.contains(persian)),
        "{pushes:?}"
    );
    assert!(
        pushes
            .iter()
            .all(|p| !p.contains("RESULT") && !p.contains("0-1")),
        "{pushes:?}"
    );
    drop((alice, boris, arbiter, daemon));
    assert_journal_verifies(&config);
    let text = journal_export(&config, "g1", "text");
    assert!(text.contains(persian), "{text}");
    assert_eq!(text.matches("message").count(), 1, "{text}");
}

#[test]
fn hostile_names_reach_the_log_escaped_and_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text(
        &dir.path().join("data"),
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
    );
    text.push_str("[http]\nlisten = \"127.0.0.1:0\"\n");
    std::fs::write(&config, text).expect("config");
    let mut command = ccrelay();
    command
        .args(["run", "--config"])
        .arg(&config)
        .env("CCRELAY_LOG", "info")
        .stderr(Stdio::piped());
    let mut daemon = Daemon::spawn(command);
    let forged = "1999-01-01T00:00:00.000000Z  INFO ccrelay: logged in peer=127.0.0.1 player=admin";
    // A LOGIN name (one word: the line protocol splits at spaces and line ends) with escape
    // codes that erase the terminal's line and draw another.
    let mut tcp = daemon.connect();
    let (code, _) = tcp.call("LOGIN evil\u{1b}[2K\u{1b}[1GFORGED wrong");
    assert_ne!(code, 230);
    let (code, _) = tcp.call("LOGIN evil\u{202E}nimda wrong");
    assert_ne!(code, 230);
    // An XFCC username of 60,000 characters, with a line break and a forged line.
    let username = format!("x\n{forged}\n{}", "y".repeat(60_000));
    let body = envelope(
        "GetMyGames",
        &[("username", &username), ("password", "wrong")],
    );
    let r = post(
        daemon.http.expect("http"),
        "/xfccbasic.asmx",
        body.as_bytes(),
    );
    assert!(r.body.contains("AuthenticationFailed"), "{}", r.body);
    drop(tcp);
    daemon.terminate();
    let mut log = String::new();
    daemon
        .child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut log)
        .expect("log");
    assert!(log.contains("login refused"), "{log}");
    for line in log.lines() {
        assert!(
            !line.contains('\u{1b}') && !line.contains('\r') && !line.contains('\u{202E}'),
            "a raw control in the log: {line:?}"
        );
        assert!(!line.starts_with("1999-01-01"), "a forged line: {line:?}");
        assert!(
            line.chars().count() < 1000,
            "a log line of {} characters",
            line.len()
        );
    }
    assert!(log.contains("evil\\u{1b}[2K\\u{1b}[1GFORGED"), "{log}");
    assert!(log.contains("evil\\u{202e}nimda"), "{log}");
    assert!(log.contains("x\\n1999-01-01"), "{log}");
    let whole = username.trim().chars().count();
    assert!(log.contains(&format!("…({whole} characters)")), "{log}");
}

#[test]
fn game_ids_are_a_safe_set_and_a_journal_with_older_ids_still_starts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    // A journal written before the rule, holding game `old.1`.
    {
        use ccrelay::journal::{EntryKind, NewEntry, store};
        std::fs::create_dir_all(&data).expect("data");
        let conn = store::open(&data).expect("journal");
        let mut start = NewEntry::new(
            "old.1",
            "admin",
            "tcp",
            EntryKind::GameStart,
            "CREATE old.1 alice boris",
        );
        start.detail = r#"{"white":"alice","black":"boris"}"#.to_owned();
        store::insert_entry(&conn, 1, &[0; 32], start).expect("entry");
    }
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(&config, config_text(&data, &[ALICE, BORIS], &[])).expect("config");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    for bad in ["p1.pgn", "..", "a/b", "g\u{202E}1", &"x".repeat(65)] {
        let (code, reply) = arbiter.call(&format!("CREATE {bad} alice boris"));
        assert_eq!(code, 400, "{bad:?}: {reply}");
        assert!(reply.contains("is not a game id"), "{bad:?}: {reply}");
    }
    ok(&mut arbiter, "CREATE new_game-2 alice boris");
    // The old game is read and played as ever.
    let mut alice = daemon.login(&ALICE);
    let games = ok(&mut alice, "GAMES");
    assert!(
        games.contains("old.1") && games.contains("new_game-2"),
        "{games}"
    );
    ok(&mut alice, "MOVE old.1 e4");
    drop((alice, arbiter, daemon));
    assert_journal_verifies(&config);
    // The configuration refuses a new game with such an id, saying what an id may be.
    let text = format!(
        "{}[[games]]\nid = \"p1.pgn\"\nwhite = \"alice\"\nblack = \"boris\"\n",
        config_text(&data, &[ALICE, BORIS], &[])
    );
    let Err(e) = ccrelay::config::Config::from_toml(&text, dir.path()) else {
        panic!("a game id with a dot was taken");
    };
    let e = e.to_string();
    assert!(
        e.contains("games[0].id") && e.contains("not a game id"),
        "{e}"
    );
}

/// Every file and folder under `dir`, with its mode.
fn modes(dir: &Path) -> Vec<(String, bool, u32)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        let meta = entry.metadata().expect("metadata");
        let path = entry.path();
        out.push((
            path.display().to_string(),
            meta.is_dir(),
            meta.permissions().mode() & 0o777,
        ));
        if meta.is_dir() {
            out.extend(modes(&path));
        }
    }
    out
}

#[test]
fn the_data_directory_is_private_whatever_the_umask() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    // Left open by hand, with a file from an older version in it.
    std::fs::create_dir_all(&data).expect("data");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    std::fs::write(data.join("notes.txt"), "x").expect("file");
    std::fs::set_permissions(
        data.join("notes.txt"),
        std::fs::Permissions::from_mode(0o666),
    )
    .expect("chmod");
    let maildir = dir.path().join("maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let config = dir.path().join("ccrelay.toml");
    let extra = format!(
        "login_attempts_per_minute = 1000\n[email]\naddress = \"relay@ccrelay.test\"\nmaildir = {:?}\n\
         [email.smtp]\nserver = \"127.0.0.1\"\nport = 25\ntls = \"none\"\n",
        maildir.display().to_string()
    );
    let text = config_text_with(&data, &[ALICE, BORIS], &[("g1", "alice", "boris")], &extra);
    std::fs::write(&config, text).expect("config");
    // Started by hand under the most open umask there is.
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("umask 000 && exec \"$0\" run --config \"$1\"")
        .arg(env!("CARGO_BIN_EXE_ccrelay"))
        .arg(&config)
        .env("CCRELAY_LOG", "warn");
    let mut daemon = Daemon::spawn(command);
    let mut alice = daemon.login(&ALICE);
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut alice, "MSG g1 a private word");
    // Written while it runs (the log beside the journal, SQLite's shared memory) and after.
    let running = modes(&data);
    drop(alice);
    daemon.terminate();
    let stopped = modes(&data);
    assert_eq!(
        std::fs::metadata(&data).expect("data").permissions().mode() & 0o777,
        0o700
    );
    let names: Vec<&str> = running.iter().map(|(p, _, _)| p.as_str()).collect();
    for wanted in [
        "journal.sqlite3",
        "journal.sqlite3-wal",
        "signing.key",
        "email-replies",
    ] {
        assert!(
            names.iter().any(|n| n.ends_with(wanted)),
            "no {wanted} in {names:?}"
        );
    }
    for (path, is_dir, mode) in running.iter().chain(&stopped) {
        let wanted = if *is_dir { 0o700 } else { 0o600 };
        assert_eq!(*mode, wanted, "{path}: {mode:o}");
    }
    // The maildir is the mail system's, not ccrelay's: left as it was.
    let mode = std::fs::metadata(maildir.join("new"))
        .expect("maildir")
        .permissions()
        .mode();
    assert_ne!(mode & 0o777, 0o700, "the maildir was changed");
    let _ = Write::flush(&mut std::io::stdout());
}
