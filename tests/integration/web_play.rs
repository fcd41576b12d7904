//! A player's own pages over plain HTTP against the real daemon: the login (wrong secret,
//! a form from elsewhere, the cookie's flags), the games sorted with those waiting first,
//! the move box's preview (`Кg1—f3 (7163)` for a player reading Russian long algebraic)
//! which changes nothing, a move sent and pushed to the opponent over TCP with its receipt,
//! refusals that change nothing (a forged form, a move out of turn, another player's game),
//! a message with markup and Cyrillic, a session that survives a restart and ends at logout
//! or when the secret changes; every form about a game not the player's the same 404, costing
//! no command of the budget; a Triple Block game's bank listed and refilled from its page, and
//! a long reflection declared where the event has a silence limit, each the line protocol's
//! command. The browser plays in `web_play_browser.rs`.

use std::net::SocketAddr;

use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, CAROL};
use crate::support::daemon::{Daemon, admin};
use crate::support::http::{Response, get_with};
use crate::support::line::{ok, push_starting};
use crate::support::web::{
    attr_of, cookie_named, form_token, player_cookie, post_form, start, start_with, urlencode,
};

fn page(addr: SocketAddr, path: &str, cookie: &str) -> Response {
    get_with(addr, path, &format!("Cookie: {cookie}\r\n"))
}

/// A move sent from game `game`'s page with form token `token` and the move number 1.
fn send_move(addr: SocketAddr, cookie: &str, game: &str, token: &str, text: &str) -> Response {
    post_form(
        addr,
        &format!("/play/games/{game}"),
        cookie,
        &[
            ("form", token),
            ("do", "move"),
            ("move", text),
            ("number", "1"),
        ],
    )
}

/// The page a 303 sends the browser to.
fn followed(addr: SocketAddr, response: &Response, cookie: &str) -> Response {
    assert_eq!(response.status, 303, "{}", response.body);
    let location = response
        .headers
        .iter()
        .find(|(n, _)| n == "location")
        .map(|(_, v)| v.clone())
        .expect("a location");
    page(addr, &location, cookie)
}

fn moves_over_tcp(daemon: &Daemon, game: &str) -> String {
    let mut a = admin(daemon);
    ok(&mut a, &format!("SHOW {game}"))
}

#[test]
fn a_wrong_secret_and_a_login_form_from_elsewhere_are_refused() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let wrong = player_cookie(http, "boris", "not-his-secret").unwrap_err();
    assert_eq!(wrong.status, 403, "{}", wrong.body);
    assert!(wrong.body.contains("login-refused"), "{}", wrong.body);
    // A login form posted from another site has no token matching the form's cookie.
    let forged = post_form(
        http,
        "/play/login",
        "",
        &[("form", "x"), ("player", "boris"), ("secret", BORIS.secret)],
    );
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert!(cookie_named(&forged, "ccrelay_player").is_none());
    // The arbiter's name is no player's.
    let admin = player_cookie(http, "admin", ADMIN_SECRET).unwrap_err();
    assert_eq!(admin.status, 403);
}

#[test]
fn my_games_put_the_games_waiting_for_me_first_and_count_them_in_the_title() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let mine = page(http, "/play", &cookie);
    assert_eq!(mine.status, 200, "{}", mine.body);
    // Boris plays White in g2 and p1 (his move) and Black in g1 and d1 (Alice's move).
    assert!(mine.body.contains("<title>(2) "), "{}", mine.body);
    let order: Vec<&str> = mine
        .body
        .split("<tr data-game=\"")
        .skip(1)
        .map(|row| &row[..row.find('"').unwrap_or(0)])
        .collect();
    assert_eq!(order.len(), 4, "{order:?}");
    assert!(
        order[..2].contains(&"g2") && order[..2].contains(&"p1"),
        "{order:?}"
    );
    assert!(
        order[2..].contains(&"g1") && order[2..].contains(&"d1"),
        "{order:?}"
    );
    assert_eq!(
        attr_of(&mine.body, "icon", "href").as_deref(),
        Some("/assets/icon-turn.svg")
    );
    // His pages speak his language (Russian), and Ukrainian or English by the switch.
    assert!(mine.body.contains("<h1>Мои партии</h1>"), "{}", mine.body);
    let switch = page(http, "/play?lang=uk", &cookie);
    assert_eq!(switch.status, 303);
    let uk = page(http, "/play", &format!("{cookie}; lang=uk"));
    assert!(uk.body.contains("<h1>Мої партії</h1>"), "{}", uk.body);
    let en = page(http, "/play", &format!("{cookie}; lang=en"));
    assert!(en.body.contains("<h1>My games</h1>"), "{}", en.body);
    // Alice's move in g1 appears as his last move there, in his notation (Russian LAN).
    let mut alice = daemon.login(&ALICE);
    ok(&mut alice, "MOVE g1 e4");
    let mine = page(http, "/play", &cookie);
    assert!(mine.body.contains("1. e2—e4"), "{}", mine.body);
}

