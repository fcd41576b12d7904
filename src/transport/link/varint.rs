//! Numbers on the wire as LEB128 varints (docs/link.md, "Messages"): a record entry's time, a
//! proposal's number and age, a start's board. One encoding a number: the shortest.

use super::frame::FrameError;

/// Appends `n` as LEB128.
pub(super) fn push(p: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            p.push(byte);
            return;
        }
        p.push(byte | 0x80);
    }
}

/// A varint at the start of `p`, and the rest; at most 9 bytes (63 bits), in its shortest
/// form (so that a message has one encoding: a last byte of 0 after others is refused).
pub(super) fn read(p: &[u8]) -> Result<(u64, &[u8]), FrameError> {
    let mut n = 0u64;
    for (i, &byte) in p.iter().enumerate().take(9) {
        n |= u64::from(byte & 0x7F) << (7 * i);
        if byte & 0x80 == 0 {
            if byte == 0 && i > 0 {
                break;
            }
            return Ok((n, &p[i + 1..]));
        }
    }
    Err(FrameError::Payload("number"))
}
