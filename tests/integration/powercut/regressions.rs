//! One test per durability bug the power cuts found or the review of every rename found: each
//! makes a name that must last on the [`Layer`], cuts the power, and looks for it after.

use std::path::Path;
use std::process::Stdio;

use ccrelay::journal::signing::{Key, public_path};
use ccrelay::relay::undelivered::{DeadLetter, DeadLetters, Shelf};
use ccrelay::transport::email::spool::Spool;

use super::layer::Layer;
use super::sync_dir;

use crate::support::config::{ALICE, BORIS, config_text};
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::moves_in;
use crate::support::process::ccrelay;

/// A folder `data` on a fresh layer, itself synced (so only what is tested can be lost).
fn layer_with_data(root: &Path) -> (Layer, std::path::PathBuf) {
    let layer = Layer::mount(root);
    let data = root.join("data");
    std::fs::create_dir(&data).expect("mkdir");
    sync_dir(root);
    (layer, data)
}

#[test]
fn regression_the_data_directory_the_daemon_makes_survives_a_power_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mnt = dir.path().join("disk");
    std::fs::create_dir(&mnt).expect("mount point");
    let mut layer = Layer::mount(&mnt);
    let config = dir.path().join("ccrelay.toml");
    let text = config_text(
        &mnt.join("data"),
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
    );
    std::fs::write(&config, text).expect("config");
    let mut daemon = Daemon::start(&config);
    let (code, reply) = daemon.login(&ALICE).call("MOVE g1 e4");
    assert_eq!(code, 250, "{reply}");
    layer.cut();
    daemon.kill9();
    layer.power_on();
    // The journal, in a folder the daemon made, holds the acknowledged move.
    assert!(
        mnt.join("data/journal.sqlite3").exists(),
        "the data directory was lost"
    );
    assert_journal_verifies(&config);
    let daemon = Daemon::start(&config);
    assert_eq!(moves_in(&mut daemon.login(&BORIS), "g1"), 1);
}

#[test]
fn regression_a_new_signing_key_and_its_public_half_survive_a_power_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut layer, data) = layer_with_data(dir.path());
    let path = data.join("signing.key");
    let key = Key::generate().expect("key");
    key.write_new(&path).expect("write the key");
    layer.cut();
    layer.power_on();
    let read = Key::read(&path).expect("the key survives");
    assert_eq!(read.public(), key.public());
    let public = std::fs::read_to_string(public_path(&path)).expect("the public key survives");
    assert_eq!(public.trim(), key.public().hex());
}

#[test]
fn regression_a_parked_dead_letter_survives_a_power_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut layer, data) = layer_with_data(dir.path());
    let letter = DeadLetter {
        id: "o17".to_owned(),
        shelf: Shelf::Parked,
        player: "alice".to_owned(),
        to: "alice@nowhere.test".to_owned(),
        game: "g1".to_owned(),
        what: "g1: 1... e5".to_owned(),
        error: "550 no such mailbox".to_owned(),
        parked_at: "2026-01-01T00:00:00Z".to_owned(),
        bytes: b"Subject: g1\r\n\r\n1... e5\r\n".to_vec(),
    };
    DeadLetters::new(&data).park(&letter).expect("park");
    layer.cut();
    layer.power_on();
    let (parked, total) = DeadLetters::new(&data)
        .list(Shelf::Parked, 10)
        .expect("list");
    assert_eq!(total, 1, "the parked letter was lost");
    assert_eq!(parked[0], letter);
}

#[test]
fn regression_a_spooled_reply_survives_a_power_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut layer, data) = layer_with_data(dir.path());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let spool_dir = data.join("email-replies");
    runtime.block_on(async {
        let spool = Spool::open(spool_dir.clone()).expect("spool");
        spool
            .put("r1", "alice@ccrelay.test", b"accepted g1 1. e4")
            .await
            .expect("put");
    });
    layer.cut();
    layer.power_on();
    let waiting = runtime.block_on(async {
        let spool = Spool::open(spool_dir).expect("spool");
        spool.waiting(10).await.expect("waiting")
    });
    assert_eq!(waiting.len(), 1, "the spooled reply was lost");
    assert_eq!(waiting[0].to, "alice@ccrelay.test");
    assert_eq!(waiting[0].bytes, b"accepted g1 1. e4");
}

#[test]
fn regression_after_a_key_rotation_and_a_power_cut_the_public_key_file_names_the_new_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mnt = dir.path().join("disk");
    std::fs::create_dir(&mnt).expect("mount point");
    let mut layer = Layer::mount(&mnt);
    let config = dir.path().join("ccrelay.toml");
    let text = config_text(
        &mnt.join("data"),
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
    );
    std::fs::write(&config, text).expect("config");
    let mut daemon = Daemon::start(&config);
    assert_eq!(daemon.login(&ALICE).call("MOVE g1 e4").0, 250);
    assert!(daemon.terminate().success());
    // The data directory made durable here, so that only the rotation is under test.
    sync_dir(&mnt);
    let run = |args: &[&str]| {
        let out = ccrelay()
            .args(args)
            .arg("--config")
            .arg(&config)
            .stdin(Stdio::null())
            .output()
            .expect("ccrelay");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {stderr}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let new = run(&["journal", "rotate-key"]);
    layer.cut();
    layer.power_on();
    // The chain names the new key, and so does the file published beside the key.
    assert_eq!(run(&["journal", "key"]), new);
    let public = std::fs::read_to_string(mnt.join("data/signing.pub")).expect("signing.pub");
    assert_eq!(public.trim(), new, "signing.pub names the old key");
    // And the daemon starts with it.
    let daemon = Daemon::start(&config);
    assert_eq!(daemon.login(&BORIS).call("MOVE g1 e5").0, 250);
    drop(daemon);
    assert_journal_verifies(&config);
}
