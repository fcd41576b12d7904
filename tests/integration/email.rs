//! Moves by email against real mail servers: Postfix on 127.0.0.1:25 delivering to Dovecot
//! (IMAPS on 127.0.0.1:993), as `tests/mail/setup.sh` installs and starts them (`.ci/run`
//! runs it). Without them these tests FAIL: they never skip.
//!
//! Every test makes its own addresses (`alice-<unique>@ccrelay.test`): the test server takes
//! mail for any address, so tests never read each other's mail. Players' mail is injected by
//! SMTP, and what the relay sends is read from the players' mailboxes by IMAP. The tests take
//! turns (one lock), since one of them stops and restarts the mail servers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;

use crate::support::config::{ADMIN_SECRET, ALICE, BORIS, Player};
use crate::support::daemon::Daemon;
use crate::support::journal::{assert_journal_verifies, email_rejections};
use crate::support::line::{Client, moves_in, push_with};
use crate::support::mail::{
    DOMAIN, EmailPlayer, Imap, Reader, TIMEOUT, lock, mails, plain, require_mail_servers, send,
    setup, setup_with, unique,
};

/// A mail in a single-byte charset, 8bit or base64.
fn encoded(from: &str, to: &str, subject: &str, body: &str, charset: &str, b64: bool) -> Vec<u8> {
    let enc = encoding_rs::Encoding::for_label(charset.as_bytes()).expect("charset");
    let body = body.replace('\n', "\r\n");
    let (bytes, _, bad) = enc.encode(&body);
    assert!(!bad, "{body:?} in {charset}");
    let mut mail = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{}@player.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\nContent-Transfer-Encoding: {}\r\n\r\n",
        unique("m"),
        if b64 { "base64" } else { "8bit" }
    )
    .into_bytes();
    if b64 {
        let text = base64::engine::general_purpose::STANDARD.encode(&bytes);
        for chunk in text.as_bytes().chunks(76) {
            mail.extend_from_slice(chunk);
            mail.extend_from_slice(b"\r\n");
        }
    } else {
        mail.extend_from_slice(&bytes);
        mail.extend_from_slice(b"\r\n");
    }
    mail
}

/// An HTML-only mail (no text/plain part), quoted-printable.
fn html_only(from: &str, to: &str, subject: &str, html: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{}@player.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}\r\n",
        unique("m"),
        html.replace('=', "=3D")
    )
    .into_bytes()
}

