//! `[http]`: the HTTP server (XFCC for correspondence clients, the web pages, metrics):
//! where it listens, with or without TLS (the same certificate settings as `[tcp]`), and the
//! bounds on what one request can make the daemon hold or wait for.
//!
//! Absent, no HTTP server runs.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::addresses::{AddressSet, addresses};
use super::check::Checker;
use super::tcp::{TlsFiles, tls_files};

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHttp {
    listen: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
    max_body_bytes: Option<i64>,
    max_connections: Option<i64>,
    header_timeout_secs: Option<i64>,
    request_timeout_secs: Option<i64>,
    max_listeners: Option<i64>,
    max_connections_per_address: Option<i64>,
    max_listeners_per_address: Option<i64>,
    exempt_addresses: Option<Vec<String>>,
    trusted_proxies: Option<Vec<String>>,
    metrics_from: Option<Vec<String>>,
    public_url: Option<String>,
}

/// The HTTP server's settings.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    pub listen: SocketAddr,
    pub tls: Option<TlsFiles>,
    /// The largest request body read; a larger one is refused with 413 before it is parsed.
    pub max_body_bytes: usize,
    /// Connections served at once; more wait in the kernel's backlog.
    pub max_connections: usize,
    /// A client must send each request head (and finish a TLS handshake) within this; a
    /// kept-alive connection without a new request for this long is closed.
    pub header_timeout: Duration,
    /// A whole request (its body read and its answer computed) must finish within this.
    pub request_timeout: Duration,
    /// Web pages following a game or an event live (Server-Sent Events) at once; one more is
    /// answered 503 and its browser tries again later.
    pub max_listeners: usize,
    /// Connections from one address (an IPv6 address's /64) at once; one more is served only
    /// `/healthz` (anything else 503) from a small pool of its own, so one client can neither
    /// take every connection nor keep the health check from being answered.
    pub max_connections_per_address: usize,
    /// Live listeners from one address (an IPv6 address's /64) at once.
    pub max_listeners_per_address: usize,
    /// Addresses the per-address limits do not apply to (a reverse proxy in front of the
    /// daemon, a monitor); the limits in all still do. None unless configured.
    pub exempt_addresses: AddressSet,
    /// Reverse proxies in front of the server (nginx, a port forward that says who it
    /// forwards): a request from one of these names its client in `X-Forwarded-For` or
    /// `Forwarded` (RFC 7239), and that client's address is the request's for every
    /// per-address limit, the login door and `metrics_from`. Their connections are not counted
    /// per address (they carry many clients); their clients' live listeners are. None unless
    /// configured; from anyone else those headers are ignored.
    pub trusted_proxies: AddressSet,
    /// Who is served `/metrics`: these addresses (loopback unless configured), and the arbiter
    /// logged in on the web. Anyone else gets 403: the counters move with moves in games
    /// spectators may not see.
    pub metrics_from: AddressSet,
    /// Where the players reach these pages from outside (`https://chess.example.org`, no
    /// slash at the end): the links in the mails the relay sends when it is a player's move
    /// (a game's page, the one-click unsubscribe). None unless configured; without it a
    /// player cannot ask for those mails.
    pub public_url: Option<String>,
}

impl HttpConfig {
    /// The defaults for an HTTP server on `listen`.
    pub fn on(listen: SocketAddr) -> HttpConfig {
        HttpConfig {
            listen,
            tls: None,
            max_body_bytes: 64 * 1024,
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_listeners: 64,
            max_connections_per_address: 32,
            max_listeners_per_address: 8,
            exempt_addresses: AddressSet::default(),
            trusted_proxies: AddressSet::default(),
            metrics_from: AddressSet::loopback(),
            public_url: None,
        }
    }
}

