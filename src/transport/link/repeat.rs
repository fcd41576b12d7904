//! The session's three windows, apart from its handshake and keys: the frames sent and not yet
//! acknowledged (selective repeat, with the round trip measured as TCP does), the messages
//! received ahead of their turn, and the counters seen (against duplicates and replays). No
//! I/O, no clock of its own; [`crate::transport::link::session`] drives them.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::frame::SEQ_MOD;
use super::timing::Timing;

/// The largest window: half the sequence numbers, as selective repeat needs.
pub const MAX_WINDOW: usize = SEQ_MOD as usize / 2;
/// Counters accepted out of order, at most this far behind the newest.
const REPLAY_WINDOW: u64 = 64;
/// The most the retransmission timeout is multiplied by while nothing comes back.
const BACKOFF_MAX: u32 = 16;
const SEQ_MASK: u8 = SEQ_MOD - 1;

/// A message queued for sending.
struct Outgoing {
    message: Vec<u8>,
    /// When its last sending left the line (`None`: to send now).
    sent_at: Option<Instant>,
    /// How many times it was sent in this session.
    tries: u32,
    /// The peer holds it (reported in a selective acknowledgement).
    held: bool,
}

/// The sending side: queued messages, oldest first, the first `window` of them in flight.
///
/// One retransmission timer runs, for the oldest frame the peer has not acknowledged (as
/// TCP's does, RFC 6298): it starts when that frame can have left, and starts again whenever
/// the peer acknowledges something, so frames queued behind others on a slow path are not
/// timed from when they were written. When it runs out, that oldest frame alone goes again.
pub struct SendWindow {
    queue: VecDeque<Outgoing>,
    /// The sequence number of `queue[0]`.
    base: u8,
    window: usize,
    srtt: Option<Duration>,
    rttvar: Duration,
    /// The backoff factor: doubles on each timeout, and is 1 again once a frame sent once is
    /// acknowledged (Karn's algorithm: until then, no round trip says the timeout was right).
    backoff: u32,
    /// When the retransmission timer started, if frames are out.
    timer: Option<Instant>,
    /// Frames marked to go again at once (after a gap or a NAK), in all.
    pub fast: u64,
    /// Of those, after a NAK.
    pub after_nak: u64,
}

/// A frame [`SendWindow::due`] says to send: its queue index, sequence number, message, and
/// whether it went before.
pub struct Due {
    pub index: usize,
    pub seq: u8,
    pub message: Vec<u8>,
    pub again: bool,
}

impl SendWindow {
    pub fn new(window: usize) -> SendWindow {
        SendWindow {
            queue: VecDeque::new(),
            base: 0,
            window: window.clamp(1, MAX_WINDOW),
            srtt: None,
            rttvar: Duration::ZERO,
            backoff: 1,
            timer: None,
            fast: 0,
            after_nak: 0,
        }
    }

