//! A game on a remote XFCC server applied here as the bridge saw it ([`RemoteSeen`]): the
//! server keeps the record, as the node that keeps a linked game does (docs/link.md, "One
//! record"), so what it reports is journaled as record entries through the same door as a
//! linked node's ([`replicate`]): a new game started and announced, each move the server
//! lists beyond the local game's, the player's message the server took, the opponent's draw
//! offer and message, the server's result.
//! A move the local game cannot take, or a record there that is not this one's continued, is
//! a disagreement: logged, nothing guessed, the game stopped for the arbiter (a `stopped`
//! entry; the desk's decisions list it).

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::text::Logged;
use crate::journal::notice::Notice;
use crate::journal::replay::{AdjudicationDetail, DRAW_OFFER, GameStartDetail};
use crate::journal::{EntryKind, NewEntry, NewOutbox, Record};
use crate::relay::handle::replica::{replicate, stop_for_the_arbiter};
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::remote::{RemoteEnd, RemoteSeen, remote_of};
use crate::relay::replica::{Actor, Replicated};
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::state::State;

/// Applies what the server shows of one game; the answer of the last entry journaled (`Done`),
/// `Seen` when nothing was new, `Refused` on a disagreement.
pub(in crate::relay) async fn seen(state: &mut State, seen: RemoteSeen) -> Pending {
    if let Err(reply) = belongs(state, &seen) {
        return Pending::Now(reply);
    }
    let mut last = None;
    if !state.games.by_id.contains_key(&seen.game) {
        match start(state, &seen).await {
            Pending::Now(reply) => return Pending::Now(reply),
            started => last = Some(started),
        }
    }
    let held = match local_codes(state, &seen.game) {
        Some(codes) => codes,
        None => return Pending::Now(Reply::new(Status::NotFound, "no such game")),
    };
    if seen.moves.len() < held.len() || seen.moves[..held.len()] != held[..] {
        let why = disagreement(
            &seen,
            format!(
                "the server's moves are not this game's continued ({} there, {} here)",
                seen.moves.len(),
                held.len()
            ),
        );
        return stop_for_the_arbiter(state, &seen.game, why).await;
    }
    let new = &seen.moves[held.len()..];
    for (i, code) in new.iter().enumerate() {
        let Some(game) = state.games.by_id.get(&seen.game) else {
            break;
        };
        let mover = game.turn();
        let offers = i + 1 == new.len() && mover != seen.color && seen.opponent_offers_draw;
        let entry = entry_of(
            state,
            &seen.game,
            EntryKind::Move,
            Actor::Side(mover),
            Some(code.clone()),
            if offers { DRAW_OFFER } else { "" }.to_owned(),
        );
        match applied(state, &seen, entry).await {
            Ok(pending) => last = Some(pending),
            Err(reply) => return Pending::Now(reply),
        }
    }
    if let Some(text) = &seen.own_message {
        let entry = entry_of(
            state,
            &seen.game,
            EntryKind::Message,
            Actor::Side(seen.color),
            None,
            text.clone(),
        );
        match applied(state, &seen, entry).await {
            Ok(pending) => last = Some(pending),
            Err(reply) => return Pending::Now(reply),
        }
    }
    let them = !seen.color;
    let Some(game) = state.games.by_id.get(&seen.game) else {
        return Pending::Now(Reply::new(Status::NotFound, "no such game"));
    };
    if seen.end.is_none()
        && seen.opponent_offers_draw
        && game.result().is_none()
        && game.draw_offer() != Some(them)
    {
        let entry = entry_of(
            state,
            &seen.game,
            EntryKind::DrawOffer,
            Actor::Side(them),
            None,
            String::new(),
        );
        match applied(state, &seen, entry).await {
            Ok(pending) => last = Some(pending),
            Err(reply) => return Pending::Now(reply),
        }
    }
    if let Some(text) = &seen.opponent_message {
        let known = state
            .games
            .notes
            .get(&seen.game)
            .and_then(|n| n.messages[usize::from(them == Color::Black)].as_deref());
        if known != Some(text.as_str()) {
            let entry = entry_of(
                state,
                &seen.game,
                EntryKind::Message,
                Actor::Side(them),
                None,
                text.clone(),
            );
            match applied(state, &seen, entry).await {
                Ok(pending) => last = Some(pending),
                Err(reply) => return Pending::Now(reply),
            }
        }
    }
    if let Some(end) = &seen.end {
        match ended(state, &seen, end).await {
            Ok(Some(pending)) => last = Some(pending),
            Ok(None) => {}
            Err(reply) => return Pending::Now(reply),
        }
    }
    if let Some(clocks) = seen.server_clocks {
        state.games.server_clocks.insert(seen.game.clone(), clocks);
    }
    last.unwrap_or_else(|| Pending::Now(Reply::new(Status::Seen, "nothing new")))
}

