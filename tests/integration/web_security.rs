//! The HTTP server against hostile clients, with the shipped limits and real sockets from
//! several loopback addresses (127.0.0.2 and up are the machine too, but other addresses to
//! the daemon): the security headers on every page and no inline script or style for them to
//! allow; `/metrics` only for loopback and the arbiter; one address holding its 32
//! connections, then flooding 300 more, while `/healthz` is answered; live listeners bounded
//! per address, and an exempt address beyond the bound.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::support::config::ADMIN_SECRET;
use crate::support::http::{Response, connect_from, get, get_from, get_with};
use crate::support::web::{arbiter_cookie, start};

fn header<'a>(r: &'a Response, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn ip(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

#[test]
fn every_page_carries_the_security_headers_and_holds_no_inline_script_or_style() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter");
    let as_arbiter = format!("Cookie: {cookie}\r\n");
    let pages: [(&str, &str, u16); 9] = [
        ("/", "", 200),
        ("/games/g1", "", 200),
        ("/events/open", "", 200),
        ("/login", "", 200),
        ("/games/p1", "", 404),
        ("/nowhere", "", 404),
        ("/games/g1?ply=99", "", 400),
        ("/games/p1", &as_arbiter, 200),
        ("/", &as_arbiter, 200),
    ];
    for (path, headers, status) in pages {
        let r = get_with(http, path, headers);
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert!(
            header(&r, "content-type").is_some_and(|t| t.starts_with("text/html")),
            "{path}"
        );
        let csp = header(&r, "content-security-policy").unwrap_or_default();
        for wanted in [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(wanted), "{path}: {csp:?} lacks {wanted}");
        }
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(
            header(&r, "x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(header(&r, "x-frame-options"), Some("DENY"), "{path}");
        // Nothing inline for the policy to allow: every script is a file, no style element
        // or attribute, no event handler attribute.
        let body = &r.body;
        for script in body.split("<script").skip(1) {
            let tag = &script[..script.find('>').expect("a tag's end")];
            assert!(
                tag.contains("src=\"/assets/"),
                "{path}: inline <script{tag}>"
            );
            assert!(script[tag.len()..].starts_with("></script>"), "{path}");
        }
        assert!(!body.contains("<style"), "{path}: an inline style element");
        assert!(!body.contains(" style="), "{path}: a style attribute");
        assert!(
            !body.contains(" onclick=") && !body.contains(" onload="),
            "{path}"
        );
    }
    // Every page depends on the login: no cache keeps it, and none shares it across cookies.
    for path in ["/", "/games/g1", "/events/open", "/games/g1.pgn", "/login"] {
        for headers in ["", as_arbiter.as_str()] {
            let r = get_with(http, path, headers);
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(header(&r, "cache-control"), Some("no-store"), "{path}");
            assert!(
                header(&r, "vary").is_some_and(|v| v.contains("Cookie")),
                "{path}: {:?}",
                r.headers
            );
        }
    }
    // The style and the live script are files, served with their types.
    let index = get(http, "/games/g1");
    let asset = |kind: &str| {
        let at = index.body.find(&format!("{kind}=\"/assets/")).expect(kind) + kind.len() + 2;
        index.body[at..at + index.body[at..].find('"').expect("quote")].to_owned()
    };
    let style = get(http, &asset("href"));
    assert_eq!(style.status, 200);
    assert!(header(&style, "content-type").is_some_and(|t| t.starts_with("text/css")));
    assert!(style.body.contains("font-family"), "{}", style.body);
    let script = get(http, &asset("src"));
    assert_eq!(script.status, 200);
    assert!(header(&script, "content-type").is_some_and(|t| t.starts_with("text/javascript")));
    assert!(script.body.contains("EventSource"), "{}", script.body);
}

#[test]
fn metrics_are_served_to_loopback_and_to_the_arbiter_only() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let local = get_from(ip(1), http, "/metrics", "");
    assert_eq!(local.status, 200, "{}", local.body);
    assert!(local.body.contains("ccrelay_"), "{}", local.body);
    // Another address is refused, and learns nothing of the counters.
    let stranger = get_from(ip(2), http, "/metrics", "");
    assert_eq!(stranger.status, 403, "{}", stranger.body);
    assert!(
        !stranger.body.contains("ccrelay_moves"),
        "{}",
        stranger.body
    );
    // The arbiter, logged in, reads them from anywhere.
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter");
    let arbiter = get_from(ip(2), http, "/metrics", &format!("Cookie: {cookie}\r\n"));
    assert_eq!(arbiter.status, 200, "{}", arbiter.body);
    // A forged session cookie is no arbiter.
    let forged = get_from(
        ip(2),
        http,
        "/metrics",
        &format!("Cookie: ccrelay_arbiter={}\r\n", "0".repeat(64)),
    );
    assert_eq!(forged.status, 403);
}

