//! The link's frames: what goes on the wire, byte by byte (docs/link.md draws it).
//!
//! A frame is a short body, COBS-encoded so that it holds no zero byte, followed by one zero
//! byte that ends it. A receiver that joins mid-stream, or loses bytes to noise, finds the next
//! frame at the next zero. Protocol version 3 (version 2's frames) spends as few bytes as a
//! slow line asks:
//!
//! ```text
//! HELLO  head(1) version(1) fec|tag_len(1) nonce(16) echo(16)  tag(8) parity(2)
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

use super::fec::AUTO;
use sha2::Sha256;

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
/// A HELLO's body, tag included.
const HELLO_LEN: usize = 3 + 2 * NONCE_LEN + HELLO_TAG;
/// Random bytes each side contributes to a session key.
pub const NONCE_LEN: usize = 16;
/// The protocol version a HELLO names. Version 3 added the compact game start
/// ([`crate::transport::link::message::Start`]); its frames are version 2's.
pub const VERSION: u8 = 3;
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
    #[error("damaged beyond what its error correction repairs")]
    Uncorrectable,
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
                | FrameError::Uncorrectable
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
/// [`MAX_ENCODED`] bytes and the most parity a frame carries: an over-long run is dropped up
/// to the next zero.
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
            } else if self.buf.len() >= MAX_ENCODED + super::fec::MAX_FEC {
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
    /// first byte must be below 64 (it rides in the head byte; the link's messages keep it so).
    Data { seq: u8, ack: u8, message: Vec<u8> },
}

fn finish(
    key: &[u8; 32],
    dir: u8,
    ctr: u64,
    tag_len: usize,
    fec: usize,
    mut body: Vec<u8>,
) -> Vec<u8> {
    let t = tag(key, dir, ctr, &body);
    body.extend_from_slice(&t[..tag_len.clamp(MIN_TAG, MAX_TAG)]);
    super::fec::protect(&mut body, fec);
    let mut wire = cobs_encode(&body);
    wire.push(0);
    wire
}

/// Builds the wire bytes of a frame under a session key: body with a `tag_len`-byte tag,
/// COBS-encoded, zero-terminated.
pub fn seal(key: &[u8; 32], dir: u8, ctr: u64, tag_len: usize, plain: &Plain) -> Vec<u8> {
    seal_protected(key, dir, ctr, tag_len, 0, plain)
}

/// [`seal`], with `fec` Reed–Solomon parity bytes after the tag ([`super::fec`]).
pub fn seal_protected(
    key: &[u8; 32],
    dir: u8,
    ctr: u64,
    tag_len: usize,
    fec: usize,
    plain: &Plain,
) -> Vec<u8> {
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
    finish(key, dir, ctr, tag_len, fec, body)
}

/// The wire bytes of a HELLO, under the hello key.
pub fn seal_hello(key: &[u8; 32], hello: &Hello) -> Vec<u8> {
    let mut body = Vec::with_capacity(HELLO_LEN);
    body.push(HELLO);
    body.push(VERSION);
    body.push(hello.tag_len | (((hello.fec / 2).min(7)) << 5));
    body.extend_from_slice(&hello.nonce);
    body.extend_from_slice(&hello.echo);
    finish(key, HELLO_DIR, 0, HELLO_TAG, AUTO, body)
}

/// The direction byte of HELLOs: no session direction.
pub const HELLO_DIR: u8 = 0xFF;

/// A decoded body not yet authenticated.
pub struct Unverified {
    body: Vec<u8>,
    /// Its error correction repaired damaged bytes.
    repaired: bool,
}

impl Unverified {
    /// Decodes an encoded frame (without its delimiter) and checks its shape.
    pub fn decode(encoded: &[u8]) -> Result<Unverified, FrameError> {
        Self::decode_protected(encoded, 0)
    }

    /// [`Unverified::decode`] for a session whose frames carry `fec` parity bytes: repaired
    /// and stripped of them (HELLOs carry none).
    pub fn decode_protected(encoded: &[u8], fec: usize) -> Result<Unverified, FrameError> {
        if encoded.len() > MAX_ENCODED + fec {
            return Err(FrameError::TooLong);
        }
        let mut body = cobs_decode(encoded).ok_or(FrameError::Encoding)?;
        // A HELLO carries its own parity, whatever the session's: the handshake's few frames
        // are the ones a noisy line must not keep losing. One without (an earlier version's)
        // is read as it is, so that it can be named.
        if body.len() == HELLO_LEN + AUTO
            && let Some((fixed, errors)) = super::fec::repair_counting(&body, AUTO)
            && fixed.first() == Some(&HELLO)
        {
            return Ok(Unverified {
                body: fixed,
                repaired: errors > 0,
            });
        }
        let mut repaired = false;
        if fec > 0 && !(body.len() == HELLO_LEN && body.first() == Some(&HELLO)) {
            let (fixed, errors) =
                super::fec::repair_counting(&body, fec).ok_or(FrameError::Uncorrectable)?;
            repaired = errors > 0;
            body = fixed;
        }
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
        Ok(Unverified { body, repaired })
    }

    /// Whether its error correction repaired damaged bytes (the line damages frames).
    pub fn repaired(&self) -> bool {
        self.repaired
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
        // The version first: another release's HELLO may be shaped otherwise. One shaped as
        // this one's whose tag verifies is the peer's (version 2's is): named, so the
        // operator learns why no session comes; anything else is noise.
        if let Some(&version) = self.body.get(1).filter(|v| **v != VERSION) {
            if self.body.len() == HELLO_LEN && self.check(key, HELLO_DIR, 0, HELLO_TAG).is_ok() {
                return Err(FrameError::OldVersion(version));
            }
            return Err(FrameError::Payload("unknown protocol version"));
        }
        if self.body.len() != HELLO_LEN {
            return Err(FrameError::Payload("HELLO length"));
        }
        self.check(key, HELLO_DIR, 0, HELLO_TAG)?;
        let p = &self.body[2..];
        let (tag_len, fec) = (p[0] & 0x1F, (p[0] >> 5) * 2);
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
            fec,
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
    /// The parity bytes this end asks for ([`super::fec`]): even, at most 14 (it travels as
    /// half of it in the top 3 bits of the tag length's byte).
    pub fec: u8,
}

#[cfg(test)]
mod tests;