/// The text of every journal entry.
fn journal_texts(config: &Path) -> Vec<String> {
    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let mut stmt = conn
        .prepare("SELECT text || ' ' || detail FROM entries")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn show(client: &mut Client, game: &str) -> String {
    let (code, text) = client.call(&format!("SHOW {game}"));
    assert_eq!(code, 250, "{text}");
    text
}

/// Waits for a push containing `needle` and checks it begins with `expected` (the relay may
/// add the clock after it).
fn assert_push(client: &mut Client, needle: &str, expected: &str) {
    let push = push_with(client, needle);
    assert!(
        push.starts_with(expected),
        "{push:?} does not begin with {expected:?}"
    );
}

#[test]
fn a_whole_game_between_an_email_player_and_a_tcp_player() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let boris = BORIS;
    let game = "em-tcp";
    let s = setup(&[&alice], &[boris], &[(game, "alice", "boris")], None);
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let mut inbox = Reader::new(&alice.user);
    let relay = s.relay_address();
    let from = alice.address();

    let started = inbox.wait(&format!("{game}: game"));
    assert!(started.text.contains("you play White"), "{}", started.text);

    // 1. e4: the game id in the subject, the token as a plus address.
    send(
        &s.plus(alice.token),
        &plain(&from, &s.plus(alice.token), game, "1. e4", ""),
    );
    assert_push(
        &mut b,
        "MOVE",
        &format!("MOVE {game} 1. e2—e4 (5254) by alice"),
    );
    let ack = inbox.wait("accepted");
    assert!(
        ack.text.contains(&format!("accepted {game} 1. e4 (5254)")),
        "{}",
        ack.text
    );
    assert!(ack.text.contains("\nreceipt: r"), "{}", ack.text);

    // Boris answers over TCP; Alice gets it in SAN and ICCF, with the whole game, a diagram
    // and the game id.
    let (code, text) = b.call(&format!("MOVE {game} 1... е7—е5"));
    assert_eq!(code, 250, "{text}");
    let m = inbox.wait("1... e5 (5755)");
    assert!(m.subject.contains(game), "{}", m.subject);
    assert!(m.text.contains("moves: 1. e4 e5"), "{}", m.text);
    assert!(m.text.contains("game: em-tcp"), "{}", m.text);
    assert!(m.text.contains("r n b q k b n r"), "a diagram: {}", m.text);
    assert!(m.text.contains("\nreceipt: r"), "{}", m.text);
    assert!(
        m.raw.contains(&format!("<ccrelay.game.{game}@")),
        "threaded: {}",
        m.raw
    );

    // A reply to that mail, subject without the game id: the game comes from In-Reply-To.
    // Quoted history and a signature are ignored; the repeat must match.
    let body = "2. Bc4\nrepeat: 1... e5\n\n-- \nAlice\n12. Qh5\n\nOn Sunday, ccrelay wrote:\n> 1... e5 (5755) by boris\n> 3. Qxf7";
    send(
        &relay,
        &plain(
            &from,
            &relay,
            &format!("Re: my move key:{}", alice.token),
            body,
            &format!("In-Reply-To: <{}>\r\n", m.message_id),
        ),
    );
    assert_push(
        &mut b,
        "MOVE",
        &format!("MOVE {game} 2. Сf1—c4 (6134) by alice"),
    );
    inbox.wait("accepted");

    // A repeat that does not match is refused with a precise error and changes nothing.
    b.call(&format!("MOVE {game} 2... Кb8—c6"));
    inbox.wait("2... Nc6");
    send(
        &relay,
        &plain(
            &from,
            &relay,
            &format!("{game} key:{}", alice.token),
            "3. Qh5 repeat Nf6",
            "",
        ),
    );
    let refused = inbox.wait("REFUSED");
    assert!(refused.text.contains("409"), "{}", refused.text);
    assert_eq!(moves_in(&mut b, game), 4);

    send(
        &relay,
        &plain(
            &from,
            &relay,
            &format!("{game} key:{}", alice.token),
            "3. Qh5 repeat Nc6",
            "",
        ),
    );
    push_with(&mut b, "3. Фd1—h5");
    inbox.wait("accepted");
    b.call(&format!("MOVE {game} 3... Кg8—f6"));
    inbox.wait("3... Nf6");
    send(
        &relay,
        &plain(
            &from,
            &relay,
            &format!("{game} key:{}", alice.token),
            "4. Qxf7#",
            "",
        ),
    );
    assert!(push_with(&mut b, "RESULT").contains("1-0"));
    let over = inbox.any("game over");
    assert!(over.text.contains("1-0"), "{}", over.text);
    let result = inbox.any("RESULT");
    assert!(result.subject.contains(game));
    assert!(show(&mut b, game).contains("result: 1-0"));
    drop(daemon);
    assert_journal_verifies(&s.config);

    // The mails as the player saved them hold their receipts against the journal.
    let saved = s.config.parent().expect("a folder").join("mails.txt");
    std::fs::write(&saved, format!("{}\n{}\n", ack.text, m.text)).expect("save the mails");
    let out = crate::support::process::ccrelay()
        .args(["journal", "verify", "--receipt"])
        .arg(&saved)
        .arg("--config")
        .arg(&s.config)
        .output()
        .expect("verify");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("receipts ok: 2 receipts"), "{stdout}");
}