    pub fn has_room(&self) -> bool {
        self.queue.len() < self.window
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn push(&mut self, message: Vec<u8>) {
        self.queue.push_back(Outgoing {
            message,
            sent_at: None,
            tries: 0,
            held: false,
        });
    }

    /// Forgets every queued message.
    pub fn clear(&mut self) {
        self.queue.clear();
    }

    /// A new session: everything queued goes again from sequence number 0. The round trip
    /// measured stays (the line is likely the same).
    pub fn reset(&mut self) {
        self.base = 0;
        self.backoff = 1;
        self.timer = None;
        for o in &mut self.queue {
            o.sent_at = None;
            o.tries = 0;
            o.held = false;
        }
    }

    /// The smoothed round trip, once measured.
    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    /// The retransmission timeout now: from the measured round trip (SRTT + 4 RTTVAR), not
    /// below the line's floor, and not above the line's ceiling unless the round trip itself
    /// is longer: never below twice the smoothed round trip. With backoff.
    pub fn rto(&self, timing: &Timing) -> Duration {
        let base = match self.srtt {
            Some(srtt) => (srtt + self.rttvar * 4)
                .min(timing.rto_cap.max(srtt * 2))
                .max(timing.rto_min),
            None => timing.rto,
        };
        (base * self.backoff).min(timing.rto_max.max(base))
    }

    /// The frames to send now: those never sent in this session, those marked to go again,
    /// and, when the timer ran out (`timed_out` is then set), the oldest frame not
    /// acknowledged. Each is then [`SendWindow::sent`].
    pub fn due(&mut self, now: Instant, rto: Duration, timed_out: &mut bool) -> Vec<Due> {
        if self
            .timer
            .is_some_and(|at| now >= at && now.duration_since(at) >= rto)
        {
            self.timer = None;
            if let Some(oldest) = self.queue.iter_mut().take(self.window).find(|o| !o.held)
                && oldest.sent_at.is_some()
            {
                oldest.sent_at = None;
                *timed_out = true;
            }
        }
        let mut out = Vec::new();
        for (i, o) in self.queue.iter().enumerate().take(self.window) {
            if !o.held && o.sent_at.is_none() {
                out.push(Due {
                    index: i,
                    seq: self.base.wrapping_add(i as u8) & SEQ_MASK,
                    message: o.message.clone(),
                    again: o.tries > 0,
                });
            }
        }
        out
    }

    /// Frame `index` was sent; its last byte leaves the line at `gone`. The timer starts then
    /// if it is not running.
    pub fn sent(&mut self, index: usize, gone: Instant) {
        if let Some(o) = self.queue.get_mut(index) {
            o.sent_at = Some(gone);
            o.tries += 1;
        }
        if self.timer.is_none() {
            self.timer = Some(gone);
        }
    }

    /// The timer ran out: wait longer next time, until a round trip is measured again.
    pub fn back_off(&mut self) {
        self.backoff = (self.backoff * 2).min(BACKOFF_MAX);
    }

    /// The peer expects `ack` next and holds those after it that `sack` names: release what
    /// it acknowledged (returning how many), measure the round trip, and mark for sending at
    /// once what a later held frame shows lost.
    pub fn on_ack(&mut self, ack: u8, sack: u8, now: Instant) -> usize {
        let sent = self.queue.iter().take_while(|o| o.tries > 0).count();
        let n = usize::from(ack.wrapping_sub(self.base) & SEQ_MASK);
        if n > sent {
            // Not about what we sent: an old acknowledgement from before a resend.
            return 0;
        }
        if n > 0 {
            // The round trip of the oldest frame released, if it went once and was not held
            // behind a gap (Karn's rule; a held frame's wait is the gap's, not the line's).
            let sample = self
                .queue
                .front()
                .filter(|o| o.tries == 1 && !o.held)
                .and_then(|o| o.sent_at)
                .map(|at| now.duration_since(at));
            self.queue.drain(..n);
            if let Some(rtt) = sample {
                self.measured(rtt);
                self.backoff = 1;
            }
            self.base = self.base.wrapping_add(n as u8) & SEQ_MASK;
            // The peer is taking what we send: time the oldest frame left from now (or from
            // when it can have left, if later).
            self.timer = self
                .queue
                .iter()
                .take(self.window)
                .filter(|o| !o.held)
                .filter_map(|o| o.sent_at)
                .min()
                .map(|at| at.max(now));
        }
        if sack != 0 {
            let mut newest_held: Option<Instant> = None;
            for i in 0..(MAX_WINDOW - 1) {
                if sack & (1 << i) != 0
                    && let Some(o) = self.queue.get_mut(1 + i)
                    && o.tries > 0
                {
                    o.held = true;
                    newest_held = newest_held.max(o.sent_at);
                }
            }
            if let Some(held_sent) = newest_held {
                // Frames last sent before one the peer holds, and not held: lost on the way.
                // (One resent since is not resent again for the same report.)
                self.resend_if(|at| at < held_sent);
            }
        }
        n
    }

    /// The peer received a damaged frame: the oldest of ours not acknowledged that was sent
    /// long enough ago to have arrived was probably it, and goes again (one frame: the next
    /// NAK, if it was another, sends the next).
    pub fn on_nak(&mut self, now: Instant, timing: &Timing) {
        let guard = self.srtt.unwrap_or(timing.rto_min) / 2;
        if let Some(o) = self.queue.iter_mut().take(self.window).find(|o| {
            !o.held && o.tries > 0 && o.sent_at.is_some_and(|at| now.duration_since(at) >= guard)
        }) {
            o.sent_at = None;
            self.fast += 1;
            self.after_nak += 1;
        }
    }

    /// Marks every frame sent and not held for sending again now (a test's resends).
    #[cfg(test)]
    pub fn resend_now(&mut self) {
        self.resend_if(|_| true);
    }

    /// Marks for sending now the sent, unheld frames whose last sending passes `lost`.
    fn resend_if(&mut self, lost: impl Fn(Instant) -> bool) {
        for o in self.queue.iter_mut().take(self.window) {
            if !o.held && o.tries > 0 && o.sent_at.is_some_and(&lost) {
                o.sent_at = None;
                self.fast += 1;
            }
        }
    }

    /// A round-trip sample, smoothed as TCP does (RFC 6298).
    fn measured(&mut self, rtt: Duration) {
        match self.srtt {
            None => {
                self.srtt = Some(rtt);
                self.rttvar = rtt / 2;
            }
            Some(srtt) => {
                let err = srtt.abs_diff(rtt);
                self.rttvar = (self.rttvar * 3 + err) / 4;
                self.srtt = Some((srtt * 7 + rtt) / 8);
            }
        }
    }

    /// For a trace: each queued frame's tries, `h` if held, `!` if to go now.
    pub fn describe(&self) -> String {
        let frames: Vec<String> = self
            .queue
            .iter()
            .map(|o| {
                let held = if o.held { "h" } else { "" };
                let now = if o.sent_at.is_none() { "!" } else { "" };
                format!("t{}{held}{now}", o.tries)
            })
            .collect();
        format!(
            "base {} [{}] srtt {:?} backoff {}",
            self.base,
            frames.join(","),
            self.srtt,
            self.backoff
        )
    }
}

/// What a DATA frame that arrived was to the receiving side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The next message (or a copy of the one being applied).
    Next,
    /// A message after a gap, held: the sender should hear at once (a frame was lost).
    Ahead,
    /// A copy of a message applied or held already: the sender did not hear our
    /// acknowledgement, or sent again too soon.
    Repeat,
}

