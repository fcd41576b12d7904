//! Receipts with the real daemon: a move over TCP answered with a short receipt, the full
//! receipt fetched with `RECEIPT`, both held against the journal by `ccrelay journal verify
//! --receipt`, and found wrong once the SQLite file is edited; a signed export checked with
//! the public key alone; the key file's permissions; a key rotation.

use std::path::{Path, PathBuf};

use crate::support::config::{ALICE, BORIS, Player, temp_setup};
use crate::support::daemon::Daemon;
use crate::support::journal::rehash_from;
use crate::support::process::ccrelay;

fn run(args: &[&str], config: &Path) -> (bool, String, String) {
    let out = ccrelay()
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .expect("ccrelay");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn data_dir(config: &Path) -> PathBuf {
    config.parent().expect("dir").join("data")
}

/// The last word of a line: the short receipt the line protocol ends it with.
fn short_receipt(line: &str) -> String {
    let word = line.split_whitespace().last().expect("a word");
    assert!(
        word.starts_with('r') && word.contains(':'),
        "no receipt at the end of {line:?}"
    );
    word.to_owned()
}

#[test]
fn a_move_gets_a_receipt_that_holds_until_the_journal_is_edited() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    let (code, reply) = alice.call("MOVE g1 e4");
    assert_eq!(code, 250, "{reply}");
    let short = short_receipt(&reply);
    let entry: i64 = short[1..short.find(':').unwrap()].parse().expect("entry");

    // The opponent's push carries the same entry's receipt.
    let push = loop {
        let (_, body) = boris.next_push();
        if body.starts_with("MOVE g1") {
            break body;
        }
    };
    assert_eq!(short_receipt(&push), short, "{push}");

    let (code, full) = alice.call(&format!("RECEIPT {entry}"));
    assert_eq!(code, 250, "{full}");
    assert!(
        full.starts_with(&format!("ccrelay-receipt v1 entry={entry} ")),
        "{full}"
    );
    assert_eq!(alice.call("RECEIPT 999999").0, 404);
    assert_eq!(alice.call("RECEIPT x").0, 400);
    let (code, _) = boris.call("MOVE g1 e5");
    assert_eq!(code, 250);
    drop((alice, boris));
    drop(daemon);

    // The key file is private, and its public half is where `journal key` says.
    let key_file = data_dir(&config).join("signing.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "signing.key mode {mode:o}");
    }
    let (ok, public, err) = run(&["journal", "key"], &config);
    assert!(ok, "{err}");
    let public = public.trim().to_owned();
    assert_eq!(public.len(), 64);
    let published = std::fs::read_to_string(data_dir(&config).join("signing.pub")).expect("pub");
    assert_eq!(published.trim(), public);
    assert!(full.contains(&format!("key={public}")));

    // Saved as a player would: the reply line and the full receipt.
    let saved = config.parent().unwrap().join("receipts.txt");
    std::fs::write(&saved, format!("250 {reply}\n250 {full}\n")).expect("write");
    let saved_arg = saved.to_str().unwrap();
    let (ok, out, err) = run(&["journal", "verify", "--receipt", saved_arg], &config);
    assert!(ok, "{out}{err}");
    assert!(out.contains("receipts ok: 2 receipts (1 signed)"), "{out}");

    // A signed export verifies with the public key alone, and not once edited.
    let (ok, pgn, err) = run(
        &["journal", "export", "--game", "g1", "--format", "pgn"],
        &config,
    );
    assert!(ok, "{err}");
    assert!(pgn.contains("\n% ccrelay-signature v1 entry="), "{pgn}");
    let export = config.parent().unwrap().join("g1.pgn");
    std::fs::write(&export, &pgn).expect("write");
    let verify_export = |file: &Path, key: &str| {
        let out = ccrelay()
            .args(["journal", "verify-export"])
            .arg(file)
            .args(["--key", key])
            .output()
            .expect("verify-export");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, said) = verify_export(&export, &public);
    assert!(ok, "{said}");
    std::fs::write(&export, pgn.replacen("1. e4", "1. d4", 1)).expect("write");
    let (ok, said) = verify_export(&export, &public);
    assert!(
        !ok && said.contains("changed after it was signed"),
        "{said}"
    );

    // Someone with write access changes the move in place, and recomputes every hash after
    // it so that the chain is consistent again.
    let conn = rusqlite::Connection::open(data_dir(&config).join("journal.sqlite3")).expect("db");
    conn.execute(
        "UPDATE entries SET iccf = '4244', text = 'MOVE g1 d4' WHERE seq = ?1",
        [entry],
    )
    .expect("tamper");
    let (ok, out, err) = run(&["journal", "verify", "--receipt", saved_arg], &config);
    assert!(!ok, "{out}");
    assert!(err.contains(&format!("entry {entry}")), "{err}");
    ccrelay::journal::receipt::check(&conn, &[]).expect_err("the chain itself is broken");
    rehash_from(&conn, entry);
    let only_receipts = ccrelay::journal::receipt::check(
        &conn,
        &ccrelay::journal::receipt::find_all(&std::fs::read_to_string(&saved).unwrap()).unwrap(),
    )
    .expect_err("receipts catch the rewritten chain");
    assert!(
        only_receipts
            .to_string()
            .contains(&format!("receipt for entry {entry}")),
        "{only_receipts}"
    );
    let (ok, _, err) = run(&["journal", "verify", "--receipt", saved_arg], &config);
    assert!(!ok);
    assert!(err.contains(&format!("entry {entry}")), "{err}");
}

