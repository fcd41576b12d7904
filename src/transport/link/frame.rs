//! The link's frames: what goes on the wire, byte by byte (docs/link.md draws it).
//!
//! A frame is a short body, COBS-encoded so that it holds no zero byte, followed by one zero
//! byte that ends it. A receiver that joins mid-stream, or loses bytes to noise, finds the next
//! frame at the next zero. Protocol version 2 spends as few bytes as a slow line asks:
//!
//! ```text
//! HELLO  head(1) version(1) tag_len(1) nonce(16) echo(16)  tag(8)
//! ACK    head(1) ctr(1) [sack(1)]                          tag(T)
//! DATA   head(1) ctr(1) seq|ack(1) message after its first byte  tag(T)
//! ```
//!
//! `head`'s top two bits are the type; its low six carry the acknowledgement (ACK) or the
//! message's first byte (DATA), so a move's DATA frame is 14 bytes of body with a 6-byte tag,
//! 16 on the wire. `tag` is HMAC-SHA256 truncated to `T` bytes (4 to 16, agreed in the
//! handshake) over the direction, the full 64-bit frame counter of which `ctr` carries the low 8
//! bits, and the body before the tag. It is the only integrity check: a CRC would catch nothing
//! the MAC does not. Version 1 frames (all of whose type bytes have the top two bits clear) are
//! refused by type, never misread, and a version 1 HELLO is named as such.
//!
//! Nothing here does I/O or keeps time: [`crate::transport::link::session`] does.

use hmac::{KeyInit, Mac};
use sha2::Sha256;

use crate::notation::Iccf;

type HmacSha256 = hmac::Hmac<Sha256>;

/// The longest body accepted (and sent): a REFUSED with its longest reason and tag.
pub const MAX_BODY: usize = 96;
/// The longest encoded frame, delimiter excluded: COBS adds one byte per 254.
pub const MAX_ENCODED: usize = MAX_BODY + 2;
/// Bytes of HMAC a session keeps, at least, at most, and unless configured.
pub const MIN_TAG: usize = 4;
pub const MAX_TAG: usize = 16;
pub const DEFAULT_TAG: usize = 6;
/// Bytes of HMAC on a HELLO (sent before a tag length is agreed).
pub const HELLO_TAG: usize = 8;
/// Random bytes each side contributes to a session key.
pub const NONCE_LEN: usize = 16;
/// The protocol version a HELLO names.
pub const VERSION: u8 = 2;
/// Longest reason text a REFUSED carries.
pub const MAX_REASON: usize = 64;
/// Most squares a path move names (a draughts king's capture: its square and every landing).
pub const MAX_PATH: usize = 32;
/// Sequence numbers are 4 bits: a window holds at most half of them (selective repeat).
pub const SEQ_MOD: u8 = 16;

/// The frame types: the top two bits of the head byte. Version 1's types (0x01, 0x02, 0x03,
/// 0x10) all have them clear.
pub const HELLO: u8 = 0x40;
pub const ACK: u8 = 0x80;
pub const DATA: u8 = 0xC0;
const TYPE_MASK: u8 = 0xC0;
/// ACK head bit 5: the sender has just taken the session key; answer so it knows it works.
const ACK_READY: u8 = 0x20;
/// ACK head bit 4: a damaged frame just arrived here (a NAK): what of yours is not
/// acknowledged and should have arrived by now was probably that frame.
const ACK_NAK: u8 = 0x10;

/// Why a received frame was dropped. None of these changes any state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    #[error("frame too long")]
    TooLong,
    #[error("bad COBS encoding")]
    Encoding,
    #[error("frame too short ({0} bytes)")]
    TooShort(usize),
    #[error("unknown frame type {0:#04x}")]
    UnknownType(u8),
    #[error(
        "the peer speaks link protocol version {0}; this node speaks version {VERSION}: run the same ccrelay release on both nodes"
    )]
    OldVersion(u8),
    #[error("bad integrity tag (corrupted, forged, or from another session)")]
    BadTag,
    #[error("replayed or stale frame (counter {got}, newest {last})")]
    Replay { got: u64, last: u64 },
    #[error("bad payload: {0}")]
    Payload(&'static str),
}

