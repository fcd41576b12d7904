//! Applying the record the other node keeps: in a game whose record the other node of a link
//! keeps, every entry of that record arrives here in order ([`Replicated`]) and is journaled as
//! it stands there (same kind, player, move, detail and time), the game updated, and this
//! node's player told. Nothing is checked against this node's own ideas but the game itself:
//! an entry the game here cannot take means the two nodes disagree, which is logged and
//! refused, never papered over.

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::text::Logged;
use crate::game::{Action, Game};
use crate::journal::replay::{GameStartDetail, action_of};
use crate::journal::{Entry, EntryKind, NewEntry, Record};
use crate::notation::{Lang, Notation};

use super::asked::Asked;
use super::notice::{Clocks, DrawAct, MoveData, MoveNotice, Notice};
use super::role::Role;
use super::state::{State, notice_for};
use super::{Channel, Pending, Reply, Sender, Status};

/// Who made a record entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Side(Color),
    /// The arbiter or the configuration (a game's start, an adjudication).
    Arbiter,
}

/// One entry of a game's record, as the node that keeps the record sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replicated {
    pub game: String,
    /// Its place in the game's record, from 0 (the game's start): the low 8 bits. The relay
    /// takes the place nearest the record it holds that has them ([`nearest_number`]): the
    /// other node sends again at most a window of entries, so the nearest is the one meant.
    pub index: u8,
    pub kind: EntryKind,
    pub actor: Actor,
    /// When it was recorded there: seconds after the record's entry before it (for its
    /// first entry, the game's start: seconds since 1970).
    pub delta: u64,
    /// The move, in ICCF (a move, a claim with a move).
    pub iccf: Option<String>,
    pub detail: String,
}

/// The number with low 8 bits `low` nearest `count` (from `count - 128` to `count + 127`),
/// never below zero: what a record entry's index or an action's number is, given how many
/// the receiver holds.
pub fn nearest_number(low: u8, count: i64) -> i64 {
    let diff = i64::from(low.wrapping_sub(count as u8) as i8);
    let n = count + diff;
    if n < 0 { n + 256 } else { n }
}

