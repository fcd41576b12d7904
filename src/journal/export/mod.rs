//! The official records, from the journal: a game as PGN (the Seven Tag Roster plus the
//! players' ratings when the game started and the correspondence tags, each move's date in a
//! comment), as the ICCF numeric scoresheet, as a readable report, or as every entry. An
//! event's crosstable is in [`super::crosstable`], its games and record in
//! [`super::event_export`].
//!
//! Every export checks the whole hash chain first: a record is only official if the chain
//! holds.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::Timestamp;
use rusqlite::Connection;
use shakmaty::Color;

use super::{Entry, JournalError, store};
use crate::command::text::{escaped, scrub};
use crate::event::rating::RatingsInEffect;
use crate::game::ColorName;
use crate::game::clock::{Counting, DAY, MoveCharge, Refill, SideTime, TimeControl};
use crate::game::days_hours::days_hours;
use crate::notation::pgn::{LineWriter, write_tags};

pub use super::record::{EventInfo, Names, PlayerInfo};
use super::record::{Record, event_of, read_game, rebuild_until};

/// What `journal export` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Pgn,
    Iccf,
    Report,
    Text,
}

impl std::str::FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<ExportFormat, String> {
        match s {
            "pgn" => Ok(ExportFormat::Pgn),
            "iccf" => Ok(ExportFormat::Iccf),
            "report" => Ok(ExportFormat::Report),
            "text" => Ok(ExportFormat::Text),
            _ => Err(format!(
                "unknown export format {s:?} (known: pgn, iccf, report, text)"
            )),
        }
    }
}

/// Exports `game_id`.
pub fn export(
    conn: &Connection,
    game_id: &str,
    format: ExportFormat,
    names: &Names,
) -> Result<String, JournalError> {
    export_reporting(conn, game_id, format, names, &mut |_| {})
}

/// [`export`], calling `progress` while the chain is verified (most of the time on a large
/// journal); see [`super::replay::replay_reporting`].
pub fn export_reporting(
    conn: &Connection,
    game_id: &str,
    format: ExportFormat,
    names: &Names,
    progress: &mut dyn FnMut(u64),
) -> Result<String, JournalError> {
    let replayed = super::replay::verify_reporting(conn, progress)?;
    let names = &names.with_registry(&replayed.registry);
    let record = read_game(conn, game_id)?;
    Ok(match format {
        ExportFormat::Pgn => {
            let ratings = ratings_for(&replayed, names, std::slice::from_ref(&record));
            pgn(&record, names, &ratings)
        }
        ExportFormat::Iccf => scoresheet(&record, names),
        ExportFormat::Report => super::report::report(&record, names),
        ExportFormat::Text => super::report::entries_text(&record, names),
    })
}

/// Games as PGN, one after another, each cut after its first `plies` moves when given (a
/// delayed view): the official export of what a spectator may see. The chain is checked once.
pub fn pgn_shown(
    conn: &Connection,
    games: &[(String, Option<usize>)],
    names: &Names,
) -> Result<String, JournalError> {
    let replayed = super::replay::verify(conn)?;
    let names = &names.with_registry(&replayed.registry);
    let mut records = Vec::with_capacity(games.len());
    for (id, plies) in games {
        let mut entries: Vec<Entry> = Vec::new();
        store::for_each_entry(conn, Some(id), |e| {
            entries.push(e);
            Ok(())
        })?;
        records.push(rebuild_until(id, entries, *plies)?);
    }
    let ratings = ratings_for(&replayed, names, &records);
    let mut out = String::new();
    for record in &records {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&pgn(record, names, &ratings));
    }
    Ok(out)
}

/// The ratings in effect when each of `records` started, made once for an export from the
/// record the chain check replayed (docs/ratings.md, "In PGN").
pub(super) fn ratings_for(
    replayed: &super::replay::Replayed,
    names: &Names,
    records: &[Record],
) -> RatingsInEffect {
    let through = records
        .iter()
        .map(|r| start_day(r.started))
        .max()
        .unwrap_or(jiff::civil::Date::MIN);
    super::ratings::in_effect(replayed, names, through)
}

