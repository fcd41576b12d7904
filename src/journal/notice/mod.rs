//! What the relay tells a player, as data: one [`Notice`] per outbox item, stored as JSON in the
//! outbox row (or, for a move the relay relayed, made again from the row's entry) and rendered
//! for its reader only when it is delivered (`relay::render::notice`). It lives with the
//! outbox that keeps it, so that an item handed to a live session carries its notice typed.
//!
//! Data, not text, so that every transport writes the same event its own way (a protocol line,
//! a mail in the reader's language, a link frame) as of the moment it happened: a move carries
//! the position before it (the moves before it are in the record, which never changes them),
//! so a mail sent a day later still shows the game as it was after that move.
//! Rows written before items were typed hold finished text; they are read back as
//! [`Notice::Legacy`] and delivered as they are.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::as_of::AsOf;
use super::entry::Meaning;
use crate::game::clock::{Leave, Overdue};
use crate::game::{Board, Game, Kind, Ply, board};
use crate::notation::Notation;

mod clocks;

pub use self::clocks::{ClockKind, Clocks, SideClock};

/// The channel of a move the relay played from its player's conditional line, as entries
/// name it (the relay's `Channel::Conditional`).
pub const CONDITIONAL_CHANNEL: &str = "conditional";

/// A side, as stored (shakmaty's colour has no serde form here).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// One move in a normalised form: enough for any reader's notation to be written and for the
/// game to be shown as of it (the position before it, and the move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveData {
    /// The game played (chess when not written, as in rows older than the field).
    #[serde(default, skip_serializing_if = "is_chess")]
    pub kind: Kind,
    /// Which move of the game it is, from 1 (half-moves).
    pub ply: u32,
    /// Its move number as written (`12` in `12... Nf6`).
    pub number: u32,
    pub side: Side,
    /// The move as the record keeps it (ICCF numeric for chess).
    pub iccf: String,
    /// The position before the move, as its board writes it (FEN for chess).
    pub before: String,
    /// The position after it, as rows written before 2026-12 stored it. Newer rows leave it
    /// out: it is `before` with the move played, and writing it was a second position a move
    /// for nothing ([`MoveData::position_after`] works it out).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub after: String,
    /// The position before it and the move, as the relay held them when it made the notice
    /// (never stored): a notice pushed straight after its commit is written for its reader
    /// from these instead of reading `before` and `iccf` back, which was about a third of the
    /// cost of writing a push. A notice read back from the outbox has none.
    #[serde(skip)]
    pub held: Held,
}

/// [`MoveData::held`]: the live position before a move and the move.
#[derive(Clone, Default)]
pub struct Held(Option<std::sync::Arc<(Box<dyn Board>, Ply)>>);

/// Two moves are the same when their stored forms are: what is held is those forms again,
/// already read.
impl PartialEq for Held {
    fn eq(&self, _: &Held) -> bool {
        true
    }
}

impl Eq for Held {}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Held"
        } else {
            "Held(none)"
        })
    }
}

fn is_chess(kind: &Kind) -> bool {
    *kind == Kind::Chess
}

impl MoveData {
    /// `m`, legal in `game`'s current position, as the game's next move.
    pub fn of(game: &Game, m: &Ply) -> MoveData {
        let mut mv = MoveData::held_only(game, m);
        mv.before = game.board().fen();
        mv
    }

    /// [`MoveData::of`] with the position only held, not written out: for a notice whose row
    /// stores its entry instead ([`super::NewOutbox::move_of_entry`]), which never reads `before` (a FEN a move,
    /// for nothing). Should such a notice be stored as data after all, [`Notice::to_body`]
    /// writes the position then.
    fn held_only(game: &Game, m: &Ply) -> MoveData {
        let before = game.board();
        MoveData {
            kind: before.kind(),
            ply: u32::try_from(game.moves().len()).map_or(u32::MAX, |n| n.saturating_add(1)),
            number: before.move_number(),
            side: before.turn().into(),
            iccf: before.code(m),
            before: String::new(),
            after: String::new(),
            held: Held(Some(std::sync::Arc::new((before.boxed(), m.clone())))),
        }
    }

    /// This move with its position written out (`before`), if it was only held.
    fn written_out(&self) -> MoveData {
        let mut mv = self.clone();
        if let (true, Some(held)) = (mv.before.is_empty(), &mv.held.0) {
            mv.before = held.0.fen();
        }
        mv
    }

