//! The configuration file: TOML read into raw serde structs, then validated into [`Config`].
//!
//! Every problem is reported with the key it is under (`players[1].lang`), all at once, so one
//! run of `ccrelay check-config` shows everything to fix. A secret (a link key, a mail server
//! password) never shows in a problem or in `Debug` output.
//!
//! This module owns every section, and imports nothing that uses it: the transports, the
//! relay and the server import their settings from here.
//!
//! | file | sections |
//! |---|---|
//! | `mod.rs` | the whole file: [`Config`], `data_dir`, the order sections are checked in |
//! | `journal.rs` | `[journal]` (the signing key) |
//! | `addresses.rs` | lists of addresses and networks ([`AddressSet`]), as several sections take them |
//! | `check.rs` | the one `Checker`, [`ConfigError`], [`valid_id`], `Field` |
//! | `secret.rs` | [`Secret`], [`LinkSecret`], and the one reader of `X` / `X_file` secrets |
//! | `tcp.rs` | `[tcp]`, `[limits]` |
//! | `http.rs` | `[http]` |
//! | `clock.rs` | `[clock]` |
//! | `players.rs` | `[admin]`, `[[players]]` |
//! | `events.rs` | `[[events]]`, `[[games]]` |
//! | `serial.rs` | `[[terminals]]` and the serial keys of `[[links]]` |
//! | `links.rs` | `[[links]]`, link codes of the games |
//! | `radio.rs` | `[[radio]]`, packet radio ports |
//! | `email.rs` | `[email]`, `[players.email]` |
//!
//! # Adding a section
//!
//! 1. A file `config/NAME.rs` holding: the raw struct (`#[derive(Deserialize)]`,
//!    `#[serde(deny_unknown_fields)]`, every field an `Option` so that the checker, not
//!    serde, decides what is required; an enum-like value as `Option<Field<T>>`, with `T` a
//!    serde enum (`#[serde(rename_all = "lowercase")]`), so a bad value is reported under its
//!    key with the other problems); the resolved type the rest of the crate uses, with `pub`
//!    fields and doc comments; and `pub(super) fn check(c: &mut Checker, raw:
//!    Option<RawNAME>) -> NAMEConfig`, which reports each problem under its full key
//!    (`NAME.port`) with `c.problem`, `c.required`, `c.positive`, `c.read`, `c.secret`
//!    (never a secret in a message) and returns a value even when something is wrong.
//! 2. Here: `mod NAME;`, `pub use` of the resolved types, a field in `RawConfig` and in
//!    [`Config`], and one line in [`Config::from_toml`]. Checks that tie the section to
//!    another (a key naming a player or a link) take the other's resolved value as an
//!    argument; check the section after the one it refers to.
//! 3. Every key documented in `config/ccrelay.toml`; a test that each bad key is named.
//!
//! The code that uses the section imports its type from `crate::config`; a config file never
//! imports a transport.
//!
//! ```
//! let text = r#"
//! data_dir = "./data"
//! [tcp]
//! listen = "127.0.0.1:0"
//! [[players]]
//! id = "alice"
//! secret_hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ"
//! "#;
//! let config = ccrelay::config::Config::from_toml(text, std::path::Path::new(".")).unwrap();
//! assert_eq!(config.players["alice"].notation.to_string(), "iccf");
//! ```

mod addresses;
mod check;
mod clock;
mod email;
mod events;
mod http;
mod journal;
mod links;
mod players;
mod radio;
pub mod registered;
mod secret;
mod serial;
mod tcp;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use self::addresses::AddressSet;
pub use self::check::{ConfigError, ConfigProblem, GAME_ID_RULE, valid_game_id, valid_id};
pub use self::clock::ClockConfig;
pub use self::email::{
    EmailConfig, ImapConfig, PlayerEmail, SmtpConfig, TlsMode, address_domain, mailable,
};
pub use self::events::{Event, GameConfig, Viewing};
pub use self::http::HttpConfig;
pub use self::journal::JournalConfig;
pub use self::links::{LinkConfig, LinkTransport, game_code};
pub use self::players::{Player, Players, Reach};
pub use self::radio::{RadioConfig, Tnc};
pub use self::secret::{LinkSecret, Secret};
pub use self::serial::{DataBits, FlowControl, Parity, SerialConfig, StopBits};
pub use self::tcp::{Limits, TcpConfig, TlsFiles};

