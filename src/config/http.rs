//! `[http]`: the HTTP server (XFCC for correspondence clients, the web pages, metrics):
//! where it listens, with or without TLS (the same certificate settings as `[tcp]`), and the
//! bounds on what one request can make the daemon hold or wait for.
//!
//! Absent, no HTTP server runs.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

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
    })
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
