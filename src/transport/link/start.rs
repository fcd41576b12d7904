//! A game's start on the wire in a few bytes (docs/link.md, "Messages"): its id, its players,
//! what is played, whose node keeps it, its time rules as a preset, its event, round and
//! board. The record's entry holds the start as JSON; the compact form is used only when the
//! other node, writing the JSON back from it, gets the very same text, so both records stay
//! equal byte for byte. A start with its own position, leave carried in, or rules that are no
//! preset goes as text, whole. Here too its bytes on the wire, which [`super::message`] frames.

use super::frame::FrameError;
use super::varint;
use crate::game::Authority;
use crate::game::Kind;
use crate::game::clock::Rules;
use crate::relay::GameStartDetail;

/// A game's start in a few bytes, for the usual case: no position of its own, no leave
/// carried in, and time rules that are one of the presets. Anything else goes as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The game's id: the other node has no game to match the code with yet.
    pub id: String,
    pub white: String,
    pub black: String,
    /// The game played: 0 chess, 1 Russian draughts.
    pub game: u8,
    /// Black's node keeps the record (White's otherwise).
    pub authority_black: bool,
    /// The time rules: 0 none written, 1 ICCF's (10 moves in 50 days, the default), 2 no clock.
    pub rules: u8,
    pub event: Option<String>,
    pub round: Option<String>,
    /// The board within the round, for an event's games the relay paired.
    pub board: Option<u32>,
}

/// The most bytes a start's names take on the wire (each with its length byte), its board
/// included: with the longest tag, its frame stays within the body limit.
pub const MAX_START_NAMES: usize = 64;

const START_GAME: u8 = 0x03;
const START_AUTHORITY_BLACK: u8 = 0x04;
const START_RULES: u8 = 0x18;
const START_EVENT: u8 = 0x20;
const START_ROUND: u8 = 0x40;
const START_BOARD: u8 = 0x80;

impl Start {
    /// The start's bytes after its kind: flags, then the id, the players, the event and the
    /// round as the flags say, each a length and UTF-8, then the board as a varint.
    pub(super) fn write(&self, p: &mut Vec<u8>) {
        let mut flags = (self.game & START_GAME) | ((self.rules << 3) & START_RULES);
        if self.authority_black {
            flags |= START_AUTHORITY_BLACK;
        }
        if self.event.is_some() {
            flags |= START_EVENT;
        }
        if self.round.is_some() {
            flags |= START_ROUND;
        }
        if self.board.is_some() {
            flags |= START_BOARD;
        }
        p.push(flags);
        let names = [Some(&self.id), Some(&self.white), Some(&self.black)];
        let extra = [self.event.as_ref(), self.round.as_ref()];
        for name in names.into_iter().chain(extra).flatten() {
            let name = cut(name, MAX_START_NAMES);
            p.push(name.len() as u8);
            p.extend_from_slice(name.as_bytes());
        }
        if let Some(board) = self.board {
            varint::push(p, u64::from(board));
        }
    }

    /// A compact start read from its bytes after its kind ([`Start::write`]).
    pub(super) fn read(rest: &[u8]) -> Result<Start, FrameError> {
        let Some((&flags, mut rest)) = rest.split_first() else {
            return Err(FrameError::Payload("start length"));
        };
        let rules = (flags & START_RULES) >> 3;
        if flags & START_GAME > 1 || rules > 2 {
            return Err(FrameError::Payload("start flags"));
        }
        // The names and a board's varint.
        if rest.len() > MAX_START_NAMES {
            return Err(FrameError::Payload("start length"));
        }
        let mut name = |present: bool| -> Result<Option<String>, FrameError> {
            if !present {
                return Ok(None);
            }
            let Some((&len, after)) = rest.split_first() else {
                return Err(FrameError::Payload("start length"));
            };
            let len = usize::from(len);
            if len == 0 || after.len() < len {
                return Err(FrameError::Payload("start length"));
            }
            let text = std::str::from_utf8(&after[..len])
                .map_err(|_| FrameError::Payload("start not UTF-8"))?;
            rest = &after[len..];
            Ok(Some(text.to_owned()))
        };
        let id = name(true)?.unwrap_or_default();
        let white = name(true)?.unwrap_or_default();
        let black = name(true)?.unwrap_or_default();
        let event = name(flags & START_EVENT != 0)?;
        let round = name(flags & START_ROUND != 0)?;
        let board = if flags & START_BOARD != 0 {
            let (n, after) = varint::read(rest)?;
            rest = after;
            Some(u32::try_from(n).map_err(|_| FrameError::Payload("start board"))?)
        } else {
            None
        };
        if !rest.is_empty() {
            return Err(FrameError::Payload("trailing bytes"));
        }
        Ok(Start {
            id,
            white,
            black,
            game: flags & START_GAME,
            authority_black: flags & START_AUTHORITY_BLACK != 0,
            rules,
            event,
            round,
            board,
        })
    }

    /// Whether its names and board fit in one frame ([`MAX_START_NAMES`]), no name empty.
    pub fn fits(&self) -> bool {
        let names = [Some(&self.id), Some(&self.white), Some(&self.black)];
        let extra = [self.event.as_ref(), self.round.as_ref()];
        let mut total = 0;
        for name in names.into_iter().chain(extra).flatten() {
            if name.is_empty() {
                return false;
            }
            total += 1 + name.len();
        }
        if let Some(board) = self.board {
            let mut varint = Vec::new();
            varint::push(&mut varint, u64::from(board));
            total += varint.len();
        }
        total <= MAX_START_NAMES && self.game <= 1 && self.rules <= 2
    }
}

