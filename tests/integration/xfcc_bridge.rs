//! The XFCC bridge's client against real servers: a ccrelay daemon serving XFCC over TLS (a
//! test CA: the certificate trusted only through the CA file), and canned responders on
//! sockets for what a broken server sends (an HTML error page, a page where SOAP was
//! expected, no answer at all).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use ccrelay::transport::bridge::answer::{self, AnswerError};
use ccrelay::transport::bridge::client::{CallError, Endpoint, call};
use ccrelay::transport::bridge::request::{self, Credentials, MoveCall};
use ccrelay::transport::http::xfcc::MoveResult;

use crate::support::config::{ALICE, BORIS};
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;
use crate::xfcc::start;

const DEADLINE: Duration = Duration::from_secs(10);

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// `GetMyGames` for `username`, read.
pub(crate) fn games(
    rt: &tokio::runtime::Runtime,
    endpoint: &Endpoint,
    ca: Option<&Path>,
    username: &str,
    password: &str,
) -> Result<Vec<ccrelay::transport::bridge::game::RemoteGame>, String> {
    let envelope = request::get_my_games(&Credentials { username, password });
    let bytes = rt
        .block_on(call(endpoint, ca, "GetMyGames", envelope, DEADLINE))
        .map_err(|e| format!("call: {e}"))?;
    answer::games(&bytes).map_err(|e| format!("answer: {e}"))
}

fn make_a_move(
    rt: &tokio::runtime::Runtime,
    endpoint: &Endpoint,
    ca: Option<&Path>,
    action: &MoveCall,
) -> MoveResult {
    let account = Credentials {
        username: "alice",
        password: ALICE.secret,
    };
    let envelope = request::make_a_move(&account, action);
    let bytes = rt
        .block_on(call(endpoint, ca, "MakeAMove", envelope, DEADLINE))
        .expect("call");
    answer::move_result(&bytes).expect("answer")
}

#[test]
fn the_bridge_reads_games_and_moves_on_a_ccrelay_server_over_tls() {
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("certificate");
    let certs = tempfile::tempdir().expect("tempdir");
    let (cert, key) = (certs.path().join("cert.pem"), certs.path().join("key.pem"));
    std::fs::write(&cert, certified.cert.pem()).expect("cert");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("key");
    let tls_files = format!("tls_cert = {:?}\ntls_key = {:?}\n", cert, key);
    let (_dir, config, daemon) =
        start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", &tls_files);
    let port = daemon.http.expect("http").port();
    let endpoint =
        Endpoint::from_url(&format!("https://localhost:{port}/xfccbasic.asmx")).expect("url");
    let rt = runtime();

    // The server's certificate is trusted through the CA file only.
    let untrusted = games(&rt, &endpoint, None, "alice", ALICE.secret).unwrap_err();
    assert!(untrusted.contains("TLS"), "{untrusted}");

    let listed = games(&rt, &endpoint, Some(&cert), "alice", ALICE.secret).expect("games");
    assert_eq!(listed.len(), 1);
    let g1 = &listed[0];
    assert_eq!(
        (g1.id.as_str(), g1.white.as_str(), g1.black.as_str()),
        ("g1", "alice", "boris")
    );
    assert!(g1.my_turn && g1.has_white && g1.result.is_ongoing());

    let first = MoveCall {
        game: "g1".into(),
        movecount: Some(1),
        my_move: Some("e4".into()),
        message: Some("good luck".into()),
        ..MoveCall::default()
    };
    assert_eq!(
        make_a_move(&rt, &endpoint, Some(&cert), &first),
        MoveResult::Success
    );
    // The same call again (a resend after a lost answer) is refused and changes nothing.
    assert_ne!(
        make_a_move(&rt, &endpoint, Some(&cert), &first),
        MoveResult::Success
    );
    let after = games(&rt, &endpoint, Some(&cert), "alice", ALICE.secret).expect("games");
    assert_eq!(
        after[0].moves.split_whitespace().collect::<Vec<_>>(),
        ["1.e4"]
    );
    assert!(!after[0].my_turn);
    let boris = games(&rt, &endpoint, Some(&cert), "boris", BORIS.secret).expect("games");
    assert_eq!(boris[0].message.as_deref(), Some("good luck"));
    assert!(boris[0].my_turn && !boris[0].has_white);

    // A wrong password is the server's fault, known as one.
    let envelope = request::get_my_games(&Credentials {
        username: "alice",
        password: "wrong",
    });
    let bytes = rt
        .block_on(call(
            &endpoint,
            Some(&cert),
            "GetMyGames",
            envelope,
            DEADLINE,
        ))
        .expect("call");
    let refused = answer::games(&bytes).unwrap_err();
    assert!(refused.is_authentication(), "{refused:?}");

    drop(daemon);
    assert_journal_verifies(&config);
}

