//! Every text a person reads from the relay: game lines, the game view, and each outbox item
//! ([`Notice`]) as its reader reads it on the line protocol. Transports render items through
//! here (by way of [`super::Mailbox::render`]) when they deliver them; a mail's own words
//! (its summary, what it adds) are `super::summary`'s, from the catalog.

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::text;
use crate::game::clock::DAY;
use crate::game::days_hours::DaysHours;
use crate::game::{Board, ColorName, EndReason, Game, Ply};
use crate::notation::{Lang, Notation};

use crate::journal::notice::{ClockKind, Clocks, DrawAct, MoveData, MoveNotice, Notice, Side};

/// The most characters of a person's text (a message, a reason, a result's note) a reader is
/// shown in one item: more than the one check lets in, so only texts that never passed it (a
/// record written before it, the other node's record) are ever cut.
const SHOWN_CHARS: usize = 1000;

/// A person's text as a reader is shown it: checked texts as they are; any other made fit by
/// [`text::scrub`], so no text on record, however old or wherever from, reaches a terminal
/// or a mail raw.
pub(super) fn shown(said: &str) -> String {
    text::scrub(said, SHOWN_CHARS)
}

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

/// Both sides' time, on one line: `clock: White 3d 04h used, 46d 20h left to move 10 | ...`.
/// `None` for a game without a time limit.
pub fn clock_line(game: &Game, now: Timestamp) -> Option<String> {
    Clocks::of(game, now).map(|c| clocks(&c))
}

/// [`clock_line`] from stored clocks.
pub fn clocks(clocks: &Clocks) -> String {
    let mut text = String::with_capacity(120);
    push_clocks(&mut text, clocks);
    text
}

/// Appends [`clocks`]'s line to `text`: a clock line goes with every move pushed and every
/// reply, written into the line it ends. Each side by its control:
///
/// - moves in days: `White 3d 04h used, 46d 20h left to move 10`;
/// - days per move: `White 2d 03h on this move, 0d 21h left`, or `White waiting`;
/// - Fischer days: `White 12d 03h used, 21d 04h left` (the clock; no control move);
/// - Triple Block: `White clock 41d 02h, bank 75d` (the clock, then the bank);
///
/// with `, charged 26d` after the time used when the control charged otherwise (whole days,
/// ICCF's doubling), and ` (running)` or ` (on leave)`.
pub fn push_clocks(text: &mut String, clocks: &Clocks) {
    text.push_str("clock: ");
    for side in [Side::White, Side::Black] {
        if side == Side::Black {
            text.push_str(" | ");
        }
        let t = clocks.side(side);
        text.push_str(ColorName(side.into()).as_str());
        let (used, left) = (DaysHours(t.used), DaysHours(t.left));
        let charged = |text: &mut String| {
            if let Some(charged) = t.charged {
                text.push_str(", charged ");
                push_days(text, charged);
            }
        };
        // Appended, not formatted: `White 3d 04h used, 46d 20h left to move 10`.
        match clocks.kind {
            ClockKind::DaysPerMove if !t.running => text.push_str(" waiting"),
            ClockKind::DaysPerMove => {
                text.push(' ');
                used.push_to(text);
                text.push_str(" on this move");
                charged(text);
                text.push_str(", ");
                left.push_to(text);
                text.push_str(" left");
            }
            ClockKind::MovesInDays | ClockKind::Fischer => {
                text.push(' ');
                used.push_to(text);
                text.push_str(" used");
                charged(text);
                text.push_str(", ");
                left.push_to(text);
                text.push_str(" left");
                if clocks.kind == ClockKind::MovesInDays {
                    text.push_str(" to move ");
                    text.push_str(itoa::Buffer::new().format(t.by_move));
                }
            }
            ClockKind::TripleBlock => {
                text.push_str(" clock ");
                left.push_to(text);
                text.push_str(", bank ");
                push_days(text, t.bank.unwrap_or(0));
            }
        }
        if t.on_leave {
            text.push_str(" (on leave)");
        } else if t.running {
            text.push_str(" (running)");
        }
    }
}

/// Appends days as a charge or a bank holds them: `26d` when whole, else `26d 04h`.
fn push_days(text: &mut String, seconds: i64) {
    if seconds % DAY == 0 {
        text.push_str(itoa::Buffer::new().format(seconds / DAY));
        text.push('d');
    } else {
        DaysHours(seconds).push_to(text);
    }
}

/// `21st`, `22nd`, `23rd`, `24th`, `111th`: a day's number as English writes it.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What the side whose clock runs is told once its days on this move count double:
/// `White: 21st day on this move, days now count double`; `None` before then.
pub fn doubling_note(clocks: &Clocks) -> Option<String> {
    [Side::White, Side::Black].into_iter().find_map(|side| {
        clocks.doubling_day(side).map(|day| {
            format!(
                "{}: {} day on this move, days now count double",
                ColorName(side.into()),
                ordinal(day)
            )
        })
    })
}

/// [`push_clocks_and_note`]'s text.
pub fn clocks_and_note(clocks: &Clocks) -> String {
    let mut text = String::with_capacity(160);
    push_clocks_and_note(&mut text, clocks);
    text
}

