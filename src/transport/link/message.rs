//! What a DATA frame carries: a player's action in a game (a move, a draw offer, an answer to
//! one, a resignation) or the refusal of one, in as few bytes as the link can afford
//! (docs/link.md "Messages"). The frame around it is [`crate::transport::link::frame`].

use super::frame::{FrameError, MAX_PATH, MAX_REASON};
use crate::notation::Iccf;

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
    use crate::transport::link::frame::{
        DEFAULT_TAG, MAX_ENCODED, MAX_TAG, Plain, Unverified, derive_key, seal,
    };

    fn key() -> [u8; 32] {
        derive_key(b"secret", b"test", &[])
    }

    fn open(wire: &[u8], dir: u8, ctr: u64, tag_len: usize) -> Result<Plain, FrameError> {
        assert_eq!(wire.last(), Some(&0));
        Unverified::decode(&wire[..wire.len() - 1])?.verify(&key(), dir, ctr, tag_len)
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
