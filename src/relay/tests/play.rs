//! Moves, messages, claims and adjudications through the relay's handle, and WHOAMI.

use super::*;

#[tokio::test]
async fn a_move_is_journaled_as_said_and_pushed_to_the_opponent() {
    let f = relay().await;
    let reply = f.say(player("alice"), "MOVE g1 1. e4").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(
        reply.text.starts_with("accepted g1 1. 5254"),
        "{}",
        reply.text
    );
    let moves: Vec<_> = f
        .entries()
        .into_iter()
        .filter(|(k, ..)| *k == EntryKind::Move)
        .collect();
    assert_eq!(
        moves,
        [(
            EntryKind::Move,
            "alice".to_owned(),
            "MOVE g1 1. e4".to_owned()
        )]
    );
    let pushes = f.waiting("boris").await;
    assert!(
        pushes
            .iter()
            .any(|p| p.starts_with("MOVE g1 1. e2—e4 (5254) by alice")),
        "{pushes:?}"
    );
}

#[tokio::test]
async fn a_refused_move_is_journaled_and_changes_nothing() {
    let f = relay().await;
    let reply = f.say(player("boris"), "MOVE g1 e5").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    let reply = f.say(player("alice"), "MOVE g1 e5").await;
    assert_eq!(reply.status, Status::BadMove, "{}", reply.text);
    let reply = f.say(player("alice"), "MOVE g1 1... e4").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(reply.text.contains("for Black"), "{}", reply.text);
    let rejected = f
        .entries()
        .into_iter()
        .filter(|(k, ..)| *k == EntryKind::Rejected)
        .count();
    assert_eq!(rejected, 3);
    assert!(
        f.waiting("boris")
            .await
            .iter()
            .all(|p| !p.starts_with("MOVE"))
    );
    // The game is untouched: White's first move is still to come.
    let reply = f.say(player("alice"), "MOVE g1 1. e4").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
}

#[tokio::test]
async fn a_message_reaches_the_opponent_only_from_a_player_of_the_game() {
    let f = relay().await;
    let reply = f.say(player("boris"), "MSG g1 Удачи, <Alice> & co").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(
        f.waiting("alice")
            .await
            .contains(&"MSG g1 from boris: Удачи, <Alice> & co".to_owned())
    );
    let reply = f.say(player("carol"), "MSG g1 hello").await;
    assert_eq!(reply.status, Status::Forbidden, "{}", reply.text);
    let reply = f.say(player("alice"), "MSG nope hello").await;
    assert_eq!(reply.status, Status::NotFound, "{}", reply.text);
}

#[tokio::test]
async fn a_message_riding_with_a_move_is_sent_only_if_the_move_is_accepted() {
    let f = relay().await;
    let said = |line: &str| {
        Request::read_from(player("alice"), Command::parse(line).unwrap(), line)
            .message(Some("Hello Boris".to_owned()))
    };
    let refused = f.relay.call(said("MOVE g1 e5")).await;
    assert_eq!(refused.status, Status::BadMove);
    assert!(
        f.waiting("boris")
            .await
            .iter()
            .all(|p| !p.starts_with("MSG"))
    );
    let accepted = f.relay.call(said("MOVE g1 e4")).await;
    assert_eq!(accepted.status, Status::Done, "{}", accepted.text);
    assert!(accepted.text.contains("message sent"), "{}", accepted.text);
    let pushes = f.waiting("boris").await;
    let at = |prefix: &str| pushes.iter().position(|p| p.starts_with(prefix));
    assert!(at("MOVE g1").unwrap() < at("MSG g1").unwrap(), "{pushes:?}");
}

#[tokio::test]
async fn only_the_admin_adjudicates_and_any_dash_reads() {
    let f = relay().await;
    let reply = f.say(player("alice"), "ADJUDICATE g1 1-0 I say so").await;
    assert_eq!(reply.status, Status::Forbidden);
    let reply = f
        .say(admin(), "ADJUDICATE g1 0–1 White silent for 41 days")
        .await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(reply.text.contains("game over: 0-1"), "{}", reply.text);
    let reply = f.say(player("alice"), "MOVE g1 e4").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
}

#[tokio::test]
async fn a_latin_k_from_a_russian_reader_naming_two_moves_is_refused() {
    let f = relay().await;
    // Black's king on e2 and knight on h2 can both go to f1.
    let fen = "K7/8/8/8/8/8/4k2n/8 b - - 0 1";
    let reply = f
        .say(admin(), &format!("CREATE g3 alice boris FEN {fen}"))
        .await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let reply = f.say(player("boris"), "MOVE g3 Kf1").await;
    assert_eq!(reply.status, Status::BadMove, "{}", reply.text);
    assert!(reply.text.contains("ambiguous"), "{}", reply.text);
    // Written in Cyrillic, the letter is the Russian knight's.
    let reply = f.say(player("boris"), "MOVE g3 Кf1").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(reply.text.contains("8261"), "{}", reply.text);
}

#[tokio::test]
async fn a_claim_that_does_not_hold_is_refused_and_journaled() {
    let f = relay().await;
    let reply = f.say(player("alice"), "CLAIM g1 THREEFOLD").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(
        f.entries()
            .iter()
            .any(|(k, _, text)| *k == EntryKind::Rejected && text == "CLAIM g1 THREEFOLD")
    );
}

/// The health test (the watchdog's, `/healthz`): true while the journal commits, false once a
/// commit has failed and the writer refuses everything after it.
#[tokio::test]
async fn the_journal_is_healthy_until_a_commit_fails() {
    let f = relay().await;
    let wait = std::time::Duration::from_secs(5);
    assert!(f.mailbox.journal_commits(wait).await);
    // The disk refuses the next entry (as a full or failing disk would).
    let conn = rusqlite::Connection::open(f.dir.path().join(store::FILE_NAME)).expect("open");
    conn.execute_batch(
        "CREATE TRIGGER refuse BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'refused'); END;",
    )
    .expect("trigger");
    let reply = f
        .relay
        .call(Request::new(
            player("alice"),
            Command::parse("MOVE g1 e4").expect("command"),
        ))
        .await;
    assert!(!reply.status.is_success(), "{reply:?}");
    assert!(!f.mailbox.journal_commits(wait).await);
}

#[tokio::test]
async fn whoami_says_who_the_relay_takes_the_sender_for_and_changes_nothing() {
    let f = relay().await;
    let before = f.entries().len();
    let boris = f.say(player("boris"), "WHOAMI").await;
    assert_eq!(boris.status, Status::Done, "{}", boris.text);
    assert_eq!(
        boris.text,
        "boris \"boris\" lan (ru) tcp [configuration], on tcp"
    );
    let arbiter = f.say(admin(), "WHOAMI").await;
    assert_eq!(arbiter.text, "admin (the arbiter), on tcp");
    let stranger = f.say(player("mallory"), "WHOAMI").await;
    assert_eq!(stranger.status, Status::NotFound, "{}", stranger.text);
    assert_eq!(f.entries().len(), before, "a question is not journaled");
}
