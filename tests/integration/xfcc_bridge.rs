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
use crate::support::journal::assert_journal_verifies;
use crate::xfcc::start;

const DEADLINE: Duration = Duration::from_secs(10);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// `GetMyGames` for `username`, read.
fn games(
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
