//! One address cannot shut the door on everyone: the real daemon with its shipped limits, and
//! real sockets from several loopback addresses (127.0.0.2 and up are this machine too, but
//! other addresses to the daemon). A flood of silent TCP connections from one address, and a
//! handful of addresses holding HTTP request heads and live streams, leave a login, `/healthz`
//! and a player's live page from elsewhere answered; behind a trusted proxy (PROXY protocol,
//! `X-Forwarded-For`, `Forwarded`) each client is its own address for the login door, the
//! limits and the private-wire rule; a body declared over the limit gets 413 at once.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

use crate::support::config::{ALICE, BORIS, config_text_with};
use crate::support::daemon::Daemon;
use crate::support::http::{Response, connect_from, get_from, parse_response, raw};
use crate::support::line::Client;
use crate::support::web::{player_cookie, start};
use crate::support::xfcc::envelope;

fn ip(last: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, last)
}

/// A daemon for Alice and Boris with these `[limits]` and `[tcp]` keys besides `listen`.
fn daemon_with(limits: &str, tcp: &str) -> (tempfile::TempDir, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], limits);
    let listen = "[tcp]\nlisten = \"127.0.0.1:0\"\n";
    assert!(text.contains(listen));
    let text = text.replacen(listen, &format!("{listen}{tcp}"), 1);
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    (dir, daemon)
}

/// Everything the server sends on `stream` until it closes it, or until `within` passes;
/// whether it closed.
fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    stream.set_read_timeout(Some(within)).expect("timeout");
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    let closed = loop {
        match stream.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                break false;
            }
            Err(_) => break true,
        }
    };
    (String::from_utf8_lossy(&seen).into_owned(), closed)
}

/// The flood of the report: more silent connections from one address than
/// `limits.max_connections` (2,048).
const FLOOD: usize = 2100;

#[test]
fn a_flood_of_silent_connections_from_one_address_does_not_delay_a_login_from_another() {
    // Every limit as shipped: 2,048 connections, 16 from one address before login, 30 s to
    // log in. Before the limit per address, the flood held every place for those 30 s and
    // the login below waited for its greeting until the flood's first connections timed out.
    let (_dir, daemon) = daemon_with("", "");
    let addr = daemon.addr;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut flood: Vec<tokio::net::TcpStream> = runtime.block_on(async {
        let mut flood = Vec::with_capacity(FLOOD);
        for _ in 0..FLOOD {
            let socket = tokio::net::TcpSocket::new_v4().expect("socket");
            socket.bind(SocketAddr::from((ip(2), 0))).expect("bind");
            let stream = tokio::time::timeout(Duration::from_secs(20), socket.connect(addr))
                .await
                .expect("a connection within 20 s")
                .expect("connect");
            flood.push(stream);
        }
        flood
    });
    // A player from another address is greeted (within the client's 20 s, far less than the
    // 30 s the flood's connections may stay silent) and logs in.
    let mut alice = Client::over(connect_from(ip(3), addr));
    let (code, text) = alice.call(&format!("LOGIN alice {}", ALICE.secret));
    assert_eq!(code, 230, "{text}");
    // The flood's connections beyond its address's 16 were told so and closed; the 16 are
    // greeted and held until their login time is up.
    let seen: Vec<(String, bool)> = runtime.block_on(async {
        let reads = flood.iter_mut().map(|stream| async move {
            use tokio::io::AsyncReadExt;
            let mut seen = Vec::new();
            let closed = tokio::time::timeout(Duration::from_secs(5), async {
                let mut buf = [0u8; 256];
                loop {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buf[..n]),
                    }
                }
            })
            .await
            .is_ok();
            (String::from_utf8_lossy(&seen).into_owned(), closed)
        });
        futures::future::join_all(reads).await
    });
    let held: Vec<&(String, bool)> = seen.iter().filter(|(_, closed)| !closed).collect();
    assert_eq!(held.len(), 16, "connections the flooding address holds");
    assert!(
        held.iter().all(|(text, _)| text.starts_with("200 ccrelay")),
        "{held:?}"
    );
    let refused = seen
        .iter()
        .filter(|(text, closed)| {
            *closed && text.starts_with("421 too many connections from your address")
        })
        .count();
    assert_eq!(
        refused,
        FLOOD - 16,
        "each connection over the limit told why"
    );
    // Alice plays on.
    assert_eq!(alice.call("GAMES").0, 250);
}

