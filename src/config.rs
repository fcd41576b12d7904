//! The configuration file: TOML read into raw serde structs, then validated into [`Config`].
//!
//! Every problem is reported with the key it is under (`players[1].lang`), all at once, so one
//! run of `ccrelay check-config` shows everything to fix.
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

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::game::Game;
use crate::game::clock::{OnTimeout, Rules, TimeControl};
use crate::notation::{Lang, Notation};
use crate::transport::serial_port::SerialConfig;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    data_dir: Option<PathBuf>,
    tcp: Option<RawTcp>,
    limits: Option<RawLimits>,
    admin: Option<RawAdmin>,
    clock: Option<RawClock>,
    #[serde(default)]
    players: Vec<RawPlayer>,
    #[serde(default)]
    events: Vec<RawEvent>,
    #[serde(default)]
    games: Vec<RawGame>,
    #[serde(default)]
    links: Vec<RawLink>,
    #[serde(default)]
    terminals: Vec<RawSerial>,
    email: Option<crate::transport::email::config::RawEmail>,
}

/// A serial line's settings, as `[[terminals]]` (and links over a serial line) write them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSerial {
    device: Option<String>,
    baud: Option<i64>,
    parity: Option<String>,
    data_bits: Option<i64>,
    stop_bits: Option<i64>,
    flow_control: Option<String>,
    exclusive: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTcp {
    listen: Option<String>,
    tls_cert: Option<PathBuf>,
    tls_key: Option<PathBuf>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    max_connections: Option<i64>,
    max_line_bytes: Option<i64>,
    idle_timeout_secs: Option<i64>,
    login_timeout_secs: Option<i64>,
    login_attempts_per_minute: Option<i64>,
    commands_per_minute: Option<i64>,
    push_queue: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAdmin {
    secret_hash: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    id: Option<String>,
    name: Option<String>,
    secret_hash: Option<String>,
    notation: Option<String>,
    lang: Option<String>,
    reach: Option<String>,
    /// With `reach = "link"`: the link the player is across.
    link: Option<String>,
    email: Option<crate::transport::email::config::RawPlayerEmail>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawClock {
    mode: Option<String>,
    start: Option<String>,
    check_secs: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    id: Option<String>,
    name: Option<String>,
    site: Option<String>,
    time_control: Option<String>,
    on_timeout: Option<String>,
    reminder_days: Option<Vec<i64>>,
    silence_days: Option<i64>,
    leave_days_per_year: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    id: Option<String>,
    transport: Option<String>,
    connect: Option<String>,
    listen: Option<String>,
    device: Option<String>,
    baud: Option<i64>,
    parity: Option<String>,
    data_bits: Option<i64>,
    stop_bits: Option<i64>,
    flow_control: Option<String>,
    exclusive: Option<bool>,
    secret: Option<String>,
    secret_file: Option<PathBuf>,
    window: Option<i64>,
    retransmit_ms: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    id: Option<String>,
    event: Option<String>,
    white: Option<String>,
    black: Option<String>,
    fen: Option<String>,
    round: Option<String>,
}

/// A validated configuration.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub tcp: TcpConfig,
    pub limits: Limits,
    /// The PHC hash of the admin secret; no admin login without it.
    pub admin_secret_hash: Option<String>,
    pub players: BTreeMap<String, Player>,
    pub events: BTreeMap<String, Event>,
    pub games: Vec<GameConfig>,
    pub clock: ClockConfig,
    /// Serial lines with a player's terminal on them.
    pub terminals: Vec<SerialConfig>,
    /// Links to other ccrelay nodes.
    pub links: Vec<LinkConfig>,
    /// The email transport, if configured.
    pub email: Option<crate::transport::email::config::EmailConfig>,
}

/// A link to another ccrelay node: how to reach it and the secret both hold.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    pub id: String,
    pub transport: LinkTransport,
    pub secret: LinkSecret,
    /// DATA frames in flight before an acknowledgement (1 to 64).
    pub window: usize,
    /// The base retransmission timeout; `None`: computed from the line speed.
    pub retransmit: Option<Duration>,
}

