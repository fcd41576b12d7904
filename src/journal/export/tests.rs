//! The official exports: a forged entry stays inside its own line, the PGN says the control
//! in words and each move's instant, the scoresheet shows charges, clocks and banks, a
//! refill by hand is in both.

use proptest::prelude::*;

use super::*;
use crate::command::text::refused_char;
use crate::game::clock::{Rules, TimeControl, TripleBlock};
use crate::journal::EntryKind;
use crate::journal::NewEntry;
use crate::journal::replay::{AdjudicationDetail, GameStartDetail};

/// A journal holding game `g1` (alice against boris), its first move, then a message, a
/// refused attempt and an adjudication carrying `hostile` (as a record written before the
/// one text check, or sent by a linked node, could): the exports of it.
fn exports_with(hostile: &str) -> (String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let conn = store::open(dir.path()).expect("journal");
    let start = GameStartDetail {
        kind: Default::default(),
        white: "alice".to_owned(),
        black: "boris".to_owned(),
        event: None,
        fen: None,
        rules: None,
        round: Some(hostile.to_owned()),
        board: None,
        leave: Default::default(),
        authority: Default::default(),
    };
    let mut entries = vec![NewEntry::new(
        "g1",
        "admin",
        "config",
        EntryKind::GameStart,
        "CREATE g1 alice boris",
    )];
    entries[0].detail = serde_json::to_string(&start).expect("detail");
    let mut moved = NewEntry::new("g1", "alice", "tcp", EntryKind::Move, "MOVE g1 e4");
    moved.iccf = Some("5254".to_owned());
    moved.san = Some("e4".to_owned());
    entries.push(moved);
    let mut message = NewEntry::new("g1", "boris", "tcp", EntryKind::Message, hostile);
    message.detail = hostile.to_owned();
    entries.push(message);
    let mut refused = NewEntry::new("g1", hostile, "email", EntryKind::Rejected, hostile);
    refused.detail = hostile.to_owned();
    entries.push(refused);
    let mut adjudicated = NewEntry::new("g1", "admin", "tcp", EntryKind::Adjudication, hostile);
    adjudicated.detail = serde_json::to_string(&AdjudicationDetail {
        result: "1-0".to_owned(),
        reason: hostile.to_owned(),
        withdrawal: false,
    })
    .expect("detail");
    entries.push(adjudicated);
    let mut prev = [0u8; 32];
    for (i, new) in entries.into_iter().enumerate() {
        prev = store::insert_entry(&conn, i as i64 + 1, &prev, new)
            .expect("entry")
            .hash;
    }
    let names = Names::default();
    let text = export(&conn, "g1", ExportFormat::Text, &names).expect("text export");
    let report = export(&conn, "g1", ExportFormat::Report, &names).expect("report");
    (text, report)
}

/// What an export must never hold, whatever the entries held: a character that breaks a
/// line, reorders it or hides in it.
fn assert_inert(export: &str) {
    for line in export.lines() {
        assert!(
            line.chars().all(|c| refused_char(c).is_none()),
            "{line:?} in\n{export}"
        );
    }
}

/// Every line of the text export that reads as an entry (`#n`), in order.
fn entry_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('#')).collect()
}