/// The day (UTC) a game started, as its `Date` tag writes it: the list in effect then is the
/// one its rating tags name.
fn start_day(started: Timestamp) -> jiff::civil::Date {
    started.to_zoned_datetime(jiff::tz::TimeZone::UTC).date()
}

/// PGN dates: `2026.11.29`.
fn pgn_date(t: Timestamp) -> String {
    t.strftime("%Y.%m.%d").to_string()
}

/// `EM` when every move came by email, else `TC` (general telecommunication).
fn mode(record: &Record) -> &'static str {
    if !record.moves.is_empty() && record.moves.iter().all(|m| m.channel == "email") {
        "EM"
    } else {
        "TC"
    }
}

/// A game as PGN; `ratings` the players' ratings in effect when it started, each named in
/// `WhiteRating`/`BlackRating` when the player was on that list (not `WhiteElo`: the PGN
/// standard keeps that for FIDE's Elo, 9.1.2, and names another agency's tags after it,
/// `WhiteUSCF`, 9.1.3; Glicko-2 is not Elo).
pub(super) fn pgn(record: &Record, names: &Names, ratings: &RatingsInEffect) -> String {
    let (event, site) = event_of(record, names);
    let result = record.game.result().map_or("*", |r| r.pgn());
    let white = names.player(&record.detail.white);
    let black = names.player(&record.detail.black);
    let tags: Vec<(String, String)> = [
        ("Event", event.as_str()),
        ("Site", site.as_str()),
        ("Date", pgn_date(record.started).as_str()),
        ("Round", record.detail.round.as_deref().unwrap_or("-")),
        ("White", white.as_str()),
        ("Black", black.as_str()),
        ("Result", result),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    let address = |id: &str| {
        names
            .players
            .get(id)
            .and_then(|p| p.address.clone())
            .unwrap_or_else(|| "-".to_owned())
    };
    let (white_na, black_na) = (address(&record.detail.white), address(&record.detail.black));
    let time_control = record.game.rules().time_control.to_pgn();
    let time_words = record.game.rules().time_words();
    let (utc_date, utc_time) = (
        pgn_date(record.started),
        record.started.strftime("%H:%M:%S").to_string(),
    );
    let termination = record
        .game
        .result()
        .map_or("unterminated", |r| r.reason.termination());
    let board = record.detail.board.map(|b| b.to_string());
    let rating_of = |player: &str| {
        ratings
            .on(player, start_day(record.started))
            .map(|r| format!("{}", r.round()))
    };
    let (white_rating, black_rating) = (
        rating_of(&record.detail.white),
        rating_of(&record.detail.black),
    );
    let mut extra = Vec::new();
    if let Some(rating) = &white_rating {
        extra.push(("WhiteRating", rating.as_str()));
    }
    if let Some(rating) = &black_rating {
        extra.push(("BlackRating", rating.as_str()));
    }
    extra.push(("GameId", record.id.as_str()));
    if let Some(board) = &board {
        extra.push(("Board", board.as_str()));
    }
    extra.extend([
        // When the clocks started: with each move's instant (`%ccsnt`) and the control in
        // words, what anyone needs to count the clocks again.
        ("UTCDate", utc_date.as_str()),
        ("UTCTime", utc_time.as_str()),
        ("TimeControl", time_control.as_str()),
        ("CCTimeControl", time_words.as_str()),
        ("WhiteNA", white_na.as_str()),
        ("BlackNA", black_na.as_str()),
        ("Mode", mode(record)),
        ("Termination", termination),
    ]);
    let kind = record.game.kind();
    if let Some(game_type) = kind.game_type() {
        extra.push(("GameType", game_type));
    }
    // The board's own FEN (a draughts game may have started from a listing).
    let start_fen = record.game.start().fen();
    if record.detail.fen.is_some() {
        extra.push(("SetUp", "1"));
        extra.push(("FEN", &start_fen));
    }
    let mut out: Vec<u8> = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_tags(&mut out, &tags, &extra);
    out.push(b'\n');
    let mut tokens = Vec::new();
    // Triple Block's refills, each before the move it was made for (what `%ccsnt` cannot say:
    // the clock's days moved from the bank while the side thought).
    let mut refills = refills_in_order(record);
    let mut refill_comments = |tokens: &mut Vec<String>, before: Option<(Color, Timestamp)>| {
        while let Some(&(color, refill)) = refills.peek() {
            let due = before.is_none_or(|(mover, at)| mover == color && refill.at <= at);
            if !due {
                break;
            }
            tokens.push(format!(
                "{{[%ccrefill {},{}]}}",
                refill.days,
                refill.at.strftime("%Y.%m.%d,%H:%M:%S")
            ));
            refills.next();
        }
    };
    for m in &record.moves {
        refill_comments(&mut tokens, Some((m.color, m.time)));
        // Every move is followed by a comment, so a Black move needs its number again
        // (PGN export format, 8.2.2.2).
        // The number and its move as one token: a line never breaks between them.
        let dots = if m.color == Color::White { "." } else { "..." };
        tokens.push(format!("{}{dots} {}", m.number, m.san));
        // The instant the move was sent, to the second (the form with seconds of the
        // de-facto `%ccsnt` command): a clock counted exactly is recounted from it exactly.
        let offer = if m.draw_offer { "(=) " } else { "" };
        tokens.push(format!(
            "{{{offer}[%ccsnt {}]}}",
            m.time.strftime("%Y.%m.%d,%H:%M:%S")
        ));
    }
    refill_comments(&mut tokens, None);
    if let Some(result) = record.game.result()
        && result.note.is_some()
    {
        tokens.push(format!("{{{}}}", comment_text(&result.to_string())));
    }
    tokens.push(result.to_owned());
    let mut lines = LineWriter::default();
    for token in tokens {
        let _ = lines.token(&mut out, token.as_bytes());
    }
    let _ = lines.finish(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Both sides' refills from a Triple Block bank, in the order they were made.
fn refills_in_order(record: &Record) -> std::iter::Peekable<std::vec::IntoIter<(Color, Refill)>> {
    let [white, black] = record.game.timeline().refills();
    let mut all: Vec<(Color, Refill)> = white
        .iter()
        .map(|r| (Color::White, *r))
        .chain(black.iter().map(|r| (Color::Black, *r)))
        .collect();
    all.sort_by_key(|(_, r)| r.at);
    all.into_iter().peekable()
}

/// Text safe inside a PGN comment: no closing brace, one line, nothing that reorders or hides
/// text ([`scrub`]), at most 200 characters.
fn comment_text(text: &str) -> String {
    scrub(text, 200)
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c => c,
        })
        .collect()
}

/// The ICCF numeric scoresheet: each move in numbers with the day it was made and the days
/// the mover thought (and, where the control charges otherwise, the days it was charged); for
/// Fischer and Triple Block the clock (and bank) after each move; both clocks at the end.
fn scoresheet(record: &Record, names: &Names) -> String {
    let (event, _) = event_of(record, names);
    let game = &record.game;
    let rules = game.rules();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Game {}: {} (White) - {} (Black)",
        escaped(&record.id),
        escaped(&names.player(&record.detail.white)),
        escaped(&names.player(&record.detail.black))
    );
    let _ = writeln!(
        out,
        "Event: {}\nStarted: {}\nTime control: {}",
        escaped(&event),
        record.started,
        rules.time_words()
    );
    if let Some(fen) = &record.detail.fen {
        let _ = writeln!(out, "Start position: {fen}");
    }
    let _ = writeln!(
        out,
        "\n  No.  White   sent        days  Black   sent        days"
    );
    // Each move as the clock saw it: its thinking, its charge, the clock and bank after it.
    let ledgers = [Color::White, Color::Black]
        .map(|color| game.timeline().ledger(rules, color, record.last, false));
    let charge_of = |ply: usize| {
        ledgers
            .iter()
            .flat_map(|l| &l.moves)
            .find(|m| m.ply == ply)
            .copied()
    };
    // A control that charges other than the time used (whole days, doubling) shows both.
    let charging = rules.counting == Counting::WholeDays || rules.double_after_days.is_some();
    let mut rows: BTreeMap<u32, [Option<String>; 2]> = BTreeMap::new();
    let mut clock_rows: BTreeMap<u32, [Option<String>; 2]> = BTreeMap::new();
    for (ply, m) in record.moves.iter().enumerate() {
        // The mover's thinking: from the move before it (or the start), leave excluded.
        let used = game.timeline().used_on_ply(ply);
        let days = used as f64 / DAY as f64;
        let charge = charge_of(ply);
        let charged = match charge {
            Some(c) if charging => format!("/{}", day_count(c.charged)),
            _ => String::new(),
        };
        let offer = if m.draw_offer { "=" } else { "" };
        let cell = format!(
            "{:<5}{offer:<2}{}  {days:>5.1}{charged}",
            m.code,
            m.time.strftime("%Y-%m-%d")
        );
        let side = usize::from(m.color == Color::Black);
        rows.entry(m.number).or_default()[side] = Some(cell);
        if let Some(MoveCharge {
            clock: Some(clock),
            bank,
            ..
        }) = charge
        {
            let mut cell = days_hours(clock);
            if let Some(bank) = bank {
                let _ = write!(cell, ", bank {}", day_count(bank));
            }
            clock_rows.entry(m.number).or_default()[side] = Some(cell);
        }
    }
    for (number, [white, black]) in rows {
        let blank = format!("{:<24}", "...");
        let _ = writeln!(
            out,
            "{number:>4}.  {}  {}",
            white.unwrap_or(blank),
            black.unwrap_or_default()
        );
    }
    let _ = writeln!(
        out,
        "\n(= after a move: a draw offer; days: the mover's thinking time, leave excluded{})",
        if charging {
            "; /N: the days charged for it"
        } else {
            ""
        }
    );
    if !clock_rows.is_empty() {
        let _ = writeln!(
            out,
            "\nThe clock after each move:\n  No.  {:<22}  Black",
            "White"
        );
        for (number, [white, black]) in clock_rows {
            let _ = writeln!(
                out,
                "{number:>4}.  {:<22}  {}",
                white.unwrap_or_else(|| "...".to_owned()),
                black.unwrap_or_default()
            );
        }
    }
    let refills: Vec<(Color, Refill)> = refills_in_order(record).collect();
    if !refills.is_empty() {
        let _ = writeln!(out, "\nDays moved from the bank to the clock:");
        for (color, refill) in refills {
            let _ = writeln!(
                out,
                "  {:<6} {}  {} day(s)",
                ColorName(color).as_str(),
                refill.at.strftime("%Y-%m-%d %H:%M"),
                refill.days
            );
        }
    }
    if rules.time_control != TimeControl::Unlimited {
        let _ = writeln!(out, "\nClocks as of {}:", record.last);
        for color in [Color::White, Color::Black] {
            let t = game.side_time(color, record.last);
            let _ = writeln!(out, "  {}: {}", ColorName(color), clock_text(&t));
        }
    }
    let _ = writeln!(
        out,
        "Result: {}",
        game.result()
            .map_or_else(|| "* (in progress)".to_owned(), |r| escaped(&r.to_string()))
    );
    out
}

/// Days as a charge or a bank counts them: `26` when whole, else `25.5`.
fn day_count(seconds: i64) -> String {
    if seconds % DAY == 0 {
        (seconds / DAY).to_string()
    } else {
        format!("{:.1}", seconds as f64 / DAY as f64)
    }
}

/// One side's clock on the scoresheet: the time used, the charge where it differs, the time
/// left (Fischer's and Triple Block's clock) and Triple Block's bank.
fn clock_text(t: &SideTime) -> String {
    let mut text = format!("{} used", days_hours(t.used));
    if t.charged != t.used {
        let _ = write!(text, ", charged {}d", day_count(t.charged));
    }
    if let Some(left) = t.left {
        let _ = write!(text, ", {} left", days_hours(left));
    }
    if let Some(bank) = t.bank {
        let _ = write!(text, ", bank {}d", day_count(bank));
    }
    text
}

#[cfg(test)]
mod tests;
