//! The recorder: the journal, the relay's clock and time, and the moves counted. Every entry
//! a handler writes is made here, at the relay's time, so the time of a request is read in one
//! place.

use jiff::Timestamp;

use crate::journal::entry::Meaning;
use crate::journal::{EntryKind, Journal, NewEntry};
use crate::relay::reply::{Channel, Reply};
use crate::relay::request::Request;

/// Where the relay's time comes from.
pub(super) enum Clock {
    System,
    /// Set by the admin's `CLOCK` command only (tests, demonstrations).
    Manual(Timestamp),
}

impl Clock {
    /// The time, in whole seconds: the unit a link carries, so that both nodes of a link
    /// record the same times.
    pub(super) fn now(&self) -> Timestamp {
        whole_seconds(match self {
            Clock::System => Timestamp::now(),
            Clock::Manual(at) => *at,
        })
    }
}

/// `at` without its fraction of a second (see [`Clock::now`]).
pub(super) fn whole_seconds(at: Timestamp) -> Timestamp {
    Timestamp::from_second(at.as_second()).unwrap_or(at)
}

/// What writes the record and keeps the relay's time.
pub(super) struct Recorder {
    pub(super) journal: Journal,
    pub(super) clock: Clock,
    /// The time of what is being handled: every entry it writes carries it. Never goes back,
    /// even if the system clock does.
    pub(super) now: Timestamp,
    /// The moves counted, by channel and outcome (at most one counter each).
    pub(super) moves_counted: crate::relay::counters::MoveCounters,
}

impl Recorder {
    /// Moves the relay's time to the clock's; it never goes back, even if the system clock
    /// does.
    pub(super) fn catch_up(&mut self) {
        self.now = self.now.max(self.clock.now());
    }

    /// A new entry at the relay's time, saying `meaning` (its kind, move and detail written
    /// by the journal's one encoder). A structured detail that cannot be written is not
    /// recorded, and the reply says so.
    pub(super) fn entry(
        &self,
        game: &str,
        player: &str,
        channel: Channel,
        meaning: &Meaning,
        text: &str,
    ) -> Result<NewEntry, Reply> {
        let mut entry = NewEntry::new(game, player, channel.as_str(), meaning.kind(), text);
        entry
            .set_meaning(meaning)
            .map_err(|e| Reply::not_recorded(&e))?;
        entry.time = self.now;
        Ok(entry)
    }

    /// A move entry at the relay's time: `iccf` as the record keeps the move, `draw_offer`
    /// if one rode with it ([`NewEntry::set_move`], which cannot fail).
    pub(super) fn move_entry(
        &self,
        game: &str,
        player: &str,
        channel: Channel,
        (iccf, draw_offer): (String, bool),
        text: &str,
    ) -> NewEntry {
        let mut entry = NewEntry::new(game, player, channel.as_str(), EntryKind::Move, text);
        entry.set_move(iccf, draw_offer);
        entry.time = self.now;
        entry
    }

    /// An entry by the sender of the request being handled, recording its words.
    /// It carries the request's idempotency key: the first such entry committed keeps it.
    pub(super) fn request_entry(
        &self,
        request: &Request,
        game: &str,
        meaning: &Meaning,
    ) -> Result<NewEntry, Reply> {
        let mut entry = self.entry(
            game,
            &request.player,
            request.channel,
            meaning,
            &request.text,
        )?;
        entry.key.clone_from(&request.key);
        Ok(entry)
    }
}
