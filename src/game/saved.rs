//! A game written out whole and read back: what a start snapshot of the journal keeps of each
//! game, so that a start plays only the entries after it (docs/journal.md, "Snapshots").
//!
//! Moves are kept as the record keeps them ([`Board::code`]) and read back against the
//! position as every move is: a saved game that does not play out is an error, never a
//! wrong position.
//!
//! ```
//! use ccrelay::game::{Action, Game, SavedGame};
//! use jiff::Timestamp;
//! use shakmaty::Color;
//!
//! let mut game = Game::new("g1", "alice", "boris", None).unwrap();
//! let m = game.check_move(Color::White, "e4", None, None).unwrap().ply;
//! game.apply(&Action::Move { m, draw_offer: false }, Timestamp::UNIX_EPOCH);
//! let saved: SavedGame = serde_json::from_str(&serde_json::to_string(&game.to_saved()).unwrap()).unwrap();
//! let back = Game::from_saved(saved).unwrap();
//! assert_eq!(format!("{back:?}"), format!("{game:?}"));
//! ```

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::board::{Board, Kind, Ply};
use super::boards::{codes, shared_start};
use super::clock::{Leave, Refill, Rules, Timeline};
use super::{EndReason, Game, GameResult};
use crate::notation::LangSet;

/// Everything a [`Game`] holds, in plain values.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SavedGame {
    kind: Kind,
    id: String,
    white: String,
    black: String,
    start_fen: Option<String>,
    /// The moves as the record keeps them ([`Board::code`]), from the start, each after a
    /// space: one string a game reads back faster than a list of short ones.
    moves: String,
    /// `true` for White.
    draw_offer: Option<bool>,
    result: Option<SavedResult>,
    rules: Rules,
    /// Nanoseconds since the epoch.
    started: i128,
    first_white: bool,
    /// Each move's time: whole seconds after the one before (the first after `started`)...
    move_seconds: Vec<i64>,
    /// ...and its nanoseconds, for each move, unless every one has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    move_nanos: Vec<i32>,
    leave: [Vec<Leave>; 2],
    /// Each side's refills from a Triple Block bank; written only when there are some.
    #[serde(default, skip_serializing_if = "no_refills")]
    refills: [Vec<Refill>; 2],
    /// The moves (0-based) declared ahead as long reflections; written only when there are
    /// some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    long_reflection: Vec<usize>,
    reminders_sent: usize,
    flagged: bool,
    /// Why the game is stopped for the arbiter; written only when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    /// Each side's conditional line, as codes played on from the position now, as `moves`.
    conditional: [String; 2],
    ended: Option<i128>,
    /// Each side's languages ([`LangSet::codes`]).
    langs: [String; 2],
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct SavedResult {
    /// `Some(true)` for White, `None` for a draw.
    winner: Option<bool>,
    reason: String,
    note: Option<String>,
}

fn nanos(t: Timestamp) -> i128 {
    t.as_nanosecond()
}

fn time(n: i128) -> Result<Timestamp, String> {
    Timestamp::from_nanosecond(n).map_err(|e| format!("time {n}: {e}"))
}

/// Each time's whole seconds after the one before it (the first after `started`).
fn seconds_after(started: Timestamp, times: &[Timestamp]) -> Vec<i64> {
    let mut before = started.as_second();
    times
        .iter()
        .map(|t| {
            let second = t.as_second();
            let step = second - before;
            before = second;
            step
        })
        .collect()
}

/// The times [`seconds_after`] and their nanoseconds (none: whole seconds) describe.
fn times_after(
    started: Timestamp,
    seconds: &[i64],
    nanos: &[i32],
) -> Result<Vec<Timestamp>, String> {
    if !nanos.is_empty() && nanos.len() != seconds.len() {
        return Err("move times: nanoseconds for some moves only".to_owned());
    }
    let mut at = started.as_second();
    let mut times = Vec::with_capacity(seconds.len() + 1);
    for (i, step) in seconds.iter().enumerate() {
        at = at.checked_add(*step).ok_or("move times: out of range")?;
        let nano = nanos.get(i).copied().unwrap_or(0);
        let t = Timestamp::new(at, nano).map_err(|e| format!("move time: {e}"))?;
        times.push(t);
    }
    Ok(times)
}

