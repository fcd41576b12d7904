//! What a DATA frame carries, in as few bytes as the link can afford (docs/link.md
//! "Messages"): an entry of a game's record, from the node that keeps it; an action proposed to
//! that node; or the refusal of one. The frame around it is
//! [`crate::transport::link::frame`].

use super::frame::{FrameError, MAX_PATH, MAX_REASON};
pub use super::start::{MAX_START_NAMES, Start};
use super::varint;
use crate::notation::Iccf;

/// Which side of a game acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

/// Who made an entry or an action written out as text: a side, or the arbiter (a game's
/// start, an adjudication).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Side(Side),
    Arbiter,
}

/// What a player did, in its compact forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// An ICCF move: from and to squares (0 = a1 .. 63 = h8), promotion digit (0 none, 1 queen,
    /// 2 rook, 3 bishop, 4 knight), and a draw offered with it.
    Move {
        from: u8,
        to: u8,
        promotion: u8,
        draw_offer: bool,
    },
    /// A move as the numbers of the squares it passes (Russian draughts: PDN's 1–32, its
    /// start and every landing square), a capture or not, and a draw offered with it.
    Path {
        squares: [u8; MAX_PATH],
        len: u8,
        capture: bool,
        draw_offer: bool,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
}

/// One piece of an entry or an action written out as text (everything without a compact
/// form: a game's start, a claim, leave, a time-out, an adjudication, a message). A text
/// longer than [`MAX_CHUNK`] bytes goes in pieces in consecutive messages, all but the last
/// with `more` set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// For a record entry, its kind ([`entry_kind_code`]); for a proposal, 0 (the text is a
    /// command).
    pub kind: u8,
    pub actor: Actor,
    /// The first piece: whatever pieces came before it are of a text sent again.
    pub first: bool,
    pub more: bool,
    /// The move of the entry (a claim with a move), in the first piece only.
    pub iccf: String,
    pub chunk: String,
}

/// What an entry or an action is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    Act(Act),
    Text(Text),
    Start(Start),
}

/// What a DATA frame carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Entry `index` (low 8 bits) of game `game`'s record, made by `side` (for a compact act)
    /// `delta` seconds after the record's entry before it (for its first entry: seconds since
    /// 1970).
    Record {
        game: u16,
        side: Side,
        index: u8,
        delta: u64,
        body: Body,
    },
    /// `side`'s action `number` in `game` (their proposals counted from 0), made `age`
    /// seconds before it was sent, for the node that keeps the record to decide.
    Proposal {
        game: u16,
        side: Side,
        number: u16,
        age: u64,
        body: Body,
    },
    /// The node that keeps the record refused our proposal `number` of `side` in `game`, and
    /// why.
    Refused {
        game: u16,
        side: Side,
        number: u16,
        reason: String,
    },
}

const K_MOVE: u8 = 1;
const K_OFFER: u8 = 2;
const K_ACCEPT: u8 = 3;
const K_DECLINE: u8 = 4;
const K_RESIGN: u8 = 5;
const K_REFUSED: u8 = 6;
const K_PATH: u8 = 7;
const K_TEXT: u8 = 8;
const K_START: u8 = 9;
/// Set in the kind of a proposal.
const PROPOSAL: u8 = 0x10;
const BLACK: u8 = 0x20;
const PATH_DRAW_OFFER: u8 = 1;
const PATH_CAPTURE: u8 = 2;
const TEXT_MORE: u8 = 1;
const TEXT_FIRST: u8 = 8;
/// The longest piece of text in one message: with the longest tag, the frame stays under
/// the body limit.
pub const MAX_CHUNK: usize = 48;
/// The longest move in a text piece.
const MAX_TEXT_ICCF: usize = 16;

/// The entry kinds a record entry written as text may have: their place in this list, from 1,
/// is their code on the wire.
const TEXT_KINDS: [crate::relay::EntryKind; 14] = crate::relay::EntryKind::RECORD;

/// The wire code of a record entry's kind (from 1); `None` for a kind no record holds.
pub fn entry_kind_code(kind: crate::relay::EntryKind) -> Option<u8> {
    TEXT_KINDS
        .iter()
        .position(|k| *k == kind)
        .map(|i| i as u8 + 1)
}

/// The record entry kind a wire code names.
pub fn entry_kind_of(code: u8) -> Option<crate::relay::EntryKind> {
    TEXT_KINDS.get(usize::from(code).checked_sub(1)?).copied()
}

fn act_kind(act: &Act) -> u8 {
    match act {
        Act::Move { .. } => K_MOVE,
        Act::Path { .. } => K_PATH,
        Act::OfferDraw => K_OFFER,
        Act::AcceptDraw => K_ACCEPT,
        Act::DeclineDraw => K_DECLINE,
        Act::Resign => K_RESIGN,
    }
}

