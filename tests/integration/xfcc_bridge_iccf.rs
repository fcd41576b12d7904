//! The bridge against replies shaped like ICCF's XFCC service, from a canned responder whose
//! one game goes on as the bridge plays it (tests/fixtures/xfcc/iccf/, after the XFCC
//! specification's XfccBasic answers as ICCF fills them: no `timeControl`, no `eventDate`,
//! no `message` when there is none, a `gameLink`, players as "Surname, Given"). The player on
//! TCP sees a finished game end with the server's result, their move recorded, the server's
//! refusals (`InvalidMove`, `NotYourTurn`, `InvalidMoveNumber`, `LostOnTime`) as `REFUSED`
//! with its word, and a refused login pause the account and say so; a restart with the same
//! configuration stays paused without asking the server.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::config::ALICE;
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;

const GAMES: &str = include_str!("../fixtures/xfcc/iccf/get_my_games.xml");
const MOVE_RESULT: &str = include_str!("../fixtures/xfcc/iccf/make_a_move.xml");

/// The responder's game 1001 and what it has been asked.
#[derive(Default)]
struct Script {
    moves: String,
    my_turn: bool,
    message: Option<String>,
    /// `MakeAMove`'s answers, in order; on `Success` the move is played and White answers.
    answers: VecDeque<&'static str>,
    white_answers: String,
    /// Every call: its operation and body.
    calls: Vec<(String, String)>,
}

impl Script {
    fn answer(&mut self, body: &str) -> String {
        if body.contains("<GetMyGames") {
            self.calls.push(("GetMyGames".into(), body.into()));
            let message = self
                .message
                .as_ref()
                .map(|m| format!("\n          <message>{m}</message>"))
                .unwrap_or_default();
            return GAMES
                .replace("{MOVES}", &self.moves)
                .replace("{MY_TURN}", if self.my_turn { "true" } else { "false" })
                .replace("{MESSAGE}", &message);
        }
        self.calls.push(("MakeAMove".into(), body.into()));
        let word = self.answers.pop_front().unwrap_or("ServerError");
        if word == "Success" {
            let mv = between(body, "<myMove>", "</myMove>").unwrap_or_default();
            self.moves = format!("{} {mv} {}", self.moves, self.white_answers);
            self.message = Some("Good luck from Switzerland".into());
        }
        MOVE_RESULT.replace("{RESULT}", word)
    }

    fn count(&self, operation: &str) -> usize {
        self.calls.iter().filter(|(op, _)| op == operation).count()
    }
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text[start..].find(close)?;
    Some(&text[start..start + len])
}

/// Reads one HTTP request's body (headers, then `Content-Length` bytes).
fn read_request(stream: &mut TcpStream) -> Option<String> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if bytes.len() >= end + 4 + length {
                return Some(String::from_utf8_lossy(&bytes[end + 4..end + 4 + length]).into());
            }
        }
    }
}

/// Serves `script` over plain HTTP on a port of its own.
fn responder(script: Arc<Mutex<Script>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let Some(body) = read_request(&mut stream) else {
                continue;
            };
            let reply = script.lock().expect("script").answer(&body);
            let _ = stream.write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                    reply.len()
                )
                .as_bytes(),
            );
        }
    });
    port
}

/// Alice on TCP, her ICCF account `Carter, Alice` on the responder at `port` (remote `iccf`).
fn config(dir: &Path, port: u16) -> PathBuf {
    let password = dir.join("iccf.password");
    std::fs::write(&password, "correct horse\n").expect("password");
    let mut text = crate::support::config::config_text(&dir.join("data"), &[ALICE], &[]);
    text.push_str(&format!(
        "[[remotes]]\nid = \"iccf\"\nurl = \"http://127.0.0.1:{port}/XfccBasic.asmx\"\ninsecure_http = true\nplayer = \"alice\"\nusername = \"Carter, Alice\"\npassword_file = {password:?}\npoll_minutes = 1\n"
    ));
    let config = dir.join("ccrelay.toml");
    std::fs::write(&config, text).expect("config");
    config
}

/// Pushes to `client` until one holds `needle`, for at most `within`.
fn push_within(client: &mut crate::support::line::Client, needle: &str) -> String {
    let within = Duration::from_secs(30);
    let deadline = std::time::Instant::now() + within;
    client.set_read_timeout(within);
    while std::time::Instant::now() < deadline {
        let (_, body) = client.next_push();
        if body.contains(needle) {
            return body;
        }
    }
    panic!("no push with {needle:?} within {within:?}");
}