/// A reader whose `lang` is Ukrainian reads Ukrainian: over TCP the moves in Ukrainian letters
/// (Кр Ф Т С К, the protocol's words as they are), by mail what happened in Ukrainian above
/// the protocol's line, the footer and the answer to their mail in Ukrainian.
#[test]
fn a_ukrainian_reader_gets_ukrainian_pushes_and_mails() {
    let _turn = lock();
    require_mail_servers();
    let olena = EmailPlayer::new("olena", "san", Some("uk"));
    const TARAS: Player = Player {
        id: "taras",
        secret: "taras-secret",
        notation: "san",
        lang: Some("uk"),
    };
    let alice = ALICE;
    let s = setup(
        &[&olena],
        &[ALICE, TARAS],
        &[("uk-tcp", "alice", "taras"), ("uk-mail", "alice", "olena")],
        None,
    );
    let daemon = Daemon::start(&s.config);
    let mut a = daemon.login(&alice);
    let mut t = daemon.login(&TARAS);
    let mut inbox = Reader::new(&olena.user);

    // Over TCP: every piece in the Ukrainian letters the seeds write.
    for (white, black, push) in [
        ("e4", "e5", "MOVE uk-tcp 1. e4 (5254) by alice"),
        ("Nf3", "Nc6", "MOVE uk-tcp 2. Кf3 (7163) by alice"),
        ("Bc4", "Bc5", "MOVE uk-tcp 3. Сc4 (6134) by alice"),
        ("Qe2", "Nf6", "MOVE uk-tcp 4. Фe2 (4152) by alice"),
        ("Kf1", "d6", "MOVE uk-tcp 5. Крf1 (5161) by alice"),
        ("Rg1", "Bg4", "MOVE uk-tcp 6. Тg1 (8171) by alice"),
    ] {
        crate::support::line::ok(&mut a, &format!("MOVE uk-tcp {white}"));
        assert_push(&mut t, "MOVE uk-tcp", push);
        crate::support::line::ok(&mut t, &format!("MOVE uk-tcp {black}"));
    }

    // By mail: the game's start, then alice's move, in Ukrainian first.
    let started = inbox.wait("партія почалася");
    assert!(
        started
            .subject
            .contains("uk-mail: партія почалася: ви граєте чорними проти alice"),
        "{}",
        started.subject
    );
    assert!(started.text.contains("Щоб відповісти"), "{}", started.text);
    crate::support::line::ok(&mut a, "MOVE uk-mail Nf3");
    let m = inbox.wait("хід 1. Кf3");
    assert!(
        m.subject.contains("uk-mail: хід 1. Кf3 (7163), alice"),
        "{}",
        m.subject
    );
    let text = m.text.replace("\r\n", "\n");
    assert!(
        text.starts_with("хід 1. Кf3 (7163), alice\nMOVE uk-mail 1. Кf3 (7163) by alice"),
        "{text}"
    );
    // Below the protocol's line, the clocks in Ukrainian (on the real clock: the hours left
    // may have begun to run down).
    let clocks = text.lines().nth(2).unwrap_or_default();
    assert!(
        clocks.starts_with("годинник: Білі: 0 дн. 00 год використано, залишилося ")
            && clocks.contains(" до 10-го ходу | Чорні: 0 дн. 00 год використано, ")
            && clocks.ends_with(" (годинник іде)"),
        "{text}"
    );
    assert!(m.text.contains("Щоб відповісти"), "{}", m.text);

    // Olena answers in Ukrainian letters; alice reads it in her own, olena's answer in hers.
    send(
        &s.relay_address(),
        &plain(
            &olena.address(),
            &s.relay_address(),
            &format!("Re: [ccrelay] uk-mail key:{}", olena.token),
            "1... Кc6\n\nЗ повагою, Олена",
            "",
        ),
    );
    assert_push(
        &mut a,
        "MOVE uk-mail",
        "MOVE uk-mail 1... Nc6 (2836) by olena",
    );
    let answer = inbox.wait("accepted");
    let text = answer.text.replace("\r\n", "\n");
    assert!(text.contains("Ваш лист:\n> 1... Кc6"), "{text}");
    assert!(text.contains("Щоб відповісти"), "{text}");
}