    /// The move as `notation` writes it: from the position held in memory, else from the
    /// stored forms if they still read (a row changed by hand may not).
    pub fn write(&self, notation: Notation) -> Option<String> {
        if let Some(held) = &self.held.0 {
            let (pos, m) = held.as_ref();
            return Some(pos.write(m, notation));
        }
        let (pos, m) = self.read_back()?;
        Some(pos.write(&m, notation))
    }

    /// The position after the move: as an older row stored it, else the position before it
    /// with the move played (held in memory, or read back); `None` if the stored forms no
    /// longer read.
    pub fn position_after(&self) -> Option<Box<dyn Board>> {
        if !self.after.is_empty() {
            return board(self.kind, Some(&self.after)).ok();
        }
        let (mut pos, m) = match &self.held.0 {
            Some(held) => (held.0.boxed(), held.1.clone()),
            None => self.read_back()?,
        };
        pos.play(&m);
        Some(pos)
    }

    /// The position before the move and the move, read from their stored forms.
    fn read_back(&self) -> Option<(Box<dyn Board>, Ply)> {
        let pos = board(self.kind, Some(&self.before)).ok()?;
        let m = pos.read_code(&self.iccf)?;
        Some((pos, m))
    }
}

/// What happened to a draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAct {
    Offered,
    Accepted,
    Declined,
}

/// A player's act on their own clock, as the opponent (and, for a long reflection, the
/// arbiter) hears of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockAct {
    /// `days` moved from the Triple Block bank to the clock (`BANK g1 10`).
    Refill { days: u32 },
    /// A reflection longer than the silence limit declared ahead for move `number`
    /// (`SILENCE g1 LONG`).
    LongReflection { number: u32 },
}

/// A move, as its opponent (or, for a conditional answer, its owner's opponent) hears of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNotice {
    pub game: String,
    pub mover: String,
    #[serde(rename = "move")]
    pub mv: MoveData,
    pub draw_offer: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Clocks>,
    /// Played by the relay from the mover's conditional line.
    #[serde(default)]
    pub from_line: bool,
    /// The move did not follow the reader's conditional line, which is now cancelled.
    #[serde(default)]
    pub cancels_line: bool,
    /// The game's start and its moves up to this one, when the notice was made again from the
    /// record (never stored): a mail shows the game's moves from it without replaying the game
    /// a second time. A notice made live, or read back from a row that holds it as data, has
    /// none.
    #[serde(skip)]
    pub history: History,
}

/// [`MoveNotice::history`]: a game's start position and its moves, as the replay that made the
/// notice held them.
#[derive(Clone, Default)]
pub struct History(Option<std::sync::Arc<Played>>);

/// A start position and the moves played from it.
type Played = (Box<dyn Board>, Vec<Ply>);

impl History {
    /// `game`'s start and every move played in it.
    pub fn of(game: &Game) -> History {
        History(Some(std::sync::Arc::new((
            game.start().boxed(),
            game.moves().to_vec(),
        ))))
    }

    /// The start position and the moves, if held.
    pub fn get(&self) -> Option<(&dyn Board, &[Ply])> {
        self.0.as_ref().map(|h| (h.0.as_ref(), h.1.as_slice()))
    }
}

/// Two notices are the same when what they say is: the history is the record again.
impl PartialEq for History {
    fn eq(&self, _: &History) -> bool {
        true
    }
}

impl Eq for History {}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(h) => write!(f, "History({} moves)", h.1.len()),
            None => f.write_str("History(none)"),
        }
    }
}

impl MoveNotice {
    /// `color`'s move `m` from `before` (which left the game as `after`), at `now`, as the
    /// opponent hears of it: the one place a move's notice is made, live
    /// (`State::move_record`, in its two halves: `MoveNotice::before` then
    /// `NoticeBefore::after`) or rebuilt from the record ([`MoveNotice::from_record`]),
    /// so that a push read back says exactly what the live one said.
    pub fn new(
        before: &Game,
        after: &Game,
        (color, m): (Color, &Ply),
        draw_offer: bool,
        from_line: bool,
        now: jiff::Timestamp,
    ) -> MoveNotice {
        MoveNotice::before(before, (color, m), draw_offer, from_line).after(after, now)
    }

