//! One end of the link's session protocol, as a state machine: frames and the time go in,
//! frames to send and messages to apply come out. No I/O and no clock of its own, so every
//! path (loss, corruption, duplication, reordering, a restart of either end) is tested without
//! a line.
//!
//! - **Handshake.** Each end sends HELLO with a fresh random nonce, the peer's nonce as it
//!   knows it (the echo) and the tag length it is configured for. Once an end has both nonces
//!   and the peer has echoed its own, both derive the session key from the shared secret, the
//!   two nonces and the longer of the two tag lengths, and send a READY (an ACK asking for an
//!   answer) under it. An end counts the session established when a frame from the peer
//!   verifies under that key: proof the peer knows the secret, and, since the key covers this
//!   end's fresh nonce, proof the frame is not a replay from an earlier session.
//! - **Freshness.** Every frame carries the low 8 bits of its 64-bit counter; the receiver
//!   takes the counter nearest the newest it accepted and keeps a 64-frame window of counters
//!   seen, so a frame delayed behind later ones is still taken and a duplicate or a replay is
//!   not.
//! - **Selective repeat.** Up to `window` (at most 8) DATA frames are outstanding, numbered mod
//!   16. The receiver holds frames that arrive after a gap and hands messages up in order; its
//!   ACK names the next number it expects and, in a bitmap, those after it already held. The
//!   sender resends a frame alone: when its timer runs out, or at once when a later frame is
//!   reported held (the gap is a loss). Every DATA frame carries the acknowledgement, so when
//!   both sides are sending no ACK frame is needed; a standalone ACK goes after a short delay
//!   only if nothing else went.
//! - **Timers from the line.** The retransmission timeout follows the measured round trip
//!   (SRTT + 4 RTTVAR, as TCP's), never below a floor set by the line's speed. It doubles only
//!   when nothing at all, not even a damaged frame, came from the peer for two keepalive
//!   periods: a lost or damaged frame on a line that otherwise carries calls for sending
//!   again, not for waiting longer.
//! - **Exactly once per session.** The sequence number advances only when the application says
//!   it has applied a message ([`LinkSession::delivered`]), so an acknowledgement means "applied and
//!   durable". Across sessions the application deduplicates (the sender resends everything
//!   unacknowledged after a new handshake).
//! - **Liveness.** An idle established session sends an ACK every keepalive period; one that
//!   has heard nothing valid for the dead period starts a new handshake.

use std::time::{Duration, Instant};

mod handshake;
use handshake::fresh_nonce;

use super::fec::{AUTO, MAX_FEC};
use super::frame::{
    DEFAULT_TAG, FrameError, HELLO, MAX_TAG, MIN_TAG, NONCE_LEN, Plain, Unverified, derive_key,
    seal_protected,
};
use super::repeat::{Arrival, Counter, RecvWindow, ReplayWindow, SendWindow};

pub use super::repeat::MAX_WINDOW;
pub use super::stats::{Bytes, Stats};
pub use super::timing::Timing;

/// What a frame sent was for, for [`Bytes`].
#[derive(Clone, Copy)]
enum Sent {
    Handshake,
    Data,
    Resent,
    Ack,
}

/// What one received frame produced.
#[derive(Debug, Default)]
pub struct Input {
    /// Queued messages the peer acknowledged, oldest first.
    pub acked: usize,
    /// A session was just established.
    pub established: bool,
}

