//! An event run from start to finish while the relay runs, through the arbiter's words alone:
//! a configuration that holds nothing but the administrator, players registered with
//! `PLAYER ADD` (logging in with the secret it printed), events made, entered and started,
//! their pairings checked against Berger tables computed here another way (FIDE's own
//! construction, round by round), results, a withdrawal, a restart, and every refusal shown
//! to change nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::config::{ADMIN_SECRET, config_text_with};
use crate::support::daemon::Daemon;
use crate::support::http::raw;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;
use crate::support::process::ccrelay;

/// A daemon whose configuration has the administrator and nothing else.
fn admin_only() -> (tempfile::TempDir, PathBuf, Daemon) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(
        &config,
        config_text_with(&dir.path().join("data"), &[], &[], ""),
    )
    .expect("config");
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

/// Registers each player; their secrets, from the replies' last words.
fn add_players(admin: &mut Client, ids: &[&str]) -> BTreeMap<String, String> {
    ids.iter()
        .map(|id| {
            let text = ok(admin, &format!("PLAYER ADD {id} NAME \"Player {id}\""));
            let secret = text.split_whitespace().last().expect("a secret").to_owned();
            ((*id).to_owned(), secret)
        })
        .collect()
}

/// The entries in the journal, counted straight from the file.
fn entries(config: &Path) -> i64 {
    let db = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    conn.query_row("SELECT COUNT(*) FROM entries", [], |r| r.get(0))
        .expect("count")
}

/// `(round, game, white, black)` of each `round R: GAME WHITE - BLACK` line.
fn pairings(text: &str) -> Vec<(u32, String, String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("round "))
        .map(|l| {
            let (round, rest) = l.split_once(": ").expect("round: ...");
            let words: Vec<&str> = rest.split_whitespace().collect();
            (
                round.parse().expect("round number"),
                words[0].to_owned(),
                words[1].to_owned(),
                words[3].to_owned(),
            )
        })
        .collect()
}

/// The Berger tables built as FIDE describes them: round 1 is 1-n, 2-(n-1), ...; each next
/// round adds n/2 to every number but n (counting 1 to n-1 round), and the player meeting n
/// changes colour. An odd number plays against a bye (n), who sits out.
fn berger(entrants: &[&str]) -> BTreeSet<(u32, String, String)> {
    let n = entrants.len() + entrants.len() % 2;
    let mut round: Vec<(usize, usize)> = (1..=n / 2).map(|i| (i, n + 1 - i)).collect();
    let mut all = BTreeSet::new();
    for r in 1..n as u32 {
        for &(w, b) in &round {
            if w <= entrants.len() && b <= entrants.len() {
                all.insert((r, entrants[w - 1].to_owned(), entrants[b - 1].to_owned()));
            }
        }
        let shift = |x: usize| {
            if x == n {
                n
            } else {
                (x - 1 + n / 2) % (n - 1) + 1
            }
        };
        round = round
            .iter()
            .map(|&(w, b)| {
                let (w, b) = (shift(w), shift(b));
                if w == n || b == n { (b, w) } else { (w, b) }
            })
            .collect();
    }
    all
}

