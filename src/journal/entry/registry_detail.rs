//! The details of the entries that change no game but the registry of players, events and
//! ratings (`player_add`, `player_set`, `player_secret`, `notify`, `notify_digest`,
//! `rating_set`, `event_enter`, `event_draw`, `event_start`, `event_lot`, `event_withdraw`,
//! `remote_status`): what their JSON holds, read back by `journal/registry.rs`.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::command::Notify;

/// A registered player, as the record shows them: no secret, no hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub id: String,
    pub name: String,
    /// As the configuration names it: `iccf`, `san`, `lan`, `uci`, `figurine`.
    pub notation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// `tcp`, `email`, `xfcc` or `radio`.
    pub reach: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// A player by APRS message: their callsign.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callsign: Option<String>,
    /// Their radio's message width, when they set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aprs_width: Option<u32>,
}

/// A `rating_set` entry's detail: whose rating, the rating and deviation given, and why
/// (`{"player":"dana","rating":1850,"deviation":120,"reason":"ICCF list 2026/4"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingDetail {
    pub player: String,
    pub rating: u32,
    pub deviation: u32,
    pub reason: String,
}

/// A `player_secret` entry's detail: whose secret changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretDetail {
    pub player: String,
}

/// A `notify` entry's detail: whose setting, and what it is now (`{"player":"alice",
/// "notify":{"mode":"each","address":"alice@example.org"}}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotifyDetail {
    pub player: String,
    pub notify: Notify,
}

/// A `notify_digest` entry's detail: whose digest, and the hour it came due for (the day's
/// hour the player chose, as an instant): the next one is due at the next such hour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestDetail {
    pub player: String,
    pub due: Timestamp,
}

/// How a `[[remotes]]` account stands with its server, as its player and the admin were told.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemoteHealth {
    /// The server has failed for an hour without a success: the proposals wait.
    Failing,
    /// The server answers again after failing or after the account was paused.
    Working,
    /// The server refused the account's name or password: nothing is asked of it until the
    /// account's configuration changes.
    Paused,
}

impl RemoteHealth {
    /// Its word in the record and in the catalogs' selectors.
    pub fn as_str(self) -> &'static str {
        match self {
            RemoteHealth::Failing => "failing",
            RemoteHealth::Working => "working",
            RemoteHealth::Paused => "paused",
        }
    }
}

/// A `remote_status` entry's detail: account `remote` of `player` changed how it stands
/// (`{"remote":"iccf","player":"alice","health":"paused","stamp":"9f2c..."}`). Written only
/// when it changes, so that each change is told once, a restart included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteStatusDetail {
    pub remote: String,
    pub player: String,
    pub health: RemoteHealth,
    /// A paused account's configuration, as a digest of what says it changed (the URL, the
    /// username, the password file's path and time; never the password): a restart with the
    /// same stays paused, one with another tries again.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stamp: String,
    /// The last failure, for the admin (escaped as logs escape it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
}

/// An `event_enter` entry's detail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnterDetail {
    pub event: String,
    /// The team, in a match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// In their order: their numbers in the tables, or their boards.
    pub players: Vec<String>,
    /// The arbiter's reason for entering players a loss on time barred
    /// (`EVENT ENTER ... OVERRIDE <reason>`); written only when given.
    #[serde(rename = "override", default, skip_serializing_if = "Option::is_none")]
    pub overriding: Option<String>,
}

/// An `event_draw` entry's detail: the seed and the order it drew.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawDetail {
    pub event: String,
    /// Hex: anyone can repeat the draw with it ([`crate::event::draw`]).
    pub seed: String,
    /// The entrants (a match: the teams) in the order drawn.
    pub order: Vec<String>,
    /// Seeded by rating (`EVENT SEED ... BY rating`): each entrant's rating as the list
    /// printed it (`petra 1464.05`), in the lot's order; the order is the lot sorted by them.
    /// Empty for a draw by lot alone, and then not written, so older records read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<String>,
}

/// An `event_start` entry's detail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartDetail {
    pub event: String,
    /// The games started with it (their `game_start` entries follow).
    pub games: usize,
}

/// An `event_lot` entry's detail: a knock-out's match level after both pairs of games,
/// decided by a lot anyone can repeat ([`crate::event::knockout::lot_winner`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LotDetail {
    pub event: String,
    pub round: u32,
    /// The match within the round, from 1.
    #[serde(rename = "match")]
    pub number: u32,
    /// The upper side's player, then the lower's: the order the lot shuffles.
    pub players: [String; 2],
    /// Hex, 32 random bytes.
    pub seed: String,
    /// Who goes on: the first of the players as the seed shuffles them.
    pub winner: String,
}

/// An `event_withdraw` entry's detail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawDetail {
    pub event: String,
    pub player: String,
    pub reason: String,
}
