//! Players and events registered while the relay runs, as facts of the record: who was
//! registered or entered, when and by whom (the entry's time, player and channel), replayed
//! at every start like the games. Their entries belong to no game (an empty game id).
//!
//! No secret and no hash is ever in these entries: a player's secret hash travels with the
//! entry that sets it ([`super::NewEntry::credential`]) into a table of its own, outside the
//! chain, and exports never read that table.
//!
//! ```
//! use ccrelay::journal::registry::{PlayerRecord, Registry};
//! let record = PlayerRecord {
//!     id: "carol".into(),
//!     name: "Carol Ames".into(),
//!     notation: "san".into(),
//!     lang: None,
//!     reach: "tcp".into(),
//!     email: None,
//!     callsign: None,
//!     aprs_width: None,
//! };
//! let json = serde_json::to_string(&record).unwrap();
//! assert!(!json.contains("hash") && !json.contains("secret"));
//! let mut registry = Registry::default();
//! registry.add_player(record).unwrap();
//! assert!(registry.players.contains_key("carol"));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Entry;
use super::entry::Meaning;
use crate::event::Event;

/// The registry's entries' details, defined with every entry's meaning ([`super::entry`]) and
/// named here too, where the registry has always kept them.
pub use super::entry::{
    DigestDetail, DrawDetail, EnterDetail, LotDetail, NotifyDetail, PlayerRecord, RatingDetail,
    RemoteHealth, RemoteStatusDetail, SecretDetail, StartDetail, WithdrawDetail,
};
use crate::command::Notify;

/// A team of a match, its players in board order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub name: String,
    pub players: Vec<String>,
}

/// An event made while the relay runs, and what has happened to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    pub event: Event,
    /// A round robin's entrants in their numbers' order (drawn, if drawn).
    pub entrants: Vec<String>,
    /// A match's two teams (drawn: in the order drawn).
    pub teams: Vec<Team>,
    /// The draw by lot, if the relay made one.
    pub draw: Option<DrawDetail>,
    pub started: bool,
    /// Players withdrawn, with the reason, in order.
    pub withdrawn: Vec<(String, String)>,
    /// A knock-out's lots, in the record's order. Absent from snapshots written before
    /// knock-outs, which had none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lots: Vec<LotDetail>,
}

impl EventRecord {
    pub fn new(event: Event) -> EventRecord {
        EventRecord {
            event,
            entrants: Vec::new(),
            teams: Vec::new(),
            draw: None,
            started: false,
            withdrawn: Vec::new(),
            lots: Vec::new(),
        }
    }

    /// A knock-out's lots: who went on, by round and match.
    pub fn lot_winners(&self) -> BTreeMap<(u32, u32), String> {
        self.lots
            .iter()
            .map(|l| ((l.round, l.number), l.winner.clone()))
            .collect()
    }