#[test]
fn a_forged_entry_in_a_message_stays_inside_its_own_line() {
    let forged = "gg\n#46 2026-01-03T00:00:00Z boris tcp resign \"RESIGN p1\" = 1-0 (resignation)\r\n  2026-01-03T00:00 boris      resign: \"RESIGN g1\"\u{1b}[2K\u{202E}\u{2028}\u{200B}";
    let (text, report) = exports_with(forged);
    assert_inert(&text);
    assert_inert(&report);
    let lines = entry_lines(&text);
    assert_eq!(lines.len(), 5, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("#{:<6} ", i + 1)), "{line}");
    }
    // The message is there, quoted and escaped, on the message's own line.
    assert!(
        lines[2].contains("\"gg\\n#46 2026-01-03T00:00:00Z boris tcp resign \\\"RESIGN p1\\\""),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains("\\u{1b}[2K\\u{202e}\\u{2028}\\u{200b}"),
        "{}",
        lines[2]
    );
    // The report's events: one line each (the message, the refusal, the adjudication).
    let events: Vec<&str> = report
        .lines()
        .skip_while(|l| *l != "Events:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(events.len(), 3, "{report}");
    assert!(events.iter().all(|l| l.starts_with("  2")), "{report}");
    assert!(!report.contains("\n#46"), "{report}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// No entry's text makes a line that reads as another entry, in either export.
    #[test]
    fn no_text_makes_a_line_of_its_own(hostile in proptest::collection::vec(
        prop_oneof![
            Just('\n'), Just('\r'), Just('#'), Just('"'), Just('\\'), Just(' '),
            Just('\u{1b}'), Just('\u{85}'), Just('\u{2028}'), Just('\u{2029}'),
            Just('\u{202E}'), Just('\u{2066}'), Just('\u{200B}'), Just('\u{200D}'),
            Just('\u{FEFF}'), Just('1'), Just('g'), Just('ж'),
        ],
        1..60,
    ).prop_map(|chars| chars.into_iter().collect::<String>())) {
        let (text, report) = exports_with(&hostile);
        assert_inert(&text);
        assert_inert(&report);
        let lines = entry_lines(&text);
        prop_assert_eq!(lines.len(), 5, "{}", text);
        for (i, line) in lines.iter().enumerate() {
            prop_assert!(line.starts_with(&format!("#{:<6} ", i + 1)), "{}", line);
        }
        let events = report
            .lines()
            .skip_while(|l| *l != "Events:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .count();
        prop_assert_eq!(events, 3, "{}", report);
    }
}
/// A journal holding game `g1` (alice against boris) under `rules`, started on
/// 2027-01-01 at 00:00 UTC, each move (ICCF numeric, SAN) made `seconds` after the start.
fn journal_with(rules: Rules, moves: &[(&str, &str, i64)]) -> (tempfile::TempDir, Connection) {
    journal_with_refills(rules, moves, &[])
}

/// [`journal_with`], with `refills` (player, days, seconds after the start) among the
/// moves by their times.
fn journal_with_refills(
    rules: Rules,
    moves: &[(&str, &str, i64)],
    refills: &[(&str, u32, i64)],
) -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().expect("tempdir");
    let conn = store::open(dir.path()).expect("journal");
    let t0: Timestamp = "2027-01-01T00:00:00Z".parse().expect("time");
    let start = GameStartDetail {
        kind: Default::default(),
        white: "alice".to_owned(),
        black: "boris".to_owned(),
        event: None,
        fen: None,
        rules: Some(rules),
        round: None,
        board: None,
        leave: Default::default(),
        authority: Default::default(),
    };
    let mut first = NewEntry::new("g1", "admin", "config", EntryKind::GameStart, "CREATE g1");
    first.time = t0;
    first.detail = serde_json::to_string(&start).expect("detail");
    let mut entries = vec![first];
    for (i, (iccf, san, seconds)) in moves.iter().enumerate() {
        let player = if i % 2 == 0 { "alice" } else { "boris" };
        let mut moved = NewEntry::new("g1", player, "tcp", EntryKind::Move, "MOVE");
        moved.iccf = Some((*iccf).to_owned());
        moved.san = Some((*san).to_owned());
        moved.time = t0 + jiff::SignedDuration::from_secs(*seconds);
        entries.push(moved);
    }
    for (player, days, seconds) in refills {
        let mut refill = NewEntry::new("g1", player, "tcp", EntryKind::Refill, "BANK");
        refill.detail = days.to_string();
        refill.time = t0 + jiff::SignedDuration::from_secs(*seconds);
        entries.push(refill);
    }
    entries.sort_by_key(|e| e.time);
    let mut prev = [0u8; 32];
    for (i, new) in entries.into_iter().enumerate() {
        prev = store::insert_entry(&conn, i as i64 + 1, &prev, new)
            .expect("entry")
            .hash;
    }
    (dir, conn)
}

const H: i64 = 3600;
const D: i64 = 86_400;

/// The PGN of a game under ICCF's counting, whole: the standard's `TimeControl` in
/// seconds, the control in ccrelay's words (`CCTimeControl`, read back to the same rules),
/// the instant the clocks started, and each move's instant to the second (`%ccsnt`).
#[test]
fn the_pgn_says_the_control_in_words_and_each_moves_instant() {
    let rules = Rules::iccf(TimeControl::default());
    let (_dir, conn) = journal_with(
        rules.clone(),
        &[
            ("5254", "e4", D + 3 * H + 25),
            ("5755", "e5", 23 * D + 5 * H),
            ("7163", "Nf3", 23 * D + 14 * H + 3 * 60 + 7),
        ],
    );
    let pgn = export(&conn, "g1", ExportFormat::Pgn, &Names::default()).expect("pgn");
    assert_eq!(
        pgn,
        r#"[Event "?"]
[Site "?"]
[Date "2027.01.01"]
[Round "-"]
[White "alice"]
[Black "boris"]
[Result "*"]
[GameId "g1"]
[UTCDate "2027.01.01"]
[UTCTime "00:00:00"]
[TimeControl "10/4320000"]
[CCTimeControl "10 moves in 50 days, whole days, doubled after 20 days"]
[WhiteNA "-"]
[BlackNA "-"]
[Mode "TC"]
[Termination "unterminated"]

1. e4 {[%ccsnt 2027.01.02,03:00:25]} 1... e5 {[%ccsnt 2027.01.24,05:00:00]}
2. Nf3 {[%ccsnt 2027.01.24,14:03:07]} *
"#
    );
    let words = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[CCTimeControl \""))
        .and_then(|l| l.strip_suffix("\"]"))
        .expect("the tag");
    assert_eq!(
        Rules::read_time_words(words),
        Ok((rules.time_control, rules.counting, rules.double_after_days))
    );
    // ccrelay's own reader reads it back, comments and all.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    crate::convert::convert(
        pgn.as_bytes(),
        &mut out,
        &mut err,
        &crate::convert::Options {
            to: crate::convert::Format::Uci,
            lang: None,
            start: None,
        },
    )
    .expect("convert");
    assert_eq!(
        String::from_utf8_lossy(&out),
        "e2e4 e7e5 g1f3\n",
        "{}",
        String::from_utf8_lossy(&err)
    );
}

