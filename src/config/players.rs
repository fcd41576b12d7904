//! `[[players]]`: who plays, how moves are written to them and how they are reached; and
//! `[admin]`, the one login that is not a player.

use serde::Deserialize;

use super::check::{Checker, Field};
use super::email::{self, PlayerEmail, RawPlayerEmail};
use crate::notation::{Lang, Notation};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAdmin {
    secret_hash: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    id: Option<String>,
    name: Option<String>,
    secret_hash: Option<String>,
    notation: Option<Field<NotationName>>,
    lang: Option<String>,
    reach: Option<Field<ReachKind>>,
    /// With `reach = "link"`: the link the player is across.
    link: Option<String>,
    email: Option<RawPlayerEmail>,
    /// With `reach = "radio"`: the callsign their APRS messages come from (`N0CALL-7`).
    callsign: Option<String>,
    /// The longest APRS text their radio shows: 67 (APRS 1.1), or 45 for older radios.
    aprs_width: Option<i64>,
}

/// A notation as the file names it; SAN and LAN are written in the player's `lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum NotationName {
    #[serde(alias = "numeric")]
    Iccf,
    San,
    Lan,
    Uci,
    Figurine,
}

impl NotationName {
    fn notation(self, lang: Option<Lang>) -> Notation {
        let lang = lang.unwrap_or(Lang::English);
        match self {
            NotationName::Iccf => Notation::Iccf,
            NotationName::San => Notation::San(lang),
            NotationName::Lan => Notation::Lan(lang),
            NotationName::Uci => Notation::Uci,
            NotationName::Figurine => Notation::San(Lang::Figurine),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ReachKind {
    Tcp,
    Link,
    Email,
    Xfcc,
    Radio,
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
    pub email: Option<PlayerEmail>,
    /// Their callsign and radio's width, for players who send APRS messages.
    pub radio: Option<PlayerRadio>,
    /// The mail they asked for when it is their move (`NOTIFY`; never from this file: the
    /// relay sets it from the record). `None`: no such mail.
    pub notify: Option<crate::command::Notify>,
}

impl Player {
    /// The notation moves are written in for this player: their own, except where they are
    /// reached by APRS message, whose text is ASCII: there a SAN or long algebraic in Cyrillic
    /// letters or in figurines is written in English letters. Russian and Ukrainian piece
    /// letters have no ASCII form that a reader both knows and can type back (`Ф` and `Л`
    /// have no Latin look-alike; transliterated, `С` becomes `S` and `Кр` `Kr`, which no
    /// reader of moves reads, and `К`, the knight, becomes FIDE's king), while FIDE's English
    /// letters are what every player reads and what a handheld's keypad types (docs/radio.md,
    /// "What a Russian reader gets").
    pub fn written_notation(&self) -> Notation {
        let ascii_only = |lang: Lang| lang == Lang::Figurine || lang.is_cyrillic();
        match (&self.reach, self.notation) {
            (Reach::Radio, Notation::San(lang)) if ascii_only(lang) => Notation::San(Lang::English),
            (Reach::Radio, Notation::Lan(lang)) if ascii_only(lang) => Notation::Lan(Lang::English),
            (_, notation) => notation,
        }
    }
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
    /// The player's client asks for the games (XFCC, docs/xfcc.md): nothing is pushed, so
    /// nothing is kept in the outbox for them.
    Xfcc,
    /// Moves come and go as APRS messages over a `[[radio]]` port (docs/radio.md), from and to
    /// the callsign in [`Player::radio`].
    Radio,
}

/// A player by APRS message: the callsign their messages come from (a callsign is not a
/// login: every message also carries a code from their card) and how wide their radio's
/// messages are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRadio {
    /// Upper case, with its SSID when not 0 (`N0CALL-7`).
    pub callsign: String,
    /// The longest text an answer's message holds: 67, or 45 for older radios.
    pub width: usize,
}

/// APRS 1.1's longest message text, and the shortest width a player may set (older radios).
pub const APRS_WIDTH: (u64, u64) = (45, 67);

/// Checks `[admin]`: the PHC hash of the admin secret, if there is an admin.
pub(super) fn check_admin(c: &mut Checker, raw: Option<RawAdmin>) -> Option<String> {
    raw.map(|a| c.secret_hash("admin.secret_hash", a.secret_hash))
}

/// Every player by id. Hashed, not ordered: a move looks its players up several times (the
/// mover's language and notation, the opponent's reach), and a tree of thousands of ids
/// compares a dozen strings for each; what lists players sorts them.
pub type Players = std::collections::HashMap<String, Player, foldhash::fast::RandomState>;

/// Checks `[[players]]`; ids are unique and none is `admin`.
pub(super) fn check(c: &mut Checker, raw: Vec<RawPlayer>) -> Players {
    let mut players = Players::default();
    for (i, p) in raw.into_iter().enumerate() {
        let prefix = format!("players[{i}]");
        let player = check_one(c, &prefix, p);
        let id = player.id.clone();
        if id == "admin" {
            c.problem(
                format!("{prefix}.id"),
                "\"admin\" is the administrator's login",
            );
        }
        if let Some(radio) = &player.radio
            && players.values().any(|p| {
                p.radio
                    .as_ref()
                    .is_some_and(|r| r.callsign == radio.callsign)
            })
        {
            c.problem(
                format!("{prefix}.callsign"),
                format!("{:?} is another player's callsign", radio.callsign),
            );
        }
        if players.insert(id.clone(), player).is_some() {
            c.problem(format!("{prefix}.id"), format!("{id:?} is used twice"));
        }
    }
    players
}

pub(super) fn check_one(c: &mut Checker, prefix: &str, p: RawPlayer) -> Player {
    let key = |field: &str| format!("{prefix}.{field}");
    let id = c.id(&key("id"), p.id);
    let lang = match p.lang.as_deref().map(str::parse::<Lang>) {
        None => None,
        Some(Ok(lang)) => Some(lang),
        Some(Err(e)) => {
            c.problem(key("lang"), e.to_string());
            None
        }
    };
    let notation = c
        .read(&key("notation"), p.notation)
        .unwrap_or(NotationName::Iccf)
        .notation(lang);
    let reach = match c.read(&key("reach"), p.reach).unwrap_or(ReachKind::Tcp) {
        ReachKind::Tcp => Reach::Tcp,
        ReachKind::Link => match p.link.clone() {
            Some(link) => Reach::Link(link),
            None => {
                c.problem(key("link"), "missing (reach = \"link\" needs a link id)");
                Reach::Tcp
            }
        },
        ReachKind::Email => Reach::Email,
        ReachKind::Xfcc => Reach::Xfcc,
        ReachKind::Radio => Reach::Radio,
    };
    if p.link.is_some() && !matches!(reach, Reach::Link(_)) {
        c.problem(key("link"), "only with reach = \"link\"");
    }
    // A player across a link logs in on their own node: no secret here, unless given.
    let secret_hash = match (&reach, p.secret_hash) {
        (Reach::Link(_), None) => String::new(),
        (_, hash) => c.secret_hash(&key("secret_hash"), hash),
    };
    let email = p.email.map(|e| email::check_player(c, &key("email"), e));
    if reach == Reach::Email && email.is_none() {
        c.problem(
            key("email"),
            "missing ([players.email] for reach = \"email\")",
        );
    }
    let radio = check_radio(c, prefix, &reach, p.callsign, p.aprs_width);
    Player {
        email,
        radio,
        notify: None,
        name: c.name(&key("name"), p.name).unwrap_or_else(|| id.clone()),
        secret_hash,
        notation,
        lang,
        reach,
        id,
    }
}

/// `callsign` and `aprs_width`: required and checked with `reach = "radio"`, refused without.
fn check_radio(
    c: &mut Checker,
    prefix: &str,
    reach: &Reach,
    callsign: Option<String>,
    width: Option<i64>,
) -> Option<PlayerRadio> {
    let key = |field: &str| format!("{prefix}.{field}");
    if *reach != Reach::Radio {
        if callsign.is_some() {
            c.problem(key("callsign"), "only with reach = \"radio\"");
        }
        if width.is_some() {
            c.problem(key("aprs_width"), "only with reach = \"radio\"");
        }
        return None;
    }
    let Some(callsign) = callsign else {
        c.problem(
            key("callsign"),
            "missing (reach = \"radio\" needs a callsign)",
        );
        return None;
    };
    let callsign = callsign.trim().to_ascii_uppercase();
    let callsign = callsign.strip_suffix("-0").unwrap_or(&callsign).to_owned();
    if !super::check::valid_callsign(&callsign) {
        c.problem(
            key("callsign"),
            format!("{callsign:?} is not a callsign: 1 to 6 letters or digits, then -1 to -15"),
        );
    }
    let (narrow, wide) = APRS_WIDTH;
    let width = c.number(&key("aprs_width"), width, narrow, wide, wide) as usize;
    Some(PlayerRadio { callsign, width })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(notation: Notation, reach: Reach) -> Player {
        Player {
            id: "hal".into(),
            name: "Hal".into(),
            secret_hash: String::new(),
            notation,
            lang: None,
            reach,
            email: None,
            radio: None,
            notify: None,
        }
    }

    #[test]
    fn a_radio_player_reads_moves_in_ascii_letters() {
        let by_radio = |n| player(n, Reach::Radio).written_notation();
        assert_eq!(
            by_radio(Notation::San(Lang::Russian)),
            Notation::San(Lang::English)
        );
        assert_eq!(
            by_radio(Notation::Lan(Lang::Ukrainian)),
            Notation::Lan(Lang::English)
        );
        assert_eq!(
            by_radio(Notation::San(Lang::Figurine)),
            Notation::San(Lang::English)
        );
        for kept in [
            Notation::Iccf,
            Notation::Uci,
            Notation::San(Lang::German),
            Notation::Lan(Lang::English),
        ] {
            assert_eq!(by_radio(kept), kept, "{kept}");
        }
        let by_tcp = player(Notation::San(Lang::Russian), Reach::Tcp);
        assert_eq!(by_tcp.written_notation(), Notation::San(Lang::Russian));
    }
}