pub struct LinkSession {
    secret: Vec<u8>,
    hello_key: [u8; 32],
    my_nonce: [u8; NONCE_LEN],
    peer_nonce: Option<[u8; NONCE_LEN]>,
    /// The tag length this end asks for, and the session's (the longer of both ends').
    my_tag: usize,
    tag_len: usize,
    key: Option<[u8; 32]>,
    /// The direction byte of frames this end sends (0 or 1, by nonce order).
    dir: u8,
    established: bool,
    /// The sender's counter of the last frame sent.
    tx_ctr: u64,
    rx: ReplayWindow,
    /// The newest frame counter whose acknowledgement was taken.
    ack_ctr: u64,
    /// The parity bytes this end asks for, and the session's (the larger of both ends').
    my_fec: usize,
    fec: usize,
    /// How much of what arrives is damaged: a moving average over the units received (1 for
    /// one damaged or repaired, 0 for one intact).
    damage: f64,
    /// Frames go with [`AUTO`] parity bytes while the line damages them, in a session without
    /// parity of its own.
    protect: bool,
    /// A simulation's nonces come from its seed, so that a run replays (never otherwise: a
    /// nonce must be unpredictable).
    #[cfg(test)]
    nonce_seed: Option<u64>,
    send: SendWindow,
    recv: RecvWindow,
    /// When a standalone ACK is due, if one is.
    ack_due: Option<Instant>,
    /// When a frame last carried our acknowledgement (an ACK, or any DATA frame).
    ack_sent: Option<Instant>,
    /// A damaged frame arrived since the last ACK: the next one says so.
    nak: bool,
    /// Frames to send at the next poll (answers to a handshake).
    pending: Vec<Vec<u8>>,
    timing: Timing,
    /// When any bytes (a valid frame or a damaged one) last arrived.
    last_heard: Instant,
    last_tx: Instant,
    /// When the last byte written so far will have left on the line.
    wire_free: Instant,
    last_rx: Instant,
    last_hello: Option<Instant>,
    pub stats: Stats,
}

impl LinkSession {
    pub fn new(secret: &[u8], window: usize, timing: Timing, now: Instant) -> LinkSession {
        LinkSession {
            secret: secret.to_vec(),
            hello_key: derive_key(secret, b"hello", &[]),
            my_nonce: fresh_nonce(),
            peer_nonce: None,
            my_tag: DEFAULT_TAG,
            tag_len: DEFAULT_TAG,
            key: None,
            dir: 0,
            established: false,
            tx_ctr: 0,
            rx: ReplayWindow::default(),
            ack_ctr: 0,
            my_fec: 0,
            fec: 0,
            damage: 0.0,
            protect: false,
            #[cfg(test)]
            nonce_seed: None,
            send: SendWindow::new(window),
            recv: RecvWindow::default(),
            ack_due: None,
            ack_sent: None,
            nak: false,
            pending: Vec::new(),
            timing,
            last_heard: now,
            last_tx: now,
            wire_free: now,
            last_rx: now,
            last_hello: None,
            stats: Stats::default(),
        }
    }

    /// The tag length this end asks for (4 to 16 bytes; the session takes the longer of the
    /// two ends').
    pub fn with_tag_len(mut self, tag_len: usize) -> LinkSession {
        self.my_tag = tag_len.clamp(MIN_TAG, MAX_TAG);
        self
    }

    /// The Reed–Solomon parity bytes this end asks for on every frame but HELLO (even, at
    /// most [`MAX_FEC`]; the session takes the larger of the two ends').
    pub fn with_fec(mut self, fec: usize) -> LinkSession {
        self.my_fec = (fec.min(MAX_FEC) / 2) * 2;
        self
    }

    /// The parity bytes of the current session's frames.
    pub fn fec(&self) -> usize {
        self.fec
    }

    /// The tag length of the current session (or the one asked for, before one).
    pub fn tag_len(&self) -> usize {
        if self.key.is_some() {
            self.tag_len
        } else {
            self.my_tag
        }
    }

    /// How long since the last frame that verified (a HELLO included): the line's silence.
    pub fn silent_for(&self, now: Instant) -> Duration {
        now.duration_since(self.last_rx)
    }

    /// The period of silence after which a session is given up.
    pub fn dead_after(&self) -> Duration {
        self.timing.dead
    }

    pub fn is_established(&self) -> bool {
        self.established
    }

    /// A line for a trace: the state of both windows.
    pub fn describe(&self) -> String {
        format!(
            "est {} {} {} rto {:?} ack_due {:?} tx {} rx {}",
            self.established,
            self.send.describe(),
            self.recv.describe(),
            self.rto(),
            self.ack_due.map(|d| d.elapsed()),
            self.tx_ctr,
            self.rx.newest(),
        )
    }

