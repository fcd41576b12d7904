//! The relay's counters of moves for `/metrics` (`ccrelay_moves_total`), each registered once:
//! registering one builds and looks up its key, several times the cost of counting, and a move
//! is counted every time.

use super::reply::Channel;

/// `ccrelay_moves_total` by the channel a move came by and whether it was accepted.
#[derive(Default)]
pub(super) struct MoveCounters(Vec<MoveCounter>);

struct MoveCounter {
    channel: Channel,
    accepted: bool,
    counter: metrics::Counter,
}

impl MoveCounters {
    /// Counts a player's move by the channel it came by and whether it was accepted.
    pub(super) fn count(&mut self, channel: Channel, accepted: bool) {
        if let Some(known) = self
            .0
            .iter()
            .find(|c| c.channel == channel && c.accepted == accepted)
        {
            known.counter.increment(1);
            return;
        }
        let counter = metrics::counter!(
            "ccrelay_moves_total",
            "channel" => channel.as_str(),
            "outcome" => if accepted { "accepted" } else { "refused" }
        );
        counter.increment(1);
        self.0.push(MoveCounter {
            channel,
            accepted,
            counter,
        });
    }
}
