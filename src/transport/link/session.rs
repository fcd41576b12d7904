//! One end of the link's session protocol, as a state machine: frames and the time go in,
//! frames to send and messages to apply come out. No I/O and no clock of its own, so every
//! path (loss, corruption, duplication, a restart of either end) is tested without a line.
//!
//! - **Handshake.** Each end sends HELLO with a fresh random nonce and the peer's nonce as it
//!   knows it (the echo). Once an end has both nonces and the peer has echoed its own, both
//!   derive the session key from the shared secret and the two nonces, and send READY under it.
//!   An end counts the session established when a frame from the peer verifies under that key:
//!   proof the peer knows the secret, and, since the key covers this end's fresh nonce, proof
//!   the frame is not a replay from an earlier session. HELLOs are MACed with a key derived
//!   from the secret alone, so a stranger cannot make an end drop its session (a replayed old
//!   HELLO can; someone who controls the line can always cut it).
//! - **Reliable delivery.** Go-back-N over 8-bit sequence numbers with a window of at most
//!   [`MAX_WINDOW`] DATA frames; every authenticated frame carries the cumulative
//!   acknowledgement (the next sequence number expected). The oldest unacknowledged frame not
//!   acknowledged within the retransmission timeout sends the whole window again; the timeout
//!   doubles on each retransmission, up to a cap, and returns to its base on progress.
//! - **Exactly once per session.** A DATA frame is handed up only when it is the next expected;
//!   the sequence number advances only when the application says it has applied it
//!   ([`Session::delivered`]), so an acknowledgement means "applied and durable". Duplicates
//!   are acknowledged again and dropped. Across sessions the application deduplicates (the
//!   sender resends everything unacknowledged after a new handshake).
//! - **Liveness.** An idle established session sends an ACK every keepalive period; one that
//!   has heard nothing valid for the dead period starts a new handshake.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::frame::{
    ACK, DATA, FrameError, HELLO, Hello, NONCE_LEN, Plain, READY, Unverified, derive_key, seal,
};

/// The largest window: sequence numbers are 8 bits, and go-back-N needs fewer than half.
pub const MAX_WINDOW: usize = 64;

/// The session's timers.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Between HELLOs while no session is established.
    pub hello: Duration,
    /// Base retransmission timeout.
    pub rto: Duration,
    /// Cap on the retransmission timeout after backoff.
    pub rto_max: Duration,
    /// An ACK is sent after this long without sending anything.
    pub keepalive: Duration,
    /// A session that has heard nothing valid for this long is started again.
    pub dead: Duration,
}

impl Timing {
    /// Timers for a line of `bytes_per_second`: the base timeout covers a full window out and
    /// its acknowledgement back, with a second to spare.
    pub fn for_line(bytes_per_second: f64, window: usize) -> Timing {
        let frame = 30.0 / bytes_per_second.max(1.0);
        let rto = Duration::from_secs_f64(1.0 + frame * (window as f64 + 2.0));
        Timing {
            hello: rto,
            rto,
            rto_max: (rto * 16).max(Duration::from_secs(30)),
            keepalive: rto * 5,
            dead: rto * 20,
        }
    }
}

/// Counts for the log and the benchmark.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub frames_out: u64,
    pub bytes_out: u64,
    pub data_out: u64,
    pub retransmissions: u64,
    pub frames_in: u64,
    pub bad_frames: u64,
    pub replays: u64,
    pub sessions: u64,
}

/// What one received frame produced.
#[derive(Debug, Default)]
pub struct Input {
    /// Frames to send now.
    pub send: Vec<Vec<u8>>,
    /// A message to apply; once applied, call [`Session::delivered`].
    pub data: Option<Vec<u8>>,
    /// Queued messages the peer acknowledged, oldest first.
    pub acked: usize,
    /// A session was just established.
    pub established: bool,
}

/// The HELLO frames' direction byte: not a session direction.
const HELLO_DIR: u8 = 0xFF;

pub struct Session {
    secret: Vec<u8>,
    hello_key: [u8; 32],
    my_nonce: [u8; NONCE_LEN],
    peer_nonce: Option<[u8; NONCE_LEN]>,
    key: Option<[u8; 32]>,
    /// The direction byte of frames this end sends (0 or 1, by nonce order).
    dir: u8,
    established: bool,
    tx_ctr: u64,
    rx_ctr: u64,
    /// Messages accepted for sending and not yet acknowledged, oldest first.
    queue: VecDeque<Vec<u8>>,
    /// The sequence number of `queue[0]`.
    base: u8,
    /// How many of `queue` have been sent in this round.
    sent: usize,
    /// How many of `queue` have been sent at least once in this session: an acknowledgement
    /// may cover frames of an earlier round that this round has not sent again yet.
    sent_ever: usize,
    /// The next sequence number expected from the peer.
    expected: u8,
    window: usize,
    timing: Timing,
    rto: Duration,
    last_progress: Instant,
    last_tx: Instant,
    last_rx: Instant,
    last_hello: Option<Instant>,
    pub stats: Stats,
}