#[derive(Clone, Debug)]
pub enum LinkTransport {
    /// Connect to the peer (and reconnect after a drop).
    TcpConnect(String),
    /// Wait for the peer to connect.
    TcpListen(SocketAddr),
    Serial(crate::transport::serial_port::SerialConfig),
}

/// A link's shared secret. Never printed: `Debug` shows its length only.
#[derive(Clone)]
pub struct LinkSecret(pub Vec<u8>);

impl fmt::Debug for LinkSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LinkSecret({} bytes)", self.0.len())
    }
}

/// Where the relay's time comes from.
#[derive(Clone, Debug)]
pub struct ClockConfig {
    /// `Some(start)`: a manual clock, starting at `start` (or the journal's last entry, if
    /// later), moved only by the administrator's `CLOCK` command. For tests and demonstrations.
    pub manual_start: Option<jiff::Timestamp>,
    /// How often the clocks of all games are checked (time forfeits, reminders).
    pub check_interval: Duration,
}

#[derive(Clone, Debug)]
pub struct TcpConfig {
    pub listen: SocketAddr,
    pub tls: Option<TlsFiles>,
}

#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Bounds on everything a client can make the daemon hold or wait for.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_connections: usize,
    pub max_line_bytes: usize,
    pub idle_timeout: Duration,
    pub login_timeout: Duration,
    pub login_attempts_per_minute: u32,
    /// Commands one session may send per minute (a rejected move is journaled, so this also
    /// bounds how fast one player can grow the journal).
    pub commands_per_minute: u32,
    pub push_queue: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 2048,
            max_line_bytes: 1024,
            idle_timeout: Duration::from_secs(900),
            login_timeout: Duration::from_secs(30),
            login_attempts_per_minute: 10,
            commands_per_minute: 600,
            push_queue: 256,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Player {
    pub id: String,
    pub name: String,
    pub secret_hash: String,
    /// How moves are written to this player (and the language their moves are read in).
    pub notation: Notation,
    pub lang: Option<Lang>,
    pub reach: Reach,
    /// Their address and email token, for players who play by email.
    pub email: Option<crate::transport::email::config::PlayerEmail>,
}

/// How a player is reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    Tcp,
    /// Across the link with this id: the player's own node checks their secret; here they
    /// have none, and their moves arrive only over that link.
    Link(String),
    /// Moves come and go by mail (`[players.email]` says where).
    Email,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub id: String,
    pub name: String,
    pub site: String,
    /// The time rules of its games, fixed in each game's record when it starts.
    pub rules: Rules,
}

#[derive(Clone, Debug)]
pub struct GameConfig {
    pub id: String,
    pub event: Option<String>,
    pub white: String,
    pub black: String,
    pub fen: Option<String>,
    pub round: Option<String>,
}

/// One problem in the configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    pub key: String,
    pub message: String,
}

/// Everything wrong with a configuration.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    pub problems: Vec<ConfigProblem>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{}: {}", p.key, p.message)?;
        }
        Ok(())
    }
}

/// A valid id: letters, digits, `-`, `_`, `.`; 1 to 64 of them (ids travel in protocol lines).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

struct Checker {
    problems: Vec<ConfigProblem>,
}

impl Checker {
    fn problem(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(ConfigProblem {
            key: key.into(),
            message: message.into(),
        });
    }

    fn required(&mut self, key: &str, value: Option<String>) -> String {
        match value {
            Some(v) if !v.trim().is_empty() => v,
            _ => {
                self.problem(key, "missing");
                String::new()
            }
        }
    }

    fn id(&mut self, key: &str, value: Option<String>) -> String {
        let id = self.required(key, value);
        if !id.is_empty() && !valid_id(&id) {
            self.problem(
                key,
                format!("{id:?} is not an id (letters, digits, '-', '_', '.'; at most 64)"),
            );
        }
        id
    }

    fn positive(&mut self, key: &str, value: Option<i64>, default: u64, max: u64) -> u64 {
        match value {
            None => default,
            Some(v) if v >= 1 && (v as u64) <= max => v as u64,
            Some(v) => {
                self.problem(key, format!("{v} is out of range (1 to {max})"));
                default
            }
        }
    }

    fn secret_hash(&mut self, key: &str, value: Option<String>) -> String {
        let hash = self.required(key, value);
        if !hash.is_empty() && crate::auth::parse_hash(&hash).is_err() {
            self.problem(
                key,
                "not a password hash (make one with `ccrelay hash-secret`)",
            );
        }
        hash
    }
}