    /// The players withdrawn after the start.
    pub fn withdrawn_players(&self) -> Vec<String> {
        self.withdrawn.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Records a knock-out's lot, checked: the event is a started knock-out, the match has
    /// no lot yet, and the seed gives the winner named (anyone can repeat it).
    pub fn apply_lot(&mut self, lot: LotDetail) -> Result<(), String> {
        if self.event.system != Some(crate::event::System::Knockout) || !self.started {
            return Err(format!("event {} is no started knock-out", self.event.id));
        }
        if self
            .lots
            .iter()
            .any(|l| (l.round, l.number) == (lot.round, lot.number))
        {
            return Err(format!(
                "round {} match {} of {} drawn by lot twice",
                lot.round, lot.number, self.event.id
            ));
        }
        let seed = hex::decode(&lot.seed).map_err(|e| format!("lot's seed: {e}"))?;
        let drawn = crate::event::knockout::lot_winner(&lot.players, &seed);
        if drawn != lot.winner {
            return Err(format!(
                "the lot's seed gives {drawn}, the record names {}",
                lot.winner
            ));
        }
        self.lots.push(lot);
        Ok(())
    }

    /// Everyone entered, in place order: a round robin's entrants, or a match's first team
    /// then its second, each in board order.
    pub fn places(&self) -> Vec<String> {
        if self.teams.is_empty() {
            self.entrants.clone()
        } else {
            self.teams
                .iter()
                .flat_map(|t| t.players.iter().cloned())
                .collect()
        }
    }

    /// How many entrants (a round robin: one number; a match: each team's).
    pub fn sizes(&self) -> Vec<usize> {
        if self.teams.is_empty() {
            vec![self.entrants.len()]
        } else {
            self.teams.iter().map(|t| t.players.len()).collect()
        }
    }

    /// Whether `player` is entered.
    pub fn has(&self, player: &str) -> bool {
        self.entrants.iter().any(|p| p == player)
            || self
                .teams
                .iter()
                .any(|t| t.players.iter().any(|p| p == player))
    }

    /// Enters `players` (in a match, into `team`, made if new).
    pub fn enter(&mut self, team: Option<&str>, players: &[String]) {
        match team {
            None => self.entrants.extend(players.iter().cloned()),
            Some(name) => match self.teams.iter_mut().find(|t| t.name == name) {
                Some(t) => t.players.extend(players.iter().cloned()),
                None => self.teams.push(Team {
                    name: name.to_owned(),
                    players: players.to_vec(),
                }),
            },
        }
    }

    /// Whether `player` has withdrawn (after the start).
    pub fn has_withdrawn(&self, player: &str) -> bool {
        self.withdrawn.iter().any(|(p, _)| p == player)
    }

    /// Withdraws `player`: before the start they are no longer entered (their number goes);
    /// after it they are listed as withdrawn (their unfinished games' results are entries of
    /// their own).
    pub fn withdraw(&mut self, player: &str, reason: &str) -> Result<(), String> {
        if !self.has(player) || self.has_withdrawn(player) {
            return Err(format!("{player} is not entered in {}", self.event.id));
        }
        if self.started {
            self.withdrawn.push((player.to_owned(), reason.to_owned()));
        } else {
            self.entrants.retain(|p| p != player);
            for team in &mut self.teams {
                team.players.retain(|p| p != player);
            }
        }
        Ok(())
    }

    /// Puts the entrants (a match: the teams) in the drawn order.
    pub fn apply_draw(&mut self, draw: DrawDetail) -> Result<(), String> {
        if self.teams.is_empty() {
            let mut drawn = draw.order.clone();
            let mut had = self.entrants.clone();
            drawn.sort();
            had.sort();
            if drawn != had {
                return Err("the draw's order is not the entrants".to_owned());
            }
            self.entrants = draw.order.clone();
        } else {
            let mut teams = Vec::new();
            for name in &draw.order {
                let team = self
                    .teams
                    .iter()
                    .find(|t| &t.name == name)
                    .ok_or_else(|| format!("the draw names no team {name:?}"))?;
                teams.push(team.clone());
            }
            if teams.len() != self.teams.len() {
                return Err("the draw's order is not the teams".to_owned());
            }
            self.teams = teams;
        }
        self.draw = Some(draw);
        Ok(())
    }
}

/// A player's choice of mail when it is their move, and when they made it (a digest is due
/// only at an hour after it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotifyRecord {
    pub notify: Notify,
    pub since: jiff::Timestamp,
}

/// Everything registered while the relay ran, as replayed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Registry {
    pub players: BTreeMap<String, PlayerRecord>,
    pub events: BTreeMap<String, EventRecord>,
    /// Each player's mail when it is their move, if they ever chose one (the configuration's
    /// players too: it is theirs to set, not the file's). Absent from snapshots written
    /// before it, which had none.
    #[serde(default)]
    pub notify: BTreeMap<String, NotifyRecord>,
    /// The hour each player's last digest came due for.
    #[serde(default)]
    pub digests: BTreeMap<String, jiff::Timestamp>,
    /// The starting ratings the arbiter gave, in the record's order, each with its entry's
    /// time (docs/ratings.md). Absent from snapshots written before them, which had none.
    #[serde(default)]
    pub ratings: Vec<(RatingDetail, jiff::Timestamp)>,
    /// Each `[[remotes]]` account's last standing told (absent from snapshots written before
    /// remote accounts, which had none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub remotes: BTreeMap<String, RemoteStatusDetail>,
}