#[test]
fn the_preview_reads_a_move_in_the_players_notation_and_changes_nothing() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    for typed in ["Кf3", "Nf3", "g1-f3", "7163", "1. Кf3"] {
        let path = format!("/play/games/g2/preview?move={}&number=1", urlencode(typed));
        let answer = page(http, &path, &cookie);
        assert_eq!(answer.status, 200, "{}", answer.body);
        let json: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        assert_eq!(json["ok"], true, "{typed}: {json}");
        assert_eq!(json["read"], "Кg1—f3 (7163)", "{typed}: {json}");
    }
    let illegal = page(http, "/play/games/g2/preview?move=Кf6&number=1", &cookie);
    let json: serde_json::Value = serde_json::from_str(&illegal.body).expect("json");
    assert_eq!(json["ok"], false, "{json}");
    let stale = page(http, "/play/games/g2/preview?move=Кf3&number=7", &cookie);
    let json: serde_json::Value = serde_json::from_str(&stale.body).expect("json");
    assert_eq!(json["ok"], false, "{json}");
    // Nothing moved, nothing was journaled for the opponent.
    assert!(!moves_over_tcp(&daemon, "g2").contains("Nf3"));
    // The page's own check button, without the script: the same reading, nothing sent.
    let game = page(http, "/play/games/g2", &cookie);
    let token = form_token(&game.body);
    let checked = post_form(
        http,
        "/play/games/g2",
        &cookie,
        &[
            ("form", &token),
            ("do", "check"),
            ("move", "Кf3"),
            ("number", "1"),
        ],
    );
    assert_eq!(checked.status, 200, "{}", checked.body);
    assert!(checked.body.contains("Кg1—f3 (7163)"), "{}", checked.body);
    assert!(!moves_over_tcp(&daemon, "g2").contains("Nf3"));
}

