//! `ccrelay admin`: the administrator's words run against the running daemon through the admin
//! socket in its data directory, by the real binary, on a real Unix socket.

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::config::{ALICE, BORIS, config_text};
use crate::support::daemon::Daemon;
use crate::support::process::ccrelay;

/// A configuration in a fresh folder: its file, and the data directory.
struct Club {
    dir: tempfile::TempDir,
    config: PathBuf,
    data: PathBuf,
}

impl Club {
    /// Only the admin, or the admin with Alice and Boris.
    fn new(with_players: bool) -> Club {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data");
        let players = if with_players {
            &[ALICE, BORIS][..]
        } else {
            &[]
        };
        let config = dir.path().join("ccrelay.toml");
        std::fs::write(&config, config_text(&data, players, &[])).expect("write config");
        Club { dir, config, data }
    }

    fn socket(&self) -> PathBuf {
        self.data.join("admin.sock")
    }

    /// The daemon, started under a umask of 000: whatever mode the socket has is its own.
    fn start(&self) -> Daemon {
        let mut run = Command::new("sh");
        run.args(["-c", "umask 000; exec \"$0\" run --config \"$1\""])
            .arg(env!("CARGO_BIN_EXE_ccrelay"))
            .arg(&self.config);
        Daemon::start_command(run, "warn")
    }

    /// `ccrelay admin --config ... WORDS`.
    fn admin(&self, words: &[&str]) -> Output {
        ccrelay()
            .arg("admin")
            .arg("--config")
            .arg(&self.config)
            .args(words)
            .stdin(Stdio::null())
            .output()
            .expect("run ccrelay admin")
    }

    /// `ccrelay admin --config ... [flags]` with `script` on standard input.
    fn script(&self, flags: &[&str], script: &str) -> Output {
        let mut child = ccrelay()
            .arg("admin")
            .arg("--config")
            .arg(&self.config)
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ccrelay admin");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(script.as_bytes())
            .expect("write the script");
        child.wait_with_output().expect("wait")
    }

