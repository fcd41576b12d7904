//! A new club's first minutes: `ccrelay init DIR`, then `ccrelay run` on what it wrote, and a
//! game played with the secrets it printed, over real TCP.

use std::collections::BTreeMap;

use crate::daemon::{Client, Daemon};
use crate::support::ccrelay;

#[test]
fn init_then_run_then_play_with_the_printed_secrets() {
    let dir = tempfile::tempdir().expect("tempdir");
    let club = dir.path().join("club");
    let out = ccrelay()
        .args(["init", "--listen", "127.0.0.1:0"])
        .arg(&club)
        .output()
        .expect("ccrelay init");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `  login    secret` lines.
    let secrets: BTreeMap<&str, &str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_once(' '))
        .map(|(login, secret)| (login, secret.trim()))
        .collect();
    assert_eq!(
        secrets.keys().copied().collect::<Vec<_>>(),
        ["admin", "player1", "player2"],
        "{stdout}"
    );
    let config = club.join("ccrelay.toml");
    let written = std::fs::read_to_string(&config).expect("config written");
    for secret in secrets.values() {
        assert!(!written.contains(secret), "a secret in the configuration");
    }
    assert!(stdout.contains("ccrelay run --config"), "{stdout}");

    let check = ccrelay()
        .arg("check-config")
        .arg(&config)
        .output()
        .expect("check-config");
    assert!(check.status.success(), "{check:?}");

    let daemon = Daemon::start(&config);
    let login = |who: &str| {
        let mut c = Client::connect(daemon.addr);
        let (code, text) = c.call(&format!("LOGIN {who} {}", secrets[who]));
        assert_eq!(code, 230, "{who}: {text}");
        c
    };
    let mut white = login("player1");
    let mut black = login("player2");
    let (code, text) = white.call("MOVE game1 1. e4");
    assert_eq!(code, 250, "{text}");
    // The game's start first, then the move.
    let (_, started) = black.next_push();
    assert!(started.starts_with("GAME game1 started"), "{started}");
    let (_, moved) = black.next_push();
    assert!(moved.contains("MOVE game1 1. e4"), "{moved}");
    let (code, text) = black.call("MOVE game1 1... e5");
    assert_eq!(code, 250, "{text}");
    // The admin's secret works too; a wrong one does not.
    let mut admin = Client::connect(daemon.addr);
    assert_eq!(admin.call("LOGIN admin wrong").0, 430);
    assert_eq!(
        admin.call(&format!("LOGIN admin {}", secrets["admin"])).0,
        230
    );

    // A second init into the same folder refuses and changes nothing.
    let again = ccrelay()
        .args(["init", "--listen", "127.0.0.1:0"])
        .arg(&club)
        .output()
        .expect("ccrelay init");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    assert_eq!(std::fs::read_to_string(&config).unwrap(), written);
}