#[test]
fn a_whole_game_by_email_in_koi8_r_windows_1251_and_html() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "iccf", None);
    let boris = EmailPlayer::new("boris", "lan", Some("ru"));
    let game = "em-em";
    let s = setup(&[&alice, &boris], &[], &[(game, "alice", "boris")], None);
    let _daemon = Daemon::start(&s.config);
    let relay = s.relay_address();
    let (mut a, mut b) = (Reader::new(&alice.user), Reader::new(&boris.user));
    let subject = |p: &EmailPlayer| format!("Re: [ccrelay] {game} key:{}", p.token);
    a.wait("you play White");
    let started = b.wait("you play Black");
    assert!(
        started.text.contains("Чтобы ответить"),
        "Russian help: {}",
        started.text
    );

    // Alice: numeric, multipart/alternative, text/plain preferred over the HTML.
    let multipart = format!(
        "From: {}\r\nTo: {relay}\r\nSubject: {}\r\nMessage-ID: <{}@player.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n1. 6263\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>1. 5254</p>\r\n--b1--\r\n",
        alice.address(),
        subject(&alice),
        unique("m")
    );
    send(&relay, multipart.as_bytes());
    let m = b.wait("f2—f3");
    assert!(m.text.contains("(6263)"), "{}", m.text);
    a.wait("accepted");

    // Boris: KOI8-R, 8bit, Russian long algebraic with Cyrillic letters.
    send(
        &relay,
        &encoded(
            &boris.address(),
            &relay,
            &subject(&boris),
            "Добрый день!\n\n1... е7-е5\n\nС уважением, Борис",
            "koi8-r",
            false,
        ),
    );
    let m = a.wait("5755");
    assert!(m.text.contains("moves: 1. 6263 5755"), "{}", m.text);
    b.wait("accepted");

    // Alice: HTML only.
    send(
        &relay,
        &html_only(
            &alice.address(),
            &relay,
            &subject(&alice),
            "<html><body><p>My move:</p><p><b>2. 7274</b></p></body></html>",
        ),
    );
    b.wait("g2—g4");
    a.wait("accepted");

    // Boris: windows-1251, base64, with the repeat in Russian; mate.
    send(
        &relay,
        &encoded(
            &boris.address(),
            &relay,
            &subject(&boris),
            "2... Фd8—h4#\nповтор: g2—g4\n",
            "windows-1251",
            true,
        ),
    );
    let over = b.any("game over");
    assert!(over.text.contains("0-1"), "{}", over.text);
    a.wait("RESULT");
    b.any("RESULT");
}

