//! docs/ratings.md's worked example, run as written: the arbiter's words piped to
//! `ccrelay admin`, the relay restarted, `RATINGS` asked before and after, the list
//! `ccrelay journal ratings` writes held to the one the document prints, and
//! `journal verify --ratings` shown to accept that list and refuse a changed one.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::support::config::{ADMIN_SECRET, config_text_with};
use crate::support::daemon::Daemon;
use crate::support::http::{get, get_with};
use crate::support::process::ccrelay;
use crate::support::web::player_cookie;

/// The lines of the document's code block whose info string is `info`.
fn block(doc: &str, info: &str) -> String {
    let opening = format!("```{info}\n");
    let start = doc
        .find(&opening)
        .unwrap_or_else(|| panic!("no ```{info} block"))
        + opening.len();
    let end = doc[start..].find("```").expect("a closing fence") + start;
    doc[start..end].to_owned()
}

fn ratings_of(daemon: &Daemon, player: &str) -> String {
    let mut admin = daemon.connect();
    let (code, text) = admin.call(&format!("LOGIN admin {ADMIN_SECRET}"));
    assert_eq!(code, 230, "{text}");
    let (code, text) = admin.call(&format!("RATINGS {player}"));
    assert_eq!(code, 250, "{text}");
    text
}

/// `ccrelay journal ARGS --config CONFIG`: its standard output, which must succeed.
fn journal(config: &Path, args: &[&str]) -> std::process::Output {
    ccrelay()
        .arg("journal")
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .expect("ccrelay journal")
}

#[test]
fn the_worked_example_runs_as_written() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ratings.md"))
        .expect("docs/ratings.md");
    let words = block(&doc, "text ratings-example");
    let expected = block(&doc, "text ratings-example-list");
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), &[], &[], "");
    text.push_str("[clock]\nmode = \"manual\"\nstart = \"2026-01-05T00:00:00Z\"\n");
    text.push_str("[http]\nlisten = \"127.0.0.1:0\"\n");
    std::fs::write(&config, text).expect("config");
    let mut daemon = Daemon::start(&config);
    let mut script = ccrelay()
        .args(["admin", "--config"])
        .arg(&config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ccrelay admin");
    script
        .stdin
        .take()
        .expect("stdin")
        .write_all(words.as_bytes())
        .expect("write");
    let out = script.wait_with_output().expect("ran");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let petra_secret = said
        .lines()
        .find(|l| l.contains("player petra registered"))
        .and_then(|l| l.rsplit_once("shown this once: "))
        .map(|(_, secret)| secret.trim().to_owned())
        .expect("petra's secret in the admin's replies");
    let before = ratings_of(&daemon, "petra");
    assert!(
        before.starts_with("petra: 1464.05? RD 151.52 games 3 new"),
        "{before}"
    );
    daemon.terminate();
    let daemon = Daemon::start(&config);
    assert_eq!(ratings_of(&daemon, "petra"), before, "after a restart");

    let out = journal(
        &config,
        &["ratings", "--as-of", "2026-04-01", "--format", "text"],
    );
    assert!(out.status.success(), "{out:?}");
    let written = String::from_utf8(out.stdout).expect("utf-8");
    let (body, signature) = written
        .split_once("% ccrelay-signature v1 ")
        .expect("a signed list");
    assert_eq!(body, expected);
    assert!(signature.contains("sig="), "{signature}");

    let list = dir.path().join("list.txt");
    std::fs::write(&list, &written).expect("list");
    let verified = journal(
        &config,
        &["verify", "--ratings", list.to_str().expect("path")],
    );
    assert!(verified.status.success(), "{verified:?}");
    assert!(
        String::from_utf8_lossy(&verified.stdout).contains("rating list ok: effective 2026-04-01"),
        "{verified:?}"
    );
    std::fs::write(&list, written.replace("1464.05", "1464.06")).expect("list");
    let refused = journal(
        &config,
        &["verify", "--ratings", list.to_str().expect("path")],
    );
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");

    let csv = journal(
        &config,
        &["ratings", "--as-of", "2026-05-17", "--format", "csv"],
    );
    assert!(csv.status.success(), "{csv:?}");
    let csv = String::from_utf8(csv.stdout).expect("utf-8");
    assert!(
        csv.contains("\npetra,\"Petra Lind\",3,1464.05,151.52,yes,\n"),
        "{csv}"
    );
    std::fs::write(&list, &csv).expect("list");
    let verified = journal(
        &config,
        &["verify", "--ratings", list.to_str().expect("path")],
    );
    assert!(verified.status.success(), "{verified:?}");
    seeding_of_docs_events(&daemon);
    ratings_in_pgn(&daemon, &config);
    the_ratings_page(&daemon);
    the_players_own_page(&daemon, &petra_secret);
    the_desks_players_table(&daemon);
}

