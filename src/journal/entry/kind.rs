//! The kinds of entry the journal keeps, by the name each is stored under (`move`,
//! `refill`, ...): what [`super::Meaning`] encodes each meaning as, and what a reader asks of a
//! kind before decoding it (whether it belongs to a game's record, to the registry, or to
//! no game).

/// What an entry records.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    GameStart,
    Move,
    Rejected,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Result,
    Leave,
    Conditional,
    Claim,
    TimeUp,
    Reminder,
    Adjudication,
    /// A game stopped for the arbiter, and why (the other node's record of it does not apply
    /// here); each node's own, not part of the record the link carries.
    Stopped,
    /// Special leave the arbiter granted a player ([`crate::journal::entry::SpecialLeaveDetail`]).
    SpecialLeave,
    /// A message from a player to the opponent; changes no game.
    Message,
    /// The relay's first signing key (its public half in the text); changes no game.
    SigningKey,
    /// A new signing key, signed by the one before ([`crate::journal::signing::RotationDetail`]).
    KeyRotation,
    /// An action of a local player in a game another node orders (docs/link.md), sent to
    /// that node; it is in the game only once that node's record comes back with it. Its
    /// text is the action as a command; it changes no game.
    Proposal,
    /// A player registered while the relay runs ([`crate::journal::registry::PlayerRecord`]); no
    /// game.
    PlayerAdd,
    /// A registered player's details changed ([`crate::journal::registry::PlayerRecord`], whole);
    /// no game.
    PlayerSet,
    /// A player's secret changed (its hash is kept apart, never in the record); no game.
    PlayerSecret,
    /// An event made while the relay runs ([`crate::event::Event`]); no game.
    EventNew,
    /// Players entered in an event, in their order ([`crate::journal::registry::EnterDetail`]).
    EventEnter,
    /// The entrants' numbers drawn by lot, with the seed
    /// ([`crate::journal::registry::DrawDetail`]).
    EventDraw,
    /// An event's games all started: its `game_start` entries follow in the same commit.
    EventStart,
    /// A player withdrawn from an event ([`crate::journal::registry::WithdrawDetail`]): their
    /// unfinished games' results follow in the same commit.
    EventWithdraw,
    /// The administrator moved the manual clock (`CLOCK`, `[clock] mode = "manual"`): the
    /// entry's time is the clock's new time, so a restart never finds the clock earlier.
    ClockSet,
    /// Days a Triple Block side moved from its bank to its clock (`BANK`).
    Refill,
    /// A side declared ahead a reflection longer than the silence limit on its current or
    /// next move (`SILENCE g1 LONG`, ICCF's "Use 40+ reflection").
    LongReflection,
    /// A player's choice of mail when it is their move (`NOTIFY`, [`super::NotifyDetail`]);
    /// no game.
    Notify,
    /// A player's daily digest came due (`NOTIFY DIGEST`, [`super::DigestDetail`]): its mail
    /// waits in the outbox, so a restart neither loses it nor sends it twice; no game.
    NotifyDigest,
    /// A starting rating the arbiter gave a player (`PLAYER SET p RATING ...`,
    /// [`super::RatingDetail`]); no game.
    RatingSet,
    /// A knock-out's match level after both pairs of games, decided by lot
    /// ([`super::LotDetail`]: the seed, the players in the order shuffled, who goes on);
    /// no game.
    EventLot,
    /// A `[[remotes]]` account's standing with its server changed: failing for an hour,
    /// working again, paused on a refused login ([`super::RemoteStatusDetail`]); its player and
    /// the admin are told with it; no game.
    RemoteStatus,
}