#[test]
fn the_test_tables_are_fides_printed_ones() {
    let four: BTreeSet<_> = [
        (1, "1", "4"),
        (1, "2", "3"),
        (2, "4", "3"),
        (2, "1", "2"),
        (3, "2", "4"),
        (3, "3", "1"),
    ]
    .iter()
    .map(|(r, w, b)| (*r, (*w).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(berger(&["1", "2", "3", "4"]), four);
    let six = berger(&["1", "2", "3", "4", "5", "6"]);
    for (r, w, b) in [
        (2, "6", "4"),
        (2, "5", "3"),
        (4, "6", "5"),
        (5, "5", "1"),
        (3, "4", "5"),
    ] {
        assert!(
            six.contains(&(r, w.to_owned(), b.to_owned())),
            "{r}: {w}-{b}"
        );
    }
    assert_eq!(six.len(), 15);
}

#[test]
fn a_round_robin_of_seven_with_a_bye_each_round_survives_a_restart() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let ids = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    let secrets = add_players(&mut a, &ids);
    ok(
        &mut a,
        r#"EVENT NEW club SYSTEM round-robin NAME "Club Championship 2026" TIME 10/50"#,
    );
    let entered = ok(&mut a, "EVENT ENTER club p1 p2 p3 p4 p5 p6 p7");
    assert!(entered.contains("1 p1, 2 p2"), "{entered}");
    let started = ok(&mut a, "EVENT START club");
    assert!(
        started.starts_with("event club started: 21 game(s) in 7 round(s)"),
        "{started}"
    );
    let games = pairings(&started);
    assert_eq!(games.len(), 21);
    let drawn: BTreeSet<(u32, String, String)> = games
        .iter()
        .map(|(r, _, w, b)| (*r, w.clone(), b.clone()))
        .collect();
    assert_eq!(drawn, berger(&ids), "the Berger tables");
    for round in 1..=7 {
        let playing: Vec<&String> = games
            .iter()
            .filter(|g| g.0 == round)
            .flat_map(|g| [&g.2, &g.3])
            .collect();
        assert_eq!(
            playing.len(),
            6,
            "three games in round {round}: one player sits out"
        );
    }

    // Each player logs in with the printed secret and is told of each of their six games.
    for id in ids {
        let mut c = daemon.connect();
        let (code, text) = c.call(&format!("LOGIN {id} {}", secrets[id]));
        assert_eq!(code, 230, "{id}: {text}");
        let told: BTreeSet<String> = (0..6)
            .map(|_| {
                let (_, push) = c.next_push();
                assert!(push.starts_with("GAME club-r"), "{push}");
                push.split_whitespace().nth(1).expect("game").to_owned()
            })
            .collect();
        let theirs: BTreeSet<String> = games
            .iter()
            .filter(|g| g.2 == id || g.3 == id)
            .map(|g| g.1.clone())
            .collect();
        assert_eq!(told, theirs, "{id}");
    }
    let (code, _) = daemon.connect().call("LOGIN p1 wrong-secret");
    assert_eq!(code, 430);

    // A restart keeps players, the event and its games.
    let show = ok(&mut a, "EVENT SHOW club");
    drop(a);
    drop(daemon);
    let daemon = Daemon::start(&config);
    let mut a = admin(&daemon);
    assert_eq!(ok(&mut a, "EVENT SHOW club"), show);
    let players = ok(&mut a, "PLAYERS");
    assert!(players.starts_with("7 player(s)"), "{players}");
    assert!(
        players.contains("p4 \"Player p4\" iccf tcp [registered]"),
        "{players}"
    );
    assert!(!players.contains(&secrets["p4"]), "no secret in the list");
    // Listed by id, whatever order the relay keeps them in.
    let ids: Vec<&str> = players
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "{players}");
    let mut p3 = daemon.connect();
    assert_eq!(p3.call(&format!("LOGIN p3 {}", secrets["p3"])).0, 230);
    let (code, text) = p3.call("GAMES");
    assert_eq!(code, 250, "{text}");
    assert!(text.starts_with("6 game(s)"), "{text}");
    drop(daemon);
    assert_journal_verifies(&config);
}

/// The standings line of `id` in `EVENT SHOW`: `PLACE ID P points, S-B Q, W win(s)`.
fn standing<'a>(show: &'a str, id: &str) -> &'a str {
    show.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(id) && l.contains("points"))
        .unwrap_or_else(|| panic!("no standing for {id} in {show}"))
}

