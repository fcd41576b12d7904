//! Forward error correction for a noisy line: `n` Reed–Solomon parity bytes after a frame's
//! body (tag included) correct up to `n / 2` damaged bytes in it, so a frame hit by noise is
//! repaired where it lands instead of being sent again a round trip later. A link opts in
//! (`fec_bytes`); the handshake takes the larger of both ends' settings (docs/link.md,
//! "Forward error correction").
//!
//! ```
//! use ccrelay::transport::link::fec;
//!
//! let mut body = b"a frame's body and tag".to_vec();
//! fec::protect(&mut body, 2);
//! body[3] ^= 0x40; // one byte hit by noise
//! assert_eq!(fec::repair(&body, 2).as_deref(), Some(&b"a frame's body and tag"[..]));
//! ```

/// The most parity bytes a link may ask for (the handshake carries half of it in 3 bits).
pub const MAX_FEC: usize = 14;

/// The parity bytes a session without its own (`fec_bytes = 0`) puts on its frames while the
/// line damages what arrives: one damaged byte a frame repaired, for two bytes, paid only on a
/// noisy line. The receiver knows such a frame by trying it both ways (its tag tells which).
pub const AUTO: usize = 2;

/// Appends `n` parity bytes to `body` (nothing for 0). A body too long for one Reed–Solomon
/// block (255 bytes with its parity) is left as it is; frames are far shorter.
pub fn protect(body: &mut Vec<u8>, n: usize) {
    if n == 0 || body.len() + n > 255 {
        return;
    }
    let encoded = reed_solomon::Encoder::new(n).encode(body);
    body.extend_from_slice(encoded.ecc());
}

/// The body without its `n` parity bytes, repaired if at most `n / 2` bytes were damaged;
/// `None` if it cannot be.
pub fn repair(protected: &[u8], n: usize) -> Option<Vec<u8>> {
    repair_counting(protected, n).map(|(body, _)| body)
}

/// [`repair`], and how many bytes (parity included) it repaired.
pub fn repair_counting(protected: &[u8], n: usize) -> Option<(Vec<u8>, usize)> {
    if n == 0 {
        return Some((protected.to_vec(), 0));
    }
    if protected.len() <= n || protected.len() > 255 {
        return None;
    }
    let (fixed, errors) = reed_solomon::Decoder::new(n)
        .correct_err_count(protected, None)
        .ok()?;
    Some((fixed.data().to_vec(), errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_to_half_the_parity_in_damaged_bytes_is_repaired_and_more_is_refused() {
        let body: Vec<u8> = (0..40).collect();
        for n in [2, 4, 6] {
            let mut sent = body.clone();
            protect(&mut sent, n);
            assert_eq!(sent.len(), body.len() + n);
            assert_eq!(repair(&sent, n), Some(body.clone()), "undamaged");
            let mut hit = sent.clone();
            for i in 0..n / 2 {
                hit[7 * i + 1] ^= 0x81;
            }
            assert_eq!(
                repair(&hit, n),
                Some(body.clone()),
                "{n}: {} bytes hit",
                n / 2
            );
            let mut worse = sent.clone();
            for i in 0..=n / 2 + 1 {
                worse[5 * i] ^= 0xFF;
            }
            assert_ne!(repair(&worse, n), Some(body.clone()), "{n}: too many hit");
        }
        assert_eq!(repair(&[1, 2], 2), None);
    }
}