/// The arbiter's players table shows each rated player's rating as beside names elsewhere.
fn the_desks_players_table(daemon: &Daemon) {
    let http = daemon.http.expect("an http address");
    let cookie = crate::support::web::arbiter_cookie(http, ADMIN_SECRET).expect("arbiter login");
    let page = get_with(http, "/desk/players", &format!("Cookie: {cookie}\r\n"));
    assert_eq!(page.status, 200, "{}", page.body);
    let row = page
        .body
        .split("<tr data-player=\"petra\">")
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .expect("petra's row");
    assert!(row.contains(">1464?</td>"), "{row}");
}

/// A player's own page says their rating in effect and its deviation.
fn the_players_own_page(daemon: &Daemon, secret: &str) {
    let http = daemon.http.expect("an http address");
    let cookie = player_cookie(http, "petra", secret).expect("petra logs in");
    let page = get_with(
        http,
        "/play",
        &format!("Cookie: {cookie}\r\nAccept-Language: uk\r\n"),
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains("<a href=\"/ratings\">Рейтинг</a>: 1464? · Відхилення: 152"),
        "{}",
        page.body
    );
}

/// `journal export --format pgn` names the ratings in effect when a game started: none for the
/// club's games (started on 5 January, when the list in effect held nobody), Petra's 1464.05
/// and Bea's 1563.90, rounded, for the seeded cup's game between them, started on 1 April.
fn ratings_in_pgn(daemon: &Daemon, config: &Path) {
    let mut admin = daemon.connect();
    assert_eq!(admin.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    let (code, text) = admin.call("EVENT START cup26");
    assert_eq!(code, 250, "{text}");
    let export = |game: &str| {
        let out = journal(
            config,
            &["export", "--game", game, "--format", "pgn", "--unsigned"],
        );
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let club = export("club-r1b1");
    assert!(!club.contains("Rating \""), "{club}");
    // Seeded 1 carl, 2 bea, 3 petra, 4 alan: the first round's second board is Bea's and
    // Petra's.
    let cup = export("cup26-r1b2");
    let (petra, bea) = if cup.contains("[White \"Petra Lind\"]") {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    assert!(cup.contains(&format!("[{petra}Rating \"1464\"]")), "{cup}");
    assert!(cup.contains(&format!("[{bea}Rating \"1564\"]")), "{cup}");
    assert!(!cup.contains("Elo"), "{cup}");
}

/// docs/events.md's seeding example, said after the ratings example, as written.
fn seeding_of_docs_events(daemon: &Daemon) {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/events.md"))
        .expect("docs/events.md");
    let mut admin = daemon.connect();
    assert_eq!(admin.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    let mut last = String::new();
    for line in block(&doc, "text seeding-example").lines() {
        let (code, text) = admin.call(line);
        assert_eq!(code, 250, "{line}: {text}");
        last = text;
    }
    let expected = block(&doc, "text seeding-example-reply");
    let (before, after) = expected
        .trim_end()
        .split_once("...")
        .expect("the seed elided");
    // Without the receipt the reply ends with (` r23:5be01f9c03d2`).
    let last = match last.rsplit_once(' ') {
        Some((head, tail)) if tail.starts_with('r') && tail.contains(':') => head.to_owned(),
        _ => last,
    };
    assert!(last.starts_with(before) && last.ends_with(after), "{last}");
}

/// `/ratings` in Russian: the list's words from the catalog, Petra's row with her rating
/// marked provisional and her history drawn; sorted by name on asking; a bad sort refused.
fn the_ratings_page(daemon: &Daemon) {
    let http = daemon.http.expect("an http address");
    let page = get(http, "/ratings?lang=ru");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("Рейтинг-лист на 2026-04-01"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Отклонение"), "{}", page.body);
    let petra = page
        .body
        .split("<tr data-player=\"petra\">")
        .nth(1)
        .expect("petra's row");
    let row = petra.split("</tr>").next().expect("a row");
    assert!(row.contains("Petra Lind") && row.contains("1464?"), "{row}");
    assert!(row.contains("<svg class=\"history\""), "{row}");
    let by_name = get(http, "/ratings?sort=name").body;
    let (alan, carl) = (by_name.find("Alan Moss"), by_name.find("Carl Nyberg"));
    assert!(alan.is_some() && alan < carl, "{by_name}");
    assert_eq!(get(http, "/ratings?sort=luck").status, 400);
    // The event's crosstable names each player with the rating in effect.
    let event = get(http, "/events/club");
    assert_eq!(event.status, 200, "{}", event.body);
    let petra = event
        .body
        .split("<tr data-player=\"petra\">")
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .expect("petra's row");
    assert!(
        petra.contains("Petra Lind <span class=\"rating\">(1464?)</span>"),
        "{petra}"
    );
}