#[test]
fn a_double_round_robin_of_four_with_results_and_tie_breaks_by_hand() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["w", "x", "y", "z"]);
    ok(&mut a, "EVENT NEW drr SYSTEM double-round-robin");
    ok(&mut a, "EVENT ENTER drr w x y z");
    let started = ok(&mut a, "EVENT START drr");
    let games = pairings(&started);
    assert_eq!(games.len(), 12);
    // The second cycle is the first with colours reversed.
    for (r, _, white, black) in games.iter().filter(|g| g.0 <= 3) {
        assert!(
            games
                .iter()
                .any(|g| g.0 == r + 3 && g.2 == *black && g.3 == *white),
            "round {r}: {white}-{black} reversed in round {}",
            r + 3
        );
    }
    // Round 1 is 1-4, 2-3: w-z and x-y. Three results: w beats z, x and y draw, and in
    // round 2 (4-3, 1-2: z-y and w-x) z beats y.
    let game = |white: &str, black: &str, round: u32| {
        games
            .iter()
            .find(|g| g.0 == round && g.2 == white && g.3 == black)
            .unwrap_or_else(|| panic!("no {white}-{black} in round {round}: {started}"))
            .1
            .clone()
    };
    ok(
        &mut a,
        &format!("ADJUDICATE {} 1-0 test result", game("w", "z", 1)),
    );
    ok(
        &mut a,
        &format!("ADJUDICATE {} 1/2-1/2 test result", game("x", "y", 1)),
    );
    ok(
        &mut a,
        &format!("ADJUDICATE {} 1-0 test result", game("z", "y", 2)),
    );
    // By hand, in half points: w 2, x 1, y 1, z 2. Sonneborn-Berger in quarters (each
    // result's half points times the opponent's): w = 2·z(2) = 4; z = 2·y(1) = 2; x =
    // 1·y(1) = 1; y = 1·x(1) = 1. Wins: w 1, z 1, x 0, y 0. So w first (S-B), z second; x and
    // y tie on everything and drew their game: they share 3-4.
    let show = ok(&mut a, "EVENT SHOW drr");
    assert_eq!(standing(&show, "w"), "    1 w 1 points, S-B 1, 1 win(s)");
    assert_eq!(standing(&show, "z"), "    2 z 1 points, S-B ½, 1 win(s)");
    assert_eq!(standing(&show, "x"), "  3-4 x ½ points, S-B ¼, 0 win(s)");
    assert_eq!(standing(&show, "y"), "  3-4 y ½ points, S-B ¼, 0 win(s)");
    // The official crosstable says the same, from the journal.
    let out = ccrelay()
        .args(["journal", "crosstable", "--event", "drr", "--config"])
        .arg(&config)
        .output()
        .expect("crosstable");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.contains(name) && l.contains('X'))
            .unwrap_or_else(|| panic!("no row for {name}: {table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    let w = row("Player w");
    assert_eq!(
        (w[0], &w[w.len() - 4..]),
        ("1", &["1", "1", "1", "1"][..]),
        "{table}"
    );
    let z = row("Player z");
    assert_eq!(
        (z[0], &z[z.len() - 4..]),
        ("2", &["1", "2", "½", "1"][..]),
        "{table}"
    );
    assert_eq!(row("Player x")[0], "3-4", "{table}");
    assert!(table.contains("round 1, board 1:"), "{table}");

    // The event's PGN: every game, with Event, Round and Board, signed.
    let out = ccrelay()
        .args([
            "journal", "export", "--event", "drr", "--format", "pgn", "--config",
        ])
        .arg(&config)
        .output()
        .expect("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert_eq!(pgn.matches("[Event \"drr\"]").count(), 12, "{pgn}");
    assert!(
        pgn.contains("[Round \"6\"]") && pgn.contains("[Board \"2\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[White \"Player w\"]"), "{pgn}");
    assert!(pgn.contains("% ccrelay-signature v1 "), "signed: {pgn}");
    assert!(!pgn.contains("argon2"), "no hash in an export");

    // The event's record: who registered, made, entered and started what, and when; the
    // secrets and their hashes are in no entry.
    let out = ccrelay()
        .args([
            "journal", "export", "--event", "drr", "--format", "text", "--config",
        ])
        .arg(&config)
        .output()
        .expect("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches(" player_add ").count(), 4, "{text}");
    for kind in [" event_new ", " event_enter ", " event_start "] {
        assert!(text.contains(kind), "{kind}: {text}");
    }
    assert!(text.contains("admin      tcp"), "by whom, on what: {text}");
    assert!(text.contains("drr-r6b2"), "{text}");
    assert!(!text.contains("argon2"), "no hash: {text}");
    for secret in secrets.values() {
        assert!(!text.contains(secret.as_str()), "no secret: {text}");
    }
}

#[test]
fn a_match_of_two_teams_pairs_board_against_board_with_both_colours() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    add_players(&mut a, &["k1", "k2", "s1", "s2"]);
    ok(
        &mut a,
        r#"EVENT NEW m1886 SYSTEM match NAME "Krasnoyarsk - Petersburg""#,
    );
    ok(&mut a, r#"EVENT ENTER m1886 TEAM "Krasnoyarsk" k1 k2"#);
    ok(&mut a, r#"EVENT ENTER m1886 TEAM "Petersburg" s1 s2"#);
    let games = pairings(&ok(&mut a, "EVENT START m1886"));
    let pairs: Vec<(u32, &str, &str)> = games
        .iter()
        .map(|(r, _, w, b)| (*r, w.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            (1, "k1", "s1"),
            (1, "s2", "k2"),
            (2, "s1", "k1"),
            (2, "k2", "s2")
        ]
    );
    ok(&mut a, "ADJUDICATE m1886-r1b1 1-0 test result");
    ok(&mut a, "ADJUDICATE m1886-r2b1 1/2-1/2 test result");
    let show = ok(&mut a, "EVENT SHOW m1886");
    assert!(show.contains("board 1: k1 1½ - ½ s1"), "{show}");
    assert!(
        show.contains("match: Krasnoyarsk 1½ - ½ Petersburg"),
        "{show}"
    );
    let out = ccrelay()
        .args(["journal", "crosstable", "--event", "m1886", "--config"])
        .arg(&config)
        .output()
        .expect("crosstable");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("MATCH Krasnoyarsk - Petersburg"), "{table}");
    assert!(
        table.contains("total: Krasnoyarsk 1½ - ½ Petersburg"),
        "{table}"
    );
}

#[test]
fn a_withdrawal_loses_the_unfinished_games_and_tells_everyone_concerned() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["r", "s", "t"]);
    ok(&mut a, "EVENT NEW wd SYSTEM round-robin");
    ok(&mut a, "EVENT ENTER wd r s t");
    let games = pairings(&ok(&mut a, "EVENT START wd"));
    let mut r = daemon.connect();
    assert_eq!(r.call(&format!("LOGIN r {}", secrets["r"])).0, 230);
    // r and s play out their game first: s's resignation stands.
    let rs = games
        .iter()
        .find(|g| {
            [&g.2, &g.3].contains(&&"r".to_owned()) && [&g.2, &g.3].contains(&&"s".to_owned())
        })
        .expect("r-s");
    ok(&mut a, &format!("ADJUDICATE {} 1/2-1/2 agreed", rs.1));
    let text = ok(&mut a, "EVENT WITHDRAW wd t illness");
    assert!(
        text.starts_with("t withdrawn from wd: 2 unfinished game(s) lost"),
        "{text}"
    );
    let withdrawn = (0..20)
        .map(|_| r.next_push().1)
        .find(|p| p.starts_with("WITHDRAWN wd"))
        .expect("r is told");
    assert!(
        withdrawn
            .starts_with("WITHDRAWN wd t withdrew (illness): their unfinished games are lost r"),
        "{withdrawn}"
    );
    let show = ok(&mut a, "EVENT SHOW wd");
    assert!(show.contains("withdrawn: t (illness)"), "{show}");
    assert!(standing(&show, "r").contains("1½ points"), "{show}");
    let (code, text) = a.call("EVENT WITHDRAW wd t again");
    assert_eq!(code, 404, "{text}");
    let out = ccrelay()
        .args(["journal", "crosstable", "--event", "wd", "--config"])
        .arg(&config)
        .output()
        .expect("crosstable");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("Withdrawn (unfinished games lost, marked + and -):"),
        "{table}"
    );
    assert!(table.contains("Player t: illness"), "{table}");
    let t_row = table
        .lines()
        .find(|l| l.contains("Player t"))
        .expect("t's row");
    assert_eq!(t_row.matches('-').count(), 2, "two forfeits: {t_row}");
}