#[test]
fn forged_unknown_wrong_token_replayed_and_huge_mail() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let mut carol = EmailPlayer::new("carol", "san", None);
    carol.dkim = true;
    let game = "em-bad";
    // IMAP with STARTTLS and polling here; IMAPS with IDLE in the other tests.
    let s = setup_with(
        &[&alice, &carol],
        &[BORIS],
        &[(game, "alice", "boris"), ("em-c", "carol", "boris")],
        None,
        Imap::StartTls,
    );
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let relay = s.relay_address();
    let mut inbox = Reader::new(&alice.user);
    let mut carol_box = Reader::new(&carol.user);
    inbox.wait("you play White");
    carol_box.wait("you play White");
    let mallory = unique("mallory");

    // A wrong token.
    send(
        &relay,
        &plain(
            &alice.address(),
            &relay,
            &format!("{game} key:guess"),
            "1. e4",
            "",
        ),
    );
    let r = inbox.wait("REFUSED");
    assert!(r.text.contains("token is wrong"), "{}", r.text);
    // A forged From: Alice's address, no token.
    send(&relay, &plain(&alice.address(), &relay, game, "1. d4", ""));
    let r = inbox.wait("REFUSED");
    assert!(r.text.contains("no token"), "{}", r.text);
    // An unknown sender, with a valid token even: nothing, and no mail to anyone.
    send(
        &relay,
        &plain(
            &format!("{mallory}@{DOMAIN}"),
            &relay,
            &format!("{game} key:{}", alice.token),
            "1. e4",
            "",
        ),
    );
    // Carol's mail must carry a DKIM signature: the right token alone is not enough.
    send(
        &relay,
        &plain(
            &carol.address(),
            &relay,
            &format!("em-c key:{}", carol.token),
            "1. e4",
            "",
        ),
    );
    let r = carol_box.wait("REFUSED");
    assert!(r.text.contains("DKIM"), "{}", r.text);

    // Nothing changed.
    assert_eq!(moves_in(&mut b, game), 0);
    assert_eq!(moves_in(&mut b, "em-c"), 0);
    let rejected = email_rejections(&s.config);
    let reasons: Vec<&str> = rejected.iter().map(|(_, r)| r.as_str()).collect();
    assert!(
        reasons.iter().any(|r| r.contains("token is wrong")),
        "{rejected:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("no token")),
        "{rejected:?}"
    );
    assert!(reasons.iter().any(|r| r.contains("DKIM")), "{rejected:?}");
    assert!(
        rejected
            .iter()
            .any(|(p, r)| p.starts_with("mallory") && r.contains("not a player")),
        "{rejected:?}"
    );
    assert_eq!(mails(&mallory).len(), 0, "no reply to an unverified sender");
    let texts = journal_texts(&s.config);
    assert!(
        texts.iter().all(|t| !t.contains(alice.token)),
        "no token in the journal: {texts:?}"
    );

    // A 10 MB attachment after the move: the move is read, the attachment is not loaded.
    let attachment = base64::engine::general_purpose::STANDARD.encode(vec![0x5au8; 10 << 20]);
    let mut huge = format!(
        "From: {}\r\nTo: {relay}\r\nSubject: {game} key:{}\r\nMessage-ID: <{}@player.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n1. e4\r\n--zz\r\nContent-Type: application/octet-stream; name=\"big.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n",
        alice.address(),
        alice.token,
        unique("huge")
    );
    for chunk in attachment.as_bytes().chunks(76) {
        huge.push_str(std::str::from_utf8(chunk).unwrap());
        huge.push_str("\r\n");
    }
    huge.push_str("--zz--\r\n");
    send(&relay, huge.as_bytes());
    assert_push(
        &mut b,
        "MOVE",
        &format!("MOVE {game} 1. e2—e4 (5254) by alice"),
    );
    let ack = inbox.wait("accepted");
    assert!(
        ack.text.contains("only its beginning was read"),
        "{}",
        ack.text
    );

    // The same mail again (same Message-ID): recognised, not applied twice.
    send(&relay, huge.as_bytes());
    let again = inbox.wait("handled before");
    assert!(again.text.contains("not applied again"), "{}", again.text);
    assert_eq!(moves_in(&mut b, game), 1);
    drop(daemon);
    assert_journal_verifies(&s.config);
}

/// A move mail shows the game as of that move, even when it is mailed after the game went
/// on: Alice's outgoing mail is held (the relay's SMTP points nowhere) while she mails two
/// moves and Boris answers both; each of Boris's moves then arrives showing the game as it
/// stood after it, not as it stands when mailed.
#[test]
fn a_move_mail_sent_late_shows_the_game_as_of_that_move() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let game = "em-asof";
    let s = setup(&[&alice], &[BORIS], &[(game, "alice", "boris")], None);
    let good = std::fs::read_to_string(&s.config).unwrap();
    let nowhere = good.replace("port = 25\n", "port = 9\n");
    assert_ne!(good, nowhere, "the SMTP port is in the config");
    std::fs::write(&s.config, &nowhere).unwrap();
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let relay = s.relay_address();
    let subject = format!("{game} key:{}", alice.token);
    for (mine, theirs) in [("1. e4", "1... e5"), ("2. Nf3", "2... Nc6")] {
        send(&relay, &plain(&alice.address(), &relay, &subject, mine, ""));
        push_with(&mut b, &format!("MOVE {game} {}", &mine[..2]));
        let (code, text) = b.call(&format!("MOVE {game} {theirs}"));
        assert_eq!(code, 250, "{text}");
    }
    assert_eq!(moves_in(&mut b, game), 4);
    drop(b);
    drop(daemon);
    // Alice comes back online: the relay can mail again.
    std::fs::write(&s.config, &good).unwrap();
    let daemon = Daemon::start(&s.config);
    let inbox = Reader::new(&alice.user);

    let first = inbox.any("1... e5 (5755) by boris");
    let moves_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("moves: "))
            .map(|l| l.trim_end().to_owned())
    };
    assert_eq!(moves_line(&first.text).as_deref(), Some("moves: 1. e4 e5"));
    // Nothing of the moves played since (the footer's example moves apart).
    let view = first.text.split("\n-- ").next().unwrap_or_default();
    assert!(!view.contains("Nf3") && !view.contains("Nc6"), "{view}");
    assert!(
        first.text.contains("to move: White (alice), move 2"),
        "{}",
        first.text
    );
    // The diagram after 1... e5: Black's e-pawn on e5, White's knight still on g1.
    assert!(first.text.contains("5 . . . . p . . ."), "{}", first.text);
    assert!(first.text.contains("1 R N B Q K B N R"), "{}", first.text);

    let second = inbox.any("2... Nc6 (2836) by boris");
    assert_eq!(
        moves_line(&second.text).as_deref(),
        Some("moves: 1. e4 e5 2. Nf3 Nc6")
    );
    assert!(second.text.contains("1 R N B Q K B . R"), "{}", second.text);
    assert!(
        second.text.contains("to move: White (alice), move 3"),
        "{}",
        second.text
    );
    drop(daemon);
    assert_journal_verifies(&s.config);
}

