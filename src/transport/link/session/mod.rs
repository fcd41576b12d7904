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
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::transport::link::frame::Deframer;

    fn timing() -> Timing {
        Timing {
            hello: Duration::from_millis(100),
            rto: Duration::from_millis(200),
            rto_min: Duration::from_millis(200),
            rto_cap: Duration::from_millis(800),
            rto_max: Duration::from_secs(2),
            ack_delay: Duration::from_millis(50),
            keepalive: Duration::from_secs(1),
            dead: Duration::from_secs(5),
            bytes_per_second: 10_000.0,
        }
    }

    /// Two ends, a lossy pipe between them driven by a seeded generator, and what each end
    /// applied.
    struct Pair {
        ends: [LinkSession; 2],
        applied: [Vec<Vec<u8>>; 2],
        now: Instant,
        rng: u64,
        /// Per mille of frames dropped, corrupted, duplicated, held back (0.05 to 3 s, so
        /// that they arrive after later ones).
        drop: u64,
        corrupt: u64,
        duplicate: u64,
        delay: u64,
        in_flight: [Vec<Vec<u8>>; 2],
        held_back: Vec<(Instant, usize, Vec<u8>)>,
    }

    impl Pair {
        fn new(secrets: [&[u8]; 2]) -> Pair {
            let now = Instant::now();
            Pair {
                ends: [
                    LinkSession::new(secrets[0], 4, timing(), now),
                    LinkSession::new(secrets[1], 4, timing(), now),
                ],
                applied: [Vec::new(), Vec::new()],
                now,
                rng: 0x9E37_79B9_7F4A_7C15,
                drop: 0,
                corrupt: 0,
                duplicate: 0,
                delay: 0,
                in_flight: [Vec::new(), Vec::new()],
                held_back: Vec::new(),
            }
        }

        fn rand(&mut self) -> u64 {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            self.rng
        }

        /// Frames end `from` sends: damaged on the way, queued for the other end.
        fn send(&mut self, from: usize, frames: Vec<Vec<u8>>) {
            for mut f in frames {
                if self.rand() % 1000 < self.drop {
                    continue;
                }
                if self.rand() % 1000 < self.corrupt {
                    let i = (self.rand() as usize) % f.len();
                    f[i] ^= 1 << (self.rand() % 8);
                }
                if self.rand() % 1000 < self.duplicate {
                    self.in_flight[from].push(f.clone());
                }
                if self.rand() % 1000 < self.delay {
                    let late = Duration::from_millis(50 + self.rand() % 2950);
                    self.held_back.push((self.now + late, from, f));
                } else {
                    self.in_flight[from].push(f);
                }
            }
        }

        fn step(&mut self) {
            self.now += Duration::from_millis(50);
            let now = self.now;
            for (_, from, f) in self.held_back.extract_if(.., |(at, _, _)| *at <= now) {
                self.in_flight[from].push(f);
            }
            for i in 0..2 {
                let frames = self.ends[i].poll(self.now);
                self.send(i, frames);
            }
            for from in 0..2 {
                let to = 1 - from;
                let bytes: Vec<u8> = std::mem::take(&mut self.in_flight[from]).concat();
                let mut frames = Vec::new();
                Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
                for f in frames {
                    let _ = self.ends[to].on_frame(&f, self.now);
                    while let Some(m) = self.ends[to].take_message() {
                        self.applied[to].push(m);
                        self.ends[to].delivered(self.now);
                    }
                }
            }
        }

        fn run(&mut self, messages: usize, steps: usize) {
            let mut next = [0usize; 2];
            for _ in 0..steps {
                for (i, (end, next)) in self.ends.iter_mut().zip(&mut next).enumerate() {
                    while *next < messages && end.has_room() {
                        end.push(format!("{i}:{next}").into_bytes());
                        *next += 1;
                    }
                }
                self.step();
                if next == [messages; 2]
                    && self.ends.iter().all(|e| e.queued() == 0)
                    && self.applied.iter().all(|a| a.len() == messages)
                {
                    return;
                }
            }
        }

        fn expect_all(&self, messages: usize) {
            for to in 0..2 {
                let want: Vec<Vec<u8>> = (0..messages)
                    .map(|n| format!("{}:{n}", 1 - to).into_bytes())
                    .collect();
                assert_eq!(self.applied[to], want, "end {to}");
            }
        }
    }

    #[test]
    fn a_clean_line_delivers_everything_in_order_once() {
        let mut p = Pair::new([b"s", b"s"]);
        p.run(50, 2000);
        p.expect_all(50);
        assert_eq!(p.ends[0].stats.bad_frames, 0);
    }

    #[test]
    fn a_noisy_line_still_delivers_everything_in_order_exactly_once() {
        let mut p = Pair::new([b"s", b"s"]);
        p.drop = 50;
        p.corrupt = 30;
        p.duplicate = 30;
        p.run(200, 200_000);
        p.expect_all(200);
        let s = &p.ends[0].stats;
        assert!(s.retransmissions > 0 && s.bad_frames + p.ends[1].stats.bad_frames > 0);
        assert!(
            s.replays + p.ends[1].stats.replays > 0,
            "duplicates are caught as replays"
        );
    }

    /// Regression: frames the line delayed behind later ones (a radio hop, a proxy) came back
    /// after the sequence numbers had wrapped: a stale acknowledgement released messages the
    /// peer never had, and a stale copy of an old message was applied as a new one.
    #[test]
    fn a_line_that_reorders_still_delivers_everything_in_order_exactly_once() {
        for seed in 1..=20u64 {
            let mut p = Pair::new([b"s", b"s"]);
            p.rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            p.drop = 30;
            p.duplicate = 10;
            p.delay = 100;
            p.run(300, 200_000);
            p.expect_all(300);
        }
    }

    /// One end asks for error correction: the session takes it on both, and a line that
    /// damages frames still delivers everything once, in order.
    #[test]
    fn error_correction_asked_by_one_end_is_used_by_both() {
        let mut p = Pair::new([b"s", b"s"]);
        p.ends[0] = LinkSession::new(b"s", 4, timing(), p.now).with_fec(4);
        p.corrupt = 200;
        p.run(100, 200_000);
        p.expect_all(100);
        assert_eq!((p.ends[0].fec(), p.ends[1].fec()), (4, 4));
    }

    #[test]
    fn different_secrets_never_establish() {
        let mut p = Pair::new([b"one", b"two"]);
        p.run(3, 500);
        assert!(p.applied.iter().all(Vec::is_empty));
        assert!(!p.ends[0].is_established() && !p.ends[1].is_established());
    }

    #[test]
    fn a_restarted_end_gets_a_new_session_and_unacked_messages_are_sent_again() {
        let mut p = Pair::new([b"s", b"s"]);
        p.run(5, 2000);
        p.expect_all(5);
        // End 0 loses everything it had not sent (a new process) and starts again.
        let now = p.now;
        p.ends[0] = LinkSession::new(b"s", 4, timing(), now);
        p.applied[1].clear();
        for n in 0..3 {
            p.ends[0].push(format!("0:{n}").into_bytes());
        }
        for _ in 0..200 {
            p.step();
        }
        assert_eq!(p.applied[1].len(), 3);
        assert!(p.ends[1].stats.sessions >= 2);
    }

    #[test]
    fn frames_from_an_old_session_are_refused_in_a_new_one() {
        let mut p = Pair::new([b"s", b"s"]);
        // Record what end 0 sends in the first session.
        p.ends[0].push(b"0:0".to_vec());
        let mut recorded = Vec::new();
        for _ in 0..100 {
            p.now += Duration::from_millis(50);
            let out = p.ends[0].poll(p.now);
            recorded.extend(out.iter().cloned());
            p.send(0, out);
            let out = p.ends[1].poll(p.now);
            p.send(1, out);
            for from in 0..2 {
                let bytes: Vec<u8> = std::mem::take(&mut p.in_flight[from]).concat();
                let mut frames = Vec::new();
                Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
                for f in frames {
                    let _ = p.ends[1 - from].on_frame(&f, p.now);
                    while let Some(m) = p.ends[1 - from].take_message() {
                        p.applied[1 - from].push(m);
                        p.ends[1 - from].delivered(p.now);
                    }
                }
            }
        }
        assert_eq!(p.applied[1], vec![b"0:0".to_vec()]);
        // End 1 starts again; the old frames, replayed, establish nothing and deliver nothing.
        let now = p.now;
        p.ends[1] = LinkSession::new(b"s", 4, timing(), now);
        let _ = p.ends[1].poll(now);
        p.applied[1].clear();
        for wire in &recorded {
            let mut frames = Vec::new();
            Deframer::default().push(wire, |f| frames.push(f.to_vec()));
            for f in frames {
                let _ = p.ends[1].on_frame(&f, now);
                assert!(p.ends[1].take_message().is_none());
            }
        }
        assert!(!p.ends[1].is_established());
        assert!(p.applied[1].is_empty());
    }

    #[test]
    fn random_bytes_never_panic_and_never_deliver() {
        let now = Instant::now();
        let mut p = Pair::new([b"s", b"s"]);
        p.run(2, 2000);
        p.expect_all(2);
        let mut rng = 12345u64;
        for len in 0..200 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        rng as u8
                    })
                    .collect();
                for end in &mut p.ends {
                    let _ = end.on_frame(&bytes, now);
                    assert!(end.take_message().is_none());
                }
                let mut fresh = LinkSession::new(b"s", 4, timing(), now);
                let _ = fresh.on_frame(&bytes, now);
            }
        }
        assert!(p.ends.iter().all(LinkSession::is_established));
    }

    #[test]
    fn a_reflected_hello_is_ignored() {
        let now = Instant::now();
        let mut a = LinkSession::new(b"s", 4, timing(), now);
        let hello = a.poll(now).remove(0);
        let e = a.on_frame(&hello[..hello.len() - 1], now).unwrap_err();
        assert_eq!(e, FrameError::Payload("our own HELLO reflected"));
    }

    /// A move's message, as the link sends it.
    fn move_message(n: u16) -> Vec<u8> {
        use crate::transport::link::message::{Act, Body, Message, Side};
        Message::Proposal {
            game: 0x1234,
            side: if n.is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            },
            number: n,
            age: 0,
            body: Body::Act(Act::Move {
                from: 12,
                to: 28,
                promotion: 0,
                draw_offer: false,
            }),
        }
        .encode()
    }

    /// Moves relayed over a simulated serial line of `bytes_per_second` each way (full
    /// duplex), `moves[i]` sent by end `i`, on virtual time: (seconds taken, bytes each end
    /// sent).
    fn over_line(bytes_per_second: f64, moves: [u16; 2]) -> (f64, [u64; 2]) {
        let timing = Timing::for_line(bytes_per_second, 4);
        let (secs, stats) = over_path(bytes_per_second, timing, moves, move_message);
        (secs, [stats[0].bytes_out, stats[1].bytes_out])
    }

    /// `moves[i]` messages made by `message` sent by end `i` over a path of
    /// `bytes_per_second` each way, whose ends time it with `t`, on virtual time (what each
    /// end writes waits its turn, as behind a serial line's or a socket's buffer): seconds
    /// taken, and each end's counts.
    fn over_path(
        bytes_per_second: f64,
        t: Timing,
        moves: [u16; 2],
        message: fn(u16) -> Vec<u8>,
    ) -> (f64, [Stats; 2]) {
        let step = Duration::from_millis(5);
        let start = Instant::now();
        let mut now = start;
        let mut ends = [
            LinkSession::new(b"s", 4, t.clone(), now),
            LinkSession::new(b"s", 4, t, now),
        ];
        // Bytes waiting to go out on each direction, and how much of the next byte is sent.
        let mut wire: [VecDeque<u8>; 2] = [VecDeque::new(), VecDeque::new()];
        let mut credit = [0.0f64; 2];
        let mut deframers = [Deframer::default(), Deframer::default()];
        let mut pushed = [0u16; 2];
        let mut got = [0u16; 2];
        let mut handshake_bytes = [0u64; 2];
        while got[1] < moves[0] || got[0] < moves[1] {
            now += step;
            assert!(
                now.duration_since(start) < Duration::from_secs(100_000),
                "stuck"
            );
            for i in 0..2 {
                while pushed[i] < moves[i] && ends[i].has_room() {
                    ends[i].push(message(pushed[i]));
                    pushed[i] += 1;
                }
                let was = ends[i].is_established();
                let out = ends[i].poll(now);
                wire[i].extend(out.concat());
                if !was && ends[i].is_established() {
                    handshake_bytes[i] = ends[i].stats.bytes_out;
                }
            }
            for from in 0..2 {
                credit[from] += bytes_per_second * step.as_secs_f64();
                let mut arrived = Vec::new();
                while credit[from] >= 1.0 {
                    let Some(b) = wire[from].pop_front() else {
                        credit[from] = credit[from].min(1.0);
                        break;
                    };
                    credit[from] -= 1.0;
                    arrived.push(b);
                }
                let to = 1 - from;
                let mut frames = Vec::new();
                deframers[to].push(&arrived, |f| frames.push(f.to_vec()));
                for f in frames {
                    let _ = ends[to].on_frame(&f, now);
                    while ends[to].take_message().is_some() {
                        got[to] += 1;
                        ends[to].delivered(now);
                    }
                }
            }
        }
        let secs = now.duration_since(start).as_secs_f64();
        let [a, b] = ends;
        (secs, [a.stats, b.stats])
    }

    /// A message as long as a piece of a game's start written as text (the longest the link
    /// sends often).
    fn long_message(n: u16) -> Vec<u8> {
        let mut m = move_message(n);
        m.resize(60, b'x');
        m
    }

    /// Regression: a TCP link took its path for 10 kB/s and capped its timeout at half a
    /// second, so on a path of 300 bytes a second, where a window of long frames waits
    /// seconds in the buffers, every frame was sent again about every half second.
    #[test]
    fn a_clean_slow_path_behind_tcp_buffers_sees_no_resend() {
        for (moves, message) in [
            ([200, 0], move_message as fn(u16) -> Vec<u8>),
            ([100, 100], long_message),
        ] {
            let (_, stats) = over_path(300.0, Timing::for_tcp(4), moves, message);
            for s in &stats {
                assert_eq!(
                    (s.retransmissions, s.fast_retransmissions, s.bytes.resent),
                    (0, 0, 0),
                    "{moves:?}: {s:?}"
                );
            }
        }
    }

    /// Copies of a message applied already (the peer did not hear our acknowledgement, or
    /// sent again too soon) draw at most one ACK a round trip, not one each.
    #[test]
    fn repeats_draw_at_most_one_acknowledgement_a_round_trip() {
        let mut p = Pair::new([b"s", b"s"]);
        p.run(3, 2000);
        p.expect_all(3);
        // End 0 sends a message; end 1 applies it, and its acknowledgements are lost.
        p.ends[0].push(b"0:3".to_vec());
        let mut to_one = Vec::new();
        for _ in 0..4 {
            p.now += Duration::from_millis(20);
            let now = p.now;
            to_one.extend(p.ends[0].poll(now));
        }
        let deliver = |p: &mut Pair, frames: &[Vec<u8>]| {
            let now = p.now;
            let mut parts = Vec::new();
            Deframer::default().push(&frames.concat(), |f| parts.push(f.to_vec()));
            for f in parts {
                let _ = p.ends[1].on_frame(&f, now);
                while p.ends[1].take_message().is_some() {
                    p.ends[1].delivered(now);
                }
            }
        };
        deliver(&mut p, &to_one);
        p.now += Duration::from_millis(100);
        let now = p.now;
        assert!(!p.ends[1].poll(now).is_empty(), "the acknowledgement");
        let acks = p.ends[1].stats.acks_out;
        // End 0 sends it again four times within the round trip (new counters: not the
        // line's duplicates); end 1 answers once at most.
        for _ in 0..4 {
            p.ends[0].send.resend_now();
            p.now += Duration::from_millis(10);
            let now = p.now;
            let again = p.ends[0].poll(now);
            assert!(!again.is_empty());
            deliver(&mut p, &again);
            let now = p.now;
            let _ = p.ends[1].poll(now);
        }
        assert_eq!(p.ends[1].stats.repeats_in, 4);
        assert!(
            p.ends[1].stats.acks_out <= acks + 1,
            "{:?}",
            p.ends[1].stats
        );
    }

    /// While frames arrive damaged, an end puts parity on its own (its peer tries a frame
    /// both ways; the tag says which is right), and everything still arrives once, in order;
    /// on a clean line no frame carries any.
    #[test]
    fn frames_carry_parity_while_the_line_damages_them_and_only_then() {
        let mut clean = Pair::new([b"s", b"s"]);
        clean.run(50, 5000);
        clean.expect_all(50);
        assert!(
            clean
                .ends
                .iter()
                .all(|e| !e.protect && e.stats.repaired == 0)
        );
        let mut noisy = Pair::new([b"s", b"s"]);
        noisy.corrupt = 150;
        noisy.run(200, 200_000);
        noisy.expect_all(200);
        assert!(
            noisy.ends.iter().all(|e| e.protect),
            "the line damages frames"
        );
        let repaired = noisy.ends[0].stats.repaired + noisy.ends[1].stats.repaired;
        assert!(repaired > 10, "{repaired} frames repaired");
        assert_eq!((noisy.ends[0].fec(), noisy.ends[1].fec()), (0, 0));
    }

    /// The line figures of docs/performance.md and docs/link.md. Run with
    /// `cargo test --lib link::session::tests::throughput_at_300_baud -- --nocapture`.
    #[test]
    fn throughput_at_300_baud() {
        let bps = 30.0; // 300 baud, 8N1
        let n = 200;
        let (secs, bytes) = over_line(bps, [n, 0]);
        let per_move = (bytes[0] + bytes[1]) as f64 / f64::from(n);
        let one_way = f64::from(n) / secs * 60.0;
        println!(
            "one way: {n} moves in {secs:.0} s = {one_way:.1} moves/min; {per_move:.1} bytes per move both directions (sender {}, receiver {})",
            bytes[0], bytes[1]
        );
        let (secs2, bytes2) = over_line(bps, [n, n]);
        let both = f64::from(2 * n) / secs2 * 60.0;
        println!(
            "both ways: {} moves in {secs2:.0} s = {both:.1} moves/min in all; {:.1} bytes per move",
            2 * n,
            (bytes2[0] + bytes2[1]) as f64 / f64::from(2 * n)
        );
        // Near what the frame sizes allow: a move's DATA frame is 16 bytes (112.5 a minute at
        // 30 bytes a second), its ACK 10 on the other direction; both ways, the
        // acknowledgements ride on the DATA frames.
        assert!(one_way > 95.0 && one_way < 113.0, "{one_way}");
        assert!(both > 120.0, "{both}");
    }
}