impl State {
    /// Journals entry `r` of the record the other node keeps, if it is the next one.
    pub(super) async fn replicate(&mut self, r: Replicated) -> Pending {
        if !r.kind.is_record() {
            return Pending::Now(Reply::new(
                Status::BadCommand,
                format!("{} is not part of a game's record", r.kind.as_str()),
            ));
        }
        let held = self.ledgers.get(&r.game).map_or(0, |l| l.records);
        let index = nearest_number(r.index, i64::from(held));
        if index < i64::from(held) {
            return Pending::Now(Reply::new(
                Status::Seen,
                format!("entry {index} of game {}'s record is here already", r.game),
            ));
        }
        if index > i64::from(held) {
            tracing::error!(game = %Logged(&r.game), index, held, "the other node's record skips entries");
            return Pending::Now(Reply::new(
                Status::Refused,
                format!(
                    "entry {index} of game {}'s record comes after {held} entries here",
                    r.game
                ),
            ));
        }
        let base = match index {
            0 => Timestamp::UNIX_EPOCH,
            _ => self
                .ledgers
                .get(&r.game)
                .and_then(|l| l.last)
                .unwrap_or(Timestamp::UNIX_EPOCH),
        };
        let Some(time) = i64::try_from(r.delta)
            .ok()
            .and_then(|d| base.checked_add(jiff::SignedDuration::from_secs(d)).ok())
        else {
            return Pending::Now(Reply::new(Status::BadCommand, "a time out of range"));
        };
        if (r.kind == EntryKind::GameStart) != (index == 0) {
            return Pending::Now(Reply::new(
                Status::Refused,
                format!(
                    "entry {index} of game {}'s record: only the first is its start",
                    r.game
                ),
            ));
        }
        if r.kind == EntryKind::GameStart {
            return self.replicate_start(r, time).await;
        }
        match self.role(&r.game) {
            Some(Role::Replica { .. }) => {}
            _ => {
                return Pending::Now(Reply::new(
                    Status::Refused,
                    format!(
                        "this node keeps game {}'s record, or does not play it",
                        r.game
                    ),
                ));
            }
        }
        let game = &self.games[&r.game];
        let player = match r.actor {
            Actor::Side(color) => game.player(color).to_owned(),
            Actor::Arbiter => "admin".to_owned(),
        };
        let probe = Entry {
            seq: 0,
            time: time.to_string(),
            game: r.game.clone(),
            player: player.clone(),
            channel: Channel::Link.as_str().to_owned(),
            kind: r.kind,
            text: String::new(),
            iccf: r.iccf.clone(),
            san: None,
            detail: r.detail.clone(),
            hash: [0; 32],
        };
        let acted = action_of(&probe, game).and_then(|acted| {
            if let Some((color, action)) = &acted {
                game.check(*color, action, time)
                    .map_err(|e| crate::journal::JournalError::Corrupt(e.to_string()))?;
            }
            Ok(acted)
        });
        let acted = match acted {
            Ok(acted) => acted,
            Err(e) => {
                tracing::error!(game = %r.game, index, error = %e, "the other node's record does not apply here");
                return Pending::Now(Reply::new(
                    Status::Refused,
                    format!(
                        "entry {index} of game {}'s record does not apply here: {e}",
                        r.game
                    ),
                ));
            }
        };
        let mut entry = NewEntry::new(&r.game, &player, Channel::Link.as_str(), r.kind, "");
        entry.time = time;
        entry.iccf = r.iccf.clone();
        entry.detail = r.detail.clone();
        let mut after = Game::clone(game);
        let mut outbox = Vec::new();
        if let Some((color, action)) = &acted {
            if let Action::Move { m, .. } | Action::Claim { m: Some(m), .. } = action {
                entry.san = Some(game.board().write(m, Notation::San(Lang::English)));
            }
            after.apply_by(*color, action, time);
            outbox = self.told(game, &after, &r, time, *color, action, &player);
        } else if r.kind == EntryKind::Message {
            outbox = self.told_message(game, &r, &player);
        }
        entry.text = format!("from the other node: {}", r.kind.as_str().replace('_', " "));
        let mut records = vec![Record { entry, outbox }];
        if let Some((color, Action::Move { .. })) = &acted
            && let Some(answer) = self.line_answer(&r.game, &after, *color, time)
        {
            records.push(answer);
        }
        let asked = Asked::new(
            Sender {
                player,
                admin: r.actor == Actor::Arbiter,
                channel: Channel::Link,
            },
            String::new(),
        );
        // The entries this makes (a result that follows) carry the record's time.
        let now = std::mem::replace(&mut self.now, time);
        let pending = self
            .commit(&asked, after, records, "recorded".to_owned())
            .await;
        self.now = self.now.max(now);
        if r.kind == EntryKind::Message
            && !matches!(pending, Pending::Now(_))
            && let Some(color) = self
                .games
                .get(&r.game)
                .and_then(|g| g.side_of(&asked.player))
        {
            self.facts.entry(r.game.clone()).or_default().messages
                [usize::from(color == Color::Black)] = Some(r.detail.clone());
        }
        pending
    }

    /// The record's first entry: the game starts here as it started there.
    async fn replicate_start(&mut self, r: Replicated, time: Timestamp) -> Pending {
        let refuse = |why: String| {
            tracing::error!(game = %Logged(&r.game), why = %Logged(&why), "the other node's game start does not apply here");
            Pending::Now(Reply::new(Status::Refused, why))
        };
        if self.games.contains_key(&r.game) {
            return refuse(format!("game {} exists here already", r.game));
        }
        // A new game takes an id of the safe set here as where it was created.
        if !crate::config::valid_game_id(&r.game) {
            return refuse(format!(
                "{:?} is not a game id ({})",
                Logged(&r.game),
                crate::config::GAME_ID_RULE
            ));
        }
        let detail: GameStartDetail = match serde_json::from_str(&r.detail) {
            Ok(d) => d,
            Err(e) => return refuse(format!("game {}: start unreadable: {e}", r.game)),
        };
        for player in [&detail.white, &detail.black] {
            if !self.players.contains_key(player) {
                return refuse(format!("game {}: no player {player:?} here", r.game));
            }
        }
        if !matches!(
            self.role_of(&detail.white, &detail.black, detail.authority),
            Some(Role::Replica { .. })
        ) {
            return refuse(format!(
                "game {}: its players are not one here and one across the link whose node keeps it",
                r.game
            ));
        }
        let game = match detail.game(&r.game, time) {
            Ok(game) => game,
            Err(e) => return refuse(format!("game {}: {e}", r.game)),
        };
        let mut entry = NewEntry::new(&r.game, "admin", Channel::Link.as_str(), r.kind, "");
        entry.time = time;
        entry.detail = r.detail.clone();
        entry.text = "from the other node: game start".to_owned();
        let outbox = [Color::White, Color::Black]
            .into_iter()
            .map(|color| {
                let notice = Notice::GameStarted {
                    game: r.game.clone(),
                    side: color.into(),
                    opponent: game.player(!color).to_owned(),
                };
                notice_for(game.player(color), &notice)
            })
            .collect();
        match self.enqueue(vec![Record { entry, outbox }]).await {
            Ok(committed) => {
                let now = std::mem::replace(&mut self.now, time);
                self.note_start(&r.game, detail.event.clone(), detail.round.clone());
                self.now = now;
                self.games.insert(r.game.clone(), Box::new(game));
                Pending::AfterCommit(committed, Reply::new(Status::Done, "recorded"))
            }
            Err(reply) => Pending::Now(reply),
        }
    }

