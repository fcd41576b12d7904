//! `[tcp]`: where the line protocol listens, with or without TLS, and the proxies whose PROXY
//! protocol header names the client; and `[limits]`: the bounds on what a client can make the
//! daemon hold or wait for.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::addresses::{AddressSet, addresses};
use super::check::Checker;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTcp {
    listen: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    trusted_proxies: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLimits {
    max_connections: Option<i64>,
    max_connections_per_address_before_login: Option<i64>,
    max_line_bytes: Option<i64>,
    idle_timeout_secs: Option<i64>,
    login_timeout_secs: Option<i64>,
    /// Called `login_attempts_per_minute` before failed logins alone were counted.
    #[serde(alias = "login_attempts_per_minute")]
    failed_logins_per_minute: Option<i64>,
    commands_per_minute: Option<i64>,
    push_queue: Option<i64>,
    xfcc_fetches_per_minute: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct TcpConfig {
    pub listen: SocketAddr,
    pub tls: Option<TlsFiles>,
    /// Proxies in front of the listener (nginx's stream module with `proxy_protocol on`,
    /// HAProxy with `send-proxy`): a connection from one of these must begin with a PROXY
    /// protocol header (version 1 or 2), and the client it names is the connection's address
    /// for every limit, the login door and the private-wire rule. None unless configured; a
    /// PROXY header from anyone else is a line like any other (and no command).
    pub trusted_proxies: AddressSet,
}

#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Bounds on everything a client can make the daemon hold or wait for.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_connections: usize,
    /// Connections from one client address (an IPv6 /64) that have not logged in yet, at once;
    /// one more is told `421` and closed. A flood of silent connections from one address then
    /// holds this many of `max_connections`, never all of them; a session that logs in no
    /// longer counts (its secret is the limit then).
    pub max_connections_per_address_before_login: usize,
    pub max_line_bytes: usize,
    pub idle_timeout: Duration,
    pub login_timeout: Duration,
    /// Failed logins allowed per minute from one address (an IPv6 /64) and, separately, at
    /// one player from anywhere; successful logins are not counted.
    pub failed_logins_per_minute: u32,
    /// Commands one session may send per minute (a rejected move is journaled, so this also
    /// bounds how fast one player can grow the journal).
    pub commands_per_minute: u32,
    pub push_queue: usize,
    /// XFCC `GetMyGames` calls one player may make per minute on average, after a burst of
    /// [`Limits::xfcc_fetch_burst`] (a client set to poll every second is slowed, not a
    /// player fetching as fast as they move).
    pub xfcc_fetches_per_minute: u32,
}

impl Limits {
    /// The fetches a player may make at once after a quiet spell: four minutes' worth.
    pub fn xfcc_fetch_burst(&self) -> u32 {
        self.xfcc_fetches_per_minute.saturating_mul(4)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 2048,
            max_connections_per_address_before_login: 16,
            max_line_bytes: 1024,
            idle_timeout: Duration::from_secs(900),
            login_timeout: Duration::from_secs(30),
            failed_logins_per_minute: 10,
            commands_per_minute: 600,
            push_queue: 256,
            xfcc_fetches_per_minute: 30,
        }
    }
}

/// A section's `tls_cert` and `tls_key`: both or neither (`[tcp]`, `[http]`).
pub(super) fn tls_files(
    c: &mut Checker,
    section: &str,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
) -> Option<TlsFiles> {
    match (cert, key) {
        (None, None) => None,
        (Some(cert), Some(key)) => Some(TlsFiles {
            cert: c.path(cert),
            key: c.path(key),
        }),
        (Some(_), None) => {
            c.problem(format!("{section}.tls_key"), "missing (tls_cert is set)");
            None
        }
        (None, Some(_)) => {
            c.problem(format!("{section}.tls_cert"), "missing (tls_key is set)");
            None
        }
    }
}