#[test]
fn a_move_from_the_page_is_the_same_command_as_over_tcp() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let mut carol = daemon.login(&CAROL);
    let game = page(http, "/play/games/g2", &cookie);
    assert_eq!(game.status, 200, "{}", game.body);
    let token = form_token(&game.body);
    // A form without the session's token: refused, nothing changed.
    let forged = send_move(http, &cookie, "g2", "0000", "Кf3");
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert!(!moves_over_tcp(&daemon, "g2").contains("Nf3"));
    // Out of turn (g1: Alice moves first): refused, and the page says why.
    let early = send_move(http, &cookie, "g1", &token, "e5");
    let shown = followed(http, &early, &cookie);
    assert!(
        shown.body.contains("class=\"flash refused\""),
        "{}",
        shown.body
    );
    assert!(!moves_over_tcp(&daemon, "g1").contains("e5"));
    // Another player's game (g3: Carol and Alice): not found for him.
    let theirs = send_move(http, &cookie, "g3", &token, "e4");
    assert_eq!(theirs.status, 404, "{}", theirs.body);
    assert!(!moves_over_tcp(&daemon, "g3").contains("e4"));
    // The move itself: accepted, with a receipt, pushed to Carol over TCP.
    let sent = send_move(http, &cookie, "g2", &token, "Кf3");
    let shown = followed(http, &sent, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    assert!(shown.body.contains("Кg1—f3 (7163)"), "{}", shown.body);
    let seq = attr_of(&shown.body, "receipt-link", "href").expect("a receipt link");
    let receipt = page(http, &seq, &cookie);
    assert_eq!(receipt.status, 200);
    assert!(
        receipt.body.starts_with("ccrelay-receipt v1"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains(" sig="), "{}", receipt.body);
    let push = push_starting(&mut carol, "MOVE g2");
    assert!(push.contains("Nf3"), "{push}");
    // The same form sent again (a reload): the move number no longer fits; nothing changes.
    let again = send_move(http, &cookie, "g2", &token, "Кc3");
    assert_eq!(again.status, 303);
    assert!(!moves_over_tcp(&daemon, "g2").contains("Nc3"));
}

#[test]
fn a_message_with_markup_and_cyrillic_is_shown_as_text() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let game = page(http, "/play/games/g1", &cookie);
    let token = form_token(&game.body);
    let text = "Привет, <b>Алиса</b> & <script>x</script>";
    let sent = post_form(
        http,
        "/play/games/g1",
        &cookie,
        &[("form", &token), ("do", "message"), ("message", text)],
    );
    assert_eq!(sent.status, 303);
    let mut alice = daemon.login(&ALICE);
    let push = push_starting(&mut alice, "MSG g1");
    assert!(push.contains("Привет"), "{push}");
    ok(&mut alice, "MSG g1 Спасибо, Борис!");
    let shown = page(http, "/play/games/g1", &cookie);
    assert!(
        shown
            .body
            .contains("Привет, &lt;b&gt;Алиса&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;"),
        "{}",
        shown.body
    );
    assert!(!shown.body.contains("<b>Алиса</b>"));
    assert!(shown.body.contains("Спасибо, Борис!"), "{}", shown.body);
}

#[test]
fn a_session_survives_a_restart_and_ends_at_logout_or_a_new_secret() {
    let (_dir, config, mut daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let other = player_cookie(http, "boris", BORIS.secret).expect("login");
    daemon.terminate();
    let daemon = Daemon::start(&config);
    let http = daemon.http.expect("http");
    let mine = page(http, "/play", &cookie);
    assert!(mine.body.contains("id=\"my-games\""), "{}", mine.body);
    // Logout ends this session only.
    let token = form_token(&mine.body);
    let out = post_form(http, "/play/logout", &cookie, &[("form", &token)]);
    assert_eq!(out.status, 303);
    let after = page(http, "/play", &cookie);
    assert!(!after.body.contains("id=\"my-games\""), "{}", after.body);
    assert!(page(http, "/play", &other).body.contains("id=\"my-games\""));
    // A new secret ends every session opened with the old one.
    let mut a = admin(&daemon);
    ok(&mut a, "PLAYER SECRET boris");
    assert!(!page(http, "/play", &other).body.contains("id=\"my-games\""));
}

#[test]
fn a_draughts_game_is_played_from_the_page_too() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let mut carol = daemon.login(&CAROL);
    let cookie = player_cookie(http, "alice", ALICE.secret).expect("login");
    let answer = page(http, "/play/games/dr1/preview?move=c3-d4&number=1", &cookie);
    let json: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["read"], "c3-d4 (22-18)", "{json}");
    let game = page(http, "/play/games/dr1", &cookie);
    assert!(
        game.body.contains("data-kind=\"draughts-ru\""),
        "{}",
        game.body
    );
    let token = form_token(&game.body);
    let sent = send_move(http, &cookie, "dr1", &token, "c3-d4");
    let shown = followed(http, &sent, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    assert!(push_starting(&mut carol, "MOVE dr1").contains("c3-d4"));
}

