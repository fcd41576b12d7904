//! The web pages against the real daemon over plain HTTP: what each viewing rule shows and
//! hides (index, game page, PGN, live events), 404 for what does not exist or is private,
//! 400 for a query value not understood, the crosstable, Russian and Ukrainian by
//! `Accept-Language` (Ukrainian also by the switch and its cookie), the
//! arbiter's login, the live listeners' bound and the metrics. The browser tests are in
//! `web_browser.rs`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, CAROL, config_text_with};
use crate::support::convert::moves_only;
use crate::support::daemon::Daemon;
use crate::support::http::{get, get_with, raw};
use crate::support::line::ok;
use crate::support::web::{arbiter_cookie, attr_of, start};

/// The moves of a game page's list, as shown.
fn moves_of(html: &str) -> Vec<String> {
    html.split("<a class=\"move")
        .skip(1)
        .filter_map(|part| {
            let text = &part[part.find('>')? + 1..];
            Some(text[..text.find('<')?].trim().to_owned())
        })
        .collect()
}

/// The moves of a PGN export, without tags, numbers, comments and result.
fn pgn_moves(pgn: &str) -> Vec<String> {
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut plain = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    moves_only(&plain)
}

#[test]
fn the_index_shows_what_each_rule_allows_and_nothing_secret() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let index = get(http, "/");
    assert_eq!(index.status, 200, "{}", index.body);
    for shown in ["g1", "g2", "g3", "d1", "dr1", "Open Cup", "Delayed Cup"] {
        assert!(index.body.contains(shown), "{shown} missing from the index");
    }
    for hidden in ["p1", "f1", "Hidden Cup", "Finished Cup", "secret", "argon2"] {
        assert!(
            !index.body.contains(hidden),
            "{hidden:?} shown on the index:\n{}",
            index.body
        );
    }
    assert!(index.body.contains("name=\"viewport\""));
}

#[test]
fn the_index_shows_a_hundred_games_a_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], "");
    for i in 0..150 {
        text.push_str(&format!(
            "[[games]]\nid = \"many-{i:03}\"\nwhite = \"alice\"\nblack = \"boris\"\n"
        ));
    }
    text.push_str("[http]\nlisten = \"127.0.0.1:0\"\n");
    std::fs::write(&config, text).expect("write config");
    let daemon = Daemon::start(&config);
    let http = daemon.http.expect("http");
    let rows = |body: &str| body.matches("<tr data-game=").count();
    let first = get(http, "/");
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(rows(&first.body), 100);
    assert!(first.body.contains("many-000") && !first.body.contains("many-100"));
    assert!(
        first.body.contains("rel=\"next\" href=\"?page=2\""),
        "{}",
        first.body
    );
    assert!(!first.body.contains("rel=\"prev\""));
    let second = get(http, "/?page=2");
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(rows(&second.body), 50);
    assert!(second.body.contains("many-149") && !second.body.contains("many-099"));
    assert!(second.body.contains("rel=\"prev\" href=\"?page=1\""));
    assert!(!second.body.contains("rel=\"next\""));
    for bad in ["/?page=3", "/?page=0", "/?page=two"] {
        let response = get(http, bad);
        assert_eq!(response.status, 400, "{bad}: {}", response.body);
        assert!(
            response.body.contains("page: a number from 1 to 2"),
            "{bad}"
        );
    }
}

