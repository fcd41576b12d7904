//! Rate limits that hold under a flood: at most so many events per key per window, in a table
//! that never grows past a fixed number of keys. Used for login attempts per address (every
//! transport) and for the refused mail the journal records per sender and in all; a
//! throttle for the log lines that say so, so the log does not become the next flood; and
//! the budget of commands a session may send per minute.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// At most `per_window` events per key in each `window` (a fixed window from the key's first
/// event). The table holds at most `max_keys` keys: when full it forgets keys whose window has
/// ended; if it is still full of live keys, an event from a new key is refused rather than
/// let the table grow (a flood of distinct senders is refused, not remembered).
pub struct KeyedLimiter {
    per_window: u32,
    window: Duration,
    max_keys: usize,
    seen: Mutex<HashMap<String, (Instant, u32)>>,
}

impl KeyedLimiter {
    pub fn new(per_window: u32, window: Duration, max_keys: usize) -> KeyedLimiter {
        KeyedLimiter {
            per_window,
            window,
            max_keys: max_keys.max(1),
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts an event for `key`; false if it is over the key's limit (or the table is full).
    pub fn attempt(&self, key: &str) -> bool {
        self.attempt_at(key, Instant::now())
    }

    fn attempt_at(&self, key: &str, now: Instant) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= self.max_keys && !seen.contains_key(key) {
            let window = self.window;
            seen.retain(|_, (start, _)| now.saturating_duration_since(*start) < window);
            if seen.len() >= self.max_keys {
                return false;
            }
        }
        let slot = seen.entry(key.to_owned()).or_insert((now, 0));
        if now.saturating_duration_since(slot.0) >= self.window {
            *slot = (now, 0);
        }
        slot.1 = slot.1.saturating_add(1);
        slot.1 <= self.per_window
    }

    /// How many keys the table holds now.
    pub fn keys(&self) -> usize {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// Lets one log line through per `every`; counts the ones held back, so the line that passes
/// can say how many were not written.
pub struct Throttle {
    every: Duration,
    state: Mutex<(Option<Instant>, u64)>,
}

impl Throttle {
    pub fn new(every: Duration) -> Throttle {
        Throttle {
            every,
            state: Mutex::new((None, 0)),
        }
    }

    /// `Some(n)` if a line may be written now, `n` being how many were held back since the
    /// last one; `None` to hold this one back.
    pub fn pass(&self) -> Option<u64> {
        let now = Instant::now();
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match state.0 {
            Some(last) if now.saturating_duration_since(last) < self.every => {
                state.1 = state.1.saturating_add(1);
                None
            }
            _ => {
                let held = state.1;
                *state = (Some(now), 0);
                Some(held)
            }
        }
    }
}

/// Commands per minute for one session, refilled continuously.
pub struct CommandBudget {
    per_minute: f64,
    tokens: f64,
    at: Instant,
}

impl CommandBudget {
    pub fn new(per_minute: u32) -> CommandBudget {
        CommandBudget {
            per_minute: f64::from(per_minute),
            tokens: f64::from(per_minute),
            at: Instant::now(),
        }
    }

    /// Takes one command's worth; false when the session is over its rate.
    pub fn spend(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.per_minute / 60.0;
        self.tokens = (self.tokens + refill).min(self.per_minute);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_key_limit_resets_after_the_window() {
        let l = KeyedLimiter::new(2, Duration::from_secs(60), 100);
        let t0 = Instant::now();
        assert!(l.attempt_at("a", t0));
        assert!(l.attempt_at("a", t0));
        assert!(!l.attempt_at("a", t0), "third in the window");
        assert!(l.attempt_at("b", t0), "another key has its own count");
        assert!(
            l.attempt_at("a", t0 + Duration::from_secs(61)),
            "new window"
        );
    }

    #[test]
    fn a_flood_of_distinct_keys_never_grows_the_table() {
        let l = KeyedLimiter::new(5, Duration::from_secs(60), 64);
        let t0 = Instant::now();
        let allowed = (0..10_000)
            .filter(|i| l.attempt_at(&format!("sender-{i}"), t0))
            .count();
        assert_eq!(allowed, 64, "only as many keys as the table holds");
        assert_eq!(l.keys(), 64);
        // Once their windows end, new keys get room again.
        assert!(l.attempt_at("late", t0 + Duration::from_secs(61)));
        assert_eq!(l.keys(), 1);
    }

    #[test]
    fn throttle_passes_one_line_per_period_and_counts_the_rest() {
        let t = Throttle::new(Duration::from_secs(3600));
        assert_eq!(t.pass(), Some(0));
        assert_eq!(t.pass(), None);
        assert_eq!(t.pass(), None);
        let t = Throttle::new(Duration::ZERO);
        assert_eq!(t.pass(), Some(0));
        assert_eq!(t.pass(), Some(0));
    }
}