fn fresh_nonce() -> [u8; NONCE_LEN] {
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

impl Session {
    pub fn new(secret: &[u8], window: usize, timing: Timing, now: Instant) -> Session {
        Session {
            secret: secret.to_vec(),
            hello_key: derive_key(secret, b"hello", &[]),
            my_nonce: fresh_nonce(),
            peer_nonce: None,
            key: None,
            dir: 0,
            established: false,
            tx_ctr: 0,
            rx_ctr: 0,
            queue: VecDeque::new(),
            base: 0,
            sent: 0,
            sent_ever: 0,
            expected: 0,
            window: window.clamp(1, MAX_WINDOW),
            rto: timing.rto,
            timing,
            last_progress: now,
            last_tx: now,
            last_rx: now,
            last_hello: None,
            stats: Stats::default(),
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

    /// Whether another message can be queued (at most one window is held).
    pub fn has_room(&self) -> bool {
        self.queue.len() < self.window
    }

    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Queues a message (see [`Session::has_room`]); sent by [`Session::poll_send`].
    pub fn push(&mut self, message: Vec<u8>) {
        self.queue.push_back(message);
    }

    /// Forgets the session (the line dropped, or was reopened): a new handshake with a new
    /// nonce. Queued messages stay and are sent again in the next session.
    pub fn restart(&mut self, now: Instant) {
        self.my_nonce = fresh_nonce();
        self.peer_nonce = None;
        self.drop_key();
        self.last_hello = None;
        self.last_rx = now;
    }

    fn drop_key(&mut self) {
        self.key = None;
        self.established = false;
        self.tx_ctr = 0;
        self.rx_ctr = 0;
        self.base = 0;
        self.sent = 0;
        self.sent_ever = 0;
        self.expected = 0;
        self.rto = self.timing.rto;
    }

    fn hello(&mut self, now: Instant) -> Vec<u8> {
        self.last_hello = Some(now);
        let hello = Hello {
            nonce: self.my_nonce,
            echo: self.peer_nonce.unwrap_or([0; NONCE_LEN]),
        };
        let plain = Plain {
            kind: HELLO,
            ack: 0,
            payload: hello.encode(),
        };
        self.count(seal(&self.hello_key, HELLO_DIR, 0, &plain), now)
    }

    fn count(&mut self, wire: Vec<u8>, now: Instant) -> Vec<u8> {
        self.stats.frames_out += 1;
        self.stats.bytes_out += wire.len() as u64;
        self.last_tx = now;
        wire
    }

    /// A frame under the session key (there is one whenever this is called).
    fn sealed(&mut self, kind: u8, payload: Vec<u8>, now: Instant) -> Vec<u8> {
        let key = self.key.unwrap_or([0; 32]);
        self.tx_ctr += 1;
        let plain = Plain {
            kind,
            ack: self.expected,
            payload,
        };
        let wire = seal(&key, self.dir, self.tx_ctr, &plain);
        self.count(wire, now)
    }

    fn ack(&mut self, now: Instant) -> Vec<u8> {
        self.sealed(ACK, Vec::new(), now)
    }

    /// Handles one encoded frame (delimiter removed). An error means the frame was dropped
    /// and nothing changed.
    pub fn on_frame(&mut self, encoded: &[u8], now: Instant) -> Result<Input, FrameError> {
        self.stats.frames_in += 1;
        let result = self.on_frame_inner(encoded, now);
        match &result {
            Err(FrameError::Replay { .. }) => self.stats.replays += 1,
            Err(_) => self.stats.bad_frames += 1,
            Ok(_) => {}
        }
        result
    }

    fn on_frame_inner(&mut self, encoded: &[u8], now: Instant) -> Result<Input, FrameError> {
        let frame = Unverified::decode(encoded)?;
        let mut input = Input::default();
        if frame.kind() == HELLO {
            let (_, plain) = frame.verify(&self.hello_key, HELLO_DIR, None)?;
            let hello = Hello::decode(&plain.payload)?;
            self.last_rx = now;
            if hello.nonce == self.my_nonce {
                return Err(FrameError::Payload("our own HELLO reflected"));
            }
            if self.peer_nonce != Some(hello.nonce) {
                if self.key.is_some() {
                    // The peer started again (or someone replays an old HELLO): this session
                    // is over. A new nonce of ours keeps the next key fresh either way.
                    self.my_nonce = fresh_nonce();
                    self.drop_key();
                }
                self.peer_nonce = Some(hello.nonce);
            }
            if hello.echo == self.my_nonce {
                if self.key.is_none() {
                    self.derive();
                }
                input.send.push(self.sealed(READY, Vec::new(), now));
            } else {
                input.send.push(self.hello(now));
            }
            return Ok(input);
        }
        let Some(key) = self.key else {
            return Err(FrameError::Payload("no session yet"));
        };
        let (ctr, plain) = frame.verify(&key, 1 - self.dir, Some(self.rx_ctr))?;
        self.rx_ctr = ctr;
        self.last_rx = now;
        if !self.established {
            self.established = true;
            self.stats.sessions += 1;
            input.established = true;
            if plain.kind == READY {
                // Let the peer know at once that its key works here too.
                input.send.push(self.ack(now));
            }
        }
        let acked = plain.ack.wrapping_sub(self.base) as usize;
        if acked > 0 && acked <= self.sent_ever {
            self.queue.drain(..acked);
            self.base = self.base.wrapping_add(acked as u8);
            self.sent = self.sent.saturating_sub(acked);
            self.sent_ever -= acked;
            self.rto = self.timing.rto;
            self.last_progress = now;
            input.acked = acked;
        }
        if plain.kind == DATA {
            let Some((&seq, message)) = plain.payload.split_first() else {
                return Err(FrameError::Payload("DATA without sequence number"));
            };
            if seq == self.expected {
                input.data = Some(message.to_vec());
            } else {
                // A duplicate, or past a lost frame: say again what we expect.
                input.send.push(self.ack(now));
            }
        }
        Ok(input)
    }

    fn derive(&mut self) {
        let Some(peer) = self.peer_nonce else { return };
        let (lo, hi) = if self.my_nonce < peer {
            (self.my_nonce, peer)
        } else {
            (peer, self.my_nonce)
        };
        self.drop_key();
        self.key = Some(derive_key(&self.secret, b"session", &[&lo, &hi]));
        self.dir = u8::from(self.my_nonce > peer);
    }

    /// The message handed up by [`Session::on_frame`] is applied (and durable): acknowledge it.
    pub fn delivered(&mut self, now: Instant) -> Vec<u8> {
        self.expected = self.expected.wrapping_add(1);
        self.ack(now)
    }

    /// Frames for queued messages the window allows, if a session is established.
    pub fn poll_send(&mut self, now: Instant) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        if !self.established {
            return out;
        }
        while self.sent < self.queue.len() && self.sent < self.window {
            if self.sent == 0 {
                self.last_progress = now;
            }
            let seq = self.base.wrapping_add(self.sent as u8);
            let mut payload = Vec::with_capacity(1 + self.queue[self.sent].len());
            payload.push(seq);
            payload.extend_from_slice(&self.queue[self.sent]);
            self.sent += 1;
            self.sent_ever = self.sent_ever.max(self.sent);
            self.stats.data_out += 1;
            out.push(self.sealed(DATA, payload, now));
        }
        out
    }

    /// What the passing of time requires: HELLOs while no session is established, a
    /// retransmission after a timeout, a keepalive, a new handshake after silence.
    pub fn tick(&mut self, now: Instant) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
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
        if self.sent > 0 && now.duration_since(self.last_progress) >= self.rto {
            self.stats.retransmissions += 1;
            self.sent = 0;
            self.rto = (self.rto * 2).min(self.timing.rto_max);
            out.extend(self.poll_send(now));
        }
        if out.is_empty() && now.duration_since(self.last_tx) >= self.timing.keepalive {
            out.push(self.ack(now));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::link::frame::Deframer;

    fn timing() -> Timing {
        Timing {
            hello: Duration::from_millis(100),
            rto: Duration::from_millis(200),
            rto_max: Duration::from_secs(2),
            keepalive: Duration::from_secs(1),
            dead: Duration::from_secs(5),
        }
    }

    /// Two ends, a lossy pipe between them driven by a seeded generator, and what each end
    /// applied.
    struct Pair {
        ends: [Session; 2],
        applied: [Vec<Vec<u8>>; 2],
        now: Instant,
        rng: u64,
        /// Per mille of frames dropped, corrupted, duplicated.
        drop: u64,
        corrupt: u64,
        duplicate: u64,
        in_flight: [Vec<Vec<u8>>; 2],
    }

    impl Pair {
        fn new(secrets: [&[u8]; 2]) -> Pair {
            let now = Instant::now();
            Pair {
                ends: [
                    Session::new(secrets[0], 4, timing(), now),
                    Session::new(secrets[1], 4, timing(), now),
                ],
                applied: [Vec::new(), Vec::new()],
                now,
                rng: 0x9E37_79B9_7F4A_7C15,
                drop: 0,
                corrupt: 0,
                duplicate: 0,
                in_flight: [Vec::new(), Vec::new()],
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
                self.in_flight[from].push(f);
            }
        }

        fn step(&mut self) {
            self.now += Duration::from_millis(50);
            for i in 0..2 {
                let frames = self.ends[i].tick(self.now);
                self.send(i, frames);
                let frames = self.ends[i].poll_send(self.now);
                self.send(i, frames);
            }
            for from in 0..2 {
                let to = 1 - from;
                let bytes: Vec<u8> = std::mem::take(&mut self.in_flight[from]).concat();
                let mut frames = Vec::new();
                Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
                for f in frames {
                    let Ok(input) = self.ends[to].on_frame(&f, self.now) else {
                        continue;
                    };
                    self.send(to, input.send);
                    if let Some(m) = input.data {
                        self.applied[to].push(m);
                        let ack = self.ends[to].delivered(self.now);
                        self.send(to, vec![ack]);
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
        p.ends[0] = Session::new(b"s", 4, timing(), now);
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
            let mut out = p.ends[0].tick(p.now);
            out.extend(p.ends[0].poll_send(p.now));
            recorded.extend(out.iter().cloned());
            p.send(0, out);
            let out = p.ends[1].tick(p.now);
            p.send(1, out);
            for from in 0..2 {
                let bytes: Vec<u8> = std::mem::take(&mut p.in_flight[from]).concat();
                let mut frames = Vec::new();
                Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
                for f in frames {
                    if let Ok(input) = p.ends[1 - from].on_frame(&f, p.now) {
                        p.send(1 - from, input.send);
                        if let Some(m) = input.data {
                            p.applied[1 - from].push(m);
                            let ack = p.ends[1 - from].delivered(p.now);
                            p.send(1 - from, vec![ack]);
                        }
                    }
                }
            }
        }
        assert_eq!(p.applied[1], vec![b"0:0".to_vec()]);
        // End 1 starts again; the old frames, replayed, establish nothing and deliver nothing.
        let now = p.now;
        p.ends[1] = Session::new(b"s", 4, timing(), now);
        let _ = p.ends[1].tick(now);
        p.applied[1].clear();
        for wire in &recorded {
            let mut frames = Vec::new();
            Deframer::default().push(wire, |f| frames.push(f.to_vec()));
            for f in frames {
                if let Ok(input) = p.ends[1].on_frame(&f, now) {
                    assert!(input.data.is_none());
                }
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
                    if let Ok(input) = end.on_frame(&bytes, now) {
                        assert!(input.data.is_none());
                    }
                }
                let mut fresh = Session::new(b"s", 4, timing(), now);
                let _ = fresh.on_frame(&bytes, now);
            }
        }
        assert!(p.ends.iter().all(Session::is_established));
    }

    #[test]
    fn a_reflected_hello_is_ignored() {
        let now = Instant::now();
        let mut a = Session::new(b"s", 4, timing(), now);
        let hello = a.tick(now).remove(0);
        let e = a.on_frame(&hello[..hello.len() - 1], now).unwrap_err();
        assert_eq!(e, FrameError::Payload("our own HELLO reflected"));
    }

    /// A move's message, as the link sends it.
    fn move_message(n: u16) -> Vec<u8> {
        use crate::transport::link::frame::{Act, Message, Side};
        Message::Action {
            game: 0x1234_5678,
            side: if n.is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            },
            number: n,
            act: Act::Move {
                from: 12,
                to: 28,
                promotion: 0,
                draw_offer: false,
            },
        }
        .encode()
    }

    /// Moves relayed over a simulated serial line of `bytes_per_second` each way (full
    /// duplex), `moves[i]` sent by end `i`, on virtual time: (seconds taken, bytes each end
    /// sent).
    fn over_line(bytes_per_second: f64, moves: [u16; 2]) -> (f64, [u64; 2]) {
        let step = Duration::from_millis(5);
        let start = Instant::now();
        let mut now = start;
        let t = Timing::for_line(bytes_per_second, 4);
        let mut ends = [
            Session::new(b"s", 4, t.clone(), now),
            Session::new(b"s", 4, t, now),
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
                    ends[i].push(move_message(pushed[i]));
                    pushed[i] += 1;
                }
                let was = ends[i].is_established();
                let mut out = ends[i].tick(now);
                out.extend(ends[i].poll_send(now));
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
                    let Ok(input) = ends[to].on_frame(&f, now) else {
                        continue;
                    };
                    wire[to].extend(input.send.concat());
                    if input.data.is_some() {
                        got[to] += 1;
                        wire[to].extend(ends[to].delivered(now));
                    }
                }
            }
        }
        let secs = now.duration_since(start).as_secs_f64();
        (secs, [ends[0].stats.bytes_out, ends[1].stats.bytes_out])
    }

    /// The README's line figures. Run with
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
        // Near what the frame sizes allow: a move's DATA frame is 24 bytes, its ACK 14.
        assert!(one_way > 60.0 && one_way < 76.0, "{one_way}");
        assert!(both > 80.0, "{both}");
    }
}
