//! Knock-out events run through the daemon to their final by results alone: brackets of 5,
//! 8 and 13 entrants (byes to the top seeds, the standard placement), each round's games
//! started by the relay as the matches feeding them are decided, a level match decided by the
//! extra pair and one by the lot, a withdrawal, a restart in the middle, the exported record,
//! the bracket drawn on the event page, and `journal verify` over all of it. docs/events.md's
//! knock-out example is run as written.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::support::config::{ADMIN_SECRET, config_text_with};
use crate::support::daemon::Daemon;
use crate::support::http::get;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;
use crate::support::process::ccrelay;

/// A daemon whose configuration has the administrator and a web server, nothing else.
fn admin_only() -> (tempfile::TempDir, PathBuf, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), &[], &[], "");
    text.push_str("[http]\nlisten = \"127.0.0.1:0\"\n");
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    (dir, config, daemon)
}

fn admin(daemon: &Daemon) -> Client {
    let mut c = daemon.connect();
    let (code, text) = c.call(&format!("LOGIN admin {ADMIN_SECRET}"));
    assert_eq!(code, 230, "{text}");
    c
}

fn ok(client: &mut Client, line: &str) -> String {
    let (code, text) = client.call(line);
    assert_eq!(code, 250, "{line}: {text}");
    text
}

/// Registers `p1` .. `pN` and enters them in that order (their seeds) in a new knock-out
/// `event`; their secrets.
fn cup(a: &mut Client, event: &str, n: usize) -> BTreeMap<String, String> {
    let mut secrets = BTreeMap::new();
    for i in 1..=n {
        let text = ok(a, &format!("PLAYER ADD {event}p{i} NAME \"Player {i}\""));
        let secret = text.split_whitespace().last().expect("a secret").to_owned();
        secrets.insert(format!("{event}p{i}"), secret);
    }
    ok(
        a,
        &format!("EVENT NEW {event} SYSTEM knockout NAME \"Cup {n}\" TIME 10/50"),
    );
    let ids: Vec<String> = (1..=n).map(|i| format!("{event}p{i}")).collect();
    ok(a, &format!("EVENT ENTER {event} {}", ids.join(" ")));
    secrets
}

/// `(game, white, black, result)` of each `round R: GAME WHITE - BLACK RESULT` line.
fn games(show: &str) -> Vec<(String, String, String, String)> {
    show.lines()
        .filter_map(|l| l.strip_prefix("round "))
        .filter_map(|l| l.split_once(": "))
        .map(|(_, rest)| {
            let w: Vec<&str> = rest.split_whitespace().collect();
            (
                w[0].to_owned(),
                w[1].to_owned(),
                w[3].to_owned(),
                w.get(4).copied().unwrap_or("*").to_owned(),
            )
        })
        .collect()
}

/// A player's seed: the number after the event's `p`.
fn seed(event: &str, player: &str) -> usize {
    player[event.len() + 1..].parse().expect("a seed")
}

/// Ends every unfinished game of `event` whose id starts with `only` by the arbiter's
/// adjudication: `rule` names the result of a game (by its id, White and Black), or the
/// better seed wins; again and again, as the relay starts the games that come due, until no
/// such game is left unfinished. The games adjudicated, in order.
fn play_out(
    a: &mut Client,
    event: &str,
    only: &str,
    rule: &dyn Fn(&str, &str, &str) -> Option<&'static str>,
) -> Vec<String> {
    let mut done = Vec::new();
    for _ in 0..64 {
        let show = ok(a, &format!("EVENT SHOW {event}"));
        let open: Vec<_> = games(&show)
            .into_iter()
            .filter(|(game, _, _, result)| result == "*" && game.starts_with(only))
            .collect();
        if open.is_empty() {
            return done;
        }
        for (game, white, black, _) in open {
            let result = rule(&game, &white, &black).unwrap_or(
                if seed(event, &white) < seed(event, &black) {
                    "1-0"
                } else {
                    "0-1"
                },
            );
            ok(a, &format!("ADJUDICATE {game} {result} by rule"));
            done.push(game);
        }
    }
    panic!("{event} did not finish");
}