    /// The retransmission timeout now.
    pub fn rto(&self) -> Duration {
        self.send.rto(&self.timing)
    }

    /// Whether another message can be queued (at most one window is held).
    pub fn has_room(&self) -> bool {
        self.send.has_room()
    }

    pub fn queued(&self) -> usize {
        self.send.len()
    }

    /// Queues a message (see [`LinkSession::has_room`]); sent by [`LinkSession::poll`]. Its first byte
    /// must be below 64 (see [`Plain::Data`]).
    pub fn push(&mut self, message: Vec<u8>) {
        self.send.push(message);
    }

    /// Drops every queued message, for an application that queues again from its own store
    /// what the peer has not acknowledged.
    pub fn clear_queue(&mut self) {
        self.send.clear();
    }

    /// Forgets the session (the line dropped, or was reopened): a new handshake with a new
    /// nonce. Queued messages stay and are sent again in the next session.
    pub fn restart(&mut self, now: Instant) {
        self.my_nonce = self.next_nonce();
        self.peer_nonce = None;
        self.drop_key();
        self.last_hello = None;
        self.last_rx = now;
    }

    /// Takes nonces from `seed` from now on (a simulation that must replay).
    #[cfg(test)]
    pub(crate) fn seed_nonces(&mut self, seed: u64) {
        self.nonce_seed = Some(seed | 1);
        self.my_nonce = self.next_nonce();
    }

    fn count(&mut self, wire: Vec<u8>, now: Instant, sent: Sent) -> Vec<u8> {
        self.stats.frames_out += 1;
        self.stats.bytes_out += wire.len() as u64;
        let n = wire.len() as u64;
        let bytes = &mut self.stats.bytes;
        match sent {
            Sent::Handshake => bytes.handshake += n,
            Sent::Data => bytes.data += n,
            Sent::Resent => bytes.resent += n,
            Sent::Ack => bytes.acks += n,
        }
        self.last_tx = now;
        let secs = wire.len() as f64 / self.timing.bytes_per_second.max(1.0);
        self.wire_free = self.wire_free.max(now) + Duration::from_secs_f64(secs);
        wire
    }

    /// A frame under the session key (there is one whenever this is called).
    fn sealed(&mut self, plain: &Plain, now: Instant, sent: Sent) -> Vec<u8> {
        let key = self.key.unwrap_or([0; 32]);
        self.tx_ctr += 1;
        let fec = match (self.fec, self.protect, sent) {
            // READY, as HELLO, always carries parity: the handshake's frames are few.
            (fec, _, Sent::Handshake) => fec.max(AUTO),
            (0, true, _) => AUTO,
            (fec, _, _) => fec,
        };
        let wire = seal_protected(&key, self.dir, self.tx_ctr, self.tag_len, fec, plain);
        self.count(wire, now, sent)
    }

    fn ack(&mut self, ready: bool, now: Instant) -> Vec<u8> {
        self.ack_due = None;
        self.ack_sent = Some(now);
        self.stats.acks_out += 1;
        let plain = Plain::Ack {
            ack: self.recv.expected(),
            sack: self.recv.sack(),
            ready,
            nak: std::mem::take(&mut self.nak),
        };
        let sent = if ready { Sent::Handshake } else { Sent::Ack };
        self.sealed(&plain, now, sent)
    }

    /// Asks for a standalone ACK by `at` (or sooner, if one is due sooner).
    fn ack_by(&mut self, at: Instant) {
        self.ack_due = Some(self.ack_due.map_or(at, |due| due.min(at)));
    }

