//! The mail when it is a player's move (`NOTIFY`), against the real mail servers of the email
//! tests (Postfix on 127.0.0.1:25 delivering to Dovecot, read by IMAP: `tests/mail/setup.sh`;
//! without them these tests FAIL). A player who plays on the web (reached over TCP) asks for
//! it on their settings page in Russian; the opponent's move over TCP brings a mail in
//! Russian with the position as a PNG and the headers of RFC 8058; its one-click link, POSTed
//! without a login, stops the next one, and a wrong token is refused. A daily digest comes
//! under the manual clock, held in the outbox across a restart while the SMTP server cannot be
//! reached, sent once, and not again after another restart.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use mail_parser::MimeHeaders;

use crate::support::config::{BORIS, Player};
use crate::support::daemon::{Daemon, admin};
use crate::support::http::{Response, get_with, raw};
use crate::support::line::ok;
use crate::support::mail::{DOMAIN, Reader, lock, mails, require_mail_servers, setup, unique};
use crate::support::web::{attr_of, form_token, player_cookie, post_form};

/// Alice plays on the web and reads Russian (long algebraic, Russian letters).
const ALICE_RU: Player = Player {
    id: "alice",
    secret: "alice-secret",
    notation: "lan",
    lang: Some("ru"),
};

/// The public address the mails link to: the tests send its paths to the daemon's own port.
const PUBLIC: &str = "https://chess.example.test";

/// A relay with mail (the test servers), the web on an ephemeral port with [`PUBLIC`] as its
/// public address, and `extra` (a manual clock) after it; `games` between Alice and Boris.
fn relay(games: &[(&str, &str, &str)], extra: &str) -> crate::support::mail::Setup {
    let s = setup(&[], &[ALICE_RU, BORIS], games, None);
    let mut text = std::fs::read_to_string(&s.config).expect("config");
    text.push_str(&format!(
        "\n[http]\nlisten = \"127.0.0.1:0\"\npublic_url = \"{PUBLIC}\"\n{extra}"
    ));
    std::fs::write(&s.config, text).expect("config");
    s
}

fn page(addr: SocketAddr, path: &str, cookie: &str) -> Response {
    get_with(addr, path, &format!("Cookie: {cookie}\r\n"))
}

/// A header's value in a raw mail (unfolded).
fn header(raw_mail: &str, name: &str) -> Option<String> {
    let head = raw_mail.split("\r\n\r\n").next()?;
    let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
    unfolded.lines().find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
    })
}

/// The PNG pictures of a raw mail, each as (Content-ID, width, height).
fn pictures(raw_mail: &str) -> Vec<(String, u32, u32)> {
    let parsed = mail_parser::MessageParser::default()
        .parse(raw_mail.as_bytes())
        .expect("parse");
    parsed
        .attachments()
        .filter(|part| {
            part.content_type()
                .is_some_and(|t| t.c_type == "image" && t.c_subtype.as_deref() == Some("png"))
        })
        .map(|part| {
            let bytes = part.contents();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
            assert_eq!(&bytes[12..16], b"IHDR");
            let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
            (
                part.content_id().unwrap_or_default().to_owned(),
                word(16),
                word(20),
            )
        })
        .collect()
}

/// The HTML part of a raw mail, decoded.
fn html_of(raw_mail: &str) -> String {
    let parsed = mail_parser::MessageParser::default()
        .parse(raw_mail.as_bytes())
        .expect("parse");
    parsed.body_html(0).expect("an HTML part").into_owned()
}

/// The rows queued for Alice's notice mails so far.
fn notice_rows(config: &Path) -> i64 {
    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    conn.query_row(
        "SELECT COUNT(*) FROM outbox WHERE player = 'notify:alice'",
        [],
        |r| r.get(0),
    )
    .expect("count")
}

