//! The official record as a person reads it: a game's report (players, clocks, every move
//! with its date and channel, the result) and every entry of a game as text. Each text from a
//! person is escaped, so nothing in it can pass for a line of the record. PGN and the ICCF
//! scoresheet are `export/`.

use std::fmt::Write as _;

use shakmaty::Color;

use super::entry::Meaning;
use super::record::{Names, Record, event_of};
use super::{Entry, EntryKind};
use crate::command::text::{escaped, quoted};
use crate::game::ColorName;
use crate::game::clock::TimeControl;
use crate::game::days_hours::days_hours;

/// A readable report: players, time control, result, time used and leave, the moves with
/// their dates, claims and decisions.
pub(super) fn report(record: &Record, names: &Names) -> String {
    let mut out = String::new();
    write_heading(&mut out, record, names);
    write_time_used(&mut out, record);
    write_moves(&mut out, record);
    write_events(&mut out, record);
    let _ = writeln!(
        out,
        "\nJournal: {} entries for this game; the hash chain was verified.",
        record.entries.len()
    );
    out
}

/// The report's head: the game, its event and round, the players, the start, the time
/// control and the result (or whose move it is).
fn write_heading(out: &mut String, record: &Record, names: &Names) {
    let (event, site) = event_of(record, names);
    let game = &record.game;
    let _ = writeln!(out, "GAME REPORT {}", escaped(&record.id));
    let _ = writeln!(out, "Event: {} ({})", escaped(&event), escaped(&site));
    if let Some(round) = &record.detail.round {
        let _ = writeln!(out, "Round: {}", escaped(round));
    }
    for color in [Color::White, Color::Black] {
        let id = game.player(color);
        let _ = writeln!(
            out,
            "{}: {} ({})",
            ColorName(color),
            escaped(&names.player(id)),
            escaped(id)
        );
    }
    let _ = writeln!(out, "Started: {}", record.started);
    let _ = writeln!(out, "Time control: {}", game.rules().time_words());
    match game.result() {
        Some(result) => {
            let _ = writeln!(out, "Result: {}", escaped(&result.to_string()));
        }
        None => {
            let _ = writeln!(
                out,
                "Result: in progress, {} to move (as of {})",
                ColorName(game.turn()),
                record.last
            );
        }
    }
}

/// Each side's time, leave excluded: used, charged where that differs, left at the end, the
/// bank; and each side's leave.
fn write_time_used(out: &mut String, record: &Record) {
    let game = &record.game;
    let _ = writeln!(out, "\nTime used (leave excluded):");
    for color in [Color::White, Color::Black] {
        let t = game.side_time(color, record.last);
        let moves = game.timeline().moves_by(color);
        let total = game.timeline().used_total(color, record.last, t.running);
        let mut line = format!(
            "  {}: {} in {moves} move(s)",
            ColorName(color),
            days_hours(total)
        );
        // What the control charged for the same days, where it differs (whole days,
        // doubling); per move, only the move in hand counts and it is the clock's to say.
        let per_move = matches!(game.rules().time_control, TimeControl::DaysPerMove { .. });
        if !per_move && t.charged != t.used {
            let _ = write!(line, ", charged {}", days_hours(t.charged));
        }
        if game.rules().time_control != TimeControl::Unlimited
            && let Some(left) = t.left
        {
            let _ = write!(line, ", {} left at the end", days_hours(left));
        }
        if let Some(bank) = t.bank {
            let _ = write!(line, ", bank {}", days_hours(bank));
        }
        let _ = writeln!(out, "{line}");
        for leave in game.timeline().leave_of(color) {
            let _ = writeln!(out, "    leave {leave}");
        }
    }
}

