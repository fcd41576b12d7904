//! The people the relay knows: the players (the configuration's and those registered while it
//! runs), the events, the registry as the record holds it, and the roster every transport
//! reads.

pub(super) use crate::relay::link_role::LinkRole;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::config::{Event, Player, Players, Reach};
use crate::game::{Authority, Board, Ply};
use crate::notation::Lang;
use crate::relay::reply::{Reply, Status};

/// The players and events, and what the relay can do to reach them.
pub(super) struct People {
    pub(super) players: std::sync::Arc<Players>,
    /// Whether any player is reached across a link: without one, no game is played across a
    /// link, and asking costs nothing on the way of every move.
    pub(super) anyone_across_link: bool,
    /// The `[[remotes]]` ids: a player named `<remote>.<name>` plays on that remote server
    /// (`relay/remote.rs`), which keeps the record of their games as a linked node would.
    pub(super) remotes: Vec<String>,
    pub(super) events: BTreeMap<String, Event>,
    /// The players and events registered while the relay runs, as the record holds them.
    pub(super) registry: crate::journal::registry::Registry,
    /// The players as every transport sees them (published on each change to `players`).
    pub(super) roster: crate::relay::roster::Roster,
    /// Whether the relay sends mail (an `[email]` section): a player can be reached by mail.
    pub(super) can_mail: bool,
    /// Whether a radio port reads APRS messages (`aprs = true`): a player can be reached by
    /// radio.
    pub(super) can_radio: bool,
    /// Whether the relay has a public address for links (`[http] public_url`): a player can
    /// ask for a mail when it is their move, which links to the game.
    pub(super) notice_links: bool,
    /// Whether any player ever asked for a mail at each move since the start: without one,
    /// nothing is looked up on the way of every move.
    pub(super) anyone_notified: bool,
    /// The rules of the rating list (`[ratings]`).
    pub(super) ratings: crate::event::rating::RatingRules,
}

impl People {
    pub(super) fn lang_of(&self, player: &str) -> Option<Lang> {
        self.players.get(player).and_then(|p| p.lang)
    }

    /// `m` (from `pos`) as `player` reads moves.
    pub(super) fn written_for(&self, player: &str, pos: &dyn Board, m: &Ply) -> String {
        self.players
            .get(player)
            .map_or_else(|| pos.code(m), |p| pos.write(m, p.written_notation()))
    }

    /// Whether the relay can reach `player` the way they are to be reached.
    pub(super) fn reachable(&self, player: &Player) -> Result<(), Reply> {
        if player.reach == Reach::Email && !self.can_mail {
            return Err(Reply::new(
                Status::BadCommand,
                "this relay sends no mail (no [email] section): it cannot reach a player by email",
            ));
        }
        if player.reach == Reach::Radio && !self.can_radio {
            return Err(Reply::new(
                Status::BadCommand,
                "no [[radio]] port reads APRS messages (aprs = true): it cannot reach a player by radio",
            ));
        }
        if let Some(radio) = &player.radio
            && let Some(other) = self.players.values().find(|p| {
                p.id != player.id
                    && p.radio
                        .as_ref()
                        .is_some_and(|r| r.callsign == radio.callsign)
            })
        {
            return Err(Reply::new(
                Status::Refused,
                format!("{} is {}'s callsign", radio.callsign, other.id),
            ));
        }
        Ok(())
    }

    /// Makes `player` known (new or changed) here and to every transport.
    pub(super) fn put_player(&mut self, player: Player) {
        let id = player.id.clone();
        Arc::make_mut(&mut self.players).insert(id.clone(), player);
        self.roster.publish(self.players.clone(), &id);
    }

    /// This node's role in a game between `white` and `black` whose record `authority`'s
    /// node keeps; `None` unless exactly one of them plays across a link.
    pub(super) fn role_of(
        &self,
        white: &str,
        black: &str,
        authority: Authority,
    ) -> Option<LinkRole> {
        let (w, b) = (self.across_link(white), self.across_link(black));
        if w == b {
            return None;
        }
        let remote = if w { white } else { black }.to_owned();
        let keeper_is_remote = match authority {
            Authority::White => w,
            Authority::Black => b,
        };
        Some(if keeper_is_remote {
            LinkRole::Replica { remote }
        } else {
            LinkRole::Keeper { remote }
        })
    }

    /// Whether `player` plays on another node, across a link, or on a remote XFCC server.
    pub(super) fn across_link(&self, player: &str) -> bool {
        self.anyone_across_link
            && (self
                .players
                .get(player)
                .is_some_and(|p| matches!(p.reach, crate::config::Reach::Link(_)))
                || crate::relay::remote::remote_of(&self.remotes, player).is_some())
    }

    /// A player's name as configured, else their id.
    pub(super) fn player_name(&self, id: &str) -> String {
        self.players
            .get(id)
            .map(|p| p.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| id.to_owned())
    }
}