/// Checks `[http]`; `None` when the section is absent.
pub(super) fn check(c: &mut Checker, raw: Option<RawHttp>) -> Option<HttpConfig> {
    let raw = raw?;
    let listen = match raw.listen {
        None => {
            c.problem(
                "http.listen",
                "required (an address:port, e.g. \"127.0.0.1:8080\")",
            );
            SocketAddr::from(([127, 0, 0, 1], 0))
        }
        Some(text) => text.parse().unwrap_or_else(|_| {
            c.problem("http.listen", format!("{text:?} is not an address:port"));
            SocketAddr::from(([127, 0, 0, 1], 0))
        }),
    };
    let tls = tls_files(c, "http", raw.tls_cert, raw.tls_key);
    let d = HttpConfig::on(listen);
    let secs = |c: &mut Checker, key: &str, value: Option<i64>, default: Duration| {
        Duration::from_secs(c.positive(key, value, default.as_secs(), 3_600))
    };
    Some(HttpConfig {
        listen,
        tls,
        max_body_bytes: c.positive(
            "http.max_body_bytes",
            raw.max_body_bytes,
            d.max_body_bytes as u64,
            16 * 1024 * 1024,
        ) as usize,
        max_connections: c.positive(
            "http.max_connections",
            raw.max_connections,
            d.max_connections as u64,
            100_000,
        ) as usize,
        header_timeout: secs(
            c,
            "http.header_timeout_secs",
            raw.header_timeout_secs,
            d.header_timeout,
        ),
        request_timeout: secs(
            c,
            "http.request_timeout_secs",
            raw.request_timeout_secs,
            d.request_timeout,
        ),
        max_listeners: c.positive(
            "http.max_listeners",
            raw.max_listeners,
            d.max_listeners as u64,
            100_000,
        ) as usize,
        max_connections_per_address: c.positive(
            "http.max_connections_per_address",
            raw.max_connections_per_address,
            d.max_connections_per_address as u64,
            100_000,
        ) as usize,
        max_listeners_per_address: c.positive(
            "http.max_listeners_per_address",
            raw.max_listeners_per_address,
            d.max_listeners_per_address as u64,
            100_000,
        ) as usize,
        exempt_addresses: addresses(
            c,
            "http.exempt_addresses",
            raw.exempt_addresses,
            d.exempt_addresses,
        ),
        trusted_proxies: addresses(
            c,
            "http.trusted_proxies",
            raw.trusted_proxies,
            d.trusted_proxies,
        ),
        metrics_from: addresses(c, "http.metrics_from", raw.metrics_from, d.metrics_from),
        public_url: raw.public_url.and_then(|url| public_url(c, &url)),
    })
}

