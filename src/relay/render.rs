//! The texts the relay sends: game lines, the game view, pushes to the opponent.

use shakmaty::Color;

use crate::game::{ColorName, Game};
use crate::notation::Notation;

/// "your move" / "boris to move" / the result.
pub fn turn_note(game: &Game, viewer: &str) -> String {
    match game.result() {
        Some(result) => format!("game over: {result}"),
        None if game.player(game.turn()) == viewer => format!(
            "your move ({} {})",
            ColorName(game.turn()),
            game.move_number()
        ),
        None => format!(
            "{} to move ({} {})",
            game.player(game.turn()),
            ColorName(game.turn()),
            game.move_number()
        ),
    }
}

/// One line of `GAMES`.
pub fn game_line(game: &Game, viewer: &str) -> String {
    format!(
        "{} {} (White) - {} (Black), {} moves, {}",
        game.id,
        game.white,
        game.black,
        game.moves().len(),
        turn_note(game, viewer)
    )
}

/// The moves so far, numbered, in `notation`.
pub fn movetext(game: &Game, notation: Notation) -> String {
    let mut pos = game.start().clone();
    let mut out = String::new();
    for (i, m) in game.moves().iter().enumerate() {
        use shakmaty::Position;
        let number = pos.fullmoves();
        if pos.turn() == Color::White {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(&notation.write(&pos, *m));
        out.push(' ');
        pos.play_unchecked(*m);
    }
    if out.is_empty() {
        out.push_str("(no moves yet)");
    }
    out.trim_end().to_owned()
}

/// `SHOW`: players, diagram, moves in the viewer's notation, whose move.
pub fn show(game: &Game, notation: Notation) -> String {
    let mut lines = vec![format!(
        "game {}: {} (White) - {} (Black)",
        game.id, game.white, game.black
    )];
    lines.extend(game.diagram().lines().map(str::to_owned));
    lines.push(format!("moves: {}", movetext(game, notation)));
    if let Some(color) = game.draw_offer() {
        lines.push(format!("draw offered by {}", ColorName(color)));
    }
    lines.push(match game.result() {
        Some(result) => format!("result: {result}"),
        None => format!(
            "to move: {} ({}), move {}",
            ColorName(game.turn()),
            game.player(game.turn()),
            game.move_number()
        ),
    });
    lines.join("\n")
}

/// The push telling the opponent of a move: `MOVE g1 12... Nf6 (7866) by boris`.
pub fn move_push(
    after: &Game,
    mover: Color,
    number: u32,
    text: &str,
    iccf: &str,
    draw_offer: bool,
) -> String {
    let dots = if mover == Color::White { "." } else { "..." };
    let mut body = format!(
        "MOVE {} {number}{dots} {text} ({iccf}) by {}",
        after.id,
        after.player(mover)
    );
    if draw_offer {
        body.push_str(", draw offered");
    }
    body
}

/// A move in the reader's notation followed by its ICCF numeric form, unless that is the same.
pub fn with_numeric(text: &str, iccf: &str) -> String {
    if text == iccf {
        text.to_owned()
    } else {
        format!("{text} ({iccf})")
    }
}