impl FrameError {
    /// Whether the frame was damaged on the way (or forged): bytes arrived, so the line
    /// lives, but nothing can be read from them.
    pub fn is_damage(&self) -> bool {
        matches!(
            self,
            FrameError::TooLong
                | FrameError::Encoding
                | FrameError::TooShort(_)
                | FrameError::UnknownType(_)
                | FrameError::BadTag
        )
    }
}

/// COBS: rewrites `data` so that it holds no zero byte (one byte of overhead per 254).
pub fn cobs_encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 254 + 2);
    let mut code_at = 0;
    out.push(0);
    let mut code: u8 = 1;
    for &b in data {
        if b == 0 {
            out[code_at] = code;
            code_at = out.len();
            out.push(0);
            code = 1;
        } else {
            out.push(b);
            code += 1;
            if code == 0xFF {
                out[code_at] = code;
                code_at = out.len();
                out.push(0);
                code = 1;
            }
        }
    }
    out[code_at] = code;
    out
}

/// Undoes [`cobs_encode`]; `None` for input no encoder produces.
pub fn cobs_decode(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        let code = data[i] as usize;
        if code == 0 || i + code > data.len() {
            return None;
        }
        out.extend_from_slice(&data[i + 1..i + code]);
        i += code;
        if code < 0xFF && i < data.len() {
            out.push(0);
        }
    }
    Some(out)
}

/// Cuts a byte stream into encoded frames at zero bytes, never holding more than
/// [`MAX_ENCODED`] bytes: an over-long run is dropped up to the next zero.
#[derive(Default)]
pub struct Deframer {
    buf: Vec<u8>,
    overflow: bool,
}

impl Deframer {
    /// Feeds bytes; calls `frame` with each complete encoded frame (delimiter removed).
    pub fn push(&mut self, bytes: &[u8], mut frame: impl FnMut(&[u8])) {
        for &b in bytes {
            if b == 0 {
                if !self.overflow && !self.buf.is_empty() {
                    frame(&self.buf);
                }
                self.buf.clear();
                self.overflow = false;
            } else if self.buf.len() >= MAX_ENCODED {
                self.overflow = true;
            } else if !self.overflow {
                self.buf.push(b);
            }
        }
    }
}

/// The HMAC key for one purpose: derived from the shared secret so the secret itself never
/// keys a frame.
pub fn derive_key(secret: &[u8], label: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(b"ccrelay link v2 ");
    mac.update(label);
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

fn tag(key: &[u8; 32], dir: u8, ctr: u64, body: &[u8]) -> [u8; 32] {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(&[dir]);
    mac.update(&ctr.to_be_bytes());
    mac.update(body);
    mac.finalize().into_bytes().into()
}

/// A frame under a session key, before sealing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plain {
    /// The next sequence number expected (`ack`, mod 16), which later ones are already held
    /// (`sack` bit `i`: `ack + 1 + i`), whether the sender just took the key (`ready`), and
    /// whether a damaged frame just arrived (`nak`).
    Ack {
        ack: u8,
        sack: u8,
        ready: bool,
        nak: bool,
    },
    /// A message with its sequence number and the acknowledgement it carries. The message's
    /// first byte must be below 64 (it rides in the head byte; [`Message::encode`] keeps it so).
    Data { seq: u8, ack: u8, message: Vec<u8> },
}

fn finish(key: &[u8; 32], dir: u8, ctr: u64, tag_len: usize, mut body: Vec<u8>) -> Vec<u8> {
    let t = tag(key, dir, ctr, &body);
    body.extend_from_slice(&t[..tag_len.clamp(MIN_TAG, MAX_TAG)]);
    let mut wire = cobs_encode(&body);
    wire.push(0);
    wire
}