fn is_white(c: Color) -> bool {
    c == Color::White
}

fn color(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

const REASONS: [(EndReason, &str); 13] = [
    (EndReason::Checkmate, "checkmate"),
    (EndReason::Stalemate, "stalemate"),
    (EndReason::InsufficientMaterial, "insufficient_material"),
    (EndReason::Resignation, "resignation"),
    (EndReason::Agreement, "agreement"),
    (EndReason::Repetition, "repetition"),
    (EndReason::FiftyMoves, "fifty_moves"),
    (EndReason::TimeForfeit, "time_forfeit"),
    (EndReason::Silence, "silence"),
    (EndReason::Adjudication, "adjudication"),
    (EndReason::NoMoves, "no_moves"),
    (EndReason::DrawRule, "draw_rule"),
    (EndReason::Withdrawal, "withdrawal"),
];

fn reason_name(reason: EndReason) -> &'static str {
    match REASONS.iter().find(|(r, _)| *r == reason) {
        Some((_, name)) => name,
        // Every reason is in the table (a test reads each back).
        None => "adjudication",
    }
}

fn reason_of(name: &str) -> Result<EndReason, String> {
    REASONS
        .iter()
        .find(|(_, n)| *n == name)
        .map(|(r, _)| *r)
        .ok_or_else(|| format!("unknown end reason {name:?}"))
}

/// `plies` played in turn from `from`, as the record writes them, one string.
/// Whether neither side refilled a clock: the field is left out, as before banks existed.
fn no_refills(refills: &[Vec<Refill>; 2]) -> bool {
    refills.iter().all(Vec::is_empty)
}

fn joined(from: &dyn Board, plies: &[Ply]) -> String {
    codes(from, plies).join(" ")
}

/// How [`play_codes`] reads a code: [`Board::read_code`], or [`Board::read_code_unchecked`].
type ReadCode = fn(&dyn Board, &str) -> Option<Ply>;

/// `codes` (as [`joined`] writes them) read with `read` and played in turn from `pos`.
fn play_codes(pos: &mut Box<dyn Board>, codes: &str, read: ReadCode) -> Result<Vec<Ply>, String> {
    let mut plies = Vec::with_capacity(codes.len() / 5 + 1);
    for code in codes.split_ascii_whitespace() {
        let ply = read(pos.as_ref(), code)
            .ok_or_else(|| format!("move {code:?} is not legal after {} moves", plies.len()))?;
        pos.play(&ply);
        plies.push(ply);
    }
    Ok(plies)
}

impl Game {
    /// The game in plain values, read back by [`Game::from_saved`].
    pub fn to_saved(&self) -> SavedGame {
        // Named field by field: a field added to `Game` does not compile here until it is
        // saved too.
        let Game {
            id,
            white,
            black,
            start,
            start_fen,
            pos,
            moves,
            draw_offer,
            result,
            rules,
            timeline,
            reminders_sent,
            flagged,
            stopped,
            conditional,
            ended,
            langs,
        } = self;
        let (started, first, move_times, leave) = (
            timeline.started(),
            timeline.first(),
            timeline.moves(),
            timeline.leave(),
        );
        SavedGame {
            kind: pos.kind(),
            id: id.clone(),
            white: white.clone(),
            black: black.clone(),
            start_fen: start_fen.clone(),
            moves: joined(start.as_ref(), moves),
            draw_offer: draw_offer.map(is_white),
            result: result.as_ref().map(|r| SavedResult {
                winner: r.winner.map(is_white),
                reason: reason_name(r.reason).to_owned(),
                note: r.note.clone(),
            }),
            rules: rules.clone(),
            started: nanos(started),
            first_white: is_white(first),
            move_seconds: seconds_after(started, move_times),
            move_nanos: if move_times.iter().all(|t| t.subsec_nanosecond() == 0) {
                Vec::new()
            } else {
                move_times.iter().map(|t| t.subsec_nanosecond()).collect()
            },
            leave: leave.clone(),
            refills: timeline.refills().clone(),
            long_reflection: timeline.long_reflections().to_vec(),
            reminders_sent: *reminders_sent,
            flagged: *flagged,
            stopped: stopped.clone(),
            conditional: [
                joined(pos.as_ref(), &conditional[0]),
                joined(pos.as_ref(), &conditional[1]),
            ],
            ended: ended.map(nanos),
            langs: [langs[0].codes(), langs[1].codes()],
        }
    }

