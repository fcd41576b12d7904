//! Every text a person reads from the relay: game lines, the game view, and each outbox item
//! ([`Notice`]) as its reader reads it. Transports render items through here (by way of
//! [`super::Mailbox::render`]) when they deliver them; nothing else formats what happened.

use jiff::Timestamp;
use shakmaty::{Color, Move, Position};

use crate::game::clock::days_hours;
use crate::game::{ColorName, Game};
use crate::notation::{Lang, Notation};

use super::notice::{ClockKind, Clocks, DrawAct, MoveData, MoveNotice, Notice, Side};

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
fn moves_from(start: &shakmaty::Chess, moves: &[Move], notation: Notation) -> String {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
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

/// Both sides' time, on one line: `clock: White 3d 04h used, 46d 20h left to move 10 | ...`.
/// `None` for a game without a time limit.
pub fn clock_line(game: &Game, now: Timestamp) -> Option<String> {
    Clocks::of(game, now).map(|c| clocks(&c))
}

/// [`clock_line`] from stored clocks.
pub fn clocks(clocks: &Clocks) -> String {
    let sides: Vec<String> = [Side::White, Side::Black]
        .into_iter()
        .map(|side| {
            let t = clocks.side(side);
            let name = ColorName(side.into());
            let mut text = match clocks.kind {
                ClockKind::DaysPerMove if !t.running => format!("{name} waiting"),
                ClockKind::DaysPerMove => format!(
                    "{name} {} on this move, {} left",
                    days_hours(t.used),
                    days_hours(t.left)
                ),
                ClockKind::MovesInDays => format!(
                    "{name} {} used, {} left to move {}",
                    days_hours(t.used),
                    days_hours(t.left),
                    t.by_move
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
    format!("clock: {}", sides.join(" | "))
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

/// A move in the reader's notation followed by its ICCF numeric form, unless that is the same.
pub fn with_numeric(text: &str, iccf: &str) -> String {
    if text == iccf {
        text.to_owned()
    } else {
        format!("{text} ({iccf})")
    }
}

/// Whom an outbox item is written for: the notation they read moves in, and their language.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub notation: Notation,
    pub lang: Option<Lang>,
}

impl Default for Reader {
    /// The administrator, or a player the configuration no longer has: ICCF numeric.
    fn default() -> Reader {
        Reader {
            notation: Notation::Iccf,
            lang: None,
        }
    }
}

fn dots(side: Side) -> &'static str {
    match side {
        Side::White => ".",
        Side::Black => "...",
    }
}

/// A move as `reader` writes it, numbered, with its ICCF numeric form if that differs:
/// `12... Nf6 (7866)`, `12... 7866`.
fn numbered(mv: &MoveData, reader: &Reader) -> String {
    let text = mv.decode().map_or_else(
        || mv.iccf.clone(),
        |(pos, m)| reader.notation.write(&pos, m),
    );
    format!(
        "{}{} {}",
        mv.number,
        dots(mv.side),
        with_numeric(&text, &mv.iccf)
    )
}

/// An item's line split as the protocol writes it: keyword, game, and the rest (which starts
/// with its own separator). `None` for a legacy item, which is only text.
fn parts<'a>(notice: &'a Notice, reader: &Reader) -> Option<(&'static str, &'a str, String)> {
    let with_clocks = |mut text: String, clocks: Option<&Clocks>| {
        if let Some(c) = clocks {
            text.push_str("; ");
            text.push_str(&self::clocks(c));
        }
        text
    };
    Some(match notice {
        Notice::GameStarted {
            game,
            side,
            opponent,
        } => (
            "GAME",
            game,
            format!(
                " started: you play {} against {opponent}",
                ColorName((*side).into())
            ),
        ),
        Notice::Move(m) => {
            let MoveNotice {
                game,
                mover,
                mv,
                draw_offer,
                clocks,
                cancels_line,
                ..
            } = m.as_ref();
            let mut text = format!(" {} by {mover}", numbered(mv, reader));
            if *draw_offer {
                text.push_str(", draw offered");
            }
            let mut text = with_clocks(text, clocks.as_ref());
            if *cancels_line {
                text.push_str("; your conditional line is cancelled");
            }
            ("MOVE", game, text)
        }
        Notice::LinePlayed { game, mv, left } => (
            "CONDITIONAL",
            game,
            format!(
                " {} played from your line; {left} pair(s) left in it",
                numbered(mv, reader)
            ),
        ),
        Notice::Draw {
            game,
            by,
            side,
            act,
        } => {
            let what = match act {
                DrawAct::Offered => "offered",
                DrawAct::Accepted => "accepted",
                DrawAct::Declined => "declined",
            };
            let side = ColorName((*side).into());
            ("DRAW", game, format!(" {what} by {by} ({side})"))
        }
        Notice::Resigned { game, by, side } => (
            "RESIGN",
            game,
            format!(" {by} ({}) resigns", ColorName((*side).into())),
        ),
        Notice::Claim {
            game,
            by,
            side,
            claim,
            mv,
        } => {
            let mut text = format!(
                " {by} ({}) claims a draw ({claim})",
                ColorName((*side).into())
            );
            if let Some(mv) = mv {
                text.push_str(&format!(" with {}", numbered(mv, reader)));
            }
            ("CLAIM", game, text)
        }
        Notice::Leave {
            game,
            by,
            side,
            leave,
        } => (
            "LEAVE",
            game,
            format!(
                " {by} ({}) is on leave {leave}: their clock stops",
                ColorName((*side).into())
            ),
        ),
        Notice::TimeUp {
            game,
            player,
            side,
            overdue,
            forfeit,
            clocks,
        } => {
            let verdict = if *forfeit {
                ", lost on time"
            } else {
                "; the arbiter decides"
            };
            // Always the separator, even without clocks: the text has always ended so.
            let clocks = clocks.as_ref().map(self::clocks).unwrap_or_default();
            (
                "TIME",
                game,
                format!(
                    " {player} ({}): {overdue}{verdict}; {clocks}",
                    ColorName((*side).into())
                ),
            )
        }
        Notice::Reminder {
            game,
            days,
            clocks,
        } => {
            let clocks = clocks.as_ref().map(self::clocks).unwrap_or_default();
            (
                "REMINDER",
                game,
                format!(": your move has waited {days} days; {clocks}"),
            )
        }
        Notice::Result { game, text, .. } => ("RESULT", game, format!(" {text}")),
        Notice::Refused {
            game,
            number,
            reason,
        } => (
            "REFUSED",
            game,
            format!(" the other node refused your action {number}: {reason}"),
        ),
        Notice::Message { game, from, text } => ("MSG", game, format!(" from {from}: {text}")),
        Notice::Legacy { .. } => return None,
    })
}

/// An outbox item as `reader` reads it, on one line of the line protocol:
/// `MOVE g1 12... Nf6 (7866) by boris; clock: ...`.
pub fn notice(notice: &Notice, reader: &Reader) -> String {
    match (parts(notice, reader), notice) {
        (Some((verb, game, rest)), _) => format!("{verb} {game}{rest}"),
        (None, Notice::Legacy { text }) => text.clone(),
        (None, _) => String::new(),
    }
}

/// A short summary of an item, without its game (a mail's subject names the game first):
/// `move 12... Nf6 (7866) by boris`.
pub fn summary(notice: &Notice, reader: &Reader) -> String {
    match (parts(notice, reader), notice) {
        (Some((verb, _, rest)), _) => {
            let rest = rest.trim_start_matches(':').trim_start();
            format!("{} {rest}", verb.to_lowercase())
        }
        (None, Notice::Legacy { text }) => text.clone(),
        (None, _) => String::new(),
    }
}

/// The game as it stood right after a move, for a reader who may read it much later: players,
/// diagram, the moves up to it, whose move it was, the clocks then. `None` if the stored
/// moves no longer read.
pub fn as_of(m: &MoveNotice, reader: &Reader) -> Option<String> {
    let (start, moves) = m.so_far.decode()?;
    let mut pos = start.clone();
    for mv in &moves {
        pos.play_unchecked(*mv);
    }
    let so_far = &m.so_far;
    let mut lines = vec![format!(
        "game {}: {} (White) - {} (Black), as of {}",
        m.game,
        so_far.white,
        so_far.black,
        numbered(&m.mv, reader)
    )];
    lines.extend(
        crate::game::diagram(pos.board())
            .lines()
            .map(str::to_owned),
    );
    lines.push(format!(
        "moves: {}",
        moves_from(&start, &moves, reader.notation)
    ));
    if m.draw_offer {
        lines.push(format!("draw offered by {}", ColorName(m.mv.side.into())));
    }
    let turn = pos.turn();
    let to_move = if turn == Color::White {
        &so_far.white
    } else {
        &so_far.black
    };
    lines.push(if pos.is_checkmate() {
        format!("checkmate: {} wins", ColorName(!turn))
    } else if pos.is_stalemate() {
        "stalemate".to_owned()
    } else {
        format!(
            "to move: {} ({to_move}), move {}",
            ColorName(turn),
            pos.fullmoves()
        )
    });
    lines.extend(m.clocks.as_ref().map(clocks));
    Some(lines.join("\n"))
}
