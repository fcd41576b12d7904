//! A game as the line protocol shows it: a line of `GAMES`, the moves so far, `SHOW`'s view,
//! a conditional line as its owner reads it, and the game as it stood right after a move (a
//! mail's view under its protocol line).

use jiff::Timestamp;
use shakmaty::Color;

use super::Audience;
use super::clock::{clocks, doubling_note};
use super::moves::numbered;
use crate::game::{Board, ColorName, EndReason, Game, Ply};
use crate::journal::notice::{Clocks, MoveNotice};
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
    moves_from(game.start(), game.moves(), notation)
}

/// `moves` played from `start`, numbered, in `notation`.
fn moves_from(start: &dyn Board, moves: &[Ply], notation: Notation) -> String {
    let mut pos = start.boxed();
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        let number = pos.move_number();
        if pos.turn() == Color::White {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(&pos.write(m, notation));
        out.push(' ');
        pos.play(m);
    }
    if out.is_empty() {
        out.push_str("(no moves yet)");
    }
    out.trim_end().to_owned()
}

/// A conditional line as its owner reads it: `if 12... Nf6 then 13. Bg5; if ...`.
pub fn line_text(game: &Game, line: &[Ply], notation: Notation) -> String {
    line_pairs(game, line, notation)
        .into_iter()
        .map(|(expected, answer)| format!("if {expected} then {answer}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A conditional line's moves in pairs, each numbered and written in `notation`: the
/// opponent's expected move and the owner's answer (`12... Nf6`, `13. Bg5`).
pub fn line_pairs(game: &Game, line: &[Ply], notation: Notation) -> Vec<(String, String)> {
    let mut pos = game.board().boxed();
    let mut pairs = Vec::new();
    for pair in line.chunks(2) {
        let mut texts = Vec::new();
        for m in pair {
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            texts.push(format!(
                "{}{dots} {}",
                pos.move_number(),
                pos.write(m, notation)
            ));
            pos.play(m);
        }
        let mut texts = texts.into_iter();
        pairs.push((
            texts.next().unwrap_or_default(),
            texts.next().unwrap_or_default(),
        ));
    }
    pairs
}

/// A remote game's clocks as its server gave them at its last poll:
/// `server clock at 2027-01-05T10:00:00Z: White 48d 23h 59m left, Black 50d 00h 00m left`.
pub fn server_clocks(clocks: &crate::relay::remote::ServerClocks) -> String {
    let left = |seconds: i64| {
        let minutes = seconds.max(0) / 60;
        format!(
            "{}d {:02}h {:02}m left",
            minutes / 1_440,
            minutes / 60 % 24,
            minutes % 60
        )
    };
    format!(
        "server clock at {}: White {}, Black {}",
        clocks.polled,
        left(clocks.left[0]),
        left(clocks.left[1])
    )
}

/// `SHOW`: players, diagram, moves in the viewer's notation, whose move, the clocks, leave,
/// and the viewer's own conditional line (never the opponent's).
pub fn show(game: &Game, notation: Notation, viewer: &str, now: Timestamp) -> String {
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
    lines.push(format!("time control: {}", game.rules().time_words()));
    if let Some(c) = Clocks::of(game, now) {
        lines.push(clocks(&c));
        lines.extend(doubling_note(&c));
    }
    for color in [Color::White, Color::Black] {
        for leave in game.timeline().leave_of(color) {
            lines.push(format!("leave: {} {leave}", ColorName(color)));
        }
    }
    if game.flagged() {
        lines.push(format!(
            "{} is past the time limit: the arbiter decides",
            ColorName(game.turn())
        ));
    }
    if let Some(color) = game.side_of(viewer) {
        let line = game.conditional(color);
        if !line.is_empty() {
            lines.push(format!(
                "your conditional line: {}",
                line_text(game, line, notation)
            ));
        }
    }
    lines.join("\n")
}

/// The game as it stood right after a move, for a reader who may read it much later: players,
/// diagram, the moves up to it (`history`: the starting position and the moves, the last one
/// this one, as the record has them), whose move it was, the clocks then. `None` if the
/// stored position no longer reads; without the moves if `history` does not end in it.
pub fn as_of(
    m: &MoveNotice,
    reader: &Audience,
    (white, black): (&str, &str),
    history: Option<(&dyn Board, &[Ply])>,
) -> Option<String> {
    let pos = m.mv.position_after()?;
    let mut lines = vec![format!(
        "game {}: {white} (White) - {black} (Black), as of {}",
        m.game,
        numbered(&m.mv, reader)
    )];
    lines.extend(pos.diagram().lines().map(str::to_owned));
    if let Some((start, moves)) = history {
        let mut end = start.boxed();
        for mv in moves {
            end.play(mv);
        }
        if end.fen() == pos.fen() {
            lines.push(format!(
                "moves: {}",
                moves_from(start, moves, reader.notation)
            ));
        }
    }
    if m.draw_offer {
        lines.push(format!("draw offered by {}", ColorName(m.mv.side.into())));
    }
    let turn = pos.turn();
    let to_move = if turn == Color::White { white } else { black };
    lines.push(match pos.outcome().map(|result| result.reason) {
        Some(EndReason::Checkmate) => format!("checkmate: {} wins", ColorName(!turn)),
        Some(EndReason::Stalemate) => "stalemate".to_owned(),
        Some(EndReason::NoMoves) => format!("no legal move: {} wins", ColorName(!turn)),
        Some(EndReason::DrawRule) => "drawn by the rules".to_owned(),
        _ => format!(
            "to move: {} ({to_move}), move {}",
            ColorName(turn),
            pos.move_number()
        ),
    });
    if let Some(c) = &m.clocks {
        lines.push(clocks(c));
        lines.extend(doubling_note(c));
    }
    Some(lines.join("\n"))
}
