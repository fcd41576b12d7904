//! ICCF's rules across a link: a Triple Block refill (`BANK`) proposed by the other node's
//! player in a game this node keeps, and one sent to the node that keeps the game and come
//! back in its record.

use jiff::Timestamp;
use shakmaty::Color;

use super::*;
use crate::game::clock::DAY;

/// Players one here and one across a link, and a Triple Block event.
fn linked(games: &str) -> String {
    format!(
        "[clock]\nmode = \"manual\"\nstart = \"2027-01-01T00:00:00Z\"\n\
         [admin]\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\nnotation = \"san\"\n\
         [[players]]\nid = \"boris\"\nreach = \"link\"\nlink = \"peer\"\n\
         [[links]]\nid = \"peer\"\nconnect = \"127.0.0.1:9\"\nsecret = \"sixteen bytes at least\"\n\
         [[events]]\nid = \"tb\"\n\
         time_control = \"triple block 50 days + 3 days per move, bank 75, refill by hand\"\n{games}"
    )
}

fn from_link(player: &str, side: char, number: u32, line: &str) -> Request {
    let sender = Sender {
        player: player.to_owned(),
        admin: false,
        channel: Channel::Link,
    };
    let command = Command::parse(line).expect(line);
    Request::read_from(sender, command, line)
        .key(Some(crate::relay::proposal_key("x1", side, number)))
}

/// In a game this node keeps, a `BANK` from the other node's player is checked and recorded
/// here like any action of theirs (as `LEAVE` is): a refill entry of the record, which goes
/// back over the link, and the local opponent told; a refusal is journaled with the action's
/// id, which carries it back.
#[tokio::test]
async fn a_bank_proposed_across_a_link_is_recorded_by_the_node_that_keeps_the_game() {
    let f = testing::spawn(&linked(
        "[[games]]\nid = \"x1\"\nevent = \"tb\"\nwhite = \"alice\"\nblack = \"boris\"\n",
    ))
    .await;
    f.say_all(&[("admin", "CLOCK +1d"), ("alice", "MOVE x1 e4")])
        .await;
    let moved = f.relay.call(from_link("boris", 'b', 1, "MOVE x1 e5")).await;
    assert_eq!(moved.status, Status::Done, "{}", moved.text);
    f.say_all(&[("alice", "MOVE x1 Nf3"), ("admin", "CLOCK +10d")])
        .await;
    for (number, line, says) in [
        (2, "BANK x1 500", "the bank holds 75 day(s), 500 asked"),
        (3, "BANK x1 20", "10 day(s) fit on it now, 20 asked"),
    ] {
        let refused = f.relay.call(from_link("boris", 'b', number, line)).await;
        assert_eq!(refused.status, Status::Refused, "{}", refused.text);
        assert!(refused.text.contains(says), "{}", refused.text);
    }
    let banked = f.relay.call(from_link("boris", 'b', 4, "BANK x1 5")).await;
    assert_eq!(banked.status, Status::Done, "{}", banked.text);
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let mut kept = Vec::new();
    store::for_each_entry(&conn, None, |e| {
        if matches!(e.kind, EntryKind::Refill | EntryKind::Rejected) {
            kept.push((e.kind, e.player, e.channel, e.detail));
        }
        Ok(())
    })
    .expect("entries");
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert_eq!(
        (
            kept[2].0,
            kept[2].1.as_str(),
            kept[2].2.as_str(),
            kept[2].3.as_str()
        ),
        (EntryKind::Refill, "boris", "link", "5")
    );
    assert!(
        kept[..2].iter().all(|k| k.0 == EntryKind::Rejected),
        "the refusals go back: {kept:?}"
    );
    assert!(
        f.waiting("alice")
            .await
            .iter()
            .any(|t| t == "BANK x1 boris (Black) moved 5 day(s) from the bank to the clock")
    );
}

/// In a game the other node keeps, `BANK` goes there as a proposal (`202`), as `LEAVE` and
/// every action does; the refill comes back in that node's record, is applied to the game
/// here, and the local player is told of the opponent's refill.
#[tokio::test]
async fn a_bank_in_a_game_the_other_node_keeps_goes_there_and_comes_back_in_its_record() {
    let f = testing::spawn(&linked("")).await;
    let rules = crate::game::clock::Rules::iccf(
        "triple block 50 days + 3 days per move, bank 75, refill by hand"
            .parse()
            .expect("control"),
    );
    let start = GameStartDetail {
        kind: crate::game::Kind::Chess,
        white: "alice".to_owned(),
        black: "boris".to_owned(),
        event: None,
        fen: None,
        rules: Some(rules),
        round: None,
        board: None,
        leave: Default::default(),
        authority: crate::game::Authority::Black,
    };
    let t0 = 1_798_761_600; // 2027-01-01
    let entry = |index, kind, actor, delta, iccf: Option<&str>, detail: &str| Replicated {
        game: "x1".to_owned(),
        index,
        kind,
        actor,
        delta,
        iccf: iccf.map(str::to_owned),
        detail: detail.to_owned(),
    };
    let detail = serde_json::to_string(&start).expect("detail");
    let reply = f
        .relay
        .replicate(entry(
            0,
            EntryKind::GameStart,
            Actor::Arbiter,
            t0,
            None,
            &detail,
        ))
        .await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let proposed = f.say(player("alice"), "BANK x1 1").await;
    assert_eq!(proposed.status, Status::Proposed, "{}", proposed.text);
    assert!(
        f.entries()
            .iter()
            .any(|(k, p, t)| *k == EntryKind::Proposal && p == "alice" && t == "BANK x1 1"),
        "{:?}",
        f.entries()
    );
    let (white, black) = (Actor::Side(Color::White), Actor::Side(Color::Black));
    for (index, kind, actor, delta, iccf, detail) in [
        (1, EntryKind::Move, white, 0, Some("5254"), ""),
        (2, EntryKind::Move, black, 30 * DAY as u64, Some("5755"), ""),
        (3, EntryKind::Move, white, 0, Some("7163"), ""),
        (4, EntryKind::Refill, black, 10 * DAY as u64, None, "20"),
    ] {
        let reply = f
            .relay
            .replicate(entry(index, kind, actor, delta, iccf, detail))
            .await;
        assert_eq!(reply.status, Status::Done, "{index}: {}", reply.text);
    }
    assert!(
        f.waiting("alice")
            .await
            .iter()
            .any(|t| t == "BANK x1 boris (Black) moved 20 day(s) from the bank to the clock")
    );
    let game = &f.replayed().games["x1"].game;
    let now = Timestamp::from_second(t0 as i64 + 40 * DAY).expect("time");
    let black = game.side_time(Color::Black, now);
    assert_eq!((black.left, black.bank), (Some(33 * DAY), Some(55 * DAY)));
}