impl Checker {
    /// A serial line's settings under `prefix` (`terminals[0]`): 8N1 without flow control and
    /// 9600 baud unless said otherwise.
    fn serial(&mut self, prefix: &str, raw: RawSerial) -> SerialConfig {
        let key = |field: &str| format!("{prefix}.{field}");
        let device = self.required(&key("device"), raw.device);
        let baud = match raw.baud {
            None => 9600,
            Some(b) if (50..=4_000_000).contains(&b) => b as u32,
            Some(b) => {
                self.problem(key("baud"), format!("{b} is out of range (50 to 4000000)"));
                9600
            }
        };
        let mut serial = SerialConfig::new(device, baud);
        if let Some(p) = &raw.parity {
            match SerialConfig::parse_parity(p) {
                Ok(v) => serial.parity = v,
                Err(e) => self.problem(key("parity"), e),
            }
        }
        if let Some(b) = raw.data_bits {
            match SerialConfig::parse_data_bits(b) {
                Ok(v) => serial.data_bits = v,
                Err(e) => self.problem(key("data_bits"), e),
            }
        }
        if let Some(b) = raw.stop_bits {
            match SerialConfig::parse_stop_bits(b) {
                Ok(v) => serial.stop_bits = v,
                Err(e) => self.problem(key("stop_bits"), e),
            }
        }
        if let Some(f) = &raw.flow_control {
            match SerialConfig::parse_flow_control(f) {
                Ok(v) => serial.flow_control = v,
                Err(e) => self.problem(key("flow_control"), e),
            }
        }
        serial.exclusive = raw.exclusive.unwrap_or(true);
        serial
    }
}