/// A responder that answers every connection with `reply` (or, if `None`, reads and never
/// answers), on a port of its own.
fn responder(reply: Option<&'static [u8]>) -> Endpoint {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let _ = stream.read(&mut buf);
                match reply {
                    Some(reply) => {
                        let _ = stream.write_all(reply);
                    }
                    None => std::thread::sleep(Duration::from_secs(5)),
                }
            });
        }
    });
    Endpoint::from_url(&format!("http://127.0.0.1:{port}/xfccbasic.asmx")).expect("url")
}

#[test]
fn a_broken_server_gives_a_clear_error_never_a_game() {
    let rt = runtime();
    let ask = |endpoint: &Endpoint, deadline: Duration| {
        let envelope = request::get_my_games(&Credentials {
            username: "alice",
            password: "x",
        });
        rt.block_on(call(endpoint, None, "GetMyGames", envelope, deadline))
    };
    let bad_gateway = responder(Some(
        b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 24\r\nConnection: close\r\n\r\n<html>502 gateway</html>",
    ));
    assert!(matches!(
        ask(&bad_gateway, DEADLINE),
        Err(CallError::Status(502))
    ));
    let html = responder(Some(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 41\r\nConnection: close\r\n\r\n<html><body>Maintenance ...</body></html>",
    ));
    let bytes = ask(&html, DEADLINE).expect("an answer");
    assert!(matches!(answer::games(&bytes), Err(AnswerError::Shape(_))));
    let silent = responder(None);
    assert!(matches!(
        ask(&silent, Duration::from_millis(500)),
        Err(CallError::Timeout(_))
    ));
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        drop(listener);
        Endpoint::from_url(&format!("http://127.0.0.1:{port}/")).expect("url")
    };
    assert!(matches!(ask(&closed, DEADLINE), Err(CallError::Connect(_))));
}

/// A TLS certificate for `localhost`, made for the test, and the `[http]` keys that serve it.
pub(crate) fn test_tls(dir: &Path) -> (std::path::PathBuf, String) {
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("certificate");
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::write(&cert, certified.cert.pem()).expect("cert");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("key");
    let keys = format!("tls_cert = {:?}\ntls_key = {:?}\n", cert, key);
    (cert, keys)
}

/// `MakeAMove` as `player` (their secret the password) on the server.
pub(crate) fn act(
    rt: &tokio::runtime::Runtime,
    endpoint: &Endpoint,
    ca: &Path,
    player: &crate::support::config::Player,
    action: &MoveCall,
) -> MoveResult {
    let account = Credentials {
        username: player.id,
        password: player.secret,
    };
    let envelope = request::make_a_move(&account, action);
    let bytes = rt
        .block_on(call(endpoint, Some(ca), "MakeAMove", envelope, DEADLINE))
        .expect("call");
    answer::move_result(&bytes).expect("answer")
}

/// The bridging daemon's config: Alice on TCP, her account `alice` on the server at `port`
/// (remote `srv`), polled every minute.
fn bridge_config(dir: &Path, port: u16, ca: &Path) -> std::path::PathBuf {
    let password = dir.join("srv.password");
    std::fs::write(&password, format!("{}\n", ALICE.secret)).expect("password");
    let mut text = crate::support::config::config_text(&dir.join("data"), &[ALICE], &[]);
    text.push_str(&format!(
        "[[remotes]]\nid = \"srv\"\nurl = \"https://localhost:{port}/xfccbasic.asmx\"\nca_file = {ca:?}\nplayer = \"alice\"\nusername = \"alice\"\npassword_file = {password:?}\npoll_minutes = 1\n"
    ));
    let config = dir.join("ccrelay.toml");
    std::fs::write(&config, text).expect("config");
    config
}

