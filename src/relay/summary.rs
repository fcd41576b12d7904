//! A mail's words about an outbox item, in its reader's language (the catalog's,
//! `src/catalog/`): the short summary a subject carries and a non-English reader reads first,
//! and what a welcome or an event's start adds below its line; and the clocks in the reader's
//! language ([`clock_words`]), which a mail says below the protocol's line and the web pages
//! show. The protocol's line itself is [`super::render`]'s. The tests are `render`'s, over
//! its table of every item and its table of every control's clocks.

use shakmaty::Color;

use crate::catalog::{Arg, Key, Tongue};
use crate::game::clock::{DAY, Leave, Overdue};
use crate::notation::Lang;

use super::render::{Audience, numbered, shown};
use crate::journal::notice::{
    ClockAct, ClockKind, Clocks, DrawAct, EventGame, MoveData, MoveNotice, Notice, Side,
};

/// What a mail adds below a registration's or an event's line, in the reader's language
/// (the catalog's): for a welcome, how to play by mail (the key, where to write, a first
/// move); for an event's start, the reader's games one a line. `None` for other items.
/// `relay` is the relay's mail address.
pub fn mail_details(notice: &Notice, relay: &str, lang: Option<Lang>) -> Option<String> {
    let tongue = Tongue::of(lang);
    match notice {
        Notice::Welcome { secret, .. } => {
            let mut text = tongue.say(
                Key::MailWelcome,
                &[("secret", secret.into()), ("relay", relay.into())],
            );
            text.push('\n');
            Some(text)
        }
        Notice::EventStarted { games, .. } => {
            let mut text = String::new();
            for g in games {
                text.push_str(&tongue.say(
                    Key::MailEventGame,
                    &[
                        ("round", g.round.into()),
                        ("board", g.board.into()),
                        ("game", (&g.game).into()),
                        ("side", side_arg(g.side)),
                        ("opponent", (&g.opponent).into()),
                    ],
                ));
                text.push('\n');
            }
            Some(text)
        }
        _ => None,
    }
}

