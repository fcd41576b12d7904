//! The link between nodes (protocol version 3): the deframer and frame decoder over a raw
//! byte stream, and the messages and sealed frames round-tripped.

use ccrelay::transport::link::fec::MAX_FEC;
use ccrelay::transport::link::frame::{
    self, DEFAULT_TAG, Deframer, FrameError, Hello, MAX_BODY, MAX_ENCODED, MAX_TAG, MIN_TAG, Plain,
    Unverified,
};
use ccrelay::transport::link::message::{self, Act, Body, Message};

const KEY: [u8; 32] = [7; 32];

/// A raw stream, cut into chunks of a size the first byte picks: no panic; every frame the
/// deframer gives is short (a body, and the most parity a frame carries) and zero-free; COBS
/// round-trips; every frame is tried as a HELLO and as a session frame, and a forged one never
/// verifies.
pub fn stream(data: &[u8]) {
    let chunk = 1 + usize::from(data.first().copied().unwrap_or(0) % 32);
    let mut deframer = Deframer::default();
    let mut frames = Vec::new();
    for part in data.get(1..).unwrap_or(&[]).chunks(chunk) {
        deframer.push(part, |f| frames.push(f.to_vec()));
    }
    for f in &frames {
        assert!(
            !f.is_empty() && f.len() <= MAX_ENCODED + MAX_FEC,
            "frame of {}",
            f.len()
        );
        assert!(!f.contains(&0), "a delimiter inside a frame");
        if let Some(body) = frame::cobs_decode(f) {
            assert_eq!(
                frame::cobs_decode(&frame::cobs_encode(&body)),
                Some(body.clone())
            );
            let _ = Message::decode(&body);
        }
        // Repairing what error correction can never panics, whatever arrives.
        for fec in [2, 4, 14] {
            let _ = Unverified::decode_protected(f, fec);
        }
        let Ok(unverified) = Unverified::decode(f) else {
            continue;
        };
        let kind = unverified.kind();
        assert!(matches!(kind, frame::HELLO | frame::ACK | frame::DATA));
        if kind == frame::HELLO {
            match unverified.open_hello(&KEY) {
                // Only a frame sealed under the key opens; if the fuzzer ever finds one, it
                // must be the very frame sealing its contents gives.
                Ok(hello) => {
                    let mut wire = frame::seal_hello(&KEY, &hello);
                    wire.pop();
                    assert_eq!(&wire, f, "{hello:?}");
                }
                Err(FrameError::BadTag | FrameError::Payload(_)) => {}
                Err(e) => panic!("open_hello gave {e}"),
            }
            continue;
        }
        // The full counter a receiver would try: its high bits, the frame's low byte.
        let ctr = 0x1_2300 | u64::from(unverified.low_ctr());
        for tag_len in [MIN_TAG, DEFAULT_TAG, MAX_TAG] {
            match unverified.verify(&KEY, 1, ctr, tag_len) {
                Ok(plain) => assert!(
                    unverified.verifies(&KEY, 1, ctr, tag_len),
                    "verify and verifies disagree on {plain:?}"
                ),
                Err(FrameError::BadTag | FrameError::TooShort(_) | FrameError::Payload(_)) => {}
                Err(e) => panic!("verify gave {e}"),
            }
        }
    }
}