    /// What the game before the move says of it: the relay plays a move on the game itself,
    /// not on a copy, and finishes the notice from the game after it.
    pub fn before(
        before: &Game,
        (color, m): (Color, &Ply),
        draw_offer: bool,
        from_line: bool,
    ) -> NoticeBefore {
        NoticeBefore {
            notice: MoveNotice {
                game: before.id.clone(),
                mover: before.player(color).to_owned(),
                mv: MoveData::held_only(before, m),
                draw_offer,
                clocks: None,
                from_line,
                cancels_line: false,
                history: History::default(),
            },
            reader: !color,
            reader_had_line: !before.conditional(!color).is_empty(),
        }
    }

    /// The notice of the move entry `as_of.entry`, made again from the record as
    /// [`MoveNotice::new`] made it when the move was relayed: `None` if the entry is not a
    /// move by a player of the game, legal where it was played.
    pub fn from_record(as_of: &AsOf) -> Option<MoveNotice> {
        let (e, before) = (&as_of.entry, &as_of.before);
        let Ok(Meaning::Move { iccf, draw_offer }) = Meaning::of(e) else {
            return None;
        };
        let color = before.side_of(&e.player)?;
        let m = before.board().read_code(&iccf)?;
        let now = e.time.parse().ok()?;
        let from_line = e.channel == CONDITIONAL_CHANNEL;
        let mut notice = MoveNotice::new(
            before,
            &as_of.after,
            (color, &m),
            draw_offer,
            from_line,
            now,
        );
        notice.history = History::of(&as_of.after);
        Some(notice)
    }
}

/// A move's notice made from the game before the move ([`MoveNotice::before`]), waiting for
/// the game after it.
pub struct NoticeBefore {
    notice: MoveNotice,
    reader: Color,
    reader_had_line: bool,
}

impl NoticeBefore {
    /// The notice, with the clocks at `now` of `after`, the game the move left.
    pub fn after(self, after: &Game, now: jiff::Timestamp) -> MoveNotice {
        let mut notice = self.notice;
        // The reader's line did not expect this move (or has run out): it is gone.
        notice.cancels_line = !notice.from_line
            && self.reader_had_line
            && after.conditional(self.reader).is_empty()
            && after.conditional_reply().is_none();
        notice.clocks = Clocks::of(after, now);
        notice
    }
}