/// The receiving side: the next sequence number expected, and messages held from it on.
#[derive(Default)]
pub struct RecvWindow {
    expected: u8,
    /// Index `i`: the message numbered `expected + i`, if it arrived, with the counter of
    /// the frame that brought it.
    held: [Option<(u64, Vec<u8>)>; MAX_WINDOW],
    /// Whether `held[0]` has been handed up and is being applied.
    handed: bool,
    /// Per sequence number: the counter of the frame that brought the last message applied
    /// under it (see [`RecvWindow::on_data`]).
    applied_ctr: [Option<u64>; SEQ_MOD as usize],
}

impl RecvWindow {
    pub fn reset(&mut self) {
        *self = RecvWindow::default();
    }

    /// The next sequence number expected.
    pub fn expected(&self) -> u8 {
        self.expected
    }

    /// Which messages after the next expected one are held (bit `i`: `expected + 1 + i`).
    pub fn sack(&self) -> u8 {
        let mut bits = 0;
        for (i, m) in self.held.iter().enumerate().skip(1) {
            if m.is_some() {
                bits |= 1 << (i - 1);
            }
        }
        bits
    }

    /// A DATA frame (counter `ctr`) arrived: the next message, one ahead of a gap (held), or
    /// a repeat of one applied or held already.
    ///
    /// Sequence numbers wrap at 16, and a line that delays a frame can deliver a copy of a
    /// message applied long ago whose number now looks like one ahead. The counter tells
    /// them apart: the sender sends message `n` only once `n - window` is acknowledged, so
    /// every frame of `n` comes after every frame of `n - 8` (any window of at most 8), while
    /// a stale copy of `n - 16` came before them. A frame older than the one that brought
    /// `n - 8` is that stale copy.
    pub fn on_data(&mut self, seq: u8, ctr: u64, message: Vec<u8>) -> Arrival {
        let d = usize::from(seq.wrapping_sub(self.expected) & SEQ_MASK);
        let eight_before = usize::from(seq.wrapping_sub(MAX_WINDOW as u8) & SEQ_MASK);
        if self.applied_ctr[eight_before].is_some_and(|c| ctr < c) {
            return Arrival::Repeat;
        }
        let Some(slot) = self.held.get_mut(d) else {
            return Arrival::Repeat;
        };
        match (slot.is_some(), d) {
            (_, 0) => {
                if slot.is_none() {
                    *slot = Some((ctr, message));
                }
                Arrival::Next
            }
            (true, _) => Arrival::Repeat,
            (false, _) => {
                *slot = Some((ctr, message));
                Arrival::Ahead
            }
        }
    }

