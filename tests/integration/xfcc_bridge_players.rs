//! The bridge for players who are not on the internet themselves: a bridging daemon plays two
//! accounts' games on a ccrelay server (XFCC over TLS, a test CA) for Alice, who plays by mail
//! (the real Postfix and Dovecot of the email tests), and for Carol, who types at a terminal
//! on a serial line (a pseudo-terminal). Boris plays both of them on the server by XFCC: moves
//! each way, a message each way, a draw offer declined by a move, a move refused, a
//! resignation, and the mate that ends the other game with the words of Alice's mail riding
//! with it.

use std::time::Duration;

use ccrelay::transport::bridge::client::Endpoint;
use ccrelay::transport::bridge::game::RemoteResult;
use ccrelay::transport::bridge::request::MoveCall;
use ccrelay::transport::http::xfcc::MoveResult;

use crate::support::config::{ALICE, BORIS, CAROL};
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;
use crate::support::mail::{
    EmailPlayer, Reader, TIMEOUT, lock, plain, require_mail_servers, send, setup,
};
use crate::support::terminal::Terminal;
use crate::xfcc::start;
use crate::xfcc_bridge::{act, runtime, test_tls};

/// How long a move Boris makes on the server may take to reach the player: the bridge polls
/// every minute.
const POLL: Duration = Duration::from_secs(90);

/// A game on the server, by id, as `player` sees it.
fn seen_on_server(
    rt: &tokio::runtime::Runtime,
    endpoint: &Endpoint,
    ca: &std::path::Path,
    player: &crate::support::config::Player,
    game: &str,
) -> ccrelay::transport::bridge::game::RemoteGame {
    let listed =
        crate::xfcc_bridge::games(rt, endpoint, Some(ca), player.id, player.secret).expect("games");
    listed.into_iter().find(|g| g.id == game).expect("the game")
}