/// `text` cut to at most `max` bytes on a character boundary (a start that does not fit goes
/// as text; this keeps a start built otherwise within its frame).
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The presets a start's rules travel as: none written, ICCF's (the default), no clock.
fn rules_code(rules: Option<&Rules>) -> Option<u8> {
    match rules {
        None => Some(0),
        Some(r) if *r == Rules::default() => Some(1),
        Some(r) if *r == Rules::unlimited() => Some(2),
        Some(_) => None,
    }
}

fn rules_of(code: u8) -> Option<Option<Rules>> {
    match code {
        0 => Some(None),
        1 => Some(Some(Rules::default())),
        2 => Some(Some(Rules::unlimited())),
        _ => None,
    }
}

fn game_code(kind: Kind) -> u8 {
    match kind {
        Kind::Chess => 0,
        Kind::DraughtsRu => 1,
    }
}

/// The compact form of game `id`'s start whose entry's detail is `detail`; `None` when it has
/// none (the start then goes as text).
pub(super) fn compact(id: &str, detail: &str) -> Option<Start> {
    let d: GameStartDetail = serde_json::from_str(detail).ok()?;
    if d.fen.is_some() || d.leave.iter().any(|l| !l.is_empty()) {
        return None;
    }
    let start = Start {
        id: id.to_owned(),
        white: d.white,
        black: d.black,
        game: game_code(d.kind),
        authority_black: d.authority == Authority::Black,
        rules: rules_code(d.rules.as_ref())?,
        event: d.event,
        round: d.round,
        board: d.board,
    };
    // Only if the other node writes back exactly this detail.
    (start.fits() && detail_of(&start).as_deref() == Some(detail)).then_some(start)
}

/// The entry's detail a compact start stands for, as the node that keeps the game wrote it.
pub(super) fn detail_of(start: &Start) -> Option<String> {
    let kind = match start.game {
        0 => Kind::Chess,
        1 => Kind::DraughtsRu,
        _ => return None,
    };
    let detail = GameStartDetail {
        kind,
        white: start.white.clone(),
        black: start.black.clone(),
        event: start.event.clone(),
        fen: None,
        rules: rules_of(start.rules)?,
        round: start.round.clone(),
        board: start.board,
        leave: Default::default(),
        authority: if start.authority_black {
            Authority::Black
        } else {
            Authority::White
        },
    };
    // As the journal writes a detail (serde_json's compact text), so byte for byte the same.
    serde_json::to_string(&detail).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(rules: Option<Rules>, event: Option<&str>) -> String {
        detail_on(rules, event, None)
    }

    fn detail_on(rules: Option<Rules>, event: Option<&str>, board: Option<u32>) -> String {
        crate::journal::detail(&GameStartDetail {
            kind: Kind::Chess,
            white: "anna".to_owned(),
            black: "boris".to_owned(),
            event: event.map(str::to_owned),
            fen: None,
            rules,
            round: event.map(|_| "2".to_owned()),
            board,
            leave: Default::default(),
            authority: Authority::Black,
        })
        .unwrap()
    }

    #[test]
    fn a_usual_start_travels_compact_and_comes_back_the_same() {
        for (rules, event) in [
            (Some(Rules::default()), None),
            (Some(Rules::unlimited()), Some("club-cup")),
            (None, None),
        ] {
            let text = detail(rules, event);
            let start = compact("m1", &text).expect("compact");
            assert_eq!(detail_of(&start).as_deref(), Some(text.as_str()));
            assert!(start.authority_black);
        }
        // An event's game the relay paired, with its board: compact too, in one frame.
        let text = detail_on(Some(Rules::default()), Some("club-cup"), Some(7));
        let start = compact("m1", &text).expect("compact");
        assert_eq!(start.board, Some(7));
        assert_eq!(detail_of(&start).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn an_unusual_start_goes_as_text() {
        let rules = Rules {
            leave_days_per_year: 30,
            ..Rules::default()
        };
        assert_eq!(compact("m1", &detail(Some(rules), None)), None);
        let mut d: GameStartDetail = serde_json::from_str(&detail(None, None)).unwrap();
        d.fen = Some("8/8/8/8/8/8/8/K6k w - - 0 1".to_owned());
        assert_eq!(compact("m1", &crate::journal::detail(&d).unwrap()), None);
        // A detail written otherwise than this release writes it: not rewritten.
        let spaced = detail(None, None).replace(',', ", ");
        assert_eq!(compact("m1", &spaced), None);
        assert_eq!(compact("m1", "not json"), None);
        // Names too long for one frame.
        let long = "x".repeat(40);
        let text = detail(None, Some(&long));
        assert_eq!(compact(&long, &text), None);
        // Names that fit alone, and not with the board's bytes: the frame would pass the body
        // limit with the longest tag.
        let (id, event) = ("i".repeat(20), "e".repeat(28));
        let names = 5 + id.len() + "anna".len() + "boris".len() + event.len() + 1;
        assert_eq!(names, 63);
        let text = detail_on(None, Some(&event), None);
        assert!(compact(&id, &text).is_some());
        let text = detail_on(None, Some(&event), Some(300));
        assert_eq!(compact(&id, &text), None);
    }
}
