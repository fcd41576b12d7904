//! The relay daemon as players meet it: the real binary run on a config, its ephemeral
//! addresses read from its first line, killed when dropped; line-protocol clients to it, a
//! player's or the arbiter's, logged in.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::config::{ADMIN_SECRET, Player};
use super::line::Client;
use super::process::ccrelay;

/// A running daemon; killed when dropped.
pub struct Daemon {
    pub child: Child,
    pub addr: SocketAddr,
    /// The HTTP server's address, when the config has `[http]`.
    pub http: Option<SocketAddr>,
}

impl Daemon {
    pub fn start(config: &Path) -> Daemon {
        Daemon::start_logging(
            config,
            &std::env::var("CCRELAY_TEST_LOG").unwrap_or_else(|_| "warn".to_owned()),
        )
    }

    /// The same with `CCRELAY_LOG` set to `level` (a flood test does not want a warning per
    /// refused login).
    pub fn start_logging(config: &Path, level: &str) -> Daemon {
        let mut run = ccrelay();
        run.args(["run", "--config"]).arg(config);
        Daemon::start_command(run, level)
    }

    /// A daemon started by `command` (`ccrelay run ...`, or a shell that ends by running it).
    pub fn start_command(mut command: Command, level: &str) -> Daemon {
        command.env("CCRELAY_LOG", level).stderr(Stdio::inherit());
        Daemon::spawn(command)
    }

    /// A daemon started by `command` as it is set up (its environment, its standard error),
    /// once it says where it listens.
    pub fn spawn(mut command: Command) -> Daemon {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("start ccrelay run");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the listening line");
        let words: Vec<&str> = line
            .trim()
            .strip_prefix("ccrelay listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .split(' ')
            .collect();
        let addr = words[0].parse().expect("address");
        let http = match words.get(1..) {
            Some(["http", http]) => Some(http.parse().expect("http address")),
            _ => None,
        };
        Daemon { child, addr, http }
    }

    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, and the exit status.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        self.child.wait().expect("wait")
    }

    pub fn connect(&self) -> Client {
        Client::connect(self.addr)
    }

    pub fn login(&self, p: &Player) -> Client {
        let mut c = self.connect();
        let (code, text) = c.call(&format!("LOGIN {} {}", p.id, p.secret));
        assert_eq!(code, 230, "{text}");
        c
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// The admin, logged in.
pub fn admin(daemon: &Daemon) -> Client {
    let mut c = daemon.connect();
    assert_eq!(c.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    c
}