    /// Handles one encoded frame (delimiter removed). An error means the frame was dropped
    /// and nothing changed but the knowledge that the line carries bytes.
    pub fn on_frame(&mut self, encoded: &[u8], now: Instant) -> Result<Input, FrameError> {
        self.stats.frames_in += 1;
        let mut repaired = false;
        let result = self.on_frame_inner(encoded, now, &mut repaired);
        self.stats.repaired += u64::from(repaired);
        let damaged = repaired || result.as_ref().is_err_and(FrameError::is_damage);
        self.note_damage(damaged);
        match &result {
            Err(FrameError::Replay { .. }) => {
                self.stats.replays += 1;
                self.last_heard = now;
            }
            Err(e) => {
                self.stats.bad_frames += 1;
                if e.is_damage() {
                    self.last_heard = now;
                    // Tell the peer at once: if that was its DATA frame, it resends now rather
                    // than after its timeout. Bytes no longer than an ACK were not a DATA
                    // frame (a lost ACK is made good by the next).
                    let longest_ack = 4 + self.tag_len + self.fec.max(AUTO);
                    if self.established && encoded.len() > longest_ack {
                        self.nak = true;
                        self.ack_by(now);
                    }
                }
            }
            Ok(_) => self.last_heard = now,
        }
        result
    }

    /// Reads one encoded frame. In a session without parity of its own, a frame that does not
    /// open as it is is tried again as one the peer put [`AUTO`] parity bytes on (`repaired`
    /// says whether they mended it).
    fn on_frame_inner(
        &mut self,
        encoded: &[u8],
        now: Instant,
        repaired: &mut bool,
    ) -> Result<Input, FrameError> {
        let frame = match Unverified::decode_protected(encoded, self.fec) {
            Ok(frame) if frame.kind() == HELLO => return self.on_hello(&frame, now),
            other => other,
        };
        let Some(key) = self.key else {
            return Err(frame.err().unwrap_or(FrameError::Payload("no session yet")));
        };
        let (ctr, plain) = match frame.and_then(|f| self.open(&f, &key)) {
            Ok(opened) => opened,
            Err(e) if self.fec == 0 && e.is_damage() => {
                let protected =
                    Unverified::decode_protected(encoded, AUTO).map_err(|_| e.clone())?;
                let opened = self.open(&protected, &key).map_err(|again| match again {
                    FrameError::Replay { .. } => again,
                    _ => e,
                })?;
                *repaired = protected.repaired();
                opened
            }
            Err(e) => return Err(e),
        };
        let mut input = Input::default();
        self.rx.accept(ctr);
        // Acknowledgements only ever move on: those of a frame the line delayed behind a
        // later one are stale, and their numbers (which wrap) could name what is not
        // acknowledged at all.
        let fresh_ack = ctr > self.ack_ctr;
        if fresh_ack {
            self.ack_ctr = ctr;
        }
        self.last_rx = now;
        if !self.established {
            self.established = true;
            self.stats.sessions += 1;
            input.established = true;
        }
        match plain {
            Plain::Ack {
                ack,
                sack,
                ready,
                nak,
            } => {
                if ready {
                    // Let the peer know at once that its key works here too.
                    self.ack_by(now);
                }
                if fresh_ack {
                    input.acked = self.send.on_ack(ack, sack, now);
                    if nak {
                        self.send.on_nak(now, &self.timing);
                    }
                }
            }
            Plain::Data { seq, ack, message } => {
                if fresh_ack {
                    input.acked = self.send.on_ack(ack, 0, now);
                }
                match self.recv.on_data(seq, ctr, message) {
                    Arrival::Next => {}
                    // A gap: the peer learns at once what is held, and resends what is not.
                    Arrival::Ahead => self.ack_by(now),
                    // Our acknowledgement did not reach the peer, or it sent again too soon:
                    // at most one answer a round trip (the one on its way may do).
                    Arrival::Repeat => {
                        self.stats.repeats_in += 1;
                        let round_trip = self.send.srtt().unwrap_or(self.timing.rto_min);
                        let at = self.ack_sent.map_or(now, |at| (at + round_trip).max(now));
                        self.ack_by(at);
                    }
                }
            }
        }
        Ok(input)
    }

