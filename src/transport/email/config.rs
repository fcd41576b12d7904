//! The `[email]` section and each player's `[players.email]` table: read raw by serde, then
//! checked into the types the email transport runs with. Problems are reported by key, as the
//! rest of the configuration is (`email.smtp.port`, `players[1].email.address`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::config::ConfigProblem;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEmail {
    address: Option<String>,
    max_message_bytes: Option<i64>,
    poll_interval_secs: Option<i64>,
    retry_max_secs: Option<i64>,
    imap: Option<RawImap>,
    maildir: Option<PathBuf>,
    smtp: Option<RawSmtp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawImap {
    server: Option<String>,
    port: Option<i64>,
    tls: Option<String>,
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
pub struct RawSmtp {
    server: Option<String>,
    port: Option<i64>,
    tls: Option<String>,
    ca_file: Option<PathBuf>,
    user: Option<String>,
    password: Option<String>,
    password_file: Option<PathBuf>,
    timeout_secs: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlayerEmail {
    address: Option<String>,
    token_hash: Option<String>,
    dkim: Option<bool>,
}

/// A password read from the configuration or a file. Never printed: `Debug` shows `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// How a connection to a mail server is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

struct Problems<'a>(&'a mut Vec<ConfigProblem>);

impl Problems<'_> {
    fn add(&mut self, key: &str, message: impl Into<String>) {
        self.0.push(ConfigProblem {
            key: key.to_owned(),
            message: message.into(),
        });
    }

    fn required(&mut self, key: &str, value: Option<String>) -> String {
        match value {
            Some(v) if !v.trim().is_empty() => v,
            _ => {
                self.add(key, "missing");
                String::new()
            }
        }
    }

    fn number(&mut self, key: &str, value: Option<i64>, default: u64, max: u64) -> u64 {
        match value {
            None => default,
            Some(v) if v >= 1 && (v as u64) <= max => v as u64,
            Some(v) => {
                self.add(key, format!("{v} is out of range (1 to {max})"));
                default
            }
        }
    }

    fn tls(&mut self, key: &str, value: Option<String>) -> TlsMode {
        match value.as_deref().unwrap_or("tls") {
            "tls" => TlsMode::Tls,
            "starttls" => TlsMode::StartTls,
            "none" => TlsMode::None,
            other => {
                self.add(key, format!("{other:?}: say tls, starttls or none"));
                TlsMode::Tls
            }
        }
    }

    fn password(
        &mut self,
        key: &str,
        inline: Option<String>,
        file: Option<PathBuf>,
        base: &Path,
    ) -> Option<Secret> {
        match (inline, file) {
            (Some(_), Some(_)) => {
                self.add(key, "give password or password_file, not both");
                None
            }
            (Some(p), None) => Some(Secret(p)),
            (None, Some(file)) => {
                let file = if file.is_absolute() {
                    file
                } else {
                    base.join(file)
                };
                match std::fs::read_to_string(&file) {
                    // The file's last newline is not part of the password.
                    Ok(text) => Some(Secret(text.trim_end_matches(['\r', '\n']).to_owned())),
                    Err(e) => {
                        self.add(
                            &format!("{key}_file"),
                            format!("cannot read {}: {e}", file.display()),
                        );
                        None
                    }
                }
            }
            (None, None) => None,
        }
    }
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

impl RawEmail {
    /// Checks the section; relative paths start at `base`.
    pub fn validate(self, base: &Path, problems: &mut Vec<ConfigProblem>) -> EmailConfig {
        let mut p = Problems(problems);
        let resolve = |path: PathBuf| {
            if path.is_absolute() {
                path
            } else {
                base.join(path)
            }
        };
        let address = p.required("email.address", self.address);
        let domain = match address_domain(&address) {
            Some(d) => d.to_ascii_lowercase(),
            None => {
                if !address.is_empty() {
                    p.add("email.address", format!("{address:?} is not an address"));
                }
                String::new()
            }
        };
        let max_message_bytes = p.number(
            "email.max_message_bytes",
            self.max_message_bytes,
            1 << 20,
            64 << 20,
        ) as usize;
        let poll_interval = Duration::from_secs(p.number(
            "email.poll_interval_secs",
            self.poll_interval_secs,
            60,
            86_400,
        ));
        let retry_max =
            Duration::from_secs(p.number("email.retry_max_secs", self.retry_max_secs, 300, 86_400));
        let imap = self.imap.map(|raw| {
            let server = p.required("email.imap.server", raw.server);
            let tls = p.tls("email.imap.tls", raw.tls);
            let default_port = if tls == TlsMode::Tls { 993 } else { 143 };
            let port = p.number("email.imap.port", raw.port, default_port, 65_535) as u16;
            let user = p.required("email.imap.user", raw.user);
            let password = p
                .password("email.imap.password", raw.password, raw.password_file, base)
                .unwrap_or_else(|| {
                    p.add("email.imap.password", "missing (or password_file)");
                    Secret(String::new())
                });
            ImapConfig {
                server,
                port,
                tls,
                ca_file: raw.ca_file.map(resolve),
                user,
                password,
                mailbox: raw.mailbox.unwrap_or_else(|| "INBOX".to_owned()),
                processed_mailbox: raw.processed_mailbox,
                idle: raw.idle.unwrap_or(true),
            }
        });
        let maildir = self.maildir.map(resolve);
        if imap.is_none() && maildir.is_none() {
            p.add(
                "email",
                "no inbound mail: set [email.imap] or email.maildir (or both)",
            );
        }
        let smtp = match self.smtp {
            Some(raw) => {
                let server = p.required("email.smtp.server", raw.server);
                let tls = p.tls("email.smtp.tls", raw.tls);
                let default_port = match tls {
                    TlsMode::Tls => 465,
                    TlsMode::StartTls => 587,
                    TlsMode::None => 25,
                };
                let port = p.number("email.smtp.port", raw.port, default_port, 65_535) as u16;
                let password =
                    p.password("email.smtp.password", raw.password, raw.password_file, base);
                if raw.user.is_some() != password.is_some() {
                    p.add("email.smtp.user", "user and password go together");
                }
                if raw.user.is_some() && tls == TlsMode::None {
                    p.add(
                        "email.smtp.tls",
                        "a password is never sent without TLS: say tls or starttls",
                    );
                }
                SmtpConfig {
                    server,
                    port,
                    tls,
                    ca_file: raw.ca_file.map(resolve),
                    user: raw.user,
                    password,
                    timeout: Duration::from_secs(p.number(
                        "email.smtp.timeout_secs",
                        raw.timeout_secs,
                        60,
                        3_600,
                    )),
                }
            }
            None => {
                p.add("email.smtp", "missing: the relay's mail goes out by SMTP");
                SmtpConfig {
                    server: String::new(),
                    port: 25,
                    tls: TlsMode::None,
                    ca_file: None,
                    user: None,
                    password: None,
                    timeout: Duration::from_secs(60),
                }
            }
        };
        if let Some(imap) = &imap
            && imap.tls == TlsMode::None
            && !is_loopback(&imap.server)
        {
            p.add(
                "email.imap.tls",
                "the IMAP password is never sent in clear to another machine: say tls or starttls",
            );
        }
        EmailConfig {
            address,
            domain,
            max_message_bytes,
            poll_interval,
            retry_max,
            imap,
            maildir,
            smtp,
        }
    }
}

fn is_loopback(server: &str) -> bool {
    server == "localhost"
        || server
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl RawPlayerEmail {
    /// Checks one player's email table; `key` is its prefix (`players[0].email`).
    pub fn validate(self, key: &str, problems: &mut Vec<ConfigProblem>) -> PlayerEmail {
        let mut p = Problems(problems);
        let address = p.required(&format!("{key}.address"), self.address);
        if !address.is_empty() && address_domain(&address).is_none() {
            p.add(
                &format!("{key}.address"),
                format!("{address:?} is not an address"),
            );
        }
        let token_hash = p.required(&format!("{key}.token_hash"), self.token_hash);
        if !token_hash.is_empty() && crate::auth::parse_hash(&token_hash).is_err() {
            p.add(
                &format!("{key}.token_hash"),
                "not a hash (make one with `ccrelay hash-secret`)",
            );
        }
        PlayerEmail {
            address: address.to_lowercase(),
            token_hash,
            dkim: self.dkim.unwrap_or(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{Config, Reach};

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ";

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