/// The bracket's line of match `m` in round `r`'s block.
fn match_line(show: &str, r: u32, m: u32) -> &str {
    let mut round = 0;
    for line in show.lines() {
        if line.starts_with(&format!("round {r} (")) {
            round = r;
        } else if line.starts_with("round ") && line.contains(" (") {
            round = 0;
        }
        if round == r && line.starts_with(&format!("  m{m}: ")) {
            return line;
        }
    }
    panic!("no match {m} of round {r} in {show}");
}

#[test]
fn five_entrants_give_three_byes_and_play_through_to_the_final() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    cup(&mut a, "k5", 5);
    let started = ok(&mut a, "EVENT START k5");
    assert!(
        started.starts_with("event k5 started: a bracket of 8 places, 3 round(s); 4 game(s) now"),
        "{started}"
    );
    // 4 v 5 in the first round, and 2 v 3 in the second at once: their byes sent them on.
    for line in [
        "round 1: k5-r1m2g1 k5p4 - k5p5",
        "round 1: k5-r1m2g2 k5p5 - k5p4",
        "round 2: k5-r2m2g1 k5p2 - k5p3",
        "round 2: k5-r2m2g2 k5p3 - k5p2",
    ] {
        assert!(started.contains(line), "{line}: {started}");
    }
    let show = ok(&mut a, "EVENT SHOW k5");
    assert_eq!(
        match_line(&show, 1, 1),
        "  m1: 1 k5p1 bye: k5p1 goes on (bye)"
    );
    assert_eq!(
        match_line(&show, 1, 3),
        "  m3: 2 k5p2 bye: k5p2 goes on (bye)"
    );
    assert_eq!(match_line(&show, 2, 1), "  m1: 1 k5p1 ?: waiting");
    // The better seed wins each game, but in the final's first pair White wins each: the
    // extra pair decides it.
    play_out(&mut a, "k5", "k5", &|game, _, _| {
        ["k5-r3m1g1", "k5-r3m1g2"].contains(&game).then_some("1-0")
    });
    let show = ok(&mut a, "EVENT SHOW k5");
    assert!(show.ends_with("winner: k5p1"), "{show}");
    assert!(
        match_line(&show, 3, 1).starts_with("  m1: 1 k5p1 3 - 1 2 k5p2"),
        "{show}"
    );
    assert!(
        match_line(&show, 3, 1).contains("k5p1 goes on (extra games)"),
        "{show}"
    );
    drop(a);
    drop(daemon);
    assert_journal_verifies(&config);
}

