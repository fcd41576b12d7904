//! How a game ends by a player's or the arbiter's word: `RESIGN`, a draw claim (`CLAIM`), the
//! arbiter's adjudication (`ADJUDICATE`).

use crate::command::NumberedMove;
use crate::game::{Action, Claim, EndReason, Game, GameResult};
use crate::journal::entry::Meaning;
use crate::journal::notice::{MoveData, Notice};
use crate::journal::replay::AdjudicationDetail;
use crate::journal::{NewOutbox, Record};
use crate::notation::result::Score;
use crate::notation::{Lang, Notation};
use crate::relay::pending::Pending;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::State;

/// `RESIGN`: a one-sided act on the game, told to the opponent as a draw offer is.
pub(in crate::relay) async fn resign(
    state: &mut State,
    request: &Request,
    game_id: &str,
) -> Pending {
    crate::relay::handle::offers::act(state, request, game_id, Action::Resign).await
}

pub(in crate::relay) async fn claim(
    state: &mut State,
    request: &Request,
    game_id: &str,
    claim: Claim,
    with: Option<NumberedMove>,
) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let game = &state.games.by_id[game_id];
    let m = match with {
        None => None,
        Some(with) => {
            let lang = state.people.lang_of(&request.player);
            match game.check_move(color, &with.text, with.number, lang) {
                Ok(read) => Some(read.ply),
                Err(refusal) => return state.refuse(request, game_id, refusal.into()).await,
            }
        }
    };
    let action = Action::Claim {
        claim,
        m: m.clone(),
    };
    if let Err(refusal) = game.check(color, &action, state.recorder.now) {
        return state.refuse(request, game_id, refusal.into()).await;
    }
    let opponent = game.player(!color).to_owned();
    let mv = m.as_ref().map(|m| Box::new(MoveData::of(game, m)));
    let claimed = Meaning::Claim {
        claim,
        iccf: mv.as_ref().map(|mv| mv.iccf.clone()),
    };
    let mut entry = match state.recorder.request_entry(request, game_id, &claimed) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    entry.san = m
        .as_ref()
        .map(|m| game.board().write(m, Notation::San(Lang::English)));
    let notice = Notice::Claim {
        game: game_id.to_owned(),
        by: request.player.clone(),
        side: color.into(),
        claim: claim.as_str().to_owned(),
        mv,
    };
    let mut after = Game::clone(game);
    after.apply_by(color, &action, state.recorder.now);
    let records = vec![Record {
        entry,
        outbox: vec![NewOutbox::notice(&opponent, notice)],
    }];
    let reply = format!("claim accepted {game_id}");
    state
        .commit(request, after, records, reply)
        .await
        .saying(Said::Claimed { claim })
}

pub(in crate::relay) async fn adjudicate(
    state: &mut State,
    request: &Request,
    game_id: &str,
    score: Score,
    reason: &str,
) -> Pending {
    if !request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "only the arbiter (admin) adjudicates",
        ));
    }
    let Some(game) = state.games.by_id.get(game_id) else {
        return Pending::Now(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
    };
    let Some(winner) = score.winner() else {
        return Pending::Now(Reply::new(
            Status::BadCommand,
            "an adjudication decides the game: say 1-0, 0-1 or 1/2-1/2",
        ));
    };
    let mut decided = GameResult::new(winner, EndReason::Adjudication);
    decided.note = Some(reason.to_owned());
    let action = Action::Adjudicate(decided.clone());
    if let Err(refusal) = game.check(game.turn(), &action, state.recorder.now) {
        return Pending::Now(Reply::new(Status::Refused, refusal.to_string()));
    }
    let adjudicated = Meaning::Adjudication(AdjudicationDetail {
        result: decided.pgn().to_owned(),
        reason: reason.to_owned(),
        withdrawal: false,
    });
    let entry = match state.recorder.request_entry(request, game_id, &adjudicated) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let mut after = Game::clone(game);
    after.apply_by(game.turn(), &action, state.recorder.now);
    let record = Record {
        entry,
        outbox: vec![],
    };
    state
        .commit(
            request,
            after,
            vec![record],
            format!("adjudicated {game_id}"),
        )
        .await
}