/// Messages and frames round-tripped: a message that decodes re-encodes to the same bytes;
/// draughts paths and ICCF moves packed, unpacked and packed again come back; a frame sealed
/// from the input opens to the same plain frame at every tag length, and not with the other
/// direction's key.
pub fn message(data: &[u8]) {
    if let Ok(m) = Message::decode(data) {
        assert_eq!(m.encode(), data, "{m:?}");
        if let Some(Body::Act(
            act @ Act::Path {
                squares,
                len,
                capture,
                draw_offer,
            },
        )) = m.body().cloned()
        {
            let text = message::unpack_path(&squares[..usize::from(len)], capture);
            assert_eq!(message::pack_path(&text, draw_offer), Some(act), "{text}");
        }
    }
    let word = String::from_utf8_lossy(data);
    if let Some(
        act @ Act::Path {
            squares,
            len,
            capture,
            ..
        },
    ) = message::pack_path(&word, false)
    {
        let text = message::unpack_path(&squares[..usize::from(len)], capture);
        assert_eq!(
            message::pack_path(&text, false),
            Some(act),
            "{word:?} as {text}"
        );
    }
    if let Some((from, to, promotion)) = message::pack_iccf(&word) {
        let text = message::unpack_iccf(from, to, promotion);
        assert_eq!(message::pack_iccf(&text), Some((from, to, promotion)));
    }
    sealed(data);
    hello(data);
}

/// Sealed and opened: the first bytes pick the frame's kind, sequence numbers and counter,
/// the rest is the message (cut to fit a body).
fn sealed(data: &[u8]) {
    let Some((head, rest)) = data.split_first_chunk::<10>() else {
        return;
    };
    let ctr = u64::from_be_bytes(head[2..10].try_into().expect("8 bytes")) >> 1;
    let plain = if head[0] & 1 == 0 {
        Plain::Ack {
            ack: head[1] & 0x0F,
            sack: head[1].rotate_left(3),
            ready: head[0] & 2 != 0,
            nak: head[0] & 4 != 0,
        }
    } else {
        // The message's first byte rides in the head byte: below 64, as the link keeps it.
        let mut message: Vec<u8> = rest.iter().copied().take(MAX_BODY - 3 - MAX_TAG).collect();
        match message.first_mut() {
            Some(first) => *first &= 0x3F,
            None => message.push(0),
        }
        Plain::Data {
            seq: head[1] >> 4,
            ack: head[1] & 0x0F,
            message,
        }
    };
    for tag_len in [MIN_TAG, DEFAULT_TAG, MAX_TAG] {
        let wire = frame::seal(&KEY, 0, ctr, tag_len, &plain);
        let mut frames = Vec::new();
        Deframer::default().push(&wire, |f| frames.push(f.to_vec()));
        assert_eq!(frames.len(), 1, "one sealed frame is one frame on the wire");
        let unverified = Unverified::decode(&frames[0]).expect("a sealed frame decodes");
        assert_eq!(unverified.low_ctr(), ctr as u8);
        assert_eq!(
            unverified.verify(&KEY, 0, ctr, tag_len),
            Ok(plain.clone()),
            "tag of {tag_len}"
        );
        assert_eq!(
            unverified.verify(&KEY, 1, ctr, tag_len),
            Err(FrameError::BadTag),
            "the other direction's frame"
        );
    }
}

/// A HELLO made from the input (its nonces, a tag length in range) sealed and opened again.
fn hello(data: &[u8]) {
    let Some((nonces, rest)) = data.split_first_chunk::<32>() else {
        return;
    };
    let mut hello = Hello {
        nonce: [0; 16],
        echo: [0; 16],
        tag_len: MIN_TAG as u8
            + rest
                .first()
                .map_or(0, |b| b % (MAX_TAG - MIN_TAG + 1) as u8),
        fec: rest.get(1).map_or(0, |b| (b % 8) * 2),
    };
    hello.nonce.copy_from_slice(&nonces[..16]);
    hello.echo.copy_from_slice(&nonces[16..]);
    let mut wire = frame::seal_hello(&KEY, &hello);
    assert_eq!(wire.pop(), Some(0), "a frame ends with its delimiter");
    let unverified = Unverified::decode(&wire).expect("a HELLO decodes");
    assert_eq!(unverified.kind(), frame::HELLO);
    assert_eq!(unverified.open_hello(&KEY), Ok(hello));
    assert_eq!(
        unverified.open_hello(&[8; 32]),
        Err(FrameError::BadTag),
        "a HELLO under another key"
    );
}