/// The moves, a numbered line for each pair: each in SAN and ICCF numeric, `(=)` when a draw
/// was offered with it, and its date.
fn write_moves(out: &mut String, record: &Record) {
    let _ = writeln!(out, "\nMoves:");
    let mut line = String::new();
    for m in &record.moves {
        if m.color == Color::White || line.is_empty() {
            if !line.is_empty() {
                let _ = writeln!(out, "{line}");
            }
            let dots = if m.color == Color::White { "." } else { "..." };
            line = format!("  {:>3}{dots:<4}", m.number);
            if m.color == Color::Black {
                line.push_str(&format!("{:<28}", ""));
            }
        }
        let offer = if m.draw_offer { " (=)" } else { "" };
        let cell = format!(
            "{} {}{offer} {}",
            m.san,
            m.code,
            m.time.strftime("%Y-%m-%d")
        );
        line.push_str(&format!("{cell:<28}"));
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// Every entry other than a move that the game's story needs (claims, time-outs, reminders,
/// decisions, leave, draws, resignations, refusals, messages), one a line. Every text from an
/// entry is escaped, and every text a person wrote is quoted: no entry can make a line of its
/// own, nor end its field early (docs/security.md).
fn write_events(out: &mut String, record: &Record) {
    let events: Vec<&Entry> = record
        .entries
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EntryKind::Claim
                    | EntryKind::TimeUp
                    | EntryKind::Reminder
                    | EntryKind::Adjudication
                    | EntryKind::Leave
                    | EntryKind::SpecialLeave
                    | EntryKind::Stopped
                    | EntryKind::Refill
                    | EntryKind::LongReflection
                    | EntryKind::DrawOffer
                    | EntryKind::DrawAccept
                    | EntryKind::DrawDecline
                    | EntryKind::Resign
                    | EntryKind::Rejected
                    | EntryKind::Message
            )
        })
        .collect();
    if events.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nEvents:");
    for e in events {
        let _ = writeln!(
            out,
            "  {} {:<10} {}",
            escaped(e.time.get(..16).unwrap_or(&e.time)),
            escaped(&e.player),
            what_happened(e)
        );
    }
}

/// What an event of the report says happened, after its time and who.
fn what_happened(e: &Entry) -> String {
    match e.kind {
        EntryKind::Rejected => {
            format!("refused {}: {}", quoted(&e.text), escaped(&e.detail))
        }
        EntryKind::Adjudication => {
            let reason = match Meaning::of(e) {
                Ok(Meaning::Adjudication(d)) => {
                    format!("{} ({})", escaped(&d.result), quoted(&d.reason))
                }
                _ => quoted(&e.text),
            };
            format!("adjudication: {reason}")
        }
        EntryKind::Stopped => format!("stopped for the arbiter: {}", quoted(&e.detail)),
        EntryKind::SpecialLeave => match Meaning::of(e) {
            Ok(Meaning::SpecialLeave(d)) => format!(
                "special leave for {}: {} ({})",
                escaped(&d.player),
                d.leave(),
                quoted(&d.reason)
            ),
            _ => quoted(&e.text),
        },
        EntryKind::Message => {
            format!("message from {}: {}", escaped(&e.player), quoted(&e.detail))
        }
        EntryKind::Claim => format!("draw claim ({}), upheld", escaped(&e.detail)),
        _ => format!("{}: {}", e.kind.as_str().replace('_', " "), quoted(&e.text)),
    }
}

/// Every entry of the game, as journaled (rejected attempts and conditional lines included).
pub(super) fn entries_text(record: &Record, names: &Names) -> String {
    let (event, site) = event_of(record, names);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Game {}: {} (White) - {} (Black)",
        escaped(&record.id),
        escaped(&record.detail.white),
        escaped(&record.detail.black)
    );
    let _ = writeln!(out, "Event: {}, {}", escaped(&event), escaped(&site));
    match record.game.result() {
        Some(r) => {
            let _ = writeln!(out, "Result: {}", escaped(&r.to_string()));
        }
        None => {
            let _ = writeln!(
                out,
                "Result: in progress, {} to move",
                ColorName(record.game.turn())
            );
        }
    }
    let _ = writeln!(out, "Entries: {}\n", record.entries.len());
    // One line per entry, whatever its texts hold: each field escaped, the text as said
    // quoted (docs/security.md).
    for e in &record.entries {
        let _ = write!(
            out,
            "#{:<6} {}  {:<10} {:<11} {:<12} {}",
            e.seq,
            escaped(&e.time),
            escaped(&e.player),
            escaped(&e.channel),
            e.kind.as_str(),
            quoted(&e.text)
        );
        if let (Some(iccf), Some(san)) = (&e.iccf, &e.san) {
            let _ = write!(out, " = {} ({})", escaped(san), escaped(iccf));
        }
        if !e.detail.is_empty() && e.kind != EntryKind::GameStart {
            let _ = write!(out, " [{}]", escaped(&e.detail));
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\nJournal hash of the last entry: {}",
        hex::encode(record.entries.last().map_or([0; 32], |e| e.hash))
    );
    out
}
