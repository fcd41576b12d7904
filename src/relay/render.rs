//! The texts the relay sends: game lines, the game view, pushes to the opponent.

use jiff::Timestamp;
use shakmaty::{Color, Move, Position};

use crate::game::clock::{TimeControl, days_hours};
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

/// The game move number of `color`'s `n`-th move (1-based) in `game`.
fn number_of_own_move(game: &Game, color: Color, n: u32) -> u32 {
    let start = game.start();
    let late = u32::from(start.turn() == Color::Black && color == Color::White);
    start.fullmoves().get() + n.saturating_sub(1) + late
}

/// Both sides' time, on one line: `clock: White 3d 04h used, 46d 20h left to move 10 | ...`.
/// `None` for a game without a time limit.
pub fn clock_line(game: &Game, now: Timestamp) -> Option<String> {
    let control = game.rules().time_control;
    if control == TimeControl::Unlimited {
        return None;
    }
    let sides: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .map(|color| {
            let t = game.side_time(color, now);
            let mut text = match control {
                TimeControl::DaysPerMove { .. } if !t.running => {
                    format!("{} waiting", ColorName(color))
                }
                TimeControl::DaysPerMove { .. } => format!(
                    "{} {} on this move, {} left",
                    ColorName(color),
                    days_hours(t.used),
                    days_hours(t.left.unwrap_or(0))
                ),
                _ => format!(
                    "{} {} used, {} left to move {}",
                    ColorName(color),
                    days_hours(t.used),
                    days_hours(t.left.unwrap_or(0)),
                    number_of_own_move(game, color, t.control_at.unwrap_or(0))
                ),
            };
            if t.on_leave {
                text.push_str(" (on leave)");
            } else if t.running {
                text.push_str(" (running)");
            }
            text
        })
        .collect();
    Some(format!("clock: {}", sides.join(" | ")))
}

/// A conditional line as its owner reads it: `if 12... Nf6 then 13. Bg5; if ...`.
pub fn line_text(game: &Game, line: &[Move], notation: Notation) -> String {
    let mut pos = game.position().clone();
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
                pos.fullmoves(),
                notation.write(&pos, *m)
            ));
            pos.play_unchecked(*m);
        }
        pairs.push(format!(
            "if {} then {}",
            texts[0],
            texts.get(1).map_or("", String::as_str)
        ));
    }
    pairs.join("; ")
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
    lines.push(format!("time control: {}", game.rules().time_control));
    lines.extend(clock_line(game, now));
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

/// The push carrying a player's message: `MSG g1 from boris (Black): Good luck!`.
pub fn message_push(game: &str, from: &str, side: ColorName, text: &str) -> String {
    format!("MSG {game} from {from} ({side}): {text}")
}
