//! An outbox item ([`Notice`]) as its reader reads it on one line of the line protocol:
//! its keyword, its game, and what it says (`MOVE g1 12... Nf6 (7866) by boris; clock: ...`).
//! A mail's summary says the same in the reader's language (`relay::summary`).

use super::clock::{clocks_and_note, push_clocks_and_note};
use super::moves::{numbered, push_numbered};
use super::{Audience, shown};
use crate::game::ColorName;
use crate::game::clock::{Leave, Overdue};
use crate::journal::entry::RemoteHealth;
use crate::journal::notice::{
    ClockAct, Clocks, DrawAct, EventGame, MoveData, MoveNotice, Notice, Side,
};

/// An item's line split as the protocol writes it: keyword, game, and the rest (which starts
/// with its own separator). `None` for a legacy item, which is only text.
pub(super) fn parts<'a>(
    notice: &'a Notice,
    reader: &Audience,
) -> Option<(&'static str, &'a str, String)> {
    Some(match notice {
        Notice::GameStarted {
            game,
            side,
            opponent,
        } => ("GAME", game, started(*side, opponent)),
        Notice::Move(m) => ("MOVE", &m.game, moved(m, reader)),
        Notice::LinePlayed { game, mv, left } => {
            ("CONDITIONAL", game, line_played(mv, *left, reader))
        }
        Notice::Draw {
            game,
            by,
            side,
            act,
        } => ("DRAW", game, draw(by, *side, *act)),
        Notice::Resigned { game, by, side } => ("RESIGN", game, resigned(by, *side)),
        Notice::Claim {
            game,
            by,
            side,
            claim,
            mv,
        } => (
            "CLAIM",
            game,
            claimed(by, *side, claim, mv.as_deref(), reader),
        ),
        Notice::Leave {
            game,
            by,
            side,
            leave,
        } => ("LEAVE", game, on_leave(by, *side, leave)),
        Notice::OwnClock {
            game,
            by,
            side,
            act,
            ..
        } => (
            match act {
                ClockAct::Refill { .. } => "BANK",
                ClockAct::LongReflection { .. } => "SILENCE",
            },
            game,
            own_clock_text(by, *side, act),
        ),
        Notice::TimeUp {
            game,
            player,
            side,
            overdue,
            forfeit,
            clocks,
        } => (
            "TIME",
            game,
            time_up(player, *side, *overdue, *forfeit, clocks.as_ref()),
        ),
        Notice::Reminder { game, days, clocks } => {
            ("REMINDER", game, reminded(*days, clocks.as_ref()))
        }
        Notice::Result { game, text, .. } => ("RESULT", game, format!(" {}", shown(text))),
        Notice::Refused {
            game,
            number,
            reason,
        } => ("REFUSED", game, refused(*number, reason)),
        Notice::Message { game, from, text } => {
            ("MSG", game, format!(" from {from}: {}", shown(text)))
        }
        Notice::Recorded { game, what, mv } => {
            ("RECORDED", game, recorded(what, mv.as_deref(), reader))
        }
        Notice::Welcome {
            player,
            name,
            notation,
            ..
        } => ("WELCOME", player, welcomed(name, notation)),
        Notice::EventStarted { event, name, games } => ("EVENT", event, event_started(name, games)),
        Notice::Withdrawn {
            event,
            player,
            reason,
        } => ("WITHDRAWN", event, withdrawn(player, reason)),
        Notice::Remote {
            remote,
            player,
            health,
        } => ("REMOTE", remote, remote_health(player, *health)),
        // Not the line's: only a link, or the notice mails, read these.
        Notice::Legacy { .. }
        | Notice::Record { .. }
        | Notice::Proposal { .. }
        | Notice::YourMove { .. }
        | Notice::Digest { .. } => return None,
    })
}

/// `GAME`'s rest: ` started: you play Black against alice`.
fn started(side: Side, opponent: &str) -> String {
    format!(
        " started: you play {} against {opponent}",
        ColorName(side.into())
    )
}

/// `MOVE`'s rest: the move numbered, its mover, an offer riding with it, the clocks, and
/// whether it cancels the reader's conditional line.
fn moved(m: &MoveNotice, reader: &Audience) -> String {
    let with_clocks = |mut text: String, clocks: Option<&Clocks>| {
        if let Some(c) = clocks {
            text.push_str("; ");
            push_clocks_and_note(&mut text, c);
        }
        text
    };
    let MoveNotice {
        mover,
        mv,
        draw_offer,
        clocks,
        cancels_line,
        ..
    } = m;
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
    text
}

/// `CONDITIONAL`'s rest: the move played from the reader's line, and the pairs left in it.
fn line_played(mv: &MoveData, left: u32, reader: &Audience) -> String {
    format!(
        " {} played from your line; {left} pair(s) left in it",
        numbered(mv, reader)
    )
}

