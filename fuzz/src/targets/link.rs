//! The link between nodes: the deframer and frame decoder over a raw byte stream, and the
//! payloads and sealed frames round-tripped.

use ccrelay::transport::link::frame::{
    self, Act, Deframer, FrameError, Hello, MAX_BODY, MAX_ENCODED, Message, Plain, TAG_LEN,
    Unverified,
};

const KEY: [u8; 32] = [7; 32];

/// A raw stream, cut into chunks of a size the first byte picks: no panic; every frame the
/// deframer gives is short and zero-free; what decodes is re-encoded to the same frame's
/// body; every payload reader tried on every frame.
pub fn stream(data: &[u8]) {
    let chunk = 1 + usize::from(data.first().copied().unwrap_or(0) % 32);
    let mut deframer = Deframer::default();
    let mut frames = Vec::new();
    for part in data.get(1..).unwrap_or(&[]).chunks(chunk) {
        deframer.push(part, |f| frames.push(f.to_vec()));
    }
    for f in &frames {
        assert!(
            !f.is_empty() && f.len() <= MAX_ENCODED,
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
            let _ = Hello::decode(&body);
        }
        if let Ok(unverified) = Unverified::decode(f) {
            let kind = unverified.kind();
            assert!(matches!(
                kind,
                frame::HELLO | frame::READY | frame::ACK | frame::DATA
            ));
            // A forged tag fails; a stale or replayed counter is told apart.
            match unverified.verify(&KEY, 1, Some(0x1_2345)) {
                Ok((ctr, plain)) => {
                    assert!(ctr > 0x1_2345);
                    assert_eq!(plain.kind, kind);
                }
                Err(FrameError::BadTag | FrameError::Replay { .. }) => {}
                Err(e) => panic!("verify gave {e}"),
            }
        }
    }
}

/// Payloads and frames round-tripped: a DATA payload or HELLO that decodes re-encodes to the
/// same bytes; a frame sealed from the input opens to the same counter and plain frame, and
/// not with the other direction's key.
pub fn message(data: &[u8]) {
    if let Ok(m) = Message::decode(data) {
        assert_eq!(m.encode(), data, "{m:?}");
        if let Message::Action {
            act:
                Act::Path {
                    squares,
                    len,
                    capture,
                    draw_offer,
                },
            ..
        } = m
        {
            let text = frame::unpack_path(&squares[..usize::from(len)], capture);
            assert_eq!(
                frame::pack_path(&text, draw_offer),
                Some(m_act(&m)),
                "{text}"
            );
        }
    }
    if let Ok(h) = Hello::decode(data) {
        assert_eq!(h.encode(), data);
    }
    let word = String::from_utf8_lossy(data);
    if let Some(act) = frame::pack_path(&word, false)
        && let Act::Path {
            squares,
            len,
            capture,
            ..
        } = act
    {
        let text = frame::unpack_path(&squares[..usize::from(len)], capture);
        assert_eq!(
            frame::pack_path(&text, false),
            Some(act),
            "{word:?} as {text}"
        );
    }
    if let Some((from, to, promotion)) = frame::pack_iccf(&word) {
        let text = frame::unpack_iccf(from, to, promotion);
        assert_eq!(frame::pack_iccf(&text), Some((from, to, promotion)));
    }
    // Sealed and opened: kind, ack, an 8-byte counter, then the payload (cut to fit a body).
    if data.len() < 10 {
        return;
    }
    let kind = [frame::HELLO, frame::READY, frame::ACK, frame::DATA][usize::from(data[0] % 4)];
    let ack = data[1];
    let ctr = u64::from_be_bytes(data[2..10].try_into().expect("8 bytes")) >> 1;
    let payload = data[10..]
        .iter()
        .copied()
        .take(MAX_BODY - 4 - TAG_LEN)
        .collect();
    let plain = Plain { kind, ack, payload };
    let wire = frame::seal(&KEY, 0, ctr, &plain);
    let mut frames = Vec::new();
    Deframer::default().push(&wire, |f| frames.push(f.to_vec()));
    assert_eq!(frames.len(), 1, "one sealed frame is one frame on the wire");
    let opened = Unverified::decode(&frames[0])
        .expect("a sealed frame decodes")
        .verify(&KEY, 0, ctr.checked_sub(1))
        .expect("a sealed frame verifies");
    let expected_ctr = if ctr == 0 { 0 } else { ctr };
    assert_eq!(opened, (expected_ctr, plain));
    let other = Unverified::decode(&frames[0])
        .expect("a sealed frame decodes")
        .verify(&KEY, 1, ctr.checked_sub(1));
    assert_eq!(
        other,
        Err(FrameError::BadTag),
        "the other direction's frame"
    );
}

fn m_act(m: &Message) -> Act {
    match m {
        Message::Action { act, .. } => *act,
        Message::Refused { .. } => unreachable!("only actions carry acts"),
    }
}