use self::check::{Checker, toml_error};

/// The file as serde reads it; each section's raw struct lives in its own file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    data_dir: Option<PathBuf>,
    journal: Option<journal::RawJournal>,
    tcp: Option<tcp::RawTcp>,
    limits: Option<tcp::RawLimits>,
    http: Option<http::RawHttp>,
    admin: Option<players::RawAdmin>,
    clock: Option<clock::RawClock>,
    #[serde(default)]
    players: Vec<players::RawPlayer>,
    #[serde(default)]
    events: Vec<events::RawEvent>,
    #[serde(default)]
    games: Vec<events::RawGame>,
    #[serde(default)]
    links: Vec<links::RawLink>,
    #[serde(default)]
    terminals: Vec<serial::RawSerial>,
    #[serde(default)]
    radio: Vec<radio::RawRadio>,
    email: Option<email::RawEmail>,
}

/// A validated configuration.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    /// `[journal]`: the signing key.
    pub journal: JournalConfig,
    pub tcp: TcpConfig,
    pub limits: Limits,
    /// The HTTP server (XFCC), if configured.
    pub http: Option<HttpConfig>,
    /// The PHC hash of the admin secret; no admin login without it.
    pub admin_secret_hash: Option<String>,
    /// Shared with the relay, which reads them on every command (a copy would double them).
    pub players: std::sync::Arc<Players>,
    pub events: BTreeMap<String, Event>,
    pub games: Vec<GameConfig>,
    pub clock: ClockConfig,
    /// Serial lines with a player's terminal on them.
    pub terminals: Vec<SerialConfig>,
    /// Links to other ccrelay nodes.
    pub links: Vec<LinkConfig>,
    /// Packet radio ports (`[[radio]]`).
    pub radio: Vec<RadioConfig>,
    /// The email transport, if configured.
    pub email: Option<EmailConfig>,
}

