//! ICCF's rules through the relay: a Triple Block refill (`BANK`) and leave left out of such a
//! game, a long reflection declared ahead (`SILENCE g1 LONG`), no draw before the event's move,
//! and the bar on entries after a loss on time with the arbiter's override. Each refusal is a
//! table row with its reason; each rule's state is read back from the record as a restart
//! reads it.

use jiff::Timestamp;
use shakmaty::Color;

use super::*;
use crate::journal::replay;

/// Players, events with ICCF's rules, and a game in each (`HASH`: a cheap hash).
const ICCF: &str = r#"
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

[[players]]
id = "carol"
secret_hash = "HASH"
notation = "san"

[[events]]
id = "tb"
time_control = "triple block 50 days + 3 days per move, bank 75, refill by hand"

[[events]]
id = "silent"
time_control = "10 moves in 50 days"
silence_days = 40

[[events]]
id = "late"
draw_offers_from_move = 3

[[events]]
id = "quick"
time_control = "2 moves in 10 days"

[[games]]
id = "t1"
event = "tb"
white = "alice"
black = "boris"

[[games]]
id = "t2"
event = "tb"
white = "carol"
black = "boris"

[[games]]
id = "s1"
event = "silent"
white = "alice"
black = "boris"

[[games]]
id = "d1"
event = "late"
white = "alice"
black = "boris"
"#;

async fn iccf() -> Fixture {
    testing::spawn(ICCF).await
}

const DAY: i64 = 86_400;

impl Fixture {
    /// Every game as a replay of the journal holds it (what a restart and `journal verify`
    /// read).
    pub(super) fn replayed(&self) -> replay::Replayed {
        let conn = store::open_read_only(self.dir.path()).expect("read journal");
        replay::replay(&conn).expect("replay")
    }

    pub(super) fn kinds(&self, kind: EntryKind) -> usize {
        self.entries().iter().filter(|(k, ..)| *k == kind).count()
    }

    /// Each line said by its sender, each refused with its status and a reply containing its
    /// reason.
    async fn refused_all(&self, cases: &[(&str, &str, Status, &str)]) {
        for (who, line, status, says) in cases {
            let sender = if *who == "admin" {
                admin()
            } else {
                player(who)
            };
            let reply = self.say(sender, line).await;
            assert_eq!(reply.status, *status, "{line}: {}", reply.text);
            assert!(reply.text.contains(says), "{line}: {}", reply.text);
        }
    }
}

/// docs/rules.md's example: White thinks 30 days (clock 23 days, bank 75), then 10 days into
/// its second move moves 20 days from the bank: 33 days on the clock, 55 in the bank. The
/// opponent is told; the record gives the same clock when replayed.
#[tokio::test]
async fn bank_moves_days_to_the_clock_on_the_players_move_and_is_told() {
    let f = iccf().await;
    f.say_all(&[
        ("admin", "CLOCK +30d"),
        ("alice", "MOVE t1 e4"),
        ("boris", "MOVE t1 e5"),
        ("admin", "CLOCK +10d"),
    ])
    .await;
    let reply = f.say(player("alice"), "BANK t1 20").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(
        reply.text.starts_with(
            "bank t1: 20 day(s) moved to the clock; clock: White clock 33d 00h, bank 55d (running)"
        ),
        "{}",
        reply.text
    );
    let told = f.waiting("boris").await;
    assert!(
        told.iter()
            .any(|t| t == "BANK t1 alice (White) moved 20 day(s) from the bank to the clock"),
        "{told:?}"
    );
    let game = &f.replayed().games["t1"].game;
    let now: Timestamp = "2027-02-10T00:00:00Z".parse().expect("time");
    let white = game.side_time(Color::White, now);
    assert_eq!(
        (white.left, white.bank),
        (Some(33 * DAY), Some(55 * DAY)),
        "the record's clock"
    );
    assert_eq!(f.kinds(EntryKind::Refill), 1);
}

