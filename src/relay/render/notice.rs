//! An outbox item ([`Notice`]) as its reader reads it on one line of the line protocol:
//! its keyword, its game, and what it says (`MOVE g1 12... Nf6 (7866) by boris; clock: ...`).
//! A mail's summary says the same in the reader's language (`relay::summary`).

use super::clock::{clocks_and_note, push_clocks_and_note};
use super::moves::{numbered, push_numbered};
use super::{Audience, shown};
use crate::game::ColorName;
use crate::journal::notice::{Clocks, DrawAct, MoveNotice, Notice};

/// An item's line split as the protocol writes it: keyword, game, and the rest (which starts
/// with its own separator). `None` for a legacy item, which is only text.
pub(super) fn parts<'a>(
    notice: &'a Notice,
    reader: &Audience,
) -> Option<(&'static str, &'a str, String)> {
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
        Notice::Legacy { .. } | Notice::Record { .. } | Notice::Proposal { .. } => return None,
    })
}

/// An outbox item as `reader` reads it, on one line of the line protocol:
/// `MOVE g1 12... Nf6 (7866) by boris; clock: ...`.
pub fn notice(notice: &Notice, reader: &Audience) -> String {
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
