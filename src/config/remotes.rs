//! `[[remotes]]`: a local player's account on a remote XFCC server (ICCF's, another club's
//! ccrelay), whose games this relay plays for them as local games (docs/xfcc.md, "Playing a
//! remote server's games through ccrelay"). The remote keeps those games' records; the
//! password is read from a file at start, never logged and never printed.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use super::check::Checker;
use super::players::{Players, Reach};
use super::secret::Secret;

/// The shortest polling interval allowed, in minutes: a remote server is someone else's, and
/// a correspondence game does not need fresher news.
pub const POLL_MIN_MINUTES: u64 = 1;
/// The polling interval when none is given, in minutes.
pub const POLL_DEFAULT_MINUTES: u64 = 15;
/// The longest polling interval, in minutes (a day).
const POLL_MAX_MINUTES: u64 = 1_440;
/// The longest remote id: a remote game's local id is `<remote id>-<its id there>`, and a
/// game id is at most 64 characters.
pub const REMOTE_ID_MAX: usize = 16;

/// A remote account as the file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRemote {
    id: Option<String>,
    url: Option<String>,
    insecure_http: Option<bool>,
    ca_file: Option<PathBuf>,
    player: Option<String>,
    username: Option<String>,
    password_file: Option<PathBuf>,
    poll_minutes: Option<i64>,
    events: Option<Vec<String>>,
}

/// A local player's account on a remote XFCC server.
#[derive(Clone, Debug)]
pub struct RemoteConfig {
    /// What the account's games are prefixed with here (`iccf` makes game `iccf-1234`).
    pub id: String,
    /// The server's XFCC endpoint: `https://`, or `http://` only with `insecure_http = true`.
    pub url: String,
    /// The CA certificate that signs the server's, when not one of the system's roots.
    pub ca_file: Option<PathBuf>,
    /// The local player whose account it is: they play its games here.
    pub player: String,
    /// The account's name on the server.
    pub username: String,
    /// The account's password, read from `password_file` at start (`Debug` shows `***`).
    pub password: Secret,
    /// How often the account's games are asked for.
    pub poll: Duration,
    /// The events whose games are played here; empty: every game of the account.
    pub events: Vec<String>,
    /// What says the account's configuration changed (the digest `stamp` makes): a paused
    /// account stays paused through a restart with the same stamp.
    pub stamp: String,
}

/// A digest (SHA-256, hex) of what makes an account's configuration another: its URL, its
/// username, and its password file's path, length and modification time. Never the password
/// nor anything made of it, since the digest is kept in the record: a password written anew
/// to the file changes its time, which is enough to try the server again.
pub fn stamp(url: &str, username: &str, password_file: Option<&std::path::Path>) -> String {
    use sha2::{Digest, Sha256};
    let mut digest = Sha256::new();
    for part in [url, username] {
        digest.update(part.as_bytes());
        digest.update([0]);
    }
    if let Some(file) = password_file {
        digest.update(file.as_os_str().as_encoded_bytes());
        digest.update([0]);
        if let Ok(meta) = std::fs::metadata(file) {
            digest.update(meta.len().to_le_bytes());
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .unwrap_or_default();
            digest.update(modified.as_nanos().to_le_bytes());
        }
    }
    hex::encode(digest.finalize())
}

impl RemoteConfig {
    /// Whether a game of `event` is played here.
    pub fn takes_event(&self, event: &str) -> bool {
        self.events.is_empty() || self.events.iter().any(|e| e == event)
    }
}

/// Checks `[[remotes]]` against the players: each account belongs to a player reached here
/// (not across a link), and no two share an id.
pub(super) fn check(c: &mut Checker, raw: Vec<RawRemote>, players: &Players) -> Vec<RemoteConfig> {
    let mut remotes: Vec<RemoteConfig> = Vec::new();
    for (i, r) in raw.into_iter().enumerate() {
        let prefix = format!("remotes[{i}]");
        let remote = check_one(c, &prefix, r, players);
        if remotes.iter().any(|other| other.id == remote.id) {
            c.problem(
                format!("{prefix}.id"),
                format!("{:?} is used twice", remote.id),
            );
        }
        // `<remote>.<name>` is how the relay names a player on that server.
        let mut named: Vec<&String> = players
            .keys()
            .filter(|p| p.starts_with(&format!("{}.", remote.id)))
            .collect();
        named.sort_unstable();
        if let Some(player) = named.first() {
            c.problem(
                format!("{prefix}.id"),
                format!(
                    "player {player:?} would read as a player on remote {:?}: rename one",
                    remote.id
                ),
            );
        }
        remotes.push(remote);
    }
    remotes
}

