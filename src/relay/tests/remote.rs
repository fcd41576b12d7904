//! A remote account's game whose server record stops being this game's continued: the game
//! stops for the arbiter, once, and the player's actions in it are refused with the reason.
//! An account's standing with its server (failing, working again, paused), told once a
//! change to its player and the admin, and kept through a restart.

use shakmaty::Color;

use super::*;
use crate::journal::entry::{RemoteHealth, RemoteStatusDetail};
use crate::relay::remote::{RemoteSeen, ServerClocks};

fn seen(moves: &[&str]) -> RemoteSeen {
    RemoteSeen {
        remote: "srv".to_owned(),
        player: "alice".to_owned(),
        game: "srv-7".to_owned(),
        opponent: "srv.bob".to_owned(),
        color: Color::White,
        event: None,
        fen: None,
        moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        opponent_offers_draw: false,
        opponent_message: None,
        own_message: None,
        end: None,
        server_clocks: None,
    }
}

#[tokio::test]
async fn a_server_record_that_is_not_this_games_continued_stops_it_for_the_arbiter() {
    let secrets = tempfile::tempdir().expect("tempdir");
    let password = secrets.path().join("pw");
    std::fs::write(&password, "s3cret horse").expect("password");
    let f = testing::spawn(&format!(
        "[admin]\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\nnotation = \"san\"\n\
         [[remotes]]\nid = \"srv\"\nurl = \"https://localhost:9/xfccbasic.asmx\"\n\
         player = \"alice\"\nusername = \"alice\"\npassword_file = {password:?}\n"
    ))
    .await;
    for (moves, status) in [
        (&["5254"][..], Status::Done),
        (&["5254", "5755"][..], Status::Done),
        // The server now says Black played e7-e6: not the record here.
        (&["5254", "5756", "4244"][..], Status::Refused),
        (&["5254", "5756", "4244"][..], Status::Refused),
    ] {
        let reply = f.relay.remote_seen(seen(moves)).await;
        assert_eq!(reply.status, status, "{moves:?}: {}", reply.text);
    }
    let stops = f
        .entries()
        .into_iter()
        .filter(|(kind, ..)| *kind == EntryKind::Stopped)
        .count();
    assert_eq!(stops, 1, "stopped once");
    let reply = f.say(player("alice"), "MOVE srv-7 2. Nf3").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(
        reply
            .text
            .contains("stopped for the arbiter: the server's moves are not this game's continued"),
        "{}",
        reply.text
    );
    let watched = f.relay.watch(Some("srv-7"), true).await.expect("watch");
    assert_eq!(watched[0].standing, Standing::AwaitingArbiter);
}

/// A relay with remote account `srv` of alice.
async fn with_account() -> (Fixture, tempfile::TempDir) {
    let secrets = tempfile::tempdir().expect("tempdir");
    let password = secrets.path().join("pw");
    std::fs::write(&password, "s3cret horse").expect("password");
    let f = testing::spawn(&format!(
        "[admin]\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\nnotation = \"san\"\nlang = \"ru\"\n\
         [[remotes]]\nid = \"srv\"\nurl = \"https://localhost:9/xfccbasic.asmx\"\n\
         player = \"alice\"\nusername = \"alice\"\npassword_file = {password:?}\n"
    ))
    .await;
    (f, secrets)
}

fn standing(health: RemoteHealth, stamp: &str) -> RemoteStatusDetail {
    RemoteStatusDetail {
        remote: "srv".to_owned(),
        player: "alice".to_owned(),
        health,
        stamp: stamp.to_owned(),
        why: String::new(),
    }
}

#[tokio::test]
async fn an_accounts_standing_is_told_to_its_player_and_the_admin_once_a_change() {
    let (f, _secrets) = with_account().await;
    assert_eq!(f.relay.remote_standing("srv").await.expect("asked"), None);
    // Working with nothing told before is no news.
    for (health, stamp, status) in [
        (RemoteHealth::Working, "", Status::Seen),
        (RemoteHealth::Failing, "", Status::Done),
        (RemoteHealth::Failing, "", Status::Seen),
        (RemoteHealth::Working, "", Status::Done),
        (RemoteHealth::Working, "", Status::Seen),
        (RemoteHealth::Paused, "a", Status::Done),
        (RemoteHealth::Paused, "a", Status::Seen),
        // Paused again under another configuration: told again.
        (RemoteHealth::Paused, "b", Status::Done),
    ] {
        let reply = f.relay.remote_status(standing(health, stamp)).await;
        assert_eq!(reply.status, status, "{health:?} {stamp}: {}", reply.text);
    }
    let told = [
        "REMOTE srv alice: the server has failed for an hour; the moves proposed wait and are sent when it answers",
        "REMOTE srv alice: the server answers again; the moves waiting are sent",
        "REMOTE srv alice: the server refused the account's name or password; paused until its configuration changes",
        "REMOTE srv alice: the server refused the account's name or password; paused until its configuration changes",
    ];
    assert_eq!(f.waiting("alice").await, told);
    assert_eq!(f.waiting("admin").await, told);
    // Alice reads Russian in a mail.
    let rows = f.mailbox.waiting("alice", 0, 10).await.expect("outbox");
    assert!(
        f.mailbox.summary(&rows[0]).contains("не отвечает уже час"),
        "{}",
        f.mailbox.summary(&rows[0])
    );
    let last = f.relay.remote_standing("srv").await.expect("asked");
    assert_eq!(last, Some(standing(RemoteHealth::Paused, "b")));
    // What a restart reads back: the last standing, and a record that verifies.
    let conn = store::open_read_only(f.dir.path()).expect("journal");
    let replayed = crate::journal::verify(&conn).expect("verifies");
    assert_eq!(
        replayed.registry.remotes.get("srv"),
        Some(&standing(RemoteHealth::Paused, "b"))
    );
    assert_eq!(
        f.entries()
            .iter()
            .filter(|(kind, ..)| *kind == EntryKind::RemoteStatus)
            .count(),
        4
    );
}