#[test]
fn a_mail_player_and_a_terminal_player_play_remote_games_through_the_bridge() {
    let _turn = lock();
    require_mail_servers();
    let certs = tempfile::tempdir().expect("tempdir");
    let (cert, tls_keys) = test_tls(certs.path());
    let (_server_dir, server_config, server) = start(
        &[ALICE, BORIS, CAROL],
        &[("g1", "boris", "alice"), ("g2", "carol", "boris")],
        "",
        &tls_keys,
    );
    let port = server.http.expect("http").port();
    let endpoint =
        Endpoint::from_url(&format!("https://localhost:{port}/xfccbasic.asmx")).expect("url");
    let rt = runtime();
    let boris = |game: &str, action: MoveCall| {
        let action = MoveCall {
            game: game.into(),
            ..action
        };
        assert_eq!(
            act(&rt, &endpoint, &cert, &BORIS, &action),
            MoveResult::Success,
            "{action:?}"
        );
    };
    // Boris opens g1 before the bridge is there.
    boris(
        "g1",
        MoveCall {
            movecount: Some(1),
            my_move: Some("f3".into()),
            ..MoveCall::default()
        },
    );

    // The bridging daemon: Alice by mail, Carol on a terminal, each with her account.
    let alice = EmailPlayer::new("alice", "san", None);
    let s = setup(&[&alice], &[CAROL], &[], None);
    let mut terminal = Terminal::open();
    let mut text = std::fs::read_to_string(&s.config).expect("config");
    for (id, player) in [("sa", &ALICE), ("sc", &CAROL)] {
        let password = certs.path().join(format!("{id}.password"));
        std::fs::write(&password, format!("{}\n", player.secret)).expect("password");
        text.push_str(&format!(
            "[[remotes]]\nid = \"{id}\"\nurl = \"https://localhost:{port}/xfccbasic.asmx\"\nca_file = {cert:?}\nplayer = \"{}\"\nusername = \"{}\"\npassword_file = {password:?}\npoll_minutes = 1\n",
            player.id, player.id
        ));
    }
    text.push_str(&format!(
        "[[terminals]]\ndevice = {:?}\nbaud = 9600\nexclusive = false\n",
        terminal.path
    ));
    std::fs::write(&s.config, text).expect("config");
    let bridge = Daemon::start(&s.config);
    let mut inbox = Reader::new(&alice.user);
    let from = alice.address();
    let to = s.plus(alice.token);
    let mail = |subject: &str, body: &str| send(&to, &plain(&from, &to, subject, body, ""));

    // Alice hears of her game and of Boris's first move by mail.
    let started = inbox.wait("sa-g1");
    assert!(started.text.contains("you play Black"), "{}", started.text);
    inbox.wait("1. f3 (6263) by sa.boris");

    // Carol logs in on the terminal and sees her game.
    terminal.log_in(CAROL.id, CAROL.secret);
    terminal.type_bytes(b"GAMES\r");
    terminal.expect_within("sc-g2", TIMEOUT);

    // A move the game cannot take, by mail: refused, and nothing goes to the server.
    mail("sa-g1", "1... e4");
    let refused = inbox.wait("REFUSED");
    assert!(refused.text.contains("422"), "{}", refused.text);
    // Alice's move by mail is sent, and recorded once the server has it.
    mail("sa-g1", "1... e5");
    let recorded = inbox.wait("RECORDED");
    assert!(
        recorded
            .text
            .contains("your move 1... e5 (5755) is in the record"),
        "{}",
        recorded.text
    );
    assert_eq!(
        seen_on_server(&rt, &endpoint, &cert, &BORIS, "g1")
            .moves
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["1.f3", "e5"]
    );

    // Carol's move and a message from the terminal.
    terminal.type_bytes(b"MOVE sc-g2 e4\r");
    terminal.expect("202 ");
    terminal.expect_within("RECORDED sc-g2", POLL);
    terminal.type_bytes(b"MSG sc-g2 greetings from the terminal\r");
    terminal.expect("202 ");
    terminal.expect_within("RECORDED sc-g2 your message is in the record", POLL);
    let deadline = std::time::Instant::now() + POLL;
    while seen_on_server(&rt, &endpoint, &cert, &BORIS, "g2")
        .message
        .as_deref()
        != Some("greetings from the terminal")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "Carol's message never reached the server"
        );
        std::thread::sleep(Duration::from_millis(500));
    }

    // Boris answers both on the server: in g1 a move with a draw offer and a message, in g2
    // his resignation with a message.
    boris(
        "g1",
        MoveCall {
            movecount: Some(2),
            my_move: Some("g4".into()),
            offer_draw: true,
            message: Some("a draw, Alice?".into()),
            ..MoveCall::default()
        },
    );
    boris(
        "g2",
        MoveCall {
            resign: true,
            message: Some("well played, Carol".into()),
            ..MoveCall::default()
        },
    );

    // Alice gets the move, the offer and the message by mail, and declines by mating.
    let offered = inbox.wait("g4");
    assert!(offered.text.contains("draw offered"), "{}", offered.text);
    inbox.any("MSG sa-g1 from sa.boris: a draw, Alice?");
    mail("sa-g1", "2... Qh4#\n\nNo draw, thank you!");
    let mated = inbox.wait("RECORDED");
    assert!(
        mated.text.contains("your move 2... Qh4# (4884)"),
        "{}",
        mated.text
    );
    let over = seen_on_server(&rt, &endpoint, &cert, &BORIS, "g1");
    assert_eq!(over.result, RemoteResult::BlackWins);
    // The words around the mating move went with it, in the same call, and are in the record.
    assert_eq!(over.message.as_deref(), Some("No draw, thank you!"));
    inbox.any("your message is in the record");

    // Carol sees the resignation and the message on the terminal.
    terminal.expect_within("MSG sc-g2 from sc.boris: well played, Carol", POLL);
    terminal.type_bytes(b"SHOW sc-g2\r");
    terminal.expect("1-0");
    assert_eq!(
        seen_on_server(&rt, &endpoint, &cert, &BORIS, "g2").result,
        RemoteResult::WhiteWins
    );
    drop(bridge);
    drop(server);
    assert_journal_verifies(&s.config);
    assert_journal_verifies(&server_config);
}