#[test]
fn a_silent_connection_is_closed_after_the_login_timeout_and_gives_its_place_back() {
    let (_dir, daemon) = daemon_with("login_timeout_secs = 1\n", "");
    let addr = daemon.addr;
    let mut silent: Vec<Client> = (0..16)
        .map(|_| Client::over(connect_from(ip(4), addr)))
        .collect();
    let (text, closed) = read_until_closed(&mut connect_from(ip(4), addr), Duration::from_secs(10));
    assert!(closed, "the 17th is closed");
    assert!(
        text.starts_with("421 too many connections from your address waiting to log in"),
        "{text:?}"
    );
    // Anyone else is greeted as usual.
    drop(Client::over(connect_from(ip(5), addr)));
    // After the login timeout each silent one is told so and closed...
    for client in &mut silent {
        let (code, text) = client.read_reply();
        assert_eq!(code, 421, "{text}");
        assert!(text.contains("no login in time"), "{text}");
        assert_eq!(client.read_line(), None);
    }
    // ... and its place is given back. A session that logs in no longer counts: twenty of
    // them from the same address, and the address is greeted still.
    let logged_in: Vec<Client> = (0..20)
        .map(|_| {
            let mut client = Client::over(connect_from(ip(4), addr));
            assert_eq!(client.call(&format!("LOGIN boris {}", BORIS.secret)).0, 230);
            client
        })
        .collect();
    drop(Client::over(connect_from(ip(4), addr)));
    drop(logged_in);
}

