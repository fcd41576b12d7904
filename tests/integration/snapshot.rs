//! Start snapshots with the real daemon: one written when it stops (and the log emptied), a
//! restart that builds on it and plays on, a start that still refuses an entry changed before it, and a snapshot changed
//! by hand that is not built on (docs/journal.md, "Snapshots").

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::config::{ALICE, BORIS, temp_setup};
use crate::support::daemon::Daemon;
use crate::support::process::{ccrelay, output_within};

fn data_dir(config: &Path) -> PathBuf {
    config.parent().expect("dir").join("data")
}

fn snapshot_file(config: &Path) -> PathBuf {
    data_dir(config).join("snapshot.json")
}

/// `ccrelay journal verify`: its success and its standard output and error.
fn verify(config: &Path) -> (bool, String) {
    let out = ccrelay()
        .args(["journal", "verify", "--config"])
        .arg(config)
        .output()
        .expect("verify");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Plays `moves` in `g1`, alice and boris in turn from `first` (0: alice).
fn play(daemon: &Daemon, moves: &[&str], first: usize) {
    let mut players = [daemon.login(&ALICE), daemon.login(&BORIS)];
    for (i, m) in moves.iter().enumerate() {
        let (code, text) = players[(first + i) % 2].call(&format!("MOVE g1 {m}"));
        assert_eq!(code, 250, "{m}: {text}");
    }
}

/// `SHOW g1`, the running clock's time left taken out: it runs on between two looks, and a
/// second can turn `50d 00h left` into `49d 23h left` (a flaky comparison on a loaded machine).
fn shown(daemon: &Daemon) -> String {
    let (code, text) = daemon.login(&ALICE).call("SHOW g1");
    assert_eq!(code, 250, "{text}");
    let line = |line: &str| match line.strip_prefix("clock: ") {
        Some(sides) => {
            let sides: Vec<String> = sides.split(" | ").map(without_running_time).collect();
            format!("clock: {}", sides.join(" | "))
        }
        None => line.to_owned(),
    };
    text.lines().map(line).collect::<Vec<_>>().join("\n")
}

/// One side of a clock line (`White 0d 00h used, 50d 00h left to move 10 (running)`), its
/// time left taken out if its clock runs.
fn without_running_time(side: &str) -> String {
    match side.split_once(" used, ") {
        Some((used, rest)) if side.contains("(running)") => {
            let after = rest.split_once(" left").map_or("", |(_, after)| after);
            format!("{used} used, (running) left{after}")
        }
        _ => side.to_owned(),
    }
}

#[test]
fn a_restart_builds_on_the_snapshot_written_at_stop_and_plays_on() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let mut daemon = Daemon::start(&config);
    play(&daemon, &["e4", "e5", "Nf3"], 0);
    let before = shown(&daemon);
    assert!(daemon.terminate().success());
    assert!(
        snapshot_file(&config).exists(),
        "a snapshot is written at stop"
    );
    // Nor is the write-ahead log left for the next start to read back.
    let log = data_dir(&config).join("journal.sqlite3-wal");
    assert!(
        !matches!(std::fs::metadata(&log), Ok(m) if m.len() > 0),
        "the log is emptied at stop"
    );
    let (ok, report) = verify(&config);
    assert!(ok, "{report}");
    assert!(
        report.contains("snapshot ok: taken after entry"),
        "{report}"
    );

    let mut daemon = Daemon::start(&config);
    assert_eq!(shown(&daemon), before, "the same game after the restart");
    play(&daemon, &["Nc6", "Bb5"], 1);
    // Killed: no snapshot at this stop; the next start plays the two moves after it.
    daemon.kill9();
    let daemon = Daemon::start(&config);
    let after = shown(&daemon);
    assert_ne!(after, before);
    play(&daemon, &["a6"], 1);
    drop(daemon);
    let (ok, report) = verify(&config);
    assert!(ok, "{report}");
}

/// `ccrelay run` that is expected to stop by itself: its exit success and standard error.
fn run_expecting_stop(config: &Path) -> (bool, String) {
    let mut run = ccrelay();
    run.args(["run", "--config"])
        .arg(config)
        .env("CCRELAY_LOG", "warn");
    let out = output_within(run, Duration::from_secs(60));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_start_refuses_an_entry_changed_before_its_snapshot() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let mut daemon = Daemon::start(&config);
    play(&daemon, &["e4", "e5", "Nf3", "Nc6"], 0);
    assert!(daemon.terminate().success());
    assert!(snapshot_file(&config).exists());
    let conn = rusqlite::Connection::open(data_dir(&config).join("journal.sqlite3")).expect("open");
    let first_move: i64 = conn
        .query_row(
            "SELECT min(seq) FROM entries WHERE kind = 'move'",
            [],
            |r| r.get(0),
        )
        .expect("a move");
    conn.execute(
        "UPDATE entries SET iccf = '4244' WHERE seq = ?1",
        [first_move],
    )
    .expect("tamper");
    drop(conn);
    let (ok, stderr) = run_expecting_stop(&config);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!("entry {first_move}")) && stderr.contains("hash does not match"),
        "{stderr}"
    );
}

#[test]
fn a_snapshot_changed_by_hand_is_not_built_on() {
    let (_dir, config) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let mut daemon = Daemon::start(&config);
    play(&daemon, &["d4", "d5"], 0);
    let before = shown(&daemon);
    assert!(daemon.terminate().success());
    let file = snapshot_file(&config);
    let text = std::fs::read_to_string(&file).expect("snapshot");
    // d2-d4 written as e2-e4: the position a start would build on is not the record's.
    assert!(text.contains("4244 4745"), "{text}");
    std::fs::write(&file, text.replace("4244 4745", "5254 4745")).expect("change it");
    let (ok, report) = verify(&config);
    assert!(ok, "{report}");
    assert!(
        report.contains("snapshot not used at start (its body is not the one signed)"),
        "{report}"
    );
    let daemon = Daemon::start(&config);
    assert_eq!(
        shown(&daemon),
        before,
        "replayed from the first entry instead"
    );
    play(&daemon, &["c4"], 0);
}

#[test]
fn a_snapshot_left_by_another_journal_is_not_built_on() {
    let (_dir, one) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    let (_other, two) = temp_setup(&[ALICE, BORIS], &[("g1", "alice", "boris")]);
    for (config, moves) in [(&one, ["e4", "e5"]), (&two, ["d4", "d5"])] {
        let mut daemon = Daemon::start(config);
        play(&daemon, &moves, 0);
        assert!(daemon.terminate().success());
    }
    std::fs::copy(snapshot_file(&one), snapshot_file(&two)).expect("copy");
    let (ok, report) = verify(&two);
    assert!(ok, "{report}");
    assert!(report.contains("snapshot not used at start"), "{report}");
    let daemon = Daemon::start(&two);
    let text = shown(&daemon);
    assert!(text.contains("d4") || text.contains("4244"), "{text}");
}
