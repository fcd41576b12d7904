//! What a secret opens, against the real daemon: a new secret (the arbiter's `PLAYER
//! SECRET`, the player's own `SECRET`) ends every line session, web session and live stream
//! the old one opened, each told why where it can be; a logout ends its own live streams and
//! no other; the arbiter's session and other players' go on.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::config::{ALICE, BORIS};
use crate::support::daemon::{Daemon, admin};
use crate::support::http::get_with;
use crate::support::line::{Client, ok};
use crate::support::web::{form_token, player_cookie, post_form, start};

/// How long anything here may take to happen.
const WITHIN: Duration = Duration::from_secs(10);

/// `/play/live` opened with `cookie`, its response head read.
fn player_live(addr: SocketAddr, cookie: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET /play/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let (head, _) = read_until(&mut stream, |seen| seen.contains("\r\n\r\n"));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    stream
}

/// Reads until `done` holds for what was read, the stream ends, or [`WITHIN`] passes: what
/// was read, and whether the stream ended (its last chunk, or the connection closed).
fn read_until(stream: &mut TcpStream, done: impl Fn(&str) -> bool) -> (String, bool) {
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let deadline = Instant::now() + WITHIN;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&seen).into_owned(), true),
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        let text = String::from_utf8_lossy(&seen);
        if text.ends_with("\r\n0\r\n\r\n") {
            return (text.into_owned(), true);
        }
        if done(&text) {
            return (text.into_owned(), false);
        }
    }
    (String::from_utf8_lossy(&seen).into_owned(), false)
}

/// Whether the live stream ends within [`WITHIN`].
fn ends(stream: &mut TcpStream) -> bool {
    read_until(stream, |_| false).1
}

/// The next line of a session that is not a push; `None` once it is closed.
fn next_said(client: &mut Client) -> Option<String> {
    loop {
        let line = client.read_line()?;
        if !line.starts_with("* ") {
            return Some(line);
        }
    }
}

/// `client` is told its secret changed, and closed.
fn closed_for_the_new_secret(client: &mut Client) {
    let said = next_said(client).expect("a line saying why");
    assert!(said.starts_with("421 your secret was changed"), "{said}");
    assert_eq!(client.read_line(), None, "the session is closed");
}

/// `player`'s rows in the web sessions file.
fn web_sessions_of(data: &Path, player: &str) -> i64 {
    rusqlite::Connection::open_with_flags(
        data.join("web-sessions.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("the sessions file")
    .query_row(
        "SELECT count(*) FROM sessions WHERE player = ?1",
        [player],
        |r| r.get(0),
    )
    .expect("count")
}

fn logged_in(daemon: &Daemon, player: &str, secret: &str) -> Client {
    let mut c = daemon.connect();
    let (code, text) = c.call(&format!("LOGIN {player} {secret}"));
    assert_eq!(code, 230, "{text}");
    c
}

fn shows_my_games(addr: SocketAddr, cookie: &str) -> bool {
    get_with(addr, "/play", &format!("Cookie: {cookie}\r\n"))
        .body
        .contains("id=\"my-games\"")
}

#[test]
fn a_new_secret_ends_what_the_old_one_opened() {
    let (dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let data = dir.path().join("data");
    // What Boris's secret opened: two line sessions, a web session followed live.
    let mut line = daemon.login(&BORIS);
    let mut other_line = daemon.login(&BORIS);
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let mut live = player_live(http, &cookie);
    let mut arbiter = admin(&daemon);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(web_sessions_of(&data, "boris"), 1);

    let text = ok(&mut arbiter, "PLAYER SECRET boris");
    let new = text
        .split_whitespace()
        .last()
        .expect("the secret")
        .to_owned();
    closed_for_the_new_secret(&mut line);
    closed_for_the_new_secret(&mut other_line);
    assert!(
        ends(&mut live),
        "the live stream goes on after a new secret"
    );
    assert!(!shows_my_games(http, &cookie));
    let deadline = Instant::now() + WITHIN;
    while web_sessions_of(&data, "boris") > 0 {
        assert!(
            Instant::now() < deadline,
            "the old secret's web session is still in the file"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The arbiter's session is not a player's, and another player's goes on.
    ok(&mut arbiter, "PLAYERS");
    ok(&mut alice, "GAMES");

    // The player's own SECRET ends every session the secret before opened: the one that
    // said it, after its reply, and the others.
    let mut said_it = logged_in(&daemon, "boris", &new);
    let mut beside = logged_in(&daemon, "boris", &new);
    let cookie = player_cookie(http, "boris", &new).expect("login");
    let mut live = player_live(http, &cookie);
    let (code, text) = said_it.call("SECRET correct-horse-battery-staple");
    assert_eq!(code, 250, "{text}");
    closed_for_the_new_secret(&mut said_it);
    closed_for_the_new_secret(&mut beside);
    assert!(
        ends(&mut live),
        "the live stream goes on after the player's SECRET"
    );
    assert!(!shows_my_games(http, &cookie));
    logged_in(&daemon, "boris", "correct-horse-battery-staple");
    ok(&mut arbiter, "PLAYERS");
}

#[test]
fn a_logout_ends_its_own_live_streams_and_no_other() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let leaving = player_cookie(http, "alice", ALICE.secret).expect("login");
    let staying = player_cookie(http, "alice", ALICE.secret).expect("login");
    let mut ending = player_live(http, &leaving);
    let mut going_on = player_live(http, &staying);
    let page = get_with(http, "/play", &format!("Cookie: {leaving}\r\n"));
    let out = post_form(
        http,
        "/play/logout",
        &leaving,
        &[("form", &form_token(&page.body))],
    );
    assert_eq!(out.status, 303, "{}", out.body);
    assert!(ends(&mut ending), "the logged-out session's stream goes on");
    // The other session's stream still follows Alice's games.
    let mut alice = daemon.login(&ALICE);
    ok(&mut alice, "MOVE g1 e4");
    let (seen, ended) = read_until(&mut going_on, |seen| seen.contains("event: change"));
    assert!(!ended && seen.contains("event: change"), "{seen:?}");
}
