//! The rating list through the relay: Glickman's worked example as results the relay
//! records (the starting ratings journaled by the arbiter, the games adjudicated), the list
//! `RATINGS` answers with, and the same list made from the journal alone, as a restart and
//! `ccrelay journal ratings` make it.

use super::*;
use crate::journal::export::Names;
use crate::journal::ratings::{ListFormat, list_from_journal, write_list};

const RATED: &str = r#"
[clock]
mode = "manual"
start = "2026-01-01T00:00:00Z"

[admin]
secret_hash = "HASH"

[[players]]
id = "p"
secret_hash = "HASH"

[[players]]
id = "a"
secret_hash = "HASH"

[[players]]
id = "b"
secret_hash = "HASH"

[[players]]
id = "c"
secret_hash = "HASH"

[[events]]
id = "club"

[[events]]
id = "friendly"
rated = false

[[events]]
id = "quick"
time_control = "2 moves in 10 days"
"#;

/// The list effective 1 April 2026 gives `p` Glickman's 1464.05 and 151.52; the unrated
/// event's game, the game in no event and the loss on time without a move change nothing.
#[tokio::test]
async fn glickmans_example_from_results_to_the_list() {
    let f = testing::spawn(RATED).await;
    f.say_all(&[
        (
            "admin",
            "PLAYER SET p RATING 1500 RD 200 Glickman's example",
        ),
        ("admin", "PLAYER SET a RATING 1400 RD 30 Glickman's example"),
        (
            "admin",
            "PLAYER SET b RATING 1550 RD 100 Glickman's example",
        ),
        (
            "admin",
            "PLAYER SET c RATING 1700 RD 300 Glickman's example",
        ),
        ("admin", "CREATE g1 p a EVENT club"),
        ("admin", "CREATE g2 b p EVENT club"),
        ("admin", "CREATE g3 p c EVENT club"),
        ("admin", "CREATE u1 p a EVENT friendly"),
        ("admin", "CREATE x1 p b"),
        ("admin", "CREATE f1 p c EVENT quick"),
        ("admin", "ADJUDICATE g1 1-0 won on the board"),
        ("admin", "ADJUDICATE g2 1-0 won on the board"),
        ("admin", "ADJUDICATE g3 0-1 won on the board"),
        ("admin", "ADJUDICATE u1 0-1 a friendly"),
        ("admin", "ADJUDICATE x1 0-1 outside events"),
        // p (White) never moves in f1: lost on time, without a move.
        ("admin", "CLOCK +11d"),
    ])
    .await;
    let early = f.say(player("a"), "RATINGS").await;
    assert!(early.text.contains("0 player(s)"), "{}", early.text);
    f.say_all(&[("admin", "CLOCK 2026-04-01T00:00:00Z")]).await;
    let list = f.say(player("a"), "RATINGS").await;
    assert_eq!(list.status, Status::Done, "{}", list.text);
    assert!(
        list.text
            .starts_with("rating list effective 2026-04-01 (quarter periods): 4 player(s)"),
        "{}",
        list.text
    );
    let mine = f.say(player("a"), "RATINGS p").await;
    assert!(
        mine.text
            .starts_with("p: 1464.05? RD 151.52 games 3 new (list effective 2026-04-01)"),
        "{}",
        mine.text
    );
    assert!(
        mine.text.contains("history: 2026-04-01 1464.05/151.52"),
        "{}",
        mine.text
    );
    let unknown = f.say(player("a"), "RATINGS nobody").await;
    assert_eq!(unknown.status, Status::NotFound);

    // The same list from the journal alone, as a restart replays it.
    let conn = store::open_read_only(f.dir.path()).expect("journal");
    let as_of = jiff::civil::date(2026, 4, 1);
    let rules = &f.config.ratings;
    let (from_record, _) = list_from_journal(&conn, &f.config.events, rules, as_of).expect("list");
    let p = from_record.get("p").expect("p on the list");
    assert!((p.rating.rating - 1464.06).abs() < 0.01, "{p:?}");
    assert!((p.rating.deviation - 151.52).abs() < 0.01, "{p:?}");
    let text = write_list(&from_record, rules, &Names::default(), ListFormat::Csv);
    assert!(text.contains("\np,\"p\",3,1464.05,151.52,yes,\n"), "{text}");
    let again = list_from_journal(&conn, &f.config.events, rules, as_of)
        .expect("list")
        .0;
    assert_eq!(
        write_list(&again, rules, &Names::default(), ListFormat::Csv),
        text
    );
}