/// Whether the server has closed `stream` (end of stream or reset) within `within`.
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).expect("timeout");
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn one_address_holds_its_share_of_connections_and_health_is_still_answered() {
    // The shipped limits: 32 connections an address, 256 in all, 10 s for a request head.
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let hogging = ip(3);
    // A slowloris: 32 connections that never say a word.
    let mut held: Vec<TcpStream> = (0..32).map(|_| connect_from(hogging, http)).collect();
    // The 33rd from that address is served only /healthz.
    let page = get_from(hogging, http, "/", "");
    assert_eq!(page.status, 503, "{}", page.body);
    assert!(
        page.body.contains("too many connections from your address"),
        "{}",
        page.body
    );
    let health = get_from(hogging, http, "/healthz", "");
    assert_eq!(health.status, 200, "{}", health.body);
    // Anyone else is served as usual.
    assert_eq!(get_from(ip(2), http, "/", "").status, 200);
    // 300 more at once from the same address: each closed at once or after the short
    // deadline of the overflow, none holding a place; /healthz from elsewhere is answered
    // all along.
    let mut flood: Vec<TcpStream> = (0..300).map(|_| connect_from(hogging, http)).collect();
    let health = get_from(ip(2), http, "/healthz", "");
    assert_eq!(health.status, 200, "{}", health.body);
    // The 32 it holds are still open (their 10 s to say something are not up).
    assert!(!closed_within(&mut held[0], Duration::from_millis(200)));
    let closed = flood
        .iter_mut()
        .map(|s| closed_within(s, Duration::from_secs(4)))
        .filter(|closed| *closed)
        .count();
    assert_eq!(
        closed, 300,
        "connections over the address's limit left open"
    );
    // Given back, the places are the address's again.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let again = get_from(hogging, http, "/", "");
        if again.status == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no place given back: {}",
            again.body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn open_live_from(source: Ipv4Addr, addr: SocketAddr) -> (TcpStream, String) {
    let mut stream = connect_from(source, addr);
    write!(
        stream,
        "GET /live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("write");
    let mut seen = Vec::new();
    let mut buf = [0u8; 512];
    while !String::from_utf8_lossy(&seen).contains("\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
    (stream, String::from_utf8_lossy(&seen).into_owned())
}

#[test]
fn live_listeners_are_bounded_per_address_except_for_an_exempt_one() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    // The shipped bound: 8 live pages from one address.
    let mut streams = Vec::new();
    for _ in 0..8 {
        let (stream, head) = open_live_from(ip(4), http);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        streams.push(stream);
    }
    let (_, refused) = open_live_from(ip(4), http);
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    let refused = get_from(ip(4), http, "/live", "");
    assert!(
        refused
            .body
            .contains("too many live listeners from your address"),
        "{}",
        refused.body
    );
    let (_other, head) = open_live_from(ip(5), http);
    assert!(head.starts_with("HTTP/1.1 200"), "another address: {head}");
    drop((streams, daemon));

    // An address the configuration exempts (a reverse proxy) is held only by the bounds in
    // all: 40 connections and 12 live pages from it.
    let (_dir, _config, daemon) = start("exempt_addresses = [\"127.0.0.4\"]\n");
    let http = daemon.http.expect("http");
    let mut streams = Vec::new();
    for _ in 0..12 {
        let (stream, head) = open_live_from(ip(4), http);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        streams.push(stream);
    }
    let idle: Vec<TcpStream> = (0..28).map(|_| connect_from(ip(4), http)).collect();
    assert_eq!(get_from(ip(4), http, "/", "").status, 200);
    drop((idle, streams));
}
