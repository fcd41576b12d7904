//! Mail under attack and mail that cannot be delivered, against the real mail servers of
//! `tests/mail/setup.sh` (and, for DKIM, a real authoritative DNS server, NSD, started here):
//!
//! - a flood of refused mail, from one sender and from many, grows the journal by at most
//!   `email.rejected_journaled_per_sender_per_hour` per sender and
//!   `email.rejected_journaled_per_hour` in all, and a good mail afterwards is played;
//! - mail Postfix refuses for good (550 at RCPT TO: `gone-*@ccrelay.test`) is parked as a dead
//!   letter, the player's later mail goes on, and the admin sees, retries and drops it, across
//!   a restart;
//! - a DKIM-signed mail passes, and the same mail changed after signing is refused, with the
//!   key served by NSD on a free port and the relay's `email.dns_resolver` pointing at it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;

use crate::support::config::BORIS;
use crate::support::daemon::Daemon;
use crate::support::journal::{assert_journal_verifies, email_rejections};
use crate::support::line::{Client, moves_in, push_with};
use crate::support::mail::{
    DOMAIN, EmailPlayer, MAIL_CA, Reader, lock, plain, require_mail_servers, send, setup, unique,
};
use crate::support::port;

/// Adds `keys` to the `[email]` section of a test configuration.
fn email_keys(config: &Path, keys: &str) {
    let text = std::fs::read_to_string(config).expect("config");
    let text = text.replacen("[email]\n", &format!("[email]\n{keys}"), 1);
    std::fs::write(config, text).expect("config");
}

/// Puts a mail into a Maildir's `new/`, as a local mail server delivers it.
fn deliver(maildir: &Path, raw: &[u8]) {
    let name = unique("flood");
    let tmp = maildir.join("tmp").join(&name);
    std::fs::write(&tmp, raw).expect("write mail");
    std::fs::rename(&tmp, maildir.join("new").join(&name)).expect("deliver");
}