/// `http.public_url`: `http://` or `https://`, a host, perhaps a port and a path; no query, no
/// fragment, no spaces or quotes (it is written into mails' headers and pages). Kept without
/// its trailing slash, so that a path is appended to it as it is.
fn public_url(c: &mut Checker, url: &str) -> Option<String> {
    let key = "http.public_url";
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        c.problem(
            key,
            format!(
                "{url:?}: say http:// or https:// and the host (\"https://chess.example.org\")"
            ),
        );
        return None;
    };
    let host = rest.split('/').next().unwrap_or_default();
    let bad_char = url.chars().any(|ch| {
        ch.is_whitespace() || ch.is_control() || matches!(ch, '"' | '<' | '>' | '\\' | '`')
    });
    if host.is_empty() || host.contains('@') {
        c.problem(key, format!("{url:?}: no host"));
        None
    } else if url.contains(['?', '#']) {
        c.problem(key, format!("{url:?}: no query or fragment"));
        None
    } else if bad_char || !url.is_ascii() {
        c.problem(
            key,
            format!("{url:?}: no spaces, quotes or other characters a link cannot hold"),
        );
        None
    } else {
        Some(url.trim_end_matches('/').to_owned())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use std::path::Path;

    fn load(http: &str) -> Result<Config, String> {
        Config::from_toml(&format!("[http]\n{http}"), Path::new("/etc/ccrelay"))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn absent_means_no_server_and_defaults_fill_the_rest() {
        let none = Config::from_toml("", Path::new(".")).unwrap();
        assert!(none.http.is_none());
        let http = load("listen = \"127.0.0.1:8080\"").unwrap().http.unwrap();
        assert_eq!(http.listen.port(), 8080);
        assert!(http.tls.is_none());
        assert_eq!(http.max_body_bytes, 64 * 1024);
    }

    #[test]
    fn each_bad_key_is_named() {
        let e = load(
            "listen = \"nowhere\"\ntls_cert = \"c.pem\"\nmax_body_bytes = 0\nrequest_timeout_secs = -1\n",
        )
        .unwrap_err();
        for key in [
            "http.listen",
            "http.tls_key",
            "http.max_body_bytes",
            "http.request_timeout_secs",
        ] {
            assert!(e.contains(key), "{key} not in {e}");
        }
        let e = load("").unwrap_err();
        assert!(e.contains("http.listen"), "{e}");
        let e = load("listen = \"127.0.0.1:1\"\nport = 3\n").unwrap_err();
        assert!(e.contains("port"), "{e}");
    }

    #[test]
    fn address_lists_read_addresses_and_networks() {
        let http = load(
            "listen = \"127.0.0.1:1\"\nexempt_addresses = [\"10.0.0.0/8\", \"2001:db8::/32\", \"192.0.2.7\"]\nmetrics_from = []\n",
        )
        .unwrap()
        .http
        .unwrap();
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        let exempt = &http.exempt_addresses;
        assert!(exempt.contains(ip("10.200.3.4")));
        assert!(
            exempt.contains(ip("::ffff:10.1.1.1")),
            "an IPv4 address on an IPv6 socket"
        );
        assert!(exempt.contains(ip("2001:db8:5::1")));
        assert!(exempt.contains(ip("192.0.2.7")));
        assert!(!exempt.contains(ip("192.0.2.8")));
        assert!(!exempt.contains(ip("11.0.0.1")));
        assert!(!http.metrics_from.contains(ip("127.0.0.1")));
        // The defaults: nobody exempt, metrics for loopback only.
        let d = load("listen = \"127.0.0.1:1\"").unwrap().http.unwrap();
        assert!(!d.exempt_addresses.contains(ip("127.0.0.1")));
        assert!(d.metrics_from.contains(ip("127.0.0.1")));
        assert!(d.metrics_from.contains(ip("::1")));
        assert!(!d.metrics_from.contains(ip("127.0.0.2")));
        assert_eq!(d.max_connections_per_address, 32);
        assert_eq!(d.max_listeners_per_address, 8);
        let e = load("listen = \"127.0.0.1:1\"\nmetrics_from = [\"10.0.0.0/33\", \"nowhere\"]\n")
            .unwrap_err();
        assert!(e.contains("http.metrics_from[0]"), "{e}");
        assert!(e.contains("http.metrics_from[1]"), "{e}");
    }

    #[test]
    fn the_public_url_is_http_or_https_without_a_query() {
        let url = |text: &str| {
            load(&format!(
                "listen = \"127.0.0.1:1\"\npublic_url = {text:?}\n"
            ))
            .map(|c| c.http.unwrap().public_url)
        };
        assert_eq!(
            url("https://chess.example.org/"),
            Ok(Some("https://chess.example.org".to_owned()))
        );
        assert_eq!(
            url("http://127.0.0.1:8080/relay"),
            Ok(Some("http://127.0.0.1:8080/relay".to_owned()))
        );
        assert_eq!(
            load("listen = \"127.0.0.1:1\"")
                .unwrap()
                .http
                .unwrap()
                .public_url,
            None
        );
        for bad in [
            "chess.example.org",
            "ftp://chess.example.org",
            "https://",
            "https:///games",
            "https://chess.example.org/?a=1",
            "https://chess.example.org/#top",
            "https://chess example.org",
            "https://user@chess.example.org",
            "https://chess.example.org/\"x",
        ] {
            let e = url(bad).unwrap_err();
            assert!(e.contains("http.public_url"), "{bad}: {e}");
        }
    }

    #[test]
    fn tls_paths_are_relative_to_the_config() {
        let http = load("listen = \"0.0.0.0:443\"\ntls_cert = \"c.pem\"\ntls_key = \"k.pem\"\n")
            .unwrap()
            .http
            .unwrap();
        let tls = http.tls.unwrap();
        assert_eq!(tls.cert, Path::new("/etc/ccrelay/c.pem"));
        assert_eq!(tls.key, Path::new("/etc/ccrelay/k.pem"));
    }

    #[test]
    fn a_player_reached_by_xfcc_is_read() {
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ";
        let text = format!(
            "[http]\nlisten = \"127.0.0.1:0\"\n[[players]]\nid = \"boris\"\nsecret_hash = \"{hash}\"\nreach = \"xfcc\"\n"
        );
        let config = Config::from_toml(&text, Path::new(".")).unwrap();
        assert_eq!(config.players["boris"].reach, crate::config::Reach::Xfcc);
        let bad = text.replace("xfcc", "soap");
        let e = Config::from_toml(&bad, Path::new("."))
            .unwrap_err()
            .to_string();
        assert!(e.contains("players[0].reach"), "{e}");
    }
}