/// A short summary of an item, without its game (a mail's subject names the game first), in
/// the reader's language, from the catalog: `move 12... Nf6 (7866) by boris`,
/// `ход 12... Кg8—f6 (7866), boris`. English says what the protocol's line says.
pub fn summary(notice: &Notice, reader: &Audience) -> String {
    let tongue = Tongue::of(reader.lang);
    let say = |key, args: &[(&str, Arg<'_>)]| tongue.say(key, args);
    match notice {
        Notice::GameStarted { side, opponent, .. } => say(
            Key::SummaryGameStarted,
            &[("side", side_arg(*side)), ("opponent", opponent.into())],
        ),
        Notice::Move(m) => move_summary(tongue, m, reader),
        Notice::LinePlayed { mv, left, .. } => say(
            Key::SummaryLinePlayed,
            &[
                ("move", (&numbered(mv, reader)).into()),
                ("left", (*left).into()),
            ],
        ),
        Notice::Draw { by, side, act, .. } => draw_summary(tongue, by, *side, *act),
        Notice::Resigned { by, side, .. } => say(
            Key::SummaryResigned,
            &[("by", by.into()), ("side", side_arg(*side))],
        ),
        Notice::Claim {
            by,
            side,
            claim,
            mv,
            ..
        } => claim_summary(tongue, by, *side, claim, mv.as_deref(), reader),
        Notice::Leave {
            by, side, leave, ..
        } => leave_summary(tongue, by, *side, leave),
        Notice::TimeUp {
            player,
            side,
            overdue,
            forfeit,
            clocks,
            ..
        } => time_up_summary(tongue, player, *side, *overdue, *forfeit, clocks.as_ref()),
        Notice::Reminder { days, clocks, .. } => reminder_summary(tongue, *days, clocks.as_ref()),
        Notice::Result { pgn, text, .. } => say(
            Key::SummaryResult,
            &[("pgn", pgn.into()), ("text", (&shown(text)).into())],
        ),
        Notice::Refused { number, reason, .. } => say(
            Key::SummaryRefused,
            &[
                ("number", (*number).into()),
                ("reason", (&shown(reason)).into()),
            ],
        ),
        Notice::Message { from, text, .. } => say(
            Key::SummaryMessage,
            &[("from", from.into()), ("text", (&shown(text)).into())],
        ),
        Notice::Recorded { mv: Some(mv), .. } => say(
            Key::SummaryRecordedMove,
            &[("move", (&numbered(mv, reader)).into())],
        ),
        Notice::Recorded { what, .. } => say(Key::SummaryRecorded, &[("what", what.into())]),
        Notice::OwnClock { by, side, act, .. } => own_clock_words(tongue, by, *side, act),
        Notice::Welcome { name, notation, .. } => say(
            Key::SummaryWelcome,
            &[
                ("name", (&shown(name)).into()),
                ("notation", notation.into()),
            ],
        ),
        Notice::EventStarted { name, games, .. } => event_started_summary(tongue, name, games),
        Notice::Withdrawn { player, reason, .. } => say(
            Key::SummaryWithdrawn,
            &[
                ("player", player.into()),
                ("reason", (&shown(reason)).into()),
            ],
        ),
        Notice::Remote {
            remote,
            player,
            health,
        } => say(
            Key::SummaryRemote,
            &[
                ("remote", remote.into()),
                ("player", player.into()),
                ("health", health.as_str().into()),
            ],
        ),
        Notice::Legacy { text } => text.clone(),
        // A move stored as its entry is made into its notice before anyone reads it.
        // Said by their own mail (transport/email/notify.rs), not summarised.
        Notice::Record { .. }
        | Notice::Proposal { .. }
        | Notice::YourMove { .. }
        | Notice::Digest { .. } => String::new(),
    }
}

/// A player's act on their own clock in the reader's language.
fn own_clock_words(tongue: Tongue, by: &str, side: Side, act: &ClockAct) -> String {
    let (by, side) = (("by", by.into()), ("side", side_arg(side)));
    match act {
        ClockAct::Refill { days } => {
            tongue.say(Key::SummaryRefill, &[by, side, ("days", (*days).into())])
        }
        ClockAct::LongReflection { number } => tongue.say(
            Key::SummaryLongReflection,
            &[by, side, ("number", (*number).into())],
        ),
    }
}

/// A move's summary: the move numbered, its mover, an offer riding with it, the clocks, and
/// whether it cancels the reader's conditional line.
fn move_summary(tongue: Tongue, m: &MoveNotice, reader: &Audience) -> String {
    let mv = numbered(&m.mv, reader);
    let clocks = m
        .clocks
        .as_ref()
        .map(|c| format!("; {}", clock_words(tongue, c)))
        .unwrap_or_default();
    tongue.say(
        Key::SummaryMove,
        &[
            ("move", (&mv).into()),
            ("mover", (&m.mover).into()),
            ("offer", yes(m.draw_offer)),
            ("clocks", (&clocks).into()),
            ("cancels", yes(m.cancels_line)),
        ],
    )
}

/// A draw offered, accepted or declined, and by whom.
fn draw_summary(tongue: Tongue, by: &str, side: Side, act: DrawAct) -> String {
    let act = match act {
        DrawAct::Offered => "offered",
        DrawAct::Accepted => "accepted",
        DrawAct::Declined => "declined",
    };
    tongue.say(
        Key::SummaryDraw,
        &[
            ("act", act.into()),
            ("by", by.into()),
            ("side", side_arg(side)),
        ],
    )
}

/// A draw claimed, with the move it is claimed with if any.
fn claim_summary(
    tongue: Tongue,
    by: &str,
    side: Side,
    claim: &str,
    mv: Option<&MoveData>,
    reader: &Audience,
) -> String {
    let args = [
        ("by", by.into()),
        ("side", side_arg(side)),
        ("claim", claim.into()),
    ];
    match mv {
        None => tongue.say(Key::SummaryClaim, &args),
        Some(mv) => {
            let mv = numbered(mv, reader);
            let [a, b, c] = args;
            tongue.say(Key::SummaryClaimWith, &[a, b, c, ("move", (&mv).into())])
        }
    }
}

/// A side on leave: who, from which day to which.
fn leave_summary(tongue: Tongue, by: &str, side: Side, leave: &Leave) -> String {
    tongue.say(
        Key::SummaryLeave,
        &[
            ("by", by.into()),
            ("side", side_arg(side)),
            ("first", (&leave.first.to_string()).into()),
            ("last", (&leave.last().to_string()).into()),
            ("days", leave.days.into()),
        ],
    )
}

/// A side out of time: past which limit, the verdict, the clocks.
fn time_up_summary(
    tongue: Tongue,
    player: &str,
    side: Side,
    overdue: Overdue,
    forfeit: bool,
    clocks: Option<&Clocks>,
) -> String {
    let overdue = match overdue {
        Overdue::TimeControl => "time-control",
        Overdue::Silence => "silence",
    };
    let clocks = clocks.map(|c| clock_words(tongue, c)).unwrap_or_default();
    tongue.say(
        Key::SummaryTimeUp,
        &[
            ("player", player.into()),
            ("side", side_arg(side)),
            ("overdue", overdue.into()),
            ("forfeit", yes(forfeit)),
            ("clocks", (&clocks).into()),
        ],
    )
}

/// How long the reader's move has waited, and the clocks.
fn reminder_summary(tongue: Tongue, days: u32, clocks: Option<&Clocks>) -> String {
    let clocks = clocks.map(|c| clock_words(tongue, c)).unwrap_or_default();
    tongue.say(
        Key::SummaryReminder,
        &[("days", days.into()), ("clocks", (&clocks).into())],
    )
}

/// An event started: its name and the reader's games in it.
fn event_started_summary(tongue: Tongue, name: &str, games: &[EventGame]) -> String {
    let list: Vec<String> = games
        .iter()
        .map(|g| {
            tongue.say(
                Key::SummaryEventGame,
                &[
                    ("game", (&g.game).into()),
                    ("side", side_arg(g.side)),
                    ("opponent", (&g.opponent).into()),
                ],
            )
        })
        .collect();
    tongue.say(
        Key::SummaryEventStarted,
        &[
            ("name", (&shown(name)).into()),
            ("count", games.len().into()),
            ("games", (&list.join(", ")).into()),
        ],
    )
}

/// A side as the catalog's selectors name it.
fn side_arg(side: Side) -> Arg<'static> {
    Arg::Text(match side {
        Side::White => "white",
        Side::Black => "black",
    })
}

/// A flag as the catalog's selectors name it.
fn yes(flag: bool) -> Arg<'static> {
    Arg::Text(if flag { "yes" } else { "no" })
}