/// Pushes to `client` until one holds `needle`, for at most `within`.
fn push_within(
    client: &mut crate::support::line::Client,
    needle: &str,
    within: Duration,
) -> String {
    let deadline = std::time::Instant::now() + within;
    client.set_read_timeout(within);
    while std::time::Instant::now() < deadline {
        let (_, body) = client.next_push();
        if body.contains(needle) {
            client.set_read_timeout(Duration::from_secs(20));
            return body;
        }
    }
    panic!("no push with {needle:?} within {within:?}");
}

/// The server's game `g1` as `player` sees it.
pub(crate) fn server_game(
    rt: &tokio::runtime::Runtime,
    endpoint: &Endpoint,
    ca: &Path,
    player: &crate::support::config::Player,
) -> ccrelay::transport::bridge::game::RemoteGame {
    let listed = games(rt, endpoint, Some(ca), player.id, player.secret).expect("games");
    listed.into_iter().find(|g| g.id == "g1").expect("g1")
}

/// A whole game against Boris, who plays on the server by XFCC, for Alice, who plays on
/// another daemon over TCP: that daemon bridges her account on the server (TLS, a test CA).
#[test]
fn a_remote_game_is_played_through_the_bridge() {
    let certs = tempfile::tempdir().expect("tempdir");
    let (cert, tls_keys) = test_tls(certs.path());
    let (_server_dir, server_config, server) =
        start(&[ALICE, BORIS], &[("g1", "boris", "alice")], "", &tls_keys);
    let port = server.http.expect("http").port();
    let endpoint =
        Endpoint::from_url(&format!("https://localhost:{port}/xfccbasic.asmx")).expect("url");
    let rt = runtime();
    let boris_moves = |rt: &tokio::runtime::Runtime, number: u32, san: &str, extra: MoveCall| {
        let action = MoveCall {
            game: "g1".into(),
            movecount: Some(number),
            my_move: Some(san.into()),
            ..extra
        };
        assert_eq!(
            act(rt, &endpoint, &cert, &BORIS, &action),
            MoveResult::Success,
            "{san}"
        );
    };
    // Boris moves first, before the bridge is there.
    boris_moves(&rt, 1, "f3", MoveCall::default());

    let bridge_dir = tempfile::tempdir().expect("tempdir");
    let bridge = Daemon::start(&bridge_config(bridge_dir.path(), port, &cert));
    let mut alice = bridge.login(&ALICE);
    // The game is announced, with Boris's move, from the poll at start.
    push_within(&mut alice, "srv-g1", Duration::from_secs(30));
    push_within(&mut alice, "f3", Duration::from_secs(30));

    // A move the game cannot take is refused at once, and nothing is sent.
    let (code, text) = alice.call("MOVE srv-g1 e4");
    assert_eq!(code, 422, "{text}");
    // A move is sent (202), and recorded once the server has it.
    let (code, text) = alice.call("MOVE srv-g1 e5");
    assert_eq!(code, 202, "{text}");
    push_within(&mut alice, "RECORDED srv-g1", Duration::from_secs(30));
    let seen = server_game(&rt, &endpoint, &cert, &BORIS);
    assert_eq!(
        seen.moves.split_whitespace().collect::<Vec<_>>(),
        ["1.f3", "e5"]
    );
    // A message each way, and a draw offer (declined by Alice's next move).
    let (code, text) = alice.call("MSG srv-g1 hello from the telegraph office");
    assert_eq!(code, 202, "{text}");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while server_game(&rt, &endpoint, &cert, &BORIS)
        .message
        .as_deref()
        != Some("hello from the telegraph office")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the message never reached the server"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    boris_moves(
        &rt,
        2,
        "g4",
        MoveCall {
            offer_draw: true,
            message: Some("a draw?".into()),
            ..MoveCall::default()
        },
    );
    // The next poll (a minute at most) brings the move, the offer and the message.
    let moved = push_within(&mut alice, "g4", Duration::from_secs(90));
    assert!(moved.contains("draw") || moved.contains("(=)"), "{moved}");
    push_within(&mut alice, "a draw?", Duration::from_secs(10));
    let (code, text) = alice.call("MOVE srv-g1 Qh4");
    assert_eq!(code, 202, "{text}");
    push_within(&mut alice, "RECORDED srv-g1", Duration::from_secs(30));
    let over = server_game(&rt, &endpoint, &cert, &BORIS);
    assert_eq!(
        over.result,
        ccrelay::transport::bridge::game::RemoteResult::BlackWins
    );
    let (code, shown) = alice.call("SHOW srv-g1");
    assert_eq!(code, 250, "{shown}");
    assert!(shown.contains("0-1"), "{shown}");

    drop(alice);
    let bridge_config_path = bridge_dir.path().join("ccrelay.toml");
    drop(bridge);
    drop(server);
    assert_journal_verifies(&bridge_config_path);
    assert_journal_verifies(&server_config);
}