impl EntryKind {
    /// Every kind with its name in the journal file.
    pub(in crate::journal) const NAMES: [(EntryKind, &'static str); 36] = [
        (EntryKind::GameStart, "game_start"),
        (EntryKind::Move, "move"),
        (EntryKind::Rejected, "rejected"),
        (EntryKind::DrawOffer, "draw_offer"),
        (EntryKind::DrawAccept, "draw_accept"),
        (EntryKind::DrawDecline, "draw_decline"),
        (EntryKind::Resign, "resign"),
        (EntryKind::Result, "result"),
        (EntryKind::Leave, "leave"),
        (EntryKind::Conditional, "conditional"),
        (EntryKind::Claim, "claim"),
        (EntryKind::TimeUp, "time_up"),
        (EntryKind::Reminder, "reminder"),
        (EntryKind::Adjudication, "adjudication"),
        (EntryKind::Message, "message"),
        (EntryKind::SigningKey, "signing_key"),
        (EntryKind::KeyRotation, "key_rotation"),
        (EntryKind::Proposal, "proposal"),
        (EntryKind::PlayerAdd, "player_add"),
        (EntryKind::PlayerSet, "player_set"),
        (EntryKind::PlayerSecret, "player_secret"),
        (EntryKind::EventNew, "event_new"),
        (EntryKind::EventEnter, "event_enter"),
        (EntryKind::EventDraw, "event_draw"),
        (EntryKind::EventStart, "event_start"),
        (EntryKind::EventWithdraw, "event_withdraw"),
        (EntryKind::ClockSet, "clock_set"),
        (EntryKind::Refill, "refill"),
        (EntryKind::LongReflection, "long_reflection"),
        (EntryKind::Notify, "notify"),
        (EntryKind::NotifyDigest, "notify_digest"),
        (EntryKind::RatingSet, "rating_set"),
        (EntryKind::SpecialLeave, "special_leave"),
        (EntryKind::Stopped, "stopped"),
        (EntryKind::EventLot, "event_lot"),
        (EntryKind::RemoteStatus, "remote_status"),
    ];

    pub fn as_str(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or("", |(_, name)| name)
    }

    /// The kinds of a game's official record, which both nodes of a link hold alike: the
    /// game's start and every action in it. Not: refused attempts, reminders and proposals
    /// (each node's own), conditional lines (private to their player's node), results (they
    /// follow from the entries before them), signing keys (no game). The order is the link's:
    /// it numbers them on the wire (docs/link.md), so a new kind goes at the end.
    pub const RECORD: [EntryKind; 14] = [
        EntryKind::GameStart,
        EntryKind::Move,
        EntryKind::DrawOffer,
        EntryKind::DrawAccept,
        EntryKind::DrawDecline,
        EntryKind::Resign,
        EntryKind::Claim,
        EntryKind::Leave,
        EntryKind::TimeUp,
        EntryKind::Adjudication,
        EntryKind::Message,
        EntryKind::Refill,
        EntryKind::LongReflection,
        EntryKind::SpecialLeave,
    ];

    /// Part of a game's official record ([`EntryKind::RECORD`]).
    pub fn is_record(self) -> bool {
        Self::RECORD.contains(&self)
    }

    /// Belongs to no game: the relay's signing keys, the manual clock's moves, the players
    /// and events registered while it runs, and the players' mail settings and digests (their
    /// entries have an empty game).
    pub fn is_gameless(self) -> bool {
        matches!(
            self,
            EntryKind::SigningKey
                | EntryKind::KeyRotation
                | EntryKind::ClockSet
                | EntryKind::PlayerAdd
                | EntryKind::PlayerSet
                | EntryKind::PlayerSecret
                | EntryKind::EventNew
                | EntryKind::EventEnter
                | EntryKind::EventDraw
                | EntryKind::EventStart
                | EntryKind::EventWithdraw
                | EntryKind::Notify
                | EntryKind::NotifyDigest
                | EntryKind::RatingSet
                | EntryKind::EventLot
                | EntryKind::RemoteStatus
        )
    }

    /// The entries that name the relay's signing key: its first, and each rotation.
    pub const KEYS: [EntryKind; 2] = [EntryKind::SigningKey, EntryKind::KeyRotation];

    /// A player's or an event's registration, or a player's mail setting or digest
    /// ([`crate::journal::registry`]).
    pub fn is_registry(self) -> bool {
        self.is_gameless() && !Self::KEYS.contains(&self) && self != EntryKind::ClockSet
    }

    pub fn parse(s: &str) -> Option<EntryKind> {
        Self::NAMES
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(kind, _)| *kind)
    }
}
