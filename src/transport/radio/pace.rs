//! The transmit budget: a token bucket of bytes on air, so that the relay never takes more of
//! a shared frequency than the operator gave it, however much it has to say.
//!
//! The bucket fills at the budget's rate (bytes a minute) and holds a quarter of a minute's
//! worth (at least one longest frame): a move and its answer go at once, a backlog after an
//! outage drains at the budget's pace. A frame costs its bytes on air: the AX.25 frame, its
//! CRC and flags, and the TXDELAY preamble the transmitter sends before it.

use std::time::{Duration, Instant};

/// An AX.25 frame's CRC (2 bytes) and its opening and closing flags.
pub const FRAMING_BYTES: usize = 4;
/// 1200 baud: 150 bytes a second.
pub const BYTES_PER_SECOND: f64 = 150.0;

#[derive(Debug)]
pub struct Bucket {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket for `per_minute` bytes a minute, holding at least `largest` bytes.
    pub fn new(per_minute: u32, largest: usize, now: Instant) -> Bucket {
        let per_minute = f64::from(per_minute.max(1));
        let capacity = (per_minute / 4.0).max(largest as f64);
        Bucket {
            capacity,
            per_second: per_minute / 60.0,
            tokens: capacity,
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.at = now;
    }

    /// How long until `cost` bytes may go (zero: now). A cost above the capacity waits for a
    /// full bucket.
    pub fn wait(&mut self, cost: usize, now: Instant) -> Duration {
        self.refill(now);
        let need = (cost as f64).min(self.capacity) - self.tokens;
        if need <= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(need / self.per_second)
        }
    }

    /// Spends `cost` bytes (the frame went).
    pub fn take(&mut self, cost: usize, now: Instant) {
        self.refill(now);
        self.tokens -= cost as f64;
    }
}

/// The bytes on air of a frame of `ax25_len` bytes sent after `txdelay` of preamble.
pub fn on_air(ax25_len: usize, txdelay: Duration) -> usize {
    ax25_len + FRAMING_BYTES + (txdelay.as_secs_f64() * BYTES_PER_SECOND) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_goes_at_once_and_the_rest_at_the_budgets_pace() {
        let t0 = Instant::now();
        // 600 bytes a minute: 10 a second, 150 in the bucket.
        let mut bucket = Bucket::new(600, 100, t0);
        assert_eq!(bucket.wait(100, t0), Duration::ZERO);
        bucket.take(100, t0);
        assert_eq!(bucket.wait(50, t0), Duration::ZERO);
        bucket.take(50, t0);
        assert_eq!(bucket.wait(100, t0), Duration::from_secs(10));
        let later = t0 + Duration::from_secs(10);
        assert_eq!(bucket.wait(100, later), Duration::ZERO);
    }

    #[test]
    fn over_a_long_run_no_more_than_the_budget_goes() {
        let t0 = Instant::now();
        let mut bucket = Bucket::new(1200, 60, t0);
        let (mut now, mut sent) = (t0, 0usize);
        while now < t0 + Duration::from_secs(600) {
            now += bucket.wait(60, now);
            bucket.take(60, now);
            sent += 60;
        }
        // Ten minutes at 1200 a minute, plus the bucket's first fill (300) and one frame.
        assert!(sent <= 12_000 + 300 + 60, "{sent}");
    }

    #[test]
    fn a_frame_larger_than_the_bucket_waits_for_a_full_one_only() {
        let t0 = Instant::now();
        let mut bucket = Bucket::new(60, 10, t0);
        assert_eq!(bucket.wait(400, t0), Duration::ZERO);
        bucket.take(400, t0);
        assert!(bucket.wait(400, t0) > Duration::from_secs(60));
    }

    #[test]
    fn air_time_counts_the_preamble() {
        assert_eq!(on_air(30, Duration::from_millis(300)), 30 + 4 + 45);
    }
}