/// Regression: the words of a mail around a move in a remote game were journaled here as the
/// record's message and never reached the server. They go as a proposal of their own, after
/// the move's, as a `MSG` would.
#[tokio::test]
async fn a_message_riding_a_move_in_a_remote_game_goes_as_a_proposal() {
    let (f, _secrets) = with_account().await;
    let reply = f.relay.remote_seen(seen(&[])).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let line = "MOVE srv-7 e4";
    let command = Command::parse(line).expect(line);
    let request = Request::read_from(player("alice"), command, line)
        .message(Some("Good luck, Bob!".to_owned()));
    let reply = f.relay.call(request).await;
    assert_eq!(reply.status, Status::Proposed, "{}", reply.text);
    assert!(reply.text.contains("Good luck, Bob!"), "{}", reply.text);
    assert!(
        reply.text.contains("the remote server keeps"),
        "{}",
        reply.text
    );
    let journaled: Vec<(EntryKind, String)> = f
        .entries()
        .into_iter()
        .filter(|(kind, ..)| matches!(kind, EntryKind::Proposal | EntryKind::Message))
        .map(|(kind, _, text)| (kind, text))
        .collect();
    assert_eq!(
        journaled,
        [
            (EntryKind::Proposal, "MOVE srv-7 e4".to_owned()),
            (EntryKind::Proposal, "MSG srv-7 Good luck, Bob!".to_owned()),
        ]
    );
}

/// The player's message that the server took is in the record once the next poll brings it
/// (`GetMyGames` shows only the opponent's), after the moves, and the player hears so.
#[tokio::test]
async fn the_players_message_the_server_took_is_put_in_the_record() {
    let (f, _secrets) = with_account().await;
    let mut poll = seen(&["5254"]);
    poll.own_message = Some("Good luck, Bob!".to_owned());
    let reply = f.relay.remote_seen(poll).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let journaled: Vec<(EntryKind, String)> = f
        .entries()
        .into_iter()
        .filter(|(kind, ..)| matches!(kind, EntryKind::Move | EntryKind::Message))
        .map(|(kind, player, _)| (kind, player))
        .collect();
    assert_eq!(
        journaled,
        [
            (EntryKind::Move, "alice".to_owned()),
            (EntryKind::Message, "alice".to_owned()),
        ]
    );
    let told = f.waiting("alice").await;
    assert!(
        told.iter()
            .any(|line| line == "RECORDED srv-7 your message is in the record"),
        "{told:?}"
    );
}

#[tokio::test]
async fn show_gives_the_servers_clocks_as_last_polled() {
    let (f, _secrets) = with_account().await;
    let mut first = seen(&["5254"]);
    first.server_clocks = Some(ServerClocks {
        left: [49 * 86_400 + 23 * 3_600 + 59 * 60, 50 * 86_400],
        polled: "2027-01-05T10:00:00Z".parse().expect("time"),
    });
    let reply = f.relay.remote_seen(first).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let shown = f.say(player("alice"), "SHOW srv-7").await;
    assert_eq!(shown.status, Status::Done, "{}", shown.text);
    assert!(
        shown.text.ends_with(
            "server clock at 2027-01-05T10:00:00Z: White 49d 23h 59m left, Black 50d 00h 00m left"
        ),
        "{}",
        shown.text
    );
    // A later poll's clocks replace them.
    let mut later = seen(&["5254", "5755"]);
    later.server_clocks = Some(ServerClocks {
        left: [49 * 86_400, 48 * 86_400 + 60],
        polled: "2027-01-06T10:00:00Z".parse().expect("time"),
    });
    f.relay.remote_seen(later).await;
    let shown = f.say(player("alice"), "SHOW srv-7").await;
    assert!(
        shown.text.ends_with(
            "server clock at 2027-01-06T10:00:00Z: White 49d 00h 00m left, Black 48d 00h 01m left"
        ),
        "{}",
        shown.text
    );
}