/// A draughts game between a player by mail and one over TCP: the mail's move in seed 003's
/// algebraic form, the reply mail showing the draughts board as of the opponent's move.
#[test]
fn a_draughts_game_between_an_email_player_and_a_tcp_player() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let game = "em-draughts";
    let s = setup(&[&alice], &[BORIS], &[(game, "alice", "boris")], None);
    let text = std::fs::read_to_string(&s.config).unwrap();
    let id_line = format!("id = \"{game}\"\n");
    assert!(text.contains(&id_line), "{text}");
    let text = text.replace(&id_line, &format!("{id_line}game = \"draughts-ru\"\n"));
    std::fs::write(&s.config, text).unwrap();
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let relay = s.relay_address();
    let subject = format!("{game} key:{}", alice.token);
    let inbox = Reader::new(&alice.user);

    send(
        &relay,
        &plain(
            &alice.address(),
            &relay,
            &subject,
            "1. c3-d4\n\nGood luck!",
            "",
        ),
    );
    let push = push_with(&mut b, &format!("MOVE {game} 1. c3-d4"));
    assert!(push.contains("(22-18)"), "{push}");
    assert!(push_with(&mut b, &format!("MSG {game}")).contains("Good luck!"));
    let (code, text) = b.call(&format!("MOVE {game} 1... f6-e5"));
    assert_eq!(code, 250, "{text}");
    let mail = inbox.any("1... f6-e5 (11-15) by boris");
    assert!(mail.text.contains("a b c d e f g h"), "{}", mail.text);
    assert!(
        mail.text.contains("to move: White (alice), move 2"),
        "{}",
        mail.text
    );
    // The capture is compulsory: a quiet move by mail is refused with the capture named.
    send(
        &relay,
        &plain(&alice.address(), &relay, &subject, "2. d4-c5", ""),
    );
    let refusal = inbox.any("d4:f6");
    assert!(
        refusal.text.contains("a capture is compulsory"),
        "{}",
        refusal.text
    );
    send(
        &relay,
        &plain(&alice.address(), &relay, &subject, "2. d4:f6", ""),
    );
    push_with(&mut b, &format!("MOVE {game} 2. d4:f6"));
    assert_eq!(moves_in(&mut b, game), 3);
    drop((b, daemon));
    assert_journal_verifies(&s.config);
}

fn service(args: &[&str]) {
    let status = Command::new(args[0])
        .args(&args[1..])
        .status()
        .expect(args[0]);
    assert!(status.success(), "{args:?}");
}