/// The journal's entries of `kind`: (channel, text).
fn entries_of(config: &Path, kind: &str) -> Vec<(String, String)> {
    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let mut stmt = conn
        .prepare("SELECT channel, text FROM entries WHERE kind = ?1 ORDER BY seq")
        .unwrap();
    stmt.query_map([kind], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// How many of `user`'s mails have `needle` in their subject, after `quiet` with none more
/// arriving.
fn settled_count(user: &str, needle: &str, quiet: Duration) -> usize {
    let count = || {
        mails(user)
            .iter()
            .filter(|m| m.subject.contains(needle))
            .count()
    };
    let mut seen = count();
    let mut since = Instant::now();
    while since.elapsed() < quiet {
        std::thread::sleep(Duration::from_millis(500));
        let now = count();
        if now != seen {
            seen = now;
            since = Instant::now();
        }
    }
    seen
}

#[test]
fn a_web_player_is_mailed_in_russian_when_a_move_waits_and_one_click_stops_it() {
    let _turn = lock();
    require_mail_servers();
    let s = relay(&[("nt1", "alice", "boris")], "");
    let daemon = Daemon::start(&s.config);
    let http = daemon.http.expect("http");
    let user = unique("alice");
    let address = format!("{user}@{DOMAIN}");

    // Alice asks for a mail at each move on her settings page, in Russian.
    let cookie = player_cookie(http, "alice", ALICE_RU.secret).expect("logged in");
    let settings = page(http, "/play/notify", &cookie);
    assert_eq!(settings.status, 200, "{}", settings.body);
    assert!(
        settings.body.contains("Письмо, когда ваш ход"),
        "{}",
        settings.body
    );
    let mine = page(http, "/play", &cookie);
    assert!(
        mine.body.contains("href=\"/play/notify\""),
        "my games links to it: {}",
        mine.body
    );
    let token = form_token(&settings.body);
    let forged = post_form(
        http,
        "/play/notify",
        &cookie,
        &[("form", "0"), ("mode", "each"), ("address", &address)],
    );
    assert_eq!(forged.status, 403, "{}", forged.body);
    let saved = post_form(
        http,
        "/play/notify",
        &cookie,
        &[
            ("form", &token),
            ("mode", "each"),
            ("address", &address),
            ("hour", "8"),
            ("zone", ""),
        ],
    );
    assert_eq!(saved.status, 303, "{}", saved.body);
    let location = saved
        .headers
        .iter()
        .find(|(n, _)| n == "location")
        .map(|(_, v)| v.clone())
        .expect("back to the page");
    let shown = page(http, &location, &cookie);
    assert!(shown.body.contains("Сохранено."), "{}", shown.body);
    assert_eq!(
        attr_of(&shown.body, "address", "value"),
        Some(address.clone())
    );
    let set = entries_of(&s.config, "notify");
    assert_eq!(set.len(), 1, "the forged form changed nothing: {set:?}");
    assert_eq!(
        set[0],
        ("http".to_owned(), format!("NOTIFY EACH {address}"))
    );

    // Boris's answer waits for her: the mail comes, in Russian, with the picture.
    let mut a = daemon.login(&ALICE_RU);
    let mut b = daemon.login(&BORIS);
    ok(&mut a, "MOVE nt1 e4");
    ok(&mut b, "MOVE nt1 e5");
    let mut inbox = Reader::new(&user);
    let mail = inbox.wait("Ваш ход в партии nt1");
    assert_eq!(mail.subject, "Ваш ход в партии nt1 (alice – boris)");
    assert!(
        mail.text
            .contains("boris сыграл 1... e7—e5 в партии nt1: ваш ход."),
        "{}",
        mail.text
    );
    assert!(
        mail.text.contains(&format!("{PUBLIC}/play/games/nt1")),
        "{}",
        mail.text
    );
    let pictured = pictures(&mail.raw);
    assert_eq!(pictured.len(), 1, "{}", mail.raw);
    let (cid, width, height) = &pictured[0];
    assert_eq!((*width, *height), (288, 288));
    let html = html_of(&mail.raw);
    assert!(html.contains(&format!("src=\"cid:{cid}\"")), "{html}");
    assert_eq!(
        header(&mail.raw, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = header(&mail.raw, "List-Unsubscribe").expect("List-Unsubscribe");
    let link = unsubscribe
        .strip_prefix('<')
        .and_then(|l| l.strip_suffix('>'))
        .expect("one link in angle brackets");
    let path = link
        .strip_prefix(PUBLIC)
        .expect("on the public address")
        .to_owned();
    assert!(path.starts_with("/notify/unsubscribe?p=alice&t="), "{path}");

    // A link scanner's GET changes nothing: it shows the button.
    let asked = get_with(http, &path, "");
    assert_eq!(asked.status, 200, "{}", asked.body);
    assert!(asked.body.contains("id=\"unsubscribe\""), "{}", asked.body);
    assert_eq!(entries_of(&s.config, "notify").len(), 1);

    // A wrong token: 403, nothing changes.
    let one_click = |path: &str| {
        let body = "List-Unsubscribe=One-Click";
        raw(
            http,
            format!(
                "POST {path} HTTP/1.1\r\nHost: {http}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
    };
    let mut wrong = path.clone();
    let last = wrong.pop().expect("a token");
    wrong.push(if last == '0' { '1' } else { '0' });
    assert_eq!(one_click(&wrong).status, 403);
    assert_eq!(one_click("/notify/unsubscribe?p=boris&t=00").status, 403);
    assert_eq!(entries_of(&s.config, "notify").len(), 1);

    // The right one, without a login: the mails stop, recorded as Alice's NOTIFY OFF.
    let done = one_click(&path);
    assert_eq!(done.status, 200, "no redirect (RFC 8058): {}", done.body);
    assert!(
        done.body.contains("id=\"unsubscribe-done\""),
        "{}",
        done.body
    );
    let set = entries_of(&s.config, "notify");
    assert_eq!(set.len(), 2, "{set:?}");
    assert_eq!(set[1], ("http".to_owned(), "NOTIFY OFF".to_owned()));
    let rows = notice_rows(&s.config);
    ok(&mut a, "MOVE nt1 Nf3");
    ok(&mut b, "MOVE nt1 Nc6");
    assert_eq!(notice_rows(&s.config), rows, "no mail is queued any more");
    assert_eq!(
        settled_count(&user, "Ваш ход", Duration::from_secs(3)),
        1,
        "one mail, before the unsubscribe"
    );
    // The link has nothing more to stop: it no longer holds, and says so.
    let again = one_click(&path);
    assert_eq!(again.status, 403);
    assert!(
        again.body.contains("id=\"unsubscribe-refused\""),
        "{}",
        again.body
    );
    assert_eq!(entries_of(&s.config, "notify").len(), 2);
}

#[test]
fn a_digest_comes_once_at_its_hour_held_across_a_restart() {
    let _turn = lock();
    require_mail_servers();
    let s = relay(
        &[("dg1", "alice", "boris"), ("dg2", "boris", "alice")],
        "[clock]\nmode = \"manual\"\nstart = \"2027-03-01T06:00:00Z\"\n",
    );
    let config = std::fs::read_to_string(&s.config).expect("config");
    assert!(config.contains("port = 25\n"), "{config}");
    // The SMTP server out of reach at first: the digest waits in the outbox.
    std::fs::write(&s.config, config.replace("port = 25\n", "port = 1\n")).expect("config");
    let user = unique("alice");
    let address = format!("{user}@{DOMAIN}");
    let mut daemon = Daemon::start(&s.config);
    {
        let mut a = daemon.login(&ALICE_RU);
        let mut b = daemon.login(&BORIS);
        ok(&mut a, &format!("NOTIFY DIGEST 8 {address}"));
        ok(&mut b, "MOVE dg2 d4");
        let mut arbiter = admin(&daemon);
        ok(&mut arbiter, "CLOCK +1h");
        assert!(entries_of(&s.config, "notify_digest").is_empty());
        ok(&mut arbiter, "CLOCK +2h");
    }
    assert_eq!(entries_of(&s.config, "notify_digest").len(), 1);
    assert_eq!(notice_rows(&s.config), 1);
    daemon.terminate();

    // Back with the SMTP server: the digest goes, once.
    std::fs::write(&s.config, config).expect("config");
    let mut daemon = Daemon::start(&s.config);
    let mut inbox = Reader::new(&user);
    let digest = inbox.wait("ждут вашего хода");
    assert_eq!(digest.subject, "2 партии ждут вашего хода");
    assert!(
        digest.text.contains("dg1 (alice – boris): партия началась"),
        "{}",
        digest.text
    );
    assert!(
        digest.text.contains("dg2 (boris – alice): 1. d2—d4"),
        "{}",
        digest.text
    );
    assert!(digest.text.contains(&format!("{PUBLIC}/play/games/dg2")));
    assert_eq!(pictures(&digest.raw).len(), 2);
    assert!(header(&digest.raw, "List-Unsubscribe").is_some());
    daemon.terminate();

    // Another restart, the hour long past: not sent again.
    let daemon = Daemon::start(&s.config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CLOCK +1h");
    assert_eq!(entries_of(&s.config, "notify_digest").len(), 1);
    assert_eq!(
        settled_count(&user, "ждут вашего хода", Duration::from_secs(4)),
        1
    );
}
