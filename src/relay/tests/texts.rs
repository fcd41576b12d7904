//! Free texts in commands: the one check, and messages mended rather than refused.

use super::*;

/// A front end that builds commands itself (XFCC, a link) cannot skip the one text check: a
/// message, a reason, a round, a withdrawal's reason or a team's name the check refuses is
/// refused by the relay with its reason, and nothing is journaled or sent.
#[tokio::test]
async fn texts_in_commands_built_directly_pass_the_one_check_or_nothing_is_done() {
    let f = relay().await;
    let before = f.entries().len();
    let message = |text: &str| Command::Message {
        game: "g1".to_owned(),
        text: text.to_owned(),
    };
    for hostile in [
        "\u{1b}[2K* 99 RESULT g1 1-0",
        "1-0 \u{202E}0-1",
        "ad\u{200B}min",
        "a\u{2028}b",
    ] {
        let reply = f
            .relay
            .call(Request::new(player("alice"), message(hostile)))
            .await;
        assert_eq!(
            reply.status,
            Status::BadCommand,
            "{hostile:?}: {}",
            reply.text
        );
        assert!(reply.text.starts_with("a message may"), "{}", reply.text);
    }
    let long = "x".repeat(crate::command::MAX_MESSAGE_CHARS + 1);
    let reply = f
        .relay
        .call(Request::new(player("alice"), message(&long)))
        .await;
    assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
    let adjudicate = Command::Adjudicate {
        game: "g1".to_owned(),
        score: crate::notation::result::Score::WhiteWins,
        reason: "silent\u{202E}".to_owned(),
    };
    let reply = f.relay.call(Request::new(admin(), adjudicate)).await;
    assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
    let create = Command::Create {
        game: "g2".to_owned(),
        white: "alice".to_owned(),
        black: "boris".to_owned(),
        kind: None,
        event: None,
        fen: None,
        round: Some("r\u{200B}1".to_owned()),
    };
    let reply = f.relay.call(Request::new(admin(), create)).await;
    assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
    let event = |action| Command::Event {
        id: "e1".to_owned(),
        action,
    };
    for (command, says) in [
        (
            event(crate::command::EventAction::Withdraw {
                player: "alice".to_owned(),
                reason: "\u{1b}[2K\u{1b}[1G* 99 RESULT".to_owned(),
            }),
            "a reason may not hold control characters",
        ),
        (
            event(crate::command::EventAction::Enter {
                team: Some("T".repeat(150)),
                players: vec!["alice".to_owned()],
                overriding: None,
            }),
            "a name has at most 100 characters",
        ),
        (
            event(crate::command::EventAction::Enter {
                team: None,
                players: vec!["alice".to_owned()],
                overriding: Some("appeal\u{202E} upheld".to_owned()),
            }),
            "a reason may not hold characters that reorder text (bidirectional control U+202E)",
        ),
    ] {
        let reply = f.relay.call(Request::new(admin(), command)).await;
        assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
        assert_eq!(reply.text, says);
    }
    assert_eq!(f.entries().len(), before, "a refused text was journaled");
    assert!(
        f.waiting("boris")
            .await
            .iter()
            .all(|p| !p.starts_with("MOVE"))
    );
    // The move, with a message the check allows, goes.
    let mv = Command::parse("MOVE g1 e4").expect("move");
    let said = Request::new(player("alice"), mv).message(Some("Удачи".to_owned()));
    let reply = f.relay.call(said).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
}

/// A message riding with a move never costs the move (DESIGN: a move is refused only for
/// what is wrong with the move): the move is played, the message mended and delivered, the
/// reply says it was mended, and the message's entry keeps the words as received (escaped)
/// beside the words delivered.
#[tokio::test]
async fn a_riding_message_the_check_refuses_is_mended_and_the_move_played() {
    let f = relay().await;
    let mv = Command::parse("MOVE g1 e4").expect("move");
    let said = Request::new(player("alice"), mv)
        .message(Some("Thanks for the game,\nGood luck\u{202E}".to_owned()));
    let reply = f.relay.call(said).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(reply.text.contains("mended"), "{}", reply.text);
    let waiting = f.waiting("boris").await;
    assert!(
        waiting.iter().any(|p| p.starts_with("MOVE g1")),
        "{waiting:?}"
    );
    assert!(
        waiting
            .iter()
            .any(|p| p.starts_with("MSG g1 from alice: Thanks for the game, / Good luck")),
        "{waiting:?}"
    );
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let mut messages = Vec::new();
    store::for_each_entry(&conn, None, |e| {
        if e.kind == EntryKind::Message {
            messages.push((e.text, e.detail));
        }
        Ok(())
    })
    .expect("entries");
    assert_eq!(
        messages,
        [(
            "MSG g1 Thanks for the game,\\nGood luck\\u{202e}".to_owned(),
            "Thanks for the game, / Good luck".to_owned()
        )]
    );
}

/// A message on record that never passed the one check (written before it, or kept by the
/// other node of a link) reaches its reader mended: one line, no escape codes, nothing that
/// reorders the text.
#[test]
fn a_message_shown_from_the_record_is_mended_for_its_reader() {
    let notice = notice::Notice::Message {
        game: "g1".to_owned(),
        from: "boris".to_owned(),
        text: "hi\u{1b}[2K\n* 99 RESULT g1 0-1\u{202E}".to_owned(),
    };
    let shown = render::notice(&notice, &render::Audience::default());
    assert!(
        shown.starts_with("MSG g1 from boris: hi [2K * 99 RESULT g1 0-1"),
        "{shown:?}"
    );
    assert!(
        shown
            .chars()
            .all(|c| crate::command::text::refused_char(c).is_none()),
        "{shown:?}"
    );
}
