//! KISS, the framing between a host and its TNC (Direwolf's KISS port, a hardware TNC in KISS
//! mode): `FEND type data FEND`, with `FEND` and `FESC` in the data escaped.
//!
//! Owned rather than taken from a crate: it is a few dozen lines, and the reader has to tell
//! "the frame is not all here yet" (wait for the line) from "these bytes are wrong" (skip them
//! and say so), which the crates on offer fold together. Sizes are bounded: a frame longer than
//! [`MAX_DATA`] is skipped whole, so a TNC that never sends `FEND` cannot grow our buffer.

/// Frame end: the delimiter.
pub const FEND: u8 = 0xC0;
/// Frame escape: `FESC TFEND` is a `FEND` in the data, `FESC TFESC` a `FESC`.
pub const FESC: u8 = 0xDB;
const TFEND: u8 = 0xDC;
const TFESC: u8 = 0xDD;

/// The longest data a frame may carry, unescaped: an AX.25 UI frame with eight digipeaters and
/// 256 bytes of information is 330; the rest is margin.
pub const MAX_DATA: usize = 512;

/// The command in a type byte's low nibble (its high nibble is the TNC's port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Command {
    /// An AX.25 frame; the only type a TNC sends to the host.
    Data = 0,
    /// Time between keying the transmitter and sending, in 10 ms units.
    TxDelay = 1,
    /// p-persistence: the chance (value + 1) / 256 of sending in a free slot.
    Persistence = 2,
    /// The slot time between carrier-sense tries, in 10 ms units.
    SlotTime = 3,
}

/// One frame read off the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub port: u8,
    /// The type byte's low nibble (a TNC sends 0, data; others are passed up as they came).
    pub command: u8,
    pub data: Vec<u8>,
}

/// Why bytes were skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Bad {
    #[error("KISS escape followed by {0:#04x}")]
    Escape(u8),
    #[error("KISS frame longer than {MAX_DATA} bytes")]
    TooLong,
}

/// What the bytes at the start of a buffer hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A frame, and how many bytes it took (its closing `FEND` stays, to open the next).
    Frame(Frame, usize),
    /// Not a whole frame yet: read more and ask again with the same bytes and the new ones.
    NeedMore,
    /// Bytes to skip (`usize::MAX`: all of them), and why.
    Bad(Bad, usize),
}

/// Encodes one frame, `FEND` on both sides.
pub fn encode(port: u8, command: Command, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 3);
    out.push(FEND);
    out.push((port & 0x0F) << 4 | command as u8);
    for &b in data {
        match b {
            FEND => out.extend_from_slice(&[FESC, TFEND]),
            FESC => out.extend_from_slice(&[FESC, TFESC]),
            _ => out.push(b),
        }
    }
    out.push(FEND);
    out
}

/// Reads the first frame in `input`. Bytes before the first `FEND` (a connection picked up
/// mid-frame) and empty frames (`FEND FEND`) are skipped silently, as part of the next step.
pub fn next_frame(input: &[u8]) -> Step {
    let Some(mut open) = input.iter().position(|&b| b == FEND) else {
        return skip_or_wait(input.len());
    };
    // Empty frames: the last of a run of FENDs opens the frame.
    while input.get(open + 1) == Some(&FEND) {
        open += 1;
    }
    let mut data = Vec::new();
    let mut i = open + 1;
    while i < input.len() {
        match input[i] {
            FEND => return split_type(data, i),
            FESC => match input.get(i + 1) {
                None => return skip_or_wait(input.len() - open),
                Some(&TFEND) => data.push(FEND),
                Some(&TFESC) => data.push(FESC),
                Some(&other) => return Step::Bad(Bad::Escape(other), i + 1),
            },
            b => data.push(b),
        }
        i += if input[i] == FESC { 2 } else { 1 };
        if data.len() > MAX_DATA + 1 {
            return Step::Bad(Bad::TooLong, i);
        }
    }
    skip_or_wait(input.len() - open)
}

/// No frame end in `len` bytes: wait for more, unless that many can no longer be one frame
/// (then everything so far is skipped).
fn skip_or_wait(len: usize) -> Step {
    if len > 2 * MAX_DATA + 4 {
        Step::Bad(Bad::TooLong, usize::MAX)
    } else {
        Step::NeedMore
    }
}

fn split_type(mut data: Vec<u8>, end: usize) -> Step {
    let kind = data.remove(0);
    let frame = Frame {
        port: kind >> 4,
        command: kind & 0x0F,
        data,
    };
    Step::Frame(frame, end)
}

/// A byte stream cut into frames: bytes go in as the line gives them, frames come out.
#[derive(Debug, Default)]
pub struct Reader {
    pending: Vec<u8>,
}

