//! What DATA carries: each message round-trips, a move's frame is as small as promised,
//! bad messages are refused without a panic, and moves of both games pack and unpack.

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

fn e2e4(draw_offer: bool) -> Body {
    Body::Act(Act::Move {
        from: 12,
        to: 28,
        promotion: 0,
        draw_offer,
    })
}

/// `message` in a DATA frame (counter 7) with a `tag_len`-byte tag.
fn sealed(message: &Message, tag_len: usize) -> Vec<u8> {
    let plain = Plain::Data {
        seq: 5,
        ack: 3,
        message: message.encode(),
    };
    seal(&key(), 0, 7, tag_len, &plain)
}

/// `m` sealed with the longest tag stays within the frame limit.
fn fits_the_longest_tag(m: &Message) -> bool {
    sealed(m, MAX_TAG).len() - 1 <= MAX_ENCODED
}

fn wire_len(message: &Message) -> usize {
    let wire = sealed(message, DEFAULT_TAG);
    let Ok(Plain::Data { message: m, .. }) = open(&wire, 0, 7, DEFAULT_TAG) else {
        panic!("opens");
    };
    assert_eq!(Message::decode(&m).as_ref(), Ok(message));
    wire.len()
}

/// A move in the record costs 16 bytes and its time: one byte within two minutes of the
/// entry before, two within four and a half hours, three within 24 days. A proposed move
/// carries its number (one byte up to 127, two up to 16,383) and its age in the outbox
/// (one byte when fresh). A usual game's start is one frame.
#[test]
fn a_moves_frame_is_sixteen_bytes_and_its_time_with_the_default_tag() {
    for (delta, want) in [(0, 17), (127, 17), (128, 18), (16_383, 18), (2_000_000, 19)] {
        let record = Message::Record {
            game: game_code("m1"),
            side: Side::White,
            index: 1,
            delta,
            body: e2e4(false),
        };
        assert_eq!(wire_len(&record), want, "delta {delta}");
    }
    for (number, want) in [(0, 17), (127, 17), (300, 18), (u16::MAX, 19)] {
        let proposal = Message::Proposal {
            game: game_code("m1"),
            side: Side::Black,
            number,
            age: 3,
            body: e2e4(true),
        };
        assert_eq!(wire_len(&proposal), want, "number {number}");
    }
    let start = Message::Record {
        game: game_code("m1"),
        side: Side::White,
        index: 0,
        delta: 1_796_000_000,
        body: Body::Start(Start {
            id: "m1".to_owned(),
            white: "anna".to_owned(),
            black: "boris".to_owned(),
            game: 0,
            authority_black: false,
            rules: 1,
            event: None,
            round: None,
            board: None,
        }),
    };
    assert_eq!(wire_len(&start), 34);
}

