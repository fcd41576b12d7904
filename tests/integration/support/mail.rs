//! Mail against the loopback servers of `tests/mail/setup.sh` (Postfix on 127.0.0.1:25
//! delivering to Dovecot, IMAPS on 127.0.0.1:993): failing at once without them, the mail tests
//! taking turns, fresh addresses, mail injected by SMTP, a player's mailbox read by IMAP, and a
//! relay's config for players reached by mail.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ccrelay::config::{ImapConfig, Secret, SmtpConfig, TlsMode};
use ccrelay::transport::email::{imap, smtp::Smtp};
use futures::StreamExt;

use super::config::{ADMIN_SECRET, Player, players_and_games_toml};

/// The CA certificate the test mail servers' certificates are signed by.
pub const MAIL_CA: &str = "/etc/ccrelay-test/ca.pem";

/// Fails, never skips, when the mail servers of `tests/mail/setup.sh` are not running: with
/// one line naming the command that starts them, not a screen of connection errors.
pub fn require_mail_servers() {
    require_listening(&[25, 993]);
    if !std::path::Path::new(MAIL_CA).exists() {
        panic!("{MAIL_CA} missing: run `sudo tests/mail/setup.sh` (or tests/run)");
    }
}

/// Panics with the set-up command unless something listens on each loopback port.
pub(super) fn require_listening(ports: &[u16]) {
    let listening = |port: u16| {
        std::net::TcpStream::connect_timeout(
            &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
            std::time::Duration::from_secs(2),
        )
        .is_ok()
    };
    let missing: Vec<String> = ports
        .iter()
        .filter(|p| !listening(**p))
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    if !missing.is_empty() {
        panic!(
            "mail servers not running (nothing on {}): run `sudo tests/mail/setup.sh` (or tests/run)",
            missing.join(", ")
        );
    }
}

/// The test servers' mail domain: they take mail for any address in it.
pub const DOMAIN: &str = "ccrelay.test";
/// The longest wait on the mail servers: for a mail to arrive, for a server to come back.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The mail tests take turns.
static MAIL: Mutex<()> = Mutex::new(());

