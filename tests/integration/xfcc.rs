//! XFCC against the real daemon: a client written from the service's description (SOAP 1.1
//! envelopes over plain HTTP/1.1 on a socket) plays whole games, meets a line-protocol player,
//! and is refused in every way the service refuses, each shown to change nothing. Real clients
//! (Python's zeep and suds, Scid's own Tcl) are driven by `tests/xfcc/` scripts.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, Player, config_text_with};
use crate::support::daemon::Daemon;
use crate::support::games::long_game;
use crate::support::http::{parse_response, raw};
use crate::support::journal::{assert_journal_verifies, journal_export};
use crate::support::line::{Client, moves_in};
use crate::support::tls::tls_client_trusting;
use crate::support::xfcc::{XFCC_NS, envelope, post};

const CAROL: Player = Player {
    id: "carol",
    secret: "carol-secret",
    notation: "iccf",
    lang: None,
};

/// A daemon with `[http]` on an ephemeral port and extra config text.
pub(crate) fn start(
    players: &[Player],
    games: &[(&str, &str, &str)],
    limits: &str,
    http_extra: &str,
) -> (tempfile::TempDir, PathBuf, Daemon) {
    start_edited(players, games, limits, http_extra, &|text| text.to_owned())
}

/// [`start`], with the config text passed through `edit` first.
pub(crate) fn start_edited(
    players: &[Player],
    games: &[(&str, &str, &str)],
    limits: &str,
    http_extra: &str,
    edit: &dyn Fn(&str) -> String,
) -> (tempfile::TempDir, PathBuf, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), players, games, limits);
    text.push_str(&format!(
        "[http]\nlisten = \"127.0.0.1:0\"\nmax_body_bytes = 8192\nheader_timeout_secs = 2\nrequest_timeout_secs = 3\n{http_extra}"
    ));
    std::fs::write(&config, edit(&text)).expect("write config");
    let _ = ADMIN_SECRET;
    let daemon = Daemon::start(&config);
    assert!(
        daemon.http.is_some(),
        "the daemon announced no HTTP address"
    );
    (dir, config, daemon)
}

/// The text of the first `<name>` element in `xml`, unescaped.
fn field(xml: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))? + start;
    Some(
        quick_xml::escape::unescape(&xml[start..end])
            .expect("escaped text")
            .into_owned(),
    )
}

/// One game of a `GetMyGames` answer: the XML inside its `<XfccGame>`.
type Game = String;

/// A player of the XFCC service.
struct Xfcc<'a> {
    addr: SocketAddr,
    player: &'a Player,
}

/// What `MakeAMove` is asked besides the game.
#[derive(Default, Clone)]
struct MoveArgs<'a> {
    movecount: Option<u32>,
    my_move: &'a str,
    offer_draw: bool,
    accept_draw: bool,
    resign: bool,
    claim_draw: bool,
    message: &'a str,
}

impl Xfcc<'_> {
    /// Every game of the player, each its `<XfccGame>` XML; panics on a fault.
    fn games(&self) -> Vec<Game> {
        let r = post(
            self.addr,
            "/xfccbasic.asmx",
            envelope(
                "GetMyGames",
                &[
                    ("username", self.player.id),
                    ("password", self.player.secret),
                ],
            )
            .as_bytes(),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            r.body.contains(&format!(
                "<soap:Body><GetMyGamesResponse xmlns=\"{XFCC_NS}\"><GetMyGamesResult>"
            )),
            "{}",
            r.body
        );
        r.body
            .split("<XfccGame>")
            .skip(1)
            .map(|g| g.split("</XfccGame>").next().unwrap_or("").to_owned())
            .collect()
    }

    fn game(&self, id: &str) -> Game {
        self.games()
            .into_iter()
            .find(|g| field(g, "id").as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no game {id} for {}", self.player.id))
    }

    /// `MakeAMove`; its result.
    fn make_a_move(&self, game: &str, args: &MoveArgs) -> String {
        self.make_a_move_as(self.player.secret, game, args)
    }

    fn make_a_move_as(&self, password: &str, game: &str, args: &MoveArgs) -> String {
        let count = args.movecount.map(|n| n.to_string()).unwrap_or_default();
        let b = |v: bool| if v { "true" } else { "false" };
        let body = envelope(
            "MakeAMove",
            &[
                ("username", self.player.id),
                ("password", password),
                ("gameId", game),
                ("resign", b(args.resign)),
                ("acceptDraw", b(args.accept_draw)),
                ("movecount", &count),
                ("myMove", args.my_move),
                ("offerDraw", b(args.offer_draw)),
                ("claimDraw", b(args.claim_draw)),
                ("myMessage", args.message),
            ],
        );
        let r = post(self.addr, "/xfccbasic.asmx", body.as_bytes());
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            r.body.contains(&format!(
                "<MakeAMoveResponse xmlns=\"{XFCC_NS}\"><MakeAMoveResult>"
            )),
            "{}",
            r.body
        );
        field(&r.body, "MakeAMoveResult").expect("a result")
    }

    /// Plays `san` as move `number`.
    fn play(&self, game: &str, number: u32, san: &str) -> String {
        self.make_a_move(
            game,
            &MoveArgs {
                movecount: Some(number),
                my_move: san,
                ..MoveArgs::default()
            },
        )
    }
}

/// Numbered SAN of `moves` from the start: `1.e4 e5 2.Nf3`.
fn movetext(moves: &[(Chess, shakmaty::Move)]) -> String {
    let mut words = Vec::new();
    for (pos, m) in moves {
        let san = SanPlus::from_move(pos.clone(), *m).to_string();
        if pos.turn().is_white() {
            words.push(format!("{}.{san}", pos.fullmoves()));
        } else {
            words.push(san);
        }
    }
    words.join(" ")
}