#[test]
fn eight_entrants_with_a_match_decided_by_the_extra_pair_one_by_lot_and_a_restart() {
    let (_dir, config, mut daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = cup(&mut a, "k8", 8);
    let started = ok(&mut a, "EVENT START k8");
    assert!(
        started.starts_with("event k8 started: a bracket of 8 places, 3 round(s); 8 game(s) now"),
        "{started}"
    );
    // The standard placement: 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    for (m, upper, lower) in [(1, 1, 8), (2, 4, 5), (3, 2, 7), (4, 3, 6)] {
        let line = format!("round 1: k8-r1m{m}g1 k8p{upper} - k8p{lower}");
        assert!(started.contains(&line), "{line}: {started}");
    }
    // Seed 1 resigns its first game (with White) over the line protocol.
    let mut p1 = daemon.connect();
    assert_eq!(p1.call(&format!("LOGIN k8p1 {}", secrets["k8p1"])).0, 230);
    let (code, text) = p1.call("RESIGN k8-r1m1g1");
    assert_eq!(code, 250, "{text}");
    // 4 v 5: each wins with White, then a draw and a win for 5: the extra pair decides.
    // 2 v 7: four draws: the lot decides.
    let rule = |game: &str, _: &str, _: &str| match game {
        "k8-r1m1g2" => Some("1-0"),
        "k8-r1m2g1" | "k8-r1m2g2" => Some("1-0"),
        "k8-r1m2g3" => Some("1/2-1/2"),
        "k8-r1m2g4" => Some("1-0"),
        g if g.starts_with("k8-r1m3g") => Some("1/2-1/2"),
        _ => None,
    };
    // Round 1 only, then a restart.
    play_out(&mut a, "k8", "k8-r1", &rule);
    let show = ok(&mut a, "EVENT SHOW k8");
    assert!(
        match_line(&show, 1, 1).starts_with("  m1: 1 k8p1 0 - 2 8 k8p8: k8p8 goes on (games)"),
        "{show}"
    );
    assert_eq!(
        match_line(&show, 1, 2),
        "  m2: 4 k8p4 1½ - 2½ 5 k8p5: k8p5 goes on (extra games) \
         [k8-r1m2g1 1-0, k8-r1m2g2 1-0, k8-r1m2g3 1/2-1/2, k8-r1m2g4 1-0]"
    );
    let lot_line = match_line(&show, 1, 3);
    assert!(
        lot_line.starts_with("  m3: 2 k8p2 2 - 2 7 k8p7: ") && lot_line.contains(" goes on (lot) "),
        "{show}"
    );
    let lucky = if lot_line.contains("k8p2 goes on") {
        "k8p2"
    } else {
        "k8p7"
    };
    // The second round's games started as the first round's matches were decided.
    assert!(show.contains("round 2: k8-r2m1g1 k8p8 - k8p5"), "{show}");
    assert!(
        show.contains(&format!("round 2: k8-r2m2g1 {lucky} - k8p3")),
        "{show}"
    );

    // A restart: the bracket is rebuilt from the record, nothing is started twice.
    drop(p1);
    drop(a);
    daemon.terminate();
    let daemon = Daemon::start(&config);
    let mut a = admin(&daemon);
    assert_eq!(ok(&mut a, "EVENT SHOW k8"), show, "after a restart");

    play_out(&mut a, "k8", "k8", &|_, _, _| None);
    let show = ok(&mut a, "EVENT SHOW k8");
    assert!(show.contains("round 3 (final)"), "{show}");
    let winner = show.lines().last().expect("a line");
    assert!(winner.starts_with("winner: "), "{show}");

    // The exported record holds the bracket and the lot's entry with its seed.
    drop(a);
    drop(daemon);
    let out = ccrelay()
        .args([
            "journal", "export", "--event", "k8", "--format", "text", "--config",
        ])
        .arg(&config)
        .output()
        .expect("export");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(knockout)"), "{text}");
    assert!(text.contains("Bracket:"), "{text}");
    assert!(text.contains(lot_line.trim()), "{text}");
    assert!(text.contains(&format!("  {winner}")), "{text}");
    assert!(
        text.contains("event_lot") && text.contains("\"seed\":"),
        "{text}"
    );
    let pgn = ccrelay()
        .args([
            "journal", "export", "--event", "k8", "--format", "pgn", "--config",
        ])
        .arg(&config)
        .output()
        .expect("export");
    assert!(pgn.status.success(), "{pgn:?}");
    // 2 + 4 + 4 + 2 first-round games, 2 a semi-final at least, 2 the final at least.
    let pgn = String::from_utf8_lossy(&pgn.stdout);
    assert!(pgn.matches("[Event ").count() >= 16, "{pgn}");
    assert_journal_verifies(&config);
}

#[test]
fn thirteen_entrants_give_the_top_three_seeds_byes_and_a_withdrawal_sends_the_other_on() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    cup(&mut a, "k13", 13);
    let started = ok(&mut a, "EVENT START k13");
    assert!(
        started
            .starts_with("event k13 started: a bracket of 16 places, 4 round(s); 10 game(s) now"),
        "{started}"
    );
    let show = ok(&mut a, "EVENT SHOW k13");
    for (m, line) in [
        (1, "  m1: 1 k13p1 bye: k13p1 goes on (bye)"),
        (2, "  m2: 8 k13p8 0 - 0 9 k13p9: playing"),
        (3, "  m3: 4 k13p4 0 - 0 13 k13p13: playing"),
        (5, "  m5: 2 k13p2 bye: k13p2 goes on (bye)"),
        (7, "  m7: 3 k13p3 bye: k13p3 goes on (bye)"),
    ] {
        assert!(match_line(&show, 1, m).starts_with(line), "{m}: {show}");
    }
    // Seed 4 wins their first game, then withdraws: the second is lost, and 13 goes on
    // without an extra pair.
    ok(&mut a, "ADJUDICATE k13-r1m3g1 1-0 won");
    let withdrawn = ok(&mut a, "EVENT WITHDRAW k13 k13p4 moved away");
    assert!(
        withdrawn.contains("1 unfinished game(s) lost"),
        "{withdrawn}"
    );
    let show = ok(&mut a, "EVENT SHOW k13");
    assert!(
        match_line(&show, 1, 3)
            .starts_with("  m3: 4 k13p4 1 - 1 13 k13p13: k13p13 goes on (withdrawal)"),
        "{show}"
    );
    play_out(&mut a, "k13", "k13", &|_, _, _| None);
    let show = ok(&mut a, "EVENT SHOW k13");
    assert!(show.contains("round 4 (final)"), "{show}");
    assert!(show.ends_with("winner: k13p1"), "{show}");
    assert!(
        match_line(&show, 4, 1).starts_with("  m1: 1 k13p1 2 - 0 2 k13p2"),
        "{show}"
    );

    // The event page draws the bracket as an image, with the winner named.
    let http = daemon.http.expect("http");
    let page = get(http, "/events/k13");
    assert_eq!(page.status, 200, "{}", page.body);
    let page = page.body;
    assert!(page.contains("<svg class=\"bracket\""), "{page}");
    assert!(page.contains("data-player=\"k13p1\""), "{page}");
    assert!(
        page.contains("Quarter-finals") && page.contains(">Final<"),
        "{page}"
    );
    assert!(!page.contains("style="), "no inline style: {page}");
    let ru = get(http, "/events/k13?lang=ru").body;
    assert!(ru.contains("Сетка") && ru.contains("Финал"), "{ru}");
    drop(a);
    drop(daemon);
    assert_journal_verifies(&config);
}

