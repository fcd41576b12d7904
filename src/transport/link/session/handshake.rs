//! The session's handshake and keys: HELLO with this end's nonce, the peer's HELLO answered,
//! the session key derived from both nonces and the shared secret, the tag and parity lengths
//! agreed, and a fresh nonce for each new session (so frames of an old session are refused).

use std::time::Instant;

use super::super::fec::MAX_FEC;
use super::super::frame::{
    FrameError, Hello, MAX_TAG, MIN_TAG, NONCE_LEN, Unverified, derive_key, seal_hello,
};
use super::{Input, LinkSession, Sent};

pub(super) fn fresh_nonce() -> [u8; NONCE_LEN] {
    let mut n = [0; NONCE_LEN];
    // The OS random source; if it ever fails, a nonce from the clock and a counter is still
    // fresh (unique), which is what replay protection needs.
    if getrandom::fill(&mut n).is_err() {
        use sha2::Digest;
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let c = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let h = sha2::Sha256::new()
            .chain_update(t.to_be_bytes())
            .chain_update(c.to_be_bytes())
            .chain_update(std::process::id().to_be_bytes())
            .finalize();
        n.copy_from_slice(&h[..NONCE_LEN]);
    }
    n
}

impl LinkSession {
    pub(super) fn next_nonce(&mut self) -> [u8; NONCE_LEN] {
        #[cfg(test)]
        if let Some(seed) = &mut self.nonce_seed {
            let mut n = [0; NONCE_LEN];
            for b in &mut n {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *b = *seed as u8;
            }
            return n;
        }
        fresh_nonce()
    }

    pub(super) fn drop_key(&mut self) {
        self.key = None;
        self.ack_ctr = 0;
        self.fec = 0;
        self.established = false;
        self.tx_ctr = 0;
        self.rx.reset();
        self.send.reset();
        self.recv.reset();
        self.ack_due = None;
        self.ack_sent = None;
        self.nak = false;
        self.pending.clear();
    }

    pub(super) fn hello(&mut self, now: Instant) -> Vec<u8> {
        self.last_hello = Some(now);
        let hello = Hello {
            nonce: self.my_nonce,
            echo: self.peer_nonce.unwrap_or([0; NONCE_LEN]),
            tag_len: self.my_tag as u8,
            fec: self.my_fec as u8,
        };
        let wire = seal_hello(&self.hello_key, &hello);
        self.count(wire, now, Sent::Handshake)
    }

    /// A HELLO: the handshake's steps (docs/link.md, "Session").
    pub(super) fn on_hello(
        &mut self,
        frame: &Unverified,
        now: Instant,
    ) -> Result<Input, FrameError> {
        let hello = frame.open_hello(&self.hello_key)?;
        self.last_rx = now;
        if hello.nonce == self.my_nonce {
            return Err(FrameError::Payload("our own HELLO reflected"));
        }
        if self.peer_nonce != Some(hello.nonce) {
            if self.key.is_some() {
                tracing::debug!("a HELLO with a new nonce: the session is over");
                // The peer started again (or someone replays an old HELLO): this session
                // is over. A new nonce of ours keeps the next key fresh either way.
                self.my_nonce = self.next_nonce();
                self.drop_key();
            }
            self.peer_nonce = Some(hello.nonce);
        }
        if hello.echo == self.my_nonce {
            if self.key.is_none() {
                self.derive(usize::from(hello.tag_len), usize::from(hello.fec));
            }
            let ready = self.ack(true, now);
            self.pending.push(ready);
        } else {
            let hello = self.hello(now);
            self.pending.push(hello);
        }
        Ok(Input::default())
    }

    pub(super) fn derive(&mut self, peer_tag: usize, peer_fec: usize) {
        let Some(peer) = self.peer_nonce else { return };
        let (lo, hi) = if self.my_nonce < peer {
            (self.my_nonce, peer)
        } else {
            (peer, self.my_nonce)
        };
        self.drop_key();
        let tag_len = self.my_tag.max(peer_tag).clamp(MIN_TAG, MAX_TAG);
        self.key = Some(derive_key(
            &self.secret,
            b"session",
            &[&lo, &hi, &[tag_len as u8]],
        ));
        self.tag_len = tag_len;
        self.fec = self.my_fec.max(peer_fec).min(MAX_FEC);
        self.dir = u8::from(self.my_nonce > peer);
    }
}
