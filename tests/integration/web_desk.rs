//! The arbiter's desk over plain HTTP against the real daemon: every desk form refused (403,
//! nothing journaled) without its form token, without a session, and with a player's session;
//! the pages closed to anyone but the arbiter; each form the line protocol's admin command,
//! journaled on channel `http` as the admin's and answered with the line's words; a new
//! secret shown once on a page no cache keeps, and refused where the wire is not private; a
//! withdrawal shown with its effect on the standings before it is confirmed; the crosstable
//! downloaded. The browser runs the desk in `web_desk_browser.rs`.

use std::net::SocketAddr;
use std::path::Path;

use crate::support::config::{ADMIN_SECRET, ALICE};
use crate::support::daemon::admin;
use crate::support::http::{Response, get_with, raw};
use crate::support::line::ok;
use crate::support::web::{arbiter_cookie, form_token, player_cookie, post_form, start};

fn page(addr: SocketAddr, path: &str, cookie: &str) -> Response {
    get_with(addr, path, &format!("Cookie: {cookie}\r\n"))
}

/// The journal's entries, straight from the file: (channel, player, kind, text).
pub fn journal(config: &Path) -> Vec<(String, String, String, String)> {
    let db = config.parent().expect("dir").join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let mut statement = conn
        .prepare("SELECT channel, player, kind, text FROM entries ORDER BY seq")
        .expect("select");
    statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("query")
        .map(|r| r.expect("row"))
        .collect()
}

/// The page a 303 sends the browser to.
fn followed(addr: SocketAddr, response: &Response, cookie: &str) -> Response {
    assert_eq!(response.status, 303, "{}", response.body);
    let location = header(response, "location").expect("a location");
    page(addr, &location, cookie)
}

fn header(response: &Response, name: &str) -> Option<String> {
    response
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}

/// Every desk form, with fields that the relay would carry out.
const FORMS: [(&str, &[(&str, &str)]); 11] = [
    ("/desk/players", &[("id", "dora"), ("name", "Dora")]),
    ("/desk/players/alice", &[("do", "set"), ("name", "Al")]),
    ("/desk/players/alice", &[("do", "secret")]),
    ("/desk/events", &[("id", "club"), ("system", "round-robin")]),
    ("/desk/events/open", &[("do", "enter"), ("player", "alice")]),
    ("/desk/events/open", &[("do", "draw")]),
    ("/desk/events/open", &[("do", "start")]),
    (
        "/desk/events/open",
        &[
            ("do", "withdraw"),
            ("sure", "yes"),
            ("player", "carol"),
            ("reason", "ill"),
        ],
    ),
    (
        "/desk/games/g1",
        &[("result", "1-0"), ("reason", "adjourned")],
    ),
    (
        "/desk/correct",
        &[("game", "g1"), ("result", "1-0"), ("reason", "appeal")],
    ),
    (
        "/desk/leave",
        &[
            ("player", "alice"),
            ("first", "2099-03-01"),
            ("days", "10"),
            ("reason", "ill"),
        ],
    ),
];

#[test]
fn every_desk_form_is_refused_without_its_token_or_by_a_player() {
    let (_dir, config, daemon) = start("");
    let http = daemon.http.expect("http");
    let arbiter = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let player = player_cookie(http, ALICE.id, ALICE.secret).expect("player login");
    let player_token = form_token(&page(http, "/play", &player).body);
    let desk = page(http, "/desk/players", &arbiter);
    assert_eq!(desk.status, 200, "{}", desk.body);
    let token = form_token(&desk.body);
    let before = journal(&config).len();
    for (path, fields) in FORMS {
        for (who, cookie, form) in [
            ("no token", arbiter.as_str(), ""),
            ("a wrong token", arbiter.as_str(), player_token.as_str()),
            (
                "a player with their token",
                player.as_str(),
                player_token.as_str(),
            ),
            (
                "a player with the desk's token",
                player.as_str(),
                token.as_str(),
            ),
            ("no session", "", token.as_str()),
        ] {
            let mut all = vec![("form", form)];
            all.extend_from_slice(fields);
            let response = post_form(http, path, cookie, &all);
            assert_eq!(
                response.status, 403,
                "{path} {fields:?}, {who}: {}",
                response.body
            );
            assert!(
                response.body.contains("nothing was done"),
                "{}",
                response.body
            );
        }
    }
    assert_eq!(
        journal(&config).len(),
        before,
        "a refused form journaled something"
    );
    // The pages are the arbiter's alone: anyone else is sent to the login.
    for path in [
        "/desk",
        "/desk/players",
        "/desk/events",
        "/desk/events/open",
    ] {
        for cookie in ["", player.as_str()] {
            let response = page(http, path, cookie);
            assert_eq!(response.status, 303, "{path}");
            assert_eq!(header(&response, "location").as_deref(), Some("/login"));
        }
    }
    assert_eq!(
        page(http, "/desk/events/open/crosstable.csv", &player).status,
        303
    );
}