    /// Checks a session frame's counter and tag: its full counter and what it says.
    fn open(&self, frame: &Unverified, key: &[u8; 32]) -> Result<(u64, Plain), FrameError> {
        let from = 1 - self.dir;
        let ctr = match self.rx.counter(frame.low_ctr()) {
            Counter::Fresh(ctr) => ctr,
            // Named a replay only if it is one: noise that happens to look old stays noise.
            Counter::Seen(ctr) if frame.verifies(key, from, ctr, self.tag_len) => {
                return Err(FrameError::Replay {
                    got: ctr,
                    last: self.rx.newest(),
                });
            }
            Counter::Seen(_) | Counter::None => return Err(FrameError::BadTag),
        };
        let plain = frame.verify(key, from, ctr, self.tag_len)?;
        Ok((ctr, plain))
    }

    /// Counts a unit received, damaged or not, and decides whether frames go with parity.
    fn note_damage(&mut self, damaged: bool) {
        // About the last 30 units. Two parity bytes on a frame of about 18 pay when they spare
        // more than that in resends (a frame and its acknowledgement, some 27 bytes): from
        // about 7% of frames damaged. On above 8%, off again below 4%.
        const GAIN: f64 = 1.0 / 32.0;
        self.damage += (f64::from(u8::from(damaged)) - self.damage) * GAIN;
        if self.damage > 0.08 {
            self.protect = true;
        } else if self.damage < 0.04 {
            self.protect = false;
        }
    }

    /// The next message to apply, in order; once applied, call [`LinkSession::delivered`].
    pub fn take_message(&mut self) -> Option<Vec<u8>> {
        self.recv.take()
    }

    /// The message handed up by [`LinkSession::take_message`] is applied (and durable):
    /// acknowledge it, on the next DATA frame or in an ACK after the short delay.
    pub fn delivered(&mut self, now: Instant) {
        if self.recv.delivered() {
            self.ack_by(now + self.timing.ack_delay);
        }
    }

    /// Everything to send now: answers to the handshake, HELLOs while no session is
    /// established, DATA frames the window allows, retransmissions whose time has come, an
    /// ACK that is due, a keepalive; or a new handshake after a long silence.
    pub fn poll(&mut self, now: Instant) -> Vec<Vec<u8>> {
        let mut out = std::mem::take(&mut self.pending);
        if !self.established {
            let due = self
                .last_hello
                .is_none_or(|at| now.duration_since(at) >= self.timing.hello);
            if due {
                out.push(self.hello(now));
            }
            return out;
        }
        if now.duration_since(self.last_rx) >= self.timing.dead {
            tracing::info!("link session silent too long; starting a new handshake");
            self.restart(now);
            out.push(self.hello(now));
            return out;
        }
        let mut timed_out = false;
        let rto = self.rto();
        for due in self.send.due(now, rto, &mut timed_out) {
            if due.again {
                self.stats.retransmissions += 1;
            }
            let plain = Plain::Data {
                seq: due.seq,
                ack: self.recv.expected(),
                message: due.message,
            };
            self.stats.data_out += 1;
            let sent = if due.again { Sent::Resent } else { Sent::Data };
            let wire = self.sealed(&plain, now, sent);
            out.push(wire);
            self.send.sent(due.index, self.wire_free);
            self.ack_sent = Some(now);
            if self.recv.sack() == 0 && !self.nak {
                // The acknowledgement rode on this frame.
                self.ack_due = None;
            }
        }
        if timed_out {
            self.stats.timeouts += 1;
            if now.duration_since(self.last_heard) > self.timing.keepalive * 2 {
                // Not even the peer's keepalive came: the peer or the line is gone for a
                // while. A lost frame on a line that otherwise carries is sent again as
                // promptly as before.
                self.send.back_off();
            }
        }
        self.stats.fast_retransmissions = self.send.fast;
        self.stats.nak_resends = self.send.after_nak;
        if self.ack_due.is_some_and(|due| now >= due) {
            out.push(self.ack(false, now));
        }
        if out.is_empty() && now.duration_since(self.last_tx) >= self.timing.keepalive {
            out.push(self.ack(false, now));
        }
        out
    }
}

#[cfg(test)]
mod tests;