/// Only the arbiter gives a rating, only to a known player, and the record keeps it.
#[tokio::test]
async fn a_starting_rating_is_the_arbiters_and_journaled() {
    let f = testing::spawn(RATED).await;
    let refused = f
        .say(player("p"), "PLAYER SET p RATING 2700 RD 50 I deserve it")
        .await;
    assert_eq!(refused.status, Status::Forbidden, "{}", refused.text);
    let unknown = f
        .say(admin(), "PLAYER SET nobody RATING 1850 RD 120 from ICCF")
        .await;
    assert_eq!(unknown.status, Status::NotFound, "{}", unknown.text);
    f.say_all(&[("admin", "PLAYER SET p RATING 1850 RD 120 from ICCF")])
        .await;
    let rated: Vec<_> = f
        .entries()
        .into_iter()
        .filter(|(kind, _, _)| *kind == EntryKind::RatingSet)
        .collect();
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].2, "PLAYER SET p RATING 1850 RD 120 from ICCF");
}

/// `EVENT SEED ... BY rating` numbers the entrants by the list in effect, a player not on it
/// at the starting rating, equal ratings in the lot's order; the record keeps the ratings.
#[tokio::test]
async fn seeding_numbers_the_entrants_by_rating() {
    let f = testing::spawn(RATED).await;
    f.say_all(&[
        ("admin", "PLAYER SET a RATING 1900 RD 100 from ICCF"),
        ("admin", "PLAYER SET b RATING 1700 RD 100 from ICCF"),
        ("admin", "PLAYER SET c RATING 1700 RD 100 from ICCF"),
        ("admin", "CLOCK 2026-04-02T00:00:00Z"),
        ("admin", "EVENT NEW spring SYSTEM round-robin"),
        ("admin", "EVENT ENTER spring p b c a"),
    ])
    .await;
    let seeded = f.say(admin(), "EVENT SEED spring BY rating").await;
    assert_eq!(seeded.status, Status::Done, "{}", seeded.text);
    assert!(
        seeded
            .text
            .starts_with("seeded by rating, ties by lot with seed "),
        "{}",
        seeded.text
    );
    let order = seeded.text.split_once(": ").expect("the order").1;
    assert!(
        order == "1 a, 2 b, 3 c, 4 p" || order == "1 a, 2 c, 3 b, 4 p",
        "{order}"
    );
    let draw = f
        .entries()
        .into_iter()
        .find(|(kind, _, _)| *kind == EntryKind::EventDraw)
        .expect("journaled");
    assert_eq!(draw.2, "EVENT SEED spring BY rating");
    let match_refused = f.say(admin(), "EVENT SEED nosuch BY rating").await;
    assert_eq!(match_refused.status, Status::NotFound);
}

/// The list the relay keeps between requests is made again when a rated result changes: a
/// result corrected by the arbiter, asked for after the list was shown, moves both players,
/// as the list made from the journal does; asked twice with nothing changed, it is the same.
#[tokio::test]
async fn a_corrected_result_makes_the_kept_list_again() {
    let f = testing::spawn(RATED).await;
    f.say_all(&[
        ("admin", "CREATE g1 p a EVENT club"),
        ("admin", "ADJUDICATE g1 1-0 won on the board"),
        ("admin", "CLOCK 2026-04-02T00:00:00Z"),
    ])
    .await;
    let before = f.say(player("a"), "RATINGS").await.text;
    assert_eq!(f.say(player("a"), "RATINGS").await.text, before);
    f.say_all(&[("admin", "ADJUDICATE g1 0-1 appeal upheld")])
        .await;
    let after = f.say(player("a"), "RATINGS").await.text;
    assert_ne!(after, before, "the kept list was made again");
    let first = |text: &str| text.lines().nth(1).map(str::to_owned);
    assert!(
        first(&after).is_some_and(|l| l.contains(" a ") || l.contains("a ")),
        "a is first now: {after}"
    );
}
