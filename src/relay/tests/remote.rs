//! A remote account's game whose server record stops being this game's continued: the game
//! stops for the arbiter, once, and the player's actions in it are refused with the reason.

use shakmaty::Color;

use super::*;
use crate::relay::remote::RemoteSeen;

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
        end: None,
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

/// Regression: the words of a mail around a move in a remote game were journaled here as the
/// record's message and never reached the server. They go as a proposal of their own, after
/// the move's, as a `MSG` would.
#[tokio::test]
async fn a_message_riding_a_move_in_a_remote_game_goes_as_a_proposal() {
    let secrets = tempfile::tempdir().expect("tempdir");
    let password = secrets.path().join("pw");
    std::fs::write(&password, "s3cret horse").expect("password");
    let f = testing::spawn(&format!(
        "[[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\nnotation = \"san\"\n\
         [[remotes]]\nid = \"srv\"\nurl = \"https://localhost:9/xfccbasic.asmx\"\n\
         player = \"alice\"\nusername = \"alice\"\npassword_file = {password:?}\n"
    ))
    .await;
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