fn wait_maildir_read(maildir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(90);
    while std::fs::read_dir(maildir.join("new")).map_or(0, |d| d.count()) > 0 {
        assert!(
            Instant::now() < deadline,
            "the Maildir was not read in time"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn floods_of_refused_mail_grow_the_journal_by_at_most_the_bounds() {
    let _turn = lock();
    require_mail_servers();
    let alice = EmailPlayer::new("alice", "san", None);
    let game = "em-flood";
    let maildir = tempfile::tempdir().expect("maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.path().join(sub)).expect("maildir");
    }
    let s = setup(
        &[&alice],
        &[BORIS],
        &[(game, "alice", "boris")],
        Some(maildir.path()),
    );
    email_keys(
        &s.config,
        "rejected_journaled_per_sender_per_hour = 3\nrejected_journaled_per_hour = 10\n",
    );
    let daemon = Daemon::start(&s.config);
    let mut boris = daemon.login(&BORIS);
    let mut inbox = Reader::new(&alice.user);
    inbox.wait("you play White");
    let relay = s.relay_address();
    let mallory = format!("{}@{DOMAIN}", unique("mallory"));

    // One sender, 30 times; 40 senders once each; Alice's address forged 10 times with a
    // wrong key (each refusal journaled would also mail her a note).
    for i in 0..30 {
        deliver(
            maildir.path(),
            &plain(&mallory, &relay, &format!("{game} key:x{i}"), "1. e4", ""),
        );
    }
    for i in 0..40 {
        let from = format!("{}@{DOMAIN}", unique(&format!("spam{i}")));
        deliver(maildir.path(), &plain(&from, &relay, game, "1. e4", ""));
    }
    for i in 0..10 {
        deliver(
            maildir.path(),
            &plain(
                &alice.address(),
                &relay,
                &format!("{game} key:wrong{i}"),
                "1. h4",
                "",
            ),
        );
    }
    wait_maildir_read(maildir.path());

    let rejected = email_rejections(&s.config);
    let from = |who: &str| rejected.iter().filter(|(p, _)| p == who).count();
    assert_eq!(rejected.len(), 10, "the bound in all: {rejected:#?}");
    assert!(from(&mallory) <= 3, "one sender: {rejected:#?}");
    assert!(from(alice.id) <= 3, "a forged player: {rejected:#?}");
    assert_eq!(moves_in(&mut boris, game), 0);

    // A good mail afterwards is played.
    deliver(
        maildir.path(),
        &plain(
            &alice.address(),
            &relay,
            &format!("{game} key:{}", alice.token),
            "1. e4",
            "",
        ),
    );
    let push = push_with(&mut boris, "MOVE");
    assert!(push.starts_with(&format!("MOVE {game} 1. e2—e4")), "{push}");
    inbox.wait("accepted");
    // The forged mails got Alice at most as many notes as were journaled for her address.
    let notes = crate::support::mail::mails(&alice.user)
        .iter()
        .filter(|m| m.text.contains("claiming to come from you"))
        .count();
    assert!(
        notes <= from(alice.id),
        "{notes} notes for {} journaled",
        from(alice.id)
    );
    assert_eq!(email_rejections(&s.config).len(), 10);
    drop(daemon);
    assert_journal_verifies(&s.config);
}

/// `DEAD` as the admin: (parked, waiting) counts and the letters' lines.
fn dead(admin: &mut Client) -> (usize, usize, Vec<String>) {
    let text = crate::support::line::ok(admin, "DEAD");
    let mut lines = text.lines();
    let head = lines.next().expect("a first line");
    let words: Vec<&str> = head.split_whitespace().collect();
    let parked = words[0].parse().expect("parked count");
    let waiting = words[4].parse().expect("waiting count");
    (parked, waiting, lines.map(str::to_owned).collect())
}

fn wait_dead(daemon: &Daemon, what: &str, ok: impl Fn(usize, usize, &[String]) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mut admin = crate::support::daemon::admin(daemon);
        let (parked, waiting, lines) = dead(&mut admin);
        if ok(parked, waiting, &lines) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: {parked} parked, {waiting} waiting: {lines:#?}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Every file under `dir`, read whole.
fn every_file(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(every_file(&path));
        } else {
            let bytes = std::fs::read(&path).expect("read");
            files.push((path, bytes));
        }
    }
    files
}

/// Findings "an address the mailer cannot send to" and "not left on disk": an address the
/// text check takes but the mailer's own parsers refuse is refused at `PLAYER ADD`, nothing
/// done; a welcome the server refuses for good is parked as a dead letter without its secret
/// (and cannot be sent again), and once the daemon has stopped no file in its data directory
/// holds the secret.
#[test]
fn an_unmailable_address_is_refused_and_an_undeliverable_welcome_keeps_no_secret() {
    let _turn = lock();
    require_mail_servers();
    let s = setup(&[], &[BORIS], &[], None);
    let mut daemon = Daemon::start(&s.config);
    let mut admin = crate::support::daemon::admin(&daemon);
    let (code, text) = admin.call("PLAYER ADD lit REACH email EMAIL x@[127.0.0.1]");
    assert_eq!(code, 400, "{text}");
    assert!(
        text.contains("\"x@[127.0.0.1]\" is not an address the relay can send mail to"),
        "{text}"
    );
    assert!(!crate::support::line::ok(&mut admin, "PLAYERS").contains("\nlit "));

    // Postfix refuses every gone-*@ccrelay.test with 550 (tests/mail/setup.sh).
    let address = format!("{}@{DOMAIN}", unique("gone"));
    let text = crate::support::line::ok(
        &mut admin,
        &format!("PLAYER ADD gina NAME \"Gina\" REACH email EMAIL {address}"),
    );
    let secret = text
        .split_whitespace()
        .last()
        .expect("the secret")
        .to_owned();
    wait_dead(&daemon, "the welcome parked", |p, _, _| p == 1);
    let (_, _, lines) = dead(&mut admin);
    assert!(lines[0].contains("player=gina"), "{lines:#?}");
    assert!(lines[0].contains("its secret not kept"), "{lines:#?}");
    assert!(!lines[0].contains(&secret), "{lines:#?}");
    let id = lines[0]
        .split_whitespace()
        .next()
        .expect("an id")
        .to_owned();
    let (code, text) = admin.call(&format!("DEAD RETRY {id}"));
    assert_eq!(code, 409, "{text}");
    assert!(text.contains("held a secret"), "{text}");
    drop(admin);

    // Stopped: the journal's log is emptied into its file; nothing holds the secret.
    assert!(daemon.terminate().success());
    let data = s.config.parent().expect("dir").join("data");
    let files = every_file(&data);
    assert!(files.iter().any(|(p, _)| p.ends_with("journal.sqlite3")));
    assert!(
        files
            .iter()
            .any(|(p, _)| p.starts_with(data.join("dead-letters")))
    );
    for (path, bytes) in files {
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{} holds the welcome's secret",
            path.display()
        );
    }
}

#[test]
fn mail_refused_for_good_is_parked_and_the_players_later_mail_goes_on() {
    let _turn = lock();
    require_mail_servers();
    // Postfix refuses every gone-*@ccrelay.test with 550 (tests/mail/setup.sh).
    let gone = EmailPlayer::new("gone", "san", None);
    assert!(gone.user.starts_with("gone-"));
    let game = "em-dead";
    let s = setup(&[&gone], &[BORIS], &[(game, "boris", "gone")], None);
    let mut daemon = Daemon::start(&s.config);
    // The game's start, refused for good: parked, not retried for ever.
    wait_dead(&daemon, "the game's start parked", |p, _, _| p == 1);
    // The player's next mail is not held back behind it: Boris's move is tried, and parked.
    let mut boris = daemon.login(&BORIS);
    crate::support::line::ok(&mut boris, &format!("MOVE {game} e4"));
    wait_dead(&daemon, "the move parked too", |p, _, _| p == 2);
    // The player can still play by mail; the answer to their mail is refused for good too,
    // and parked as well.
    let relay = s.relay_address();
    send(
        &relay,
        &plain(
            &gone.address(),
            &relay,
            &format!("{game} key:{}", gone.token),
            "1... e5",
            "",
        ),
    );
    let push = push_with(&mut boris, "MOVE");
    assert!(
        push.starts_with(&format!("MOVE {game} 1... e7—e5")),
        "{push}"
    );
    wait_dead(&daemon, "the answer to the mail parked", |p, _, lines| {
        p == 3 && lines.iter().any(|l| l.starts_with('r'))
    });
    let mut admin = crate::support::daemon::admin(&daemon);
    let (_, _, lines) = dead(&mut admin);
    for line in &lines {
        assert!(line.contains(" parked "), "{line}");
        if line.starts_with('o') {
            assert!(line.contains(&format!("player={}", gone.id)), "{line}");
        }
        assert!(line.contains(&format!("to={}", gone.address())), "{line}");
        assert!(
            line.contains(&format!("game={game}")) || line.starts_with('r'),
            "{line}"
        );
        assert!(line.contains("550"), "{line}");
    }
    assert!(lines.iter().any(|l| l.contains("move 1. e4")), "{lines:#?}");
    // Only the admin sees them.
    assert_eq!(boris.call("DEAD").0, 403);
    drop(boris);
    drop(admin);

    // Durable: the same letters after a restart, and nothing sent twice.
    assert!(daemon.terminate().success());
    let daemon = Daemon::start(&s.config);
    std::thread::sleep(Duration::from_secs(2));
    let mut admin = crate::support::daemon::admin(&daemon);
    let (parked, waiting, lines) = dead(&mut admin);
    assert_eq!((parked, waiting), (3, 0), "{lines:#?}");
    let ids: Vec<String> = lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();

    // The game's report lists the letters about the game, for the arbiter, in the signed text.
    let out = crate::support::process::ccrelay()
        .args([
            "journal", "export", "--game", game, "--format", "report", "--config",
        ])
        .arg(&s.config)
        .output()
        .expect("export");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    let section = report
        .split_once("Mail refused for good")
        .unwrap_or_else(|| panic!("no dead letters in the report:\n{report}"))
        .1;
    for (id, line) in ids.iter().zip(&lines) {
        if line.contains(&format!("game={game}")) {
            assert!(
                section.contains(&format!("  {id} parked ")),
                "{id}:\n{report}"
            );
        }
    }
    assert!(section.contains("550"), "{report}");

    // Sent again: refused for good again, so parked again, with the server's new answer.
    let text = crate::support::line::ok(&mut admin, &format!("DEAD RETRY {}", ids[0]));
    assert!(text.contains("will be sent again"), "{text}");
    let first = ids[0].clone();
    wait_dead(&daemon, "retried and parked again", |p, w, lines| {
        p == 3
            && w == 0
            && lines
                .iter()
                .any(|l| l.starts_with(&format!("{first} parked")))
    });
    // Dropped: gone.
    let text = crate::support::line::ok(&mut admin, &format!("DEAD DROP {}", ids[1]));
    assert!(text.contains("dropped"), "{text}");
    let (parked, _, _) = dead(&mut admin);
    assert_eq!(parked, 2);
    assert_eq!(admin.call(&format!("DEAD DROP {}", ids[1])).0, 404);
    assert_eq!(admin.call("DEAD RETRY nothing-here").0, 404);
    drop(daemon);
    assert_journal_verifies(&s.config);
}

/// NSD, an authoritative DNS server, serving one zone on a free port of 127.0.0.1.
struct Nsd {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Nsd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn nsd_binary() -> PathBuf {
    ["/usr/sbin/nsd", "/usr/bin/nsd"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("NSD is not installed: run `sudo apt-get install nsd` (or tests/run)")
        })
}

fn start_nsd(zone: &str, records: &str) -> Nsd {
    let nsd = nsd_binary();
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().display().to_string();
    let port = port::free();
    std::fs::write(
        dir.path().join("zone"),
        format!(
            "$ORIGIN {zone}.\n$TTL 60\n@ IN SOA ns.{zone}. admin.{zone}. 1 3600 600 86400 60\n\
             @ IN NS ns.{zone}.\nns IN A 127.0.0.1\n{records}\n"
        ),
    )
    .expect("zone");
    std::fs::write(
        dir.path().join("nsd.conf"),
        format!(
            "server:\n  ip-address: 127.0.0.1\n  port: {port}\n  username: \"\"\n  chroot: \"\"\n\
             \x20 zonesdir: \"{d}\"\n  pidfile: \"{d}/nsd.pid\"\n  database: \"\"\n\
             \x20 xfrdfile: \"{d}/xfrd.state\"\n  xfrdir: \"{d}\"\n  zonelistfile: \"{d}/zone.list\"\n\
             \x20 logfile: \"{d}/nsd.log\"\n  server-count: 1\n  verbosity: 2\n\
             remote-control:\n  control-enable: no\n\
             zone:\n  name: {zone}\n  zonefile: zone\n"
        ),
    )
    .expect("nsd.conf");
    let child = Command::new(nsd)
        .args(["-d", "-c"])
        .arg(dir.path().join("nsd.conf"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start nsd");
    let server = Nsd {
        child,
        port,
        _dir: dir,
    };
    // Ready once it answers on TCP.
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "nsd did not start on port {port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

#[test]
fn dkim_signed_mail_passes_against_a_real_dns_server_and_a_changed_one_does_not() {
    use mail_auth::common::crypto::Ed25519Key;
    use mail_auth::common::headers::HeaderWriter;
    use mail_auth::dkim::DkimSigner;

    let _turn = lock();
    require_mail_servers();
    let mut alice = EmailPlayer::new("alice", "san", None);
    alice.dkim = true;
    let game = "em-dkim";
    let selector = format!("s{}", std::process::id());
    let pkcs8 = Ed25519Key::generate_pkcs8().expect("key");
    let key = Ed25519Key::from_pkcs8_der(&pkcs8).expect("key");
    let public = base64::engine::general_purpose::STANDARD.encode(key.public_key());
    // The test domain's key, only in this DNS server: no other resolver knows ccrelay.test.
    let nsd = start_nsd(
        DOMAIN,
        &format!("{selector}._domainkey IN TXT \"v=DKIM1; k=ed25519; p={public}\""),
    );
    let s = setup(&[&alice], &[BORIS], &[(game, "alice", "boris")], None);
    email_keys(
        &s.config,
        &format!("dns_resolver = \"127.0.0.1:{}\"\n", nsd.port),
    );
    let daemon = Daemon::start(&s.config);
    let mut boris = daemon.login(&BORIS);
    let mut inbox = Reader::new(&alice.user);
    inbox.wait("you play White");
    let relay = s.relay_address();
    let signer = DkimSigner::from_key(key)
        .domain(DOMAIN)
        .selector(&selector)
        .headers(["From", "To", "Subject", "Message-ID"]);
    let sign = |body: &str| -> String {
        let mail = String::from_utf8(plain(
            &alice.address(),
            &relay,
            &format!("{game} key:{}", alice.token),
            body,
            "",
        ))
        .expect("utf-8");
        let signature = signer.sign(mail.as_bytes()).expect("sign");
        format!("{}{mail}", signature.to_header())
    };

    // Signed, then changed on the way: refused, nothing played.
    let changed = sign("1. e4").replace("1. e4", "1. d4");
    send(&relay, changed.as_bytes());
    let refused = inbox.wait("REFUSED");
    assert!(refused.text.contains("DKIM"), "{}", refused.text);
    assert_eq!(moves_in(&mut boris, game), 0);

    // Signed and untouched: the signature checks out against the key NSD serves.
    send(&relay, sign("1. e4").as_bytes());
    let push = push_with(&mut boris, "MOVE");
    assert!(push.starts_with(&format!("MOVE {game} 1. e2—e4")), "{push}");
    inbox.wait("accepted");
    let rejected = email_rejections(&s.config);
    assert_eq!(rejected.len(), 1, "{rejected:#?}");
    assert!(rejected[0].1.contains("DKIM"), "{rejected:#?}");
    drop(daemon);
    drop(nsd);
}

/// What the relay's SMTP client makes of Postfix's answers: a recipient refused with 550 is
/// refused for good (parked); the relay's own login refused (535) is not (retried: the
/// operator's configuration to fix, never a reason to give a player's mail up).
#[test]
fn smtp_refusals_for_good_are_told_from_refusals_for_now() {
    use ccrelay::config::{Secret, SmtpConfig, TlsMode};
    use ccrelay::transport::email::smtp::Smtp;

    let _turn = lock();
    require_mail_servers();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let relay = unique("relay");
    let config = |password: &str| SmtpConfig {
        server: "127.0.0.1".into(),
        port: 25,
        tls: TlsMode::StartTls,
        ca_file: Some(PathBuf::from(MAIL_CA)),
        user: Some(format!("{relay}@{DOMAIN}")),
        password: Some(Secret(password.into())),
        timeout: Duration::from_secs(20),
    };
    let from = format!("{relay}@{DOMAIN}");
    let mail = plain(&from, "x@ccrelay.test", "test", "hello", "");

    let good = Smtp::new(&config("test-pw"), &from).expect("smtp");
    let gone = format!("{}@{DOMAIN}", unique("gone"));
    let refused = runtime
        .block_on(good.send(&gone, &mail))
        .expect_err("Postfix refuses gone-*");
    assert!(refused.is_permanent(), "{refused}");
    assert!(refused.to_string().contains("550"), "{refused}");
    let fine = format!("{}@{DOMAIN}", unique("fine"));
    runtime.block_on(good.send(&fine, &mail)).expect("accepted");

    let wrong = Smtp::new(&config("wrong-pw"), &from).expect("smtp");
    let login = runtime
        .block_on(wrong.send(&fine, &mail))
        .expect_err("wrong password");
    assert!(!login.is_permanent(), "a refused login is retried: {login}");
    assert!(login.to_string().contains("535"), "{login}");
}