/// Posts a desk form with the arbiter's token.
fn desk_post(
    http: SocketAddr,
    cookie: &str,
    token: &str,
    path: &str,
    fields: &[(&str, &str)],
) -> Response {
    let mut all = vec![("form", token)];
    all.extend_from_slice(fields);
    post_form(http, path, cookie, &all)
}

/// The answer a desk page shows after a form.
fn answer_of(body: &str) -> String {
    let at = body.find("<samp>").expect("an answer") + 6;
    let end = at + body[at..].find("</samp>").expect("its end");
    body[at..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

#[test]
fn the_desk_sends_the_admin_commands_and_shows_their_answers() {
    let (_dir, config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let token = form_token(&page(http, "/desk/players", &cookie).body);
    // A new player: the secret on the answer's own page, kept by no cache.
    let added = desk_post(
        http,
        &cookie,
        &token,
        "/desk/players",
        &[
            ("id", "dora"),
            ("name", "Dora Ames"),
            ("notation", "lan"),
            ("lang", "uk"),
        ],
    );
    assert_eq!(added.status, 200, "{}", added.body);
    assert_eq!(header(&added, "cache-control").as_deref(), Some("no-store"));
    let marker = "id=\"secret\">";
    let at = added.body.find(marker).expect("the secret") + marker.len();
    let secret = &added.body[at..at + added.body[at..].find('<').expect("its end")];
    assert!(added.body.contains("id=\"sheet\""), "the printable sheet");
    let mut dora = daemon.connect();
    assert_eq!(
        dora.call(&format!("LOGIN dora {secret}")).0,
        230,
        "the secret works"
    );
    let last = journal(&config).pop().expect("an entry");
    assert_eq!(
        (last.0.as_str(), last.1.as_str()),
        ("http", "admin"),
        "{last:?}"
    );
    assert!(last.3.starts_with("PLAYER ADD dora"), "{last:?}");
    let mut a = admin(&daemon);
    let players = ok(&mut a, "PLAYERS");
    assert!(
        players.contains("dora \"Dora Ames\" lan (uk) tcp"),
        "{players}"
    );
    // The list shows her; a search finds her and not Alice.
    let found = page(http, "/desk/players?q=ames", &cookie).body;
    assert!(
        found.contains("data-player=\"dora\"") && !found.contains("data-player=\"alice\""),
        "{found}"
    );
    // A change: the line's answer, word for word.
    let changed = desk_post(
        http,
        &cookie,
        &token,
        "/desk/players/dora",
        &[("do", "set"), ("notation", "iccf")],
    );
    let shown = followed(http, &changed, &cookie);
    let answer = answer_of(&shown.body);
    assert!(
        answer.starts_with("250 player dora: Dora Ames, iccf (tcp) r"),
        "{answer}"
    );
    // A form with nothing to change is answered as the line answers the same words.
    let empty = desk_post(
        http,
        &cookie,
        &token,
        "/desk/players/dora",
        &[("do", "set")],
    );
    let (code, line) = a.call("PLAYER SET dora");
    assert_eq!(
        answer_of(&followed(http, &empty, &cookie).body),
        format!("{code} {line}")
    );
    // A new secret: the old one no longer works.
    let renewed = desk_post(
        http,
        &cookie,
        &token,
        "/desk/players/dora",
        &[("do", "secret")],
    );
    assert_eq!(renewed.status, 200);
    assert!(renewed.body.contains("id=\"secret\""));
    assert_eq!(
        daemon.connect().call(&format!("LOGIN dora {secret}")).0,
        430
    );
    // An event made, with its fields as the configuration's keys.
    let made = desk_post(
        http,
        &cookie,
        &token,
        "/desk/events",
        &[
            ("id", "club"),
            ("system", "round-robin"),
            ("name", "Club Cup"),
            ("time_control", "10/50"),
            ("view", "public"),
            ("on_timeout", "arbiter"),
            ("silence_days", ""),
        ],
    );
    assert_eq!(
        header(&made, "location").as_deref(),
        Some("/desk/events/club?done=1")
    );
    let last = journal(&config).pop().expect("an entry");
    assert_eq!(last.0, "http");
    assert_eq!(
        last.3,
        "EVENT NEW club SYSTEM round-robin NAME \"Club Cup\" TIME 10/50 ONTIMEOUT arbiter"
    );
    let entered = desk_post(
        http,
        &cookie,
        &token,
        "/desk/events/club",
        &[
            ("do", "enter"),
            ("player", "alice"),
            ("player", "boris"),
            ("player", "dora"),
        ],
    );
    assert_eq!(entered.status, 303);
    let started = desk_post(
        http,
        &cookie,
        &token,
        "/desk/events/club",
        &[("do", "start")],
    );
    let event_page = followed(http, &started, &cookie).body;
    assert!(answer_of(&event_page).starts_with("250"), "{event_page}");
    let shown_over_line = ok(&mut a, "EVENT SHOW club");
    assert!(shown_over_line.contains("round 1"), "{shown_over_line}");
    assert!(event_page.contains("id=\"event-games\""), "{event_page}");
    // Withdrawing: first the standings now and after, nothing sent; then confirmed.
    let entries = journal(&config).len();
    let asked = desk_post(
        http,
        &cookie,
        &token,
        "/desk/events/club",
        &[("do", "withdraw"), ("player", "dora"), ("reason", "ill")],
    );
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert!(asked.body.contains("id=\"after\"") && asked.body.contains("value=\"yes\""));
    assert_eq!(
        journal(&config).len(),
        entries,
        "nothing is sent before the confirmation"
    );
    let confirmed = desk_post(
        http,
        &cookie,
        &token,
        "/desk/events/club",
        &[
            ("do", "withdraw"),
            ("sure", "yes"),
            ("player", "dora"),
            ("reason", "ill"),
        ],
    );
    assert!(answer_of(&followed(http, &confirmed, &cookie).body).starts_with("250"));
    assert!(ok(&mut a, "EVENT SHOW club").contains("withdrawn: dora (ill)"));
    // The crosstable as a file.
    let csv = page(http, "/desk/events/club/crosstable.csv", &cookie);
    assert_eq!(csv.status, 200);
    assert!(header(&csv, "content-disposition").is_some_and(|d| d.contains("club-crosstable.csv")));
    assert!(
        csv.body.starts_with("place,player,1,2,3,points,games,sb\n"),
        "{}",
        csv.body
    );
}

/// Special leave from the players' page and a finished game's result corrected from the
/// decisions: each the line's admin command, journaled as the admin's on channel `http`, seen
/// over the line; a game in progress is not "corrected".
#[test]
fn special_leave_and_a_corrected_result_from_the_desk() {
    let (_dir, config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let players = page(http, "/desk/players", &cookie).body;
    assert!(players.contains("id=\"special-leave\""), "{players}");
    let token = form_token(&players);
    let granted = desk_post(
        http,
        &cookie,
        &token,
        "/desk/leave",
        &[
            ("player", "alice"),
            ("first", "2099-03-01"),
            ("days", "60"),
            ("reason", "illness, a doctor's note"),
        ],
    );
    let answer = answer_of(&followed(http, &granted, &cookie).body);
    assert!(
        answer.starts_with(
            "250 special leave 2099-03-01 to 2099-04-29 (60 days) for alice in d1, dr1, f1, g1, g3, p1"
        ),
        "{answer}"
    );
    let last = journal(&config).pop().expect("an entry");
    assert_eq!(
        (last.0.as_str(), last.1.as_str(), last.2.as_str()),
        ("http", "admin", "special_leave")
    );
    assert_eq!(
        last.3, "LEAVE 2099-03-01 60 FOR alice illness, a doctor's note",
        "the entry's text is the line's command"
    );
    let mut alice = daemon.connect();
    assert_eq!(alice.call(&format!("LOGIN alice {}", ALICE.secret)).0, 230);
    ok(&mut alice, "RESIGN g1");
    // The decisions page offers the finished game, with its result, for correction.
    let desk = page(http, "/desk", &cookie).body;
    assert!(desk.contains("id=\"correct\""), "{desk}");
    assert!(
        desk.contains("g1 · Alice – Boris · 0-1") || desk.contains("g1 · alice – boris · 0-1"),
        "{desk}"
    );
    let entries = journal(&config).len();
    let in_progress = desk_post(
        http,
        &cookie,
        &token,
        "/desk/correct",
        &[("game", "g2"), ("result", "1-0"), ("reason", "appeal")],
    );
    let answer = answer_of(&followed(http, &in_progress, &cookie).body);
    assert!(answer.contains("not a finished game"), "{answer}");
    assert_eq!(journal(&config).len(), entries, "nothing journaled");
    let corrected = desk_post(
        http,
        &cookie,
        &token,
        "/desk/correct",
        &[
            ("game", "g1"),
            ("result", "1/2-1/2"),
            ("reason", "resigned by a mistyped command, appeal upheld"),
        ],
    );
    let answer = answer_of(&followed(http, &corrected, &cookie).body);
    assert!(answer.starts_with("250 adjudicated g1"), "{answer}");
    let written: Vec<String> = journal(&config)[entries..]
        .iter()
        .map(|(channel, player, kind, _)| format!("{channel} {player} {kind}"))
        .collect();
    assert_eq!(
        written,
        ["http admin adjudication", "http admin result"],
        "the correction, then the result it makes"
    );
    let shown = ok(&mut alice, "SHOW g1");
    assert!(shown.contains("1/2-1/2"), "{shown}");
}

#[test]
fn a_secret_is_not_sent_where_the_wire_is_not_private() {
    let (_dir, config, daemon) = start("trusted_proxies = [\"127.0.0.1\"]\n");
    let http = daemon.http.expect("http");
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let token = form_token(&page(http, "/desk/players", &cookie).body);
    let before = journal(&config).len();
    let body = format!("form={token}&id=erin");
    let response = raw(
        http,
        format!(
            "POST /desk/players HTTP/1.1\r\nHost: {http}\r\nCookie: {cookie}\r\nX-Forwarded-For: 203.0.113.9\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    let shown = followed(http, &response, &cookie);
    assert!(
        answer_of(&shown.body).starts_with("403 PLAYER ADD carries a secret"),
        "{}",
        shown.body
    );
    assert_eq!(journal(&config).len(), before);
}

#[test]
fn the_record_page_says_what_journal_verify_says_and_gives_the_exports() {
    let (_dir, config, daemon) = start("");
    let http = daemon.http.expect("http");
    let cookie = arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let mut a = admin(&daemon);
    ok(&mut a, "ADJUDICATE g2 1/2-1/2 agreed by the captains");
    let verify = crate::support::process::ccrelay()
        .args(["journal", "verify", "--config"])
        .arg(&config)
        .output()
        .expect("verify");
    let said = String::from_utf8_lossy(&verify.stdout);
    let first = said.lines().next().expect("a verdict");
    assert!(first.starts_with("journal ok:"), "{said}");
    let day = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
    let record = page(http, &format!("/desk/record?day={day}"), &cookie).body;
    assert!(record.contains(first), "{first}\n{record}");
    assert!(
        record.contains("ADJUDICATE g2 1/2-1/2 agreed by the captains"),
        "the day's log: {record}"
    );
    let pgn = page(http, "/desk/record/event?event=open&format=pgn", &cookie);
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("[Event \"Open Cup\"]"), "{}", pgn.body);
    assert!(header(&pgn, "content-disposition").is_some_and(|d| d.contains("open.pgn")));
    let sheet = page(http, "/desk/record/game?game=g2&format=iccf", &cookie);
    assert_eq!(sheet.status, 200);
    assert!(!sheet.body.is_empty());
    // A configured event has no record of its own (its games are exported one by one), as
    // `ccrelay journal export --event open --format text` says; a made one has (the browser's).
    let text = page(http, "/desk/record/event?event=open&format=record", &cookie);
    assert_eq!(text.status, 404, "{}", text.body);
    assert_eq!(
        page(http, "/desk/record/game?game=nothing", &cookie).status,
        404
    );
    // The rating list in effect, as `ccrelay journal ratings` writes it (unsigned here).
    let list = page(http, "/desk/record/ratings?format=csv", &cookie);
    assert_eq!(list.status, 200, "{}", list.body);
    assert!(
        list.body.starts_with("# ccrelay rating list effective "),
        "{}",
        list.body
    );
    assert!(header(&list, "content-disposition").is_some_and(|d| d.contains("ratings-")));
    assert_eq!(
        page(http, "/desk/record/ratings", "").status,
        303,
        "the arbiter's only"
    );
}