#[test]
fn unknown_and_private_are_404_and_bad_queries_400() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    for path in [
        "/games/nope",
        "/games/p1",
        "/games/p1.pgn",
        "/games/p1/live",
        "/games/f1",
        "/events/hidden",
        "/events/hidden.pgn",
        "/events/nope",
        "/nowhere",
    ] {
        let response = get(http, path);
        assert_eq!(response.status, 404, "{path}: {}", response.body);
        assert!(response.body.contains("<html"), "{path}: an HTML page");
        assert!(!response.body.contains("Hidden Cup"), "{path}");
    }
    // A private game's 404 is the same page as an unknown game's.
    assert_eq!(get(http, "/games/p1").body, get(http, "/games/nope").body);
    for (path, says) in [
        ("/games/g1?notation=klingon", "notation"),
        ("/games/g1?lang=xx", "lang"),
        ("/games/g1?ply=1", "ply"),
        ("/games/g1?ply=-1", "ply"),
        ("/games/g1?ply=abc", "ply"),
    ] {
        let response = get(http, path);
        assert_eq!(response.status, 400, "{path}: {}", response.body);
        assert!(response.body.contains(says), "{path}: {}", response.body);
    }
}

#[test]
fn a_game_page_shows_board_moves_clocks_and_the_pgn() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut boris, "MOVE g1 e5");
    ok(&mut alice, "MOVE g1 Qh5");
    ok(&mut boris, "MOVE g1 Nc6");
    ok(&mut alice, "MOVE g1 Bc4");
    ok(&mut boris, "MOVE g1 Nf6");
    ok(&mut alice, "MOVE g1 Qxf7");
    let page = get(http, "/games/g1?notation=san&lang=en");
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        attr_of(&page.body, "board", "data-fen").as_deref(),
        Some("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
    );
    assert_eq!(
        moves_of(&page.body),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    );
    assert!(page.body.contains("1-0 (checkmate)"), "{}", page.body);
    assert!(page.body.contains("class=\"check\" data-square=\"e8\""));
    assert!(page.body.contains("class=\"last-move\" data-square=\"f7\""));
    assert!(page.body.contains("class=\"chain-head\""));
    assert!(page.body.contains("10 moves in 50 days") || page.body.contains("time-control"));
    // The choice is remembered in cookies.
    assert!(
        page.headers
            .iter()
            .any(|(n, v)| n == "set-cookie" && v.starts_with("notation=san"))
    );
    // Other notations and languages.
    let iccf = get(http, "/games/g1?notation=iccf");
    assert_eq!(moves_of(&iccf.body)[..2], ["5254", "5755"]);
    let lan_ru = get(http, "/games/g1?notation=lan&lang=ru");
    assert!(
        moves_of(&lan_ru.body)[2].starts_with("Фd1"),
        "{:?}",
        moves_of(&lan_ru.body)
    );
    assert!(lan_ru.body.contains("Белые"));
    let remembered = get_with(http, "/games/g1", "Cookie: notation=iccf\r\n");
    assert_eq!(moves_of(&remembered.body)[0], "5254");
    // Step back: the board after the second ply.
    let back = get(http, "/games/g1?ply=2");
    assert_eq!(
        attr_of(&back.body, "board", "data-fen").as_deref(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    assert!(
        back.body.contains("data-ply=\"2\" class=\"current\""),
        "{}",
        back.body
    );
    // The language switch keeps the move shown.
    assert!(
        back.body.contains("href=\"?ply=2&amp;lang=ru\""),
        "{}",
        back.body
    );
    let latest = get(http, "/games/g1");
    assert!(latest.body.contains("href=\"?lang=ru\""), "{}", latest.body);
    // The official PGN, without the players' addresses.
    let pgn = get(http, "/games/g1.pgn");
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("[Event \"Open Cup\"]"), "{}", pgn.body);
    assert_eq!(
        pgn_moves(&pgn.body),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("[Result \"1-0\"]"));
    assert!(pgn.body.contains("[WhiteNA \"-\"]"));
    assert!(
        pgn.headers
            .iter()
            .any(|(n, v)| n == "content-disposition" && v.contains("g1.pgn"))
    );
}

#[test]
fn russian_by_accept_language() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let page = get_with(http, "/", "Accept-Language: ru-RU,ru;q=0.9,en;q=0.5\r\n");
    assert!(page.body.contains("<html lang=\"ru\""), "{}", page.body);
    assert!(page.body.contains("Партии"));
    let english = get_with(http, "/", "Accept-Language: en-GB\r\n");
    assert!(english.body.contains("<html lang=\"en\""));
    let missing = get_with(http, "/games/nope", "Accept-Language: ru\r\n");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("Не найдено"));
}