impl Config {
    /// Reads and validates a configuration file; relative paths are relative to its folder.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ConfigError::one(path.display().to_string(), format!("cannot read: {e}"))
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Config::from_toml(&text, base)
    }

    /// Validates TOML text; `base` is the folder relative paths start from.
    pub fn from_toml(text: &str, base: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let mut c = Checker::new(base);
        let data_dir = c.path(raw.data_dir.unwrap_or_else(|| PathBuf::from("data")));
        let journal = journal::check(&mut c, raw.journal);
        let tcp = tcp::check(&mut c, raw.tcp);
        let limits = tcp::check_limits(&mut c, raw.limits);
        let http = http::check(&mut c, raw.http);
        let admin_secret_hash = players::check_admin(&mut c, raw.admin);
        let players = players::check(&mut c, raw.players);
        let events = events::check(&mut c, raw.events);
        let games = events::check_games(&mut c, raw.games, &players, &events);
        let links = links::check(&mut c, raw.links, &players, &games);
        let radio = radio::check(&mut c, raw.radio, &links);
        let terminals = serial::check_terminals(&mut c, raw.terminals);
        let clock = clock::check(&mut c, raw.clock);
        let needs_email = players.values().any(|p| p.reach == Reach::Email);
        let email = email::check(&mut c, raw.email, needs_email);
        c.finish(Config {
            data_dir,
            journal,
            tcp,
            limits,
            http,
            admin_secret_hash,
            players: players.into(),
            events,
            games,
            clock,
            terminals,
            links,
            radio,
            email,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ";

    #[test]
    fn every_bad_value_is_named_by_its_key() {
        let text = format!(
            r#"
[tcp]
listen = "nowhere"
[limits]
max_line_bytes = 0
[[players]]
id = "alice"
secret_hash = "{HASH}"
lang = "xx"
notation = "morse"
[[players]]
id = "alice"
secret_hash = "plain"
[[games]]
id = "g 1"
white = "alice"
black = "nobody"
fen = "not a fen"
"#
        );
        let err = Config::from_toml(&text, Path::new(".")).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        for key in [
            "tcp.listen",
            "limits.max_line_bytes",
            "players[0].lang",
            "players[0].notation",
            "players[1].secret_hash",
            "players[1].id",
            "games[0].id",
            "games[0].black",
            "games[0].fen",
        ] {
            assert!(keys.contains(&key), "{key} not reported in {err}");
        }
    }

    /// Two ids among `g0`..`g999` with one 16-bit link code (there are several).
    fn two_ids_with_one_code() -> (String, String) {
        let mut seen = BTreeMap::new();
        (0..1000)
            .map(|i| format!("g{i}"))
            .find_map(|id| {
                seen.insert(game_code(&id), id.clone())
                    .map(|other| (other, id))
            })
            .expect("a shared code among 1000 ids")
    }

    /// The benchmark's 1,000 local games were refused: two shared a link code, though no game
    /// travelled over a link.
    #[test]
    fn local_games_sharing_a_link_code_were_refused() {
        let (a, b) = two_ids_with_one_code();
        let players = format!(
            r#"
[[players]]
id = "anna"
secret_hash = "{HASH}"
[[players]]
id = "boris"
secret_hash = "{HASH}"
[[players]]
id = "ivan"
reach = "link"
link = "spb"
[[links]]
id = "spb"
transport = "tcp"
connect = "127.0.0.1:7001"
secret = "sixteen bytes at least"
"#
        );
        let local = format!(
            "{players}[[games]]\nid = \"{a}\"\nwhite = \"anna\"\nblack = \"boris\"\n\
             [[games]]\nid = \"{b}\"\nwhite = \"boris\"\nblack = \"anna\"\n"
        );
        Config::from_toml(&local, Path::new(".")).expect("local games never travel");
        let one_linked = local.replacen("black = \"boris\"", "black = \"ivan\"", 1);
        Config::from_toml(&one_linked, Path::new(".")).expect("only one of them travels");
        let both_linked = one_linked.replacen("black = \"anna\"", "black = \"ivan\"", 1);
        let err = Config::from_toml(&both_linked, Path::new(".")).unwrap_err();
        assert!(
            err.to_string()
                .contains("share a link code on link \"spb\""),
            "{err}"
        );
    }

    #[test]
    fn links_and_players_across_them_are_checked() {
        let good = format!(
            r#"
[[players]]
id = "anna"
secret_hash = "{HASH}"
[[players]]
id = "ivan"
reach = "link"
link = "spb"
[[games]]
id = "m1"
white = "anna"
black = "ivan"
[[links]]
id = "spb"
transport = "serial"
device = "/dev/ttyUSB0"
baud = 300
parity = "even"
data_bits = 7
stop_bits = 2
flow_control = "hardware"
secret = "sixteen bytes at least"
"#
        );
        let config = Config::from_toml(&good, Path::new(".")).unwrap();
        assert_eq!(config.players["ivan"].reach, Reach::Link("spb".to_owned()));
        let link = &config.links[0];
        let LinkTransport::Serial(serial) = &link.transport else {
            panic!("serial");
        };
        assert_eq!(serial.to_string(), "/dev/ttyUSB0 300 7E2");
        assert_eq!((link.window, link.tag_bytes, link.retransmit), (4, 6, None));
        // The secret never shows in a debug print (or a log line made from one).
        assert!(!format!("{config:?}").contains("sixteen"));

        let bad = r#"
[[players]]
id = "ivan"
reach = "link"
link = "nowhere"
[[players]]
id = "olga"
reach = "link"
[[links]]
id = "a"
transport = "serial"
parity = "mark"
data_bits = 9
secret = "short"
[[links]]
id = "b"
transport = "tcp"
window = 9
tag_bytes = 3
[[links]]
id = "c"
transport = "pigeon"
secret_file = "/nonexistent/key"
"#;
        let err = Config::from_toml(bad, Path::new(".")).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        for key in [
            "players.ivan.link",
            "players[1].link",
            "links[0].device",
            "links[0].parity",
            "links[0].data_bits",
            "links[0].secret",
            "links[1].connect",
            "links[1].window",
            "links[1].tag_bytes",
            "links[1].secret",
            "links[2].transport",
            "links[2].secret_file",
        ] {
            assert!(keys.contains(&key), "{key} not reported in {err}");
        }
        assert!(!err.to_string().contains("short\""), "{err}");
    }

    #[test]
    fn a_toml_error_never_quotes_the_line() {
        let err = Config::from_toml(
            "[[links]]\nsecret = \"abc\\qdef-very-secret\"\n",
            Path::new("."),
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("line 2"), "{text}");
        assert!(!text.contains("very-secret"), "{text}");
    }

    #[test]
    fn unknown_keys_are_refused() {
        let err = Config::from_toml("colour = \"blue\"", Path::new(".")).unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
    }

    #[test]
    fn the_shipped_config_loads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/ccrelay.toml");
        let config = Config::load(&path).unwrap();
        assert_eq!(config.tcp.listen.to_string(), "127.0.0.1:7878");
        assert_eq!(config.players["boris"].notation.to_string(), "lan (ru)");
        assert_eq!(config.games[0].id, "demo-1");
        assert!(config.admin_secret_hash.is_some());
    }

    /// Values serde reads as enums are refused under their own key, all in one run, with the
    /// values that would do.
    #[test]
    fn a_bad_enum_value_is_named_by_its_key_with_the_choices() {
        let text = format!(
            r#"
[clock]
mode = "sundial"
[[players]]
id = "alice"
secret_hash = "{HASH}"
reach = "pigeon"
notation = "morse"
[[events]]
id = "e"
on_timeout = "shrug"
[[links]]
id = "a"
transport = "smoke"
secret = "sixteen bytes at least"
[[links]]
id = "b"
transport = "serial"
device = "/dev/ttyS0"
parity = "mark"
data_bits = 9
stop_bits = 3
flow_control = "dtr"
exclusive = "yes"
secret = "sixteen bytes at least"
[email]
address = "relay@example.org"
maildir = "/var/mail/relay"
[email.smtp]
server = "smtp.example.org"
tls = "ssl"
"#
        );
        let err = Config::from_toml(&text, Path::new(".")).unwrap_err();
        for (key, choices) in [
            ("clock.mode", "`system` or `manual`"),
            ("players[0].reach", "`tcp`, `link`, `email`"),
            (
                "players[0].notation",
                "`iccf`, `numeric`, `san`, `lan`, `uci`, `figurine`",
            ),
            ("events[0].on_timeout", "`forfeit` or `arbiter`"),
            ("links[0].transport", "`tcp`, `serial`, `radio`"),
            ("links[1].parity", "`none`, `even`, `odd`"),
            ("links[1].data_bits", "5, 6, 7 or 8"),
            ("links[1].stop_bits", "1 or 2"),
            (
                "links[1].flow_control",
                "`none`, `software`, `xonxoff`, `hardware`, `rtscts`",
            ),
            ("links[1].exclusive", "bool"),
            ("email.smtp.tls", "`tls`, `starttls`, `none`"),
        ] {
            let problem = err
                .problems
                .iter()
                .find(|p| p.key == key)
                .unwrap_or_else(|| panic!("{key} not reported in {err}"));
            assert!(
                problem.message.contains(choices),
                "{key}: {}",
                problem.message
            );
        }
        assert!(!err.to_string().contains("variant"), "{err}");
        // A bad mode is one problem, not also a complaint about `start`.
        assert!(
            !err.problems.iter().any(|p| p.key == "clock.start"),
            "{err}"
        );
    }

    #[test]
    fn aliases_and_defaults_are_read_as_before() {
        let text = format!(
            r#"
[clock]
mode = "manual"
[[players]]
id = "alice"
secret_hash = "{HASH}"
notation = "numeric"
[[players]]
id = "boris"
secret_hash = "{HASH}"
notation = "figurine"
lang = "ru"
[[terminals]]
device = "/dev/ttyS0"
[[terminals]]
device = "/dev/ttyS1"
flow_control = "rtscts"
exclusive = false
[[terminals]]
device = "/dev/ttyS2"
flow_control = "xonxoff"
baud = 300
"#
        );
        let config = Config::from_toml(&text, Path::new(".")).unwrap();
        assert_eq!(
            config.players["alice"].notation,
            crate::notation::Notation::Iccf
        );
        assert_eq!(config.players["boris"].notation.to_string(), "figurine");
        assert_eq!(config.players["alice"].reach, Reach::Tcp);
        assert_eq!(
            config.clock.manual_start,
            Some("2026-01-01T00:00:00Z".parse().unwrap())
        );
        let t = &config.terminals;
        assert_eq!(t[0].to_string(), "/dev/ttyS0 9600 8N1");
        assert!(t[0].exclusive);
        assert_eq!(t[0].flow_control, FlowControl::None);
        assert_eq!(t[1].flow_control, FlowControl::Hardware);
        assert!(!t[1].exclusive);
        assert_eq!(t[2].flow_control, FlowControl::Software);
        assert_eq!(t[2].baud, 300);
    }

    /// Terminals and links read their serial keys through one flattened struct, which cannot
    /// deny unknown keys the serde way: they are still refused, by key, without their value.
    #[test]
    fn unknown_keys_of_terminals_and_links_are_refused_by_key() {
        let text = r#"
[[terminals]]
device = "/dev/ttyS0"
colour = "green"
[[links]]
id = "a"
connect = "peer.example.org:7879"
secret = "sixteen bytes at least"
secrte = "hunter2-hunter2-hunter2"
[[links]]
id = "b"
transport = "serial"
device = "/dev/ttyUSB0"
sped = 300
secret = "sixteen bytes at least"
"#;
        let err = Config::from_toml(text, Path::new(".")).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            ["links[0].secrte", "links[1].sped", "terminals[0].colour"],
            "{err}"
        );
        assert!(!err.to_string().contains("hunter2"), "{err}");
    }

    #[test]
    fn a_bad_serial_value_type_is_named_by_its_key() {
        let err = Config::from_toml(
            "[[terminals]]\ndevice = 5\nbaud = \"fast\"\n",
            Path::new("."),
        )
        .unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        for key in ["terminals[0].device", "terminals[0].baud"] {
            assert!(keys.contains(&key), "{key} not reported in {err}");
        }
    }

    /// The link's secret and the mail passwords are read by one helper: a key file loses its
    /// last line break, and an empty key file is too short (it was taken as no secret at all).
    #[test]
    fn a_link_secret_file_is_read_like_a_password_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("spb.key"), "sixteen bytes at least\n").unwrap();
        std::fs::write(dir.path().join("empty.key"), "\n").unwrap();
        let link = |file: &str| {
            format!("[[links]]\nid = \"spb\"\nconnect = \"peer:7879\"\nsecret_file = \"{file}\"\n")
        };
        let config = Config::from_toml(&link("spb.key"), dir.path()).unwrap();
        assert_eq!(config.links[0].secret.0, b"sixteen bytes at least");
        let err = Config::from_toml(&link("empty.key"), dir.path()).unwrap_err();
        assert_eq!(err.problems[0].key, "links[0].secret", "{err}");
        assert!(err.problems[0].message.contains("too short"), "{err}");
    }
}