/// A move sent just before the bridging daemon is killed (kill -9, on whichever side of the
/// send it falls) is in the server's record once; a move made while the server is down waits,
/// and reaches it once it is back.
#[test]
fn a_crash_and_a_server_down_lose_no_move_and_double_none() {
    let certs = tempfile::tempdir().expect("tempdir");
    let (cert, tls_keys) = test_tls(certs.path());
    let port = crate::support::port::free();
    let fixed = move |text: &str| {
        text.replace(
            "[http]\nlisten = \"127.0.0.1:0\"",
            &format!("[http]\nlisten = \"127.0.0.1:{port}\""),
        )
    };
    let (_server_dir, server_config, mut server) = crate::xfcc::start_edited(
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
        "",
        &tls_keys,
        &fixed,
    );
    let endpoint =
        Endpoint::from_url(&format!("https://localhost:{port}/xfccbasic.asmx")).expect("url");
    let rt = runtime();
    let bridge_dir = tempfile::tempdir().expect("tempdir");
    let bridge_config_path = bridge_config(bridge_dir.path(), port, &cert);
    let mut bridge = Daemon::start(&bridge_config_path);
    let mut alice = bridge.login(&ALICE);
    push_within(&mut alice, "srv-g1", Duration::from_secs(30));
    let (code, text) = alice.call("MOVE srv-g1 e4");
    assert_eq!(code, 202, "{text}");
    drop(alice);
    bridge.kill9();

    let bridge = Daemon::start(&bridge_config_path);
    let mut alice = bridge.login(&ALICE);
    push_within(&mut alice, "RECORDED srv-g1", Duration::from_secs(30));
    let seen = server_game(&rt, &endpoint, &cert, &BORIS);
    assert_eq!(seen.moves.split_whitespace().collect::<Vec<_>>(), ["1.e4"]);

    let reply = MoveCall {
        game: "g1".into(),
        movecount: Some(1),
        my_move: Some("e5".into()),
        ..MoveCall::default()
    };
    assert_eq!(
        act(&rt, &endpoint, &cert, &BORIS, &reply),
        MoveResult::Success
    );
    push_within(&mut alice, "e5", Duration::from_secs(90));
    // The server goes down; Alice's move waits for it.
    server.terminate();
    let (code, text) = alice.call("MOVE srv-g1 Nf3");
    assert_eq!(code, 202, "{text}");
    std::thread::sleep(Duration::from_secs(15));
    let server = Daemon::start(&server_config);
    push_within(&mut alice, "RECORDED srv-g1", Duration::from_secs(90));
    let seen = server_game(&rt, &endpoint, &cert, &BORIS);
    assert_eq!(
        seen.moves.split_whitespace().collect::<Vec<_>>(),
        ["1.e4", "e5", "2.Nf3"]
    );
    drop(alice);
    drop(bridge);
    drop(server);
    assert_journal_verifies(&bridge_config_path);
    assert_journal_verifies(&server_config);
}
