//! Starting a game (the admin's CREATE, or a game of the configuration at start-up).

use shakmaty::Color;

use crate::config::valid_id;
use crate::game::clock::{Leave, Rules};
use crate::journal::replay::GameStartDetail;
use crate::journal::{self, EntryKind, Record};

use super::notice::Notice;
use super::state::{State, notice_for};
use super::{Pending, Reply, Sender, Status};

impl State {
    /// [`State::create`], and the game's facts for the views (its event and round).
    pub(super) async fn start(
        &mut self,
        sender: &Sender,
        game_id: String,
        detail: GameStartDetail,
    ) -> Pending {
        let (event, round) = (detail.event.clone(), detail.round.clone());
        let pending = self.create(sender, game_id.clone(), detail).await;
        if matches!(&pending, Pending::AfterCommit(_, r) if r.status.is_success()) {
            self.note_start(&game_id, event, round);
        }
        pending
    }

    /// Starts a game; `detail` without rules: they come from its event.
    pub(super) async fn create(
        &mut self,
        sender: &Sender,
        game_id: String,
        detail: GameStartDetail,
    ) -> Pending {
        if !sender.admin {
            return Pending::Now(Reply::new(
                Status::Forbidden,
                "only the admin creates games",
            ));
        }
        let (white, black) = (detail.white.clone(), detail.black.clone());
        let (record, game) = match self.prepare_start(sender, &game_id, detail) {
            Ok(prepared) => prepared,
            Err(reply) => return Pending::Now(reply),
        };
        match self.enqueue(vec![record]).await {
            Ok(committed) => {
                self.games.insert(game_id.clone(), Box::new(game));
                Pending::AfterCommit(
                    committed,
                    Reply::new(
                        Status::Done,
                        format!("created {game_id}: {white} (White) - {black} (Black)"),
                    ),
                )
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    /// Checks a game's start and makes its `game_start` record (telling each player) and the
    /// game as it starts, changing nothing; `detail` without rules: they come from its event.
    pub(super) fn prepare_start(
        &self,
        sender: &Sender,
        game_id: &str,
        mut detail: GameStartDetail,
    ) -> Result<(Record, crate::game::Game), Reply> {
        if !valid_id(game_id) {
            return Err(Reply::new(
                Status::BadCommand,
                format!("{game_id:?} is not a game id (letters, digits, '-', '_', '.')"),
            ));
        }
        if self.games.contains_key(game_id) {
            return Err(Reply::new(
                Status::Refused,
                format!("game {game_id} exists already"),
            ));
        }
        let (white, black) = (detail.white.clone(), detail.black.clone());
        for player in [&white, &black] {
            if !self.players.contains_key(player) {
                return Err(Reply::new(
                    Status::NotFound,
                    format!("no player {player:?}"),
                ));
            }
        }
        if white == black {
            return Err(Reply::new(
                Status::BadCommand,
                "a player cannot play themself",
            ));
        }
        if let Some(super::role::Role::Replica { remote }) =
            self.role_of(&white, &black, detail.authority)
        {
            return Err(Reply::new(
                Status::Refused,
                format!(
                    "game {game_id} would be kept by the node of {remote}, across the link: create it there"
                ),
            ));
        }
        let rules = match &detail.event {
            None => Rules::default(),
            Some(id) => match self.events.get(id) {
                Some(event) => event.rules.clone(),
                None => {
                    return Err(Reply::new(Status::NotFound, format!("no event {id:?}")));
                }
            },
        };
        detail.rules = Some(rules);
        // Leave already announced covers a game started during it.
        let today = crate::game::clock::date_of(self.now);
        let current = |player: &str| -> Vec<Leave> {
            self.leave_of(player)
                .into_iter()
                .filter(|l| l.last() >= today)
                .collect()
        };
        detail.leave = [current(&white), current(&black)];
        let game = detail
            .game(game_id, self.now)
            .map_err(|e| Reply::new(Status::BadCommand, format!("bad FEN: {e}")))?;
        let mut entry = self.said_entry(sender, game_id, EntryKind::GameStart);
        entry.detail = journal::detail(&detail).map_err(|e| Reply::not_recorded(&e))?;
        let outbox = [
            (&white, Color::White, &black),
            (&black, Color::Black, &white),
        ]
        .into_iter()
        .map(|(player, color, opponent)| {
            let notice = Notice::GameStarted {
                game: game_id.to_owned(),
                side: color.into(),
                opponent: opponent.clone(),
            };
            notice_for(player, &notice)
        })
        .collect();
        Ok((Record { entry, outbox }, game))
    }
}