/// Refused unless the game is the account's: its player a local one, its opponent an outside
/// player of that remote, and a game here of the same two if it exists.
fn belongs(state: &State, seen: &RemoteSeen) -> Result<(), Reply> {
    let refuse = |why: String| Err(Reply::new(Status::Refused, why));
    if remote_of(&state.people.remotes, &seen.opponent) != Some(seen.remote.as_str())
        || state.people.across_link(&seen.player)
        || !state.people.players.contains_key(&seen.player)
    {
        return refuse(format!(
            "game {}: not between a player here and one on remote {}",
            seen.game, seen.remote
        ));
    }
    if let Some(game) = state.games.by_id.get(&seen.game)
        && (game.player(seen.color) != seen.player || game.player(!seen.color) != seen.opponent)
    {
        return refuse(format!("game {} here has other players", seen.game));
    }
    Ok(())
}

/// The codes of the game's moves here, from its start.
fn local_codes(state: &State, game_id: &str) -> Option<Vec<String>> {
    let game = state.games.by_id.get(game_id)?;
    let mut pos = game.start().boxed();
    let mut codes = Vec::with_capacity(game.moves().len());
    for m in game.moves() {
        codes.push(pos.code(m));
        pos.play(m);
    }
    Some(codes)
}

/// A record entry of the server's, as the next entry of the game's record here, made now.
fn entry_of(
    state: &State,
    game: &str,
    kind: EntryKind,
    actor: Actor,
    iccf: Option<String>,
    detail: String,
) -> Replicated {
    let ledger = state.games.ledgers.get(game);
    let held = ledger.map_or(0, |l| l.records);
    let last = ledger.and_then(|l| l.last).unwrap_or(Timestamp::UNIX_EPOCH);
    let delta = state.recorder.now.as_second() - last.as_second();
    Replicated {
        game: game.to_owned(),
        index: held as u8,
        kind,
        actor,
        delta: u64::try_from(delta).unwrap_or(0),
        iccf,
        detail,
    }
}

/// Journals one entry of the server's record; a refusal is a disagreement.
async fn applied(
    state: &mut State,
    seen: &RemoteSeen,
    entry: Replicated,
) -> Result<Pending, Reply> {
    let kind = entry.kind;
    match replicate(state, entry).await {
        // Refused, or refused and the game stopped for the arbiter (its `stopped` entry
        // queued): nothing more of this poll is applied.
        Pending::Now(reply) | Pending::AfterCommit(_, reply) if !reply.status.is_success() => {
            Err(disagreement(
                seen,
                format!(
                    "the server's {} does not apply here: {}",
                    kind.as_str(),
                    reply.text
                ),
            ))
        }
        pending => Ok(pending),
    }
}

