//! Whether an account's failures are news for its player and the admin (docs/xfcc.md, "When
//! the server fails"): failing without a success for [`TELL_AFTER`] is told once, and a
//! success after that (or after a pause) once again; a refused login is told at once. The
//! relay keeps what was told last (`remote_status` entries), so that a restart does not tell
//! it twice; this only decides when, on the instants it is given, so that an hour is tested
//! without waiting one.

use std::time::{Duration, Instant};

use crate::relay::RemoteHealth;

/// Failing this long without a success is told to the player and the admin.
pub const TELL_AFTER: Duration = Duration::from_secs(3_600);

/// An account's failures since its last success, and what was told last.
#[derive(Debug)]
pub struct Health {
    failing_since: Option<Instant>,
    told: Option<RemoteHealth>,
}

impl Health {
    /// After a start: `told` is what the relay's record says was told last.
    pub fn new(told: Option<RemoteHealth>) -> Health {
        Health {
            failing_since: None,
            told,
        }
    }

    /// A call failed at `now`: [`RemoteHealth::Failing`] once the failures have lasted
    /// [`TELL_AFTER`], if not told already.
    pub fn failed(&mut self, now: Instant) -> Option<RemoteHealth> {
        let since = *self.failing_since.get_or_insert(now);
        let due = now.saturating_duration_since(since) >= TELL_AFTER;
        self.tell(due, RemoteHealth::Failing)
    }

    /// A round succeeded: [`RemoteHealth::Working`] if failing or a pause was told.
    pub fn succeeded(&mut self) -> Option<RemoteHealth> {
        self.failing_since = None;
        let due = matches!(
            self.told,
            Some(RemoteHealth::Failing | RemoteHealth::Paused)
        );
        self.tell(due, RemoteHealth::Working)
    }

    /// The server refused the account's name or password: [`RemoteHealth::Paused`], told at
    /// once (the relay tells it again only under another configuration).
    pub fn refused(&mut self) -> Option<RemoteHealth> {
        self.failing_since = None;
        self.told = Some(RemoteHealth::Paused);
        Some(RemoteHealth::Paused)
    }

    fn tell(&mut self, due: bool, health: RemoteHealth) -> Option<RemoteHealth> {
        if !due || self.told == Some(health) {
            return None;
        }
        self.told = Some(health);
        Some(health)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_of_failures_is_told_once_and_the_recovery_once() {
        let start = Instant::now();
        let at = |minutes: u64| start + Duration::from_secs(minutes * 60);
        let mut health = Health::new(None);
        assert_eq!(health.failed(at(0)), None);
        assert_eq!(health.failed(at(59)), None);
        assert_eq!(health.failed(at(60)), Some(RemoteHealth::Failing));
        assert_eq!(health.failed(at(61)), None);
        assert_eq!(health.failed(at(600)), None);
        assert_eq!(health.succeeded(), Some(RemoteHealth::Working));
        assert_eq!(health.succeeded(), None);
        // A new run of failures counts its hour from its own first.
        assert_eq!(health.failed(at(601)), None);
        assert_eq!(health.succeeded(), None);
        assert_eq!(health.failed(at(700)), None);
        assert_eq!(health.failed(at(759)), None);
        assert_eq!(health.failed(at(760)), Some(RemoteHealth::Failing));
    }

    #[test]
    fn a_start_remembers_what_was_told() {
        // Failing was told before the restart: not again; its recovery is.
        let start = Instant::now();
        let mut health = Health::new(Some(RemoteHealth::Failing));
        assert_eq!(health.failed(start + TELL_AFTER * 2), None);
        assert_eq!(health.failed(start + TELL_AFTER * 4), None);
        assert_eq!(health.succeeded(), Some(RemoteHealth::Working));
        // Paused under another configuration: its first success is told.
        let mut health = Health::new(Some(RemoteHealth::Paused));
        assert_eq!(health.succeeded(), Some(RemoteHealth::Working));
        let mut health = Health::new(Some(RemoteHealth::Working));
        assert_eq!(health.succeeded(), None);
        assert_eq!(health.refused(), Some(RemoteHealth::Paused));
    }
}