#[test]
fn resignation_needs_its_box_ticked_and_claims_and_leave_are_the_tcp_commands() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let token = form_token(&page(http, "/play/games/g2", &cookie).body);
    // Without the confirmation box: refused, the game goes on.
    let unsure = post_form(
        http,
        "/play/games/g2",
        &cookie,
        &[("form", &token), ("do", "resign")],
    );
    let shown = followed(http, &unsure, &cookie);
    assert!(
        shown.body.contains("class=\"flash refused\""),
        "{}",
        shown.body
    );
    assert!(!moves_over_tcp(&daemon, "g2").contains("resign"));
    // A claim with nothing to claim: the game's own refusal.
    let claim = post_form(
        http,
        "/play/games/g2",
        &cookie,
        &[
            ("form", &token),
            ("do", "claim"),
            ("claim", "threefold"),
            ("with", ""),
        ],
    );
    let shown = followed(http, &claim, &cookie);
    assert!(
        shown.body.contains("class=\"flash refused\""),
        "{}",
        shown.body
    );
    // Leave in all his games.
    let leave = post_form(
        http,
        "/play/leave",
        &cookie,
        &[("form", &token), ("first", "2030-01-10"), ("days", "5")],
    );
    let shown = followed(http, &leave, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    // With the box ticked: resigned, 0-1, pushed to Carol.
    let mut carol = daemon.login(&CAROL);
    let sure = post_form(
        http,
        "/play/games/g2",
        &cookie,
        &[("form", &token), ("do", "resign"), ("sure", "yes")],
    );
    let shown = followed(http, &sure, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    assert!(shown.body.contains("0-1"), "{}", shown.body);
    assert!(push_starting(&mut carol, "RESULT g2").contains("0-1"));
}

/// Previews until one is refused (429); the shipped budget is 600 commands a minute.
fn spend_the_budget(http: SocketAddr, cookie: &str) {
    for _ in 0..700 {
        let answer = page(http, "/play/games/g2/preview?move=Кf3&number=1", cookie);
        if answer.status == 429 {
            return;
        }
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    panic!("no preview was refused");
}

#[test]
fn a_player_past_the_command_budget_is_refused_and_nothing_is_recorded() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let token = form_token(&page(http, "/play/games/g1", &cookie).body);
    // The budget refills a command every 100 ms, so a message sent just after a refusal may
    // find one come back: then it is recorded like any other, and the budget is spent again.
    // Regression: the test once sent one message and failed when a command had come back.
    for attempt in 0..5 {
        spend_the_budget(http, &cookie);
        let text = format!("one too many, try {attempt}");
        let message = post_form(
            http,
            "/play/games/g1",
            &cookie,
            &[("form", &token), ("do", "message"), ("message", &text)],
        );
        let shown = followed(http, &message, &cookie);
        if shown.body.contains("class=\"flash refused\"") {
            assert!(!shown.body.contains(&text), "{}", shown.body);
            return;
        }
        assert!(
            shown.body.contains("class=\"flash done\""),
            "{}",
            shown.body
        );
        assert!(shown.body.contains(&text), "{}", shown.body);
    }
    panic!("five messages sent past the budget were all recorded");
}

/// The number a 303 after an action names (`?done=N`).
fn done_number(response: &Response) -> u64 {
    assert_eq!(response.status, 303, "{}", response.body);
    let location = response
        .headers
        .iter()
        .find(|(n, _)| n == "location")
        .map(|(_, v)| v.clone())
        .expect("a location");
    let (_, n) = location.split_once("?done=").expect("a done number");
    n.parse().expect("a number")
}

/// Regression: a message from the page's box refused for its line breaks (a text box holds
/// several lines) or anything else the text check refuses. It is mended and sent, alone or
/// riding with a move, which is played: a move is refused for what is wrong with the move,
/// never for its words.
#[test]
fn a_message_with_line_breaks_from_the_page_is_mended_and_never_costs_the_move() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let token = form_token(&page(http, "/play/games/g1", &cookie).body);
    let mut alice = daemon.login(&ALICE);
    let mut carol = daemon.login(&CAROL);
    let sent = post_form(
        http,
        "/play/games/g1",
        &cookie,
        &[
            ("form", &token),
            ("do", "message"),
            ("message", "Спасибо!\r\nУдачи\u{202E}"),
        ],
    );
    let shown = followed(http, &sent, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    assert!(shown.body.contains("mended"), "{}", shown.body);
    let push = push_starting(&mut alice, "MSG g1");
    assert!(push.contains("from boris: Спасибо! / Удачи"), "{push}");
    assert!(!push.contains('\u{202E}'), "{push}");
    // A move with a message riding on it: both go.
    let sent = post_form(
        http,
        "/play/games/g2",
        &cookie,
        &[
            ("form", &token),
            ("do", "move"),
            ("move", "Кf3"),
            ("number", "1"),
            ("message", "Good luck,\nCarol"),
        ],
    );
    let shown = followed(http, &sent, &cookie);
    assert!(
        shown.body.contains("class=\"flash done\""),
        "{}",
        shown.body
    );
    assert!(push_starting(&mut carol, "MOVE g2").contains("Nf3"));
    let push = push_starting(&mut carol, "MSG g2");
    assert!(push.contains("from boris: Good luck, / Carol"), "{push}");
}

/// Regression: `?done=N` counted every session's actions (one counter for all), so a player
/// learned how many actions everyone else took. The number is drawn for each reply and found
/// only with its own session.
#[test]
fn the_done_number_counts_nothing_and_shows_only_to_its_session() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let boris = player_cookie(http, "boris", BORIS.secret).expect("login");
    let alice = player_cookie(http, "alice", ALICE.secret).expect("login");
    let token = form_token(&page(http, "/play/games/g1", &boris).body);
    let numbers: Vec<u64> = (0..3)
        .map(|i| {
            let text = format!("hello {i}");
            done_number(&post_form(
                http,
                "/play/games/g1",
                &boris,
                &[("form", &token), ("do", "message"), ("message", &text)],
            ))
        })
        .collect();
    assert!(
        numbers.windows(2).all(|w| w[1] != w[0] + 1),
        "numbers that count: {numbers:?}"
    );
    let own = page(http, &format!("/play/games/g1?done={}", numbers[2]), &boris);
    assert!(own.body.contains("class=\"flash done\""), "{}", own.body);
    let other = page(http, &format!("/play/games/g1?done={}", numbers[2]), &alice);
    assert_eq!(other.status, 200, "{}", other.body);
    assert!(!other.body.contains("class=\"flash"), "{}", other.body);
}