#[test]
fn ukrainian_by_the_switch_by_a_cookie_and_by_accept_language() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    for (i, mv) in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"]
        .iter()
        .enumerate()
    {
        let player = if i % 2 == 0 { &mut alice } else { &mut boris };
        ok(player, &format!("MOVE g1 {mv}"));
    }
    // The switch: the pages' words and the moves' letters in Ukrainian, remembered.
    let page = get(http, "/games/g1?lang=uk");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<html lang=\"uk\""), "{}", page.body);
    assert!(page.body.contains("Білі"), "{}", page.body);
    assert!(page.body.contains("1-0 (мат)"), "{}", page.body);
    assert_eq!(
        moves_of(&page.body),
        ["e4", "e5", "Фh5", "Кc6", "Сc4", "Кf6", "Фxf7#"]
    );
    assert!(
        page.headers
            .iter()
            .any(|(n, v)| n == "set-cookie" && v.starts_with("lang=uk"))
    );
    assert!(
        page.body
            .contains("<option value=\"uk\" selected>Українська</option>"),
        "the game's language choice: {}",
        page.body
    );
    // Every page offers the switch beside English and Russian.
    let index = get(http, "/");
    assert!(index.body.contains("href=\"?lang=uk\""), "{}", index.body);
    assert!(index.body.contains("Українська"), "{}", index.body);
    let remembered = get_with(http, "/", "Cookie: lang=uk\r\n");
    assert!(remembered.body.contains("<html lang=\"uk\""));
    assert!(remembered.body.contains("Усі партії") || remembered.body.contains("Партії"));
    // The browser's language.
    let accepted = get_with(http, "/", "Accept-Language: uk-UA,uk;q=0.9,en;q=0.5\r\n");
    assert!(
        accepted.body.contains("<html lang=\"uk\""),
        "{}",
        accepted.body
    );
    let missing = get_with(http, "/games/nope", "Accept-Language: uk\r\n");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("Не знайдено"), "{}", missing.body);
    let login = get_with(http, "/login", "Cookie: lang=uk\r\n");
    assert!(
        login.body.contains("Секрет адміністратора"),
        "{}",
        login.body
    );
}

#[test]
fn the_delay_rule_hides_the_last_plies_everywhere() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE d1 d4");
    ok(&mut boris, "MOVE d1 d5");
    ok(&mut alice, "MOVE d1 c4 =");
    let page = get(http, "/games/d1");
    assert_eq!(page.status, 200);
    assert_eq!(moves_of(&page.body), ["d4"]);
    assert_eq!(
        attr_of(&page.body, "board", "data-fen").as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
    );
    assert!(
        !page.body.contains("draw-offer"),
        "a hidden draw offer shown"
    );
    assert!(
        !page.body.contains("class=\"clocks\""),
        "the clocks would tell"
    );
    assert!(
        !page.body.contains("chain-head"),
        "the chain head would tell"
    );
    assert_eq!(get(http, "/games/d1?ply=2").status, 400);
    let pgn = get(http, "/games/d1.pgn");
    assert_eq!(pgn_moves(&pgn.body), ["d4"], "{}", pgn.body);
    let index = get(http, "/");
    assert!(index.body.contains("data-game=\"d1\""), "{}", index.body);
    let row = &index.body[index.body.find("data-game=\"d1\"").unwrap_or(0)..];
    assert!(row.contains("data-plies=\"1\""), "{row}");
    // The arbiter sees everything.
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("login");
    let full = get_with(http, "/games/d1", &format!("Cookie: {cookie}\r\n"));
    assert_eq!(moves_of(&full.body), ["d4", "d5", "c4"]);
    // A finished game is shown whole.
    ok(&mut boris, "RESIGN d1");
    let over = get(http, "/games/d1");
    assert_eq!(moves_of(&over.body), ["d4", "d5", "c4"]);
    assert!(over.body.contains("1-0 (resignation)"));
}