/// Builds the wire bytes of a frame under a session key: body with a `tag_len`-byte tag,
/// COBS-encoded, zero-terminated.
pub fn seal(key: &[u8; 32], dir: u8, ctr: u64, tag_len: usize, plain: &Plain) -> Vec<u8> {
    let mut body = Vec::with_capacity(24);
    match plain {
        Plain::Ack {
            ack,
            sack,
            ready,
            nak,
        } => {
            body.push(
                ACK | if *ready { ACK_READY } else { 0 }
                    | if *nak { ACK_NAK } else { 0 }
                    | (ack & 0x0F),
            );
            body.push(ctr as u8);
            if *sack != 0 {
                body.push(*sack);
            }
        }
        Plain::Data { seq, ack, message } => {
            let (first, rest) = message.split_first().unwrap_or((&0, &[]));
            body.push(DATA | (first & 0x3F));
            body.push(ctr as u8);
            body.push(((seq & 0x0F) << 4) | (ack & 0x0F));
            body.extend_from_slice(rest);
        }
    }
    finish(key, dir, ctr, tag_len, body)
}

/// The wire bytes of a HELLO, under the hello key.
pub fn seal_hello(key: &[u8; 32], hello: &Hello) -> Vec<u8> {
    let mut body = Vec::with_capacity(3 + 2 * NONCE_LEN + HELLO_TAG);
    body.push(HELLO);
    body.push(VERSION);
    body.push(hello.tag_len);
    body.extend_from_slice(&hello.nonce);
    body.extend_from_slice(&hello.echo);
    finish(key, HELLO_DIR, 0, HELLO_TAG, body)
}

/// The direction byte of HELLOs: no session direction.
pub const HELLO_DIR: u8 = 0xFF;

/// A decoded body not yet authenticated.
pub struct Unverified {
    body: Vec<u8>,
}

impl Unverified {
    /// Decodes an encoded frame (without its delimiter) and checks its shape.
    pub fn decode(encoded: &[u8]) -> Result<Unverified, FrameError> {
        if encoded.len() > MAX_ENCODED {
            return Err(FrameError::TooLong);
        }
        let body = cobs_decode(encoded).ok_or(FrameError::Encoding)?;
        if body.len() > MAX_BODY {
            return Err(FrameError::TooLong);
        }
        let Some(&head) = body.first() else {
            return Err(FrameError::TooShort(0));
        };
        if head & TYPE_MASK == 0 {
            // Version 1: HELLO was type 0x01, counter 0, ack 0, then the version byte.
            if head == 0x01 && body.len() == 45 && body[1..4] == [0, 0, 0] && body[4] == 1 {
                return Err(FrameError::OldVersion(1));
            }
            return Err(FrameError::UnknownType(head));
        }
        if body.len() < 2 + MIN_TAG {
            return Err(FrameError::TooShort(body.len()));
        }
        Ok(Unverified { body })
    }

    pub fn kind(&self) -> u8 {
        self.body[0] & TYPE_MASK
    }

    /// The low 8 bits of the sender's frame counter (not for a HELLO).
    pub fn low_ctr(&self) -> u8 {
        self.body[1]
    }

    fn check(
        &self,
        key: &[u8; 32],
        dir: u8,
        ctr: u64,
        tag_len: usize,
    ) -> Result<usize, FrameError> {
        let Some(split) = self.body.len().checked_sub(tag_len) else {
            return Err(FrameError::TooShort(self.body.len()));
        };
        let expected = tag(key, dir, ctr, &self.body[..split]);
        // Constant time: a forger learns nothing from how long the comparison took.
        if constant_eq(&expected[..tag_len], &self.body[split..]) {
            Ok(split)
        } else {
            Err(FrameError::BadTag)
        }
    }

    /// Whether the tag verifies with full counter `ctr`: for telling a replay from noise.
    pub fn verifies(&self, key: &[u8; 32], dir: u8, ctr: u64, tag_len: usize) -> bool {
        self.check(key, dir, ctr, tag_len).is_ok()
    }

