//! The one backoff of every task that reconnects or retries: a serial port that is not there,
//! an SMTP server that refuses mail, an IMAP server that drops the connection, a link whose
//! line is down.
//!
//! Exponential (each failure doubles the next wait, up to a cap), with jitter (each wait is
//! drawn between half and all of its step, so nodes and tasks that failed together do not
//! retry in lockstep), reset by the caller after a success, and slept in a way shutdown cuts
//! short. It imports nothing from the crate, so any layer may use it.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// Waits between attempts; see the module header.
#[derive(Clone, Debug)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    /// The step of the next wait, before jitter.
    next: Duration,
    jitter: bool,
    /// xorshift64* state: jitter needs spread, not secrecy.
    rng: u64,
}

/// Shutdown came before the wait was over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl Backoff {
    /// Waits from `first`, doubling up to `max`, each jittered.
    pub fn new(first: Duration, max: Duration) -> Backoff {
        let mut seed = [0u8; 8];
        if getrandom::fill(&mut seed).is_err() {
            // No entropy source: any spread will do, the clock's will.
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            seed = (nanos as u64).to_le_bytes();
        }
        Backoff {
            first,
            max: max.max(first),
            next: first,
            jitter: true,
            // xorshift's state must not be zero.
            rng: u64::from_le_bytes(seed) | 1,
        }
    }

    /// The same without jitter: exactly `first`, `2 × first`, ... `max` (for tests and for
    /// waits that must be predictable).
    pub fn without_jitter(mut self) -> Backoff {
        self.jitter = false;
        self
    }

    /// The wait before the next attempt; each call doubles the following step, up to the cap.
    pub fn next_delay(&mut self) -> Duration {
        let step = self.next;
        self.next = step.saturating_mul(2).min(self.max);
        if !self.jitter {
            return step;
        }
        // Uniform in [step/2, step].
        let half = step / 2;
        let spread = u64::try_from((step - half).as_nanos()).unwrap_or(u64::MAX);
        let extra = self.random() % spread.saturating_add(1);
        half + Duration::from_nanos(extra)
    }

    /// After a success: the next failure waits from the first step again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }

    /// Sleeps the next delay (returned, for the log), unless shutdown comes first.
    pub async fn wait(&mut self, shutdown: &CancellationToken) -> Result<Duration, Cancelled> {
        let delay = self.next_delay();
        sleep(delay, shutdown).await.map(|()| delay)
    }

    fn random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Sleeps `d`, or less if `shutdown` is cancelled first (then `Err`).
pub async fn sleep(d: Duration, shutdown: &CancellationToken) -> Result<(), Cancelled> {
    tokio::select! {
        () = tokio::time::sleep(d) => Ok(()),
        () = shutdown.cancelled() => Err(Cancelled),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::time::Instant;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn without_jitter_it_doubles_up_to_the_cap_and_resets() {
        let mut b = Backoff::new(100 * MS, 500 * MS).without_jitter();
        let waits: Vec<u128> = (0..5).map(|_| b.next_delay().as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 500, 500]);
        b.reset();
        assert_eq!(b.next_delay(), 100 * MS);
    }

    #[test]
    fn jittered_waits_stay_between_half_and_all_of_each_step_and_spread() {
        let mut b = Backoff::new(100 * MS, 800 * MS);
        let steps = [100, 200, 400, 800, 800, 800];
        for _ in 0..50 {
            for step in steps {
                let d = b.next_delay();
                assert!(
                    d >= step * MS / 2 && d <= step * MS,
                    "{d:?} for a step of {step} ms"
                );
            }
            b.reset();
        }
        let firsts: std::collections::BTreeSet<Duration> = (0..20)
            .map(|_| {
                b.reset();
                b.next_delay()
            })
            .collect();
        assert!(firsts.len() > 10, "jitter spreads the waits: {firsts:?}");
    }

    #[test]
    fn two_backoffs_do_not_retry_in_lockstep() {
        let mut a = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(60));
        let same = (0..8).filter(|_| a.next_delay() == b.next_delay()).count();
        assert!(same < 8);
    }

    #[test]
    fn a_cap_below_the_first_step_is_the_first_step() {
        let mut b = Backoff::new(Duration::from_secs(2), Duration::from_secs(1)).without_jitter();
        assert_eq!(b.next_delay(), Duration::from_secs(2));
        assert_eq!(b.next_delay(), Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn waits_take_the_time_they_say() {
        let shutdown = CancellationToken::new();
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(4)).without_jitter();
        let start = Instant::now();
        let mut slept = Vec::new();
        for _ in 0..4 {
            slept.push(b.wait(&shutdown).await.unwrap().as_secs());
        }
        assert_eq!(slept, [1, 2, 4, 4]);
        assert_eq!(start.elapsed(), Duration::from_secs(11));
    }

    #[tokio::test(start_paused = true)]
    async fn shutdown_cuts_a_wait_short() {
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(3)).await;
            stop.cancel();
        });
        let mut b = Backoff::new(Duration::from_secs(300), Duration::from_secs(300));
        let start = Instant::now();
        assert_eq!(b.wait(&shutdown).await, Err(Cancelled));
        assert_eq!(start.elapsed(), Duration::from_secs(3));
        // Already cancelled: no wait at all.
        let start = Instant::now();
        assert_eq!(
            sleep(Duration::from_secs(60), &shutdown).await,
            Err(Cancelled)
        );
        assert_eq!(start.elapsed(), Duration::ZERO);
    }

    #[tokio::test(start_paused = true)]
    async fn after_a_reset_the_next_failure_waits_the_first_step() {
        let shutdown = CancellationToken::new();
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(60)).without_jitter();
        for _ in 0..5 {
            b.wait(&shutdown).await.unwrap();
        }
        b.reset();
        let start = Instant::now();
        assert_eq!(b.wait(&shutdown).await, Ok(Duration::from_secs(1)));
        assert_eq!(start.elapsed(), Duration::from_secs(1));
    }
}