#[test]
fn every_refusal_says_why_and_changes_nothing() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["a1", "a2", "a3", "b1"]);
    ok(&mut a, "EVENT NEW rr SYSTEM round-robin");
    ok(&mut a, "EVENT NEW two SYSTEM round-robin");
    ok(&mut a, "EVENT ENTER two a1 a2");
    ok(&mut a, "EVENT NEW mm SYSTEM match");
    ok(&mut a, "EVENT ENTER mm TEAM one a1 a2");
    ok(&mut a, "EVENT ENTER mm TEAM two b1");
    ok(&mut a, "EVENT ENTER rr a1 a2 a3");
    ok(&mut a, "EVENT START rr");
    let mut player = daemon.connect();
    assert_eq!(player.call(&format!("LOGIN a1 {}", secrets["a1"])).0, 230);
    let before = entries(&config);
    for (by_admin, line, code, why) in [
        (true, "PLAYER ADD a1", 409, "exists already"),
        (true, "PLAYER ADD admin", 409, "exists already"),
        (true, "PLAYER ADD bad!id", 400, "not a player id"),
        (true, "PLAYER ADD c1 NOTATION morse", 400, "player.notation"),
        (
            true,
            "PLAYER ADD c1 REACH email EMAIL c1@example.org",
            400,
            "no [email] section",
        ),
        (true, "PLAYER SET nobody NAME x", 404, "no player"),
        (true, "EVENT NEW rr SYSTEM match", 409, "exists already"),
        (
            true,
            "EVENT NEW bad SYSTEM round-robin TIME forever",
            400,
            "event.time_control",
        ),
        (true, "EVENT ENTER nothing a1", 404, "no event"),
        (true, "EVENT ENTER two nobody", 404, "no player"),
        (true, "EVENT ENTER two a1", 409, "entered in two already"),
        (true, "EVENT ENTER two a3 a3", 400, "named twice"),
        (true, "EVENT ENTER mm b1", 400, "entered by team"),
        (
            true,
            "EVENT ENTER mm TEAM three a3",
            409,
            "two teams already",
        ),
        (true, "EVENT START rr", 409, "has started"),
        (true, "EVENT ENTER rr b1", 409, "has started"),
        (true, "EVENT START two", 422, "at least 3 players"),
        (true, "EVENT START mm", 422, "two teams of equal size"),
        (
            false,
            "EVENT NEW x SYSTEM round-robin",
            403,
            "only the arbiter",
        ),
        (false, "EVENT START two", 403, "only the arbiter"),
        (false, "PLAYER ADD c1", 403, "only the arbiter"),
        (false, "PLAYERS", 403, "only the arbiter"),
    ] {
        let client = if by_admin { &mut a } else { &mut player };
        let (got, text) = client.call(line);
        assert_eq!(got, code, "{line}: {text}");
        assert!(text.contains(why), "{line}: {text}");
        assert_eq!(entries(&config), before, "{line} changed the journal");
    }
    // Nothing else changed either: the pending events still start as they were.
    ok(&mut a, "EVENT ENTER two a3");
    assert!(ok(&mut a, "EVENT START two").contains("3 game(s)"));
}

