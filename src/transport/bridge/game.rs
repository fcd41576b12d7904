//! A game as a remote XFCC server lists it (`XfccGame`), typed. Servers differ in what they
//! send: ICCF's omits `timeControl` and `eventDate`, leaves `message` out when there is none
//! and may send `gameLink`; ccrelay's sends them all. Only `id` is required: a field left out
//! reads as its XML Schema default (false, zero, empty), and a result this relay does not know
//! is kept as the server wrote it, so that the game waits for the arbiter instead of ending
//! on a guess.

use shakmaty::Color;

/// Characters kept of a game's id at most (ICCF's ids are numbers).
pub const MAX_ID: usize = 64;

/// How a remote game stands, in XFCC's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteResult {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
    WhiteWinAdjudicated,
    BlackWinAdjudicated,
    DrawAdjudicated,
    /// White lost by default (time, silence, withdrawal): Black wins.
    WhiteDefaulted,
    BlackDefaulted,
    BothDefaulted,
    Cancelled,
    AdjudicationPending,
    /// A word this relay does not know, as the server wrote it.
    Other(String),
}

impl RemoteResult {
    /// The result a server's word names.
    pub fn from_name(name: &str) -> RemoteResult {
        match name.trim() {
            "" | "Ongoing" => RemoteResult::Ongoing,
            "WhiteWins" => RemoteResult::WhiteWins,
            "BlackWins" => RemoteResult::BlackWins,
            "Draw" => RemoteResult::Draw,
            "WhiteWinAdjudicated" => RemoteResult::WhiteWinAdjudicated,
            "BlackWinAdjudicated" => RemoteResult::BlackWinAdjudicated,
            "DrawAdjudicated" => RemoteResult::DrawAdjudicated,
            "WhiteDefaulted" => RemoteResult::WhiteDefaulted,
            "BlackDefaulted" => RemoteResult::BlackDefaulted,
            "BothDefaulted" => RemoteResult::BothDefaulted,
            "Cancelled" => RemoteResult::Cancelled,
            "AdjudicationPending" => RemoteResult::AdjudicationPending,
            other => RemoteResult::Other(other.chars().take(40).collect()),
        }
    }

    /// Whether the game goes on there (an adjudication pending is not an end).
    pub fn is_ongoing(&self) -> bool {
        matches!(
            self,
            RemoteResult::Ongoing | RemoteResult::AdjudicationPending
        )
    }

    /// The score of a game that ended: `Some(winner)`, the winner `None` for a draw. `None`
    /// while it goes on, and for an end that gives no score (both defaulted, cancelled, or a
    /// word this relay does not know): the arbiter's to settle.
    pub fn winner(&self) -> Option<Option<Color>> {
        match self {
            RemoteResult::WhiteWins
            | RemoteResult::WhiteWinAdjudicated
            | RemoteResult::BlackDefaulted => Some(Some(Color::White)),
            RemoteResult::BlackWins
            | RemoteResult::BlackWinAdjudicated
            | RemoteResult::WhiteDefaulted => Some(Some(Color::Black)),
            RemoteResult::Draw | RemoteResult::DrawAdjudicated => Some(None),
            _ => None,
        }
    }
}

/// One game on the remote server, from the account's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteGame {
    pub id: String,
    pub white: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub my_turn: bool,
    /// The account plays White.
    pub has_white: bool,
    /// Time left, in seconds: the account's, then the opponent's (zero when the server
    /// keeps no clock or sends none).
    pub time_left: [i64; 2],
    /// The moves so far, as PGN movetext (XFCC's `moves`).
    pub moves: String,
    /// The opponent offers a draw the account can accept.
    pub draw_offered: bool,
    pub result: RemoteResult,
    /// The opponent's last message, if any.
    pub message: Option<String>,
    /// PGN's time control, where the server sends one (ICCF does not).
    pub time_control: Option<String>,
    /// The starting position, for a game set up from one.
    pub fen: Option<String>,
}

impl RemoteGame {
    /// The account's colour.
    pub fn color(&self) -> Color {
        if self.has_white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// A game from its fields, `field(name)` giving each field's text if sent.
    pub fn from_fields<'a>(field: impl Fn(&str) -> Option<&'a str>) -> Result<RemoteGame, String> {
        let text = |name: &str| field(name).map(str::trim).unwrap_or("").to_owned();
        let id = text("id");
        if id.is_empty() {
            return Err("a game without an id".to_owned());
        }
        if id.chars().count() > MAX_ID || id.chars().any(|c| c.is_control()) {
            return Err(format!("the game id {:?} is not one", short(&id)));
        }
        let flag = |name: &str| -> Result<bool, String> {
            match field(name).map(str::trim) {
                None | Some("" | "false" | "0") => Ok(false),
                Some("true" | "1") => Ok(true),
                Some(other) => Err(format!("{name} {:?} is not a boolean", short(other))),
            }
        };
        let number = |name: &str| -> Result<i64, String> {
            match field(name).map(str::trim) {
                None | Some("") => Ok(0),
                Some(n) => n
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (0..=100_000).contains(n))
                    .ok_or_else(|| format!("{name} {:?} is not a number", short(n))),
            }
        };
        let seconds = |who: &str| -> Result<i64, String> {
            Ok(number(&format!("days{who}"))? * 86_400
                + number(&format!("hours{who}"))? * 3_600
                + number(&format!("minutes{who}"))? * 60)
        };
        let optional = |name: &str| Some(text(name)).filter(|t| !t.is_empty());
        Ok(RemoteGame {
            id,
            white: text("white"),
            black: text("black"),
            event: text("event"),
            site: text("site"),
            my_turn: flag("myTurn")?,
            has_white: flag("hasWhite")?,
            time_left: [seconds("Player")?, seconds("Opponent")?],
            moves: text("moves"),
            draw_offered: flag("drawOffered")?,
            result: RemoteResult::from_name(&text("result")),
            message: optional("message"),
            time_control: optional("timeControl"),
            fen: if flag("setup")? {
                optional("fen")
            } else {
                None
            },
        })
    }
}

/// The start of `text`, for a message about it.
fn short(text: &str) -> String {
    text.chars().take(40).collect()
}