fn push_body(p: &mut Vec<u8>, body: &Body) {
    match body {
        Body::Act(Act::Move {
            from,
            to,
            promotion,
            draw_offer,
        }) => {
            let packed: u16 = (u16::from(*from) << 10)
                | (u16::from(*to) << 4)
                | (u16::from(*promotion) << 1)
                | u16::from(*draw_offer);
            p.extend_from_slice(&packed.to_be_bytes());
        }
        Body::Act(Act::Path {
            squares,
            len,
            capture,
            draw_offer,
        }) => {
            let mut flags = 0;
            if *draw_offer {
                flags |= PATH_DRAW_OFFER;
            }
            if *capture {
                flags |= PATH_CAPTURE;
            }
            p.push(flags);
            p.extend_from_slice(&squares[..usize::from(*len).min(MAX_PATH)]);
        }
        Body::Act(_) => {}
        Body::Start(start) => start.write(p),
        Body::Text(t) => {
            let actor = match t.actor {
                Actor::Side(Side::White) => 0,
                Actor::Side(Side::Black) => 1,
                Actor::Arbiter => 2,
            };
            p.push(t.kind);
            p.push(
                actor << 1
                    | if t.more { TEXT_MORE } else { 0 }
                    | if t.first { TEXT_FIRST } else { 0 },
            );
            let iccf = cut(&t.iccf, MAX_TEXT_ICCF);
            p.push(iccf.len() as u8);
            p.extend_from_slice(iccf.as_bytes());
            p.extend_from_slice(cut(&t.chunk, MAX_CHUNK).as_bytes());
        }
    }
}