#[test]
fn a_player_changes_their_own_secret_only_over_a_private_wire() {
    let (_dir, _config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["q"]);
    // From this machine the wire is private.
    let mut q = daemon.connect();
    assert_eq!(q.call(&format!("LOGIN q {}", secrets["q"])).0, 230);
    let (code, text) = q.call("SECRET too-short");
    assert_eq!(code, 400, "{text}");
    let (code, text) = q.call("SECRET correct-horse-battery-staple");
    assert_eq!(code, 250, "{text}");
    assert_eq!(
        daemon
            .connect()
            .call(&format!("LOGIN q {}", secrets["q"]))
            .0,
        430
    );
    assert_eq!(
        daemon
            .connect()
            .call("LOGIN q correct-horse-battery-staple")
            .0,
        230
    );
    // The arbiter's new secret replaces it, at once.
    let text = ok(&mut a, "PLAYER SECRET q");
    let new = text.split_whitespace().last().unwrap();
    assert_eq!(
        daemon
            .connect()
            .call("LOGIN q correct-horse-battery-staple")
            .0,
        430
    );
    assert_eq!(daemon.connect().call(&format!("LOGIN q {new}")).0, 230);
}

/// The event's web page lists the pairings by round, the crosstable has its tie-break
/// columns, and the event's PGN is served whole.
#[test]
fn the_event_page_lists_the_pairings_by_round() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let mut text = config_text_with(&dir.path().join("data"), &[], &[], "");
    text.push_str("[http]\nlisten = \"127.0.0.1:0\"\n");
    std::fs::write(&config, text).expect("config");
    let daemon = Daemon::start(&config);
    let http = daemon.http.expect("http");
    let mut a = admin(&daemon);
    add_players(&mut a, &["e1", "e2", "e3", "e4"]);
    ok(&mut a, r#"EVENT NEW web SYSTEM round-robin NAME "Web Cup""#);
    ok(&mut a, "EVENT ENTER web e1 e2 e3 e4");
    ok(&mut a, "EVENT START web");
    ok(&mut a, "ADJUDICATE web-r1b1 1-0 test result");
    let page = raw(
        http,
        b"GET /events/web HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Web Cup"), "{}", page.body);
    assert!(page.body.contains("Pairings by round"), "{}", page.body);
    for round in 1..=3 {
        assert!(
            page.body.contains(&format!("Round {round}")),
            "{}",
            page.body
        );
    }
    assert!(page.body.contains("Player e1 – Player e4"), "{}", page.body);
    assert!(
        page.body.contains("<th class=\"num\">Wins</th>"),
        "{}",
        page.body
    );
    let pgn = raw(
        http,
        b"GET /events/web.pgn HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(pgn.status, 200);
    assert_eq!(
        pgn.body.matches("[Event \"Web Cup\"]").count(),
        6,
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("[Board \"2\"]"), "{}", pgn.body);
}