/// Regression: `/play/receipts/N` was not counted against the command budget, so a session
/// could have the relay sign receipts without end. Past the budget it is refused (429).
#[test]
fn a_receipt_past_the_command_budget_is_refused() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    // The budget refills a command every 100 ms: spend it again if one came back.
    for _ in 0..5 {
        spend_the_budget(http, &cookie);
        let receipt = page(http, "/play/receipts/1", &cookie);
        if receipt.status == 429 {
            return;
        }
        assert_eq!(receipt.status, 200, "{}", receipt.body);
    }
    panic!("five receipts past the budget were all signed");
}

/// Every form of a game's page and the preview, about a game that is not the player's, is
/// answered with the same 404 whether the relay refuses it (a game spectators see, one they
/// may not see, one that does not exist) or the form is refused before it reaches the relay
/// (its words): nothing changes, and none of them costs a command of the budget.
#[test]
fn every_form_about_a_game_not_his_is_the_same_404_and_costs_no_command() {
    let (_dir, _config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let token = form_token(&page(http, "/play/games/g1", &cookie).body);
    let forms: &[&[(&str, &str)]] = &[
        &[("do", "move"), ("move", "e4"), ("number", "1.")],
        &[("do", "move"), ("move", ""), ("number", "1.")],
        &[("do", "offer")],
        &[("do", "accept")],
        &[("do", "decline")],
        &[("do", "resign"), ("sure", "yes")],
        &[("do", "resign")],
        &[("do", "claim"), ("claim", "threefold"), ("with", "")],
        &[("do", "claim"), ("claim", "nonsense")],
        &[("do", "line"), ("line", "1... e5 2. Nf3")],
        &[("do", "line"), ("line", "")],
        &[("do", "cancel-line")],
        &[("do", "message"), ("message", "hello")],
        &[("do", "message"), ("message", "  ")],
        &[("do", "check"), ("move", "e4"), ("number", "1.")],
        &[("do", "check"), ("move", ""), ("number", "1.")],
        &[("do", "bank"), ("days", "5")],
        &[("do", "bank"), ("days", "five")],
        &[("do", "silence")],
        &[("do", "nonsense")],
    ];
    // g3 spectators see (the relay says 403), f1's event shows no game before it ends (404),
    // nosuch is no game at all.
    let games = ["g3", "f1", "nosuch"];
    let mut asked = 0;
    let mut the_page = None;
    // More requests than the budget holds, so that one spent each would show.
    for _ in 0..12 {
        for game in games {
            for fields in forms {
                let mut fields = fields.to_vec();
                fields.push(("form", &token));
                let answer = post_form(http, &format!("/play/games/{game}"), &cookie, &fields);
                assert_eq!(answer.status, 404, "{game} {fields:?}: {}", answer.body);
                let the_page = the_page.get_or_insert_with(|| answer.body.clone());
                assert_eq!(&answer.body, the_page, "{game} {fields:?}");
                asked += 1;
            }
            for typed in ["e4", ""] {
                let path = format!("/play/games/{game}/preview?move={typed}&number=1.");
                let answer = page(http, &path, &cookie);
                assert_eq!(answer.status, 404, "{path}: {}", answer.body);
                assert_eq!(answer.body, "no such game of yours\n", "{path}");
                asked += 1;
            }
        }
    }
    assert!(asked > 600, "{asked}");
    for game in ["g3", "f1"] {
        let shown = moves_over_tcp(&daemon, game);
        assert!(!shown.contains("e4") && !shown.contains("draw"), "{shown}");
    }
    // The whole budget (600 commands) is still his: that many previews are read.
    let mut read = 0;
    while read < 2000 {
        let answer = page(http, "/play/games/g2/preview?move=Кf3&number=1.", &cookie);
        if answer.status == 429 {
            break;
        }
        assert_eq!(answer.status, 200, "{}", answer.body);
        read += 1;
    }
    assert!(
        read >= 600,
        "only {read} previews before the budget was spent"
    );
}

/// An event under Triple Block and one with a silence limit, under the manual clock.
const CLOCK_RULES: &str = "[clock]\nmode = \"manual\"\nstart = \"2027-01-01T00:00:00Z\"\n\
    [[events]]\nid = \"block\"\nname = \"Triple Block\"\n\
    time_control = \"triple block 50 days + 3 days per move, bank 75, refill by hand\"\n\
    [[events]]\nid = \"quiet\"\nname = \"Silence\"\n\
    time_control = \"10 moves in 50 days\"\nsilence_days = 40\n";

/// A game's page after an action (`fields`, with the form token) on it.
fn act(
    http: SocketAddr,
    cookie: &str,
    game: &str,
    token: &str,
    fields: &[(&str, &str)],
) -> Response {
    let mut fields = fields.to_vec();
    fields.push(("form", token));
    let answer = post_form(http, &format!("/play/games/{game}"), cookie, &fields);
    followed(http, &answer, cookie)
}

/// The reply a page shows (its flash), as text.
fn flash_of(body: &str) -> &str {
    let id = body.find("id=\"flash\"").expect("a reply on the page");
    let at = body[..id].rfind('<').unwrap_or(id);
    &body[at..id + body[id..].find("</div>").unwrap_or(0)]
}

/// My games show a Triple Block side's bank beside its clock; the game's page, while it is the
/// player's move, offers the refill from the bank, sent as `BANK tb1 20`: refused in the
/// page's language when the clock has no room for the days, then done, the opponent told as
/// over TCP; a game under another control offers none.
#[test]
fn a_triple_block_game_lists_its_bank_and_is_refilled_from_its_page() {
    let (_dir, _config, daemon) = start_with(CLOCK_RULES, "");
    let http = daemon.http.expect("http");
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE tb1 boris carol EVENT block");
    ok(&mut arbiter, "CREATE sl1 boris carol EVENT quiet");
    ok(&mut arbiter, "CLOCK +30d");
    let mut carol = daemon.login(&CAROL);
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let mine = page(http, "/play", &cookie);
    let row = &mine.body[mine.body.find("<tr data-game=\"tb1\"").expect("tb1 listed")..];
    let row = &row[..row.find("</tr>").unwrap_or(0)];
    assert!(row.contains("class=\"bank\">банк 75 дн.</span>"), "{row}");
    let sl1 = &mine.body[mine.body.find("<tr data-game=\"sl1\"").expect("sl1 listed")..];
    assert!(
        !sl1[..sl1.find("</tr>").unwrap_or(0)].contains("банк"),
        "{sl1}"
    );

    let game = page(http, "/play/games/tb1", &cookie);
    assert!(game.body.contains("id=\"bank-form\""), "{}", game.body);
    assert!(!game.body.contains("id=\"silence-form\""), "{}", game.body);
    assert!(
        game.body.contains("Тройной блок: часы 50 дн."),
        "{}",
        game.body
    );
    let token = form_token(&game.body);
    // 30 days thought: 20 on the clock, room for 30.
    let shown = act(
        http,
        &cookie,
        "tb1",
        &token,
        &[("do", "bank"), ("days", "40")],
    );
    let said = flash_of(&shown.body);
    assert!(said.contains("flash refused"), "{said}");
    assert!(
        said.contains("Пополнение не принято: на часах помещается не больше 50 дн.: сейчас войдёт 30, а просят 40."),
        "{said}"
    );
    let shown = act(
        http,
        &cookie,
        "tb1",
        &token,
        &[("do", "bank"), ("days", "20")],
    );
    let said = flash_of(&shown.body);
    assert!(said.contains("flash done"), "{said}");
    assert!(
        said.contains("20 дней переведены из банка на часы."),
        "{said}"
    );
    assert!(
        push_starting(&mut carol, "BANK tb1")
            .contains("boris (White) moved 20 day(s) from the bank to the clock")
    );
    assert!(
        moves_over_tcp(&daemon, "tb1").contains("White clock 40d 00h, bank 55d (running)"),
        "{}",
        moves_over_tcp(&daemon, "tb1")
    );
    let mine = page(http, "/play", &cookie);
    assert!(mine.body.contains("банк 55 дн."), "{}", mine.body);
    // Words the grammar refuses are refused as the line's are, in the page's language.
    let shown = act(
        http,
        &cookie,
        "tb1",
        &token,
        &[("do", "bank"), ("days", "many")],
    );
    assert!(
        flash_of(&shown.body).contains("Не понято: many"),
        "{}",
        shown.body
    );
    // Not while it is Carol's move, nor in a game without a bank.
    ok(&mut daemon.login(&BORIS), "MOVE tb1 e4");
    assert!(
        !page(http, "/play/games/tb1", &cookie)
            .body
            .contains("id=\"bank-form\"")
    );
    assert!(
        !page(http, "/play/games/sl1", &cookie)
            .body
            .contains("id=\"bank-form\"")
    );
}

/// Where the event has a silence limit (and the game is not under Triple Block) the game's
/// page declares a long reflection, sent as `SILENCE sl1 LONG`: done, the opponent told;
/// declared again, refused in the page's language. A game without a silence limit, or under
/// Triple Block, offers none.
#[test]
fn a_long_reflection_is_declared_from_the_page_where_the_event_has_a_silence_limit() {
    let (_dir, _config, daemon) = start_with(CLOCK_RULES, "");
    let http = daemon.http.expect("http");
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE tb1 boris carol EVENT block");
    ok(&mut arbiter, "CREATE sl1 boris carol EVENT quiet");
    let mut carol = daemon.login(&CAROL);
    let cookie = player_cookie(http, "boris", BORIS.secret).expect("login");
    let game = page(http, "/play/games/sl1", &cookie);
    assert!(game.body.contains("id=\"silence-form\""), "{}", game.body);
    assert!(game.body.contains("10 ходов за 50 дней"), "{}", game.body);
    let token = form_token(&game.body);
    let shown = act(http, &cookie, "sl1", &token, &[("do", "silence")]);
    let said = flash_of(&shown.body);
    assert!(said.contains("flash done"), "{said}");
    assert!(
        said.contains("Долгое обдумывание объявлено для вашего 1-го хода"),
        "{said}"
    );
    assert!(
        push_starting(&mut carol, "SILENCE sl1")
            .contains("boris (White) declared a long reflection for move 1")
    );
    let shown = act(http, &cookie, "sl1", &token, &[("do", "silence")]);
    let said = flash_of(&shown.body);
    assert!(said.contains("flash refused"), "{said}");
    assert!(
        said.contains("Долгое обдумывание не принято: долгое обдумывание уже объявлено для вашего текущего хода."),
        "{said}"
    );
    for other in ["tb1", "g2"] {
        let body = page(http, &format!("/play/games/{other}"), &cookie).body;
        assert!(!body.contains("id=\"silence-form\""), "{other}: {body}");
    }
}