#[test]
fn the_arbiter_logs_in_and_sees_private_and_unfinished_games() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    assert_eq!(arbiter_cookie(http, "wrong"), Err(403));
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("login");
    let with = format!("Cookie: {cookie}\r\n");
    for path in ["/games/p1", "/games/f1", "/events/hidden"] {
        let page = get_with(http, path, &with);
        assert_eq!(page.status, 200, "{path}: {}", page.body);
    }
    assert!(get_with(http, "/", &with).body.contains("Hidden Cup"));
    // A made-up session is nobody.
    let forged = "Cookie: ccrelay_arbiter=00112233\r\n";
    assert_eq!(get_with(http, "/games/p1", forged).status, 404);
    // Logged out, the session is gone.
    let out = raw(
        http,
        format!("POST /logout HTTP/1.1\r\nHost: x\r\n{with}Content-Length: 0\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(out.status, 303);
    assert_eq!(get_with(http, "/games/p1", &with).status, 404);
}

#[test]
fn the_crosstable_counts_points_and_sonneborn_berger() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    let mut carol = daemon.login(&CAROL);
    // alice beats boris, boris beats carol, carol and alice draw.
    ok(&mut boris, "RESIGN g1");
    ok(&mut carol, "RESIGN g2");
    ok(&mut carol, "DRAW g3 OFFER");
    ok(&mut alice, "DRAW g3 ACCEPT");
    let page = get(http, "/events/open");
    assert_eq!(page.status, 200, "{}", page.body);
    let row = |player: &str| -> String {
        let at = page
            .body
            .find(&format!("data-player=\"{player}\""))
            .unwrap_or_else(|| panic!("no row for {player}"));
        let end = page.body[at..].find("</tr>").unwrap_or(0);
        page.body[at..at + end].to_owned()
    };
    // alice 1½ (S-B: 1×1 + ½×½ = 1¼), boris 1 (1×½ = ½), carol ½ (½×1½ = ¾).
    assert!(
        row("alice").contains("class=\"num place\">1<"),
        "{}",
        row("alice")
    );
    assert!(row("alice").contains("1½"), "{}", row("alice"));
    assert!(row("alice").contains("1¼"), "{}", row("alice"));
    assert!(
        row("boris").contains("class=\"num place\">2<"),
        "{}",
        row("boris")
    );
    assert!(
        row("carol").contains("class=\"num place\">3<"),
        "{}",
        row("carol")
    );
    assert!(row("carol").contains("¾"), "{}", row("carol"));
    for game in ["g1", "g2", "g3", "dr1"] {
        assert!(
            page.body.contains(&format!("/games/{game}?")),
            "{game} not linked"
        );
    }
    let pgn = get(http, "/events/open.pgn");
    assert_eq!(pgn.status, 200);
    assert_eq!(
        pgn.body.matches("[Event \"Open Cup\"]").count(),
        4,
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("[GameType"), "the draughts game's PGN");
}

#[test]
fn a_draughts_game_has_its_own_board_and_notation() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut alice = daemon.login(&ALICE);
    ok(&mut alice, "MOVE dr1 c3-d4");
    let page = get(http, "/games/dr1");
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        attr_of(&page.body, "board", "data-kind").as_deref(),
        Some("draughts-ru")
    );
    assert_eq!(page.body.matches("class=\"piece\"").count(), 24);
    assert!(page.body.contains("data-square=\"d4\" data-piece=\"w\""));
    assert_eq!(moves_of(&page.body), ["c3-d4"]);
    let numeric = get(http, "/games/dr1?notation=iccf");
    assert_eq!(moves_of(&numeric.body), ["22-18"]);
}

