//! A new club's first minutes: `ccrelay init DIR`, then `ccrelay run` on what it wrote, and a
//! game played with the secrets it printed, over real TCP.

use std::collections::BTreeMap;

use crate::support::daemon::Daemon;
use crate::support::line::Client;
use crate::support::process::ccrelay;

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

/// Regression: `init` printed `nc 127.0.0.1:7878`, which netcat does not take. The two command
/// lines it prints (`start:` and `play:`) are run here exactly as written, through the shell,
/// with the printed secret in place of the word SECRET.
#[test]
fn the_commands_init_prints_work_as_written() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};

    let dir = tempfile::tempdir().expect("tempdir");
    let club = dir.path().join("club");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let out = ccrelay()
        .args(["init", "--listen", &format!("127.0.0.1:{port}")])
        .arg(&club)
        .output()
        .expect("ccrelay init");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    let printed = |label: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .unwrap_or_else(|| panic!("no {label:?} line in {stdout}"))
            .trim()
            .to_owned()
    };
    let start = printed("start:");
    let play = printed("play:");
    let secret = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("player1"))
        .expect("player1's secret")
        .trim()
        .to_owned();

    // `start:` as written, with the built binary on PATH as the package installs it.
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_ccrelay"))
        .parent()
        .expect("binary folder")
        .to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut daemon = Command::new("sh")
        .args(["-c", &format!("exec {start}")])
        .env("PATH", &path)
        .env("CCRELAY_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the start line");
    let mut line = String::new();
    BufReader::new(daemon.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the listening line");
    assert!(
        line.contains(&format!("127.0.0.1:{port}")),
        "`{start}` printed {line:?}"
    );

    // `play:` is `nc HOST PORT   then   LOGIN player1 SECRET   and   MOVE game1 e4`.
    let (netcat, rest) = play.split_once("   then   ").expect("play line shape");
    let (login, moved) = rest.split_once("   and   ").expect("play line shape");
    assert_eq!(netcat, format!("nc 127.0.0.1 {port}"));
    let mut nc = Command::new("sh")
        .args(["-c", &format!("exec timeout 30 {netcat}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("netcat (Debian's netcat-openbsd; tests/run installs it)");
    let mut input = nc.stdin.take().expect("stdin");
    writeln!(input, "{}", login.replace("SECRET", &secret)).expect("write");
    writeln!(input, "{moved}").expect("write");
    writeln!(input, "QUIT").expect("write");
    drop(input);
    let said = nc.wait_with_output().expect("netcat ran");
    let said = String::from_utf8_lossy(&said.stdout);
    let _ = daemon.kill();
    let _ = daemon.wait();
    let codes: Vec<&str> = said
        .lines()
        .filter(|l| !l.starts_with('*'))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert_eq!(codes, ["200", "230", "250", "221"], "{said}");
}