#[test]
fn mail_servers_stopped_mid_game_and_a_relay_killed_lose_nothing() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let game = "em-down";
    let s = setup(&[&alice], &[BORIS], &[(game, "alice", "boris")], None);
    let mut daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let relay = s.relay_address();
    let mut inbox = Reader::new(&alice.user);
    inbox.wait("you play White");
    send(
        &relay,
        &plain(
            &alice.address(),
            &relay,
            &format!("{game} key:{}", alice.token),
            "1. e4",
            "",
        ),
    );
    push_with(&mut b, "MOVE");
    inbox.wait("accepted");

    // Both servers down; Boris moves; the relay cannot mail it and keeps trying.
    service(&["postfix", "stop"]);
    service(&["doveadm", "stop"]);
    let (code, text) = b.call(&format!("MOVE {game} 1... e5"));
    assert_eq!(code, 250, "{text}");
    std::thread::sleep(Duration::from_secs(4));
    // The relay is killed while the mail is undelivered, and comes back.
    daemon.kill9();
    drop(b);
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    std::thread::sleep(Duration::from_secs(2));
    service(&["dovecot"]);
    service(&["postfix", "start"]);

    let m = inbox.wait("1... e5");
    assert!(m.text.contains("moves: 1. e4 e5"), "{}", m.text);
    // IMAP came back too: Alice's next move is read.
    send(
        &relay,
        &plain(
            &alice.address(),
            &relay,
            &format!("{game} key:{}", alice.token),
            "2. Nf3",
            "",
        ),
    );
    // (Boris's new session is first re-sent what he had not acknowledged.)
    assert_push(
        &mut b,
        &format!("MOVE {game} 2."),
        &format!("MOVE {game} 2. Кg1—f3 (7163) by alice"),
    );
    inbox.wait("accepted");
    // Exactly one copy of Boris's move reached Alice.
    let copies = mails(&alice.user)
        .iter()
        .filter(|m| m.subject.contains("1... e5"))
        .count();
    assert_eq!(copies, 1);
    drop(daemon);
    assert_journal_verifies(&s.config);
}

#[test]
fn a_maildir_mail_seen_again_after_a_crash_is_not_applied_twice() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let game = "em-md";
    // The relay reads the Maildir Dovecot delivers its mail into: a relay behind a local
    // mail server. Dovecot makes the Maildir at the first delivery.
    let relay_user = unique("mdrelay");
    let maildir = PathBuf::from(format!("/var/mail/vhosts/{DOMAIN}/{relay_user}/Maildir"));
    let mut s = setup(
        &[&alice],
        &[BORIS],
        &[(game, "alice", "boris")],
        Some(&maildir),
    );
    let text = std::fs::read_to_string(&s.config)
        .unwrap()
        .replace(&s.relay, &relay_user);
    std::fs::write(&s.config, text).unwrap();
    s.relay = relay_user;
    let daemon = Daemon::start(&s.config);
    let mut b = daemon.login(&BORIS);
    let relay = s.relay_address();
    let mut inbox = Reader::new(&alice.user);
    inbox.wait("you play White");
    send(
        &relay,
        &plain(
            &alice.address(),
            &relay,
            &format!("{game} key:{}", alice.token),
            "1. e4",
            "",
        ),
    );
    push_with(&mut b, "MOVE");
    inbox.wait("accepted");
    // Handled mail is in cur/ with the Seen flag.
    let cur: Vec<PathBuf> = std::fs::read_dir(maildir.join("cur"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cur.len(), 1, "{cur:?}");
    assert!(cur[0].to_string_lossy().ends_with(":2,S"));
    assert_eq!(std::fs::read_dir(maildir.join("new")).unwrap().count(), 0);

    // As if the relay had crashed after committing but before moving it: back in new/.
    std::fs::copy(&cur[0], maildir.join("new").join("1.again.host")).unwrap();
    let again = inbox.wait("handled before");
    assert!(again.text.contains("e4"), "{}", again.text);
    assert_eq!(moves_in(&mut b, game), 1);
    drop(daemon);
    assert_journal_verifies(&s.config);
}