fn check_one(c: &mut Checker, prefix: &str, r: RawRemote, players: &Players) -> RemoteConfig {
    let key = |field: &str| format!("{prefix}.{field}");
    let id = c.required(&key("id"), r.id);
    if !id.is_empty()
        && (id.len() > REMOTE_ID_MAX || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    {
        c.problem(
            key("id"),
            format!(
                "{id:?} is not a remote id: ASCII letters, digits and '_', 1 to {REMOTE_ID_MAX} of them"
            ),
        );
    }
    let url = c.required(&key("url"), r.url);
    let insecure = r.insecure_http.unwrap_or(false);
    if !url.is_empty() {
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("http://") {
            if !insecure {
                c.problem(
                    key("url"),
                    "plain http:// sends the password unencrypted: use https://, or say insecure_http = true",
                );
            }
        } else if !lower.starts_with("https://") || url.len() <= "https://".len() {
            c.problem(key("url"), format!("{url:?} is not an https:// URL"));
        }
    }
    let ca_file = r.ca_file.map(|f| {
        let f = c.path(f);
        if !f.is_file() {
            c.problem(key("ca_file"), format!("no file {}", f.display()));
        }
        f
    });
    let player = c.required(&key("player"), r.player);
    match players.get(&player) {
        None if !player.is_empty() => {
            c.problem(key("player"), format!("no player {player:?}"));
        }
        Some(p) if matches!(p.reach, Reach::Link(_)) => {
            c.problem(
                key("player"),
                format!("{player:?} plays on another node: a remote account is for a player here"),
            );
        }
        _ => {}
    }
    let username = c.required(&key("username"), r.username);
    if username.chars().any(char::is_control) {
        c.problem(key("username"), "a control character in the name");
    }
    let password_file = r.password_file.clone().map(|f| c.path(f));
    let password = match r.password_file {
        Some(file) => c.secret(prefix, "password", None, Some(file), true),
        None => {
            c.problem(
                key("password_file"),
                "missing: the file holding the password",
            );
            None
        }
    };
    let password = match password.map(String::from_utf8) {
        Some(Ok(p)) if !p.is_empty() => p,
        Some(Ok(_)) => {
            c.problem(key("password_file"), "the file is empty");
            String::new()
        }
        Some(Err(_)) => {
            c.problem(key("password_file"), "the password is not UTF-8 text");
            String::new()
        }
        None => String::new(),
    };
    let minutes = match r.poll_minutes {
        Some(m) if m < POLL_MIN_MINUTES as i64 => {
            c.problem(
                key("poll_minutes"),
                format!(
                    "{m} is below {POLL_MIN_MINUTES}: a remote server is not polled more often"
                ),
            );
            POLL_DEFAULT_MINUTES
        }
        given => c.positive(
            &key("poll_minutes"),
            given,
            POLL_DEFAULT_MINUTES,
            POLL_MAX_MINUTES,
        ),
    };
    let events = r.events.unwrap_or_default();
    for (j, event) in events.iter().enumerate() {
        if event.trim().is_empty() || event.chars().any(char::is_control) {
            c.problem(format!("{prefix}.events[{j}]"), "not an event's name");
        }
    }
    let stamp = stamp(&url, &username, password_file.as_deref());
    RemoteConfig {
        id,
        url,
        ca_file,
        player,
        username,
        password: Secret(password),
        poll: Duration::from_secs(minutes * 60),
        events,
        stamp,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::Config;

    const PLAYERS: &str = r#"
data_dir = "./data"
[[players]]
id = "alice"
secret_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ"
"#;

    fn load(dir: &Path, remote: &str) -> Result<Config, Vec<(String, String)>> {
        let text = format!("{PLAYERS}\n[[remotes]]\n{remote}");
        Config::from_toml(&text, dir)
            .map_err(|e| e.problems.into_iter().map(|p| (p.key, p.message)).collect())
    }

    #[test]
    fn a_remote_account_is_read_with_its_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pw"), "s3cret horse\n").unwrap();
        let config = load(
            dir.path(),
            r#"id = "iccf"
url = "https://www.iccf.com/XfccBasic.asmx"
player = "alice"
username = "alice_k"
password_file = "pw"
"#,
        )
        .unwrap();
        let r = &config.remotes[0];
        assert_eq!((r.id.as_str(), r.player.as_str()), ("iccf", "alice"));
        assert_eq!(r.password.0, "s3cret horse");
        assert_eq!(r.poll, std::time::Duration::from_secs(15 * 60));
        assert!(r.takes_event("anything") && r.ca_file.is_none());
        assert!(!format!("{r:?}").contains("horse"), "{r:?}");
    }

    #[test]
    fn each_bad_key_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pw"), "horse").unwrap();
        let problems = load(
            dir.path(),
            r#"id = "iccf-1"
url = "http://x.example/xfcc"
ca_file = "missing.pem"
player = "bob"
username = "b"
password_file = "pw"
poll_minutes = 0
events = [""]
"#,
        )
        .unwrap_err();
        let keys: Vec<&str> = problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "remotes[0].id",
                "remotes[0].url",
                "remotes[0].ca_file",
                "remotes[0].player",
                "remotes[0].poll_minutes",
                "remotes[0].events[0]",
            ],
            "{problems:?}"
        );
        for (_, message) in &problems {
            assert!(!message.contains("horse"), "{message}");
        }
        let missing = load(dir.path(), "id = \"iccf\"\n").unwrap_err();
        let keys: Vec<&str> = missing.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "remotes[0].url",
                "remotes[0].player",
                "remotes[0].username",
                "remotes[0].password_file",
            ]
        );
        // Plain HTTP when said; a poll of a minute is the floor, not below it.
        let config = load(
            dir.path(),
            "id = \"club\"\nurl = \"http://127.0.0.1:9/x\"\ninsecure_http = true\nplayer = \"alice\"\nusername = \"a\"\npassword_file = \"pw\"\npoll_minutes = 1\nevents = [\"Club 2026\"]\n",
        )
        .unwrap();
        assert_eq!(config.remotes[0].poll.as_secs(), 60);
        assert!(config.remotes[0].takes_event("Club 2026"));
        assert!(!config.remotes[0].takes_event("Other"));
    }
}
