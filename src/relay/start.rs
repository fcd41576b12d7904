//! The relay's state at start: the games the journal replayed, the players and events of the
//! configuration and of the record, the clock; and the configuration's games the journal does
//! not have yet, started (and journaled) before the relay takes its first request.

use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::Timestamp;

use crate::command::Command;
use crate::config::{Config, Reach};
use crate::event::Event;
use crate::journal::replay::GameStartDetail;
use crate::journal::{Journal, JournalError, Replayed};

use super::games::Games;
use super::handle::games::start;
use super::pending::Pending;
use super::people::People;
use super::recorder::{Clock, Recorder, whole_seconds};
use super::reply::Channel;
use super::request::{Request, Sender};
use super::roster::{Players, Roster};
use super::state::State;
use super::view::notes_of;
use crate::relay::link_role::LinkRole;

/// The state the relay starts with, the configuration's new games started in it.
pub(super) async fn state(
    config: &Config,
    journal: Journal,
    replayed: Replayed,
) -> Result<State, JournalError> {
    let clock = match config.clock.manual_start {
        // A manual clock never goes back before what the journal holds.
        Some(start) => Clock::Manual(start.max(replayed.last_time.unwrap_or(start))),
        None => Clock::System,
    };
    if matches!(clock, Clock::Manual(_)) {
        tracing::warn!("manual clock: time moves only by the admin's CLOCK command");
    }
    let (players, events) = known(config, &replayed);
    let people = People {
        anyone_across_link: !config.remotes.is_empty()
            || players.values().any(|p| matches!(p.reach, Reach::Link(_))),
        remotes: config.remotes.iter().map(|r| r.id.clone()).collect(),
        anyone_notified: players.values().any(|p| p.notify.is_some()),
        notice_links: config.http.as_ref().is_some_and(|h| h.public_url.is_some()),
        roster: Roster::new(players.clone()),
        players,
        events,
        registry: replayed.registry,
        can_mail: config.email.is_some(),
        can_radio: config.radio.iter().any(|r| r.aprs.is_some()),
        ratings: config.ratings,
    };
    let games = Games {
        server_clocks: Default::default(),
        rating_list: Default::default(),
        notes: notes_of(&replayed.games),
        ledgers: replayed
            .games
            .iter()
            .map(|(id, g)| (id.clone(), g.ledger))
            .collect(),
        by_id: replayed
            .games
            .into_iter()
            .map(|(id, g)| (id, Box::new(g.game)))
            .collect(),
    };
    let recorder = Recorder {
        journal,
        // Whole seconds, even after a journal written before times were.
        now: whole_seconds(
            clock
                .now()
                .max(replayed.last_time.unwrap_or(Timestamp::UNIX_EPOCH)),
        ),
        clock,
        moves_counted: Default::default(),
    };
    let mut state = State {
        games,
        people,
        recorder,
    };
    start_configured(&mut state, config).await?;
    Ok(state)
}

/// Starts the configuration's games the journal does not have yet, and waits until they are
/// committed.
async fn start_configured(state: &mut State, config: &Config) -> Result<(), JournalError> {
    let mut starts = Vec::new();
    for g in &config.games {
        if state.games.by_id.contains_key(&g.id) {
            continue;
        }
        // A game the other node of a link keeps starts here when its start arrives.
        if let Some(LinkRole::Replica { .. }) =
            state.people.role_of(&g.white, &g.black, g.authority)
        {
            continue;
        }
        let detail = GameStartDetail {
            kind: g.kind,
            white: g.white.clone(),
            black: g.black.clone(),
            event: g.event.clone(),
            fen: g.fen.clone(),
            rules: None,
            round: g.round.clone(),
            board: None,
            leave: Default::default(),
            authority: g.authority,
        };
        let sender = Sender {
            player: "admin".to_owned(),
            admin: true,
            channel: Channel::Config,
        };
        // Recorded without words: the configuration said it.
        let command = Command::Create {
            game: g.id.clone(),
            white: g.white.clone(),
            black: g.black.clone(),
            kind: Some(g.kind),
            event: g.event.clone(),
            fen: g.fen.clone(),
            round: g.round.clone(),
        };
        let request = Request::worded(sender, command, String::new());
        if let Pending::AfterCommit(committed, _) =
            start(state, &request, g.id.clone(), detail).await
        {
            starts.push(committed);
        }
    }
    // Queued together, the starts share commits.
    for committed in starts {
        committed.await.map_err(|_| JournalError::Stopped)??;
    }
    Ok(())
}

/// The players and events the relay starts with: the configuration's, then those the
/// journal registered while it ran (a configuration's player or event wins over a registered
/// one of the same id, and the log says so); a secret changed while the relay ran replaces the
/// configuration's.
fn known(config: &Config, replayed: &Replayed) -> (Arc<Players>, BTreeMap<String, Event>) {
    let mut players = config.players.clone();
    let mut events = config.events.clone();
    let credentials = &replayed.credentials.0;
    for (id, record) in &replayed.registry.players {
        if config.players.contains_key(id) {
            tracing::warn!(player = %id, "a player of the configuration was also registered while the relay ran; the configuration's entry is used");
            continue;
        }
        let Some(hash) = credentials.get(id) else {
            tracing::error!(player = %id, "a registered player has no secret hash in the journal; they cannot log in");
            continue;
        };
        let mut keys: Vec<(&str, &str)> = vec![
            ("name", &record.name),
            ("notation", &record.notation),
            ("reach", &record.reach),
        ];
        if let Some(lang) = &record.lang {
            keys.push(("lang", lang));
        }
        if let Some(email) = &record.email {
            keys.push(("email", email));
        }
        if let Some(callsign) = &record.callsign {
            keys.push(("callsign", callsign));
        }
        let width = record.aprs_width.map(|w| w.to_string());
        if let Some(width) = &width {
            keys.push(("aprs_width", width));
        }
        match crate::config::registered::player_from_keys(id, &keys, hash) {
            Ok(player) => {
                Arc::make_mut(&mut players).insert(id.clone(), player);
            }
            Err(e) => {
                tracing::error!(player = %id, error = %e, "a registered player no longer reads; left out")
            }
        }
    }
    for (id, hash) in credentials {
        if let Some(player) = config.players.get(id)
            && player.secret_hash != *hash
        {
            tracing::warn!(player = %id, "this player's secret was changed while the relay ran: the configuration's secret_hash is not used");
            if let Some(p) = Arc::make_mut(&mut players).get_mut(id) {
                p.secret_hash = hash.clone();
            }
        }
    }
    // Each player's mail when it is their move, as they last chose it.
    for (id, record) in &replayed.registry.notify {
        if let Some(p) = Arc::make_mut(&mut players).get_mut(id) {
            p.notify =
                (record.notify != crate::command::Notify::Off).then(|| record.notify.clone());
        }
    }
    for (id, record) in &replayed.registry.events {
        if events.contains_key(id) {
            tracing::warn!(event = %id, "an event of the configuration was also made while the relay ran; the configuration's is used");
            continue;
        }
        events.insert(id.clone(), record.event.clone());
    }
    (players, events)
}