/// `RECORDED`'s rest: ` your move 1... e5 (5755) is in the record`, the move written for the
/// reader; the words kept with the notice otherwise.
fn recorded(what: &str, mv: Option<&MoveData>, reader: &Audience) -> String {
    match mv {
        Some(mv) => format!(" your move {} is in the record", numbered(mv, reader)),
        None => format!(" {what}"),
    }
}

/// `DRAW`'s rest: ` offered by alice (White)`.
fn draw(by: &str, side: Side, act: DrawAct) -> String {
    let what = match act {
        DrawAct::Offered => "offered",
        DrawAct::Accepted => "accepted",
        DrawAct::Declined => "declined",
    };
    let side = ColorName(side.into());
    format!(" {what} by {by} ({side})")
}

/// `RESIGN`'s rest: ` alice (White) resigns`.
fn resigned(by: &str, side: Side) -> String {
    format!(" {by} ({}) resigns", ColorName(side.into()))
}

/// `CLAIM`'s rest: who claims which draw, with the move it is claimed with.
fn claimed(by: &str, side: Side, claim: &str, mv: Option<&MoveData>, reader: &Audience) -> String {
    let mut text = format!(" {by} ({}) claims a draw ({claim})", ColorName(side.into()));
    if let Some(mv) = mv {
        text.push_str(&format!(" with {}", numbered(mv, reader)));
    }
    text
}

/// `LEAVE`'s rest: who is on leave, and when.
fn on_leave(by: &str, side: Side, leave: &Leave) -> String {
    let what = if leave.special {
        "special leave (the arbiter's)"
    } else {
        "leave"
    };
    format!(
        " {by} ({}) is on {what} {leave}: their clock stops",
        ColorName(side.into())
    )
}

/// `TIME`'s rest: who ran out, past which limit, the verdict, the clocks.
fn time_up(
    player: &str,
    side: Side,
    overdue: Overdue,
    forfeit: bool,
    clocks: Option<&Clocks>,
) -> String {
    let verdict = if forfeit {
        ", lost on time"
    } else {
        "; the arbiter decides"
    };
    // Always the separator, even without clocks: the text has always ended so.
    let clocks = clocks.map(clocks_and_note).unwrap_or_default();
    format!(
        " {player} ({}): {overdue}{verdict}; {clocks}",
        ColorName(side.into())
    )
}

/// `REMINDER`'s rest: how long the reader's move has waited, and the clocks.
fn reminded(days: u32, clocks: Option<&Clocks>) -> String {
    let clocks = clocks.map(clocks_and_note).unwrap_or_default();
    format!(": your move has waited {days} days; {clocks}")
}

/// `REFUSED`'s rest: which of the reader's actions the other node refused, and why.
fn refused(number: u32, reason: &str) -> String {
    format!(
        " the other node refused your action {number}: {}",
        shown(reason)
    )
}

/// `REMOTE`'s rest: whose account, and how it stands with its server now.
fn remote_health(player: &str, health: RemoteHealth) -> String {
    let what = match health {
        RemoteHealth::Failing => {
            "the server has failed for an hour; the moves proposed wait and are sent when it answers"
        }
        RemoteHealth::Working => "the server answers again; the moves waiting are sent",
        RemoteHealth::Paused => {
            "the server refused the account's name or password; paused until its configuration changes"
        }
    };
    format!(" {player}: {what}")
}

/// `WELCOME`'s rest: the new player's name and the notation moves are written to them in.
fn welcomed(name: &str, notation: &str) -> String {
    format!(
        " {}: you are registered; moves are written to you in {notation}",
        shown(name)
    )
}

/// `EVENT`'s rest: the event's name and the reader's games in it.
fn event_started(name: &str, games: &[EventGame]) -> String {
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
    format!(
        " {} started: your {} game(s): {}",
        shown(name),
        games.len(),
        list.join(", ")
    )
}

/// `WITHDRAWN`'s rest: who withdrew, and why.
fn withdrawn(player: &str, reason: &str) -> String {
    format!(
        " {player} withdrew ({}): their unfinished games are lost",
        shown(reason)
    )
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

/// A player's act on their own clock as the opponent reads it on the line:
/// ` alice (White) moved 20 day(s) from the bank to the clock`.
fn own_clock_text(by: &str, side: Side, act: &ClockAct) -> String {
    let who = format!("{by} ({})", ColorName(side.into()));
    match act {
        ClockAct::Refill { days } => {
            format!(" {who} moved {days} day(s) from the bank to the clock")
        }
        ClockAct::LongReflection { number } => format!(
            " {who} declared a long reflection for move {number}: the silence limit does not end the game on it"
        ),
    }
}
