//! The arbiter runs an event from the desk in a real browser (Debian's chromium through
//! WebDriver): from the login on, four players added (one reached by mail), a double round
//! robin made with a silence limit the arbiter decides, the players entered, lots drawn and
//! the event started; the manual clock moved past the silence limit over the line protocol
//! and the games shown waiting for the arbiter; one adjudicated; a player withdrawn after the
//! standings now and after are shown; the crosstable downloaded. Each step is checked in the
//! journal (channel `http`, the admin's command) and in what the line protocol shows the
//! admin. The desk fits a phone's width (390 px) with no sideways scroll.
//!
//! With `CCRELAY_SCREENSHOTS=1` the test also writes docs/screenshots/desk-desktop.png and
//! desk-phone.png (what docs/web.md shows); without it, it only checks that the browser takes
//! them.

use std::path::Path;
use std::time::Duration;

use fantoccini::{Client, Locator};

use crate::support::browser::{Driver, browser, text_of, type_into, viewport, wait_for};
use crate::support::config::ADMIN_SECRET;
use crate::support::line::{Client as Line, ok};
use crate::support::web::start_with;
use crate::web_desk::journal;

const WAIT: Duration = Duration::from_secs(10);

/// A manual clock, and mail that goes nowhere (the welcome waits in the outbox).
const EXTRA: &str = "[clock]\nmode = \"manual\"\nstart = \"2027-03-01T09:00:00Z\"\n\
    [email]\naddress = \"relay@ccrelay.test\"\npoll_interval_secs = 60\nmaildir = \"MAILDIR\"\n\
    [email.smtp]\nserver = \"127.0.0.1\"\nport = 1\ntls = \"none\"\n";

/// The text of the element `css` (empty when there is none).
async fn text(c: &Client, css: &str) -> String {
    let value = c
        .execute(
            "var e=document.querySelector(arguments[0]);return e?e.textContent:'';",
            vec![css.into()],
        )
        .await
        .expect("script");
    value.as_str().unwrap_or_default().to_owned()
}

async fn goto(c: &Client, base: &str, path: &str) {
    c.goto(&format!("{base}{path}")).await.expect("goto");
}

/// Chooses `value` in the `<select>` `css`.
async fn choose(c: &Client, css: &str, value: &str) {
    let e = c.find(Locator::Css(css)).await.expect(css);
    e.select_by_value(value).await.expect("choose");
}

