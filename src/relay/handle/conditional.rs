//! `IF`: a conditional line, kept on its player's node and never shown to the opponent (the
//! game plays it as the opponent's moves come).

use crate::command::NumberedMove;
use crate::game::{Action, Game, codes};
use crate::journal::Record;
use crate::journal::entry::Meaning;
use crate::notation::Notation;
use crate::relay::pending::Pending;
use crate::relay::render;
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::State;

pub(in crate::relay) async fn conditional(
    state: &mut State,
    request: &Request,
    game_id: &str,
    moves: &[NumberedMove],
) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let game = &state.games.by_id[game_id];
    let texts: Vec<_> = moves.iter().map(|m| (m.number, m.text.clone())).collect();
    let line = match game.read_conditional(color, &texts, state.people.lang_of(&request.player)) {
        Ok(line) => line,
        Err(refusal) => return state.refuse(request, game_id, refusal.into()).await,
    };
    let recorded = Meaning::Conditional {
        line: codes(game.board(), &line),
    };
    let entry = match state.recorder.request_entry(request, game_id, &recorded) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let (reply, said) = if line.is_empty() {
        (
            format!("conditional line cancelled {game_id}"),
            Said::LineCancelled,
        )
    } else {
        let notation = state
            .people
            .players
            .get(&request.player)
            .map_or(Notation::Iccf, |p| p.written_notation());
        (
            format!(
                "conditional line set {game_id}: {}",
                render::line_text(game, &line, notation)
            ),
            Said::LineSet {
                pairs: render::line_pairs(game, &line, notation),
            },
        )
    };
    let mut after = Game::clone(game);
    after.apply_by(color, &Action::Conditional(line), state.recorder.now);
    // Never shown to the opponent: no message, only the journal entry.
    state
        .commit(
            request,
            after,
            vec![Record {
                entry,
                outbox: vec![],
            }],
            reply,
        )
        .await
        .saying(said)
}