#[test]
fn a_whole_game_over_xfcc_from_first_move_to_the_draw() {
    let (_dir, config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.expect("http");
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    let game = alice.game("g1");
    assert_eq!(field(&game, "white").as_deref(), Some("alice"));
    assert_eq!(field(&game, "hasWhite").as_deref(), Some("true"));
    assert_eq!(field(&game, "myTurn").as_deref(), Some("true"));
    assert_eq!(field(&game, "result").as_deref(), Some("Ongoing"));
    assert_eq!(field(&game, "timeControl").as_deref(), Some("10/4320000"));
    // 50 days on White's clock, running on the real clock since the game started: the days
    // read 49 once a second has gone by (the first CI run on a busy machine saw that), so the
    // whole time left is checked, to the minute the fields count in.
    let left: i64 = [
        ("daysPlayer", 86_400),
        ("hoursPlayer", 3_600),
        ("minutesPlayer", 60),
    ]
    .into_iter()
    .map(|(name, unit)| {
        let value = field(&game, name).unwrap_or_else(|| panic!("{name} in {game}"));
        value.parse::<i64>().expect(name) * unit
    })
    .sum();
    let fifty_days = 50 * 86_400;
    assert!(
        (fifty_days - 120..=fifty_days).contains(&left),
        "{left} s left of {fifty_days}"
    );
    assert_eq!(field(&boris.game("g1"), "myTurn").as_deref(), Some("false"));
    let moves = long_game();
    for (i, (pos, m)) in moves.iter().enumerate() {
        let san = SanPlus::from_move(pos.clone(), *m).to_string();
        let player = if pos.turn().is_white() {
            &alice
        } else {
            &boris
        };
        assert_eq!(
            player.play("g1", pos.fullmoves().get(), &san),
            "Success",
            "ply {i} {san}"
        );
    }
    // The last move leaves bare kings and knights: a draw by insufficient material.
    for p in [&alice, &boris] {
        let game = p.game("g1");
        assert_eq!(field(&game, "moves").unwrap(), movetext(&moves));
        assert_eq!(field(&game, "result").as_deref(), Some("Draw"));
        assert_eq!(field(&game, "myTurn").as_deref(), Some("false"));
    }
    // Nothing more can be done in a finished game.
    assert_eq!(
        boris.make_a_move(
            "g1",
            &MoveArgs {
                resign: true,
                ..MoveArgs::default()
            }
        ),
        "NotYourTurn"
    );
    assert_eq!(field(&alice.game("g1"), "result").as_deref(), Some("Draw"));
    let mut tcp = daemon.login(&ALICE);
    assert_eq!(moves_in(&mut tcp, "g1"), moves.len());
    drop(tcp);
    drop(daemon);
    assert_journal_verifies(&config);
}

#[test]
fn one_side_on_xfcc_the_other_on_tcp() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let boris = Xfcc {
        addr: daemon.http.unwrap(),
        player: &BORIS,
    };
    let mut alice = daemon.login(&ALICE);
    let moves = long_game();
    for (pos, m) in moves.iter().take(20) {
        let san = SanPlus::from_move(pos.clone(), *m).to_string();
        let n = pos.fullmoves().get();
        if pos.turn().is_white() {
            let (code, text) = alice.call(&format!("MOVE g1 {n}. {san}"));
            assert_eq!(code, 250, "{text}");
            let game = boris.game("g1");
            assert_eq!(field(&game, "myTurn").as_deref(), Some("true"));
            assert!(field(&game, "moves").unwrap().ends_with(&san), "{game}");
        } else {
            assert_eq!(boris.play("g1", n, &san), "Success");
            // Alice is pushed the move over TCP.
            let (_, push) = alice.next_push();
            assert!(push.contains("g1"), "{push}");
        }
    }
    assert_eq!(
        field(&boris.game("g1"), "moves").unwrap(),
        movetext(&moves[..20])
    );
}

#[test]
fn a_message_with_markup_and_cyrillic_arrives_intact_on_both_transports() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.unwrap();
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    let mut boris_tcp = daemon.login(&BORIS);
    let text = "a < b && c > d, «ход» — привет, Борис!";
    let sent = alice.make_a_move(
        "g1",
        &MoveArgs {
            movecount: Some(1),
            my_move: "e4",
            message: text,
            ..MoveArgs::default()
        },
    );
    assert_eq!(sent, "Success");
    assert_eq!(field(&boris.game("g1"), "message").as_deref(), Some(text));
    // Alice does not see her own message as the opponent's.
    assert_eq!(field(&alice.game("g1"), "message").as_deref(), Some(""));
    // The game's start, the move, then the message.
    let pushes: Vec<String> = (0..3).map(|_| boris_tcp.next_push().1).collect();
    assert!(pushes[2].contains(text), "{pushes:?}");
    // A message alone, and after a restart the last message is still known.
    assert_eq!(
        boris.make_a_move(
            "g1",
            &MoveArgs {
                message: "ответ & <ok>",
                ..MoveArgs::default()
            }
        ),
        "Success"
    );
    assert_eq!(
        field(&alice.game("g1"), "message").as_deref(),
        Some("ответ & <ok>")
    );
}

