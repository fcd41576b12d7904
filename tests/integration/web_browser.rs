//! The web pages in a real browser: Debian's chromium, headless, driven through chromedriver
//! over WebDriver (fantoccini). A game page is loaded, its board and moves read; a move is
//! played over TCP and the open page shows it within 3 seconds without a reload; the moves
//! are stepped back through and the page switched to Ukrainian; every piece of the SVG is
//! checked square by square against the FEN; a delayed game hides its last plies; a private
//! game is not found until the arbiter logs in through the page's form.
//!
//! With `CCRELAY_SCREENSHOTS=1` the test also writes docs/screenshots/game.png and
//! crosstable.png (what docs/web.md shows); without it, it only checks that the browser takes them.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use crate::support::browser::{Driver, attr, browser, moves, wait_for};
use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, CAROL};
use crate::support::daemon::Daemon;
use crate::support::line::ok;
use crate::support::web::start;

/// Every piece the SVG draws, against the FEN's board, square by square.
async fn assert_pieces_match(c: &Client) {
    let fen = attr(c, "#board", "data-fen").await.expect("data-fen");
    let pos: Chess = fen
        .parse::<Fen>()
        .expect("FEN")
        .into_position(CastlingMode::Standard)
        .expect("position");
    let pieces = c
        .execute(
            "return Array.from(document.querySelectorAll('#board g.piece')).map(function(g){return [g.getAttribute('data-square'),g.getAttribute('data-piece')];});",
            vec![],
        )
        .await
        .expect("script");
    let pieces: Vec<(String, String)> = serde_json::from_value(pieces).expect("pieces");
    let mut drawn = std::collections::BTreeMap::new();
    for (square, letter) in pieces {
        assert!(
            drawn.insert(square.clone(), letter).is_none(),
            "two pieces on {square}"
        );
    }
    let mut expected = std::collections::BTreeMap::new();
    for (square, piece) in pos.board().clone() {
        expected.insert(square.to_string(), piece.char().to_string());
    }
    assert_eq!(drawn, expected, "the SVG's pieces against {fen}");
}