impl Config {
    /// Reads and validates a configuration file; relative paths are relative to its folder.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            problems: vec![ConfigProblem {
                key: path.display().to_string(),
                message: format!("cannot read: {e}"),
            }],
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Config::from_toml(&text, base)
    }

    /// Validates TOML text; `base` is the folder relative paths start from.
    pub fn from_toml(text: &str, base: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            // The error's own text quotes the offending line, which may hold a secret: say
            // where and what, never the line.
            let at = e.span().map_or(String::new(), |span| {
                let before = text.get(..span.start).unwrap_or(text);
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                format!("line {line}, column {column}: ")
            });
            ConfigError {
                problems: vec![ConfigProblem {
                    key: "toml".to_owned(),
                    message: format!("{at}{}", e.message().trim()),
                }],
            }
        })?;
        let mut c = Checker {
            problems: Vec::new(),
        };
        let resolve = |p: PathBuf| if p.is_absolute() { p } else { base.join(p) };

        let data_dir = resolve(raw.data_dir.unwrap_or_else(|| PathBuf::from("data")));

        let raw_tcp = raw.tcp.unwrap_or(RawTcp {
            listen: None,
            tls_cert: None,
            tls_key: None,
        });
        let listen_text = raw_tcp
            .listen
            .unwrap_or_else(|| "127.0.0.1:7878".to_owned());
        let listen = listen_text.parse().unwrap_or_else(|_| {
            c.problem(
                "tcp.listen",
                format!("{listen_text:?} is not an address:port"),
            );
            SocketAddr::from(([127, 0, 0, 1], 0))
        });
        let tls = match (raw_tcp.tls_cert, raw_tcp.tls_key) {
            (None, None) => None,
            (Some(cert), Some(key)) => Some(TlsFiles {
                cert: resolve(cert),
                key: resolve(key),
            }),
            (Some(_), None) => {
                c.problem("tcp.tls_key", "missing (tls_cert is set)");
                None
            }
            (None, Some(_)) => {
                c.problem("tcp.tls_cert", "missing (tls_key is set)");
                None
            }
        };

        let rl = raw.limits.unwrap_or_default();
        let d = Limits::default();
        let limits = Limits {
            max_connections: c.positive(
                "limits.max_connections",
                rl.max_connections,
                d.max_connections as u64,
                1_000_000,
            ) as usize,
            max_line_bytes: c.positive(
                "limits.max_line_bytes",
                rl.max_line_bytes,
                d.max_line_bytes as u64,
                65_536,
            ) as usize,
            idle_timeout: Duration::from_secs(c.positive(
                "limits.idle_timeout_secs",
                rl.idle_timeout_secs,
                d.idle_timeout.as_secs(),
                86_400 * 7,
            )),
            login_timeout: Duration::from_secs(c.positive(
                "limits.login_timeout_secs",
                rl.login_timeout_secs,
                d.login_timeout.as_secs(),
                3_600,
            )),
            login_attempts_per_minute: c.positive(
                "limits.login_attempts_per_minute",
                rl.login_attempts_per_minute,
                u64::from(d.login_attempts_per_minute),
                10_000,
            ) as u32,
            commands_per_minute: c.positive(
                "limits.commands_per_minute",
                rl.commands_per_minute,
                u64::from(d.commands_per_minute),
                1_000_000,
            ) as u32,
            push_queue: c.positive(
                "limits.push_queue",
                rl.push_queue,
                d.push_queue as u64,
                1_000_000,
            ) as usize,
        };

        let admin_secret_hash = raw
            .admin
            .map(|a| c.secret_hash("admin.secret_hash", a.secret_hash));

        let mut players = BTreeMap::new();
        for (i, p) in raw.players.into_iter().enumerate() {
            let key = |field: &str| format!("players[{i}].{field}");
            let id = c.id(&key("id"), p.id);
            let lang = match p.lang.as_deref().map(str::parse::<Lang>) {
                None => None,
                Some(Ok(lang)) => Some(lang),
                Some(Err(e)) => {
                    c.problem(key("lang"), e.to_string());
                    None
                }
            };
            let notation = match Notation::from_name(p.notation.as_deref().unwrap_or("iccf"), lang)
            {
                Ok(n) => n,
                Err(e) => {
                    c.problem(key("notation"), e);
                    Notation::Iccf
                }
            };
            let reach = match p.reach.as_deref().unwrap_or("tcp") {
                "tcp" => Reach::Tcp,
                "link" => match p.link.clone() {
                    Some(link) => Reach::Link(link),
                    None => {
                        c.problem(key("link"), "missing (reach = \"link\" needs a link id)");
                        Reach::Tcp
                    }
                },
                "email" => Reach::Email,
                other => {
                    c.problem(
                        key("reach"),
                        format!(
                            "{other:?} is not a way to reach a player (known: tcp, link, email)"
                        ),
                    );
                    Reach::Tcp
                }
            };
            if p.link.is_some() && !matches!(reach, Reach::Link(_)) {
                c.problem(key("link"), "only with reach = \"link\"");
            }
            // A player across a link logs in on their own node: no secret here, unless given.
            let secret_hash = match (&reach, p.secret_hash) {
                (Reach::Link(_), None) => String::new(),
                (_, hash) => c.secret_hash(&key("secret_hash"), hash),
            };
            let email = p.email.map(|e| e.validate(&key("email"), &mut c.problems));
            if reach == Reach::Email && email.is_none() {
                c.problem(
                    key("email"),
                    "missing ([players.email] for reach = \"email\")",
                );
            }
            let player = Player {
                email,
                name: p.name.unwrap_or_else(|| id.clone()),
                secret_hash,
                notation,
                lang,
                reach,
                id: id.clone(),
            };
            if id == "admin" {
                c.problem(key("id"), "\"admin\" is the administrator's login");
            }
            if players.insert(id.clone(), player).is_some() {
                c.problem(key("id"), format!("{id:?} is used twice"));
            }
        }

        let mut events = BTreeMap::new();
        for (i, e) in raw.events.into_iter().enumerate() {
            let key = |field: &str| format!("events[{i}].{field}");
            let id = c.id(&key("id"), e.id);
            let d = Rules::default();
            let time_control = match e.time_control.as_deref().map(str::parse::<TimeControl>) {
                None => d.time_control,
                Some(Ok(tc)) => tc,
                Some(Err(err)) => {
                    c.problem(key("time_control"), err);
                    d.time_control
                }
            };
            let on_timeout = match e.on_timeout.as_deref() {
                None => d.on_timeout,
                Some("forfeit") => OnTimeout::Forfeit,
                Some("arbiter") => OnTimeout::Arbiter,
                Some(other) => {
                    c.problem(
                        key("on_timeout"),
                        format!("{other:?}: say \"forfeit\" or \"arbiter\""),
                    );
                    d.on_timeout
                }
            };
            let mut reminder_days = Vec::new();
            for (j, days) in e.reminder_days.unwrap_or_default().into_iter().enumerate() {
                let days = c.positive(&key(&format!("reminder_days[{j}]")), Some(days), 1, 3650);
                reminder_days.push(days as u32);
            }
            if !reminder_days.is_sorted_by(|a, b| a < b) {
                c.problem(key("reminder_days"), "must be ascending");
            }
            let silence_days = e
                .silence_days
                .map(|days| c.positive(&key("silence_days"), Some(days), 1, 3650) as u32);
            let leave_days_per_year = match e.leave_days_per_year {
                None => d.leave_days_per_year,
                Some(days) if (0..=366).contains(&days) => days as u32,
                Some(days) => {
                    c.problem(
                        key("leave_days_per_year"),
                        format!("{days} is out of range (0 to 366)"),
                    );
                    d.leave_days_per_year
                }
            };
            let event = Event {
                name: e.name.unwrap_or_else(|| id.clone()),
                site: e.site.unwrap_or_else(|| "?".to_owned()),
                rules: Rules {
                    time_control,
                    on_timeout,
                    reminder_days,
                    silence_days,
                    leave_days_per_year,
                },
                id: id.clone(),
            };
            if events.insert(id.clone(), event).is_some() {
                c.problem(key("id"), format!("{id:?} is used twice"));
            }
        }

        let mut games: Vec<GameConfig> = Vec::new();
        for (i, g) in raw.games.into_iter().enumerate() {
            let key = |field: &str| format!("games[{i}].{field}");
            let id = c.id(&key("id"), g.id);
            let white = c.id(&key("white"), g.white);
            let black = c.id(&key("black"), g.black);
            for (field, player) in [("white", &white), ("black", &black)] {
                if !player.is_empty() && !players.contains_key(player) {
                    c.problem(key(field), format!("no player {player:?}"));
                }
            }
            if !white.is_empty() && white == black {
                c.problem(key("black"), "a player cannot play themself");
            }
            if let Some(event) = &g.event
                && !events.contains_key(event)
            {
                c.problem(key("event"), format!("no event {event:?}"));
            }
            if let Some(fen) = &g.fen
                && let Err(e) = Game::new(&id, &white, &black, Some(fen))
            {
                c.problem(key("fen"), e);
            }
            if games.iter().any(|other| other.id == id) {
                c.problem(key("id"), format!("{id:?} is used twice"));
            }
            games.push(GameConfig {
                id,
                event: g.event,
                white,
                black,
                fen: g.fen,
                round: g.round,
            });
        }

        let links = check_links(&mut c, raw.links, &resolve);
        for (id, p) in &players {
            if let Reach::Link(link) = &p.reach
                && !links.iter().any(|l: &LinkConfig| &l.id == link)
            {
                c.problem(format!("players.{id}.link"), format!("no link {link:?}"));
            }
        }
        let mut codes = BTreeMap::new();
        for g in &games {
            let code = crate::transport::link::frame::game_code(&g.id);
            if let Some(other) = codes.insert(code, g.id.clone()) {
                c.problem(
                    "games",
                    format!("{other:?} and {:?} share a link code; rename one", g.id),
                );
            }
        }
        let mut terminals: Vec<SerialConfig> = Vec::new();
        for (i, t) in raw.terminals.into_iter().enumerate() {
            let serial = c.serial(&format!("terminals[{i}]"), t);
            if terminals.iter().any(|other| other.device == serial.device) {
                c.problem(
                    format!("terminals[{i}].device"),
                    format!("{:?} is used twice", serial.device),
                );
            }
            terminals.push(serial);
        }

        let raw_clock = raw.clock.unwrap_or_default();
        let manual_start = match raw_clock.mode.as_deref().unwrap_or("system") {
            "system" => {
                if raw_clock.start.is_some() {
                    c.problem("clock.start", "only for mode = \"manual\"");
                }
                None
            }
            "manual" => {
                let text = raw_clock
                    .start
                    .unwrap_or_else(|| "2026-01-01T00:00:00Z".to_owned());
                match text.parse::<jiff::Timestamp>() {
                    Ok(t) => Some(t),
                    Err(e) => {
                        c.problem("clock.start", format!("{text:?}: {e}"));
                        None
                    }
                }
            }
            other => {
                c.problem(
                    "clock.mode",
                    format!("{other:?}: say \"system\" or \"manual\""),
                );
                None
            }
        };
        let clock = ClockConfig {
            manual_start,
            check_interval: Duration::from_secs(c.positive(
                "clock.check_secs",
                raw_clock.check_secs,
                60,
                86_400,
            )),
        };

        let email = raw.email.map(|e| e.validate(base, &mut c.problems));
        if email.is_none() && players.values().any(|p| p.reach == Reach::Email) {
            c.problem("email", "missing: some players are reached by email");
        }
        if c.problems.is_empty() {
            Ok(Config {
                email,
                data_dir,
                tcp: TcpConfig { listen, tls },
                limits,
                admin_secret_hash,
                players,
                events,
                games,
                clock,
                links,
                terminals,
            })
        } else {
            Err(ConfigError {
                problems: c.problems,
            })
        }
    }
}