    /// The next message to apply, in order, once.
    pub fn take(&mut self) -> Option<Vec<u8>> {
        if self.handed {
            return None;
        }
        let (_, m) = self.held[0].clone()?;
        self.handed = true;
        Some(m)
    }

    /// The message taken is applied; `false` if none was taken.
    pub fn delivered(&mut self) -> bool {
        if !self.handed {
            return false;
        }
        self.handed = false;
        if let Some((ctr, _)) = &self.held[0] {
            self.applied_ctr[usize::from(self.expected)] = Some(*ctr);
        }
        self.held.rotate_left(1);
        self.held[MAX_WINDOW - 1] = None;
        self.expected = self.expected.wrapping_add(1) & SEQ_MASK;
        true
    }

    pub fn describe(&self) -> String {
        format!(
            "expected {} held {:07b} handed {}",
            self.expected,
            self.sack(),
            self.handed
        )
    }
}

/// The counters of frames accepted: the newest, and which of the 64 below it were seen.
#[derive(Default)]
pub struct ReplayWindow {
    newest: u64,
    /// Bit `i`: counter `newest - i` was accepted.
    seen: u64,
}

/// What a frame's low counter bits say before its tag is checked.
pub enum Counter {
    /// A counter not seen: check the tag with it.
    Fresh(u64),
    /// Seen already, or too old to tell: a duplicate or a replay if its tag checks.
    Seen(u64),
    /// No counter (below 1).
    None,
}

impl ReplayWindow {
    pub fn reset(&mut self) {
        *self = ReplayWindow::default();
    }

    pub fn newest(&self) -> u64 {
        self.newest
    }

    /// The full counter nearest the newest accepted with these low bits.
    pub fn counter(&self, low: u8) -> Counter {
        let diff = i64::from(low.wrapping_sub(self.newest as u8) as i8);
        let ctr = self.newest as i64 + diff;
        if ctr <= 0 {
            return Counter::None;
        }
        let ctr = ctr as u64;
        let behind = self.newest.saturating_sub(ctr);
        let seen =
            ctr <= self.newest && (behind >= REPLAY_WINDOW || self.seen & (1 << behind) != 0);
        if seen {
            Counter::Seen(ctr)
        } else {
            Counter::Fresh(ctr)
        }
    }

