//! An entry of the record the other node keeps, applied here ([`Replicated`]): journaled as it
//! stands there, the game updated, and this node's player told.

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::text::Logged;
use crate::game::{Action, Game};
use crate::journal::entry::Meaning;
use crate::journal::notice::{Clocks, DrawAct, MoveData, MoveNotice, Notice};
use crate::journal::replay::{GameStartDetail, action_of};
use crate::journal::{Entry, EntryKind, NewEntry, NewOutbox, Record};
use crate::notation::{Lang, Notation};
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::replica::{Actor, Replicated, nearest_number};
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Sender;
use crate::relay::state::State;

/// Journals entry `r` of the record the other node keeps, if it is the next one.
pub(in crate::relay) async fn replicate(state: &mut State, r: Replicated) -> Pending {
    let (index, time) = match next_entry(state, &r) {
        Ok(next) => next,
        Err(reply) => return Pending::Now(reply),
    };
    if r.kind == EntryKind::GameStart {
        return replicate_start(state, r, time).await;
    }
    if let Err(reply) = kept_there(state, &r) {
        return Pending::Now(reply);
    }
    let game = &state.games.by_id[&r.game];
    let player = match r.actor {
        Actor::Side(color) => game.player(color).to_owned(),
        Actor::Arbiter => "admin".to_owned(),
    };
    let acted = match action_here(game, &r, index, time, &player) {
        Ok(acted) => acted,
        Err(reply) => return stop_for_the_arbiter(state, &r.game, reply).await,
    };
    let (after, records) = records_of(state, game, &r, &acted, time, &player);
    let by = Sender {
        player,
        admin: r.actor == Actor::Arbiter,
        channel: Channel::Link,
    };
    // The entries this makes (a result that follows) carry the record's time.
    let now = std::mem::replace(&mut state.recorder.now, time);
    let pending = state
        .commit(&by, after, records, "recorded".to_owned())
        .await;
    state.recorder.now = state.recorder.now.max(now);
    if r.kind == EntryKind::Message && !matches!(pending, Pending::Now(_)) {
        remember_message(state, &r, &by.player);
    }
    pending
}