/// Validates the `[[links]]` tables.
fn check_links(
    c: &mut Checker,
    raw: Vec<RawLink>,
    resolve: &dyn Fn(PathBuf) -> PathBuf,
) -> Vec<LinkConfig> {
    let mut links: Vec<LinkConfig> = Vec::new();
    for (i, l) in raw.into_iter().enumerate() {
        let key = |field: &str| format!("links[{i}].{field}");
        let id = c.id(&key("id"), l.id);
        let transport = match l.transport.as_deref().unwrap_or("tcp") {
            "tcp" => match (l.connect, l.listen) {
                (Some(addr), None) => Some(LinkTransport::TcpConnect(addr)),
                (None, Some(listen)) => match listen.parse() {
                    Ok(addr) => Some(LinkTransport::TcpListen(addr)),
                    Err(_) => {
                        c.problem(key("listen"), format!("{listen:?} is not an address:port"));
                        None
                    }
                },
                _ => {
                    c.problem(
                        key("connect"),
                        "a tcp link needs connect or listen (one of them)",
                    );
                    None
                }
            },
            "serial" => {
                // The same settings, checked the same way, as a terminal's line.
                let raw = RawSerial {
                    device: l.device,
                    baud: l.baud,
                    parity: l.parity,
                    data_bits: l.data_bits,
                    stop_bits: l.stop_bits,
                    flow_control: l.flow_control,
                    exclusive: l.exclusive,
                };
                let serial = c.serial(&format!("links[{i}]"), raw);
                Some(LinkTransport::Serial(serial))
            }
            other => {
                c.problem(
                    key("transport"),
                    format!("{other:?}: say \"tcp\" or \"serial\""),
                );
                None
            }
        };
        let secret = match (l.secret, l.secret_file) {
            (Some(s), None) => s.into_bytes(),
            (None, Some(path)) => {
                let path = resolve(path);
                match std::fs::read(&path) {
                    // A trailing newline from an editor is not part of the secret.
                    Ok(bytes) => bytes.trim_ascii_end().to_vec(),
                    Err(e) => {
                        c.problem(key("secret_file"), format!("{}: {e}", path.display()));
                        Vec::new()
                    }
                }
            }
            _ => {
                c.problem(key("secret"), "give secret or secret_file (one of them)");
                Vec::new()
            }
        };
        if !secret.is_empty() && secret.len() < 16 {
            c.problem(key("secret"), "too short: at least 16 bytes");
        }
        let window = c.positive(&key("window"), l.window, 4, 64) as usize;
        let retransmit = l.retransmit_ms.map(|ms| {
            Duration::from_millis(c.positive(&key("retransmit_ms"), Some(ms), 1000, 600_000))
        });
        if links.iter().any(|other| other.id == id) {
            c.problem(key("id"), format!("{id:?} is used twice"));
        }
        if let Some(transport) = transport {
            links.push(LinkConfig {
                id,
                transport,
                secret: LinkSecret(secret),
                window,
                retransmit,
            });
        }
    }
    links
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
}