    /// A frame with counter `ctr` verified.
    pub fn accept(&mut self, ctr: u64) {
        if ctr > self.newest {
            let shift = ctr - self.newest;
            self.seen = if shift >= REPLAY_WINDOW {
                0
            } else {
                self.seen << shift
            };
            self.seen |= 1;
            self.newest = ctr;
        } else if let Some(bit) = 1u64.checked_shl((self.newest - ctr) as u32) {
            self.seen |= bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_replay_window_takes_late_frames_once() {
        let mut w = ReplayWindow::default();
        for ctr in [1, 2, 5, 3, 4] {
            let Counter::Fresh(c) = w.counter(ctr as u8) else {
                panic!("{ctr} is fresh");
            };
            assert_eq!(c, ctr);
            w.accept(c);
        }
        for ctr in [1u8, 3, 5] {
            assert!(matches!(w.counter(ctr), Counter::Seen(_)), "{ctr} again");
        }
        // Past the low byte's wrap, and far behind.
        for ctr in 6..=300u64 {
            w.accept(ctr);
        }
        assert!(matches!(w.counter(301u64 as u8), Counter::Fresh(301)));
        assert!(matches!(w.counter(200), Counter::Seen(200)));
    }

    /// Regression: each frame had its own timer, and frames written together ran out
    /// together: the whole window went again at each timeout.
    #[test]
    fn a_timeout_resends_the_oldest_frame_alone() {
        let timing = Timing::for_tcp(4);
        let start = Instant::now();
        let mut w = SendWindow::new(4);
        for n in 0..4u8 {
            w.push(vec![n]);
        }
        let mut timed_out = false;
        let first = w.due(start, w.rto(&timing), &mut timed_out);
        assert_eq!(first.len(), 4);
        for d in &first {
            w.sent(d.index, start);
        }
        let later = start + w.rto(&timing) + Duration::from_millis(1);
        let again = w.due(later, w.rto(&timing), &mut timed_out);
        assert!(timed_out);
        assert_eq!(again.iter().map(|d| d.index).collect::<Vec<_>>(), [0]);
        w.sent(0, later);
        // The peer takes the first: the timer starts again from now for the second.
        assert_eq!(w.on_ack(1, 0, later + Duration::from_millis(300)), 1);
        let mut timed_out = false;
        let soon = later + Duration::from_millis(400);
        assert!(w.due(soon, w.rto(&timing), &mut timed_out).is_empty());
        assert!(!timed_out);
    }

    /// Regression: a TCP link's timeout was capped at half a second whatever round trip it
    /// measured. It follows the round trip now: never below twice the smoothed one.
    #[test]
    fn the_timeout_follows_a_round_trip_longer_than_the_lines_ceiling() {
        let timing = Timing::for_tcp(4);
        let mut w = SendWindow::new(4);
        let mut now = Instant::now();
        for n in 0..20u8 {
            w.push(vec![n]);
            let mut timed_out = false;
            for d in w.due(now, Duration::from_secs(60), &mut timed_out) {
                w.sent(d.index, now);
            }
            now += Duration::from_secs(3);
            assert_eq!(w.on_ack((n + 1) & SEQ_MASK, 0, now), 1);
        }
        let srtt = w.srtt().expect("measured");
        assert!(srtt > Duration::from_millis(2900), "{srtt:?}");
        assert!(w.rto(&timing) >= srtt, "{:?}", w.rto(&timing));
        assert!(w.rto(&timing) > timing.rto_cap * 2);
    }

    #[test]
    fn the_receive_window_holds_what_comes_after_a_gap() {
        let mut r = RecvWindow::default();
        assert_eq!(r.on_data(1, 2, b"b".to_vec()), Arrival::Ahead, "a gap");
        assert_eq!(r.sack(), 0b1);
        assert_eq!(r.take(), None);
        assert_eq!(r.on_data(0, 1, b"a".to_vec()), Arrival::Next);
        assert_eq!(r.take().as_deref(), Some(&b"a"[..]));
        assert_eq!(r.take(), None, "once until applied");
        assert!(r.delivered());
        assert_eq!(r.take().as_deref(), Some(&b"b"[..]));
        assert!(r.delivered());
        assert_eq!(r.expected(), 2);
        assert_eq!(r.on_data(0, 3, b"a".to_vec()), Arrival::Repeat);
        assert_eq!(r.take(), None);
    }

    /// Regression: a frame the line delayed while 16 messages went by came back with a
    /// number that looked like the next one, and its old message was applied in place of the
    /// new one (which was then dropped as a repeat).
    #[test]
    fn a_copy_delayed_past_the_sequence_wrap_is_not_taken_for_a_new_message() {
        let mut r = RecvWindow::default();
        // Messages 0..16, each in frame 10 + n.
        for n in 0..16u8 {
            assert_eq!(r.on_data(n, 10 + u64::from(n), vec![n]), Arrival::Next);
            assert_eq!(r.take(), Some(vec![n]));
            assert!(r.delivered());
        }
        assert_eq!(r.expected(), 0, "the numbers wrapped");
        // The delayed copy of message 0 (frame 10): number 0 again, but older than the frame
        // that brought message 8.
        assert_eq!(r.on_data(0, 10, vec![0]), Arrival::Repeat);
        assert_eq!(r.take(), None);
        // Message 16 itself, numbered 0, in a frame after all those.
        assert_eq!(r.on_data(0, 40, vec![16]), Arrival::Next);
        assert_eq!(r.take(), Some(vec![16]));
    }
}
