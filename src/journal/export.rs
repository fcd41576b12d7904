//! The official records, from the journal: a game as PGN (the Seven Tag Roster plus the
//! correspondence tags, each move's date in a comment), as the ICCF numeric scoresheet, as a
//! readable report, or as every entry. An event's crosstable is in [`super::crosstable`], its
//! games and record in [`super::event_export`].
//!
//! Every export checks the whole hash chain first: a record is only official if the chain
//! holds.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::Timestamp;
use rusqlite::Connection;
use shakmaty::Color;

use super::replay::{AdjudicationDetail, GameStartDetail, action_of, time_of};
use super::{Entry, EntryKind, JournalError, store};
use crate::game::clock::{TimeControl, days_hours};
use crate::game::{Action, ColorName, Game};
use crate::notation::pgn::{LineWriter, write_tags};
use crate::notation::{Lang, Notation};

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

/// An event as the configuration names it.
#[derive(Clone, Debug, Default)]
pub struct EventInfo {
    pub name: String,
    pub site: String,
}

/// A player as the records name them.
#[derive(Clone, Debug, Default)]
pub struct PlayerInfo {
    pub name: String,
    /// Where the player is reached (an email address), for the `WhiteNA`/`BlackNA` tags.
    pub address: Option<String>,
}

/// What the configuration adds to the journal's records: names.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub events: BTreeMap<String, EventInfo>,
    pub players: BTreeMap<String, PlayerInfo>,
}

impl Names {
    pub(super) fn player(&self, id: &str) -> String {
        self.players
            .get(id)
            .map_or_else(|| id.to_owned(), |p| p.name.clone())
    }

    /// These names, with the players and events registered while the relay ran added where
    /// the configuration does not name them.
    pub fn with_registry(&self, registry: &super::registry::Registry) -> Names {
        let mut names = self.clone();
        for (id, p) in &registry.players {
            names
                .players
                .entry(id.clone())
                .or_insert_with(|| PlayerInfo {
                    name: p.name.clone(),
                    address: p.email.clone(),
                });
        }
        for (id, e) in &registry.events {
            names.events.entry(id.clone()).or_insert_with(|| EventInfo {
                name: e.event.name.clone(),
                site: e.event.site.clone(),
            });
        }
        names
    }
}

/// One move as recorded.
pub(super) struct MoveRecord {
    color: Color,
    number: u32,
    san: String,
    /// The move as the record keeps it (ICCF numeric for chess).
    code: String,
    draw_offer: bool,
    time: Timestamp,
    channel: String,
}

/// A game rebuilt from its entries, with what the records show.
pub(super) struct Record {
    pub(super) id: String,
    pub(super) detail: GameStartDetail,
    started: Timestamp,
    /// The last entry's time: an unfinished game's clocks are shown as of then.
    last: Timestamp,
    pub(super) game: Game,
    pub(super) moves: Vec<MoveRecord>,
    entries: Vec<Entry>,
}

pub(super) fn corrupt(why: String) -> JournalError {
    JournalError::Corrupt(why)
}

/// Rebuilds `game_id` from `entries` (its own, in order).
pub(super) fn rebuild(game_id: &str, entries: Vec<Entry>) -> Result<Record, JournalError> {
    rebuild_until(game_id, entries, None)
}

/// [`rebuild`], stopping after the entry of the `plies`-th move when given: the game as it
/// stood then, as a delayed view shows it.
fn rebuild_until(
    game_id: &str,
    mut entries: Vec<Entry>,
    plies: Option<usize>,
) -> Result<Record, JournalError> {
    let Some(start) = entries.first().filter(|e| e.kind == EntryKind::GameStart) else {
        return Err(corrupt(format!("no game {game_id:?} in the journal")));
    };
    let detail: GameStartDetail = serde_json::from_str(&start.detail)
        .map_err(|e| corrupt(format!("game start detail: {e}")))?;
    let started = time_of(start)?;
    let mut game = detail.game(game_id, started).map_err(corrupt)?;
    let mut moves = Vec::new();
    let mut last = started;
    let mut used = entries.len();
    for (i, e) in entries.iter().enumerate() {
        if plies.is_some_and(|n| moves.len() >= n) {
            used = i;
            break;
        }
        let at = time_of(e)?;
        last = last.max(at);
        let Some((color, action)) = action_of(e, &game)? else {
            continue;
        };
        let played = match &action {
            Action::Move { m, draw_offer } => Some((m, *draw_offer)),
            Action::Claim { m: Some(m), .. } => Some((m, false)),
            _ => None,
        };
        if let Some((m, draw_offer)) = played {
            moves.push(MoveRecord {
                color,
                number: game.move_number(),
                san: game.board().write(m, Notation::San(Lang::English)),
                code: game.board().code(m),
                draw_offer,
                time: at,
                channel: e.channel.clone(),
            });
        }
        game.apply_by(color, &action, at);
    }
    entries.truncate(used);
    Ok(Record {
        id: game_id.to_owned(),
        detail,
        started,
        last,
        game,
        moves,
        entries,
    })
}

