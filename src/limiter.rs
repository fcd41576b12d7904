//! Rate limits that hold under a flood: at most so many events per key per window, in a table
//! that never grows past a fixed number of keys. Used for failed logins per address and per
//! player (every transport), for the refused mail the journal records per sender and in all,
//! and for XFCC's fetches per player; a throttle for the log lines that say so, so the log
//! does not become the next flood; and the budget of commands a session may send per minute.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The key a client's address is counted under: an IPv4 address as it is, an IPv6 address by
/// its /64 network (one household or host is given a whole /64 and can pick any address in
/// it, so counting single addresses would let it rotate past any limit). An IPv4 address
/// written as IPv6 (`::ffff:a.b.c.d`) counts as the IPv4 address.
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// At most `per_window` events per key in each `window` (a fixed window from the key's first
/// event). The table holds at most `max_keys` keys: when full it forgets the key whose window
/// began first, so a flood of distinct senders costs the flood its own memory, never anyone
/// else their turn.
pub struct KeyedLimiter {
    per_window: u32,
    window: Duration,
    max_keys: usize,
    table: Mutex<Table>,
}

/// The counts, and the keys in the order their windows began (an entry whose window began
/// again later is stale there and skipped).
#[derive(Default)]
struct Table {
    seen: HashMap<String, (Instant, u32)>,
    order: VecDeque<(Instant, String)>,
}

impl Table {
    /// The key's count now, its window started afresh if it has ended.
    fn slot(&mut self, key: &str, now: Instant, window: Duration, max_keys: usize) -> &mut u32 {
        if !self.seen.contains_key(key) {
            while self.seen.len() >= max_keys {
                self.forget_oldest();
            }
        }
        let mut started = false;
        let slot = self.seen.entry(key.to_owned()).or_insert_with(|| {
            started = true;
            (now, 0)
        });
        if now.saturating_duration_since(slot.0) >= window {
            *slot = (now, 0);
            started = true;
        }
        if started {
            self.order.push_back((now, key.to_owned()));
            if self.order.len() > 2 * max_keys {
                let seen = &self.seen;
                self.order
                    .retain(|(at, k)| seen.get(k).is_some_and(|(start, _)| start == at));
            }
        }
        &mut self.seen.get_mut(key).expect("inserted above").1
    }

    fn forget_oldest(&mut self) {
        while let Some((at, key)) = self.order.pop_front() {
            if self.seen.get(&key).is_some_and(|(start, _)| *start == at) {
                self.seen.remove(&key);
                return;
            }
        }
        // The order lost track (it cannot, but a table must never block): forget anyone.
        if let Some(key) = self.seen.keys().next().cloned() {
            self.seen.remove(&key);
        }
    }
}

impl KeyedLimiter {
    pub fn new(per_window: u32, window: Duration, max_keys: usize) -> KeyedLimiter {
        KeyedLimiter {
            per_window,
            window,
            max_keys: max_keys.max(1),
            table: Mutex::new(Table::default()),
        }
    }

    /// Counts an event for `key`; false if it is over the key's limit.
    pub fn attempt(&self, key: &str) -> bool {
        self.attempt_at(key, Instant::now())
    }

    /// Whether `key` has used up its window already (counts nothing).
    pub fn exhausted(&self, key: &str) -> bool {
        self.exhausted_at(key, Instant::now())
    }

