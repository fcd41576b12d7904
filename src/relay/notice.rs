//! What the relay tells a player: the outbox's items, which the journal keeps typed
//! ([`crate::journal::notice`]), named here where the relay and the transports have always
//! found them.

pub use crate::journal::notice::*;

#[cfg(test)]
mod tests {
    use super::CONDITIONAL_CHANNEL;
    use crate::relay::Channel;

    /// A move played from a conditional line is told as one when it is read back from the
    /// record: the record names its channel as the relay does.
    #[test]
    fn the_record_names_a_lines_channel_as_the_relay_does() {
        assert_eq!(Channel::Conditional.as_str(), CONDITIONAL_CHANNEL);
    }
}