/// This test's turn with the mail servers, held until dropped.
pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    MAIL.lock().unwrap_or_else(|p| p.into_inner())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// A fresh local part: `name-<pid>-<n>-<time>`.
pub fn unique(name: &str) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
        % 1_000_000_000;
    format!(
        "{name}-{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

fn smtp_config() -> SmtpConfig {
    SmtpConfig {
        server: "127.0.0.1".into(),
        port: 25,
        tls: TlsMode::None,
        ca_file: None,
        user: None,
        password: None,
        timeout: Duration::from_secs(20),
    }
}

/// Injects a mail by SMTP, retrying while the server is down (up to a minute).
pub fn send(to: &str, raw: &[u8]) {
    let rt = runtime();
    let smtp = Smtp::new(&smtp_config(), &format!("injector@{DOMAIN}")).expect("smtp");
    let start = Instant::now();
    loop {
        match rt.block_on(smtp.send(to, raw)) {
            Ok(()) => return,
            Err(e) if start.elapsed() < TIMEOUT => {
                eprintln!("inject: {e}; retrying");
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(e) => panic!("cannot inject mail: {e}"),
        }
    }
}

/// A mail as a player reads it.
#[derive(Clone, Debug)]
pub struct Got {
    pub subject: String,
    pub text: String,
    pub message_id: String,
    pub raw: String,
}

fn imap_config(user: &str) -> ImapConfig {
    ImapConfig {
        server: "localhost".into(),
        port: 993,
        tls: TlsMode::Tls,
        ca_file: Some(PathBuf::from(MAIL_CA)),
        user: format!("{user}@{DOMAIN}"),
        password: Secret("test-pw".into()),
        mailbox: "INBOX".into(),
        processed_mailbox: None,
        idle: false,
    }
}

/// Every mail in `user`'s INBOX, oldest first, read by IMAP.
pub fn mails(user: &str) -> Vec<Got> {
    let rt = runtime();
    rt.block_on(async {
        let mut session = match imap::connect(&imap_config(user)).await {
            Ok(s) => s,
            Err(_) => return Vec::new(), // no mail yet: the mailbox does not exist
        };
        let mut uids: Vec<u32> = session
            .uid_search("ALL")
            .await
            .expect("search")
            .into_iter()
            .collect();
        uids.sort_unstable();
        let mut out = Vec::new();
        for uid in uids {
            let fetched: Vec<_> = session
                .uid_fetch(uid.to_string(), "BODY.PEEK[]")
                .await
                .expect("fetch")
                .collect()
                .await;
            for f in fetched {
                let f = f.expect("fetch item");
                let raw = f.body().unwrap_or_default().to_vec();
                let parsed = mail_parser::MessageParser::default()
                    .parse(&raw[..])
                    .expect("parse");
                out.push(Got {
                    subject: parsed.subject().unwrap_or_default().to_owned(),
                    text: parsed
                        .body_text(0)
                        .map(|t| t.into_owned())
                        .unwrap_or_default(),
                    message_id: parsed.message_id().unwrap_or_default().to_owned(),
                    raw: String::from_utf8_lossy(&raw).into_owned(),
                });
            }
        }
        let _ = session.logout().await;
        out
    })
}

/// A player's mailbox, read in order: each mail is taken once.
pub struct Reader {
    user: String,
    taken: usize,
}

impl Reader {
    pub fn new(user: &str) -> Reader {
        Reader {
            user: user.to_owned(),
            taken: 0,
        }
    }

    /// The next mail (in arrival order) whose subject or text contains `needle`; mails before
    /// it are skipped.
    pub fn wait(&mut self, needle: &str) -> Got {
        let start = Instant::now();
        loop {
            let all = mails(&self.user);
            if let Some(i) = all[self.taken.min(all.len())..]
                .iter()
                .position(|m| m.subject.contains(needle) || m.text.contains(needle))
            {
                let i = self.taken + i;
                self.taken = i + 1;
                return all[i].clone();
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "{}: no mail with {needle:?} after {TIMEOUT:?}; mail so far: {:#?}",
                self.user,
                all.iter().map(|m| &m.subject).collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }

    /// Any mail, read or not, whose subject or text contains `needle` (for mails whose order
    /// of arrival is not fixed: two mails sent at once).
    pub fn any(&self, needle: &str) -> Got {
        let start = Instant::now();
        loop {
            if let Some(m) = mails(&self.user)
                .into_iter()
                .find(|m| m.subject.contains(needle) || m.text.contains(needle))
            {
                return m;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "{}: no mail with {needle:?}",
                self.user
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

/// A plain UTF-8 mail.
pub fn plain(from: &str, to: &str, subject: &str, body: &str, headers: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{}@player.test>\r\n{headers}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}\r\n",
        unique("m"),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// A player reached by mail, at a fresh address of the test domain.
pub struct EmailPlayer {
    pub id: &'static str,
    pub user: String,
    pub token: &'static str,
    notation: &'static str,
    lang: Option<&'static str>,
    pub dkim: bool,
}

impl EmailPlayer {
    pub fn new(
        id: &'static str,
        notation: &'static str,
        lang: Option<&'static str>,
    ) -> EmailPlayer {
        EmailPlayer {
            id,
            user: unique(id),
            token: "tok3n",
            notation,
            lang,
            dkim: false,
        }
    }
    pub fn address(&self) -> String {
        format!("{}@{DOMAIN}", self.user)
    }
}

/// A relay's config in a temporary folder, and the relay's own address.
pub struct Setup {
    _dir: tempfile::TempDir,
    pub config: PathBuf,
    /// The relay's mailbox: the local part of its address.
    pub relay: String,
}

impl Setup {
    pub fn relay_address(&self) -> String {
        format!("{}@{DOMAIN}", self.relay)
    }
    /// The relay's plus address with a token.
    pub fn plus(&self, token: &str) -> String {
        format!("{}+{token}@{DOMAIN}", self.relay)
    }
}

/// How the relay reaches the IMAP server.
#[derive(Clone, Copy)]
pub enum Imap {
    /// IMAPS, port 993.
    Tls,
    /// Port 143, upgraded with STARTTLS.
    StartTls,
}

/// A config: `email` players reached by mail, `tcp` players by TCP, IMAP inbound (or a
/// Maildir, if `maildir` is given), SMTP out with STARTTLS and a login, 1 s polls, retries
/// capped at 2 s.
pub fn setup(
    email: &[&EmailPlayer],
    tcp: &[Player],
    games: &[(&str, &str, &str)],
    maildir: Option<&Path>,
) -> Setup {
    setup_with(email, tcp, games, maildir, Imap::Tls)
}

/// [`setup`], with the IMAP server reached as `imap` says.
pub fn setup_with(
    email: &[&EmailPlayer],
    tcp: &[Player],
    games: &[(&str, &str, &str)],
    maildir: Option<&Path>,
    imap: Imap,
) -> Setup {
    // IMAPS with IDLE; or STARTTLS, polling without IDLE.
    let (imap_port, imap_tls, idle) = match imap {
        Imap::Tls => (993, "tls", true),
        Imap::StartTls => (143, "starttls", false),
    };
    let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
    let dir = tempfile::tempdir().expect("tempdir");
    let relay = unique("relay");
    let inbound = match maildir {
        Some(path) => format!("maildir = {:?}\n", path.display().to_string()),
        None => format!(
            "[email.imap]\nserver = \"localhost\"\nport = {imap_port}\ntls = \"{imap_tls}\"\nca_file = {MAIL_CA:?}\nuser = \"{relay}@{DOMAIN}\"\npassword = \"test-pw\"\nidle = {idle}\n"
        ),
    };
    let mut text = format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[admin]\nsecret_hash = {:?}\n\
         [email]\naddress = \"{relay}@{DOMAIN}\"\npoll_interval_secs = 1\nretry_max_secs = 2\nmax_message_bytes = 262144\n{inbound}\
         [email.smtp]\nserver = \"127.0.0.1\"\nport = 25\ntls = \"starttls\"\nca_file = {MAIL_CA:?}\nuser = \"{relay}@{DOMAIN}\"\npassword = \"test-pw\"\ntimeout_secs = 10\n",
        dir.path().join("data").display().to_string(),
        hash(ADMIN_SECRET),
    );
    for p in email {
        text.push_str(&format!(
            "[[players]]\nid = {:?}\nsecret_hash = {:?}\nnotation = {:?}\nreach = \"email\"\n",
            p.id,
            hash("unused-secret"),
            p.notation
        ));
        if let Some(lang) = p.lang {
            text.push_str(&format!("lang = {lang:?}\n"));
        }
        text.push_str(&format!(
            "[players.email]\naddress = {:?}\ntoken_hash = {:?}\ndkim = {}\n",
            p.address(),
            hash(p.token),
            p.dkim
        ));
    }
    text.push_str(&players_and_games_toml(tcp, games));
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(&config, text).expect("config");
    Setup {
        _dir: dir,
        config,
        relay,
    }
}