    /// The games the admin's `GAMES` lists, one line each after the heading.
    fn games(&self) -> String {
        let out = self.admin(&["GAMES"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        stdout(&out)
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}stderr:\n{}",
        out.status.code(),
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The ids of the games a `GAMES` reply lists.
fn game_ids(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with('g') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_admin_socket_runs_the_words_and_refusals_change_nothing() {
    let club = Club::new(true);
    let mut daemon = club.start();
    let meta = std::fs::symlink_metadata(club.socket()).expect("the admin socket");
    assert!(meta.file_type().is_socket());
    assert_eq!(meta.permissions().mode() & 0o777, 0o600, "under umask 000");

    let created = club.admin(&["CREATE", "g1", "alice", "boris"]);
    assert_eq!(created.status.code(), Some(0), "{}", text(&created));
    assert!(stdout(&created).contains("g1"), "{}", text(&created));
    // Reply lines come without their status codes.
    assert!(!stdout(&created).starts_with("250"), "{}", text(&created));
    let listed = club.games();
    assert_eq!(game_ids(&listed), ["g1"], "{listed}");
    assert!(
        listed.contains("alice") && listed.contains("boris"),
        "{listed}"
    );

    // Refused (409, 404, 400): exit 1, the reason printed, nothing made.
    for words in [
        &["CREATE", "g1", "boris", "alice"][..],
        &["CREATE", "g2", "alice", "nobody"],
        &["CREATE", "g2", "alice", "alice"],
        &["FROB"],
    ] {
        let refused = club.admin(words);
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{words:?}: {}",
            text(&refused)
        );
        assert!(!stdout(&refused).trim().is_empty(), "{}", text(&refused));
    }
    assert_eq!(club.games(), listed);

    // The journal names where the game came from.
    let export = ccrelay()
        .args([
            "journal", "export", "--format", "text", "--game", "g1", "--config",
        ])
        .arg(&club.config)
        .output()
        .expect("export");
    assert!(export.status.success(), "{}", text(&export));
    let start = stdout(&export)
        .lines()
        .find(|l| l.contains("game_start"))
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no game_start entry: {}", text(&export)));
    assert_eq!(
        start.split_whitespace().nth(3),
        Some("admin"),
        "the channel: {start}"
    );

    // A clean stop removes the socket.
    assert!(daemon.terminate().success());
    assert!(!club.socket().exists(), "the socket outlived the daemon");
}

#[test]
fn a_daemon_with_only_the_admin() {
    let club = Club::new(false);
    let _daemon = club.start();
    let listed = club.games();
    assert!(game_ids(&listed).is_empty(), "{listed}");
    let refused = club.admin(&["CREATE", "g1", "alice", "boris"]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(stdout(&refused).contains("no player"), "{}", text(&refused));
    assert_eq!(club.games(), listed);
    // LOGIN means nothing here: the session is the admin's already.
    let login = club.admin(&["LOGIN", "admin", "whatever"]);
    assert_eq!(login.status.code(), Some(1), "{}", text(&login));
    assert!(stdout(&login).contains("already logged in"));
}

#[test]
fn a_stale_socket_is_replaced_at_start() {
    let club = Club::new(false);
    std::fs::create_dir_all(&club.data).expect("data dir");
    // What a daemon killed with -9 leaves: a socket file nobody listens on.
    drop(std::os::unix::net::UnixListener::bind(club.socket()).expect("bind"));
    assert!(club.socket().exists());
    let mut daemon = club.start();
    assert_eq!(club.admin(&["GAMES"]).status.code(), Some(0));
    daemon.kill9();
    assert!(club.socket().exists(), "kill -9 leaves the file");
    let _daemon = club.start();
    assert_eq!(club.admin(&["GAMES"]).status.code(), Some(0));
}

#[test]
fn a_file_that_is_no_socket_stops_the_start() {
    let club = Club::new(false);
    std::fs::create_dir_all(&club.data).expect("data dir");
    std::fs::write(club.socket(), "notes").expect("write");
    let mut child = ccrelay()
        .args(["run", "--config"])
        .arg(&club.config)
        .env("CCRELAY_LOG", "off")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the daemon started over a file that is no socket");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&club.socket().display().to_string()) && said.contains("not a socket"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(club.socket()).unwrap(), "notes");
}

#[test]
fn without_a_daemon_admin_exits_2_and_says_where_it_looked() {
    let club = Club::new(false);
    let out = club.admin(&["GAMES"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&club.socket().display().to_string()) && said.contains("is it running"),
        "{said}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_script_on_standard_input_runs_in_order() {
    let club = Club::new(true);
    let _daemon = club.start();
    let out = club.script(
        &[],
        "# the first round\nCREATE g1 alice boris\n\nCREATE g2 boris alice\r\nGAMES\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let printed = stdout(&out);
    let (first, second) = (printed.find("g1"), printed.find("g2"));
    assert!(first.is_some() && first < second, "{printed}");
    assert_eq!(
        game_ids(&printed[second.unwrap()..]),
        ["g1", "g2"],
        "{printed}"
    );

    // It stops at the first refusal...
    let out = club.script(
        &[],
        "CREATE g3 alice boris\nCREATE g3 alice boris\nCREATE g4 alice boris\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped at line 2"));
    assert_eq!(game_ids(&club.games()), ["g1", "g2", "g3"]);

    // ... or goes on with --keep-going, and exits as the last failure did.
    let out = club.script(
        &["--keep-going"],
        "CREATE g5 alice boris\nCREATE g5 alice boris\nCREATE g6 alice boris\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(game_ids(&club.games()), ["g1", "g2", "g3", "g5", "g6"]);
}

/// `program` as root: directly when the tests run as root, else through `sudo -n`.
fn as_root(program: &str) -> Command {
    let id = Command::new("id").arg("-u").output().expect("id -u");
    if String::from_utf8_lossy(&id.stdout).trim() == "0" {
        Command::new(program)
    } else {
        let mut sudo = Command::new("sudo");
        sudo.args(["-n", program]);
        sudo
    }
}

/// `setpriv` as another user (nobody).
fn as_nobody() -> Command {
    let mut command = as_root("setpriv");
    command.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
    command
}

fn readable_by_all(path: &Path) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn another_user_cannot_use_the_admin_socket() {
    let club = Club::new(false);
    let _daemon = club.start();
    // Everything on the way is open to all, and the configuration readable: only the
    // socket's own guards stand in the way.
    readable_by_all(club.dir.path());
    readable_by_all(&club.data);
    std::fs::set_permissions(&club.config, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let nobody = |words: &[&str]| {
        as_nobody()
            .arg(env!("CARGO_BIN_EXE_ccrelay"))
            .arg("admin")
            .arg("--config")
            .arg(&club.config)
            .args(words)
            .stdin(Stdio::null())
            .output()
            .expect("setpriv (as root, or sudo -n) to run ccrelay as nobody")
    };
    // The mode 0600: the kernel refuses the connection.
    let out = nobody(&["GAMES"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Permission denied"),
        "{}",
        text(&out)
    );
    // With the mode opened up, the peer's uid is still checked.
    std::fs::set_permissions(club.socket(), std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let out = nobody(&["CREATE", "g1", "alice", "boris"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("refused") && said.contains("not uid 65534"),
        "{said}"
    );
    assert!(game_ids(&club.games()).is_empty());
}

/// As under systemd's DynamicUser: the daemon runs as a user of its own with a umask of 077 in
/// a state directory only it can enter, and root runs `ccrelay admin`.
#[test]
fn root_reaches_a_daemon_running_as_its_own_user() {
    let club = Club::new(true);
    readable_by_all(club.dir.path());
    std::fs::create_dir_all(&club.data).expect("data dir");
    let chown = as_root("chown")
        .args(["65534:65534"])
        .arg(&club.data)
        .status()
        .expect("chown");
    assert!(chown.success());
    std::fs::set_permissions(&club.data, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let mut run = as_nobody();
    run.args(["sh", "-c", "umask 077; exec \"$0\" run --config \"$1\""])
        .arg(env!("CARGO_BIN_EXE_ccrelay"))
        .arg(&club.config);
    let mut daemon = Daemon::start_command(run, "warn");
    let meta = std::fs::symlink_metadata(club.socket()).expect("the admin socket");
    assert_eq!(
        (
            std::os::unix::fs::MetadataExt::uid(&meta),
            meta.permissions().mode() & 0o777
        ),
        (65534, 0o600)
    );
    let admin = |words: &[&str]| {
        let out = as_root(env!("CARGO_BIN_EXE_ccrelay"))
            .args(["admin", "--config"])
            .arg(&club.config)
            .args(words)
            .stdin(Stdio::null())
            .output()
            .expect("ccrelay admin as root");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        stdout(&out)
    };
    admin(&["CREATE", "g1", "alice", "boris"]);
    assert_eq!(game_ids(&admin(&["GAMES"])), ["g1"]);
    assert!(daemon.terminate().success());
    assert!(!club.socket().exists());
}