/// The lines of docs/events.md's code block whose info string is `info`.
fn block(doc: &str, info: &str) -> String {
    let opening = format!("```{info}\n");
    let start = doc
        .find(&opening)
        .unwrap_or_else(|| panic!("no ```{info} block"))
        + opening.len();
    let end = doc[start..].find("```").expect("a closing fence") + start;
    doc[start..end].to_owned()
}

#[test]
fn the_knockout_example_runs_as_written() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/events.md"))
        .expect("docs/events.md");
    let words = block(&doc, "text knockout-example");
    let expected = block(&doc, "text knockout-example-bracket");
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let mut last = String::new();
    for line in words.lines().filter(|l| !l.trim().is_empty()) {
        last = ok(&mut a, line);
    }
    assert!(
        last.ends_with(expected.trim_end()),
        "the document's bracket:\n{expected}\nthe relay's:\n{last}"
    );
    drop(a);
    drop(daemon);
    assert_journal_verifies(&config);
}

/// A four-player cup played to its final, and its page in a real browser (chromium through
/// WebDriver): the bracket is drawn (three matches, the lines between them, the winner), at a
/// size the page shows, under the pages' Content-Security-Policy.
#[test]
fn the_bracket_is_drawn_in_a_browser() {
    use crate::support::browser::{Driver, browser, text_of, wait_for};
    let (_dir, _config, daemon) = admin_only();
    let http = daemon.http.expect("http");
    let mut a = admin(&daemon);
    cup(&mut a, "kb", 4);
    ok(&mut a, "EVENT START kb");
    play_out(&mut a, "kb", "kb", &|_, _, _| None);
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let c = browser(&driver).await;
        c.goto(&format!("http://{http}/events/kb"))
            .await
            .expect("goto");
        let drawn = wait_for(&c, std::time::Duration::from_secs(10), async |c| {
            text_of(c, "return String(document.querySelectorAll('svg.bracket g.match').length);")
                .await
                == "3"
        })
        .await;
        assert!(drawn, "three matches drawn");
        let size = text_of(
            &c,
            "var r=document.querySelector('svg.bracket').getBoundingClientRect();\
             return r.width > 300 && r.height > 100 ? 'shown' : (r.width + 'x' + r.height);",
        )
        .await;
        assert_eq!(size, "shown");
        let lines = text_of(
            &c,
            "return String(document.querySelectorAll('svg.bracket path').length);",
        )
        .await;
        assert_eq!(lines, "3", "a line from each match");
        let champion = text_of(
            &c,
            "return document.querySelector('svg.bracket text.champion').textContent;",
        )
        .await;
        assert_eq!(champion, "Player 1");
        let bold = text_of(
            &c,
            "return document.querySelector('svg.bracket g.match[data-round=\"2\"] text[font-weight=\"bold\"]').textContent;",
        )
        .await;
        assert_eq!(bold, "1 Player 1", "the winner of the final in bold");
        c.close().await.expect("close");
    });
}
