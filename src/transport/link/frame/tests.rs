//! The link's frames: COBS, sealed frames opened with their counter and tag, every bit flip
//! caught, hellos, and the deframer after garbage.

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
        fec: 4,
    };
    let wire = seal_hello(&key(), &hello);
    let frame = Unverified::decode(&wire[..wire.len() - 1]).unwrap();
    assert_eq!(frame.kind(), HELLO);
    assert_eq!(frame.open_hello(&key()), Ok(hello));
    // A session with error correction reads HELLOs, which carry their own, as they are.
    let frame = Unverified::decode_protected(&wire[..wire.len() - 1], 4).unwrap();
    assert_eq!(frame.open_hello(&key()), Ok(hello));
    // A HELLO has two parity bytes of its own: one damaged byte is repaired.
    assert_eq!(wire.len(), HELLO_LEN + AUTO + 2);
    for i in [0, 5, 30, 44] {
        let mut hit = cobs_decode(&wire[..wire.len() - 1]).unwrap();
        hit[i] ^= 0x21;
        let frame = Unverified::decode(&cobs_encode(&hit)).unwrap();
        assert!(frame.repaired(), "byte {i}");
        assert_eq!(frame.open_hello(&key()), Ok(hello), "byte {i}");
    }
    // Version 1's HELLO: type 0x01, counter 0, ack 0, version 1, two nonces, 8-byte tag.
    let mut v1 = vec![0x01, 0, 0, 0, 1];
    v1.extend([0x55; 2 * NONCE_LEN + 8]);
    let wire = cobs_encode(&v1);
    let e = Unverified::decode(&wire).err().expect("refused");
    assert_eq!(e, FrameError::OldVersion(1));
    assert!(e.to_string().contains("version 1"), "{e}");
    // Version 2's HELLO: the same shape under the same key, another version byte, no
    // parity.
    let hello_wire = seal_hello(&key(), &hello);
    let mut body = cobs_decode(&hello_wire[..hello_wire.len() - 1]).unwrap();
    body.truncate(HELLO_LEN);
    body[1] = 2;
    let split = body.len() - HELLO_TAG;
    let t = tag(&key(), HELLO_DIR, 0, &body[..split]);
    body[split..].copy_from_slice(&t[..HELLO_TAG]);
    let frame = Unverified::decode(&cobs_encode(&body)).unwrap();
    let e = frame.open_hello(&key()).unwrap_err();
    assert_eq!(e, FrameError::OldVersion(2));
    assert!(
        e.to_string()
            .contains("version 2; this node speaks version 3"),
        "{e}"
    );
    // Noise on the version byte of this version's HELLO is only noise.
    body[1] = 7;
    let frame = Unverified::decode(&cobs_encode(&body)).unwrap();
    assert_eq!(
        frame.open_hello(&key()),
        Err(FrameError::Payload("unknown protocol version"))
    );
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