/// A player registered by the arbiter with `REACH email` is mailed a welcome with their key,
/// which is then in no journal entry and gone from the outbox once sent; an event's start is
/// one mail listing their games; and the key works for a move.
#[test]
fn a_player_registered_for_mail_is_welcomed_and_told_of_an_events_games_in_one_mail() {
    let _turn = lock();
    require_mail_servers();
    let s = setup(&[], &[ALICE, BORIS], &[], None);
    let daemon = Daemon::start(&s.config);
    let mut admin = daemon.connect();
    assert_eq!(admin.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    let user = unique("carol");
    let address = format!("{user}@{DOMAIN}");
    let (code, text) = admin.call(&format!(
        "PLAYER ADD carol NAME \"Carol Ames\" NOTATION san REACH email EMAIL {address}"
    ));
    assert_eq!(code, 250, "{text}");
    let key = text.split_whitespace().last().expect("the key").to_owned();
    let mut inbox = Reader::new(&user);
    let welcome = inbox.wait("welcome");
    assert!(
        welcome.text.contains(&format!("Your key: {key}")),
        "{}",
        welcome.text
    );
    assert!(
        welcome.text.contains(&s.relay_address()),
        "{}",
        welcome.text
    );
    assert!(
        welcome.subject.contains("Carol Ames"),
        "{}",
        welcome.subject
    );
    // The key is in no entry, and its outbox row went with the delivery.
    assert!(journal_texts(&s.config).iter().all(|t| !t.contains(&key)));
    let db = s.config.parent().unwrap().join("data/journal.sqlite3");
    let held = || -> i64 {
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal")
            .query_row(
                "SELECT COUNT(*) FROM outbox WHERE instr(body, ?1) > 0",
                [&key],
                |r| r.get(0),
            )
            .expect("count")
    };
    let start = Instant::now();
    while held() > 0 && start.elapsed() < TIMEOUT {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(held(), 0, "the welcome's row is removed once sent");

    // Alice, Boris, Carol: by the tables for four with a bye, Carol meets Boris in round 1
    // (Black), sits out round 2, and has White against Alice in round 3.
    for line in [
        "EVENT NEW spring SYSTEM round-robin NAME Spring",
        "EVENT ENTER spring alice boris carol",
        "EVENT START spring",
    ] {
        let (code, text) = admin.call(line);
        assert_eq!(code, 250, "{line}: {text}");
    }
    let listing = inbox.wait("Spring started");
    assert_eq!(
        listing.text.matches(", you play ").count(),
        2,
        "{}",
        listing.text
    );
    assert!(
        listing
            .text
            .contains("round 3, board 1: game spring-r3b1, you play White against alice"),
        "{}",
        listing.text
    );
    let mut alice = daemon.login(&ALICE);
    push_with(&mut alice, "GAME spring-r3b1");
    let relay = s.relay_address();
    send(
        &relay,
        &plain(
            &address,
            &relay,
            &format!("spring-r3b1 key:{key}"),
            "1. e4",
            "",
        ),
    );
    assert_push(
        &mut alice,
        "MOVE spring-r3b1",
        "MOVE spring-r3b1 1. e4 (5254) by carol",
    );
}

/// docs/events.md's worked example, pasted into an admin session as written: every line is
/// done, the mail player is welcomed, and the event starts with six games.
#[test]
fn the_worked_example_of_docs_events_runs_as_written() {
    let _turn = lock();
    require_mail_servers();
    let s = setup(&[], &[], &[], None);
    let daemon = Daemon::start(&s.config);
    let mut admin = daemon.connect();
    assert_eq!(admin.call(&format!("LOGIN admin {ADMIN_SECRET}")).0, 230);
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/events.md"))
        .expect("docs/events.md");
    let example = doc
        .split("```\n")
        .nth(1)
        .expect("the first code block is the example");
    let lines: Vec<&str> = example.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 8, "{example}");
    let mut last = String::new();
    for line in lines {
        let (code, text) = admin.call(line);
        assert_eq!(code, 250, "{line}: {text}");
        last = text;
    }
    assert!(
        last.starts_with("event club26 started: 6 game(s) in 3 round(s)"),
        "{last}"
    );
}