/// `text` cut to at most `max` bytes, on a character boundary.
fn cut(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn read_body(kind: u8, rest: &[u8]) -> Result<Body, FrameError> {
    let exact = |act: Act| {
        if rest.is_empty() {
            Ok(Body::Act(act))
        } else {
            Err(FrameError::Payload("trailing bytes"))
        }
    };
    match kind {
        K_MOVE => {
            let [a, b] = rest else {
                return Err(FrameError::Payload("move length"));
            };
            let packed = u16::from_be_bytes([*a, *b]);
            let promotion = ((packed >> 1) & 0x7) as u8;
            if promotion > 4 {
                return Err(FrameError::Payload("promotion digit"));
            }
            Ok(Body::Act(Act::Move {
                from: (packed >> 10) as u8,
                to: ((packed >> 4) & 0x3F) as u8,
                promotion,
                draw_offer: packed & 1 == 1,
            }))
        }
        K_PATH => {
            let Some((&flags, path)) = rest.split_first() else {
                return Err(FrameError::Payload("path length"));
            };
            if flags & !(PATH_DRAW_OFFER | PATH_CAPTURE) != 0 {
                return Err(FrameError::Payload("path flags"));
            }
            if !(2..=MAX_PATH).contains(&path.len()) || path.contains(&0) {
                return Err(FrameError::Payload("path squares"));
            }
            let mut squares = [0; MAX_PATH];
            squares[..path.len()].copy_from_slice(path);
            Ok(Body::Act(Act::Path {
                squares,
                len: path.len() as u8,
                capture: flags & PATH_CAPTURE != 0,
                draw_offer: flags & PATH_DRAW_OFFER != 0,
            }))
        }
        K_OFFER => exact(Act::OfferDraw),
        K_ACCEPT => exact(Act::AcceptDraw),
        K_DECLINE => exact(Act::DeclineDraw),
        K_RESIGN => exact(Act::Resign),
        K_START => Start::read(rest).map(Body::Start),
        K_TEXT => {
            let [kind, flags, iccf_len, rest @ ..] = rest else {
                return Err(FrameError::Payload("text header"));
            };
            let actor = match (flags >> 1) & 3 {
                0 => Actor::Side(Side::White),
                1 => Actor::Side(Side::Black),
                2 => Actor::Arbiter,
                _ => return Err(FrameError::Payload("text flags")),
            };
            if flags & 0xF0 != 0 {
                return Err(FrameError::Payload("text flags"));
            }
            let iccf_len = usize::from(*iccf_len);
            if iccf_len > MAX_TEXT_ICCF
                || rest.len() < iccf_len
                || rest.len() - iccf_len > MAX_CHUNK
            {
                return Err(FrameError::Payload("text length"));
            }
            let utf8 = |b: &[u8]| {
                std::str::from_utf8(b)
                    .map(str::to_owned)
                    .map_err(|_| FrameError::Payload("text not UTF-8"))
            };
            Ok(Body::Text(Text {
                kind: *kind,
                actor,
                first: flags & TEXT_FIRST != 0,
                more: flags & TEXT_MORE != 0,
                iccf: utf8(&rest[..iccf_len])?,
                chunk: utf8(&rest[iccf_len..])?,
            }))
        }
        _ => Err(FrameError::Payload("unknown message kind")),
    }
}

impl Message {
    /// What a record entry or a proposal is; `None` for a refusal.
    pub fn body(&self) -> Option<&Body> {
        match self {
            Message::Record { body, .. } | Message::Proposal { body, .. } => Some(body),
            Message::Refused { .. } => None,
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(16);
        let side_bit = |side: &Side| if *side == Side::Black { BLACK } else { 0 };
        let kind_of = |body: &Body| match body {
            Body::Act(act) => act_kind(act),
            Body::Text(_) => K_TEXT,
            Body::Start(_) => K_START,
        };
        match self {
            Message::Record {
                game,
                side,
                index,
                delta,
                body,
            } => {
                p.push(kind_of(body) | side_bit(side));
                p.extend_from_slice(&game.to_be_bytes());
                p.push(*index);
                varint::push(&mut p, *delta);
                push_body(&mut p, body);
            }
            Message::Proposal {
                game,
                side,
                number,
                age,
                body,
            } => {
                p.push(kind_of(body) | PROPOSAL | side_bit(side));
                p.extend_from_slice(&game.to_be_bytes());
                varint::push(&mut p, u64::from(*number));
                varint::push(&mut p, *age);
                push_body(&mut p, body);
            }
            Message::Refused {
                game,
                side,
                number,
                reason,
            } => {
                p.push(K_REFUSED | side_bit(side));
                p.extend_from_slice(&game.to_be_bytes());
                p.extend_from_slice(&number.to_be_bytes());
                let reason = cut(reason, MAX_REASON);
                p.push(reason.len() as u8);
                p.extend_from_slice(reason.as_bytes());
            }
        }
        p
    }

    pub fn decode(p: &[u8]) -> Result<Message, FrameError> {
        let [first, g0, g1, rest @ ..] = p else {
            return Err(FrameError::Payload("message too short"));
        };
        if first & 0xC0 != 0 {
            return Err(FrameError::Payload("message kind"));
        }
        let side = if first & BLACK != 0 {
            Side::Black
        } else {
            Side::White
        };
        let game = u16::from_be_bytes([*g0, *g1]);
        let kind = first & 0x1F;
        if kind == K_REFUSED {
            let [n0, n1, len, text @ ..] = rest else {
                return Err(FrameError::Payload("refusal length"));
            };
            if text.len() != usize::from(*len) || text.len() > MAX_REASON {
                return Err(FrameError::Payload("refusal length"));
            }
            let reason = std::str::from_utf8(text)
                .map_err(|_| FrameError::Payload("refusal not UTF-8"))?
                .to_owned();
            return Ok(Message::Refused {
                game,
                side,
                number: u16::from_be_bytes([*n0, *n1]),
                reason,
            });
        }
        if kind & PROPOSAL != 0 {
            let (number, rest) = varint::read(rest)?;
            let number =
                u16::try_from(number).map_err(|_| FrameError::Payload("proposal number"))?;
            let (age, rest) = varint::read(rest)?;
            return Ok(Message::Proposal {
                game,
                side,
                number,
                age,
                body: read_body(kind & !PROPOSAL, rest)?,
            });
        }
        let [index, rest @ ..] = rest else {
            return Err(FrameError::Payload("message too short"));
        };
        let (delta, rest) = varint::read(rest)?;
        Ok(Message::Record {
            game,
            side,
            index: *index,
            delta,
            body: read_body(kind, rest)?,
        })
    }
}

/// An ICCF move text (`5254`, `57581`) as the three numbers a frame packs
/// ([`Iccf::to_packed`]); `None` if the text is not an ICCF move.
pub fn pack_iccf(text: &str) -> Option<(u8, u8, u8)> {
    text.parse::<Iccf>().ok().map(Iccf::to_packed)
}

/// A move written as square numbers (`22-18`, `22x15x24`) as a path act; `None` if the
/// text is not one.
pub fn pack_path(text: &str, draw_offer: bool) -> Option<Act> {
    let capture = text.contains('x');
    let sep = if capture { 'x' } else { '-' };
    let mut squares = [0; MAX_PATH];
    let mut len = 0;
    for part in text.split(sep) {
        let n: u8 = part.parse().ok().filter(|n| *n != 0)?;
        *squares.get_mut(len)? = n;
        len += 1;
    }
    (len >= 2).then_some(Act::Path {
        squares,
        len: len as u8,
        capture,
        draw_offer,
    })
}

/// The text of a path act's squares: `22-18`, `22x15x24`.
pub fn unpack_path(squares: &[u8], capture: bool) -> String {
    let sep = if capture { "x" } else { "-" };
    squares
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The ICCF text of a packed move; empty if the numbers are no move.
pub fn unpack_iccf(from: u8, to: u8, promotion: u8) -> String {
    Iccf::from_packed(from & 0x3F, to & 0x3F, promotion)
        .map(|iccf| iccf.to_string())
        .unwrap_or_default()
}

/// A game's id on the wire: the first two bytes of its SHA-256 (the configuration computes it,
/// to refuse two games with one code before a link starts).
pub use crate::config::game_code;

pub use crate::relay::nearest_number;

#[cfg(test)]
mod tests;