/// The game whose two records disagree (`refused`: why the other node's or the remote server's
/// record does not apply here) stops for the arbiter: a `stopped` entry, the game stopped (nothing but the arbiter's
/// decision taken, no clock due), the arbiter's decisions listing it; the refusal goes back.
/// A game already over or stopped is left as it is.
pub(in crate::relay) async fn stop_for_the_arbiter(
    state: &mut State,
    id: &str,
    refused: Reply,
) -> Pending {
    let game = &state.games.by_id[id];
    if game.result().is_some() || game.stopped().is_some() {
        return Pending::Now(refused);
    }
    let meaning = Meaning::Stopped {
        reason: refused.text.clone(),
    };
    let text = "stopped for the arbiter: the record kept elsewhere does not apply here";
    let entry = match state
        .recorder
        .entry(id, "admin", Channel::Link, &meaning, text)
    {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let mut after = Game::clone(game);
    after.apply(&Action::Stop(refused.text.clone()), state.recorder.now);
    let by = Sender {
        player: "admin".to_owned(),
        admin: true,
        channel: Channel::Link,
    };
    let record = Record {
        entry,
        outbox: vec![],
    };
    match state.commit(&by, after, vec![record], String::new()).await {
        Pending::AfterCommit(committed, _) => Pending::AfterCommit(committed, refused),
        other => other,
    }
}

/// Where entry `r` falls in the record here: its number and its time, from the entry before
/// it. Refused unless it is an entry of a game's record and the next one here, the game's
/// start first and only first.
fn next_entry(state: &State, r: &Replicated) -> Result<(i64, Timestamp), Reply> {
    if !r.kind.is_record() {
        return Err(Reply::new(
            Status::BadCommand,
            format!("{} is not part of a game's record", r.kind.as_str()),
        ));
    }
    let held = state.games.ledgers.get(&r.game).map_or(0, |l| l.records);
    let index = nearest_number(r.index, i64::from(held));
    if index < i64::from(held) {
        return Err(Reply::new(
            Status::Seen,
            format!("entry {index} of game {}'s record is here already", r.game),
        ));
    }
    if index > i64::from(held) {
        tracing::error!(game = %Logged(&r.game), index, held, "the other node's record skips entries");
        return Err(Reply::new(
            Status::Refused,
            format!(
                "entry {index} of game {}'s record comes after {held} entries here",
                r.game
            ),
        ));
    }
    let base = match index {
        0 => Timestamp::UNIX_EPOCH,
        _ => state
            .games
            .ledgers
            .get(&r.game)
            .and_then(|l| l.last)
            .unwrap_or(Timestamp::UNIX_EPOCH),
    };
    let Some(time) = i64::try_from(r.delta)
        .ok()
        .and_then(|d| base.checked_add(jiff::SignedDuration::from_secs(d)).ok())
    else {
        return Err(Reply::new(Status::BadCommand, "a time out of range"));
    };
    if (r.kind == EntryKind::GameStart) != (index == 0) {
        return Err(Reply::new(
            Status::Refused,
            format!(
                "entry {index} of game {}'s record: only the first is its start",
                r.game
            ),
        ));
    }
    Ok((index, time))
}

/// Refused unless the other node keeps the record of `r`'s game, which this node plays.
fn kept_there(state: &State, r: &Replicated) -> Result<(), Reply> {
    match state.role(&r.game) {
        Some(LinkRole::Replica { .. }) => Ok(()),
        _ => Err(Reply::new(
            Status::Refused,
            format!(
                "this node keeps game {}'s record, or does not play it",
                r.game
            ),
        )),
    }
}

/// What entry `r` (number `index`, by `player`) does in `game`: a side's action, checked
/// against the game as it stands here, or nothing (a message). Refused if it does not apply.
fn action_here(
    game: &Game,
    r: &Replicated,
    index: i64,
    time: Timestamp,
    player: &str,
) -> Result<Option<(Color, Action)>, Reply> {
    let probe = Entry {
        seq: 0,
        time: time.to_string(),
        game: r.game.clone(),
        player: player.to_owned(),
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
    acted.map_err(|e| {
        tracing::error!(game = %r.game, index, error = %e, "the other node's record does not apply here");
        Reply::new(
            Status::Refused,
            format!(
                "entry {index} of game {}'s record does not apply here: {e}",
                r.game
            ),
        )
    })
}

/// Entry `r` as this node journals it, with what this node's player is told, and `game` after
/// it; then the answer a move draws from a conditional line here.
fn records_of(
    state: &State,
    game: &Game,
    r: &Replicated,
    acted: &Option<(Color, Action)>,
    time: Timestamp,
    player: &str,
) -> (Game, Vec<Record>) {
    let mut entry = NewEntry::new(&r.game, player, Channel::Link.as_str(), r.kind, "");
    entry.time = time;
    entry.iccf = r.iccf.clone();
    entry.detail = r.detail.clone();
    let mut after = Game::clone(game);
    let mut outbox = Vec::new();
    if let Some((color, action)) = acted {
        if let Action::Move { m, .. } | Action::Claim { m: Some(m), .. } = action {
            entry.san = Some(game.board().write(m, Notation::San(Lang::English)));
        }
        after.apply_by(*color, action, time);
        outbox = told(state, game, &after, r, time, *color, action, player);
    } else if r.kind == EntryKind::Message {
        outbox = told_message(state, game, r, player);
    }
    entry.text = format!("from the other node: {}", r.kind.as_str().replace('_', " "));
    let mut records = vec![Record { entry, outbox }];
    if let Some((color, Action::Move { .. })) = acted
        && let Some(answer) =
            crate::relay::handle::link::line_answer(state, &r.game, &after, *color, time)
    {
        records.push(answer);
    }
    (after, records)
}

/// A message in the record, kept in the game's notes as the last its sender sent in it.
fn remember_message(state: &mut State, r: &Replicated, sender: &str) {
    if let Some(color) = state
        .games
        .by_id
        .get(&r.game)
        .and_then(|g| g.side_of(sender))
    {
        state
            .games
            .notes
            .entry(r.game.clone())
            .or_default()
            .messages[usize::from(color == Color::Black)] = Some(r.detail.clone());
    }
}

/// The record's first entry: the game starts here as it started there.
async fn replicate_start(state: &mut State, r: Replicated, time: Timestamp) -> Pending {
    let refuse = |why: String| {
        tracing::error!(game = %Logged(&r.game), why = %Logged(&why), "the other node's game start does not apply here");
        Pending::Now(Reply::new(Status::Refused, why))
    };
    if state.games.by_id.contains_key(&r.game) {
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
        if !state.people.players.contains_key(player) {
            return refuse(format!("game {}: no player {player:?} here", r.game));
        }
    }
    if !matches!(
        state
            .people
            .role_of(&detail.white, &detail.black, detail.authority),
        Some(LinkRole::Replica { .. })
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
            NewOutbox::notice(game.player(color), notice)
        })
        .collect();
    match state.enqueue(vec![Record { entry, outbox }]).await {
        Ok(committed) => {
            let now = std::mem::replace(&mut state.recorder.now, time);
            state.note_start(&r.game, detail.event.clone(), detail.round.clone());
            state.recorder.now = now;
            state.games.by_id.insert(r.game.clone(), Box::new(game));
            Pending::AfterCommit(committed, Reply::new(Status::Done, "recorded"))
        }
        Err(reply) => Pending::Now(reply),
    }
}

#[allow(clippy::too_many_arguments)]
/// What this node's player hears of record entry `r` (`color`'s `action`, by `player`):
/// the opponent's action as any transport tells it, or their own, now in the record.
fn told(
    state: &State,
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
        let here = if state.people.across_link(player) {
            game.player(!color)
        } else {
            player
        };
        return vec![NewOutbox::notice(here, notice)];
    }
    let local_actor = !state.people.across_link(player);
    if local_actor {
        let (what, mv) = match action {
            Action::Move { m, .. } => (
                format!("your move {} is in the record", game.board().code(m)),
                Some(Box::new(MoveData::of(game, m))),
            ),
            _ => (
                format!(
                    "your {} is in the record",
                    r.kind.as_str().replace('_', " ")
                ),
                None,
            ),
        };
        return vec![NewOutbox::notice(
            player,
            Notice::Recorded { game: id, what, mv },
        )];
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
        Action::Refill { .. } | Action::LongReflection => {
            match crate::relay::handle::clock::own_clock_notice(&id, after, color, action, time) {
                Some(notice) => notice,
                None => return Vec::new(),
            }
        }
        _ => return Vec::new(),
    };
    vec![NewOutbox::notice(&reader, notice)]
}

/// What this node's player hears of a message in the record.
fn told_message(
    state: &State,
    game: &Game,
    r: &Replicated,
    player: &str,
) -> Vec<crate::journal::NewOutbox> {
    let Some(color) = game.side_of(player) else {
        return Vec::new();
    };
    if state.people.across_link(player) {
        let notice = Notice::Message {
            game: r.game.clone(),
            from: player.to_owned(),
            text: r.detail.clone(),
        };
        vec![NewOutbox::notice(game.player(!color), notice)]
    } else {
        let notice = Notice::Recorded {
            game: r.game.clone(),
            what: "your message is in the record".to_owned(),
            mv: None,
        };
        vec![NewOutbox::notice(player, notice)]
    }
}