impl Registry {
    pub fn add_player(&mut self, record: PlayerRecord) -> Result<(), String> {
        if self.players.contains_key(&record.id) {
            return Err(format!("player {} registered twice", record.id));
        }
        self.players.insert(record.id.clone(), record);
        Ok(())
    }

    /// Applies a registry entry ([`crate::journal::EntryKind::is_registry`]); an error says why the record
    /// could not have been written by the relay.
    pub fn apply(&mut self, e: &Entry) -> Result<(), String> {
        match Meaning::decode(e.kind, e.iccf.as_deref(), &e.detail)? {
            Meaning::PlayerAdd(record) => self.add_player(record),
            Meaning::PlayerSet(record) => match self.players.get_mut(&record.id) {
                Some(p) => {
                    *p = record;
                    Ok(())
                }
                None => Err(format!("player {} changed before registered", record.id)),
            },
            // The secret itself is not in the record; the player may be one of the
            // configuration's, which the record does not know.
            Meaning::PlayerSecret(_) => Ok(()),
            Meaning::EventNew(event) => {
                if self.events.contains_key(&event.id) {
                    return Err(format!("event {} made twice", event.id));
                }
                self.events
                    .insert(event.id.clone(), EventRecord::new(*event));
                Ok(())
            }
            Meaning::EventEnter(d) => {
                let event = self.started_or_not(&d.event, false)?;
                event.enter(d.team.as_deref(), &d.players);
                Ok(())
            }
            Meaning::EventDraw(d) => {
                let event = self.started_or_not(&d.event, false)?;
                event.apply_draw(d)
            }
            Meaning::EventStart(d) => {
                let event = self.started_or_not(&d.event, false)?;
                event.started = true;
                Ok(())
            }
            Meaning::EventWithdraw(d) => {
                let event = self
                    .events
                    .get_mut(&d.event)
                    .ok_or_else(|| format!("no event {}", d.event))?;
                event.withdraw(&d.player, &d.reason)
            }
            // The player may be one of the configuration's, which the record does not know.
            Meaning::Notify(d) => {
                let since = e
                    .time
                    .parse()
                    .map_err(|err| format!("notify entry's time: {err}"))?;
                self.notify.insert(
                    d.player,
                    NotifyRecord {
                        notify: d.notify,
                        since,
                    },
                );
                Ok(())
            }
            Meaning::NotifyDigest(d) => {
                if self
                    .digests
                    .get(&d.player)
                    .is_some_and(|last| *last >= d.due)
                {
                    return Err(format!("{}'s digest due at {} twice", d.player, d.due));
                }
                self.digests.insert(d.player, d.due);
                Ok(())
            }
            Meaning::EventLot(d) => self
                .events
                .get_mut(&d.event)
                .ok_or_else(|| format!("no event {}", d.event))?
                .apply_lot(d),
            // The player may be one of the configuration's, which the record does not know.
            Meaning::RatingSet(d) => {
                let at = e
                    .time
                    .parse()
                    .map_err(|err| format!("rating entry's time: {err}"))?;
                self.ratings.push((d, at));
                Ok(())
            }
            // The account may be gone from the configuration since: its standing is kept.
            Meaning::RemoteStatus(d) => {
                self.remotes.insert(d.remote.clone(), d);
                Ok(())
            }
            other => Err(format!("{} is no registry entry", other.kind().as_str())),
        }
    }

    /// The event, which must (`started`) or must not have started.
    fn started_or_not(&mut self, id: &str, started: bool) -> Result<&mut EventRecord, String> {
        let event = self
            .events
            .get_mut(id)
            .ok_or_else(|| format!("no event {id}"))?;
        if event.started != started {
            return Err(if started {
                format!("event {id} has not started")
            } else {
                format!("event {id} has started already")
            });
        }
        Ok(event)
    }
}