/// The scoresheet: each move's date and the days it took, and what it was charged where
/// the control charges otherwise; for Fischer and Triple Block the clock (and bank) after
/// each move; both clocks at the end.
#[test]
fn the_scoresheet_shows_charges_clocks_and_banks() {
    // ICCF: Black's 22 days and 5 hours are charged 24.
    let (_dir, conn) = journal_with(
        Rules::iccf(TimeControl::default()),
        &[("5254", "e4", D + 3 * H), ("5755", "e5", 23 * D + 8 * H)],
    );
    let sheet = export(&conn, "g1", ExportFormat::Iccf, &Names::default()).expect("sheet");
    assert!(
        sheet.contains("Time control: 10 moves in 50 days, whole days, doubled after 20 days"),
        "{sheet}"
    );
    assert!(
        sheet.contains("   1.  5254   2027-01-02    1.1/1  5755   2027-01-24   22.2/24\n"),
        "{sheet}"
    );
    assert!(sheet.contains("/N: the days charged for it"), "{sheet}");
    assert!(!sheet.contains("The clock after each move"), "{sheet}");
    assert!(
        sheet.contains(
            "Clocks as of 2027-01-24T08:00:00Z:\n  White: 1d 03h used, charged 1d, 49d 00h left\n  Black: 22d 05h used, charged 24d, 26d 00h left\n"
        ),
        "{sheet}"
    );
    // Triple Block: White's 40 days 12 hours leave 9d 12h + 3, refilled from the bank.
    let (_dir, conn) = journal_with(
        Rules::iccf(TimeControl::TripleBlock(TripleBlock::iccf(3, 75))),
        &[
            ("5254", "e4", 40 * D + 12 * H),
            ("5755", "e5", 42 * D + 12 * H),
        ],
    );
    let sheet = export(&conn, "g1", ExportFormat::Iccf, &Names::default()).expect("sheet");
    assert!(
        sheet.contains("   1.  5254   2027-02-10   40.5  5755   2027-02-12    2.0\n"),
        "{sheet}"
    );
    assert!(
        !sheet.contains("/N"),
        "exact: nothing charged otherwise: {sheet}"
    );
    assert!(
        sheet.contains(
            "The clock after each move:\n  No.  White                   Black\n   1.  50d 00h, bank 37.5      50d 00h, bank 75\n"
        ),
        "{sheet}"
    );
    assert!(
        sheet.contains("  White: 40d 12h used, 50d 00h left, bank 37.5d\n"),
        "{sheet}"
    );
}