/// Every refusal of `BANK`, with [`crate::game::clock::Timeline::check_refill`]'s reason:
/// journaled as refused, no refill recorded, the clock unchanged.
#[tokio::test]
async fn bank_is_refused_with_the_reason() {
    let f = iccf().await;
    f.say_all(&[
        ("admin", "CLOCK +30d"),
        ("alice", "MOVE t1 e4"),
        ("boris", "MOVE t1 e5"),
        ("admin", "CLOCK +10d"),
        ("alice", "BANK t1 20"),
    ])
    .await;
    let rejected = f.kinds(EntryKind::Rejected);
    f.refused_all(&[
        (
            "boris",
            "BANK t1 5",
            Status::Refused,
            "refill refused: a clock is refilled while its side is to move",
        ),
        (
            "alice",
            "BANK t1 60",
            Status::Refused,
            "refill refused: the bank holds 55 day(s), 60 asked",
        ),
        (
            "alice",
            "BANK t1 18",
            Status::Refused,
            "refill refused: the clock holds at most 50 days: 17 day(s) fit on it now, 18 asked",
        ),
        (
            "alice",
            "BANK s1 3",
            Status::Refused,
            "refill refused: only a Triple Block game has a bank",
        ),
        (
            "carol",
            "BANK t1 1",
            Status::Forbidden,
            "you do not play in game t1",
        ),
    ])
    .await;
    assert_eq!(f.kinds(EntryKind::Refill), 1, "no refill recorded");
    assert_eq!(f.kinds(EntryKind::Rejected), rejected + 4);
    // After the clock ran out the game is over: nothing to refill.
    f.say_all(&[("admin", "CLOCK +34d")]).await;
    let reply = f.say(player("alice"), "BANK t1 1").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(
        reply.text.contains("the game is over: 0-1 (lost on time)"),
        "{}",
        reply.text
    );
}

/// `LEAVE` in a Triple Block game: refused with the rules' reason when it is all the player
/// has, nothing recorded; left out of it, and said, when the player has other games.
#[tokio::test]
async fn leave_is_refused_in_a_triple_block_game() {
    let f = iccf().await;
    let reply = f.say(player("carol"), "LEAVE 2027-02-01 5").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert_eq!(
        reply.text,
        "game t2: leave refused: a Triple Block game has no leave: refill the clock from the bank"
    );
    assert_eq!(f.kinds(EntryKind::Leave), 0);
    let reply = f.say(player("alice"), "LEAVE 2027-02-01 5").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert_eq!(
        reply.text,
        "leave 2027-02-01 to 2027-02-05 (5 days) in d1, s1; not in t1: a Triple Block game has no leave: refill the clock from the bank"
    );
    let replayed = f.replayed();
    assert!(
        replayed.games["t1"]
            .game
            .timeline()
            .leave_of(Color::White)
            .is_empty(),
        "no leave in the Triple Block game"
    );
    assert_eq!(
        replayed.games["s1"]
            .game
            .timeline()
            .leave_of(Color::White)
            .len(),
        1
    );
    // A Triple Block game started during leave is not covered by it.
    f.say_all(&[("admin", "CREATE t3 boris alice EVENT tb")])
        .await;
    assert!(
        f.replayed().games["t3"]
            .game
            .timeline()
            .leave_of(Color::Black)
            .is_empty()
    );
}

/// `SILENCE s1 LONG`: declared ahead for the player's next move, told to the opponent and the
/// arbiter; past the silence limit the game goes on, until the time control ends it.
#[tokio::test]
async fn a_long_reflection_keeps_the_game_past_the_silence_limit() {
    let f = iccf().await;
    f.say_all(&[("alice", "MOVE s1 d4")]).await;
    let reply = f.say(player("alice"), "SILENCE s1 LONG").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(
        reply.text.starts_with(
            "silence s1: a long reflection declared for your move 2; the silence limit does not end the game on it"
        ),
        "{}",
        reply.text
    );
    let said = "SILENCE s1 alice (White) declared a long reflection for move 2: the silence limit does not end the game on it";
    for reader in ["boris", "admin"] {
        let told = f.waiting(reader).await;
        assert!(told.iter().any(|t| t == said), "{reader}: {told:?}");
    }
    f.say_all(&[("boris", "MOVE s1 d5"), ("admin", "CLOCK +45d")])
        .await;
    let shown = f.say(player("alice"), "SHOW s1").await;
    assert!(!shown.text.contains("result:"), "{}", shown.text);
    assert!(
        f.replayed().games["s1"].game.result().is_none(),
        "the record gives the same verdict"
    );
    // The time control still ends it: 50 days for move 2.
    f.say_all(&[("admin", "CLOCK +6d")]).await;
    let shown = f.say(player("alice"), "SHOW s1").await;
    assert!(shown.text.contains("0-1 (lost on time)"), "{}", shown.text);
}

/// Every refusal of `SILENCE LONG`, with its reason.
#[tokio::test]
async fn a_long_reflection_is_refused_with_the_reason() {
    let f = iccf().await;
    f.say_all(&[("alice", "SILENCE s1 LONG")]).await;
    f.refused_all(&[
        (
            "alice",
            "SILENCE s1 LONG",
            Status::Refused,
            "long reflection refused: a long reflection is declared already for your current move",
        ),
        (
            "alice",
            "SILENCE t1 LONG",
            Status::Refused,
            "long reflection refused: a Triple Block game has no silence limit",
        ),
        (
            "alice",
            "SILENCE d1 LONG",
            Status::Refused,
            "long reflection refused: this game has no silence limit: there is nothing to declare",
        ),
        (
            "carol",
            "SILENCE s1 LONG",
            Status::Forbidden,
            "you do not play in game s1",
        ),
    ])
    .await;
    assert_eq!(f.kinds(EntryKind::LongReflection), 1);
}