/// A script runs an event through `ccrelay admin` on the relay's machine, with no TCP session
/// and no secret: the printed secret (the last word of `PLAYER ADD`'s output) logs in.
#[test]
fn a_script_runs_an_event_through_ccrelay_admin() {
    use std::io::Write;
    let (_dir, config, daemon) = admin_only();
    let add = ccrelay()
        .args(["admin", "--config"])
        .arg(&config)
        .args(["PLAYER", "ADD", "zed", "NAME", "Zed Zeller"])
        .output()
        .expect("ccrelay admin");
    assert!(add.status.success(), "{add:?}");
    let printed = String::from_utf8_lossy(&add.stdout);
    let secret = printed.split_whitespace().last().expect("a secret");
    assert!(printed.contains("player zed registered"), "{printed}");
    assert_eq!(daemon.connect().call(&format!("LOGIN zed {secret}")).0, 230);
    let mut script = ccrelay()
        .args(["admin", "--config"])
        .arg(&config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("ccrelay admin");
    script
        .stdin
        .take()
        .expect("stdin")
        .write_all(
            b"# a small event\nPLAYER ADD yan\nPLAYER ADD xia\nEVENT NEW tiny SYSTEM round-robin NAME \"Tiny Cup\"\nEVENT ENTER tiny zed yan xia\nEVENT START tiny\n",
        )
        .expect("write");
    let out = script.wait_with_output().expect("ran");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("event tiny started: 3 game(s) in 3 round(s)"),
        "{text}"
    );
    // A refusal ends the script with exit 1 and changes nothing.
    let before = entries(&config);
    let refused = ccrelay()
        .args(["admin", "--config"])
        .arg(&config)
        .args(["EVENT", "START", "tiny"])
        .output()
        .expect("ccrelay admin");
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert_eq!(entries(&config), before);
}