#[test]
fn a_key_rotation_is_refused_while_the_daemon_runs_and_followed_after() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let daemon = Daemon::start(&config);
    let mut alice = daemon.login(&ALICE);
    let (_, reply) = alice.call("MOVE g1 e4");
    let before = short_receipt(&reply);
    let (ok, _, err) = run(&["journal", "rotate-key"], &config);
    assert!(!ok && err.contains("in use by another process"), "{err}");
    drop(alice);
    drop(daemon);

    let (_, old, _) = run(&["journal", "key"], &config);
    let (ok, new, err) = run(&["journal", "rotate-key"], &config);
    assert!(ok, "{err}");
    assert_ne!(old.trim(), new.trim());
    let (_, current, _) = run(&["journal", "key"], &config);
    assert_eq!(current.trim(), new.trim());

    let daemon = Daemon::start(&config);
    let mut boris = daemon.login(&BORIS);
    let (code, reply) = boris.call("MOVE g1 e5");
    assert_eq!(code, 250, "{reply}");
    let after = short_receipt(&reply);
    let entry = &after[1..after.find(':').unwrap()];
    let (_, full) = boris.call(&format!("RECEIPT {entry}"));
    assert!(full.contains(&format!("key={}", new.trim())), "{full}");
    drop(boris);
    drop(daemon);

    let saved = config.parent().unwrap().join("receipts.txt");
    std::fs::write(&saved, format!("{before}\n{after}\n{full}\n")).expect("write");
    let (ok, out, err) = run(
        &["journal", "verify", "--receipt", saved.to_str().unwrap()],
        &config,
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("receipts ok: 3 receipts (1 signed)"), "{out}");
}

/// A journal written by the release before delivered outbox rows were removed (commit
/// dcc53eb; tests/fixtures/journal-dcc53eb/): alice and boris, `1. e4 e5 2. Nf3` in g1;
/// boris acknowledged his first two pushes, alice none, and nobody the push of `2. Nf3`. The
/// current daemon opens it, verifies it, sends exactly the pushes still owed, and plays on.
#[test]
fn a_journal_written_by_the_previous_release_is_verified_and_played_on() {
    const OLD_ALICE: Player = Player {
        secret: "bench",
        ..ALICE
    };
    const OLD_BORIS: Player = Player {
        secret: "bench",
        ..BORIS
    };
    let (_dir, config) = temp_setup(&[OLD_ALICE, OLD_BORIS], &[("g1", "alice", "boris")]);
    let data = data_dir(&config);
    std::fs::create_dir_all(&data).expect("data dir");
    let fixture = crate::support::fixtures::fixture("journal-dcc53eb");
    for file in ["journal.sqlite3", "signing.key", "signing.pub"] {
        std::fs::copy(fixture.join(file), data.join(file)).expect("copy the fixture");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            data.join("signing.key"),
            std::fs::Permissions::from_mode(0o600),
        )
        .expect("key mode");
    }
    let (ok, out, err) = run(&["journal", "verify"], &config);
    assert!(ok, "{err}");
    assert!(
        out.contains("5 entries") && out.contains("hash chain intact"),
        "{out}"
    );

    let daemon = Daemon::start(&config);
    // Boris is owed the push of 2. Nf3 alone: the two he acknowledged are not sent again.
    let mut boris = daemon.login(&OLD_BORIS);
    let (id, push) = boris.next_push();
    assert!(push.starts_with("MOVE g1 2. "), "{push}");
    let (code, text) = boris.call("GAMES");
    assert_eq!(code, 250, "{text}");
    assert!(
        boris.pushes.is_empty(),
        "only one push owed: {:?}",
        boris.pushes
    );
    let (code, text) = boris.call(&format!("ACK {id}"));
    assert_eq!(code, 250, "{text}");
    let (code, text) = boris.call("MOVE g1 2... Кc6");
    assert_eq!(code, 250, "{text}");
    // Alice acknowledged nothing: both her pushes come again, then boris's new move.
    let mut alice = daemon.login(&OLD_ALICE);
    let owed: Vec<String> = (0..3).map(|_| alice.next_push().1).collect();
    assert!(owed[0].starts_with("GAME g1 started"), "{owed:?}");
    assert!(owed[1].starts_with("MOVE g1 1... e5"), "{owed:?}");
    assert!(owed[2].starts_with("MOVE g1 2... Nc6"), "{owed:?}");
    let (code, text) = alice.call("MOVE g1 3. Bb5");
    assert_eq!(code, 250, "{text}");
    drop(daemon);
    let (ok, out, err) = run(&["journal", "verify"], &config);
    assert!(ok, "{err}");
    assert!(
        out.contains("7 entries") && out.contains("hash chain intact"),
        "{out}"
    );
}