    /// A game written by [`Game::to_saved`]; an error when its moves do not play out from its
    /// start or a value does not read.
    pub fn from_saved(saved: SavedGame) -> Result<Game, String> {
        Game::from_saved_reading(saved, |board, code| board.read_code(code))
    }

    /// A game written by [`Game::to_saved`] and kept under a signature this relay checked (a
    /// start's snapshot): its moves were checked legal when they were played and are read
    /// back without checking each one again ([`Board::read_code_unchecked`]), about a quarter
    /// of reading a snapshot. `ccrelay journal verify` still replays them from the record.
    pub fn from_signed_saved(saved: SavedGame) -> Result<Game, String> {
        Game::from_saved_reading(saved, |board, code| board.read_code_unchecked(code))
    }

    fn from_saved_reading(saved: SavedGame, read: ReadCode) -> Result<Game, String> {
        let SavedGame {
            kind,
            id,
            white,
            black,
            start_fen,
            moves,
            draw_offer,
            result,
            rules,
            started,
            first_white,
            move_seconds,
            move_nanos,
            leave,
            refills,
            long_reflection,
            reminders_sent,
            flagged,
            stopped,
            conditional,
            ended,
            langs,
        } = saved;
        let start = shared_start(kind, start_fen.as_deref())?;
        let mut pos = start.boxed();
        let plies = play_codes(&mut pos, &moves, read)?;
        let lines = [
            play_codes(&mut pos.clone(), &conditional[0], read)?,
            play_codes(&mut pos.clone(), &conditional[1], read)?,
        ];
        let result = match result {
            Some(r) => Some(GameResult {
                winner: r.winner.map(color),
                reason: reason_of(&r.reason)?,
                note: r.note,
            }),
            None => None,
        };
        let read_langs =
            |codes: &str| LangSet::from_codes(codes).map_err(|e| format!("languages: {e}"));
        Ok(Game {
            id,
            white,
            black,
            start,
            start_fen,
            pos,
            moves: plies,
            draw_offer: draw_offer.map(color),
            result,
            rules,
            timeline: Timeline::of(
                time(started)?,
                color(first_white),
                times_after(time(started)?, &move_seconds, &move_nanos)?,
                leave,
            )
            .with_refills(refills)
            .with_long_reflections(long_reflection),
            reminders_sent,
            flagged,
            stopped,
            conditional: lines,
            ended: ended.map(time).transpose()?,
            langs: [read_langs(&langs[0])?, read_langs(&langs[1])?],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Claim};

    fn at(s: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + s).unwrap()
    }

    fn same(game: &Game) {
        let text = serde_json::to_string(&game.to_saved()).unwrap();
        let back = Game::from_saved(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(format!("{back:?}"), format!("{game:?}"));
        let signed = Game::from_signed_saved(serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(format!("{signed:?}"), format!("{game:?}"), "read as signed");
    }

    #[test]
    fn every_end_reason_reads_back() {
        for (reason, name) in REASONS {
            assert_eq!(reason_of(reason_name(reason)), Ok(reason), "{name}");
        }
    }

    #[test]
    fn a_game_with_moves_leave_a_conditional_line_and_a_result_reads_back_the_same() {
        let mut game = Game::new("g1", "alice", "boris", None)
            .unwrap()
            .with_rules(Rules::unlimited(), at(0));
        same(&game);
        for (i, text) in ["e4", "e5", "Nf3", "Nc6"].iter().enumerate() {
            let color = game.turn();
            let m = game.check_move(color, text, None, None).unwrap().ply;
            game.apply_by(
                color,
                &Action::Move {
                    m,
                    draw_offer: i == 3,
                },
                at(i as i64 + 1),
            );
        }
        let line: Vec<Ply> = {
            let mut pos = game.board().boxed();
            ["Bb5", "a6"]
                .iter()
                .map(|t| {
                    let p = pos.read(t, None).unwrap().ply;
                    pos.play(&p);
                    p
                })
                .collect()
        };
        // Black's line starts with White's next move.
        game.apply_by(Color::Black, &Action::Conditional(line), at(5));
        game.set_langs(Color::White, LangSet::only("ru".parse().unwrap()));
        same(&game);
        let claim = Action::Claim {
            claim: Claim::Repetition,
            m: None,
        };
        let _ = game.check(Color::White, &claim, at(6));
        game.apply_by(Color::White, &Action::Resign, at(7));
        assert!(game.result().is_some());
        same(&game);
    }

    /// A bank's refill and a long reflection declared ahead are kept, so a start from a
    /// snapshot counts the same clocks and judges silence the same.
    #[test]
    fn a_refill_and_a_long_reflection_read_back_the_same() {
        let block = Rules::iccf(
            "triple block 50 days + 3 days per move, bank 75, refill by hand"
                .parse()
                .unwrap(),
        );
        let mut game = Game::new("g1", "alice", "boris", None)
            .unwrap()
            .with_rules(block, at(0));
        let m = game.check_move(Color::White, "e4", None, None).unwrap().ply;
        game.apply(
            &Action::Move {
                m,
                draw_offer: false,
            },
            at(30 * 86_400),
        );
        let refill = Action::Refill { days: 1 };
        assert_eq!(game.check(Color::Black, &refill, at(31 * 86_400)), Ok(()));
        game.apply_by(Color::Black, &refill, at(31 * 86_400));
        assert_eq!(game.timeline().refills()[1].len(), 1);
        same(&game);
        let silent = Rules {
            silence_days: Some(40),
            ..Rules::default()
        };
        let mut game = Game::new("g2", "alice", "boris", None)
            .unwrap()
            .with_rules(silent, at(0));
        game.apply_by(Color::Black, &Action::LongReflection, at(1));
        assert_eq!(game.timeline().long_reflections(), [1]);
        same(&game);
    }

    #[test]
    fn move_times_with_nanoseconds_read_back_the_same() {
        let started = Timestamp::new(1_700_000_000, 250_000_000).unwrap();
        let mut game = Game::new("g1", "alice", "boris", None)
            .unwrap()
            .with_rules(Rules::unlimited(), started);
        for (i, text) in ["d4", "d5"].iter().enumerate() {
            let color = game.turn();
            let m = game.check_move(color, text, None, None).unwrap().ply;
            let at = Timestamp::new(1_700_000_100 + i as i64, 999_999_999).unwrap();
            game.apply_by(
                color,
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                at,
            );
        }
        same(&game);
    }

    #[test]
    fn a_draughts_game_reads_back_the_same() {
        let mut game = Game::of_kind(Kind::DraughtsRu, "d1", "alice", "boris", None).unwrap();
        for (i, text) in ["c3-d4", "f6-g5", "g3-f4"].iter().enumerate() {
            let color = game.turn();
            let m = game.check_move(color, text, None, None).unwrap().ply;
            game.apply_by(
                color,
                &Action::Move {
                    m,
                    draw_offer: false,
                },
                at(i as i64),
            );
        }
        same(&game);
    }

    #[test]
    fn a_saved_game_whose_moves_do_not_play_out_is_an_error() {
        let game = Game::new("g1", "alice", "boris", None).unwrap();
        let mut saved = game.to_saved();
        saved.moves = "5254 5254".to_owned();
        assert!(Game::from_saved(saved).unwrap_err().contains("not legal"));
    }
}