/// Regression: `EVENT WITHDRAW`'s reason and `EVENT ENTER ... TEAM`'s name skipped the text
/// check: escape codes forging a push, U+202E and U+2028 reached a player's push, `EVENT
/// SHOW`, the crosstable and the PGN comment, and a 150-character team name was taken where
/// other names stop at 100. Each is refused with the check's reason, and nothing changes:
/// the journal is as it was, nobody is pushed anything, the withdrawal then goes.
#[test]
fn a_withdrawal_reason_or_team_name_the_text_check_refuses_changes_nothing() {
    let (_dir, config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["r", "s", "t", "k1", "s1"]);
    ok(&mut a, "EVENT NEW wd SYSTEM round-robin");
    ok(&mut a, "EVENT ENTER wd r s t");
    ok(&mut a, "EVENT START wd");
    ok(&mut a, "EVENT NEW m1 SYSTEM match");
    let mut r = daemon.connect();
    assert_eq!(r.call(&format!("LOGIN r {}", secrets["r"])).0, 230);
    let before = entries(&config);
    let team = "T".repeat(150);
    for (line, why) in [
        (
            "EVENT WITHDRAW wd t \u{1b}[2K\u{1b}[1G* 99 RESULT wd 1-0".to_owned(),
            "a reason may not hold control characters",
        ),
        (
            "EVENT WITHDRAW wd t ill\u{202E}ssenli".to_owned(),
            "a reason may not hold characters that reorder text",
        ),
        (
            "EVENT WITHDRAW wd t ill\u{2028}* 99 RESULT".to_owned(),
            "a reason may not hold line or paragraph separators",
        ),
        (
            format!("EVENT ENTER m1 TEAM \"{team}\" k1"),
            "a name has at most 100 characters",
        ),
        (
            "EVENT ENTER m1 TEAM \"Kras\u{202E}noyarsk\" k1".to_owned(),
            "a name may not hold characters that reorder text",
        ),
    ] {
        let (code, text) = a.call(&line);
        assert_eq!(code, 400, "{line:?}: {text}");
        assert!(text.contains(why), "{line:?}: {text}");
        assert_eq!(entries(&config), before, "{line:?} changed the journal");
    }
    // r was pushed nothing: the first push r sees is the withdrawal that goes.
    let text = ok(&mut a, "EVENT WITHDRAW wd t illness");
    assert!(text.starts_with("t withdrawn from wd"), "{text}");
    let withdrawn = (0..20)
        .map(|_| r.next_push().1)
        .find(|p| p.starts_with("WITHDRAWN wd"))
        .expect("r is told");
    assert!(withdrawn.contains("(illness)"), "{withdrawn}");
    ok(&mut a, "EVENT ENTER m1 TEAM \"Krasnoyarsk\" k1");
    ok(&mut a, "EVENT ENTER m1 TEAM \"Petersburg\" s1");
    let show = ok(&mut a, "EVENT SHOW wd");
    assert!(
        !show.contains('\u{1b}') && !show.contains('\u{202E}'),
        "{show}"
    );
}

/// Regression: `EVENT SHOW` of a private event answered 403 to a player not in it and 404
/// for an event that does not exist, so an id told whether it existed. Now, as for games, an
/// event whose games spectators may not see is answered as one that does not exist, word for
/// word; a public event's answer says the player does not play in it.
#[test]
fn event_show_of_a_hidden_event_reveals_nothing_to_a_non_entrant() {
    let (_dir, _config, daemon) = admin_only();
    let mut a = admin(&daemon);
    let secrets = add_players(&mut a, &["p", "q", "x", "u"]);
    ok(&mut a, "EVENT NEW hid SYSTEM round-robin VIEW private");
    ok(&mut a, "EVENT ENTER hid p q x");
    ok(&mut a, "EVENT START hid");
    ok(&mut a, "EVENT NEW fin SYSTEM round-robin VIEW finished");
    ok(&mut a, "EVENT ENTER fin p q x");
    ok(&mut a, "EVENT START fin");
    ok(&mut a, "EVENT NEW open SYSTEM round-robin");
    ok(&mut a, "EVENT ENTER open p q x");
    ok(&mut a, "EVENT START open");
    let mut u = daemon.connect();
    assert_eq!(u.call(&format!("LOGIN u {}", secrets["u"])).0, 230);
    let (none_code, none) = u.call("EVENT SHOW nosuch");
    assert_eq!(none_code, 404, "{none}");
    for hidden in ["hid", "fin"] {
        let (code, text) = u.call(&format!("EVENT SHOW {hidden}"));
        assert_eq!(code, none_code, "{hidden}: {text}");
        assert_eq!(text.replace(hidden, "nosuch"), none, "{hidden}");
    }
    let (code, text) = u.call("EVENT SHOW open");
    assert_eq!(code, 403, "{text}");
    assert!(text.contains("you do not play in event open"), "{text}");
    // An entrant and the arbiter are answered as ever.
    let mut p = daemon.connect();
    assert_eq!(p.call(&format!("LOGIN p {}", secrets["p"])).0, 230);
    assert!(ok(&mut p, "EVENT SHOW hid").starts_with("event hid"));
    assert!(ok(&mut a, "EVENT SHOW fin").starts_with("event fin"));
}