    /// Checks the tag of a session frame from direction `dir` with full counter `ctr`, and
    /// reads it.
    pub fn verify(
        &self,
        key: &[u8; 32],
        dir: u8,
        ctr: u64,
        tag_len: usize,
    ) -> Result<Plain, FrameError> {
        if self.kind() == HELLO {
            return Err(FrameError::Payload("HELLO under a session key"));
        }
        let split = self.check(key, dir, ctr, tag_len)?;
        let head = self.body[0];
        let fields = &self.body[2..split];
        if self.kind() == ACK {
            let sack = match fields {
                [] => 0,
                [s] => *s,
                _ => return Err(FrameError::Payload("ACK length")),
            };
            return Ok(Plain::Ack {
                ack: head & 0x0F,
                sack,
                ready: head & ACK_READY != 0,
                nak: head & ACK_NAK != 0,
            });
        }
        let Some((&seqack, rest)) = fields.split_first() else {
            return Err(FrameError::Payload("DATA without sequence number"));
        };
        let mut message = Vec::with_capacity(1 + rest.len());
        message.push(head & 0x3F);
        message.extend_from_slice(rest);
        Ok(Plain::Data {
            seq: seqack >> 4,
            ack: seqack & 0x0F,
            message,
        })
    }

    /// Checks and reads a HELLO.
    pub fn open_hello(&self, key: &[u8; 32]) -> Result<Hello, FrameError> {
        if self.kind() != HELLO {
            return Err(FrameError::Payload("not a HELLO"));
        }
        // The version first: a newer peer's HELLO may be shaped otherwise.
        if self.body.get(1).is_some_and(|v| *v != VERSION) {
            return Err(FrameError::Payload("unknown protocol version"));
        }
        if self.body.len() != 3 + 2 * NONCE_LEN + HELLO_TAG {
            return Err(FrameError::Payload("HELLO length"));
        }
        self.check(key, HELLO_DIR, 0, HELLO_TAG)?;
        let p = &self.body[2..];
        let tag_len = p[0];
        if !(MIN_TAG..=MAX_TAG).contains(&usize::from(tag_len)) {
            return Err(FrameError::Payload("HELLO tag length"));
        }
        let mut nonce = [0; NONCE_LEN];
        let mut echo = [0; NONCE_LEN];
        nonce.copy_from_slice(&p[1..1 + NONCE_LEN]);
        echo.copy_from_slice(&p[1 + NONCE_LEN..1 + 2 * NONCE_LEN]);
        Ok(Hello {
            nonce,
            echo,
            tag_len,
        })
    }
}

fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// A HELLO's payload: my nonce, the peer's nonce as I know it (zeros if none), and the tag
/// length I am configured for (the session takes the longer of the two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    pub nonce: [u8; NONCE_LEN],
    pub echo: [u8; NONCE_LEN],
    pub tag_len: u8,
}

/// Which side of a game acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

/// What a player did.
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

/// What a DATA frame carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Player `side` of game `game` did `act`, their `number`-th action in the game (counted
    /// from 0 over moves, draw offers, acceptances, declines and resignations). Only the low 8
    /// bits travel: a decoded action's `number` is those bits, and the receiver takes the
    /// number nearest its own count that has them ([`nearest_number`]).
    Action {
        game: u16,
        side: Side,
        number: u16,
        act: Act,
    },
    /// The peer refused our action `number` of `side` in `game`, and why.
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
const BLACK: u8 = 0x20;
const PATH_DRAW_OFFER: u8 = 1;
const PATH_CAPTURE: u8 = 2;