fn read_game(conn: &Connection, game_id: &str) -> Result<Record, JournalError> {
    let mut entries: Vec<Entry> = Vec::new();
    store::for_each_entry(conn, Some(game_id), |e| {
        entries.push(e);
        Ok(())
    })?;
    rebuild(game_id, entries)
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
        ExportFormat::Pgn => pgn(&record, names),
        ExportFormat::Iccf => scoresheet(&record, names),
        ExportFormat::Report => report(&record, names),
        ExportFormat::Text => entries_text(&record, names),
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
    let mut out = String::new();
    for (id, plies) in games {
        let mut entries: Vec<Entry> = Vec::new();
        store::for_each_entry(conn, Some(id), |e| {
            entries.push(e);
            Ok(())
        })?;
        let record = rebuild_until(id, entries, *plies)?;
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&pgn(&record, names));
    }
    Ok(out)
}

/// PGN dates: `2026.11.29`.
fn pgn_date(t: Timestamp) -> String {
    t.strftime("%Y.%m.%d").to_string()
}

fn event_of(record: &Record, names: &Names) -> (String, String) {
    match record.detail.event.as_deref() {
        Some(id) => names.events.get(id).map_or_else(
            || (id.to_owned(), "?".to_owned()),
            |e| (e.name.clone(), e.site.clone()),
        ),
        None => ("?".to_owned(), "?".to_owned()),
    }
}

/// `EM` when every move came by email, else `TC` (general telecommunication).
fn mode(record: &Record) -> &'static str {
    if !record.moves.is_empty() && record.moves.iter().all(|m| m.channel == "email") {
        "EM"
    } else {
        "TC"
    }
}

