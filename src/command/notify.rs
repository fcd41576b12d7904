//! A player's own choice of mail when it is their move (`NOTIFY`), for a player who plays on
//! the web or over a line and would otherwise learn of a move only by looking:
//!
//! ```text
//! NOTIFY OFF
//! NOTIFY EACH <address>
//! NOTIFY DIGEST <hour 0-23> [<time zone>] <address>
//! ```
//!
//! `EACH`: a mail at each move that waits for them; `DIGEST`: one mail a day at the hour (in
//! UTC, or in the IANA time zone named, `Europe/Moscow`) listing every game that waits.
//! Checked here for their form only (an hour is 0 to 23, an address one word with one `@`, a
//! zone a name of the IANA form); the relay checks the address as the configuration checks a
//! player's, and that it knows the zone. The setting is data the record keeps as it is
//! ([`Notify`], stored as JSON in the journal's `notify` entry).

use serde::{Deserialize, Serialize};

use super::text::{self, TextKind};
use super::tokens::{Words, bad, missing};
use super::{Command, CommandError, CommandErrorKind};

/// What a player asked to be mailed when it is their move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Notify {
    /// No mail.
    Off,
    /// A mail at each move that waits for them.
    Each { address: String },
    /// One mail a day at `hour` (in `zone`, UTC when none) listing every game that waits.
    Digest {
        hour: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
        address: String,
    },
}

impl Notify {
    /// The address the mails go to; none when off.
    pub fn address(&self) -> Option<&str> {
        match self {
            Notify::Off => None,
            Notify::Each { address } | Notify::Digest { address, .. } => Some(address),
        }
    }

    /// The word of the command for the mode: `OFF`, `EACH`, `DIGEST`.
    pub fn mode(&self) -> &'static str {
        match self {
            Notify::Off => "OFF",
            Notify::Each { .. } => "EACH",
            Notify::Digest { .. } => "DIGEST",
        }
    }
}

/// The longest address taken (RFC 5321's path limit).
const MAX_ADDRESS_BYTES: usize = 254;
/// The longest time zone name taken (the IANA names are far shorter).
const MAX_ZONE_BYTES: usize = 64;

/// `NOTIFY OFF|EACH <address>|DIGEST <hour> [<zone>] <address>`.
pub(super) fn notify(w: &mut Words<'_>) -> Result<Command, CommandError> {
    let mode = w.arg("OFF, EACH or DIGEST")?;
    let setting = match mode.to_ascii_uppercase().as_str() {
        "OFF" => Notify::Off,
        "EACH" => Notify::Each {
            address: address(&w.arg("the address to mail")?)?,
        },
        "DIGEST" => {
            let hour = hour(&w.arg("the hour (0-23)")?)?;
            let first = w.arg("the address to mail")?;
            let (zone, address_word) = match w.word() {
                Some(second) => (Some(zone(&first)?), second.to_owned()),
                None => (None, first),
            };
            Notify::Digest {
                hour,
                zone,
                address: address(&address_word)?,
            }
        }
        _ => {
            return Err(bad(format!(
                "{mode:?}: say NOTIFY OFF, NOTIFY EACH <address> or NOTIFY DIGEST <hour> [<zone>] <address>"
            )));
        }
    };
    Ok(Command::Notify { setting })
}

/// An hour of the day, `0` to `23`.
fn hour(word: &str) -> Result<u8, CommandError> {
    match word.parse::<u8>() {
        Ok(h) if h < 24 && word.bytes().all(|b| b.is_ascii_digit()) => Ok(h),
        _ => Err(bad(format!("{word:?} is not an hour of the day (0 to 23)"))),
    }
}

/// An address of the form `local@domain`: one word, one `@`, nothing a mail header would
/// read otherwise. Whether the mailer can send to it is the relay's check.
fn address(word: &str) -> Result<String, CommandError> {
    // The one check of every text people write first, whose words say what it refuses.
    text::check(word, TextKind::Address).map_err(|e| bad(e.to_string()))?;
    let refused = || bad(format!("{word:?} is not a mail address (name@example.org)"));
    let (local, domain) = word.rsplit_once('@').ok_or_else(refused)?;
    if local.is_empty()
        || domain.is_empty()
        || local.contains('@')
        || word.len() > MAX_ADDRESS_BYTES
        || word.contains(|c: char| c.is_control() || matches!(c, '<' | '>' | ',' | '"' | ';'))
    {
        return Err(refused());
    }
    Ok(word.to_owned())
}

/// A time zone's name as the IANA database writes them (`Europe/Moscow`, `UTC`): letters,
/// digits, `/`, `_`, `+`, `-`. Whether the relay knows it is the relay's check.
fn zone(word: &str) -> Result<String, CommandError> {
    let ok = !word.is_empty()
        && word.len() <= MAX_ZONE_BYTES
        && word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '+' | '-'));
    if ok {
        Ok(word.to_owned())
    } else {
        Err(CommandError::new(
            CommandErrorKind::BadValue,
            format!("{word:?} is not a time zone (Europe/Moscow, UTC)"),
        ))
    }
}

impl Command {
    /// `NOTIFY` from a form's fields (the web's settings page), each read by the grammar's
    /// reader of that piece: `mode` `off`, `each` or `digest`; the hour and zone only for a
    /// digest (an empty zone is UTC).
    pub fn notify(
        mode: &str,
        hour_field: &str,
        zone_field: &str,
        address_field: &str,
    ) -> Result<Command, CommandError> {
        let address_field = address_field.trim();
        let setting = match mode.trim().to_ascii_lowercase().as_str() {
            "off" | "none" => Notify::Off,
            "each" if address_field.is_empty() => return Err(missing("the address to mail")),
            "each" => Notify::Each {
                address: address(address_field)?,
            },
            "digest" if address_field.is_empty() => return Err(missing("the address to mail")),
            "digest" => {
                let zone_field = zone_field.trim();
                Notify::Digest {
                    hour: hour(hour_field.trim())?,
                    zone: (!zone_field.is_empty())
                        .then(|| zone(zone_field))
                        .transpose()?,
                    address: address(address_field)?,
                }
            }
            other => return Err(bad(format!("{other:?}: say off, each or digest"))),
        };
        Ok(Command::Notify { setting })
    }
}

impl std::fmt::Display for Notify {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notify::Off => f.write_str("OFF"),
            Notify::Each { address } => write!(f, "EACH {address}"),
            Notify::Digest {
                hour,
                zone: None,
                address,
            } => write!(f, "DIGEST {hour} {address}"),
            Notify::Digest {
                hour,
                zone: Some(zone),
                address,
            } => write!(f, "DIGEST {hour} {zone} {address}"),
        }
    }
}