/// One outbox item: what happened, for one reader. Stored externally tagged
/// (`{"move":{...}}`): read back without buffering, as an internally tagged enum would be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    /// A game started: the reader plays `side` against `opponent`.
    GameStarted {
        game: String,
        side: Side,
        opponent: String,
    },
    Move(Box<MoveNotice>),
    /// The reader's conditional line answered the opponent's move: `mv` was played for them,
    /// `left` pairs remain in the line.
    LinePlayed {
        game: String,
        #[serde(rename = "move")]
        mv: Box<MoveData>,
        left: u32,
    },
    Draw {
        game: String,
        by: String,
        side: Side,
        act: DrawAct,
    },
    Resigned {
        game: String,
        by: String,
        side: Side,
    },
    /// A draw claim (`threefold`, `fifty`), on the position or with a move.
    Claim {
        game: String,
        by: String,
        side: Side,
        claim: String,
        #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
        mv: Option<Box<MoveData>>,
    },
    Leave {
        game: String,
        by: String,
        side: Side,
        leave: Leave,
    },
    /// `by` acted on their own clock: a refill from the bank, a long reflection declared;
    /// with the clocks after it.
    OwnClock {
        game: String,
        by: String,
        side: Side,
        act: ClockAct,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    /// `player`'s time ran out: a loss (`forfeit`) or a flag for the arbiter.
    TimeUp {
        game: String,
        player: String,
        side: Side,
        overdue: Overdue,
        forfeit: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    /// The reader's move has waited `days` days.
    Reminder {
        game: String,
        days: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clocks: Option<Clocks>,
    },
    /// The game is over: `pgn` (`1-0`) and how (`1-0 (resignation)`).
    Result {
        game: String,
        pgn: String,
        text: String,
    },
    /// The other node of a link refused the reader's action `number` in the game.
    Refused {
        game: String,
        number: u32,
        reason: String,
    },
    /// A message between the players.
    Message {
        game: String,
        from: String,
        text: String,
    },
    /// The reader's action, sent to the node that keeps the game's record, is now in it.
    Recorded {
        game: String,
        /// What is recorded, in words (all a row written before the move below was kept has).
        what: String,
        /// The reader's move, when that is what is recorded: written for the reader, in their
        /// notation, rather than in `what`'s record code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mv: Option<Box<MoveData>>,
    },
    /// For a link: record entry `index` of a game this node keeps, for the other node (the
    /// entry is the one the outbox row belongs to).
    Record {
        game: String,
        index: u32,
    },
    /// For a link: the reader's opponent's action `number`, for the node that keeps the
    /// game's record to decide (the entry is the proposal the outbox row belongs to).
    Proposal {
        game: String,
        number: u32,
    },
    /// The reader was registered while the relay runs: how to play, with their secret (the
    /// outbox row is removed once it is delivered: [`Notice::holds_secret`]).
    Welcome {
        player: String,
        name: String,
        secret: String,
        /// The notation moves are written to them in, as the configuration names it.
        notation: String,
    },
    /// An event's games have all started: the reader's games in it. A line-protocol reader
    /// is also told of each game apart ([`Notice::GameStarted`]); a mail lists them at once.
    EventStarted {
        event: String,
        name: String,
        games: Vec<EventGame>,
    },
    /// `player` withdrew from the event; their unfinished games are lost (their results
    /// follow).
    Withdrawn {
        event: String,
        player: String,
        reason: String,
    },
    /// For the reader's mail when it is their move (`NOTIFY EACH`, an outbox row of its own,
    /// `notify:<player>`): a move now waits for them in `game`. The mail is made when it is
    /// sent, from the game as it then stands: none if the move no longer waits.
    YourMove {
        game: String,
    },
    /// For a `[[remotes]]` account's player and the admin: the account's standing with its
    /// server changed (failing for an hour, working again, paused on a refused login).
    Remote {
        remote: String,
        player: String,
        health: super::entry::RemoteHealth,
    },
    /// For the reader's daily digest (`NOTIFY DIGEST`): it came due at `due`. The mail lists
    /// the games that wait for them when it is sent: none if none does.
    Digest {
        due: jiff::Timestamp,
    },
    /// A row written before outbox items were typed: its finished text.
    #[serde(skip)]
    Legacy {
        text: String,
    },
}

/// One of the reader's games in an event that started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventGame {
    pub game: String,
    pub side: Side,
    pub opponent: String,
    pub round: u32,
    pub board: u32,
}

impl Notice {
    /// Whether the item holds a secret: its outbox row must not outlive its delivery.
    pub fn holds_secret(&self) -> bool {
        matches!(self, Notice::Welcome { .. })
    }

    /// The stored form: JSON, or the text itself for a legacy item.
    pub fn to_body(&self) -> String {
        /// What a move's notice takes, with room to spare.
        const BODY_CAPACITY: usize = 512;
        match self {
            Notice::Legacy { text } => text.clone(),
            // A relayed move's notice holds its position without writing it out (its row
            // points at its entry): stored as data, it needs it.
            Notice::Move(m) if m.mv.before.is_empty() && m.mv.held.0.is_some() => {
                let mut m = m.clone();
                m.mv = m.mv.written_out();
                Notice::Move(m).to_body()
            }
            // Plain data of strings, numbers and enums: serialising cannot fail; if it ever
            // did, the item still says what it could rather than nothing.
            typed => {
                // Room for a move's notice at once (about 300 bytes): grown from serde_json's
                // default, it was copied twice on the way.
                let mut body = Vec::with_capacity(BODY_CAPACITY);
                match serde_json::to_writer(&mut body, typed) {
                    // serde_json writes UTF-8.
                    Ok(()) => String::from_utf8(body).unwrap_or_default(),
                    Err(e) => {
                        tracing::error!(error = %e, "an outbox item did not serialise");
                        format!("({e})")
                    }
                }
            }
        }
    }

    /// Reads a stored body: JSON written by this version, anything else as legacy text.
    pub fn from_body(body: &str) -> Notice {
        if body.starts_with('{')
            && let Ok(notice) = serde_json::from_str(body)
        {
            return notice;
        }
        Notice::Legacy {
            text: body.to_owned(),
        }
    }
}