    #[allow(clippy::too_many_arguments)]
    /// What this node's player hears of record entry `r` (`color`'s `action`, by `player`):
    /// the opponent's action as any transport tells it, or their own, now in the record.
    fn told(
        &self,
        game: &Game,
        after: &Game,
        r: &Replicated,
        time: Timestamp,
        color: Color,
        action: &Action,
        player: &str,
    ) -> Vec<crate::journal::NewOutbox> {
        let id = r.game.clone();
        if r.actor == Actor::Arbiter {
            return Vec::new();
        }
        if let Action::TimeUp { overdue, forfeit } = action {
            // Both players hear of a time-out; here, the one who plays here.
            let notice = Notice::TimeUp {
                game: id,
                player: player.to_owned(),
                side: color.into(),
                overdue: *overdue,
                forfeit: *forfeit,
                clocks: Clocks::of(after, time),
            };
            let here = if self.across_link(player) {
                game.player(!color)
            } else {
                player
            };
            return vec![notice_for(here, &notice)];
        }
        let local_actor = !self.across_link(player);
        if local_actor {
            let what = match action {
                Action::Move { m, .. } => {
                    format!("your move {} is in the record", game.board().code(m))
                }
                _ => format!(
                    "your {} is in the record",
                    r.kind.as_str().replace('_', " ")
                ),
            };
            return vec![notice_for(player, &Notice::Recorded { game: id, what })];
        }
        let reader = game.player(!color).to_owned();
        let (by, side) = (player.to_owned(), color.into());
        let notice = match action {
            Action::Move { m, draw_offer } => Notice::Move(Box::new(MoveNotice {
                game: id,
                mover: by,
                mv: MoveData::of(game, m),
                draw_offer: *draw_offer,
                clocks: Clocks::of(after, time),
                from_line: false,
                cancels_line: false,
                history: Default::default(),
            })),
            Action::OfferDraw => Notice::Draw {
                game: id,
                by,
                side,
                act: DrawAct::Offered,
            },
            Action::AcceptDraw => Notice::Draw {
                game: id,
                by,
                side,
                act: DrawAct::Accepted,
            },
            Action::DeclineDraw => Notice::Draw {
                game: id,
                by,
                side,
                act: DrawAct::Declined,
            },
            Action::Resign => Notice::Resigned { game: id, by, side },
            Action::Claim { claim, m } => Notice::Claim {
                game: id,
                by,
                side,
                claim: claim.as_str().to_owned(),
                mv: m.as_ref().map(|m| Box::new(MoveData::of(game, m))),
            },
            Action::Leave(leave) => Notice::Leave {
                game: id,
                by,
                side,
                leave: *leave,
            },
            _ => return Vec::new(),
        };
        vec![notice_for(&reader, &notice)]
    }

    /// What this node's player hears of a message in the record.
    fn told_message(
        &self,
        game: &Game,
        r: &Replicated,
        player: &str,
    ) -> Vec<crate::journal::NewOutbox> {
        let Some(color) = game.side_of(player) else {
            return Vec::new();
        };
        if self.across_link(player) {
            let notice = Notice::Message {
                game: r.game.clone(),
                from: player.to_owned(),
                text: r.detail.clone(),
            };
            vec![notice_for(game.player(!color), &notice)]
        } else {
            let notice = Notice::Recorded {
                game: r.game.clone(),
                what: "your message is in the record".to_owned(),
            };
            vec![notice_for(player, &notice)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::nearest_number;

    #[test]
    fn numbers_are_rebuilt_from_their_low_bits() {
        for (low, count, want) in [
            (0u8, 0i64, 0i64),
            (5, 3, 5),
            (2, 3, 2),
            (255, 0, 255),
            (0, 255, 256),
            (254, 257, 254),
            (1, 300, 257),
            (44, 300, 300),
        ] {
            assert_eq!(nearest_number(low, count), want, "{low} near {count}");
        }
    }
}