/// "No draw offer before move 3": an offer alone, with a move, and an acceptance are refused
/// before it with the reason; from move 3 they are allowed, and the record replays the same.
#[tokio::test]
async fn no_draw_is_offered_or_agreed_before_the_events_move() {
    let f = iccf().await;
    let too_early = "too early for a draw: in this event no draw is offered or agreed before move 3; this is move";
    f.refused_all(&[
        ("alice", "DRAW d1 OFFER", Status::Refused, too_early),
        ("alice", "MOVE d1 e4 (=)", Status::Refused, too_early),
        ("boris", "DRAW d1 ACCEPT", Status::Refused, too_early),
    ])
    .await;
    assert_eq!(
        f.kinds(EntryKind::Move),
        0,
        "the move with the offer refused"
    );
    f.say_all(&[
        ("alice", "MOVE d1 e4"),
        ("boris", "MOVE d1 e5"),
        ("alice", "MOVE d1 Nf3"),
    ])
    .await;
    f.refused_all(&[(
        "boris",
        "MOVE d1 Nc6 (=)",
        Status::Refused,
        "before move 3; this is move 2",
    )])
    .await;
    f.say_all(&[
        ("boris", "MOVE d1 Nc6"),
        ("alice", "MOVE d1 Bc4 (=)"),
        ("boris", "DRAW d1 ACCEPT"),
    ])
    .await;
    assert_eq!(
        f.replayed().games["d1"].game.result().map(|r| r.pgn()),
        Some("1/2-1/2")
    );
}

/// ICCF's bar: a player who lost on time may not enter an event that keeps the bar for 30
/// days, 90 after a loss while barred; the refusal says until when; the arbiter's override
/// enters them and is journaled with its reason. The bar comes from the record's results.
#[tokio::test]
async fn entering_after_a_loss_on_time_is_barred_until_the_arbiter_overrides() {
    let f = iccf().await;
    f.say_all(&[
        ("admin", "CREATE q1 boris alice EVENT quick"),
        (
            "admin",
            "EVENT NEW club SYSTEM round-robin TIMEOUTBAR 30,90 COUNTING iccf",
        ),
        ("admin", "EVENT NEW open SYSTEM round-robin"),
        // Boris (White) never moves: out of time 10 days and a second later.
        ("admin", "CLOCK +11d"),
    ])
    .await;
    let reply = f.say(admin(), "EVENT ENTER club alice boris").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(
        reply.text.starts_with(
            "boris lost a game on time and may not enter a new event until 2027-02-11T00:00:00Z (event club: 30 days after a loss on time, 90 after one while barred)"
        ),
        "{}",
        reply.text
    );
    assert!(
        reply
            .text
            .ends_with("the arbiter may enter them with EVENT ENTER club boris OVERRIDE <reason>"),
        "{}",
        reply.text
    );
    // An event without the bar takes him; the winner enters the barred event.
    f.say_all(&[
        ("admin", "EVENT ENTER open boris"),
        ("admin", "EVENT ENTER club alice"),
    ])
    .await;
    // A second loss while barred: 90 days from it.
    f.say_all(&[
        ("admin", "CREATE q2 boris carol EVENT quick"),
        ("admin", "CLOCK +11d"),
    ])
    .await;
    let reply = f.say(admin(), "EVENT ENTER club boris").await;
    assert!(
        reply.text.contains("until 2027-04-23T00:00:00Z"),
        "{}",
        reply.text
    );
    let reply = f
        .say(
            admin(),
            "EVENT ENTER club boris OVERRIDE the loss was a server outage",
        )
        .await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert_eq!(
        reply.text,
        "entered in club: 1 alice, 2 boris; the bar after a loss on time overridden for boris (until 2027-04-23T00:00:00Z): the loss was a server outage"
    );
    let record = &f.replayed().registry.events["club"];
    assert_eq!(record.entrants, ["alice", "boris"]);
    assert_eq!(
        record.event.timeout_bar_days,
        Some(crate::event::bar::TimeoutBar {
            first: 30,
            repeated: 90
        })
    );
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let mut overrides = Vec::new();
    store::for_each_entry(&conn, None, |e| {
        if let Ok(crate::journal::entry::Meaning::EventEnter(d)) =
            crate::journal::entry::Meaning::of(&e)
            && let Some(reason) = d.overriding
        {
            overrides.push((d.players, reason));
        }
        Ok(())
    })
    .expect("entries");
    assert_eq!(
        overrides,
        [(
            vec!["boris".to_owned()],
            "the loss was a server outage".to_owned()
        )]
    );
}