/// A refill from the bank by hand (`BANK`) is in both exports: in the PGN as
/// `[%ccrefill days,instant]` before the move it was made for, in the scoresheet listed
/// with its date; the clocks count it.
#[test]
fn a_refill_from_the_bank_is_in_the_pgn_and_the_scoresheet() {
    let mut block = TripleBlock::iccf(3, 75);
    block.auto_refill = false;
    let (_dir, conn) = journal_with_refills(
        Rules::iccf(TimeControl::TripleBlock(block)),
        &[("5254", "e4", D), ("5755", "e5", 32 * D)],
        &[("boris", 10, 31 * D)],
    );
    let pgn = export(&conn, "g1", ExportFormat::Pgn, &Names::default()).expect("pgn");
    assert!(
        pgn.contains(
            "1. e4 {[%ccsnt 2027.01.02,00:00:00]} {[%ccrefill 10,2027.02.01,00:00:00]}\n1... e5 {[%ccsnt 2027.02.02,00:00:00]} *"
        ),
        "{pgn}"
    );
    let sheet = export(&conn, "g1", ExportFormat::Iccf, &Names::default()).expect("sheet");
    assert!(
        sheet.contains(
            "Days moved from the bank to the clock:\n  Black  2027-02-01 00:00  10 day(s)\n"
        ),
        "{sheet}"
    );
    // Black: 31 days thought, 10 days moved in, 3 earned: 50 - 31 + 10 + 3 = 32 on the
    // clock, 75 - 10 = 65 in the bank.
    assert!(
        sheet.contains("  Black: 31d 00h used, 32d 00h left, bank 65d\n"),
        "{sheet}"
    );
}

