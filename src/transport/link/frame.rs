//! The link's frames: what goes on the wire, byte by byte (docs/link.md draws it).
//!
//! A frame is a short body, COBS-encoded so that it holds no zero byte, followed by one zero
//! byte that ends it. A receiver that joins mid-stream, or loses bytes to noise, finds the next
//! frame at the next zero. The body:
//!
//! ```text
//! type(1) ctr(2, big-endian) ack(1) payload(0..) tag(8)
//! ```
//!
//! `tag` is HMAC-SHA256, truncated to 8 bytes, over the direction, the full 64-bit frame
//! counter of which `ctr` carries the low 16 bits, and the body before the tag. It is the only
//! integrity check: a CRC would catch nothing the MAC does not, and noise that survives a 64-bit
//! MAC is as unlikely as a forger's guess (2^-64).
//!
//! Nothing here does I/O or keeps time: [`crate::transport::link::session`] does.

use hmac::{KeyInit, Mac};
use sha2::Sha256;

use crate::notation::Iccf;

type HmacSha256 = hmac::Hmac<Sha256>;

/// The longest body accepted (and sent): a REFUSED with its longest reason.
pub const MAX_BODY: usize = 96;
/// The longest encoded frame, delimiter excluded: COBS adds one byte per 254.
pub const MAX_ENCODED: usize = MAX_BODY + 2;
/// Bytes of HMAC kept.
pub const TAG_LEN: usize = 8;
/// Random bytes each side contributes to a session key.
pub const NONCE_LEN: usize = 16;
/// The protocol version a HELLO names.
pub const VERSION: u8 = 1;
/// Longest reason text a REFUSED carries.
pub const MAX_REASON: usize = 64;
/// Most squares a path move names (a draughts king's capture: its square and every landing).
pub const MAX_PATH: usize = 32;

/// The frame types.
pub const HELLO: u8 = 0x01;
pub const READY: u8 = 0x02;
pub const ACK: u8 = 0x03;
pub const DATA: u8 = 0x10;

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
    #[error("bad integrity tag (corrupted, forged, or from another session)")]
    BadTag,
    #[error("replayed or stale frame (counter {got}, last {last})")]
    Replay { got: u64, last: u64 },
    #[error("bad payload: {0}")]
    Payload(&'static str),
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
    mac.update(b"ccrelay link v1 ");
    mac.update(label);
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

fn tag(key: &[u8; 32], dir: u8, ctr: u64, body: &[u8]) -> [u8; TAG_LEN] {
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(&[dir]);
    mac.update(&ctr.to_be_bytes());
    mac.update(body);
    let full = mac.finalize().into_bytes();
    let mut out = [0; TAG_LEN];
    out.copy_from_slice(&full[..TAG_LEN]);
    out
}

/// A frame before sealing: its type, acknowledgement and payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plain {
    pub kind: u8,
    pub ack: u8,
    pub payload: Vec<u8>,
}

/// Builds the wire bytes of a frame: body with tag, COBS-encoded, zero-terminated.
pub fn seal(key: &[u8; 32], dir: u8, ctr: u64, plain: &Plain) -> Vec<u8> {
    let mut body = Vec::with_capacity(4 + plain.payload.len() + TAG_LEN);
    body.push(plain.kind);
    body.extend_from_slice(&(ctr as u16).to_be_bytes());
    body.push(plain.ack);
    body.extend_from_slice(&plain.payload);
    let t = tag(key, dir, ctr, &body);
    body.extend_from_slice(&t);
    let mut wire = cobs_encode(&body);
    wire.push(0);
    wire
}

/// A decoded body not yet authenticated: its type, the low counter bits and the rest.
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
        if body.len() < 4 + TAG_LEN {
            return Err(FrameError::TooShort(body.len()));
        }
        if body.len() > MAX_BODY {
            return Err(FrameError::TooLong);
        }
        if !matches!(body[0], HELLO | READY | ACK | DATA) {
            return Err(FrameError::UnknownType(body[0]));
        }
        Ok(Unverified { body })
    }

    pub fn kind(&self) -> u8 {
        self.body[0]
    }

    fn low_ctr(&self) -> u16 {
        u16::from_be_bytes([self.body[1], self.body[2]])
    }

    /// Checks the tag for the sender's direction `dir`, with a counter that must be above
    /// `last` (`None`: the counter must be zero, as in a HELLO). Returns the full counter and the
    /// frame.
    pub fn verify(
        self,
        key: &[u8; 32],
        dir: u8,
        last: Option<u64>,
    ) -> Result<(u64, Plain), FrameError> {
        let low = u64::from(self.low_ctr());
        let ctr = match last {
            None => low,
            Some(last) => {
                // The full counter nearest above `last` with these low bits.
                let mut c = (last & !0xFFFF) | low;
                if c <= last {
                    c += 0x1_0000;
                }
                c
            }
        };
        let split = self.body.len() - TAG_LEN;
        let expected = tag(key, dir, ctr, &self.body[..split]);
        // Constant time: a forger learns nothing from how long the comparison took.
        if !constant_eq(&expected, &self.body[split..]) {
            // A duplicate of an accepted frame verifies only with its old counter.
            if let Some(last) = last {
                let old = (last & !0xFFFF) | low;
                if old <= last
                    && constant_eq(
                        &tag(key, dir, old, &self.body[..split]),
                        &self.body[split..],
                    )
                {
                    return Err(FrameError::Replay { got: old, last });
                }
            }
            return Err(FrameError::BadTag);
        }
        Ok((
            ctr,
            Plain {
                kind: self.body[0],
                ack: self.body[3],
                payload: self.body[4..split].to_vec(),
            },
        ))
    }
}

fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// A HELLO's payload: version, my nonce, the peer's nonce as I know it (zeros if none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    pub nonce: [u8; NONCE_LEN],
    pub echo: [u8; NONCE_LEN],
}

impl Hello {
    pub fn encode(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(1 + 2 * NONCE_LEN);
        p.push(VERSION);
        p.extend_from_slice(&self.nonce);
        p.extend_from_slice(&self.echo);
        p
    }

    pub fn decode(p: &[u8]) -> Result<Hello, FrameError> {
        if p.len() != 1 + 2 * NONCE_LEN {
            return Err(FrameError::Payload("HELLO length"));
        }
        if p[0] != VERSION {
            return Err(FrameError::Payload("unknown protocol version"));
        }
        let mut nonce = [0; NONCE_LEN];
        let mut echo = [0; NONCE_LEN];
        nonce.copy_from_slice(&p[1..1 + NONCE_LEN]);
        echo.copy_from_slice(&p[1 + NONCE_LEN..]);
        Ok(Hello { nonce, echo })
    }
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

/// What a DATA frame carries after its sequence number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Player `side` of game `game` did `act`, their `number`-th action in the game (counted
    /// from 0 over moves, draw offers, acceptances, declines and resignations).
    Action {
        game: u32,
        side: Side,
        number: u16,
        act: Act,
    },
    /// The peer refused our action `number` of `side` in `game`, and why.
    Refused {
        game: u32,
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
const BLACK: u8 = 0x80;
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
        p.extend_from_slice(&number.to_be_bytes());
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
        if p.len() < 7 {
            return Err(FrameError::Payload("message too short"));
        }
        let side = if p[0] & BLACK != 0 {
            Side::Black
        } else {
            Side::White
        };
        let game = u32::from_be_bytes([p[1], p[2], p[3], p[4]]);
        let number = u16::from_be_bytes([p[5], p[6]]);
        let rest = &p[7..];
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

/// A game's id on the wire: the first four bytes of its SHA-256 (the configuration computes it,
/// to refuse two games with one code before a link starts).
pub use crate::config::game_code;

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
        Plain {
            kind: DATA,
            ack,
            payload: vec![3, 1, 2, 3],
        }
    }

    fn open(wire: &[u8], dir: u8, last: Option<u64>) -> Result<(u64, Plain), FrameError> {
        assert_eq!(wire.last(), Some(&0));
        Unverified::decode(&wire[..wire.len() - 1])?.verify(&key(), dir, last)
    }

    #[test]
    fn a_sealed_frame_opens_with_its_counter() {
        let wire = seal(&key(), 0, 70_000, &data(9));
        let (ctr, plain) = open(&wire, 0, Some(69_999)).unwrap();
        assert_eq!(ctr, 70_000);
        assert_eq!(plain, data(9));
    }

    #[test]
    fn every_single_bit_flip_is_caught() {
        let wire = seal(&key(), 1, 5, &data(2));
        for i in 0..wire.len() - 1 {
            for bit in 0..8 {
                let mut bad = wire.clone();
                bad[i] ^= 1 << bit;
                if bad[i] == 0 {
                    // A new delimiter: the frame splits and each half is refused.
                    continue;
                }
                assert!(open(&bad, 1, Some(4)).is_err(), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn a_replayed_frame_is_refused_and_named_a_replay() {
        let wire = seal(&key(), 0, 5, &data(2));
        assert!(open(&wire, 0, Some(4)).is_ok());
        assert_eq!(
            open(&wire, 0, Some(5)).unwrap_err(),
            FrameError::Replay { got: 5, last: 5 }
        );
        assert_eq!(
            open(&wire, 0, Some(9)).unwrap_err(),
            FrameError::Replay { got: 5, last: 9 }
        );
    }

    #[test]
    fn the_wrong_key_or_direction_fails() {
        let wire = seal(&key(), 0, 1, &data(0));
        assert_eq!(open(&wire, 1, Some(0)).unwrap_err(), FrameError::BadTag);
        let other = derive_key(b"other", b"test", &[]);
        let e = Unverified::decode(&wire[..wire.len() - 1])
            .unwrap()
            .verify(&other, 0, Some(0))
            .unwrap_err();
        assert_eq!(e, FrameError::BadTag);
    }

    #[test]
    fn the_deframer_finds_frames_after_garbage_and_drops_long_runs() {
        let wire = seal(&key(), 0, 1, &data(0));
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
                .verify(&key(), 0, Some(0))
                .is_ok()
        );
    }

    #[test]
    fn messages_round_trip() {
        let msgs = [
            Message::Action {
                game: 0xDEADBEEF,
                side: Side::Black,
                number: 300,
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
            &[1, 0, 0, 0, 0, 0, 0][..],
            &[1, 0, 0, 0, 0, 0, 0, 0, 0xE][..],
            &[2, 0, 0, 0, 0, 0, 0, 1][..],
            &[6, 0, 0, 0, 0, 0, 0, 5, b'a'][..],
            &[6, 0, 0, 0, 0, 0, 0, 2, 0xFF, 0xFE][..],
            &[0x7F, 0, 0, 0, 0, 0, 0][..],
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
            &Plain {
                kind: DATA,
                ack: 0,
                payload: [vec![0], m.encode()].concat(),
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
            assert_eq!(bytes.len(), 7 + 1 + text.split(['-', 'x']).count());
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
        let header = [K_PATH, 0, 0, 0, 7, 0, 0];
        for tail in [&[0u8, 22][..], &[0, 22, 0], &[4, 22, 18], &[]] {
            assert!(
                Message::decode(&[&header[..], tail].concat()).is_err(),
                "{tail:?}"
            );
        }
    }
}
