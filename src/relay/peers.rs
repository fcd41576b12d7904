//! Games with a player on another node, across a link.

use crate::journal::{EntryKind, Record};

use super::notice::Notice;
use super::state::{State, notice_for};
use super::{Channel, Pending, Reply, Sender, Status};

impl State {
    /// The other node refused an action this node accepted: the record says so, and the
    /// player hears it. Only a link may say this.
    pub(super) async fn peer_refused(
        &mut self,
        sender: &Sender,
        game_id: &str,
        number: u32,
        reason: &str,
    ) -> Pending {
        if sender.channel != Channel::Link {
            return Pending::Now(Reply::new(
                Status::Forbidden,
                "only a link reports refusals",
            ));
        }
        if let Err(reply) = self.seat(sender, game_id) {
            return Pending::Now(reply);
        }
        let mut entry = self.entry(
            game_id,
            &sender.player,
            sender.channel,
            EntryKind::Rejected,
            &format!("refused by the other node: action {number}"),
        );
        entry.detail = reason.to_owned();
        let notice = Notice::Refused {
            game: game_id.to_owned(),
            number,
            reason: reason.to_owned(),
        };
        let record = Record {
            entry,
            outbox: vec![notice_for(&sender.player, &notice)],
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => {
                Pending::AfterCommit(committed, Reply::new(Status::Done, "refusal recorded"))
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    /// Whether `player` plays on another node, across a link.
    pub(super) fn across_link(&self, player: &str) -> bool {
        self.players
            .get(player)
            .is_some_and(|p| matches!(p.reach, crate::config::Reach::Link(_)))
    }

    /// Refuses what the link does not carry yet in a game with a player across it: claims,
    /// leave and adjudication would be recorded on one node only.
    pub(super) fn refuse_if_linked(&self, game_id: &str, what: &str) -> Option<Pending> {
        let game = self.games.get(game_id)?;
        (self.across_link(&game.white) || self.across_link(&game.black)).then(|| {
            Pending::Now(Reply::new(
                Status::Refused,
                format!(
                    "{what} in game {game_id} is not carried over the link between nodes yet; the arbiters of both nodes decide"
                ),
            ))
        })
    }
}