/// A journal of four games and a starting rating: boris resigns `g0` to alice in the
/// fourth quarter of 2026 (games outside events rated, as `rules` says); dave is given 1850 on
/// 2 November 2026; then `g1` (alice against carol, never rated) and `g3` (dave against
/// carol) start in 2027, and `g2` (boris against alice) on the last day of 2026, before the
/// list that rates `g0` took effect.
fn rated_journal() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().expect("tempdir");
    let conn = store::open(dir.path()).expect("journal");
    let start = |game: &str, white: &str, black: &str, at: &str| {
        let detail = GameStartDetail {
            kind: Default::default(),
            white: white.to_owned(),
            black: black.to_owned(),
            event: None,
            fen: None,
            rules: None,
            round: None,
            board: None,
            leave: Default::default(),
            authority: Default::default(),
        };
        let mut entry = NewEntry::new(game, "admin", "config", EntryKind::GameStart, "CREATE");
        entry.time = at.parse().expect("time");
        entry.detail = serde_json::to_string(&detail).expect("detail");
        entry
    };
    let mut resigned = NewEntry::new("g0", "boris", "tcp", EntryKind::Resign, "RESIGN");
    resigned.time = "2026-10-06T12:00:00Z".parse().expect("time");
    let mut seeded = NewEntry::new("", "admin", "admin", EntryKind::RatingSet, "PLAYER SET");
    seeded.time = "2026-11-02T09:00:00Z".parse().expect("time");
    seeded.detail = serde_json::to_string(&crate::journal::registry::RatingDetail {
        player: "dave".to_owned(),
        rating: 1850,
        deviation: 120,
        reason: "from another federation".to_owned(),
    })
    .expect("detail");
    let entries = vec![
        start("g0", "alice", "boris", "2026-10-05T00:00:00Z"),
        resigned,
        seeded,
        start("g2", "boris", "alice", "2026-12-31T23:00:00Z"),
        start("g1", "alice", "carol", "2027-01-01T00:00:00Z"),
        start("g3", "dave", "carol", "2027-02-01T00:00:00Z"),
    ];
    let mut prev = [0u8; 32];
    for (i, new) in entries.into_iter().enumerate() {
        prev = store::insert_entry(&conn, i as i64 + 1, &prev, new)
            .expect("entry")
            .hash;
    }
    (dir, conn)
}

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    pgn.lines()
        .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// A player on the list in effect on the day a game started has their rating, rounded to a
/// whole number, in `WhiteRating`/`BlackRating` (never `WhiteElo`); a player not on it has
/// no tag; a game that started before the list that rated a result took effect names none.
#[test]
fn the_pgn_names_the_ratings_in_effect_when_the_game_started() {
    let (_dir, conn) = rated_journal();
    let names = Names {
        rating_rules: crate::event::rating::RatingRules {
            outside_events: true,
            ..Default::default()
        },
        ..Names::default()
    };
    // Glicko-2 gives the winner of a game between two newcomers (1500, deviation 350)
    // 1662.31: named 1662.
    let g1 = export(&conn, "g1", ExportFormat::Pgn, &names).expect("pgn");
    assert_eq!(tag(&g1, "WhiteRating"), Some("1662"), "{g1}");
    assert_eq!(tag(&g1, "BlackRating"), None, "{g1}");
    assert!(!g1.contains("Elo"), "{g1}");
    // Both tags after the Seven Tag Roster, before the game's own.
    let after_result = g1.lines().skip_while(|l| !l.starts_with("[Result ")).nth(1);
    assert_eq!(after_result, Some("[WhiteRating \"1662\"]"), "{g1}");
    let g3 = export(&conn, "g3", ExportFormat::Pgn, &names).expect("pgn");
    assert_eq!(tag(&g3, "WhiteRating"), Some("1850"), "{g3}");
    assert_eq!(tag(&g3, "BlackRating"), None, "{g3}");
    // g2 started on the last day of the period g0 ended in: that list held nobody.
    let g2 = export(&conn, "g2", ExportFormat::Pgn, &names).expect("pgn");
    assert_eq!(tag(&g2, "WhiteRating"), None, "{g2}");
    assert_eq!(tag(&g2, "BlackRating"), None, "{g2}");
    // Games outside events are unrated by default: no tag at all.
    let unrated = export(&conn, "g1", ExportFormat::Pgn, &Names::default()).expect("pgn");
    assert!(!unrated.contains("Rating"), "{unrated}");
    // Several games in one export, the list made once, each game its own day's ratings.
    let shown = pgn_shown(
        &conn,
        &[("g2".to_owned(), None), ("g1".to_owned(), None)],
        &names,
    )
    .expect("pgn");
    assert_eq!(
        shown.matches("[WhiteRating \"1662\"]").count(),
        1,
        "{shown}"
    );
    assert!(!shown.contains("BlackRating"), "{shown}");
}