impl Reader {
    pub fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// The next frame or problem; `None` when more bytes are needed.
    pub fn next_frame(&mut self) -> Option<Result<Frame, Bad>> {
        let (result, used) = match next_frame(&self.pending) {
            Step::NeedMore => {
                // Bytes before the first FEND can never be part of a frame: drop them now.
                let open = self.pending.iter().position(|&b| b == FEND);
                self.pending.drain(..open.unwrap_or(self.pending.len()));
                return None;
            }
            Step::Frame(frame, used) => (Ok(frame), used),
            Step::Bad(bad, used) => (Err(bad), used),
        };
        self.pending.drain(..used.min(self.pending.len()));
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frame(data: &[u8]) -> Frame {
        Frame {
            port: 0,
            command: 0,
            data: data.to_vec(),
        }
    }

    #[test]
    fn the_steps_of_a_table_of_inputs() {
        let cases: &[(&[u8], Step)] = &[
            (&[], Step::NeedMore),
            (&[FEND], Step::NeedMore),
            (&[FEND, 0x00, 0x41], Step::NeedMore),
            (&[FEND, 0x00, 0x41, FEND], Step::Frame(frame(b"A"), 3)),
            (
                &[0x55, 0x66, FEND, 0x00, 0x41, FEND],
                Step::Frame(frame(b"A"), 5),
            ),
            (
                &[FEND, FEND, FEND, 0x00, 0x41, FEND],
                Step::Frame(frame(b"A"), 5),
            ),
            (
                &[FEND, 0x00, FESC, TFEND, FESC, TFESC, FEND],
                Step::Frame(frame(&[FEND, FESC]), 6),
            ),
            (&[FEND, 0x00, FESC], Step::NeedMore),
            (
                &[FEND, 0x00, FESC, 0x41, FEND],
                Step::Bad(Bad::Escape(0x41), 3),
            ),
            (
                &[FEND, 0x13, 0x07, FEND],
                Step::Frame(
                    Frame {
                        port: 1,
                        command: 3,
                        data: vec![7],
                    },
                    3,
                ),
            ),
        ];
        for (input, want) in cases {
            assert_eq!(&next_frame(input), want, "{input:02x?}");
        }
    }

    #[test]
    fn escapes_are_written_for_both_special_bytes() {
        assert_eq!(
            encode(0, Command::Data, &[1, FEND, FESC, 2]),
            vec![FEND, 0, 1, FESC, TFEND, FESC, TFESC, 2, FEND]
        );
        assert_eq!(
            encode(1, Command::TxDelay, &[30]),
            vec![FEND, 0x11, 30, FEND]
        );
    }

    #[test]
    fn a_frame_too_long_is_skipped_and_the_next_one_read() {
        let mut bytes = encode(0, Command::Data, &vec![b'x'; MAX_DATA + 10]);
        bytes.extend(encode(0, Command::Data, b"ok"));
        let mut reader = Reader::default();
        reader.push(&bytes);
        assert_eq!(reader.next_frame(), Some(Err(Bad::TooLong)));
        assert_eq!(reader.next_frame(), Some(Ok(frame(b"ok"))));
        assert_eq!(reader.next_frame(), None);
    }

    #[test]
    fn a_line_that_never_ends_a_frame_does_not_grow_the_buffer() {
        let mut reader = Reader::default();
        for _ in 0..100 {
            reader.push(&[b'z'; 100]);
            while reader.next_frame().is_some() {}
        }
        assert!(reader.pending.len() <= 2 * MAX_DATA + 4);
    }

    proptest! {
        #[test]
        fn frames_round_trip_however_the_bytes_are_cut(
            frames in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..80), 1..6),
            cut in 1usize..40,
        ) {
            let bytes: Vec<u8> = frames.iter().flat_map(|f| encode(0, Command::Data, f)).collect();
            let mut reader = Reader::default();
            let mut got = Vec::new();
            for piece in bytes.chunks(cut) {
                reader.push(piece);
                while let Some(r) = reader.next_frame() {
                    got.push(r.expect("no bad bytes in encoded frames").data);
                }
            }
            prop_assert_eq!(got, frames);
        }

        #[test]
        fn any_bytes_are_read_without_a_panic_and_always_consumed(
            bytes in proptest::collection::vec(any::<u8>(), 0..3000),
        ) {
            let mut reader = Reader::default();
            reader.push(&bytes);
            let mut steps = 0;
            while let Some(r) = reader.next_frame() {
                if let Ok(f) = r {
                    prop_assert!(f.data.len() <= MAX_DATA);
                }
                steps += 1;
                prop_assert!(steps <= bytes.len() + 1);
            }
            prop_assert!(reader.pending.len() <= 2 * MAX_DATA + 4);
        }
    }
}