#[test]
fn messages_round_trip() {
    let text = |kind, actor, more: bool, iccf: &str, chunk: &str| {
        Body::Text(Text {
            kind,
            actor,
            first: !iccf.is_empty() || !more,
            more,
            iccf: iccf.to_owned(),
            chunk: chunk.to_owned(),
        })
    };
    let msgs = [
        Message::Record {
            game: 0xBEEF,
            side: Side::Black,
            index: 200,
            delta: 86_400,
            body: e2e4(true),
        },
        Message::Record {
            game: 1,
            side: Side::White,
            index: 0,
            delta: 1_796_000_000,
            body: text(1, Actor::Arbiter, true, "", "m1\n{\"white\":\"alice\""),
        },
        Message::Record {
            game: 2,
            side: Side::White,
            index: 7,
            delta: 5,
            body: Body::Act(Act::Resign),
        },
        Message::Proposal {
            game: 3,
            side: Side::Black,
            number: 65_535,
            age: 0,
            body: text(
                0,
                Actor::Side(Side::Black),
                false,
                "",
                "CLAIM m1 FIFTY 5254",
            ),
        },
        Message::Proposal {
            game: 3,
            side: Side::White,
            number: 2,
            age: 40_000,
            body: text(0, Actor::Arbiter, false, "", "ADJUDICATE m1 1-0 время"),
        },
        Message::Record {
            game: 4,
            side: Side::White,
            index: 9,
            delta: 1,
            body: text(7, Actor::Side(Side::White), false, "5254", "threefold"),
        },
        Message::Refused {
            game: 3,
            side: Side::Black,
            number: 9,
            reason: "illegal move".to_owned(),
        },
        Message::Record {
            game: game_code("m1"),
            side: Side::White,
            index: 0,
            delta: 1_796_000_000,
            body: Body::Start(Start {
                id: "m1".to_owned(),
                white: "anna".to_owned(),
                black: "борис".to_owned(),
                game: 1,
                authority_black: true,
                rules: 2,
                event: Some("club-cup".to_owned()),
                round: Some("3".to_owned()),
                board: Some(300),
            }),
        },
    ];
    for m in msgs {
        assert_eq!(Message::decode(&m.encode()), Ok(m.clone()));
        assert!(fits_the_longest_tag(&m), "{m:?}");
    }
    for kind in TEXT_KINDS {
        assert_eq!(entry_kind_of(entry_kind_code(kind).unwrap()), Some(kind));
    }
    assert_eq!(entry_kind_code(crate::relay::EntryKind::Rejected), None);
}

#[test]
fn bad_messages_are_refused_not_panicked_on() {
    for p in [
        &[][..],
        // A record move without its squares; with a promotion digit 7.
        &[1, 0, 0, 0, 0][..],
        &[1, 0, 0, 0, 0, 0, 0xE][..],
        // A draw offer with a trailing byte.
        &[2, 0, 0, 0, 0, 1][..],
        // A time not in its shortest form (0 as two bytes): one message, one encoding.
        &[2, 0, 0, 0, 0x80, 0x00][..],
        // A start: a board that runs past the end; a game kind none; a name running past
        // the end; an empty name; bytes after the last name.
        &[9, 0, 0, 0, 0, 0x80, 1, b'a', 1, b'b', 1, b'c', 0x81][..],
        &[9, 0, 0, 0, 0, 0x02, 1, b'a', 1, b'b', 1, b'c'][..],
        &[9, 0, 0, 0, 0, 0x00, 1, b'a', 1, b'b', 5, b'c'][..],
        &[9, 0, 0, 0, 0, 0x00, 1, b'a', 0, 1, b'c'][..],
        &[9, 0, 0, 0, 0, 0x00, 1, b'a', 1, b'b', 1, b'c', 7][..],
        // A time that never ends.
        &[
            2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ][..],
        // A refusal whose reason is shorter than it says, or not UTF-8.
        &[6, 0, 0, 0, 0, 5, b'a'][..],
        &[6, 0, 0, 0, 0, 2, 0xFF, 0xFE][..],
        // Text: an actor that is none; a move longer than the text holds.
        &[8, 0, 0, 0, 0, 1, 6, 0][..],
        &[8, 0, 0, 0, 0, 1, 0, 9, b'5'][..],
        // An unknown kind; a first byte that cannot ride in a DATA head.
        &[0x1F, 0, 0, 0, 0][..],
        &[0x41, 0, 0, 0, 0, 0][..],
    ] {
        assert!(Message::decode(p).is_err(), "{p:?}");
    }
    // Every short input, every first byte: an error or a message, never a panic.
    for first in 0..=255u8 {
        for len in 0..14 {
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
    assert!(fits_the_longest_tag(&m));
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
        let message = Message::Record {
            game: 7,
            side: Side::Black,
            index: 3,
            delta: 60,
            body: Body::Act(act),
        };
        let bytes = message.encode();
        assert_eq!(bytes.len(), 5 + 1 + text.split(['-', 'x']).count());
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
    let header = [K_PATH, 0, 7, 0, 0];
    for tail in [&[0u8, 22][..], &[0, 22, 0], &[4, 22, 18], &[]] {
        assert!(
            Message::decode(&[&header[..], tail].concat()).is_err(),
            "{tail:?}"
        );
    }
}
