//! The arbiter's special leave (`LEAVE first days FOR player reason`): outside the player's
//! yearly allowance, held to the rest of leave's rules, and what stops a clock.

use shakmaty::Color;

use super::*;
use crate::game::clock::Leave;
use crate::journal::replay;

const LEAVE: &str = r#"
[clock]
mode = "manual"
start = "2027-01-01T00:00:00Z"

[admin]
secret_hash = "HASH"

[[players]]
id = "alice"
secret_hash = "HASH"
notation = "san"

[[players]]
id = "boris"
secret_hash = "HASH"
notation = "san"

[[events]]
id = "open"
time_control = "10 moves in 50 days"

[[games]]
id = "g1"
event = "open"
white = "alice"
black = "boris"
"#;

impl Fixture {
    fn replayed_leave(&self, color: Color) -> Vec<Leave> {
        let conn = store::open_read_only(self.dir.path()).expect("read journal");
        let replayed = replay::replay(&conn).expect("replay");
        replayed.games["g1"]
            .game
            .timeline()
            .leave_of(color)
            .to_vec()
    }
}

/// Sixty days of special leave stop White's clock past the 45 days a player may take, and
/// past the 50 days White has: no loss on time, and a restart reads the same leave.
#[tokio::test]
async fn special_leave_stops_the_clock_beyond_the_yearly_allowance() {
    let f = testing::spawn(LEAVE).await;
    let own = f.say(player("alice"), "LEAVE 2027-01-02 60").await;
    assert_eq!(own.status, Status::Refused, "{}", own.text);
    let granted = f
        .say(
            admin(),
            "LEAVE 2027-01-02 60 FOR alice illness, a doctor's note",
        )
        .await;
    assert_eq!(granted.status, Status::Done, "{}", granted.text);
    assert_eq!(
        granted.text,
        "special leave 2027-01-02 to 2027-03-02 (60 days) for alice in g1"
    );
    for reader in ["alice", "boris"] {
        let notices = f.waiting(reader).await;
        assert!(
            notices
                .iter()
                .any(|n| n.contains("alice (White) is on special leave (the arbiter's) 2027-01-02")),
            "{reader}: {notices:?}"
        );
    }
    f.say_all(&[("admin", "CLOCK +70d")]).await;
    assert_eq!(
        f.kinds(EntryKind::TimeUp),
        0,
        "the clock stopped for the leave"
    );
    let show = f.say(player("alice"), "SHOW g1").await;
    assert!(!show.text.contains("lost on time"), "{}", show.text);
    assert_eq!(
        f.replayed_leave(Color::White),
        vec![Leave::special(jiff::civil::date(2027, 1, 2), 60)]
    );
    let entry = f
        .entries()
        .into_iter()
        .find(|(kind, ..)| *kind == EntryKind::SpecialLeave)
        .expect("a special_leave entry");
    assert_eq!(entry.1, "admin", "the arbiter's entry");
}

/// The player's own leave is counted without the special leave: 40 days of their own, 30
/// special, 5 more of their own is 45; one more is refused.
#[tokio::test]
async fn special_leave_is_not_counted_in_the_players_allowance() {
    let f = testing::spawn(LEAVE).await;
    f.say_all(&[
        ("alice", "LEAVE 2027-02-01 40"),
        ("admin", "LEAVE 2027-04-01 30 FOR alice work abroad"),
        ("alice", "LEAVE 2027-06-01 5"),
    ])
    .await;
    let over = f.say(player("alice"), "LEAVE 2027-07-01 1").await;
    assert_eq!(over.status, Status::Refused, "{}", over.text);
    assert!(over.text.contains("45"), "{}", over.text);
    assert_eq!(f.replayed_leave(Color::White).len(), 3);
}

/// What special leave refuses, each with its reason and nothing recorded: a player asking
/// for it, a day not ahead, leave it overlaps, no reason, a stranger, a finished game.
#[tokio::test]
async fn special_leave_refusals_record_nothing() {
    let f = testing::spawn(LEAVE).await;
    f.say_all(&[("admin", "LEAVE 2027-03-01 10 FOR alice illness")])
        .await;
    let cases = [
        (
            player("alice"),
            "LEAVE 2027-05-01 5 FOR alice illness",
            Status::Forbidden,
            "granted by the arbiter",
        ),
        (
            admin(),
            "LEAVE 2027-01-01 5 FOR alice illness",
            Status::Refused,
            "2027-01-02",
        ),
        (
            admin(),
            "LEAVE 2027-03-05 3 FOR alice illness",
            Status::Refused,
            "2027-03-01",
        ),
        (
            admin(),
            "LEAVE 2027-05-01 5 FOR nobody illness",
            Status::NotFound,
            "nobody",
        ),
    ];
    for (sender, line, status, says) in cases {
        let reply = f.say(sender, line).await;
        assert_eq!(reply.status, status, "{line}: {}", reply.text);
        assert!(reply.text.contains(says), "{line}: {}", reply.text);
    }
    assert!(
        Command::parse("LEAVE 2027-05-01 5 FOR alice").is_err(),
        "a reason is required"
    );
    assert_eq!(f.kinds(EntryKind::SpecialLeave), 1);
    f.say_all(&[("alice", "RESIGN g1")]).await;
    let over = f.say(admin(), "LEAVE 2027-05-01 5 FOR alice illness").await;
    assert_eq!(over.status, Status::Refused, "{}", over.text);
    assert!(over.text.contains("no game in progress"), "{}", over.text);
    assert_eq!(f.kinds(EntryKind::SpecialLeave), 1);
}