#[test]
fn a_draw_offered_with_a_move_is_accepted() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.unwrap();
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    assert_eq!(alice.play("g1", 1, "d4"), "Success");
    assert_eq!(boris.play("g1", 1, "d5"), "Success");
    let offer = MoveArgs {
        movecount: Some(2),
        my_move: "c4",
        offer_draw: true,
        ..MoveArgs::default()
    };
    assert_eq!(alice.make_a_move("g1", &offer), "Success");
    let game = boris.game("g1");
    assert_eq!(field(&game, "drawOffered").as_deref(), Some("true"));
    assert_eq!(
        field(&alice.game("g1"), "drawOffered").as_deref(),
        Some("false")
    );
    // Alice cannot accept her own offer.
    assert_eq!(
        alice.make_a_move(
            "g1",
            &MoveArgs {
                accept_draw: true,
                ..MoveArgs::default()
            }
        ),
        "NoDrawWasOffered"
    );
    assert_eq!(
        boris.make_a_move(
            "g1",
            &MoveArgs {
                accept_draw: true,
                ..MoveArgs::default()
            }
        ),
        "Success"
    );
    assert_eq!(field(&alice.game("g1"), "result").as_deref(), Some("Draw"));
}

/// Everything the service refuses, each shown to leave the games and the journal as they were.
#[test]
fn every_refusal_gets_a_clear_answer_and_changes_nothing() {
    let (_dir, config, daemon) = start(
        &[ALICE, BORIS, CAROL],
        &[("g1", "alice", "boris"), ("g2", "boris", "carol")],
        "",
        "",
    );
    let http = daemon.http.unwrap();
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    // 1.e3 e6 2.Ne2 e5: now Nc3 is ambiguous (b1 or e2).
    for (p, n, m) in [
        (&alice, 1, "e3"),
        (&boris, 1, "e6"),
        (&alice, 2, "Ne2"),
        (&boris, 2, "e5"),
    ] {
        assert_eq!(p.play("g1", n, m), "Success");
    }
    let before = alice.game("g1");
    // What a refusal could change (the clocks run meanwhile).
    let state = |x: &Xfcc| {
        let game = x.game("g1");
        let fields =
            ["moves", "myTurn", "drawOffered", "result", "message"].map(|name| field(&game, name));
        (fields, x.games().len())
    };
    let alice_before = state(&alice);
    let boris_before = state(&boris);
    let play = |n: u32, m: &'static str| MoveArgs {
        movecount: Some(n),
        my_move: m,
        ..MoveArgs::default()
    };
    let cases: Vec<(&Xfcc, &str, &str, MoveArgs, &str)> = vec![
        (
            &alice,
            "wrong",
            "g1",
            play(3, "Nbc3"),
            "AuthenticationFailed",
        ),
        (
            &alice,
            ALICE.secret,
            "nosuch",
            play(3, "Nbc3"),
            "InvalidGameID",
        ),
        (&alice, ALICE.secret, "g2", play(1, "e4"), "NotYourGame"),
        (&boris, BORIS.secret, "g1", play(3, "Nf6"), "NotYourTurn"),
        (
            &alice,
            ALICE.secret,
            "g1",
            play(2, "Nbc3"),
            "InvalidMoveNumber",
        ),
        (&alice, ALICE.secret, "g1", play(3, "Ke3"), "InvalidMove"),
        (&alice, ALICE.secret, "g1", play(3, "zz9"), "InvalidMove"),
        (&alice, ALICE.secret, "g1", play(3, "Nc3"), "MoveIsAmbigous"),
        (
            &alice,
            ALICE.secret,
            "g1",
            MoveArgs {
                accept_draw: true,
                ..MoveArgs::default()
            },
            "NoDrawWasOffered",
        ),
        (
            &alice,
            ALICE.secret,
            "g1",
            MoveArgs {
                claim_draw: true,
                movecount: Some(3),
                ..MoveArgs::default()
            },
            "InvalidMove",
        ),
        (
            &alice,
            ALICE.secret,
            "g1",
            MoveArgs::default(),
            "InvalidMove",
        ),
    ];
    for (who, password, game, args, expected) in &cases {
        let got = who.make_a_move_as(password, game, args);
        assert_eq!(&got, expected, "{game} {:?}", args.my_move);
    }
    // The wrong password on GetMyGames is a fault Scid recognises.
    let r = post(
        http,
        "/xfccbasic.asmx",
        envelope("GetMyGames", &[("username", "alice"), ("password", "nope")]).as_bytes(),
    );
    assert_eq!(r.status, 500);
    assert!(
        r.body
            .contains("<faultstring>AuthenticationFailed</faultstring>"),
        "{}",
        r.body
    );
    // Bad envelopes and bad HTTP.
    let good = envelope(
        "GetMyGames",
        &[("username", "alice"), ("password", ALICE.secret)],
    );
    let doctype = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE lol [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;\">]>{}",
        good.trim_start_matches("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
    );
    let entity = good.replace("alice", "&lol;");
    let deep = good.replace(
        "<username>",
        &format!("{}<username>{}", "<x>".repeat(50), "</x>".repeat(50)),
    );
    let mut latin1 = good.clone().into_bytes();
    latin1.extend_from_slice(b"\xe9\xff");
    let big = good.replace("alice", &"a".repeat(10_000));
    for (body, status, says) in [
        (doctype.into_bytes(), 500, "document type"),
        (entity.into_bytes(), 500, "entity"),
        (deep.into_bytes(), 500, "nested"),
        (latin1, 500, "UTF-8"),
        (b"not xml at all".to_vec(), 500, "faultstring"),
        (
            envelope("DeleteMyGames", &[]).into_bytes(),
            500,
            "DeleteMyGames",
        ),
        (big.into_bytes(), 413, ""),
    ] {
        let r = post(http, "/xfccbasic.asmx", &body);
        assert_eq!(r.status, status, "{}", r.body);
        assert!(r.body.contains(says), "{says}: {}", r.body);
        if status == 500 {
            assert!(
                r.body
                    .contains("<soap:Fault><faultcode>soap:Client</faultcode>"),
                "{}",
                r.body
            );
        }
    }
    let get = |path: &str| {
        raw(
            http,
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    };
    assert_eq!(get("/xfccbasic.asmx").status, 400);
    assert_eq!(get("/nowhere").status, 404);
    let put = raw(
        http,
        b"PUT /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(put.status, 405);
    // A client that never finishes its request head is cut off.
    let mut slow = TcpStream::connect(http).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    slow.write_all(b"POST /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let started = std::time::Instant::now();
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "not closed in time"
    );
    // A client that sends its body too slowly gets 408.
    let mut slow = TcpStream::connect(http).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    slow.write_all(b"POST /xfccbasic.asmx HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n<soap")
        .unwrap();
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer);
    assert_eq!(parse_response(&answer).status, 408);
    // Nothing changed.
    assert_eq!(state(&alice), alice_before);
    assert_eq!(state(&boris), boris_before);
    assert_eq!(field(&alice.game("g1"), "moves"), field(&before, "moves"));
    // And the refused move is still playable.
    assert_eq!(alice.play("g1", 3, "Nbc3"), "Success");
    drop(daemon);
    assert_journal_verifies(&config);
}

#[test]
fn xfcc_and_tcp_logins_share_one_limit_per_address() {
    let (_dir, _config, daemon) = start(
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
        "failed_logins_per_minute = 3\n",
        "",
    );
    let alice = Xfcc {
        addr: daemon.http.unwrap(),
        player: &ALICE,
    };
    for _ in 0..3 {
        assert_eq!(
            alice.make_a_move_as("wrong", "g1", &MoveArgs::default()),
            "AuthenticationFailed"
        );
    }
    // The right secret is refused too now, on either transport.
    assert_eq!(alice.play("g1", 1, "e4"), "AuthenticationFailed");
    let mut tcp = daemon.connect();
    let (code, _) = tcp.call("LOGIN alice alice-secret");
    assert_eq!(code, 429);
}

/// Argon2 checks the daemon has run, from `/metrics`.
fn secret_checks(http: SocketAddr) -> f64 {
    let r = raw(
        http,
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
        .lines()
        .find_map(|l| l.strip_prefix("ccrelay_secret_checks_total "))
        .map_or(0.0, |v| v.trim().parse().expect("a number"))
}

/// Regression: every XFCC call counted as a login attempt against the per-address limit, so
/// two players at one address were refused `AuthenticationFailed` from their fourth move on,
/// with every secret right. With the shipped limits, a whole game at the client's full speed
/// (a fetch before every move, as Scid does) now passes, a right secret costs Argon2 once,
/// and wrong ones are still stopped.
#[test]
fn two_xfcc_players_at_one_address_play_a_whole_game_with_the_shipped_limits() {
    let (_dir, config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.expect("http");
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    let started = std::time::Instant::now();
    let mut calls = 0;
    let moves = long_game();
    for (i, (pos, m)) in moves.iter().enumerate() {
        let san = SanPlus::from_move(pos.clone(), *m).to_string();
        let player = if pos.turn().is_white() {
            &alice
        } else {
            &boris
        };
        assert_eq!(field(&player.game("g1"), "myTurn").as_deref(), Some("true"));
        assert_eq!(
            player.play("g1", pos.fullmoves().get(), &san),
            "Success",
            "ply {i} {san}"
        );
        calls += 2;
    }
    let elapsed = started.elapsed();
    assert_eq!(field(&alice.game("g1"), "moves").unwrap(), movetext(&moves));
    eprintln!(
        "{calls} calls in {:.1} s ({:.0} a minute)",
        elapsed.as_secs_f64(),
        f64::from(calls) * 60.0 / elapsed.as_secs_f64()
    );
    let checks = secret_checks(http);
    assert!(
        checks <= 2.0,
        "a right secret is checked by Argon2 once, then remembered: {checks} checks"
    );

    // A wrong password from the same address fails at once, ten times over.
    for i in 0..10 {
        let before = secret_checks(http);
        assert_eq!(
            alice.make_a_move_as("wrong", "g1", &MoveArgs::default()),
            "AuthenticationFailed",
            "wrong password {i}"
        );
        assert_eq!(secret_checks(http), before + 1.0, "checked by Argon2");
    }
    // The eleventh in the minute is refused without running Argon2.
    let before = secret_checks(http);
    let asked = std::time::Instant::now();
    assert_eq!(
        alice.make_a_move_as("wrong", "g1", &MoveArgs::default()),
        "AuthenticationFailed"
    );
    eprintln!(
        "the eleventh wrong password refused in {:?}",
        asked.elapsed()
    );
    assert_eq!(secret_checks(http), before, "no Argon2 run past the limit");
    drop(daemon);
    assert_journal_verifies(&config);
}

/// A client set to fetch its games without pause gets `ServerError` with the reason once its
/// budget is spent (`limits.xfcc_fetches_per_minute`, after a burst of four minutes' worth);
/// the other player is not slowed.
#[test]
fn a_client_fetching_without_pause_is_answered_server_error_and_others_are_not() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.expect("http");
    let fetch = |player: &Player| {
        post(
            http,
            "/xfccbasic.asmx",
            envelope(
                "GetMyGames",
                &[("username", player.id), ("password", player.secret)],
            )
            .as_bytes(),
        )
    };
    let burst = 4 * 30;
    for i in 0..burst {
        let r = fetch(&ALICE);
        assert_eq!(r.status, 200, "fetch {i}: {}", r.body);
    }
    let r = fetch(&ALICE);
    assert_eq!(r.status, 500, "{}", r.body);
    assert!(
        r.body.contains("ServerError: too many GetMyGames calls"),
        "{}",
        r.body
    );
    assert_eq!(fetch(&BORIS).status, 200, "boris has his own budget");
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    assert_eq!(
        alice.play("g1", 1, "e4"),
        "Success",
        "moves are not fetches"
    );
    assert_eq!(boris.play("g1", 1, "e5"), "Success");
}

#[test]
fn the_wsdl_is_served_for_any_case_of_wsdl() {
    let (_dir, _config, daemon) = start(&[ALICE], &[], "", "");
    let http = daemon.http.unwrap();
    for query in ["wsdl", "WSDL", "Wsdl"] {
        for path in ["/xfccbasic.asmx", "/XfccBasic.asmx"] {
            let r = raw(
                http,
                format!("GET {path}?{query} HTTP/1.1\r\nHost: relay.example:8080\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            );
            assert_eq!(r.status, 200);
            assert!(
                r.headers
                    .iter()
                    .any(|(n, v)| n == "content-type" && v.starts_with("text/xml")),
                "{:?}",
                r.headers
            );
            assert!(r.body.contains("<wsdl:definitions"), "{}", r.body);
            assert!(
                r.body
                    .contains("location=\"http://relay.example:8080/xfccbasic.asmx\""),
                "{}",
                r.body
            );
        }
    }
}

/// A script of `tests/xfcc/`.
fn script(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/xfcc")).join(name)
}

/// Python's zeep and suds (Lucas Chess's toolkit) load the WSDL and play moves. `.ci/run`
/// installs them; without them this test fails, it never skips.
#[test]
fn python_zeep_and_suds_load_the_wsdl_and_play() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let endpoint = format!("http://{}/xfccbasic.asmx", daemon.http.unwrap());
    let out = std::process::Command::new("python3")
        .arg(script("clients.py"))
        .args([
            &endpoint,
            "g1",
            ALICE.id,
            ALICE.secret,
            BORIS.id,
            BORIS.secret,
        ])
        .output()
        .expect("python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "zeep/suds failed (pip install zeep suds-community; .ci/run does): {stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "ok",
        "{stderr}"
    );
}

/// Scid's own XFCC code (Debian's `scid-data`, run by `tclsh` with `tdom`): it receives the
/// games, writes their PGN, sends a move with a comment, and recognises a refused password.
/// `.ci/run` installs them; without them this test fails, it never skips.
#[test]
fn scids_own_xfcc_code_receives_writes_pgn_and_sends_moves() {
    let source = "/usr/share/scid/tcl/tools/correspondence.tcl";
    assert!(
        Path::new(source).exists(),
        "{source} is missing: apt-get install scid-data tdom tcl (.ci/run does)"
    );
    let (dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.unwrap();
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    assert_eq!(alice.play("g1", 1, "d4"), "Success");
    assert_eq!(
        alice.make_a_move(
            "g1",
            &MoveArgs {
                message: "твой ход",
                ..MoveArgs::default()
            }
        ),
        "Success"
    );
    let outdir = dir.path().join("scid");
    std::fs::create_dir(&outdir).unwrap();
    // ASCII only: Scid hands the text to Tcl's http as characters, which writes each
    // character's low byte (docs/xfcc.md); the relay refuses such bytes as not UTF-8.
    let comment = "Nf6 & <c5> \"is\" my answer";
    let out = std::process::Command::new("tclsh")
        .arg(script("scid.tcl"))
        .args([source, &format!("http://{http}/xfccbasic.asmx")])
        .args([BORIS.id, BORIS.secret, "g1", "1", "Nf6", comment])
        .arg(&outdir)
        .output()
        .expect("tclsh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "info relay-g1...",
            "info Processing successfull!",
            "info Authentication failed!",
            "messagebox Scid Authentication Failure!",
            "info Authentication failed!",
            "messagebox Scid Authentication Failure!",
            "ok"
        ],
        "{stderr}"
    );
    let pgn = std::fs::read_to_string(outdir.join("relay-g1.pgn")).expect("Scid's PGN");
    for expected in [
        "[White \"alice\"]",
        "[Black \"boris\"]",
        "[GameId \"g1\"]",
        "[TimeControl \"10/4320000\"]",
        "[Result \"*\"]",
        "1.d4",
        "{твой ход}",
    ] {
        assert!(pgn.contains(expected), "{expected} not in {pgn}");
    }
    // The move and the comment arrived.
    let game = alice.game("g1");
    assert_eq!(field(&game, "moves").as_deref(), Some("1.d4 Nf6"));
    assert_eq!(field(&game, "message").as_deref(), Some(comment));
    assert_eq!(field(&boris.game("g1"), "myTurn").as_deref(), Some("false"));
}

/// A kept-alive connection serves several requests, and is closed once idle for the header
/// timeout; the daemon then stops cleanly on SIGTERM.
#[test]
fn an_idle_kept_alive_connection_is_closed_and_shutdown_is_clean() {
    let (_dir, _config, mut daemon) = start(&[ALICE], &[], "", "");
    let http = daemon.http.unwrap();
    let mut stream = TcpStream::connect(http).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    for _ in 0..2 {
        stream
            .write_all(b"GET /xfccbasic.asmx?wsdl HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        // Read one response: head, then Content-Length bytes.
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).expect("response head");
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .expect("content-length");
        let mut body = vec![0; length];
        stream.read_exact(&mut body).unwrap();
    }
    let idle = std::time::Instant::now();
    let mut rest = Vec::new();
    let read = stream.read_to_end(&mut rest);
    assert!(read.is_ok() && rest.is_empty(), "{read:?} {rest:?}");
    let waited = idle.elapsed();
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(8),
        "closed after {waited:?}"
    );
    assert!(daemon.terminate().success());
}

/// With `http.tls_cert` and `http.tls_key`, XFCC is served over TLS only, and the WSDL names an
/// `https` endpoint.
#[test]
fn xfcc_over_tls() {
    use rustls::pki_types::ServerName;

    use std::sync::Arc;

    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("certificate");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("cert.pem"), certified.cert.pem()).expect("cert");
    std::fs::write(
        dir.path().join("key.pem"),
        certified.signing_key.serialize_pem(),
    )
    .expect("key");
    let tls_files = format!(
        "tls_cert = {:?}\ntls_key = {:?}\n",
        dir.path().join("cert.pem").display().to_string(),
        dir.path().join("key.pem").display().to_string()
    );
    let (_dir, _config, daemon) =
        start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", &tls_files);
    let http = daemon.http.unwrap();

    let client_config = Arc::new(tls_client_trusting(certified.cert.der()));
    let https = |request: &[u8]| {
        let server_name = ServerName::try_from("localhost").expect("name");
        let connection =
            rustls::ClientConnection::new(client_config.clone(), server_name).expect("client");
        let tcp = TcpStream::connect(http).expect("connect");
        tcp.set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        let mut tls = rustls::StreamOwned::new(connection, tcp);
        tls.write_all(request).expect("write");
        let mut bytes = Vec::new();
        let _ = tls.read_to_end(&mut bytes);
        parse_response(&bytes)
    };
    let wsdl =
        https(b"GET /xfccbasic.asmx?wsdl HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert_eq!(wsdl.status, 200);
    assert!(
        wsdl.body
            .contains("location=\"https://localhost/xfccbasic.asmx\""),
        "{}",
        wsdl.body
    );
    let body = envelope(
        "GetMyGames",
        &[("username", ALICE.id), ("password", ALICE.secret)],
    );
    let mut request = format!(
        "POST /xfccbasic.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body.as_bytes());
    let games = https(&request);
    assert_eq!(games.status, 200, "{}", games.body);
    assert_eq!(field(&games.body, "id").as_deref(), Some("g1"));
    // Plain HTTP to the TLS port gets no HTTP answer.
    let mut plain = TcpStream::connect(http).expect("connect");
    plain
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    plain
        .write_all(b"GET /xfccbasic.asmx?wsdl HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    let mut buf = [0u8; 64];
    let n = plain.read(&mut buf).unwrap_or(0);
    assert!(!buf[..n].starts_with(b"HTTP/1.1 200"), "{:?}", &buf[..n]);
}

/// A player with `reach = "xfcc"` is pushed nothing: no outbox row waits for them, while their
/// opponent's pushes are delivered as ever.
#[test]
fn an_xfcc_player_is_pushed_nothing_and_nothing_waits_for_them() {
    let (_dir, _config, daemon) = start_edited(
        &[ALICE, BORIS],
        &[("g1", "alice", "boris")],
        "",
        "",
        &|text| text.replace("id = \"boris\"\n", "id = \"boris\"\nreach = \"xfcc\"\n"),
    );
    let boris = Xfcc {
        addr: daemon.http.unwrap(),
        player: &BORIS,
    };
    let mut alice = daemon.login(&ALICE);
    let (code, text) = alice.call("MOVE g1 1. e4");
    assert_eq!(code, 250, "{text}");
    assert_eq!(
        boris.make_a_move(
            "g1",
            &MoveArgs {
                movecount: Some(1),
                my_move: "e5",
                message: "hi",
                ..MoveArgs::default()
            }
        ),
        "Success"
    );
    // Alice gets the game's start, Boris's move and his message.
    let pushes: Vec<String> = (0..3).map(|_| alice.next_push().1).collect();
    assert!(pushes.iter().any(|p| p.contains("e5")), "{pushes:?}");
    assert!(pushes.iter().any(|p| p.contains("hi")), "{pushes:?}");
    // Boris, logging in over TCP, finds nothing waiting (not even the game's start).
    let mut tcp = daemon.login(&BORIS);
    let (code, text) = tcp.call("GAMES");
    assert_eq!(code, 250, "{text}");
    assert!(tcp.pushes.is_empty(), "{:?}", tcp.pushes);
    assert_eq!(
        field(&boris.game("g1"), "moves").as_deref(),
        Some("1.e4 e5")
    );
}

/// `/healthz` on the HTTP server: 200 while the journal commits (the 503 side is a relay unit
/// test, `the_journal_is_healthy_until_a_commit_fails`).
#[test]
fn healthz_says_the_journal_commits() {
    let (_dir, _config, daemon) = start(&[ALICE], &[], "", "");
    let http = daemon.http.expect("http");
    let response = raw(
        http,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(response.status, 200, "{}", response.body);
    assert_eq!(response.body, "ok: the journal commits\n");
}

/// `/metrics` reads as Prometheus text, and its counters move when a move is made or refused.
#[test]
fn metrics_count_moves_and_read_as_prometheus_text() {
    let (_dir, _config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.expect("http");
    let scrape = || {
        let response = raw(
            http,
            b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        assert_eq!(response.status, 200, "{}", response.body);
        let lines = response.body.lines().map(|l| Ok(l.to_owned()));
        prometheus_parse::Scrape::parse(lines).expect("Prometheus text")
    };
    let moves = |scrape: &prometheus_parse::Scrape, outcome: &str| -> f64 {
        scrape
            .samples
            .iter()
            .filter(|s| s.metric == "ccrelay_moves_total")
            .filter(|s| s.labels.get("outcome") == Some(outcome))
            .filter(|s| s.labels.get("channel") == Some("tcp"))
            .map(|s| match s.value {
                prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
                _ => panic!("{s:?}"),
            })
            .sum()
    };
    let before = scrape();
    assert_eq!(moves(&before, "accepted"), 0.0);
    let mut alice = daemon.login(&ALICE);
    assert_eq!(alice.call("MOVE g1 e4").0, 250);
    assert_eq!(alice.call("MOVE g1 d4").0, 409, "not alice's move");
    let after = scrape();
    assert_eq!(moves(&after, "accepted"), 1.0);
    assert_eq!(moves(&after, "refused"), 1.0);
    let sessions = after
        .samples
        .iter()
        .find(|s| s.metric == "ccrelay_sessions_open")
        .map(|s| match s.value {
            prometheus_parse::Value::Gauge(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => panic!("{s:?}"),
        });
    assert_eq!(sessions, Some(1.0));
    assert!(
        after
            .samples
            .iter()
            .any(|s| s.metric.starts_with("ccrelay_journal_commit_seconds")),
        "{:?}",
        after.samples
    );
}

/// Boris's pushes up to and including the first that starts with `until`.
fn pushes_until(boris: &mut Client, until: &str) -> Vec<String> {
    let mut pushes = Vec::new();
    while !pushes.iter().any(|p: &String| p.starts_with(until)) {
        pushes.push(boris.next_push().1);
    }
    pushes
}

/// Regression: a `MakeAMove` whose `myMessage` held a line break (Scid's message box has
/// several lines), a character the text check refuses or more than 500 characters was
/// refused whole as `InvalidMove`, the legal move lost to "Thanks for the game,\nGood luck".
/// The move is played; the opponent receives the message mended (line breaks as ` / `, cut
/// to 500 characters with `…`); the record keeps the words as received beside the words
/// delivered, and verifies.
#[test]
fn a_message_with_a_line_break_or_2000_characters_never_costs_the_move() {
    let (_dir, config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let alice = Xfcc {
        addr: daemon.http.unwrap(),
        player: &ALICE,
    };
    let mut boris = daemon.login(&BORIS);
    let sent = alice.make_a_move(
        "g1",
        &MoveArgs {
            movecount: Some(1),
            my_move: "e4",
            message: "Thanks for the game,\nGood luck",
            ..MoveArgs::default()
        },
    );
    assert_eq!(sent, "Success");
    let pushes = pushes_until(&mut boris, "MSG g1");
    assert!(
        pushes
            .iter()
            .any(|p| p.starts_with("MOVE g1 1. ") && p.contains("(5254)")),
        "{pushes:?}"
    );
    let message = pushes.last().unwrap();
    assert!(
        message.starts_with("MSG g1 from alice: Thanks for the game, / Good luck"),
        "{message:?}"
    );
    let (code, text) = boris.call("MOVE g1 1... 5755");
    assert!((200..300).contains(&code), "{text}");
    let long = "Спасибо за партию! ".repeat(106);
    assert!(long.chars().count() > 2000);
    let sent = alice.make_a_move(
        "g1",
        &MoveArgs {
            movecount: Some(2),
            my_move: "Nf3",
            message: &long,
            ..MoveArgs::default()
        },
    );
    assert_eq!(sent, "Success");
    let pushes = pushes_until(&mut boris, "MSG g1");
    assert!(
        pushes
            .iter()
            .any(|p| p.starts_with("MOVE g1 2. ") && p.contains("(7163)")),
        "{pushes:?}"
    );
    let message = pushes.last().unwrap();
    let words = message
        .strip_prefix("MSG g1 from alice: ")
        .unwrap_or_else(|| panic!("{message:?}"));
    // Less the receipt at the push's end (` r12:5be01f9c03d2`).
    let words = match words.rsplit_once(' ') {
        Some((words, receipt)) if receipt.starts_with('r') && receipt.contains(':') => words,
        _ => words,
    };
    assert_eq!(words.chars().count(), 500, "{words:?}");
    assert!(words.ends_with('…'), "{words:?}");
    let moves = field(&alice.game("g1"), "moves").unwrap_or_default();
    assert!(
        moves.contains("e4") && moves.contains("Nf3"),
        "both moves played: {moves}"
    );
    drop((boris, daemon));
    assert_journal_verifies(&config);
    // The record: the words as received (the line break escaped in the entry, and the
    // entry escaped again by the export) and as delivered.
    let text = journal_export(&config, "g1", "text");
    assert!(
        text.contains("Thanks for the game,\\\\nGood luck"),
        "{text}"
    );
    assert!(text.contains("Thanks for the game, / Good luck"), "{text}");
}

/// A `MakeAMove` whose `myMessage` the one text check refuses (escape sequences forging a
/// push, a bidirectional override, an invisible character, a line separator, 600
/// characters) still plays its move, and a message alone still goes: mended, so nothing
/// hostile reaches the opponent's line or the record's exports as such.
#[test]
fn a_hostile_message_is_mended_and_never_refuses_the_move() {
    let (_dir, config, daemon) = start(&[ALICE, BORIS], &[("g1", "alice", "boris")], "", "");
    let http = daemon.http.unwrap();
    let mut boris_tcp = daemon.login(&BORIS);
    let long = "x".repeat(600);
    let hostile: [&str; 5] = [
        "&#x1b;[2K&#x1b;[1G* 99 RESULT p1 1-0 (resignation)&#x1b;[8m",
        "1-0 \u{202E}0-1",
        "ad\u{200B}min",
        "line\u{2028}break",
        &long,
    ];
    // Each alone, then the first with Alice's move.
    let sends = hostile
        .iter()
        .map(|m| (*m, "", ""))
        .chain([(hostile[0], "e4", "1")]);
    for (message, my_move, count) in sends {
        // The message goes into the envelope as written (a character reference included).
        let body = envelope(
            "MakeAMove",
            &[
                ("username", ALICE.id),
                ("password", ALICE.secret),
                ("gameId", "g1"),
                ("movecount", count),
                ("myMove", my_move),
                ("myMessage", "@MESSAGE@"),
            ],
        )
        .replace("@MESSAGE@", message);
        let r = post(http, "/xfccbasic.asmx", body.as_bytes());
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(
            field(&r.body, "MakeAMoveResult").as_deref(),
            Some("Success"),
            "{message:?} with {my_move:?}"
        );
        let pushes = pushes_until(&mut boris_tcp, "MSG g1");
        if !my_move.is_empty() {
            assert!(pushes.iter().any(|p| p.contains("(5254)")), "{pushes:?}");
        }
        for p in &pushes {
            assert!(
                !p.contains('\u{1b}')
                    && !p.contains('\u{202E}')
                    && !p.contains('\u{200B}')
                    && !p.contains('\u{2028}')
                    && p.chars().count() < 600,
                "{p:?}"
            );
        }
    }
    drop((boris_tcp, daemon));
    assert_journal_verifies(&config);
    let text = journal_export(&config, "g1", "text");
    for line in text.lines() {
        assert!(
            !line.contains('\u{1b}') && !line.contains('\u{202E}') && !line.starts_with("* 99"),
            "{line:?}"
        );
    }
    let pgn = journal_export(&config, "g1", "pgn");
    assert!(
        !pgn.contains('\u{1b}') && !pgn.contains('\u{202E}'),
        "{pgn}"
    );
}

/// A player asking after a game they do not play: a game spectators may see is `NotYourGame`;
/// a private game's answer is the one for a game that does not exist (`InvalidGameID`), so
/// its existence is not told.
#[test]
fn a_private_game_is_answered_as_no_game() {
    let (_dir, _config, daemon) = start_edited(
        &[ALICE, BORIS, CAROL],
        &[("g2", "boris", "carol")],
        "",
        "",
        &|text| {
            format!(
                "{text}[[events]]\nid = \"hidden\"\nname = \"Hidden\"\nview = \"private\"\n\
                 [[games]]\nid = \"p1\"\nevent = \"hidden\"\nwhite = \"boris\"\nblack = \"carol\"\n"
            )
        },
    );
    let alice = Xfcc {
        addr: daemon.http.unwrap(),
        player: &ALICE,
    };
    let tried = |game: &str| alice.play(game, 1, "e4");
    assert_eq!(tried("g2"), "NotYourGame");
    assert_eq!(tried("p1"), "InvalidGameID");
    assert_eq!(tried("nope"), "InvalidGameID");
    // Over TCP, word for word the same as a game that does not exist.
    let mut tcp = daemon.login(&ALICE);
    let (code, hidden) = tcp.call("MOVE p1 e4");
    let (none_code, none) = tcp.call("MOVE p9 e4");
    assert_eq!((code, none_code), (404, 404), "{hidden} / {none}");
    assert_eq!(hidden.replace("p1", "p9"), none);
    let (code, text) = tcp.call("MSG p1 hello");
    assert_eq!(code, 404, "{text}");
    let (code, text) = tcp.call("MOVE g2 e4");
    assert_eq!(code, 403, "{text}");
    assert!(text.contains("you do not play in game g2"), "{text}");
    // Carol, who plays it, is answered as ever.
    let carol = Xfcc {
        addr: daemon.http.unwrap(),
        player: &CAROL,
    };
    assert_eq!(carol.play("p1", 1, "e4"), "NotYourTurn");
}

/// A Triple Block game over XFCC: the days, hours and minutes left are the clock's, the bank
/// apart (docs/xfcc.md); the time control has no PGN form (`?`). The web page shows clock
/// and bank.
#[test]
fn a_triple_block_clock_is_sent_without_its_bank() {
    let (_dir, _config, daemon) = start(
        &[ALICE, BORIS],
        &[],
        "",
        "[clock]\nmode = \"manual\"\nstart = \"2027-01-01T00:00:00Z\"\n\
         [[events]]\nid = \"tb\"\nname = \"Triple Block\"\n\
         time_control = \"triple block 50 days + 3 days per move, bank 75\"\n",
    );
    let http = daemon.http.expect("http");
    let mut arbiter = crate::support::daemon::admin(&daemon);
    crate::support::line::ok(&mut arbiter, "CREATE g1 alice boris EVENT tb");
    let alice = Xfcc {
        addr: http,
        player: &ALICE,
    };
    let boris = Xfcc {
        addr: http,
        player: &BORIS,
    };
    // White thinks 40 days 12 hours: 9d 12h + 3 on the clock, refilled from the bank to 50
    // (the bank keeps 37d 12h); Black then thinks 10 days 6 hours and 30 minutes.
    crate::support::line::ok(&mut arbiter, "CLOCK +40d");
    crate::support::line::ok(&mut arbiter, "CLOCK +12h");
    assert_eq!(alice.play("g1", 1, "e4"), "Success");
    crate::support::line::ok(&mut arbiter, "CLOCK +10d");
    crate::support::line::ok(&mut arbiter, "CLOCK +6h");
    crate::support::line::ok(&mut arbiter, "CLOCK +30m");
    let game = boris.game("g1");
    let fields = |names: [&str; 3]| names.map(|n| field(&game, n).unwrap_or_default());
    assert_eq!(
        fields(["daysPlayer", "hoursPlayer", "minutesPlayer"]),
        ["39", "17", "30"],
        "{game}"
    );
    assert_eq!(
        fields(["daysOpponent", "hoursOpponent", "minutesOpponent"]),
        ["50", "0", "0"],
        "{game}"
    );
    assert_eq!(field(&game, "timeControl").as_deref(), Some("?"));
    let page = crate::support::http::get(http, "/games/g1?lang=en");
    assert!(
        page.body.contains("White clock 50d 00h, bank 37d 12h")
            && page
                .body
                .contains("Black clock 39d 17h, bank 75d (running)"),
        "{}",
        page.body
    );
    let ru = crate::support::http::get(http, "/games/g1?lang=ru");
    assert!(
        ru.body
            .contains("Белые: на часах 50 дн. 00 ч, в банке 37 дн. 12 ч"),
        "{}",
        ru.body
    );
}
