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
//! | `remotes.rs` | `[[remotes]]`, a player's accounts on remote XFCC servers |
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
mod ratings;
pub mod registered;
mod remotes;
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
pub use self::players::{APRS_WIDTH, Player, PlayerRadio, Players, Reach};
pub use self::radio::{AprsSettings, RadioConfig, Tnc};
pub use self::remotes::{POLL_MIN_MINUTES, RemoteConfig};
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
    #[serde(default)]
    remotes: Vec<remotes::RawRemote>,
    email: Option<email::RawEmail>,
    ratings: Option<ratings::RawRatings>,
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
    /// Players' accounts on remote XFCC servers (`[[remotes]]`), whose games are played here.
    pub remotes: Vec<RemoteConfig>,
    /// The email transport, if configured.
    pub email: Option<EmailConfig>,
    /// `[ratings]`: the rules of the rating list (docs/ratings.md).
    pub ratings: crate::event::rating::RatingRules,
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
        let remotes = remotes::check(&mut c, raw.remotes, &players);
        let terminals = serial::check_terminals(&mut c, raw.terminals);
        let clock = clock::check(&mut c, raw.clock);
        if players.values().any(|p| p.reach == Reach::Radio)
            && !radio.iter().any(|r| r.aprs.is_some())
        {
            c.problem(
                "players",
                "a player with reach = \"radio\" needs a [[radio]] port with aprs = true",
            );
        }
        let needs_email = players.values().any(|p| p.reach == Reach::Email);
        let email = email::check(&mut c, raw.email, needs_email);
        let ratings = ratings::check(&mut c, raw.ratings);
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
            remotes,
            email,
            ratings,
        })
    }
}

#[cfg(test)]
mod tests;
