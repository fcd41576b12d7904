//! A mail's words about an outbox item, in its reader's language (the catalog's,
//! `src/catalog/`): the short summary a subject carries and a non-English reader reads first,
//! and what a welcome or an event's start adds below its line. The protocol's line itself is
//! [`super::render`]'s. The tests are `render`'s, over its table of every item.

use crate::catalog::{Arg, Key, Tongue};
use crate::game::clock::Overdue;
use crate::notation::Lang;

use super::render::{Reader, clocks, numbered, shown};
use crate::journal::notice::{DrawAct, Notice, Side};

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
pub fn summary(notice: &Notice, reader: &Reader) -> String {
    let tongue = Tongue::of(reader.lang);
    let say = |key, args: &[(&str, Arg<'_>)]| tongue.say(key, args);
    match notice {
        Notice::GameStarted { side, opponent, .. } => say(
            Key::SummaryGameStarted,
            &[("side", side_arg(*side)), ("opponent", opponent.into())],
        ),
        Notice::Move(m) => {
            let mv = numbered(&m.mv, reader);
            let clocks = m
                .clocks
                .as_ref()
                .map(|c| format!("; {}", clocks(c)))
                .unwrap_or_default();
            say(
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
        Notice::LinePlayed { mv, left, .. } => say(
            Key::SummaryLinePlayed,
            &[
                ("move", (&numbered(mv, reader)).into()),
                ("left", (*left).into()),
            ],
        ),
        Notice::Draw { by, side, act, .. } => {
            let act = match act {
                DrawAct::Offered => "offered",
                DrawAct::Accepted => "accepted",
                DrawAct::Declined => "declined",
            };
            say(
                Key::SummaryDraw,
                &[
                    ("act", act.into()),
                    ("by", by.into()),
                    ("side", side_arg(*side)),
                ],
            )
        }
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
        } => {
            let args = [
                ("by", by.into()),
                ("side", side_arg(*side)),
                ("claim", claim.into()),
            ];
            match mv {
                None => say(Key::SummaryClaim, &args),
                Some(mv) => {
                    let mv = numbered(mv, reader);
                    let [a, b, c] = args;
                    say(Key::SummaryClaimWith, &[a, b, c, ("move", (&mv).into())])
                }
            }
        }
        Notice::Leave {
            by, side, leave, ..
        } => say(
            Key::SummaryLeave,
            &[
                ("by", by.into()),
                ("side", side_arg(*side)),
                ("first", (&leave.first.to_string()).into()),
                ("last", (&leave.last().to_string()).into()),
                ("days", leave.days.into()),
            ],
        ),
        Notice::TimeUp {
            player,
            side,
            overdue,
            forfeit,
            clocks,
            ..
        } => {
            let overdue = match overdue {
                Overdue::TimeControl => "time-control",
                Overdue::Silence => "silence",
            };
            let clocks = clocks.as_ref().map(self::clocks).unwrap_or_default();
            say(
                Key::SummaryTimeUp,
                &[
                    ("player", player.into()),
                    ("side", side_arg(*side)),
                    ("overdue", overdue.into()),
                    ("forfeit", yes(*forfeit)),
                    ("clocks", (&clocks).into()),
                ],
            )
        }
        Notice::Reminder { days, clocks, .. } => {
            let clocks = clocks.as_ref().map(self::clocks).unwrap_or_default();
            say(
                Key::SummaryReminder,
                &[("days", (*days).into()), ("clocks", (&clocks).into())],
            )
        }
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
        Notice::Recorded { what, .. } => say(Key::SummaryRecorded, &[("what", what.into())]),
        Notice::Welcome { name, notation, .. } => say(
            Key::SummaryWelcome,
            &[
                ("name", (&shown(name)).into()),
                ("notation", notation.into()),
            ],
        ),
        Notice::EventStarted { name, games, .. } => {
            let list: Vec<String> = games
                .iter()
                .map(|g| {
                    say(
                        Key::SummaryEventGame,
                        &[
                            ("game", (&g.game).into()),
                            ("side", side_arg(g.side)),
                            ("opponent", (&g.opponent).into()),
                        ],
                    )
                })
                .collect();
            say(
                Key::SummaryEventStarted,
                &[
                    ("name", (&shown(name)).into()),
                    ("count", games.len().into()),
                    ("games", (&list.join(", ")).into()),
                ],
            )
        }
        Notice::Withdrawn { player, reason, .. } => say(
            Key::SummaryWithdrawn,
            &[
                ("player", player.into()),
                ("reason", (&shown(reason)).into()),
            ],
        ),
        Notice::Legacy { text } => text.clone(),
        // A move stored as its entry is made into its notice before anyone reads it.
        Notice::Record { .. } | Notice::Proposal { .. } => String::new(),
    }
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