/// Checks `[tcp]` (127.0.0.1:7878 without TLS when absent).
pub(super) fn check(c: &mut Checker, raw: Option<RawTcp>) -> TcpConfig {
    let raw = raw.unwrap_or_default();
    let listen_text = raw.listen.unwrap_or_else(|| "127.0.0.1:7878".to_owned());
    let listen = listen_text.parse().unwrap_or_else(|_| {
        c.problem(
            "tcp.listen",
            format!("{listen_text:?} is not an address:port"),
        );
        SocketAddr::from(([127, 0, 0, 1], 0))
    });
    let tls = tls_files(c, "tcp", raw.tls_cert, raw.tls_key);
    let trusted_proxies = addresses(
        c,
        "tcp.trusted_proxies",
        raw.trusted_proxies,
        AddressSet::default(),
    );
    TcpConfig {
        listen,
        tls,
        trusted_proxies,
    }
}

/// Checks `[limits]`; each absent key keeps its [`Limits::default`].
pub(super) fn check_limits(c: &mut Checker, raw: Option<RawLimits>) -> Limits {
    let raw = raw.unwrap_or_default();
    let d = Limits::default();
    Limits {
        max_connections: c.positive(
            "limits.max_connections",
            raw.max_connections,
            d.max_connections as u64,
            1_000_000,
        ) as usize,
        max_connections_per_address_before_login: c.positive(
            "limits.max_connections_per_address_before_login",
            raw.max_connections_per_address_before_login,
            d.max_connections_per_address_before_login as u64,
            1_000_000,
        ) as usize,
        max_line_bytes: c.positive(
            "limits.max_line_bytes",
            raw.max_line_bytes,
            d.max_line_bytes as u64,
            65_536,
        ) as usize,
        idle_timeout: Duration::from_secs(c.positive(
            "limits.idle_timeout_secs",
            raw.idle_timeout_secs,
            d.idle_timeout.as_secs(),
            86_400 * 7,
        )),
        login_timeout: Duration::from_secs(c.positive(
            "limits.login_timeout_secs",
            raw.login_timeout_secs,
            d.login_timeout.as_secs(),
            3_600,
        )),
        failed_logins_per_minute: c.positive(
            "limits.failed_logins_per_minute",
            raw.failed_logins_per_minute,
            u64::from(d.failed_logins_per_minute),
            10_000,
        ) as u32,
        commands_per_minute: c.positive(
            "limits.commands_per_minute",
            raw.commands_per_minute,
            u64::from(d.commands_per_minute),
            1_000_000,
        ) as u32,
        push_queue: c.positive(
            "limits.push_queue",
            raw.push_queue,
            d.push_queue as u64,
            1_000_000,
        ) as usize,
        xfcc_fetches_per_minute: c.positive(
            "limits.xfcc_fetches_per_minute",
            raw.xfcc_fetches_per_minute,
            u64::from(d.xfcc_fetches_per_minute),
            1_000_000,
        ) as u32,
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use std::path::Path;

    fn load(text: &str) -> Result<Config, String> {
        Config::from_toml(text, Path::new("/etc/ccrelay")).map_err(|e| e.to_string())
    }

    #[test]
    fn trusted_proxies_and_the_limit_before_login_are_read_and_each_bad_one_named() {
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        let d = load("").unwrap();
        assert!(
            !d.tcp.trusted_proxies.contains(ip("127.0.0.1")),
            "none by default"
        );
        assert_eq!(d.limits.max_connections_per_address_before_login, 16);
        let c = load(
            "[tcp]\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\"]\n\
             [limits]\nmax_connections_per_address_before_login = 4\n",
        )
        .unwrap();
        assert!(c.tcp.trusted_proxies.contains(ip("10.2.3.4")));
        assert!(!c.tcp.trusted_proxies.contains(ip("127.0.0.2")));
        assert_eq!(c.limits.max_connections_per_address_before_login, 4);
        let e = load(
            "[tcp]\ntrusted_proxies = [\"nginx\"]\n\
             [limits]\nmax_connections_per_address_before_login = 0\n",
        )
        .unwrap_err();
        assert!(e.contains("tcp.trusted_proxies[0]"), "{e}");
        assert!(
            e.contains("limits.max_connections_per_address_before_login"),
            "{e}"
        );
        let e = load("[http]\nlisten = \"127.0.0.1:1\"\ntrusted_proxies = [\"::1/129\"]\n")
            .unwrap_err();
        assert!(e.contains("http.trusted_proxies[0]"), "{e}");
    }
}