    /// Takes back one event counted for `key` in its current window: the event turned out
    /// not to be one the limit is for (a login whose secret was right).
    pub fn forgive(&self, key: &str) {
        let mut table = self.lock();
        if let Some((_, count)) = table.seen.get_mut(key) {
            *count = count.saturating_sub(1);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn attempt_at(&self, key: &str, now: Instant) -> bool {
        let mut table = self.lock();
        let count = table.slot(key, now, self.window, self.max_keys);
        *count = count.saturating_add(1);
        *count <= self.per_window
    }

    fn exhausted_at(&self, key: &str, now: Instant) -> bool {
        let table = self.lock();
        table.seen.get(key).is_some_and(|(start, count)| {
            now.saturating_duration_since(*start) < self.window && *count >= self.per_window
        })
    }

    /// How many keys the table holds now.
    pub fn keys(&self) -> usize {
        self.lock().seen.len()
    }
}

/// A budget per key, refilled continuously: `per_minute` events a minute on average, with a
/// burst of `burst` after a quiet spell. The table holds at most `max_keys` keys; when full,
/// the key least recently charged is forgotten (its next event starts from a full budget).
pub struct KeyedBudget {
    per_minute: f64,
    burst: f64,
    max_keys: usize,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl KeyedBudget {
    pub fn new(per_minute: u32, burst: u32, max_keys: usize) -> KeyedBudget {
        KeyedBudget {
            per_minute: f64::from(per_minute),
            burst: f64::from(burst.max(1)),
            max_keys: max_keys.max(1),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one event's worth from `key`'s budget; false when it is spent.
    pub fn spend(&self, key: &str) -> bool {
        self.spend_at(key, Instant::now())
    }

    /// Gives back one event's worth that [`KeyedBudget::spend`] took from `key`: the event
    /// turned out to be one the budget is not for (a request answered without doing
    /// anything). Never more than the burst.
    pub fn forgive(&self, key: &str) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((tokens, _)) = buckets.get_mut(key) {
            *tokens = (*tokens + 1.0).min(self.burst);
        }
    }

    fn spend_at(&self, key: &str, now: Instant) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= self.max_keys
            && !buckets.contains_key(key)
            && let Some(stalest) = buckets
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| k.clone())
        {
            buckets.remove(&stalest);
        }
        let (tokens, at) = buckets.entry(key.to_owned()).or_insert((self.burst, now));
        let refill = now.saturating_duration_since(*at).as_secs_f64() * self.per_minute / 60.0;
        *tokens = (*tokens + refill).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
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
    fn a_flood_of_distinct_keys_never_grows_the_table_and_forgets_the_oldest() {
        let l = KeyedLimiter::new(2, Duration::from_secs(60), 64);
        let t0 = Instant::now();
        assert!(l.attempt_at("early", t0));
        assert!(l.attempt_at("early", t0));
        assert!(!l.attempt_at("early", t0), "over its limit");
        let later = t0 + Duration::from_secs(1);
        let allowed = (0..10_000)
            .filter(|i| l.attempt_at(&format!("sender-{i}"), later))
            .count();
        assert_eq!(allowed, 10_000, "a full table refuses nobody new");
        assert_eq!(l.keys(), 64, "and never grows");
        // The oldest went first: "early" was forgotten, the newest are remembered.
        assert!(!l.exhausted_at("early", later));
        assert!(l.attempt_at("sender-9999", later));
        assert!(!l.attempt_at("sender-9999", later), "its count was kept");
    }

    #[test]
    fn exhausted_counts_nothing_and_forgive_takes_one_back() {
        let l = KeyedLimiter::new(2, Duration::from_secs(60), 8);
        let t0 = Instant::now();
        assert!(!l.exhausted_at("a", t0));
        assert!(l.attempt_at("a", t0));
        assert!(l.attempt_at("a", t0));
        assert!(l.exhausted_at("a", t0));
        assert!(l.exhausted_at("a", t0), "asking twice counts nothing");
        l.forgive("a");
        assert!(!l.exhausted_at("a", t0));
        assert!(
            !l.exhausted_at("a", t0 + Duration::from_secs(61)),
            "window over"
        );
    }

    #[test]
    fn ipv6_addresses_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(key("::ffff:192.0.2.7"), "192.0.2.7");
        assert_eq!(key("192.0.2.7"), "192.0.2.7");
        assert_ne!(key("192.0.2.7"), key("192.0.2.8"));
    }

    #[test]
    fn a_keyed_budget_allows_its_burst_then_its_rate() {
        let b = KeyedBudget::new(30, 5, 2);
        let t0 = Instant::now();
        assert_eq!((0..10).filter(|_| b.spend_at("p", t0)).count(), 5);
        assert!(
            !b.spend_at("p", t0 + Duration::from_secs(1)),
            "half a token back"
        );
        assert!(
            b.spend_at("p", t0 + Duration::from_secs(2)),
            "one every two seconds"
        );
        assert!(b.spend_at("q", t0), "another key has its own budget");
        assert!(
            b.spend_at("r", t0),
            "a third key makes room by forgetting one"
        );
    }

    #[test]
    fn a_keyed_budget_takes_back_what_it_forgives_and_never_past_its_burst() {
        let b = KeyedBudget::new(30, 2, 4);
        let t0 = Instant::now();
        assert!(b.spend_at("p", t0));
        assert!(b.spend_at("p", t0));
        assert!(!b.spend_at("p", t0), "the burst is spent");
        b.forgive("p");
        assert!(b.spend_at("p", t0), "the event forgiven is back");
        assert!(!b.spend_at("p", t0));
        for _ in 0..5 {
            b.forgive("p");
        }
        assert_eq!(
            (0..5).filter(|_| b.spend_at("p", t0)).count(),
            2,
            "forgiving gives back no more than the burst"
        );
        b.forgive("nobody");
        assert_eq!(
            b.buckets.lock().unwrap().len(),
            1,
            "no key made by forgiving"
        );
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