/// Reads from an SSE stream until `want` appears or `within` passes; what was read.
fn read_until(stream: &mut TcpStream, want: &str, within: Duration) -> String {
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .expect("timeout");
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if String::from_utf8_lossy(&seen).contains(want) {
            break;
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

fn open_live(addr: SocketAddr, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("write");
    stream
}

#[test]
fn live_events_follow_a_move_and_the_listeners_are_bounded() {
    // Three listeners in all; this address exempt from the shares per address (past half the
    // pool an address gets a quarter of its 8), so that the bound in all is what is tested.
    let (_dir, _config, daemon) = start("max_listeners = 3\nexempt_addresses = [\"127.0.0.1\"]\n");
    let http = daemon.http.expect("http");
    let mut game = open_live(http, "/games/g1/live");
    let mut delayed = open_live(http, "/games/d1/live");
    let mut event = open_live(http, "/events/open/live");
    let head = read_until(&mut game, "\r\n\r\n", Duration::from_secs(5));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/event-stream"), "{head}");
    // Every listener has its place before the fourth asks: on a busy machine the fourth could
    // otherwise be served first, take the last place, and never end.
    for stream in [&mut delayed, &mut event] {
        let head = read_until(stream, "\r\n\r\n", Duration::from_secs(5));
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    }
    // A fourth listener is refused.
    let refused = get(http, "/live");
    assert_eq!(refused.status, 503, "{}", refused.body);
    let mut alice = daemon.login(&ALICE);
    let started = Instant::now();
    ok(&mut alice, "MOVE g1 e4");
    let seen = read_until(&mut game, "event: change", Duration::from_secs(3));
    assert!(seen.contains("event: change"), "{seen:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    let seen = read_until(&mut event, "event: change", Duration::from_secs(3));
    assert!(seen.contains("event: change"), "{seen:?}");
    // A move the delay rule hides makes no event.
    ok(&mut alice, "MOVE d1 e4");
    let seen = read_until(&mut delayed, "event: change", Duration::from_secs(2));
    assert!(!seen.contains("event: change"), "{seen:?}");
    // A closed listener frees its place.
    drop(game);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut again = open_live(http, "/live");
        let head = read_until(&mut again, "\r\n\r\n", Duration::from_secs(2));
        if head.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "no place freed: {head}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The arbiter's refused web logins are counted with every other login refused, and the
/// outbox's depth by transport is read as the metrics are scraped.
#[test]
fn metrics_count_web_logins_refused_and_the_outbox_depth() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let scrape = || {
        let response = get(http, "/metrics");
        let lines = response.body.lines().map(|l| Ok(l.to_owned()));
        prometheus_parse::Scrape::parse(lines).expect("Prometheus text")
    };
    let value = |s: &prometheus_parse::Scrape, metric: &str, label: (&str, &str)| -> f64 {
        s.samples
            .iter()
            .filter(|x| x.metric == metric && x.labels.get(label.0) == Some(label.1))
            .map(|x| match x.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => v,
                _ => 0.0,
            })
            .sum()
    };
    let before = scrape();
    assert_eq!(arbiter_cookie(http, "nope"), Err(403));
    let after = scrape();
    assert_eq!(
        value(
            &after,
            "ccrelay_logins_refused_total",
            ("reason", "wrong secret")
        ) - value(
            &before,
            "ccrelay_logins_refused_total",
            ("reason", "wrong secret")
        ),
        1.0
    );
    // Boris is not logged in: alice's move waits in the outbox for him (TCP).
    let mut alice = daemon.login(&ALICE);
    ok(&mut alice, "MOVE g1 e4");
    let moved = scrape();
    assert_eq!(
        value(&moved, "ccrelay_outbox_waiting", ("transport", "tcp"))
            - value(&after, "ccrelay_outbox_waiting", ("transport", "tcp")),
        1.0
    );
    for transport in ["email", "xfcc", "link"] {
        assert!(
            moved
                .samples
                .iter()
                .any(|s| s.metric == "ccrelay_outbox_waiting"
                    && s.labels.get("transport") == Some(transport)),
            "no outbox gauge for {transport}"
        );
    }
}