/// Appends the clock line and, once the running side's days count double, its note after
/// `; `: what a push carries.
pub fn push_clocks_and_note(text: &mut String, clocks: &Clocks) {
    push_clocks(text, clocks);
    if let Some(note) = doubling_note(clocks) {
        text.push_str("; ");
        text.push_str(&note);
    }
}

/// A conditional line as its owner reads it: `if 12... Nf6 then 13. Bg5; if ...`.
pub fn line_text(game: &Game, line: &[Ply], notation: Notation) -> String {
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

/// A move in the reader's notation followed by its ICCF numeric form, unless that is the same.
pub fn with_numeric(text: &str, iccf: &str) -> String {
    let mut out = String::with_capacity(text.len() + iccf.len() + 3);
    push_with_numeric(&mut out, text, iccf);
    out
}

/// Appends [`with_numeric`]'s text to `out`.
pub fn push_with_numeric(out: &mut String, text: &str, iccf: &str) {
    out.push_str(text);
    if text != iccf {
        out.push_str(" (");
        out.push_str(iccf);
        out.push(')');
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
pub(super) fn numbered(mv: &MoveData, reader: &Reader) -> String {
    let mut text = String::with_capacity(32);
    push_numbered(&mut text, mv, reader);
    text
}

/// Appends [`numbered`]'s text to `out`, without the formatter (a move's push writes it).
fn push_numbered(out: &mut String, mv: &MoveData, reader: &Reader) {
    let text = mv.write(reader.notation);
    let text = text.as_deref().unwrap_or(&mv.iccf);
    out.push_str(itoa::Buffer::new().format(mv.number));
    out.push_str(dots(mv.side));
    out.push(' ');
    push_with_numeric(out, text, &mv.iccf);
}

/// An item's line split as the protocol writes it: keyword, game, and the rest (which starts
/// with its own separator). `None` for a legacy item, which is only text.
fn parts<'a>(notice: &'a Notice, reader: &Reader) -> Option<(&'static str, &'a str, String)> {
    let with_clocks = |mut text: String, clocks: Option<&Clocks>| {
        if let Some(c) = clocks {
            text.push_str("; ");
            push_clocks_and_note(&mut text, c);
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
            let mut text = String::with_capacity(192);
            text.push(' ');
            push_numbered(&mut text, mv, reader);
            text.push_str(" by ");
            text.push_str(mover);
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
            let clocks = clocks.as_ref().map(clocks_and_note).unwrap_or_default();
            (
                "TIME",
                game,
                format!(
                    " {player} ({}): {overdue}{verdict}; {clocks}",
                    ColorName((*side).into())
                ),
            )
        }
        Notice::Reminder { game, days, clocks } => {
            let clocks = clocks.as_ref().map(clocks_and_note).unwrap_or_default();
            (
                "REMINDER",
                game,
                format!(": your move has waited {days} days; {clocks}"),
            )
        }
        Notice::Result { game, text, .. } => ("RESULT", game, format!(" {}", shown(text))),
        Notice::Refused {
            game,
            number,
            reason,
        } => (
            "REFUSED",
            game,
            format!(
                " the other node refused your action {number}: {}",
                shown(reason)
            ),
        ),
        Notice::Message { game, from, text } => {
            ("MSG", game, format!(" from {from}: {}", shown(text)))
        }
        Notice::Recorded { game, what } => ("RECORDED", game, format!(" {what}")),
        Notice::Welcome {
            player,
            name,
            notation,
            ..
        } => (
            "WELCOME",
            player,
            format!(
                " {}: you are registered; moves are written to you in {notation}",
                shown(name)
            ),
        ),
        Notice::EventStarted { event, name, games } => {
            let list: Vec<String> = games
                .iter()
                .map(|g| {
                    format!(
                        "{} ({} against {})",
                        g.game,
                        ColorName(g.side.into()),
                        g.opponent
                    )
                })
                .collect();
            (
                "EVENT",
                event,
                format!(
                    " {} started: your {} game(s): {}",
                    shown(name),
                    games.len(),
                    list.join(", ")
                ),
            )
        }
        Notice::Withdrawn {
            event,
            player,
            reason,
        } => (
            "WITHDRAWN",
            event,
            format!(
                " {player} withdrew ({}): their unfinished games are lost",
                shown(reason)
            ),
        ),
        // Not the line's: only a link, or the notice mails, read these.
        Notice::Legacy { .. }
        | Notice::Record { .. }
        | Notice::Proposal { .. }
        | Notice::YourMove { .. }
        | Notice::Digest { .. } => return None,
    })
}

/// An outbox item as `reader` reads it, on one line of the line protocol:
/// `MOVE g1 12... Nf6 (7866) by boris; clock: ...`.
pub fn notice(notice: &Notice, reader: &Reader) -> String {
    match (parts(notice, reader), notice) {
        (Some((verb, game, rest)), _) => {
            let mut line = String::with_capacity(verb.len() + game.len() + rest.len() + 1);
            line.push_str(verb);
            line.push(' ');
            line.push_str(game);
            line.push_str(&rest);
            line
        }
        (None, Notice::Legacy { text }) => text.clone(),
        (None, _) => String::new(),
    }
}

/// The game as it stood right after a move, for a reader who may read it much later: players,
/// diagram, the moves up to it (`history`: the starting position and the moves, the last one
/// this one, as the record has them), whose move it was, the clocks then. `None` if the
/// stored position no longer reads; without the moves if `history` does not end in it.
pub fn as_of(
    m: &MoveNotice,
    reader: &Reader,
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

#[cfg(test)]
mod tests {
    use super::*;

    use jiff::SignedDuration;

    use crate::catalog::Tongue;
    use crate::game::Action;
    use crate::game::clock::{Leave, Overdue, Rules, TimeControl, TripleBlock};
    use crate::game::{Kind, replay};
    use crate::journal::notice::MoveData;
    use crate::relay::summary::{clock_words, mail_clocks, mail_details, summary};

    const T0: Timestamp = Timestamp::UNIX_EPOCH;

    fn iccf() -> Reader {
        Reader::default()
    }

    fn san_en() -> Reader {
        Reader {
            notation: Notation::San(Lang::English),
            lang: Some(Lang::English),
        }
    }

    fn lan_ru() -> Reader {
        Reader {
            notation: Notation::Lan(Lang::Russian),
            lang: Some(Lang::Russian),
        }
    }

    /// alice (White) - boris (Black) after `moves` (English SAN), all played at T0, under
    /// ICCF's 10 moves in 50 days.
    fn game(moves: &[&str]) -> Game {
        let mut game = Game::new("g1", "alice", "boris", None)
            .unwrap()
            .with_rules(Rules::default(), T0);
        for text in moves {
            let m = game.board().read(text, Some(Lang::English)).unwrap().ply;
            let color = game.turn();
            game.apply_by(
                color,
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                T0,
            );
        }
        game
    }

    fn next(game: &Game, text: &str) -> Ply {
        game.board().read(text, Some(Lang::English)).unwrap().ply
    }

    /// The notice of `text` played next in `game` (after `moves`).
    fn move_notice(moves: &[&str], text: &str) -> MoveNotice {
        let g = game(moves);
        let m = next(&g, text);
        MoveNotice {
            game: "g1".to_owned(),
            mover: g.player(g.turn()).to_owned(),
            mv: MoveData::of(&g, &m),
            draw_offer: false,
            clocks: None,
            from_line: false,
            cancels_line: false,
            history: Default::default(),
        }
    }

    /// `hours` after T0.
    fn at(hours: i64) -> Timestamp {
        T0 + SignedDuration::from_hours(hours)
    }

    /// alice (White) - boris (Black) under `rules` from T0, each move (English SAN) made
    /// `hours` after T0.
    fn timed(rules: Rules, moves: &[(&str, i64)]) -> Game {
        let mut game = Game::new("g1", "alice", "boris", None)
            .unwrap()
            .with_rules(rules, T0);
        for (text, hours) in moves {
            let m = next(&game, text);
            let color = game.turn();
            game.apply_by(
                color,
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                at(*hours),
            );
        }
        game
    }

    /// Every variant, and how each of three readers reads it: ICCF numeric, English SAN,
    /// Russian long algebraic.
    fn table() -> Vec<(Notice, [&'static str; 3])> {
        let opening = ["e4", "e5", "Nf3"];
        let plain = move_notice(&opening, "Nc6");
        let mut offered = move_notice(&opening, "Nc6");
        offered.draw_offer = true;
        offered.cancels_line = true;
        let mut after = game(&opening);
        let nc6 = next(&after, "Nc6");
        after.apply_by(
            Color::Black,
            &Action::Move {
                m: nc6,
                draw_offer: false,
            },
            T0,
        );
        offered.clocks = Clocks::of(&after, T0 + SignedDuration::from_hours(26));
        let four = game(&["e4", "e5", "Nf3", "Nc6"]);
        let bb5 = MoveData::of(&four, &next(&four, "Bb5"));
        let leave = Leave {
            first: jiff::civil::date(2027, 3, 1),
            days: 10,
        };
        vec![
            (
                Notice::GameStarted {
                    game: "g1".into(),
                    side: Side::Black,
                    opponent: "alice".into(),
                },
                ["GAME g1 started: you play Black against alice"; 3],
            ),
            (
                Notice::Move(Box::new(plain)),
                [
                    // Said once: the reader's notation is ICCF numeric already.
                    "MOVE g1 2... 2836 by boris",
                    "MOVE g1 2... Nc6 (2836) by boris",
                    "MOVE g1 2... Кb8—c6 (2836) by boris",
                ],
            ),
            (
                Notice::Move(Box::new(offered)),
                [
                    "MOVE g1 2... 2836 by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
                    "MOVE g1 2... Nc6 (2836) by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
                    "MOVE g1 2... Кb8—c6 (2836) by boris, draw offered; clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; your conditional line is cancelled",
                ],
            ),
            (
                Notice::LinePlayed {
                    game: "g1".into(),
                    mv: Box::new(bb5.clone()),
                    left: 2,
                },
                [
                    "CONDITIONAL g1 3. 6125 played from your line; 2 pair(s) left in it",
                    "CONDITIONAL g1 3. Bb5 (6125) played from your line; 2 pair(s) left in it",
                    "CONDITIONAL g1 3. Сf1—b5 (6125) played from your line; 2 pair(s) left in it",
                ],
            ),
            (
                Notice::Draw {
                    game: "g1".into(),
                    by: "alice".into(),
                    side: Side::White,
                    act: DrawAct::Offered,
                },
                ["DRAW g1 offered by alice (White)"; 3],
            ),
            (
                Notice::Draw {
                    game: "g1".into(),
                    by: "boris".into(),
                    side: Side::Black,
                    act: DrawAct::Accepted,
                },
                ["DRAW g1 accepted by boris (Black)"; 3],
            ),
            (
                Notice::Draw {
                    game: "g1".into(),
                    by: "boris".into(),
                    side: Side::Black,
                    act: DrawAct::Declined,
                },
                ["DRAW g1 declined by boris (Black)"; 3],
            ),
            (
                Notice::Resigned {
                    game: "g1".into(),
                    by: "alice".into(),
                    side: Side::White,
                },
                ["RESIGN g1 alice (White) resigns"; 3],
            ),
            (
                Notice::Claim {
                    game: "g1".into(),
                    by: "boris".into(),
                    side: Side::Black,
                    claim: "fifty".into(),
                    mv: None,
                },
                ["CLAIM g1 boris (Black) claims a draw (fifty)"; 3],
            ),
            (
                Notice::Claim {
                    game: "g1".into(),
                    by: "alice".into(),
                    side: Side::White,
                    claim: "threefold".into(),
                    mv: Some(Box::new(bb5)),
                },
                [
                    "CLAIM g1 alice (White) claims a draw (threefold) with 3. 6125",
                    "CLAIM g1 alice (White) claims a draw (threefold) with 3. Bb5 (6125)",
                    "CLAIM g1 alice (White) claims a draw (threefold) with 3. Сf1—b5 (6125)",
                ],
            ),
            (
                Notice::Leave {
                    game: "g1".into(),
                    by: "alice".into(),
                    side: Side::White,
                    leave,
                },
                ["LEAVE g1 alice (White) is on leave 2027-03-01 to 2027-03-10 (10 days): their clock stops";
                    3],
            ),
            (
                Notice::TimeUp {
                    game: "g1".into(),
                    player: "boris".into(),
                    side: Side::Black,
                    overdue: Overdue::TimeControl,
                    forfeit: true,
                    clocks: None,
                },
                ["TIME g1 boris (Black): time limit exceeded, lost on time; "; 3],
            ),
            (
                Notice::TimeUp {
                    game: "g1".into(),
                    player: "boris".into(),
                    side: Side::Black,
                    overdue: Overdue::Silence,
                    forfeit: false,
                    clocks: None,
                },
                ["TIME g1 boris (Black): silence limit exceeded; the arbiter decides; "; 3],
            ),
            (
                Notice::Reminder {
                    game: "g1".into(),
                    days: 14,
                    clocks: None,
                },
                ["REMINDER g1: your move has waited 14 days; "; 3],
            ),
            (
                Notice::Reminder {
                    game: "g1".into(),
                    days: 23,
                    clocks: Clocks::of(
                        &timed(Rules::iccf(TimeControl::default()), &[]),
                        at(23 * 24 + 5),
                    ),
                },
                ["REMINDER g1: your move has waited 23 days; clock: White 23d 05h used, charged 26d, 24d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10; White: 24th day on this move, days now count double";
                    3],
            ),
            (
                Notice::TimeUp {
                    game: "g1".into(),
                    player: "boris".into(),
                    side: Side::Black,
                    overdue: Overdue::TimeControl,
                    forfeit: false,
                    clocks: Clocks::of(
                        &timed(
                            Rules::iccf(TimeControl::TripleBlock(TripleBlock::iccf(3, 75))),
                            &[("e4", 48)],
                        ),
                        at(52 * 24),
                    ),
                },
                ["TIME g1 boris (Black): time limit exceeded; the arbiter decides; clock: White clock 50d 00h, bank 75d | Black clock 0d 00h, bank 75d (running)";
                    3],
            ),
            (
                Notice::Result {
                    game: "g1".into(),
                    pgn: "1-0".into(),
                    text: "1-0 (resignation)".into(),
                },
                ["RESULT g1 1-0 (resignation)"; 3],
            ),
            (
                Notice::Refused {
                    game: "g1".into(),
                    number: 3,
                    reason: "no such move here".into(),
                },
                ["REFUSED g1 the other node refused your action 3: no such move here"; 3],
            ),
            (
                Notice::Message {
                    game: "g1".into(),
                    from: "boris".into(),
                    text: "Удачи! Good luck".into(),
                },
                ["MSG g1 from boris: Удачи! Good luck"; 3],
            ),
            (
                Notice::Recorded {
                    game: "g1".into(),
                    what: "your move 1. 5254".into(),
                },
                ["RECORDED g1 your move 1. 5254"; 3],
            ),
        ]
    }

    #[test]
    fn every_notice_renders_for_each_reader() {
        for (notice, expected) in table() {
            for (reader, want) in [iccf(), san_en(), lan_ru()].iter().zip(expected) {
                assert_eq!(super::notice(&notice, reader), want, "{reader:?}");
            }
        }
    }

    #[test]
    fn a_push_to_an_iccf_reader_says_the_move_once() {
        let text = notice(&Notice::Move(Box::new(move_notice(&["e4"], "e5"))), &iccf());
        assert_eq!(text, "MOVE g1 1... 5755 by boris");
        assert!(!text.contains("(5755)"), "{text}");
    }

    #[test]
    fn every_notice_round_trips_through_its_stored_form() {
        for (notice, _) in table() {
            let body = notice.to_body();
            assert!(body.starts_with('{'), "{body}");
            assert_eq!(Notice::from_body(&body), notice, "{body}");
        }
    }

    #[test]
    fn a_move_pushed_live_reads_as_the_same_move_read_back_from_the_outbox() {
        let cases: [(&[&str], &str); 5] = [
            (&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"], "O-O"),
            (
                &["d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7"],
                "O-O-O",
            ),
            (&["e4", "a6", "e5", "d5"], "exd6"),
            (
                &["b4", "a5", "bxa5", "h6", "a6", "h5", "axb7", "h4"],
                "bxa8=N",
            ),
            (&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"], "Qxf7#"),
        ];
        for (moves, text) in cases {
            let live = move_notice(moves, text);
            assert_eq!(format!("{:?}", live.mv.held), "Held", "{text}");
            let Notice::Move(stored) =
                Notice::from_body(&Notice::Move(Box::new(live.clone())).to_body())
            else {
                panic!("{text}: not read back as a move");
            };
            assert_eq!(format!("{:?}", stored.mv.held), "Held(none)", "{text}");
            for reader in [iccf(), san_en(), lan_ru()] {
                assert_eq!(
                    numbered(&live.mv, &reader),
                    numbered(&stored.mv, &reader),
                    "{text} for {reader:?}"
                );
            }
        }
    }

    #[test]
    fn a_row_written_before_items_were_typed_reads_as_its_text() {
        for body in [
            "MOVE g1 1. e2—e4 (5254) by alice",
            "{not json, but braces",
            "",
        ] {
            let notice = Notice::from_body(body);
            assert_eq!(
                notice,
                Notice::Legacy {
                    text: body.to_owned()
                }
            );
            assert_eq!(notice.to_body(), body);
            assert_eq!(super::notice(&notice, &lan_ru()), body);
        }
    }

    #[test]
    fn summaries_drop_the_game() {
        let m = Notice::Move(Box::new(move_notice(&["e4"], "e5")));
        assert_eq!(summary(&m, &san_en()), "move 1... e5 (5755) by boris");
        let r = Notice::Reminder {
            game: "g1".into(),
            days: 3,
            clocks: None,
        };
        assert_eq!(
            summary(&r, &iccf()),
            "reminder your move has waited 3 days; "
        );
    }

    #[test]
    fn a_russian_reader_reads_summaries_in_russian() {
        let m = Notice::Move(Box::new(move_notice(&["e4"], "e5")));
        assert_eq!(summary(&m, &lan_ru()), "ход 1... e7—e5 (5755), boris");
        let started = Notice::GameStarted {
            game: "g1".into(),
            side: Side::Black,
            opponent: "alice".into(),
        };
        assert_eq!(
            summary(&started, &lan_ru()),
            "партия началась: вы играете чёрными против alice"
        );
        let result = Notice::Result {
            game: "g1".into(),
            pgn: "0-1".into(),
            text: "0-1 (checkmate)".into(),
        };
        assert_eq!(summary(&result, &lan_ru()), "партия окончена: 0-1");
        // Every typed item has a Russian summary of its own.
        for (notice, expected) in table() {
            let ru = summary(&notice, &lan_ru());
            assert!(!ru.is_empty() && ru != summary(&notice, &san_en()), "{ru}");
            assert!(!ru.contains(expected[2]), "{ru}");
        }
    }

    fn san_uk() -> Reader {
        Reader {
            notation: Notation::San(Lang::Ukrainian),
            lang: Some(Lang::Ukrainian),
        }
    }

    /// An English summary is the protocol's line with its keyword lower-cased and without its
    /// game, as it was before the catalog; only counts read as English counts ("2 pairs").
    #[test]
    fn an_english_summary_says_what_the_line_says() {
        for (notice, _) in table() {
            for reader in [iccf(), san_en()] {
                let (verb, _, rest) = parts(&notice, &reader).unwrap();
                let rest = rest.trim_start_matches(':').trim_start();
                let line = format!("{} {rest}", verb.to_lowercase());
                let line = line.replace("2 pair(s)", "2 pairs");
                assert_eq!(summary(&notice, &reader), line);
            }
        }
    }

    #[test]
    fn a_ukrainian_reader_reads_summaries_in_ukrainian() {
        let m = Notice::Move(Box::new(move_notice(&["e4", "e5"], "Nf3")));
        assert_eq!(summary(&m, &san_uk()), "хід 2. Кf3 (7163), alice");
        let started = Notice::GameStarted {
            game: "g1".into(),
            side: Side::White,
            opponent: "boris".into(),
        };
        assert_eq!(
            summary(&started, &san_uk()),
            "партія почалася: ви граєте білими проти boris"
        );
        let reminder = Notice::Reminder {
            game: "g1".into(),
            days: 3,
            clocks: None,
        };
        assert_eq!(summary(&reminder, &san_uk()), "ваш хід чекає вже 3 дні");
        // Every typed item has a Ukrainian summary of its own, unlike the Russian one.
        for (notice, _) in table() {
            let uk = summary(&notice, &san_uk());
            assert!(!uk.is_empty(), "{notice:?}");
            assert_ne!(uk, summary(&notice, &san_en()));
            assert_ne!(uk, summary(&notice, &lan_ru()));
        }
        // The protocol's line stays the protocol's, in the reader's letters.
        for (moves, mv, line) in [
            (&["a4", "e5"][..], "Ra3", "MOVE g1 2. Тa3 (1113) by alice"),
            (&["e4", "e5"][..], "Ke2", "MOVE g1 2. Крe2 (5152) by alice"),
            (&["e4", "e5"][..], "Qh5", "MOVE g1 2. Фh5 (4185) by alice"),
            (&["e4", "e5"][..], "Nf3", "MOVE g1 2. Кf3 (7163) by alice"),
            (
                &["e4", "e5", "Nf3", "Nc6"][..],
                "Bb5",
                "MOVE g1 3. Сb5 (6125) by alice",
            ),
        ] {
            let m = Notice::Move(Box::new(move_notice(moves, mv)));
            assert_eq!(notice(&m, &san_uk()), line);
        }
    }

    #[test]
    fn mail_details_speak_the_readers_language() {
        let welcome = Notice::Welcome {
            player: "olena".into(),
            name: "Olena".into(),
            secret: "k-1".into(),
            notation: "san".into(),
        };
        let en = mail_details(&welcome, "relay@x.test", None).unwrap();
        assert_eq!(
            en,
            "Your key: k-1\n\
             Keep it to yourself: it proves a mail is yours.\n\n\
             To move, write to relay@x.test with the game id and key:k-1 in the subject\n\
             and the move on a line of its own, in any notation (12. Nf3, 7163, g1-f3);\n\
             or reply to the relay's last mail about the game.\n"
        );
        let ru = mail_details(&welcome, "relay@x.test", Some(Lang::Russian)).unwrap();
        assert_eq!(
            ru,
            "Ваш ключ: k-1\n\
             Храните его в тайне: он доказывает, что письмо от вас.\n\n\
             Чтобы сделать ход, напишите на relay@x.test: в теме — номер партии и key:k-1,\n\
             в тексте — ход на отдельной строке в любой записи (12. Кf3, 7163, g1-f3).\n\
             Или ответьте на последнее письмо о партии.\n"
        );
        let uk = mail_details(&welcome, "relay@x.test", Some(Lang::Ukrainian)).unwrap();
        assert!(
            uk.starts_with("Ваш ключ: k-1\nЗберігайте його в таємниці"),
            "{uk}"
        );
        let event = Notice::EventStarted {
            event: "e".into(),
            name: "Club".into(),
            games: vec![crate::journal::notice::EventGame {
                game: "e-1".into(),
                side: Side::Black,
                opponent: "boris".into(),
                round: 2,
                board: 1,
            }],
        };
        for (lang, text) in [
            (
                None,
                "round 2, board 1: game e-1, you play Black against boris\n",
            ),
            (
                Some(Lang::Russian),
                "тур 2, доска 1: партия e-1, вы играете чёрными против boris\n",
            ),
            (
                Some(Lang::Ukrainian),
                "тур 2, дошка 1: партія e-1, ви граєте чорними проти boris\n",
            ),
        ] {
            assert_eq!(mail_details(&event, "r@x", lang).unwrap(), text);
        }
    }

    #[test]
    fn a_move_is_shown_as_of_itself() {
        let m = move_notice(&["e4", "e5", "Nf3"], "Nc6");
        let record: Vec<String> = ["5254", "5755", "7163", "2836"].map(String::from).to_vec();
        let (start, moves) = replay(Kind::Chess, None, &record).unwrap();
        let players = ("alice", "boris");
        let view = as_of(&m, &lan_ru(), players, Some((start.as_ref(), &moves))).unwrap();
        assert!(
            view.starts_with("game g1: alice (White) - boris (Black), as of 2... Кb8—c6 (2836)"),
            "{view}"
        );
        assert!(
            view.contains("moves: 1. e2—e4 e7—e5 2. Кg1—f3 Кb8—c6"),
            "{view}"
        );
        assert!(view.contains("r . b q k b n r"), "{view}");
        assert!(view.contains("to move: White (alice), move 3"), "{view}");
        // Read back from its row, which stores only the position before it, or from a row
        // of the older form, which stored the one after it too: the same view.
        let Notice::Move(stored) = Notice::from_body(&Notice::Move(Box::new(m.clone())).to_body())
        else {
            panic!("a move reads back as a move");
        };
        assert!(stored.mv.after.is_empty(), "one position a move is stored");
        let mut older = stored.clone();
        older.mv.after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into();
        for read_back in [&stored, &older] {
            let again = as_of(
                read_back,
                &lan_ru(),
                players,
                Some((start.as_ref(), &moves)),
            );
            assert_eq!(again.as_deref(), Some(view.as_str()));
        }
        // A record that does not end in this move gives no moves rather than wrong ones.
        let (start, moves) = replay(Kind::Chess, None, &record[..3]).unwrap();
        let view = as_of(&m, &lan_ru(), players, Some((start.as_ref(), &moves))).unwrap();
        assert!(!view.contains("moves:"), "{view}");
        assert!(view.contains("r . b q k b n r"), "{view}");
        // A stored position that no longer reads is not shown rather than shown wrong.
        let mut broken = *stored;
        broken.mv.before = "not a position".into();
        assert_eq!(as_of(&broken, &lan_ru(), players, None), None);
        older.mv.after = "not a position".into();
        assert_eq!(as_of(&older, &lan_ru(), players, None), None);
    }
    /// The clock line of every control, written out from the rules (docs/rules.md): what was
    /// used, what it was charged where that differs, what is left (Fischer's and Triple
    /// Block's clock, with its bank), and the side told once its days count double. English
    /// mails and pages say the same words, from the catalog.
    #[test]
    fn every_control_writes_its_clock_line() {
        let exact = |time_control| Rules {
            time_control,
            ..Rules::default()
        };
        let fischer = |base, increment, cap| TimeControl::Fischer {
            base,
            increment,
            cap,
        };
        let block = TimeControl::TripleBlock(TripleBlock::iccf(3, 75));
        let iccf = Rules::iccf;
        let d = 24;
        type Case = (
            Rules,
            &'static [(&'static str, i64)],
            i64,
            &'static str,
            Option<&'static str>,
        );
        let cases: Vec<Case> = vec![
            // Moves in days, counted exactly: nothing differs, the line as it always was.
            (
                Rules::default(),
                &[("e4", 3 * 24 + 4)],
                4 * 24 + 4,
                "clock: White 3d 04h used, 46d 20h left to move 10 | Black 1d 00h used, 49d 00h left to move 10 (running)",
                None,
            ),
            // ICCF: whole days, the part of a day dropped...
            (
                iccf(TimeControl::default()),
                &[],
                20 * d - 1,
                "clock: White 19d 23h used, charged 19d, 31d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
                None,
            ),
            // ... 20 days charged as 20, and the 21st day counts double from its start ...
            (
                iccf(TimeControl::default()),
                &[],
                20 * d,
                "clock: White 20d 00h used, 30d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
                Some("White: 21st day on this move, days now count double"),
            ),
            // ... 21 days charged 22 ...
            (
                iccf(TimeControl::default()),
                &[],
                21 * d,
                "clock: White 21d 00h used, charged 22d, 28d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
                Some("White: 22nd day on this move, days now count double"),
            ),
            // ... 23 days (and hours) charged 26.
            (
                iccf(TimeControl::default()),
                &[],
                23 * d + 5,
                "clock: White 23d 05h used, charged 26d, 24d 00h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10",
                Some("White: 24th day on this move, days now count double"),
            ),
            // Days per move, ICCF: the move in hand, its charge, the other side waiting.
            (
                iccf(TimeControl::DaysPerMove { days: 30 }),
                &[],
                21 * d + 3,
                "clock: White 21d 03h on this move, charged 22d, 8d 00h left (running) | Black waiting",
                Some("White: 22nd day on this move, days now count double"),
            ),
            // Fischer, counted exactly: the clock, no control move.
            (
                exact(fischer(30, 3, None)),
                &[("e4", 2 * 24 + 5)],
                3 * d + 5,
                "clock: White 2d 05h used, 30d 19h left | Black 1d 00h used, 29d 00h left (running)",
                None,
            ),
            // Fischer, ICCF: White charged 2 whole days (30 - 2 + 3); Black 22 days, charged 24.
            (
                iccf(fischer(30, 3, None)),
                &[("e4", 2 * 24 + 5)],
                24 * d + 5,
                "clock: White 2d 05h used, charged 2d, 31d 00h left | Black 22d 00h used, charged 24d, 6d 00h left (running)",
                Some("Black: 23rd day on this move, days now count double"),
            ),
            // Fischer with a cap: the clock holds at most 31 days however quick the moves.
            (
                exact(fischer(30, 1, Some(31))),
                &[("e4", 0), ("e5", 0), ("Nf3", 0)],
                0,
                "clock: White 0d 00h used, 31d 00h left | Black 0d 00h used, 31d 00h left (running)",
                None,
            ),
            // Triple Block: 48 + 3 = 51, one day over the clock's 50 to a bank already full.
            (
                iccf(block),
                &[("e4", 2 * 24)],
                12 * d,
                "clock: White clock 50d 00h, bank 75d | Black clock 40d 00h, bank 75d (running)",
                None,
            ),
            // Triple Block: 9d 12h + 3 refilled from the bank to 50, the bank left with part
            // of a day.
            (
                iccf(block),
                &[("e4", 40 * 24 + 12)],
                40 * d + 12,
                "clock: White clock 50d 00h, bank 37d 12h | Black clock 50d 00h, bank 75d (running)",
                None,
            ),
        ];
        for (rules, moves, now, line, note) in cases {
            let game = timed(rules, moves);
            let c = Clocks::of(&game, at(now)).expect("a limit");
            assert_eq!(clocks(&c), line, "{moves:?} at {now}h");
            assert_eq!(doubling_note(&c).as_deref(), note, "{line}");
            // A push says both; SHOW says the note on a line of its own.
            let pushed = clocks_and_note(&c);
            assert_eq!(
                pushed,
                match note {
                    Some(note) => format!("{line}; {note}"),
                    None => line.to_owned(),
                }
            );
            let shown = show(&game, Notation::Iccf, "alice", at(now));
            assert!(shown.contains(&format!("\n{line}")), "{shown}");
            if let Some(note) = note {
                assert!(shown.contains(&format!("{line}\n{note}")), "{shown}");
            }
            // English mails and pages say what the protocol says.
            assert_eq!(clock_words(Tongue::En, &c), pushed);
            // A notice stored before the charge and the bank were kept reads as it was.
            let stored = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Clocks>(&stored).unwrap(), c);
        }
    }

    /// A notice written before its clocks said more (no charge, no move's days, no bank, no
    /// doubling; Fischer and Triple Block were written as moves in days) reads as it did.
    #[test]
    fn clocks_stored_before_the_charge_and_the_bank_read_as_they_were() {
        let stored = r#"{"kind":"moves_in_days","white":{"used":93600,"left":4226400,"by_move":10,"running":true,"on_leave":false},"black":{"used":0,"left":4320000,"by_move":10,"running":false,"on_leave":false}}"#;
        let c: Clocks = serde_json::from_str(stored).unwrap();
        assert_eq!(
            clocks(&c),
            "clock: White 1d 02h used, 48d 22h left to move 10 (running) | Black 0d 00h used, 50d 00h left to move 10"
        );
        assert_eq!(doubling_note(&c), None);
        // And the new fields are written only when they say something.
        assert_eq!(serde_json::to_string(&c).unwrap(), stored);
    }

    /// Mails in Russian and Ukrainian say the clocks in their words: the charge, the bank,
    /// the doubling.
    #[test]
    fn the_clocks_speak_the_readers_language() {
        let iccf = timed(Rules::iccf(TimeControl::default()), &[]);
        let c = Clocks::of(&iccf, at(23 * 24 + 5)).unwrap();
        assert_eq!(
            clock_words(Tongue::Ru, &c),
            "часы: Белые: 23 дн. 05 ч использовано, засчитано 26 дн., осталось 24 дн. 00 ч до 10-го хода (часы идут) | Чёрные: 0 дн. 00 ч использовано, осталось 50 дн. 00 ч до 10-го хода; Белые: 24-й день на этом ходу, теперь каждый день считается вдвойне"
        );
        assert_eq!(
            clock_words(Tongue::Uk, &c),
            "годинник: Білі: 23 дн. 05 год використано, зараховано 26 дн., залишилося 24 дн. 00 год до 10-го ходу (годинник іде) | Чорні: 0 дн. 00 год використано, залишилося 50 дн. 00 год до 10-го ходу; Білі: 24-й день на цьому ході, тепер кожен день рахується подвійно"
        );
        let block = timed(
            Rules::iccf(TimeControl::TripleBlock(TripleBlock::iccf(3, 75))),
            &[("e4", 40 * 24 + 12)],
        );
        let c = Clocks::of(&block, at(41 * 24)).unwrap();
        assert_eq!(
            clock_words(Tongue::Ru, &c),
            "часы: Белые: на часах 50 дн. 00 ч, в банке 37 дн. 12 ч | Чёрные: на часах 49 дн. 12 ч, в банке 75 дн. (часы идут)"
        );
        assert_eq!(
            clock_words(Tongue::Uk, &c),
            "годинник: Білі: на годиннику 50 дн. 00 год, у банку 37 дн. 12 год | Чорні: на годиннику 49 дн. 12 год, у банку 75 дн. (годинник іде)"
        );
        // Below the protocol's line of a mail, for a reader of any language.
        let reminder = Notice::Reminder {
            game: "g1".into(),
            days: 23,
            clocks: Some(c.clone()),
        };
        assert_eq!(
            mail_clocks(&reminder, Some(Lang::Russian)),
            Some(clock_words(Tongue::Ru, &c))
        );
        assert_eq!(mail_clocks(&Notice::from_body("legacy"), None), None);
        // English ordinals, as the protocol writes them.
        for (day, text) in [
            (1, "1st"),
            (2, "2nd"),
            (3, "3rd"),
            (4, "4th"),
            (11, "11th"),
            (12, "12th"),
            (13, "13th"),
            (21, "21st"),
            (22, "22nd"),
            (23, "23rd"),
            (101, "101st"),
            (111, "111th"),
            (112, "112th"),
        ] {
            assert_eq!(ordinal(day), text);
            assert_eq!(
                Tongue::En.say(
                    crate::catalog::Key::ClockDoubling,
                    &[("side", "white".into()), ("day", day.into())]
                ),
                format!("White: {text} day on this move, days now count double")
            );
        }
    }
}
