//! A move read as the relay would read it, without playing it: the web page's move box shows
//! `Кg1—f3 (7163)` before the player sends it, or why it would be refused. The same checks
//! as a move (the player's seat, the game open, their turn, the move number, the move read in
//! their language or the languages their moves fit), nothing journaled and nothing changed.

use shakmaty::Color;

use crate::command::MoveLine;
use crate::notation::{Lang, Notation};
use crate::relay::render;
use crate::relay::reply::{Reply, Status};
use crate::relay::state::{Refused, State};

/// A move as the relay understood it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    /// The move number and side it would be.
    pub number: u32,
    pub color: Color,
    /// The move from square to square in the player's language, with its code:
    /// `Кg1—f3 (7163)`, `Ng1-f3 (7163)`, `c3-d4 (22-18)`.
    pub written: String,
    /// The move carries a draw offer (`(=)`).
    pub draw_offer: bool,
}

fn refused(refusal: crate::game::Refusal) -> Reply {
    Refused::from(refusal).reply()
}

/// `player`'s move `line` in `game_id` as it would be read now (see the module's
/// documentation); the refusing reply it would get otherwise.
pub(in crate::relay) fn preview(
    state: &mut State,
    player: &str,
    game_id: &str,
    line: &MoveLine,
) -> Result<Preview, Reply> {
    state.recorder.catch_up();
    let not_found = || Reply::new(Status::NotFound, format!("no game {game_id:?}"));
    let game = state.games.by_id.get(game_id).ok_or_else(not_found)?;
    let color = game.side_of(player).ok_or_else(not_found)?;
    let lang = state.people.lang_of(player);
    if let Some(repeat) = &line.repeat {
        game.check_repeat(repeat, lang).map_err(refused)?;
    }
    let read = game
        .check_move(color, &line.text, line.number, lang)
        .map_err(refused)?;
    let board = game.board();
    let letters = lang
        .or_else(
            || match state.people.players.get(player).map(|p| p.notation) {
                Some(Notation::San(l) | Notation::Lan(l)) => Some(l),
                _ => None,
            },
        )
        .unwrap_or(Lang::English);
    let long = board.write(&read.ply, Notation::Lan(letters));
    Ok(Preview {
        number: game.move_number(),
        color,
        written: render::with_numeric(&long, &board.code(&read.ply)),
        draw_offer: read.draw_offer || line.marks.draw_offer,
    })
}