impl Message {
    pub fn encode(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(12);
        let (kind, game, side, number) = match self {
            Message::Action {
                game,
                side,
                number,
                act,
            } => {
                let k = match act {
                    Act::Move { .. } => K_MOVE,
                    Act::Path { .. } => K_PATH,
                    Act::OfferDraw => K_OFFER,
                    Act::AcceptDraw => K_ACCEPT,
                    Act::DeclineDraw => K_DECLINE,
                    Act::Resign => K_RESIGN,
                };
                (k, game, side, number)
            }
            Message::Refused {
                game, side, number, ..
            } => (K_REFUSED, game, side, number),
        };
        p.push(kind | if *side == Side::Black { BLACK } else { 0 });
        p.extend_from_slice(&game.to_be_bytes());
        if kind == K_REFUSED {
            p.extend_from_slice(&number.to_be_bytes());
        } else {
            p.push(*number as u8);
        }
        match self {
            Message::Action {
                act:
                    Act::Move {
                        from,
                        to,
                        promotion,
                        draw_offer,
                    },
                ..
            } => {
                let packed: u16 = (u16::from(*from) << 10)
                    | (u16::from(*to) << 4)
                    | (u16::from(*promotion) << 1)
                    | u16::from(*draw_offer);
                p.extend_from_slice(&packed.to_be_bytes());
            }
            Message::Action {
                act:
                    Act::Path {
                        squares,
                        len,
                        capture,
                        draw_offer,
                    },
                ..
            } => {
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
            Message::Refused { reason, .. } => {
                let mut cut = reason.len().min(MAX_REASON);
                while !reason.is_char_boundary(cut) {
                    cut -= 1;
                }
                p.push(cut as u8);
                p.extend_from_slice(&reason.as_bytes()[..cut]);
            }
            Message::Action { .. } => {}
        }
        p
    }

    pub fn decode(p: &[u8]) -> Result<Message, FrameError> {
        let refused = p.first().is_some_and(|k| k & !BLACK == K_REFUSED);
        let header = if refused { 5 } else { 4 };
        if p.len() < header {
            return Err(FrameError::Payload("message too short"));
        }
        if p[0] & 0xC0 != 0 {
            return Err(FrameError::Payload("message kind"));
        }
        let side = if p[0] & BLACK != 0 {
            Side::Black
        } else {
            Side::White
        };
        let game = u16::from_be_bytes([p[1], p[2]]);
        let number = if refused {
            u16::from_be_bytes([p[3], p[4]])
        } else {
            u16::from(p[3])
        };
        let rest = &p[header..];
        let exact = |act: Act| {
            if rest.is_empty() {
                Ok(Message::Action {
                    game,
                    side,
                    number,
                    act,
                })
            } else {
                Err(FrameError::Payload("trailing bytes"))
            }
        };
        match p[0] & !BLACK {
            K_MOVE => {
                let [a, b] = rest else {
                    return Err(FrameError::Payload("move length"));
                };
                let packed = u16::from_be_bytes([*a, *b]);
                let promotion = ((packed >> 1) & 0x7) as u8;
                if promotion > 4 {
                    return Err(FrameError::Payload("promotion digit"));
                }
                Ok(Message::Action {
                    game,
                    side,
                    number,
                    act: Act::Move {
                        from: (packed >> 10) as u8,
                        to: ((packed >> 4) & 0x3F) as u8,
                        promotion,
                        draw_offer: packed & 1 == 1,
                    },
                })
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
                Ok(Message::Action {
                    game,
                    side,
                    number,
                    act: Act::Path {
                        squares,
                        len: path.len() as u8,
                        capture: flags & PATH_CAPTURE != 0,
                        draw_offer: flags & PATH_DRAW_OFFER != 0,
                    },
                })
            }
            K_OFFER => exact(Act::OfferDraw),
            K_ACCEPT => exact(Act::AcceptDraw),
            K_DECLINE => exact(Act::DeclineDraw),
            K_RESIGN => exact(Act::Resign),
            K_REFUSED => {
                let Some((&len, text)) = rest.split_first() else {
                    return Err(FrameError::Payload("refusal length"));
                };
                if text.len() != usize::from(len) || text.len() > MAX_REASON {
                    return Err(FrameError::Payload("refusal length"));
                }
                let reason = std::str::from_utf8(text)
                    .map_err(|_| FrameError::Payload("refusal not UTF-8"))?
                    .to_owned();
                Ok(Message::Refused {
                    game,
                    side,
                    number,
                    reason,
                })
            }
            _ => Err(FrameError::Payload("unknown message kind")),
        }
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

/// The action number with low 8 bits `low` nearest `count` (from `count - 128` to
/// `count + 127`): what an action's number is, given how many actions of that player the
/// receiver holds. A repeat is at most a window behind and a new action at `count`, so the
/// nearest is the one meant.
pub fn nearest_number(low: u8, count: i64) -> i64 {
    let diff = i64::from(low.wrapping_sub(count as u8) as i8);
    let n = count + diff;
    // No action numbers below zero: near the start, the one above.
    if n < 0 { n + 256 } else { n }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cobs_round_trips_and_never_emits_zero() {
        let cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![0],
            vec![0, 0],
            vec![1, 2, 3],
            vec![1, 0, 2, 0],
            (0..=255u8).collect(),
            vec![7; 600],
        ];
        for data in cases {
            let enc = cobs_encode(&data);
            assert!(!enc.contains(&0), "{data:?}");
            assert_eq!(cobs_decode(&enc).as_deref(), Some(&data[..]));
        }
        assert_eq!(cobs_decode(&[0]), None);
        assert_eq!(cobs_decode(&[5, 1]), None);
    }

    fn key() -> [u8; 32] {
        derive_key(b"secret", b"test", &[])
    }

    fn data(ack: u8) -> Plain {
        Plain::Data {
            seq: 5,
            ack,
            message: vec![3, 1, 2, 3],
        }
    }

    fn open(wire: &[u8], dir: u8, ctr: u64, tag_len: usize) -> Result<Plain, FrameError> {
        assert_eq!(wire.last(), Some(&0));
        Unverified::decode(&wire[..wire.len() - 1])?.verify(&key(), dir, ctr, tag_len)
    }

    #[test]
    fn a_sealed_frame_opens_with_its_counter_and_tag_length() {
        for tag_len in MIN_TAG..=MAX_TAG {
            let wire = seal(&key(), 0, 70_000, tag_len, &data(9));
            // Head, counter, seq|ack, three message bytes, the tag; COBS byte and delimiter.
            assert_eq!(wire.len(), 6 + tag_len + 2);
            let frame = Unverified::decode(&wire[..wire.len() - 1]).unwrap();
            assert_eq!(frame.low_ctr(), 70_000u64 as u8);
            assert_eq!(open(&wire, 0, 70_000, tag_len), Ok(data(9)));
            assert_eq!(open(&wire, 0, 70_001, tag_len), Err(FrameError::BadTag));
        }
        let ack = Plain::Ack {
            ack: 7,
            sack: 0b101,
            ready: true,
            nak: true,
        };
        let wire = seal(&key(), 1, 3, DEFAULT_TAG, &ack);
        assert_eq!(open(&wire, 1, 3, DEFAULT_TAG), Ok(ack));
        let bare = Plain::Ack {
            ack: 15,
            sack: 0,
            ready: false,
            nak: false,
        };
        let wire = seal(&key(), 1, 4, DEFAULT_TAG, &bare);
        assert_eq!(
            wire.len(),
            2 + DEFAULT_TAG + 2,
            "a plain ACK is head, counter, tag"
        );
        assert_eq!(open(&wire, 1, 4, DEFAULT_TAG), Ok(bare));
    }

    #[test]
    fn a_move_frame_is_sixteen_bytes_with_the_default_tag() {
        let message = Message::Action {
            game: game_code("m1"),
            side: Side::White,
            number: 0,
            act: Act::Move {
                from: 12,
                to: 28,
                promotion: 0,
                draw_offer: false,
            },
        };
        let wire = seal(
            &key(),
            0,
            7,
            DEFAULT_TAG,
            &Plain::Data {
                seq: 5,
                ack: 3,
                message: message.encode(),
            },
        );
        assert_eq!(wire.len(), 16);
        let Ok(Plain::Data {
            seq,
            ack,
            message: m,
        }) = open(&wire, 0, 7, DEFAULT_TAG)
        else {
            panic!("opens");
        };
        assert_eq!((seq, ack), (5, 3));
        assert_eq!(Message::decode(&m), Ok(message));
    }

    #[test]
    fn every_single_bit_flip_is_caught() {
        let wire = seal(&key(), 1, 5, DEFAULT_TAG, &data(2));
        for i in 0..wire.len() - 1 {
            for bit in 0..8 {
                let mut bad = wire.clone();
                bad[i] ^= 1 << bit;
                if bad[i] == 0 {
                    // A new delimiter: the frame splits and each half is refused.
                    continue;
                }
                assert!(open(&bad, 1, 5, DEFAULT_TAG).is_err(), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn the_wrong_key_direction_or_tag_length_fails() {
        let wire = seal(&key(), 0, 1, DEFAULT_TAG, &data(0));
        assert_eq!(open(&wire, 1, 1, DEFAULT_TAG), Err(FrameError::BadTag));
        assert!(open(&wire, 0, 1, 8).is_err());
        let other = derive_key(b"other", b"test", &[]);
        let e = Unverified::decode(&wire[..wire.len() - 1])
            .unwrap()
            .verify(&other, 0, 1, DEFAULT_TAG)
            .unwrap_err();
        assert_eq!(e, FrameError::BadTag);
    }

    #[test]
    fn hellos_round_trip_and_a_version_1_hello_is_named() {
        let hello = Hello {
            nonce: [7; NONCE_LEN],
            echo: [9; NONCE_LEN],
            tag_len: 12,
        };
        let wire = seal_hello(&key(), &hello);
        let frame = Unverified::decode(&wire[..wire.len() - 1]).unwrap();
        assert_eq!(frame.kind(), HELLO);
        assert_eq!(frame.open_hello(&key()), Ok(hello));
        // Version 1's HELLO: type 0x01, counter 0, ack 0, version 1, two nonces, 8-byte tag.
        let mut v1 = vec![0x01, 0, 0, 0, 1];
        v1.extend([0x55; 2 * NONCE_LEN + 8]);
        let wire = cobs_encode(&v1);
        let e = Unverified::decode(&wire).err().expect("refused");
        assert_eq!(e, FrameError::OldVersion(1));
        assert!(e.to_string().contains("version 1"), "{e}");
        // Every other version 1 frame type is refused by type, never read.
        for t in [0x01, 0x02, 0x03, 0x10] {
            let wire = cobs_encode(&[t, 0, 1, 0, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
            assert!(matches!(
                Unverified::decode(&wire).err(),
                Some(FrameError::UnknownType(_))
            ));
        }
    }

    #[test]
    fn the_deframer_finds_frames_after_garbage_and_drops_long_runs() {
        let wire = seal(&key(), 0, 1, DEFAULT_TAG, &data(0));
        let mut stream = vec![0x55; 500];
        stream.push(0);
        stream.extend_from_slice(&[9, 9, 0]);
        stream.extend_from_slice(&wire);
        let mut got = Vec::new();
        let mut d = Deframer::default();
        // Byte by byte, as a slow line delivers them.
        for b in &stream {
            d.push(std::slice::from_ref(b), |f| got.push(f.to_vec()));
        }
        assert_eq!(got.len(), 2, "the short garbage frame and the real one");
        assert!(Unverified::decode(&got[0]).is_err());
        assert!(
            Unverified::decode(&got[1])
                .unwrap()
                .verify(&key(), 0, 1, DEFAULT_TAG)
                .is_ok()
        );
    }

    #[test]
    fn action_numbers_are_rebuilt_from_their_low_bits() {
        for (low, count, want) in [
            (0u8, 0i64, 0i64),
            (5, 3, 5),
            (2, 3, 2),
            (255, 0, 255),
            (0, 255, 256),
            (254, 257, 254),
            (1, 300, 257),
            (44, 300, 300),
        ] {
            assert_eq!(nearest_number(low, count), want, "{low} near {count}");
        }
    }

    #[test]
    fn messages_round_trip() {
        let msgs = [
            Message::Action {
                game: 0xBEEF,
                side: Side::Black,
                number: 200,
                act: Act::Move {
                    from: 12,
                    to: 28,
                    promotion: 0,
                    draw_offer: true,
                },
            },
            Message::Action {
                game: 1,
                side: Side::White,
                number: 0,
                act: Act::Move {
                    from: 54,
                    to: 63,
                    promotion: 4,
                    draw_offer: false,
                },
            },
            Message::Action {
                game: 2,
                side: Side::White,
                number: 7,
                act: Act::Resign,
            },
            Message::Refused {
                game: 3,
                side: Side::Black,
                number: 9,
                reason: "illegal move".to_owned(),
            },
        ];
        for m in msgs {
            assert_eq!(Message::decode(&m.encode()), Ok(m.clone()));
        }
    }

    #[test]
    fn bad_messages_are_refused_not_panicked_on() {
        for p in [
            &[][..],
            // A move without its squares; with a promotion digit 7.
            &[1, 0, 0, 0][..],
            &[1, 0, 0, 0, 0, 0xE][..],
            // A draw offer with a trailing byte.
            &[2, 0, 0, 0, 1][..],
            // A refusal whose reason is shorter than it says, or not UTF-8.
            &[6, 0, 0, 0, 0, 5, b'a'][..],
            &[6, 0, 0, 0, 0, 2, 0xFF, 0xFE][..],
            // An unknown kind; a first byte that cannot ride in a DATA head.
            &[0x1F, 0, 0, 0][..],
            &[0x41, 0, 0, 0, 0, 0][..],
        ] {
            assert!(Message::decode(p).is_err(), "{p:?}");
        }
        // Every short input, every first byte: an error or a message, never a panic.
        for first in 0..=255u8 {
            for len in 0..12 {
                let mut p = vec![first];
                p.resize(len.max(1), 0xAA);
                let _ = Message::decode(&p);
            }
        }
    }

    #[test]
    fn long_reasons_are_cut_on_a_character_boundary() {
        let m = Message::Refused {
            game: 1,
            side: Side::White,
            number: 1,
            reason: "ход ".repeat(30),
        };
        let Ok(Message::Refused { reason, .. }) = Message::decode(&m.encode()) else {
            panic!("decodes");
        };
        assert!(reason.len() <= MAX_REASON && reason.starts_with("ход"));
        // And the longest frame fits the limit.
        let wire = seal(
            &key(),
            0,
            1,
            MAX_TAG,
            &Plain::Data {
                seq: 0,
                ack: 0,
                message: m.encode(),
            },
        );
        assert!(wire.len() - 1 <= MAX_ENCODED);
    }

    #[test]
    fn iccf_packs_and_unpacks() {
        for text in ["5254", "5755", "7163", "57581", "27184", "1888"] {
            let (f, t, p) = pack_iccf(text).unwrap();
            assert_eq!(unpack_iccf(f, t, p), text);
        }
        for bad in ["", "525", "5259", "0254", "52545", "e2e4", "525411"] {
            assert_eq!(pack_iccf(bad), None, "{bad}");
        }
    }

    #[test]
    fn draughts_paths_pack_travel_and_unpack() {
        for (text, offer) in [
            ("22-18", false),
            ("22x15x24", true),
            ("31x13x2x11x18", false),
        ] {
            let act = pack_path(text, offer).unwrap();
            let message = Message::Action {
                game: 7,
                side: Side::Black,
                number: 3,
                act,
            };
            let bytes = message.encode();
            assert_eq!(bytes.len(), 4 + 1 + text.split(['-', 'x']).count());
            assert_eq!(Message::decode(&bytes), Ok(message));
            let Act::Path {
                squares,
                len,
                capture,
                draw_offer,
            } = act
            else {
                panic!("{act:?}");
            };
            assert_eq!(unpack_path(&squares[..usize::from(len)], capture), text);
            assert_eq!(draw_offer, offer);
        }
        for bad in ["", "22", "22-", "0-18", "22-18x11", "c3-d4", "300-18"] {
            assert_eq!(pack_path(bad, false), None, "{bad}");
        }
        // One square, a zero square, unknown flags: refused, not guessed.
        let header = [K_PATH, 0, 7, 0];
        for tail in [&[0u8, 22][..], &[0, 22, 0], &[4, 22, 18], &[]] {
            assert!(
                Message::decode(&[&header[..], tail].concat()).is_err(),
                "{tail:?}"
            );
        }
    }
}