/// The journal's entries of `kind`: (game, detail).
fn entries(config: &Path, kind: &str) -> Vec<(String, String)> {
    let data = config.parent().expect("dir").join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let mut stmt = conn
        .prepare("SELECT game, detail FROM entries WHERE kind = ?1 ORDER BY seq")
        .expect("query");
    stmt.query_map([kind], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("entries")
}

#[test]
fn an_iccf_shaped_server_is_played_refused_and_paused_through_the_bridge() {
    let script = Arc::new(Mutex::new(Script {
        moves: "1.d4".into(),
        my_turn: true,
        answers: [
            "Success",
            "InvalidMove",
            "NotYourTurn",
            "InvalidMoveNumber",
            "LostOnTime",
            "AuthenticationFailed",
        ]
        .into(),
        white_answers: "2.c4".into(),
        ..Script::default()
    }));
    let port = responder(script.clone());
    let dir = tempfile::tempdir().expect("tempdir");
    let config_path = config(dir.path(), port);
    let daemon = Daemon::start(&config_path);
    let mut alice = daemon.login(&ALICE);

    // The finished game starts and ends here with the server's result; the other starts
    // with White's first move.
    let ended = push_within(&mut alice, "RESULT iccf-1000");
    assert!(ended.contains("1-0"), "{ended}");
    push_within(&mut alice, "d4");

    // A move the server takes: sent with its number, recorded when the next poll shows it,
    // with White's answer and a message (ICCF sends `message` only when there is one).
    let (code, text) = alice.call("MOVE iccf-1001 Nf6");
    assert_eq!(code, 202, "{text}");
    push_within(&mut alice, "RECORDED iccf-1001");
    push_within(&mut alice, "c4");
    push_within(&mut alice, "Good luck from Switzerland");

    // The server's refusals reach the player with its word.
    for (mv, word) in [
        ("e6", "InvalidMove"),
        ("g6", "NotYourTurn"),
        ("d5", "InvalidMoveNumber"),
        ("c5", "LostOnTime"),
    ] {
        let (code, text) = alice.call(&format!("MOVE iccf-1001 {mv}"));
        assert_eq!(code, 202, "{mv}: {text}");
        let refused = push_within(&mut alice, "REFUSED iccf-1001");
        assert!(refused.contains(word), "{word}: {refused}");
    }

    // A refused login pauses the account and tells the player; the move waits.
    let (code, text) = alice.call("MOVE iccf-1001 b6");
    assert_eq!(code, 202, "{text}");
    let paused = push_within(&mut alice, "REMOTE iccf");
    assert!(
        paused.contains("refused the account's name or password"),
        "{paused}"
    );
    {
        let script = script.lock().expect("script");
        assert_eq!(script.count("MakeAMove"), 6, "each proposal sent once");
        let first = &script
            .calls
            .iter()
            .find(|(op, _)| op == "MakeAMove")
            .expect("a move")
            .1;
        assert_eq!(between(first, "<movecount>", "</movecount>"), Some("1"));
        assert_eq!(between(first, "<myMove>", "</myMove>"), Some("Nf6"));
    }
    drop(alice);
    drop(daemon);

    // A restart with the same configuration stays paused: the server is not asked.
    let polls = script.lock().expect("script").calls.len();
    let daemon = Daemon::start(&config_path);
    let alice = daemon.login(&ALICE);
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(script.lock().expect("script").calls.len(), polls);
    drop(alice);
    drop(daemon);

    assert_journal_verifies(&config_path);
    let told = entries(&config_path, "remote_status");
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].1.contains("\"health\":\"paused\""), "{told:?}");
    let decided = entries(&config_path, "adjudication");
    assert_eq!(decided.len(), 1, "{decided:?}");
    assert_eq!(decided[0].0, "iccf-1000");
    assert!(decided[0].1.contains("1-0"), "{decided:?}");
    let moves: Vec<String> = entries(&config_path, "move")
        .into_iter()
        .filter(|(game, _)| game == "iccf-1001")
        .map(|(_, detail)| detail)
        .collect();
    assert_eq!(moves.len(), 3, "d4, Nf6, c4: {moves:?}");
    assert_eq!(entries(&config_path, "proposal").len(), 6);
}