async fn scenario(c: &Client, http: SocketAddr, daemon: &Daemon) {
    let base = format!("http://{http}");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut boris, "MOVE g1 e5");
    ok(&mut alice, "MOVE g1 Nf3");

    c.goto(&format!("{base}/games/g1?notation=san&lang=en"))
        .await
        .expect("goto");
    assert_eq!(moves(c).await, ["e4", "e5", "Nf3"]);
    assert_eq!(
        attr(c, "#board", "data-fen").await.as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    );
    assert_pieces_match(c).await;
    let label = attr(c, "#board", "aria-label")
        .await
        .expect("a text alternative");
    assert!(
        label.contains("rnbqkbnr/pppp1ppp") && label.contains("Black"),
        "{label}"
    );
    // The live connection is open before the move is made.
    assert!(
        wait_for(c, Duration::from_secs(5), async |c| {
            attr(c, "body", "data-live-state").await.as_deref() == Some("open")
        })
        .await,
        "the page's live connection did not open"
    );
    // A mark that a reload would lose.
    c.execute("window.notReloaded = true;", vec![])
        .await
        .expect("js");
    let played = Instant::now();
    ok(&mut boris, "MOVE g1 Nc6");
    let shown = wait_for(c, Duration::from_secs(3), async |c| {
        moves(c).await.len() == 4
    })
    .await;
    let took = played.elapsed();
    assert!(shown, "the move did not appear within 3 s");
    assert_eq!(moves(c).await, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(
        attr(c, "#board", "data-fen").await.as_deref(),
        Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    );
    let same_page = c
        .execute("return window.notReloaded === true;", vec![])
        .await
        .expect("js");
    assert_eq!(
        same_page,
        serde_json::Value::Bool(true),
        "the page was reloaded"
    );
    eprintln!(
        "web: the move appeared on the open page {} ms after it was made",
        took.as_millis()
    );
    assert_pieces_match(c).await;
    // Step back through the moves, links without JavaScript.
    c.find(Locator::Css("#moves a.move[data-ply=\"2\"]"))
        .await
        .expect("ply 2")
        .click()
        .await
        .expect("click");
    assert!(
        wait_for(c, Duration::from_secs(5), async |c| {
            attr(c, "#main", "data-ply").await.as_deref() == Some("2")
        })
        .await
    );
    assert_eq!(
        attr(c, "#board", "data-fen").await.as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert_pieces_match(c).await;
    c.find(Locator::Css("a.ply[data-ply=\"0\"]"))
        .await
        .expect("start")
        .click()
        .await
        .expect("click");
    assert!(
        wait_for(c, Duration::from_secs(5), async |c| {
            attr(c, "#main", "data-ply").await.as_deref() == Some("0")
        })
        .await
    );
    assert_pieces_match(c).await;
    // The language switch: Ukrainian words and the moves in Ukrainian letters, on the same
    // move; then back to English (the choice is remembered in a cookie).
    c.find(Locator::Css("a[hreflang=\"uk\"]"))
        .await
        .expect("the Ukrainian switch")
        .click()
        .await
        .expect("click");
    assert!(
        wait_for(c, Duration::from_secs(5), async |c| {
            attr(c, "html", "lang").await.as_deref() == Some("uk")
        })
        .await,
        "the page did not turn Ukrainian"
    );
    assert_eq!(moves(c).await, ["e4", "e5", "Кf3", "Кc6"]);
    assert_eq!(attr(c, "#main", "data-ply").await.as_deref(), Some("0"));
    let source = c.source().await.expect("source");
    assert!(
        source.contains("Білі") && source.contains("Чорні"),
        "{source}"
    );
    c.goto(&format!("{base}/games/g1?lang=en"))
        .await
        .expect("goto");

    // The delay rule: two plies hidden.
    ok(&mut alice, "MOVE d1 d4");
    ok(&mut boris, "MOVE d1 d5");
    ok(&mut alice, "MOVE d1 c4");
    c.goto(&format!("{base}/games/d1")).await.expect("goto");
    assert_eq!(moves(c).await, ["d4"]);
    assert_pieces_match(c).await;

    // A private game is not found, until the arbiter logs in.
    c.goto(&format!("{base}/games/p1")).await.expect("goto");
    assert!(
        c.find(Locator::Css("#board")).await.is_err(),
        "a private game shown"
    );
    let source = c.source().await.expect("source");
    assert!(source.contains("Not found"), "{source}");
    c.goto(&format!("{base}/login")).await.expect("goto");
    let form = c
        .form(Locator::Css("form[action=\"/login\"]"))
        .await
        .expect("the form");
    form.set_by_name("secret", ADMIN_SECRET)
        .await
        .expect("type");
    form.submit().await.expect("submit");
    // The login answers with its cookie and a redirect to the index, which says the arbiter
    // is logged in; going on before it arrives would abort the login.
    c.wait()
        .for_element(Locator::Css("main p.note"))
        .await
        .expect("the index after the login");
    c.goto(&format!("{base}/games/p1")).await.expect("goto");
    assert!(
        c.find(Locator::Css("#board")).await.is_ok(),
        "the arbiter does not see p1"
    );
    c.goto(&format!("{base}/games/d1")).await.expect("goto");
    assert_eq!(
        moves(c).await,
        ["d4", "d5", "c4"],
        "the arbiter sees the delayed moves"
    );
}

/// The pictures docs/web.md shows: a game page and a crosstable.
async fn screenshots(c: &Client, http: SocketAddr, daemon: &Daemon) {
    let base = format!("http://{http}");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    let mut carol = daemon.login(&CAROL);
    ok(&mut carol, "RESIGN g2");
    ok(&mut carol, "DRAW g3 OFFER");
    ok(&mut alice, "DRAW g3 ACCEPT");
    for (player, m) in [
        ("a", "Bc4"),
        ("b", "Nf6"),
        ("a", "Ng5"),
        ("b", "d5"),
        ("a", "exd5"),
        ("b", "Nxd5"),
        ("a", "Nxf7"),
    ] {
        let client = if player == "a" {
            &mut alice
        } else {
            &mut boris
        };
        ok(client, &format!("MOVE g1 {m}"));
    }
    c.delete_all_cookies().await.expect("log out");
    c.goto(&format!("{base}/games/g1")).await.expect("goto");
    let game = c.screenshot().await.expect("screenshot");
    c.goto(&format!("{base}/events/open")).await.expect("goto");
    let table = c.screenshot().await.expect("screenshot");
    for png in [&game, &table] {
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    }
    if std::env::var_os("CCRELAY_SCREENSHOTS").is_some() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("game.png"), &game).expect("write");
        std::fs::write(dir.join("crosstable.png"), &table).expect("write");
    }
}

#[test]
fn a_browser_follows_a_game_live_and_steps_through_it() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let c = browser(&driver).await;
        scenario(&c, http, &daemon).await;
        screenshots(&c, http, &daemon).await;
        c.close().await.expect("close");
    });
}
