//! The one checker every section is validated with, and the errors it reports.
//!
//! A section's `check` function takes its raw serde struct and a [`Checker`], and returns the
//! resolved type; every problem goes to the checker under its full key (`links[0].parity`)
//! and checking goes on, so one run names everything to fix.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

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

impl ConfigError {
    /// An error with one problem.
    pub fn one(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            problems: vec![ConfigProblem {
                key: key.into(),
                message: message.into(),
            }],
        }
    }
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

/// What a game id may be, in words, for refusals.
pub const GAME_ID_RULE: &str = "ASCII letters, digits, '-' and '_'; 1 to 64 of them";

/// A game id a new game may take: ASCII letters, digits, `-`, `_`; 1 to 64 of them. Narrower
/// than [`valid_id`]: no `.`, so an id is never a path's `..`, never ends in a file suffix
/// (`/games/p1.pgn` is game `p1`'s PGN, never game `p1.pgn`), and reads the same in a URL, a
/// mail subject, a Message-ID and a file name. Games recorded before this rule keep their ids
/// (the journal is read as it is); only new games are held to it.
pub fn valid_game_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

/// A value serde has read as `T`, or the reason it could not.
///
/// serde does the reading (enums by their `rename_all` names, numbers by `try_from`), but a
/// value it refuses inside `toml::from_str` would stop the whole file at the first mistake and
/// name only a line, not the key. Read as a `Field`, the refusal waits for the checker, which
/// reports it under its key beside every other problem.
#[derive(Debug)]
pub enum Field<T> {
    Read(T),
    Bad(String),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field<T>, D::Error> {
        let value = toml::Value::deserialize(deserializer)?;
        Ok(match value.try_into::<T>() {
            Ok(v) => Field::Read(v),
            // serde's words are a programmer's; the reader wrote a value and a number.
            Err(e) => Field::Bad(
                e.message()
                    .replace("unknown variant", "unknown value")
                    .replace("expected i64", "expected an integer"),
            ),
        })
    }
}

/// Collects the problems of a configuration being checked; knows the folder relative paths
/// start from.
pub struct Checker {
    problems: Vec<ConfigProblem>,
    base: PathBuf,
}

impl Checker {
    pub fn new(base: &Path) -> Checker {
        Checker {
            problems: Vec::new(),
            base: base.to_path_buf(),
        }
    }

    pub fn problem(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(ConfigProblem {
            key: key.into(),
            message: message.into(),
        });
    }

    /// The configuration, or every problem found while checking it.
    pub fn finish<T>(self, value: T) -> Result<T, ConfigError> {
        if self.problems.is_empty() {
            Ok(value)
        } else {
            Err(ConfigError {
                problems: self.problems,
            })
        }
    }

    /// `path` as given if absolute, else under the configuration file's folder.
    pub fn path(&self, path: PathBuf) -> PathBuf {
        if path.is_absolute() {
            path
        } else {
            self.base.join(path)
        }
    }

    /// The value serde read, or `None` (absent, or refused: then reported under `key`).
    pub fn read<T>(&mut self, key: &str, field: Option<Field<T>>) -> Option<T> {
        match field? {
            Field::Read(v) => Some(v),
            Field::Bad(message) => {
                self.problem(key, message);
                None
            }
        }
    }

    /// A value that must be there and not blank; `""` after reporting it missing.
    pub fn required(&mut self, key: &str, value: Option<String>) -> String {
        match value {
            Some(v) if !v.trim().is_empty() => v,
            _ => {
                self.problem(key, "missing");
                String::new()
            }
        }
    }

    /// A required id (see [`valid_id`]).
    pub fn id(&mut self, key: &str, value: Option<String>) -> String {
        let id = self.required(key, value);
        if !id.is_empty() && !valid_id(&id) {
            self.problem(
                key,
                format!("{id:?} is not an id (letters, digits, '-', '_', '.'; at most 64)"),
            );
        }
        id
    }

    /// An optional name a person reads (a player's, an event's, its site, a round): as the one
    /// text check ([`crate::text::check`]) allows a name, or reported.
    pub fn name(&mut self, key: &str, value: Option<String>) -> Option<String> {
        if let Some(name) = &value
            && let Err(e) = crate::text::check(name, crate::text::TextKind::Name)
        {
            self.problem(key, e.to_string());
        }
        value
    }

    /// A required game id for a new game (see [`valid_game_id`]).
    pub fn game_id(&mut self, key: &str, value: Option<String>) -> String {
        let id = self.required(key, value);
        if !id.is_empty() && !valid_game_id(&id) {
            self.problem(
                key,
                format!(
                    "{id:?} is not a game id ({GAME_ID_RULE}); a game the journal holds already keeps its id and need not be listed here"
                ),
            );
        }
        id
    }

    /// A number from `min` to `max`; `default` when absent or out of range (then reported).
    pub fn number(
        &mut self,
        key: &str,
        value: Option<i64>,
        min: u64,
        max: u64,
        default: u64,
    ) -> u64 {
        match value {
            None => default,
            Some(v) if v >= 0 && (min..=max).contains(&(v as u64)) => v as u64,
            Some(v) => {
                self.problem(key, format!("{v} is out of range ({min} to {max})"));
                default
            }
        }
    }

    /// A number from 1 to `max`, `default` when absent.
    pub fn positive(&mut self, key: &str, value: Option<i64>, default: u64, max: u64) -> u64 {
        self.number(key, value, 1, max, default)
    }

    /// A required Argon2id hash in PHC form (a player's secret, an email token).
    pub fn secret_hash(&mut self, key: &str, value: Option<String>) -> String {
        let hash = self.required(key, value);
        if !hash.is_empty() && crate::auth::parse_hash(&hash).is_err() {
            self.problem(
                key,
                "not a password hash (make one with `ccrelay hash-secret`)",
            );
        }
        hash
    }

    /// Reports each key in `unknown` (the leftovers of a table read with `#[serde(flatten)]`,
    /// where `deny_unknown_fields` cannot be used) under `prefix`.
    pub fn unknown_keys<V>(
        &mut self,
        prefix: &str,
        unknown: &std::collections::BTreeMap<String, V>,
    ) {
        for key in unknown.keys() {
            self.problem(format!("{prefix}.{key}"), "unknown key");
        }
    }
}

/// AX.25's rule: one to six upper-case letters or digits, and an SSID from 0 to 15 (`-0` or
/// none).
pub fn valid_callsign(text: &str) -> bool {
    let (call, ssid) = text.split_once('-').unwrap_or((text, "0"));
    let ssid_ok = (1..=2).contains(&ssid.len())
        && ssid.bytes().all(|b| b.is_ascii_digit())
        && ssid.parse::<u8>().is_ok_and(|n| n <= 15);
    (1..=6).contains(&call.len())
        && call
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && ssid_ok
}

/// A file serde cannot read (bad syntax, an unknown key, a wrong type). The error's own text
/// quotes the offending line, which may hold a secret: say where and what, never the line.
pub(super) fn toml_error(text: &str, e: &toml::de::Error) -> ConfigError {
    let at = e.span().map_or(String::new(), |span| {
        let before = text.get(..span.start).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("line {line}, column {column}: ")
    });
    ConfigError::one("toml", format!("{at}{}", e.message().trim()))
}
