//! Draw offers: `OFFER DRAW`, `ACCEPT DRAW`, `DECLINE DRAW`, each a one-sided act on the game
//! told to the opponent (a resignation, `RESIGN` in `results.rs`, is one too, and goes
//! through the same [`act`]).

use crate::game::{Action, Game};
use crate::journal::entry::Meaning;
use crate::journal::notice::{DrawAct, Notice};
use crate::journal::{NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::State;

pub(in crate::relay) async fn act(
    state: &mut State,
    request: &Request,
    game_id: &str,
    action: Action,
) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let game = &state.games.by_id[game_id];
    if let Err(refusal) = game.check(color, &action, state.recorder.now) {
        return state.refuse(request, game_id, refusal.into()).await;
    }
    let meaning = Meaning::of_simple_action(&action).unwrap_or(Meaning::Resign);
    let opponent = game.player(!color).to_owned();
    let mut after = Game::clone(game);
    after.apply_by(color, &action, state.recorder.now);
    let said = match action {
        Action::OfferDraw => Said::DrawOffered,
        Action::AcceptDraw => Said::DrawAccepted,
        Action::DeclineDraw => Said::DrawDeclined,
        _ => Said::Resigned,
    };
    let (by, side, game) = (request.player.clone(), color.into(), game_id.to_owned());
    let notice = match action {
        Action::OfferDraw => Notice::Draw {
            game,
            by,
            side,
            act: DrawAct::Offered,
        },
        Action::AcceptDraw => Notice::Draw {
            game,
            by,
            side,
            act: DrawAct::Accepted,
        },
        Action::DeclineDraw => Notice::Draw {
            game,
            by,
            side,
            act: DrawAct::Declined,
        },
        _ => Notice::Resigned { game, by, side },
    };
    let entry = match state.recorder.request_entry(request, game_id, &meaning) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let records = vec![Record {
        entry,
        outbox: vec![NewOutbox::notice(&opponent, notice)],
    }];
    let reply = format!("{} {game_id}", meaning.kind().as_str().replace('_', " "));
    state
        .commit(request, after, records, reply)
        .await
        .saying(said)
}