/// The clocks an item carries, in the reader's language, for a mail to say below the
/// protocol's line (which says them in English): `None` for an item without clocks.
pub fn mail_clocks(notice: &Notice, lang: Option<Lang>) -> Option<String> {
    let clocks = match notice {
        Notice::Move(m) => m.clocks.as_ref(),
        Notice::TimeUp { clocks, .. }
        | Notice::Reminder { clocks, .. }
        | Notice::OwnClock { clocks, .. } => clocks.as_ref(),
        _ => None,
    }?;
    Some(clock_words(Tongue::of(lang), clocks))
}

/// Both clocks in `tongue`, and once the running side's days count double, what it is told:
/// `clock: White 23d 05h used, charged 26d, 24d 00h left to move 10 (running) | Black ...;
/// White: 24th day on this move, days now count double`. English says what the protocol's
/// clocks say (`render::clocks_and_note`), word for word.
pub fn clock_words(tongue: Tongue, clocks: &Clocks) -> String {
    let white = side_clock(tongue, clocks, Color::White);
    let black = side_clock(tongue, clocks, Color::Black);
    let mut text = tongue.say(
        Key::ClockLine,
        &[("white", (&white).into()), ("black", (&black).into())],
    );
    if let Some(note) = doubling_words(tongue, clocks) {
        text.push_str("; ");
        text.push_str(&note);
    }
    text
}

/// A duration on a clock in `tongue`: `3d 04h`, `3 дн. 04 ч`; `-0d 03h` past a limit.
pub fn clock_time(tongue: Tongue, seconds: i64) -> String {
    let sign = if seconds < 0 { "-" } else { "" };
    let s = seconds.unsigned_abs();
    let day = DAY.unsigned_abs();
    let days = i64::try_from(s / day).unwrap_or(i64::MAX);
    let hours = format!("{:02}", (s % day) / 3600);
    tongue.say(
        Key::ClockTime,
        &[
            ("sign", Arg::Text(sign)),
            ("days", Arg::Number(days)),
            ("hours", Arg::Text(&hours)),
        ],
    )
}

/// Days as a charge or a bank holds them: `26d` when whole, else as [`clock_time`].
pub fn clock_days(tongue: Tongue, seconds: i64) -> String {
    if seconds % DAY == 0 {
        tongue.say(Key::ClockDays, &[("days", Arg::Number(seconds / DAY))])
    } else {
        clock_time(tongue, seconds)
    }
}

/// One side's clock in `tongue`, by its control: `White 3d 04h used, 46d 20h left to move
/// 10 (running)`, `White clock 41d 02h, bank 75d`.
pub fn side_clock(tongue: Tongue, clocks: &Clocks, color: Color) -> String {
    let side = Side::from(color);
    let t = clocks.side(side);
    let kind = match clocks.kind {
        ClockKind::DaysPerMove if !t.running => "waiting",
        ClockKind::DaysPerMove => "per-move",
        ClockKind::MovesInDays => "moves",
        ClockKind::Fischer => "fischer",
        ClockKind::TripleBlock => "block",
    };
    let state = if t.on_leave {
        "leave"
    } else if t.running {
        "running"
    } else {
        "none"
    };
    let charged = t
        .charged
        .map(|c| {
            tongue.say(
                Key::ClockCharged,
                &[("charged", (&clock_days(tongue, c)).into())],
            )
        })
        .unwrap_or_default();
    let (used, left) = (clock_time(tongue, t.used), clock_time(tongue, t.left));
    let bank = clock_days(tongue, t.bank.unwrap_or(0));
    tongue.say(
        Key::ClockSide,
        &[
            ("side", side_arg(side)),
            ("kind", Arg::Text(kind)),
            ("used", (&used).into()),
            ("charged", (&charged).into()),
            ("left", (&left).into()),
            ("until", t.by_move.into()),
            ("bank", (&bank).into()),
            ("state", Arg::Text(state)),
        ],
    )
}

/// What the side whose clock runs is told once its days on this move count double, in
/// `tongue`: `White: 21st day on this move, days now count double`.
pub fn doubling_words(tongue: Tongue, clocks: &Clocks) -> Option<String> {
    [Side::White, Side::Black].into_iter().find_map(|side| {
        clocks.doubling_day(side).map(|day| {
            tongue.say(
                Key::ClockDoubling,
                &[("side", side_arg(side)), ("day", day.into())],
            )
        })
    })
}