/// Opens `path` as a stream from `source` with extra header lines; the connection, kept open,
/// and the response's head.
fn open_stream(
    source: Ipv4Addr,
    addr: SocketAddr,
    path: &str,
    headers: &str,
) -> (TcpStream, String) {
    let mut stream = connect_from(source, addr);
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{headers}\r\n"
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
fn a_handful_of_addresses_cannot_take_the_live_pool_or_the_health_check() {
    // The shipped limits: 256 connections, 32 from one address; 64 live listeners, 8 from
    // one address. The request heads are given 60 s rather than 10, so that the slow heads
    // below cannot give their places back before the checks are done.
    let (_dir, _config, daemon) = start("header_timeout_secs = 60\n");
    let http = daemon.http.expect("http");
    let handful: Vec<Ipv4Addr> = (2..=10).map(ip).collect();
    // Nine addresses ask for nine live streams each.
    let mut held = Vec::new();
    let mut streams = 0;
    for &source in &handful {
        for _ in 0..9 {
            let (stream, head) = open_stream(source, http, "/live", "");
            if head.starts_with("HTTP/1.1 200") {
                streams += 1;
                held.push(stream);
            } else {
                assert!(head.starts_with("HTTP/1.1 503"), "{head}");
            }
        }
    }
    assert!(streams < 64, "the handful took every listener: {streams}");
    // Then 32 slow request heads each, as many as an address may hold.
    for &source in &handful {
        for _ in 0..32 {
            let mut stream = connect_from(source, http);
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
                .expect("write");
            held.push(stream);
        }
    }
    // A monitor at another address is answered.
    let health = get_from(ip(30), http, "/healthz", "");
    assert_eq!(health.status, 200, "{}", health.body);
    // A player logs in from another address and follows their games live.
    let cookie = player_cookie(http, "alice", ALICE.secret).expect("alice logs in");
    let (_alice_live, head) =
        open_stream(ip(1), http, "/play/live", &format!("Cookie: {cookie}\r\n"));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/event-stream"), "{head}");
    // So does a spectator from a fresh address.
    let (_spectator, head) = open_stream(ip(31), http, "/live", "");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    drop(held);
}

/// A request from `source`, with `headers` lines, on its own connection.
fn request_from(
    source: Ipv4Addr,
    addr: SocketAddr,
    head: &str,
    headers: &str,
    body: &str,
) -> Response {
    let mut stream = connect_from(source, addr);
    write!(
        stream,
        "{head}\r\nHost: x\r\n{headers}Content-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    parse_response(&bytes)
}

/// An XFCC `GetMyGames` through the proxy at 127.0.0.1, for the client its headers name.
fn get_my_games(http: SocketAddr, forwarded: &str, player: &str, secret: &str) -> Response {
    let body = envelope("GetMyGames", &[("username", player), ("password", secret)]);
    request_from(
        ip(1),
        http,
        "POST /xfccbasic.asmx HTTP/1.1",
        forwarded,
        &body,
    )
}

#[test]
fn behind_a_trusted_http_proxy_each_client_is_its_own_address() {
    // nginx on this machine in front of the daemon, saying whom it forwards.
    let (_dir, _config, daemon) = start("trusted_proxies = [\"127.0.0.1\"]\n");
    let http = daemon.http.expect("http");
    // A guesser behind the proxy: ten wrong calls, and its address is refused even a right
    // secret for the rest of the minute.
    let guesser = "X-Forwarded-For: 203.0.113.66, 198.51.100.7\r\n";
    for _ in 0..10 {
        let r = get_my_games(http, guesser, "mallory", "guess");
        assert!(r.body.contains("AuthenticationFailed"), "{}", r.body);
    }
    let r = get_my_games(http, guesser, "carol", "carol-secret");
    assert!(r.body.contains("AuthenticationFailed"), "{}", r.body);
    // Every other client of the same proxy plays on: XFCC by X-Forwarded-For and by
    // Forwarded, a web login, the proxy's own request.
    let r = get_my_games(
        http,
        "X-Forwarded-For: 203.0.113.5\r\n",
        "boris",
        BORIS.secret,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = get_my_games(
        http,
        "Forwarded: for=\"[2001:db8::5]:4711\";proto=https\r\n",
        "carol",
        "carol-secret",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(player_cookie(http, "alice", ALICE.secret).is_ok());
    // /metrics is for this machine: not for a client the proxy forwards from elsewhere.
    let forwarded = get_from(ip(1), http, "/metrics", "X-Forwarded-For: 198.51.100.9\r\n");
    assert_eq!(forwarded.status, 403, "{}", forwarded.body);
    assert_eq!(get_from(ip(1), http, "/metrics", "").status, 200);
    // A proxy that names no client readably, or two headers naming two clients: 400.
    let unknown = get_from(ip(1), http, "/", "X-Forwarded-For: unknown\r\n");
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    let two = get_from(
        ip(1),
        http,
        "/metrics",
        "X-Forwarded-For: 198.51.100.9\r\nForwarded: for=127.0.0.1\r\n",
    );
    assert_eq!(two.status, 400, "{}", two.body);
    // From an address that is no trusted proxy the headers are ignored.
    let untrusted = get_from(ip(2), http, "/metrics", "X-Forwarded-For: 127.0.0.1\r\n");
    assert_eq!(untrusted.status, 403, "{}", untrusted.body);
}

/// A connection from the proxy at 127.0.0.2 that begins with `header`.
fn through_proxy(addr: SocketAddr, header: &[u8]) -> TcpStream {
    let mut stream = connect_from(ip(2), addr);
    stream.write_all(header).expect("write");
    stream
}

fn proxy_v1(client: &str) -> Vec<u8> {
    format!("PROXY TCP4 {client} 127.0.0.1 40000 7878\r\n").into_bytes()
}

fn proxy_v2(client: Ipv4Addr) -> Vec<u8> {
    let mut header = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    header.extend_from_slice(&[0x21, 0x11, 0, 12]);
    header.extend_from_slice(&client.octets());
    header.extend_from_slice(&[127, 0, 0, 1]);
    header.extend_from_slice(&40000u16.to_be_bytes());
    header.extend_from_slice(&7878u16.to_be_bytes());
    header
}

#[test]
fn behind_a_trusted_tcp_proxy_each_client_is_its_own_address_and_secret_needs_a_private_wire() {
    // nginx's stream module on this machine at 127.0.0.2, with `proxy_protocol on`.
    let (_dir, daemon) = daemon_with("", "trusted_proxies = [\"127.0.0.2\"]\n");
    let addr = daemon.addr;
    // A guesser behind the proxy exhausts its own address.
    let mut guesser = Client::over(through_proxy(addr, &proxy_v1("198.51.100.7")));
    for _ in 0..10 {
        assert_eq!(guesser.call("LOGIN mallory guess").0, 430);
    }
    assert_eq!(
        guesser.call(&format!("LOGIN alice {}", ALICE.secret)).0,
        429
    );
    // The same address in a version 2 header is the same client.
    let mut again = Client::over(through_proxy(
        addr,
        &proxy_v2(Ipv4Addr::new(198, 51, 100, 7)),
    ));
    assert_eq!(again.call(&format!("LOGIN boris {}", BORIS.secret)).0, 429);
    // Another client of the same proxy logs in; over the proxy's plain hop from elsewhere,
    // the wire is not private: no SECRET.
    let mut alice = Client::over(through_proxy(
        addr,
        &proxy_v2(Ipv4Addr::new(203, 0, 113, 5)),
    ));
    assert_eq!(alice.call(&format!("LOGIN alice {}", ALICE.secret)).0, 230);
    let (code, text) = alice.call("SECRET correct-horse-battery-staple");
    assert_eq!(code, 403, "{text}");
    assert!(text.contains("this wire is not private"), "{text}");
    // A client on this machine, through the proxy on this machine, is private as before.
    let mut boris = Client::over(through_proxy(addr, &proxy_v1("127.0.0.1")));
    assert_eq!(boris.call(&format!("LOGIN boris {}", BORIS.secret)).0, 230);
    let (code, text) = boris.call("SECRET correct-horse-battery-staple");
    assert_eq!(code, 250, "{text}");
    // The proxy's connection without its header, or with a header cut short, is closed
    // without a greeting.
    for start in [
        &b"LOGIN alice alice-secret\n"[..],
        b"PROXY TCP4 198.51.100.7",
    ] {
        let mut stream = through_proxy(addr, start);
        let (text, closed) = read_until_closed(&mut stream, Duration::from_secs(15));
        assert!(closed, "{start:?}");
        assert_eq!(text, "", "{start:?}");
    }
    // From anyone else a PROXY line is no command, and changes nobody's address.
    let mut direct = Client::over(connect_from(ip(3), addr));
    let (code, text) = direct.call("PROXY TCP4 203.0.113.5 127.0.0.1 40000 7878");
    assert!(code >= 400, "{code} {text}");
    for _ in 0..10 {
        assert_eq!(direct.call("LOGIN trudy guess").0, 430);
    }
    let mut fresh = Client::over(connect_from(ip(3), addr));
    assert_eq!(fresh.call(&format!("LOGIN alice {}", ALICE.secret)).0, 429);
    let mut named = Client::over(through_proxy(addr, &proxy_v1("203.0.113.5")));
    assert_eq!(named.call(&format!("LOGIN alice {}", ALICE.secret)).0, 230);
}

#[test]
fn a_body_declared_over_the_limit_is_refused_413_as_soon_as_its_head_is_read() {
    // The shipped limits: 64 KiB a body, 30 s for a request. The body is never sent: the
    // answer must not wait for it.
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    for path in ["/xfccbasic.asmx", "/play/login"] {
        let mut stream = TcpStream::connect(http).expect("connect");
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 10000000\r\n\r\n"
        )
        .expect("write");
        let (text, closed) = read_until_closed(&mut stream, Duration::from_secs(15));
        assert!(closed, "{path}: the connection is closed after the answer");
        let response = parse_response(text.as_bytes());
        assert_eq!(response.status, 413, "{path}: {}", response.body);
        assert!(
            response.body.contains("http.max_body_bytes"),
            "{}",
            response.body
        );
    }
    // A body within the limit is read as before.
    let body = envelope(
        "GetMyGames",
        &[("username", "boris"), ("password", BORIS.secret)],
    );
    let r = raw(
        http,
        format!(
            "POST /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
}