/// The game ended on the server: it ends here with the server's result (a draw agreed as an
/// acceptance of the offer standing here; any other end as the server's decision, recorded as
/// the arbiter's). An end that gives no score is left for the arbiter.
async fn ended(
    state: &mut State,
    seen: &RemoteSeen,
    end: &RemoteEnd,
) -> Result<Option<Pending>, Reply> {
    let Some(game) = state.games.by_id.get(&seen.game) else {
        return Ok(None);
    };
    if game.result().is_some() {
        return Ok(None);
    }
    let winner = match end {
        RemoteEnd::Scored(winner) => *winner,
        RemoteEnd::Unscored(word) => {
            tracing::warn!(game = %seen.game, result = %Logged(word), "the remote game ended without a score; the arbiter's to settle");
            return Ok(None);
        }
    };
    let entry = match (winner, game.draw_offer()) {
        (None, Some(offerer)) => entry_of(
            state,
            &seen.game,
            EntryKind::DrawAccept,
            Actor::Side(!offerer),
            None,
            String::new(),
        ),
        _ => {
            let result = match winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            };
            let detail = AdjudicationDetail {
                result: result.to_owned(),
                reason: format!("the result on remote server {}", seen.remote),
                withdrawal: false,
            };
            let detail = serde_json::to_string(&detail).unwrap_or_default();
            entry_of(
                state,
                &seen.game,
                EntryKind::Adjudication,
                Actor::Arbiter,
                None,
                detail,
            )
        }
    };
    applied(state, seen, entry).await.map(Some)
}

/// Logged as an error and refused: the game waits for the arbiter, nothing is guessed.
fn disagreement(seen: &RemoteSeen, why: String) -> Reply {
    tracing::error!(game = %seen.game, remote = %seen.remote, why = %Logged(&why), "the remote server's record and this one disagree; the game waits for the arbiter");
    Reply::new(Status::Refused, why)
}

/// A remote game new here: started as the server lists it (the remote keeps its record: the
/// opponent's side is the authority), announced to the local player.
async fn start(state: &mut State, seen: &RemoteSeen) -> Pending {
    let (white, black) = match seen.color {
        Color::White => (seen.player.clone(), seen.opponent.clone()),
        Color::Black => (seen.opponent.clone(), seen.player.clone()),
    };
    let authority = match seen.color {
        Color::White => crate::game::Authority::Black,
        Color::Black => crate::game::Authority::White,
    };
    let detail = GameStartDetail {
        kind: crate::game::Kind::Chess,
        white,
        black,
        event: seen.event.clone(),
        fen: seen.fen.clone(),
        rules: None,
        round: None,
        board: None,
        leave: Default::default(),
        authority,
    };
    if !matches!(
        state
            .people
            .role_of(&detail.white, &detail.black, detail.authority),
        Some(LinkRole::Replica { .. })
    ) {
        return Pending::Now(Reply::new(
            Status::Refused,
            format!("game {}: not a game the remote keeps", seen.game),
        ));
    }
    let now = state.recorder.now;
    let game = match detail.game(&seen.game, now) {
        Ok(game) => game,
        Err(e) => {
            return Pending::Now(disagreement(
                seen,
                format!("the game does not start here: {e}"),
            ));
        }
    };
    let text = match serde_json::to_string(&detail) {
        Ok(text) => text,
        Err(e) => return Pending::Now(Reply::new(Status::NotRecorded, e.to_string())),
    };
    let mut entry = NewEntry::new(
        &seen.game,
        "admin",
        Channel::Link.as_str(),
        EntryKind::GameStart,
        &format!("from remote server {}: game start", seen.remote),
    );
    entry.time = now;
    entry.detail = text;
    let notice = Notice::GameStarted {
        game: seen.game.clone(),
        side: seen.color.into(),
        opponent: seen.opponent.clone(),
    };
    let record = Record {
        entry,
        outbox: vec![NewOutbox::notice(&seen.player, notice)],
    };
    match state.enqueue(vec![record]).await {
        Ok(committed) => {
            state.note_start(&seen.game, seen.event.clone(), None);
            state.games.by_id.insert(seen.game.clone(), Box::new(game));
            Pending::AfterCommit(committed, Reply::new(Status::Done, "started"))
        }
        Err(reply) => Pending::Now(reply),
    }
}