pub(super) fn pgn(record: &Record, names: &Names) -> String {
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
    let termination = record
        .game
        .result()
        .map_or("unterminated", |r| r.reason.termination());
    let board = record.detail.board.map(|b| b.to_string());
    let mut extra = vec![("GameId", record.id.as_str())];
    if let Some(board) = &board {
        extra.push(("Board", board.as_str()));
    }
    extra.extend([
        ("TimeControl", time_control.as_str()),
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
    for m in &record.moves {
        // Every move is followed by a comment, so a Black move needs its number again
        // (PGN export format, 8.2.2.2).
        if m.color == Color::White {
            tokens.push(format!("{}.", m.number));
        } else {
            tokens.push(format!("{}...", m.number));
        }
        tokens.push(m.san.clone());
        let offer = if m.draw_offer { "(=) " } else { "" };
        tokens.push(format!(
            "{{{offer}[%ccsnt {}]}}",
            m.time.strftime("%Y.%m.%d,%H:%M")
        ));
    }
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

/// Text safe inside a PGN comment: no closing brace, one line, at most 200 characters.
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .take(200)
        .collect()
}

/// The ICCF numeric scoresheet: each move in numbers with the day it was made and the days
/// the mover thought.
fn scoresheet(record: &Record, names: &Names) -> String {
    let (event, _) = event_of(record, names);
    let game = &record.game;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Game {}: {} (White) - {} (Black)",
        record.id,
        names.player(&record.detail.white),
        names.player(&record.detail.black)
    );
    let _ = writeln!(
        out,
        "Event: {event}\nStarted: {}\nTime control: {}",
        record.started,
        game.rules().time_control
    );
    if let Some(fen) = &record.detail.fen {
        let _ = writeln!(out, "Start position: {fen}");
    }
    let _ = writeln!(
        out,
        "\n  No.  White   sent        days  Black   sent        days"
    );
    let mut rows: BTreeMap<u32, [Option<String>; 2]> = BTreeMap::new();
    for (ply, m) in record.moves.iter().enumerate() {
        // The mover's thinking: from the move before it (or the start), leave excluded.
        let days = game.timeline().used_on_ply(ply) as f64 / 86_400.0;
        let offer = if m.draw_offer { "=" } else { "" };
        let cell = format!(
            "{:<5}{offer:<2}{}  {days:>5.1}",
            m.code,
            m.time.strftime("%Y-%m-%d")
        );
        rows.entry(m.number).or_default()[usize::from(m.color == Color::Black)] = Some(cell);
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
        "\n(= after a move: a draw offer; days: the mover's thinking time, leave excluded)"
    );
    let _ = writeln!(
        out,
        "Result: {}",
        game.result()
            .map_or_else(|| "* (in progress)".to_owned(), ToString::to_string)
    );
    out
}

/// A readable report: players, time control, result, time used and leave, the moves with
/// their dates, claims and decisions.
fn report(record: &Record, names: &Names) -> String {
    let (event, site) = event_of(record, names);
    let game = &record.game;
    let mut out = String::new();
    let _ = writeln!(out, "GAME REPORT {}", record.id);
    let _ = writeln!(out, "Event: {event} ({site})");
    if let Some(round) = &record.detail.round {
        let _ = writeln!(out, "Round: {round}");
    }
    for color in [Color::White, Color::Black] {
        let id = game.player(color);
        let _ = writeln!(out, "{}: {} ({id})", ColorName(color), names.player(id));
    }
    let _ = writeln!(out, "Started: {}", record.started);
    let _ = writeln!(out, "Time control: {}", game.rules().time_control);
    match game.result() {
        Some(result) => {
            let _ = writeln!(out, "Result: {result}");
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
        if game.rules().time_control != TimeControl::Unlimited
            && let Some(left) = t.left
        {
            let _ = write!(line, ", {} left at the end", days_hours(left));
        }
        let _ = writeln!(out, "{line}");
        for leave in game.timeline().leave_of(color) {
            let _ = writeln!(out, "    leave {leave}");
        }
    }
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
                    | EntryKind::DrawOffer
                    | EntryKind::DrawAccept
                    | EntryKind::DrawDecline
                    | EntryKind::Resign
                    | EntryKind::Rejected
                    | EntryKind::Message
            )
        })
        .collect();
    if !events.is_empty() {
        let _ = writeln!(out, "\nEvents:");
        for e in events {
            let what = match e.kind {
                EntryKind::Rejected => format!("refused {:?}: {}", e.text, e.detail),
                EntryKind::Adjudication => {
                    let reason = serde_json::from_str::<AdjudicationDetail>(&e.detail).map_or_else(
                        |_| e.text.clone(),
                        |d| format!("{} ({})", d.result, d.reason),
                    );
                    format!("adjudication: {reason}")
                }
                EntryKind::Message => format!("message from {}: {}", e.player, e.detail),
                EntryKind::Claim => format!("draw claim ({}), upheld", e.detail),
                _ => format!("{}: {}", e.kind.as_str().replace('_', " "), e.text),
            };
            let _ = writeln!(
                out,
                "  {} {:<10} {what}",
                e.time.get(..16).unwrap_or(&e.time),
                e.player
            );
        }
    }
    let _ = writeln!(
        out,
        "\nJournal: {} entries for this game; the hash chain was verified.",
        record.entries.len()
    );
    out
}

/// Every entry of the game, as journaled (rejected attempts and conditional lines included).
fn entries_text(record: &Record, names: &Names) -> String {
    let (event, site) = event_of(record, names);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Game {}: {} (White) - {} (Black)",
        record.id, record.detail.white, record.detail.black
    );
    let _ = writeln!(out, "Event: {event}, {site}");
    match record.game.result() {
        Some(r) => {
            let _ = writeln!(out, "Result: {r}");
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
    for e in &record.entries {
        let _ = write!(
            out,
            "#{:<6} {}  {:<10} {:<11} {:<12} {:?}",
            e.seq,
            e.time,
            e.player,
            e.channel,
            e.kind.as_str(),
            e.text
        );
        if let (Some(iccf), Some(san)) = (&e.iccf, &e.san) {
            let _ = write!(out, " = {san} ({iccf})");
        }
        if !e.detail.is_empty() && e.kind != EntryKind::GameStart {
            let _ = write!(out, " [{}]", e.detail);
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
