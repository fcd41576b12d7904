//! `[email]`: the relay's address, how mail comes in (IMAP, a Maildir) and goes out (SMTP);
//! and each email player's `[players.email]`: the address they write from and the hash of
//! the key their mail must carry.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::check::{Checker, Field};
use super::secret::Secret;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEmail {
    address: Option<String>,
    max_message_bytes: Option<i64>,
    poll_interval_secs: Option<i64>,
    retry_max_secs: Option<i64>,
    rejected_journaled_per_sender_per_hour: Option<i64>,
    rejected_journaled_per_hour: Option<i64>,
    dns_resolver: Option<String>,
    imap: Option<RawImap>,
    maildir: Option<PathBuf>,
    smtp: Option<RawSmtp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImap {
    server: Option<String>,
    port: Option<i64>,
    tls: Option<Field<TlsMode>>,
    ca_file: Option<PathBuf>,
    user: Option<String>,
    password: Option<String>,
    password_file: Option<PathBuf>,
    mailbox: Option<String>,
    processed_mailbox: Option<String>,
    idle: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSmtp {
    server: Option<String>,
    port: Option<i64>,
    tls: Option<Field<TlsMode>>,
    ca_file: Option<PathBuf>,
    user: Option<String>,
    password: Option<String>,
    password_file: Option<PathBuf>,
    timeout_secs: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayerEmail {
    address: Option<String>,
    token_hash: Option<String>,
    dkim: Option<bool>,
}

/// How a connection to a mail server is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TlsMode {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain, then upgraded with STARTTLS before anything secret is sent.
    StartTls,
    /// No TLS: for a server on the loopback interface only.
    None,
}

#[derive(Clone, Debug)]
pub struct EmailConfig {
    /// The relay's own address: the From of its mail, the address players write to.
    pub address: String,
    /// The domain of `address`, for the Message-IDs the relay makes.
    pub domain: String,
    /// The most bytes of one mail that are read; the rest (a big attachment) is never loaded.
    pub max_message_bytes: usize,
    /// How often a mailbox is looked at when IDLE is not available, and how often the outbox
    /// is looked at besides the live feed.
    pub poll_interval: Duration,
    /// The longest wait between two attempts to send one mail.
    pub retry_max: Duration,
    /// Refused mail journaled per claimed sender in an hour; beyond it, counted and logged
    /// (rate-limited), not journaled: a flood cannot grow the record without end.
    pub rejected_per_sender_per_hour: u32,
    /// The same bound over all senders together.
    pub rejected_per_hour: u32,
    /// The DNS server DKIM keys are looked up at (UDP and TCP); the system's resolver
    /// (`/etc/resolv.conf`) when unset.
    pub dns_resolver: Option<std::net::SocketAddr>,
    pub imap: Option<ImapConfig>,
    pub maildir: Option<PathBuf>,
    pub smtp: SmtpConfig,
}

#[derive(Clone, Debug)]
pub struct ImapConfig {
    pub server: String,
    pub port: u16,
    pub tls: TlsMode,
    /// A PEM file of certificates to trust besides the system's (a self-signed server).
    pub ca_file: Option<PathBuf>,
    pub user: String,
    pub password: Secret,
    pub mailbox: String,
    /// Processed mail is moved here; without it, it is flagged `$CcrelayDone` and left.
    pub processed_mailbox: Option<String>,
    pub idle: bool,
}

#[derive(Clone, Debug)]
pub struct SmtpConfig {
    pub server: String,
    pub port: u16,
    pub tls: TlsMode,
    pub ca_file: Option<PathBuf>,
    pub user: Option<String>,
    pub password: Option<Secret>,
    pub timeout: Duration,
}

/// How a player is reached by email and how their mail is authenticated.
#[derive(Clone, Debug)]
pub struct PlayerEmail {
    /// The only address the player's mail may come from and the relay's mail goes to
    /// (compared without regard to case).
    pub address: String,
    /// The Argon2id hash of the player's email token (`ccrelay hash-secret`).
    pub token_hash: String,
    /// Whether their mail must carry a passing DKIM signature of their From domain.
    pub dkim: bool,
}

/// `local@domain` with one `@`, no spaces or angle brackets; returns the domain.
pub fn address_domain(address: &str) -> Option<&str> {
    let (local, domain) = address.rsplit_once('@')?;
    let ok = !local.is_empty()
        && !domain.is_empty()
        && !address.contains(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | ',' | '"'))
        && !local.contains('@');
    ok.then_some(domain)
}

/// Whether the relay's mailer can send to `address`, by the mailer's own parsers: `lettre`'s
/// `Mailbox`, which the mail's `To:` is built from (`transport/email/outbound/`), and its
/// `Address`, the SMTP envelope's recipient (`transport/email/smtp.rs`). An address these
/// refuse (`x@[127.0.0.1]`, which the looser [`address_domain`] takes) could never be mailed:
/// a player is not registered with it.
pub fn mailable(address: &str) -> Result<(), String> {
    let refused = |e: lettre::address::AddressError| {
        format!("{address:?} is not an address the relay can send mail to ({e})")
    };
    address
        .parse::<lettre::message::Mailbox>()
        .map_err(refused)?;
    address.parse::<lettre::Address>().map_err(refused)?;
    Ok(())
}

fn is_loopback(server: &str) -> bool {
    server == "localhost"
        || server
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Checks `[email]`, which must be there if a player is reached by email (`needed`).
pub(super) fn check(c: &mut Checker, raw: Option<RawEmail>, needed: bool) -> Option<EmailConfig> {
    let Some(raw) = raw else {
        if needed {
            c.problem("email", "missing: some players are reached by email");
        }
        return None;
    };
    let address = c.required("email.address", raw.address);
    let domain = match address_domain(&address) {
        Some(d) => d.to_ascii_lowercase(),
        None => {
            if !address.is_empty() {
                c.problem("email.address", format!("{address:?} is not an address"));
            }
            String::new()
        }
    };
    let max_message_bytes = c.positive(
        "email.max_message_bytes",
        raw.max_message_bytes,
        1 << 20,
        64 << 20,
    ) as usize;
    let poll_interval = Duration::from_secs(c.positive(
        "email.poll_interval_secs",
        raw.poll_interval_secs,
        60,
        86_400,
    ));
    let retry_max =
        Duration::from_secs(c.positive("email.retry_max_secs", raw.retry_max_secs, 300, 86_400));
    let rejected_per_sender_per_hour = c.positive(
        "email.rejected_journaled_per_sender_per_hour",
        raw.rejected_journaled_per_sender_per_hour,
        20,
        1_000_000,
    ) as u32;
    let rejected_per_hour = c.positive(
        "email.rejected_journaled_per_hour",
        raw.rejected_journaled_per_hour,
        200,
        10_000_000,
    ) as u32;
    let dns_resolver = raw.dns_resolver.and_then(|text| match text.parse() {
        Ok(addr) => Some(addr),
        Err(_) => {
            c.problem(
                "email.dns_resolver",
                format!("{text:?} is not an IP address and port (\"127.0.0.1:53\")"),
            );
            None
        }
    });
    let imap = raw.imap.map(|raw| check_imap(c, raw));
    let maildir = raw.maildir.map(|path| c.path(path));
    if imap.is_none() && maildir.is_none() {
        c.problem(
            "email",
            "no inbound mail: set [email.imap] or email.maildir (or both)",
        );
    }
    let smtp = check_smtp(c, raw.smtp);
    Some(EmailConfig {
        address,
        domain,
        max_message_bytes,
        poll_interval,
        retry_max,
        rejected_per_sender_per_hour,
        rejected_per_hour,
        dns_resolver,
        imap,
        maildir,
        smtp,
    })
}

/// A mail server password (`password` or `password_file`) under `prefix`, as text.
fn password(
    c: &mut Checker,
    prefix: &str,
    inline: Option<String>,
    file: Option<PathBuf>,
    required: bool,
) -> Option<Secret> {
    let bytes = c.secret(prefix, "password", inline, file, required)?;
    match String::from_utf8(bytes) {
        Ok(text) => Some(Secret(text)),
        Err(_) => {
            c.problem(format!("{prefix}.password_file"), "not UTF-8 text");
            None
        }
    }
}

fn check_imap(c: &mut Checker, raw: RawImap) -> ImapConfig {
    let server = c.required("email.imap.server", raw.server);
    let tls = c.read("email.imap.tls", raw.tls).unwrap_or(TlsMode::Tls);
    let default_port = if tls == TlsMode::Tls { 993 } else { 143 };
    let port = c.positive("email.imap.port", raw.port, default_port, 65_535) as u16;
    let user = c.required("email.imap.user", raw.user);
    let password = password(c, "email.imap", raw.password, raw.password_file, true)
        .unwrap_or_else(|| Secret(String::new()));
    if tls == TlsMode::None && !is_loopback(&server) {
        c.problem(
            "email.imap.tls",
            "the IMAP password is never sent in clear to another machine: say tls or starttls",
        );
    }
    ImapConfig {
        server,
        port,
        tls,
        ca_file: raw.ca_file.map(|path| c.path(path)),
        user,
        password,
        mailbox: raw.mailbox.unwrap_or_else(|| "INBOX".to_owned()),
        processed_mailbox: raw.processed_mailbox,
        idle: raw.idle.unwrap_or(true),
    }
}

fn check_smtp(c: &mut Checker, raw: Option<RawSmtp>) -> SmtpConfig {
    let Some(raw) = raw else {
        c.problem("email.smtp", "missing: the relay's mail goes out by SMTP");
        return SmtpConfig {
            server: String::new(),
            port: 25,
            tls: TlsMode::None,
            ca_file: None,
            user: None,
            password: None,
            timeout: Duration::from_secs(60),
        };
    };
    let server = c.required("email.smtp.server", raw.server);
    let tls = c.read("email.smtp.tls", raw.tls).unwrap_or(TlsMode::Tls);
    let default_port = match tls {
        TlsMode::Tls => 465,
        TlsMode::StartTls => 587,
        TlsMode::None => 25,
    };
    let port = c.positive("email.smtp.port", raw.port, default_port, 65_535) as u16;
    let password = password(c, "email.smtp", raw.password, raw.password_file, false);
    if raw.user.is_some() != password.is_some() {
        c.problem("email.smtp.user", "user and password go together");
    }
    if raw.user.is_some() && tls == TlsMode::None {
        c.problem(
            "email.smtp.tls",
            "a password is never sent without TLS: say tls or starttls",
        );
    }
    SmtpConfig {
        server,
        port,
        tls,
        ca_file: raw.ca_file.map(|path| c.path(path)),
        user: raw.user,
        password,
        timeout: Duration::from_secs(c.positive(
            "email.smtp.timeout_secs",
            raw.timeout_secs,
            60,
            3_600,
        )),
    }
}

/// Checks one player's `[players.email]`; `prefix` is its key (`players[0].email`).
pub(super) fn check_player(c: &mut Checker, prefix: &str, raw: RawPlayerEmail) -> PlayerEmail {
    let address_key = format!("{prefix}.address");
    let address = c.required(&address_key, raw.address);
    if !address.is_empty() && address_domain(&address).is_none() {
        c.problem(address_key, format!("{address:?} is not an address"));
    } else if !address.is_empty()
        && let Err(why) = mailable(&address.to_lowercase())
    {
        c.problem(address_key, why);
    }
    let token_hash = c.secret_hash(&format!("{prefix}.token_hash"), raw.token_hash);
    PlayerEmail {
        address: address.to_lowercase(),
        token_hash,
        dkim: raw.dkim.unwrap_or(false),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{Config, Reach};

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ";

    /// Finding "an address the mailer cannot send to": what the mailer's parsers refuse is
    /// refused, though the looser shape check takes it.
    #[test]
    fn an_address_is_one_the_mailer_can_send_to() {
        use super::{address_domain, mailable};
        for good in ["carol@example.org", "o'brien+chess@mail.example.org"] {
            assert_eq!(mailable(good), Ok(()), "{good}");
        }
        for bad in ["x@[127.0.0.1]", "x@exa mple.org", "x@-example.org"] {
            let refused = mailable(bad).unwrap_err();
            assert!(refused.contains("can send mail to"), "{bad}: {refused}");
        }
        assert!(address_domain("x@[127.0.0.1]").is_some());
    }

    #[test]
    fn every_bad_email_key_is_named() {
        let text = format!(
            r#"
[email]
address = "not an address"
poll_interval_secs = 0
[email.imap]
server = "imap.example.org"
tls = "maybe"
user = "relay"
password = "a"
password_file = "b"
[email.smtp]
server = "smtp.example.org"
tls = "none"
user = "relay"
[[players]]
id = "alice"
secret_hash = "{HASH}"
reach = "email"
[players.email]
address = "alice"
token_hash = "plain"
[[players]]
id = "boris"
secret_hash = "{HASH}"
reach = "email"
"#
        );
        let err = Config::from_toml(&text, Path::new(".")).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        for key in [
            "email.address",
            "email.poll_interval_secs",
            "email.imap.tls",
            "email.imap.password",
            "email.smtp.user",
            "email.smtp.tls",
            "players[0].email.address",
            "players[0].email.token_hash",
            "players[1].email",
        ] {
            assert!(keys.contains(&key), "{key} not reported in {err}");
        }
    }

    #[test]
    fn a_good_email_section_and_no_password_in_debug() {
        let text = format!(
            r#"
[email]
address = "relay@chess.example.org"
maildir = "/var/mail/relay"
[email.smtp]
server = "smtp.example.org"
tls = "starttls"
user = "relay"
password = "s3cret-pw"
[[players]]
id = "alice"
secret_hash = "{HASH}"
reach = "email"
[players.email]
address = "Alice@Example.org"
token_hash = "{HASH}"
"#
        );
        let config = Config::from_toml(&text, Path::new(".")).unwrap();
        let email = config.email.as_ref().unwrap();
        assert_eq!(email.domain, "chess.example.org");
        assert_eq!(email.smtp.port, 587);
        assert_eq!(config.players["alice"].reach, Reach::Email);
        assert_eq!(
            config.players["alice"].email.as_ref().unwrap().address,
            "alice@example.org"
        );
        assert!(!format!("{config:?}").contains("s3cret-pw"));
    }
}