/// Clicks `css` and waits for the page it leads to (the old page's mark gone, the new one
/// loaded).
async fn submit(c: &Client, css: &str) {
    c.execute("window.oldPage = true;", vec![])
        .await
        .expect("mark");
    c.find(Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect("click");
    let loaded = wait_for(c, WAIT, async |c| {
        let state = c
            .execute(
                "return !window.oldPage && document.readyState === 'complete' && !!document.getElementById('main');",
                vec![],
            )
            .await;
        matches!(state, Ok(serde_json::Value::Bool(true)))
    })
    .await;
    assert!(loaded, "no page after clicking {css}");
}

/// The answer the desk shows after a form.
async fn answer(c: &Client) -> String {
    text(c, "#answer samp").await
}

/// The last journal entry: (channel, player, kind, text).
fn last_entry(config: &Path) -> (String, String, String, String) {
    journal(config).pop().expect("an entry")
}

async fn log_in(c: &Client, base: &str) {
    goto(c, base, "/login").await;
    type_into(c, "input[name=secret]", ADMIN_SECRET).await;
    submit(c, "form[action='/login'] button").await;
    goto(c, base, "/desk").await;
    assert!(text(c, "nav.desk").await.contains("Players"));
}

/// Adds a player from the players' page; their secret, as its page shows it once.
async fn add_player(c: &Client, base: &str, id: &str, mail: Option<&str>) -> String {
    goto(c, base, "/desk/players").await;
    type_into(c, "#add-player input[name=id]", id).await;
    type_into(c, "#add-player input[name=name]", &format!("Player {id}")).await;
    choose(c, "#add-player select[name=notation]", "san").await;
    if let Some(address) = mail {
        choose(c, "#add-player select[name=reach]", "email").await;
        type_into(c, "#add-player input[name=email]", address).await;
    }
    submit(c, "#add-player button").await;
    let secret = text(c, "#secret").await;
    assert!(secret.len() >= 12, "{}", answer(c).await);
    assert!(answer(c).await.contains(&secret));
    secret
}

async fn players(c: &Client, base: &str, config: &Path, admin: &mut Line) {
    for (id, mail) in [
        ("dan", None),
        ("eva", None),
        ("fay", None),
        ("gil", Some("gil@example.org")),
    ] {
        let secret = add_player(c, base, id, mail).await;
        let entry = last_entry(config);
        assert_eq!((entry.0.as_str(), entry.1.as_str()), ("http", "admin"));
        assert!(
            entry.3.starts_with(&format!("PLAYER ADD {id}")),
            "{entry:?}"
        );
        assert!(
            !entry.3.contains(&secret),
            "the secret is not in the record"
        );
    }
    let listed = ok(admin, "PLAYERS");
    assert!(
        listed.contains("gil \"Player gil\" san email <gil@example.org>"),
        "{listed}"
    );
    goto(c, base, "/desk/players?q=gil").await;
    assert_eq!(text(c, "#players tbody tr td").await, "gil");
}

async fn event(c: &Client, base: &str, config: &Path, admin: &mut Line) {
    goto(c, base, "/desk/events").await;
    type_into(c, "#event-form input[name=id]", "drr").await;
    choose(c, "#event-form select[name=system]", "double-round-robin").await;
    type_into(c, "#event-form input[name=name]", "Desk Cup").await;
    type_into(c, "#event-form input[name=time_control]", "10/50").await;
    type_into(c, "#event-form input[name=silence_days]", "10").await;
    choose(c, "#event-form select[name=on_timeout]", "arbiter").await;
    submit(c, "#event-form button").await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    assert!(
        last_entry(config)
            .3
            .starts_with("EVENT NEW drr SYSTEM double-round-robin")
    );
    assert!(ok(admin, "EVENTS").contains("drr \"Desk Cup\""));
    for id in ["dan", "eva", "fay", "gil"] {
        c.find(Locator::Css(&format!("#enter input[value={id}]")))
            .await
            .expect("a box")
            .click()
            .await
            .expect("tick");
    }
    submit(c, "#enter button").await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    assert_eq!(last_entry(config).3, "EVENT ENTER drr dan eva fay gil");
    submit(c, "#do-draw").await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    submit(c, "#do-start").await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    assert_eq!(last_entry(config).3, "EVENT START drr");
    let shown = ok(admin, "EVENT SHOW drr");
    assert_eq!(shown.matches(" - ").count(), 12, "twelve games: {shown}");
    assert_eq!(
        text_of(
            c,
            "return String(document.querySelectorAll('#event-games tbody tr').length);"
        )
        .await,
        "12"
    );
}

/// The first game waiting for the arbiter, once the clock passed the silence limit.
async fn silence(c: &Client, base: &str, admin: &mut Line) -> String {
    goto(c, base, "/desk").await;
    assert!(
        !text(c, "#no-decisions").await.is_empty(),
        "nothing waits yet"
    );
    ok(admin, "CLOCK +11d");
    goto(c, base, "/desk").await;
    let waiting = text_of(
        c,
        "return String(document.querySelectorAll('section.decision').length);",
    )
    .await;
    assert_eq!(waiting, "12", "every game silent past ten days");
    let game = text_of(
        c,
        "return document.querySelector('section.decision').getAttribute('data-game');",
    )
    .await;
    assert_eq!(
        text(c, "section.decision .why").await,
        "Silence past its limit"
    );
    assert_eq!(text(c, "section.decision .days").await, "11");
    let shown = ok(admin, &format!("SHOW {game}"));
    assert!(shown.contains("arbiter"), "{shown}");
    game
}

async fn adjudicate(c: &Client, game: &str, config: &Path, admin: &mut Line) {
    let form = format!("section.decision[data-game='{game}'] form");
    choose(c, &format!("{form} select[name=result]"), "0-1").await;
    type_into(
        c,
        &format!("{form} input[name=reason]"),
        "silence past the limit",
    )
    .await;
    submit(c, &format!("{form} button")).await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    // The admin's command, then the game's result it decided.
    let entries = journal(config);
    let said = format!("ADJUDICATE {game} 0-1 silence past the limit");
    let command = entries.iter().rev().find(|e| e.3 == said).expect(&said);
    assert_eq!((command.0.as_str(), command.1.as_str()), ("http", "admin"));
    let last = entries.last().expect("an entry");
    assert_eq!((last.2.as_str(), last.3.as_str()), ("result", "0-1"));
    let games = ok(admin, "EVENT SHOW drr");
    assert!(
        games.lines().any(|l| l.contains(game) && l.contains("0-1")),
        "{games}"
    );
    assert_eq!(
        text_of(
            c,
            "return String(document.querySelectorAll('section.decision').length);"
        )
        .await,
        "11"
    );
}

async fn withdraw(c: &Client, base: &str, config: &Path, admin: &mut Line) {
    goto(c, base, "/desk/events/drr").await;
    choose(c, "#withdraw select[name=player]", "gil").await;
    type_into(c, "#withdraw input[name=reason]", "no answer to mail").await;
    let before = journal(config).len();
    submit(c, "#withdraw button").await;
    assert!(
        !text(c, "#after").await.is_empty(),
        "the standings after are shown"
    );
    assert_eq!(
        journal(config).len(),
        before,
        "nothing sent before the confirmation"
    );
    submit(c, "#confirm-withdraw button").await;
    assert!(answer(c).await.starts_with("250"), "{}", answer(c).await);
    // The admin's command, then the results of gil's games it decided.
    let said = "EVENT WITHDRAW drr gil no answer to mail";
    let entries = journal(config);
    let command = entries.iter().find(|e| e.3 == said).expect(said);
    assert_eq!((command.0.as_str(), command.1.as_str()), ("http", "admin"));
    assert!(ok(admin, "EVENT SHOW drr").contains("withdrawn: gil (no answer to mail)"));
}

async fn crosstable(c: &Client) {
    let link = c
        .find(Locator::Id("crosstable-csv"))
        .await
        .expect("the link");
    assert!(link.attr("download").await.expect("attr").is_some());
    let href = link.attr("href").await.expect("attr").expect("href");
    let csv = c
        .execute_async(
            "var done=arguments[arguments.length-1];fetch(arguments[0]).then(function(r){return r.text()}).then(done);",
            vec![href.into()],
        )
        .await
        .expect("fetch");
    let csv = csv.as_str().expect("text").to_owned();
    assert!(
        csv.starts_with("place,player,1,2,3,4,points,games,sb\n"),
        "{csv}"
    );
    let gil = csv
        .lines()
        .find(|l| l.contains("Player gil"))
        .expect("gil's row");
    // Six games, each lost: five by the withdrawal (`-`), one perhaps by the adjudication.
    let forfeits = gil
        .split(',')
        .flat_map(|field| field.split(' '))
        .filter(|mark| *mark == "-")
        .count();
    assert!(forfeits >= 5, "gil's games forfeited: {gil}");
    assert!(
        !csv.contains('\''),
        "the marks are written as they are: {csv}"
    );
}

/// The record page: `journal verify`'s verdict, the day's log of what the arbiter did (on the
/// manual clock's day), and the event's PGN.
async fn record(c: &Client, base: &str, config: &Path) {
    goto(c, base, "/desk/record?day=2027-03-12").await;
    assert!(text(c, "#verdict").await.starts_with("journal ok:"));
    let log = text(c, "#day-log").await;
    assert!(
        log.contains("ADJUDICATE") && log.contains("EVENT WITHDRAW drr gil"),
        "{log}"
    );
    let commands = journal(config)
        .into_iter()
        .filter(|e| e.1 == "admin" && e.0 == "http")
        .count();
    assert!(commands >= 10, "every desk command journaled: {commands}");
    let pgn = c
        .execute_async(
            "var done=arguments[arguments.length-1];fetch('/desk/record/event?event=drr&format=pgn').then(function(r){return r.text()}).then(done);",
            vec![],
        )
        .await
        .expect("fetch");
    assert!(
        pgn.as_str()
            .unwrap_or_default()
            .contains("[Event \"Desk Cup\"]")
    );
    let record = c
        .execute_async(
            "var done=arguments[arguments.length-1];fetch('/desk/record/event?event=drr&format=record').then(function(r){return r.text()}).then(done);",
            vec![],
        )
        .await
        .expect("fetch");
    let record = record.as_str().unwrap_or_default().to_owned();
    assert!(
        record.contains("no answer to mail"),
        "the withdrawal in the record: {record}"
    );
}

/// How far the page reaches beyond the screen's width (0 when nothing scrolls sideways).
async fn overflow(c: &Client) -> f64 {
    let value = c
        .execute(
            "return document.documentElement.scrollWidth-window.innerWidth;",
            vec![],
        )
        .await
        .expect("script");
    value.as_f64().unwrap_or(f64::MAX)
}

async fn screenshots_and_phone(c: &Client, base: &str) {
    // The desk in Ukrainian and Russian, by the pages' switch.
    for (code, desk) in [
        ("uk", "Стіл арбітра"),
        ("ru", "Стол арбитра"),
        ("en", "The arbiter's desk"),
    ] {
        goto(c, base, &format!("/desk?lang={code}")).await;
        assert!(text(c, "nav.desk").await.contains(desk), "{code}");
    }
    let mut shots = Vec::new();
    for (width, height) in [(1100, 900), (390, 844)] {
        viewport(c, width, height).await;
        for path in [
            "/desk/players",
            "/desk/events",
            "/desk/events/drr",
            "/desk/record",
            "/desk",
        ] {
            goto(c, base, path).await;
            assert!(
                overflow(c).await <= 0.0,
                "{path} scrolls sideways at {width} px"
            );
        }
        shots.push(c.screenshot().await.expect("screenshot"));
    }
    assert!(shots.iter().all(|png| png.starts_with(b"\x89PNG")));
    if std::env::var_os("CCRELAY_SCREENSHOTS").is_some() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("desk-desktop.png"), &shots[0]).expect("write");
        std::fs::write(dir.join("desk-phone.png"), &shots[1]).expect("write");
    }
    viewport(c, 1100, 900).await;
}

#[test]
fn an_arbiter_runs_a_double_round_robin_from_the_desk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let maildir = dir.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let extra = EXTRA.replace("MAILDIR", &maildir.display().to_string());
    let (_dir, config, daemon) = start_with(&extra, "");
    let http = daemon.http.expect("http");
    let base = format!("http://{http}");
    let mut admin = crate::support::daemon::admin(&daemon);
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let c = browser(&driver).await;
        log_in(&c, &base).await;
        players(&c, &base, &config, &mut admin).await;
        event(&c, &base, &config, &mut admin).await;
        let game = silence(&c, &base, &mut admin).await;
        screenshots_and_phone(&c, &base).await;
        adjudicate(&c, &game, &config, &mut admin).await;
        withdraw(&c, &base, &config, &mut admin).await;
        crosstable(&c).await;
        record(&c, &base, &config).await;
        c.close().await.expect("close");
    });
}
