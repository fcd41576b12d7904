//! The record: games started across a link, a start from a snapshot, moves read back from
//! their entries.

use super::*;

/// A game the other node of a link starts takes an id of the safe set here too: `x.1` is
/// refused (logged, nothing journaled), `x1` is started.
#[tokio::test]
async fn a_linked_node_cannot_start_a_game_with_an_id_outside_the_safe_set() {
    let spawned = testing::spawn(
        "[admin]\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"boris\"\nreach = \"link\"\nlink = \"peer\"\n\
         [[links]]\nid = \"peer\"\nconnect = \"127.0.0.1:9\"\nsecret = \"sixteen bytes at least\"\n",
    )
    .await;
    let (relay, dir) = (spawned.relay, spawned.dir);
    let start = |game: &str| Replicated {
        game: game.to_owned(),
        index: 0,
        kind: EntryKind::GameStart,
        actor: Actor::Arbiter,
        delta: 1_800_000_000,
        iccf: None,
        detail: r#"{"white":"alice","black":"boris","authority":"black"}"#.to_owned(),
    };
    let reply = relay.replicate(start("x.1")).await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(reply.text.contains("is not a game id"), "{}", reply.text);
    let reply = relay.replicate(start("x1")).await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    let conn = store::open_read_only(dir.path()).expect("read journal");
    let mut games = Vec::new();
    store::for_each_entry(&conn, None, |e| {
        games.push(e.game);
        Ok(())
    })
    .expect("entries");
    assert!(games.contains(&"x1".to_owned()), "{games:?}");
    assert!(!games.contains(&"x.1".to_owned()), "{games:?}");
}

/// A start that builds on a snapshot taken in the middle of play holds what a replay of every
/// entry holds: positions, clocks, draw offers, conditional lines, each side's languages, the
/// conversation, and the players and events registered; and a snapshot brought up from the
/// first one holds what the record holds too.
#[tokio::test]
async fn a_start_from_a_snapshot_holds_what_a_replay_of_every_entry_holds() {
    use crate::journal::signing::Key;
    use crate::journal::snapshot::{self, Found};
    let f = relay().await;
    f.say_all(&[
        ("admin", "PLAYER ADD carol NAME \"Carol Ames\""),
        ("alice", "MOVE g1 1. e4"),
        ("boris", "MOVE g1 1... Кf6"),
        ("boris", "MSG g1 Удачи"),
        ("alice", "MOVE g1 2. e5 (=)"),
        ("admin", "EVENT NEW club SYSTEM round-robin NAME \"Club\""),
    ])
    .await;
    let dir = f.dir.path();
    let key = Key::read(&dir.join("signing.key")).expect("key");
    let conn = store::open_read_only(dir).expect("read journal");
    let taken = snapshot::catch_up(&conn, dir, &key).expect("snapshot");
    f.say_all(&[
        ("boris", "MOVE g1 2... Кd5"),
        ("alice", "MSG g1 thanks"),
        ("alice", "MOVE g1 3. d4"),
        ("boris", "MOVE g1 3... d6"),
        ("boris", "IF g1 4. c4 Кb6"),
        ("admin", "EVENT ENTER club alice boris carol"),
        ("alice", "LEAVE 2027-02-01 5"),
    ])
    .await;

    let full = crate::journal::replay(&conn).expect("replay");
    let started = snapshot::replay_for_start(&conn, dir).expect("start");
    assert_eq!(started.snapshot_at, taken);
    assert!(taken > 0 && u64::try_from(taken).unwrap() < full.entries);
    assert_eq!(format!("{:?}", started.games), format!("{:?}", full.games));
    assert_eq!(
        format!("{:?}", started.registry),
        format!("{:?}", full.registry)
    );
    assert_eq!(
        (started.entries, started.last_time, &started.keys),
        (full.entries, full.last_time, &full.keys)
    );
    let game = &full.games["g1"].game;
    assert_eq!(game.moves().len(), 6);
    assert!(!game.conditional(shakmaty::Color::Black).is_empty());
    assert_eq!(full.games["g1"].conversation.len(), 2);

    let (_, found) = snapshot::verify_reporting(&conn, dir, &mut |_| {}).expect("verify");
    assert_eq!(found, Found::Agrees(taken));
    let last = snapshot::catch_up(&conn, dir, &key).expect("snapshot again");
    assert_eq!(u64::try_from(last).unwrap(), full.entries);
    let (_, found) = snapshot::verify_reporting(&conn, dir, &mut |_| {}).expect("verify");
    assert_eq!(found, Found::Agrees(last));
}

/// A move's outbox row stores only that it is its entry's move; read back, the notice made
/// from the record is the one pushed live: the position, the clocks (on leave too), a draw
/// offer, a move played from a conditional line and one that cancelled a line.
#[tokio::test]
async fn a_move_read_back_from_the_record_is_the_move_pushed_live() {
    let f = testing::spawn(&format!(
        "{}\n[[events]]\nid = \"ev\"\nname = \"Timed\"\ntime_control = \"10 moves in 50 days\"\n",
        PLAYERS.replace("black = \"boris\"\n", "black = \"boris\"\nevent = \"ev\"\n")
    ))
    .await;
    let mut live = [
        f.mailbox.subscribe("alice", 100),
        f.mailbox.subscribe("boris", 100),
    ];
    f.say_all(&[
        ("alice", "MOVE g1 1. e4"),
        ("admin", "CLOCK +1d"),
        ("boris", "MOVE g1 1... e5"),
        ("boris", "IF g1 2. Кf3 Кc6"),
        ("admin", "CLOCK +2d"),
        ("alice", "MOVE g1 2. Nf3"),
        ("boris", "IF g1 3. Сb5 a6"),
        ("admin", "CLOCK +1d"),
        ("alice", "MOVE g1 3. Bc4 (=)"),
        ("alice", "LEAVE 2027-02-01 5"),
        ("boris", "MOVE g1 3... Кf6"),
        ("admin", "CLOCK +3d"),
        ("alice", "MOVE g1 4. d3"),
    ])
    .await;
    let mut flags = (0, 0, 0);
    for (player, feed) in ["alice", "boris"].into_iter().zip(&mut live) {
        let mut pushed = Vec::new();
        while let Ok(Some(m)) =
            tokio::time::timeout(std::time::Duration::from_millis(200), feed.recv()).await
        {
            pushed.push(m);
        }
        // What was waiting before the subscription (the game's start) was not pushed.
        let mut read = f.mailbox.waiting(player, 0, 100).await.expect("outbox");
        read.retain(|m| pushed.iter().any(|p| p.id == m.id));
        assert_eq!(read.len(), pushed.len(), "{player}");
        let moves = pushed
            .iter()
            .filter(|m| matches!(m.notice, Notice::Move(_)));
        assert!(moves.count() >= 3, "{player}: {pushed:?}");
        for (read, pushed) in read.iter().zip(&pushed) {
            assert_eq!(read.id, pushed.id);
            assert_eq!(read.notice, pushed.notice, "{player}");
            assert_eq!(f.mailbox.render(read), f.mailbox.render(pushed));
            assert_eq!(f.mailbox.summary(read), f.mailbox.summary(pushed));
            assert_eq!(f.mailbox.as_of(read).await, f.mailbox.as_of(pushed).await);
            if let Notice::Move(m) = &read.notice {
                assert!(m.clocks.is_some(), "{m:?}");
                flags.0 += usize::from(m.draw_offer);
                flags.1 += usize::from(m.from_line);
                flags.2 += usize::from(m.cancels_line);
            }
        }
    }
    assert_eq!(
        flags,
        (1, 1, 1),
        "a draw offer, a line's answer, a line cancelled"
    );
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let stored: Vec<String> = conn
        .prepare("SELECT body FROM outbox WHERE of_entry = 1")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        stored.len(),
        7,
        "every move's row (one played from a line), and nothing else"
    );
    assert!(stored.iter().all(String::is_empty), "{stored:?}");
}

/// A relayed move's notice, which holds its position without writing it out, still stores
/// the position if it is ever stored as data, and reads back the same.
#[test]
fn a_relayed_moves_notice_stored_as_data_keeps_its_position() {
    let game = crate::game::Game::of_kind(crate::game::Kind::Chess, "g1", "alice", "boris", None)
        .expect("game");
    let m = game.board().read_code("5254").expect("e4");
    let mut after = game.clone();
    after.apply_by(
        shakmaty::Color::White,
        &crate::game::Action::Move {
            m: m.clone(),
            draw_offer: false,
        },
        jiff::Timestamp::UNIX_EPOCH,
    );
    let live = notice::MoveNotice::new(
        &game,
        &after,
        (shakmaty::Color::White, &m),
        false,
        false,
        jiff::Timestamp::UNIX_EPOCH,
    );
    assert!(live.mv.before.is_empty(), "held, not written out");
    let body = Notice::Move(Box::new(live.clone())).to_body();
    let Notice::Move(stored) = Notice::from_body(&body) else {
        panic!("{body}");
    };
    assert_eq!(stored.mv.before, game.board().fen());
    let english = crate::notation::Notation::San(crate::notation::Lang::English);
    assert_eq!(stored.mv.write(english), live.mv.write(english));
    assert_eq!(stored.mv.write(english).as_deref(), Some("e4"));
}

/// A move whose record no longer replays (changed by hand while the relay runs) is still
/// delivered, told by its entry number, so that its reader's queue moves on.
#[tokio::test]
async fn a_move_whose_record_no_longer_replays_is_told_by_its_entry_number() {
    let f = relay().await;
    f.say_all(&[("alice", "MOVE g1 1. e4")]).await;
    let conn = rusqlite::Connection::open(f.dir.path().join("journal.sqlite3")).expect("open");
    conn.execute("UPDATE entries SET iccf = '1111' WHERE kind = 'move'", [])
        .expect("tamper");
    let waiting = f.waiting("boris").await;
    assert!(
        waiting
            .iter()
            .any(|w| w.starts_with("MOVE g1: record entry ")),
        "{waiting:?}"
    );
}

/// An entry of the other node's record that the game here cannot take stops the game for the
/// arbiter: a `stopped` entry naming why, the refusal sent back, every player's action refused
/// with the reason, no clock due, the arbiter's decisions listing it; a replay holds it so.
#[tokio::test]
async fn a_record_entry_that_does_not_apply_stops_the_game_for_the_arbiter() {
    let f = testing::spawn(
        "[admin]\nsecret_hash = \"HASH\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = \"HASH\"\nnotation = \"san\"\n\
         [[players]]\nid = \"boris\"\nreach = \"link\"\nlink = \"peer\"\n\
         [[links]]\nid = \"peer\"\nconnect = \"127.0.0.1:9\"\nsecret = \"sixteen bytes at least\"\n",
    )
    .await;
    let entry =
        |index: u8, kind: EntryKind, actor: Actor, iccf: Option<&str>, detail: &str| Replicated {
            game: "x1".to_owned(),
            index,
            kind,
            actor,
            delta: if index == 0 { 1_800_000_000 } else { 60 },
            iccf: iccf.map(str::to_owned),
            detail: detail.to_owned(),
        };
    let white = Actor::Side(shakmaty::Color::White);
    let black = Actor::Side(shakmaty::Color::Black);
    for (r, status) in [
        (
            entry(
                0,
                EntryKind::GameStart,
                Actor::Arbiter,
                None,
                r#"{"white":"alice","black":"boris","authority":"black"}"#,
            ),
            Status::Done,
        ),
        (
            entry(1, EntryKind::Move, white, Some("5254"), ""),
            Status::Done,
        ),
        // Black cannot play e7-e4.
        (
            entry(2, EntryKind::Move, black, Some("5754"), ""),
            Status::Refused,
        ),
        // Stopped already: refused again, not stopped twice.
        (
            entry(2, EntryKind::Move, black, Some("5755"), ""),
            Status::Refused,
        ),
    ] {
        let reply = f.relay.replicate(r.clone()).await;
        assert_eq!(reply.status, status, "{r:?}: {}", reply.text);
    }
    let stops: Vec<String> = f
        .entries()
        .into_iter()
        .filter(|(kind, ..)| *kind == EntryKind::Stopped)
        .map(|(_, player, _)| player)
        .collect();
    assert_eq!(stops, ["admin"], "one stop, the arbiter's to decide");
    let reply = f.say(player("alice"), "MSG x1 are you there?").await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(
        reply
            .text
            .contains("the game is stopped for the arbiter: entry 2 of game x1"),
        "{}",
        reply.text
    );
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let replayed = crate::journal::replay::replay(&conn).expect("replay");
    let game = &replayed.games["x1"].game;
    assert!(
        game.stopped()
            .is_some_and(|why| why.contains("does not apply here")),
        "{:?}",
        game.stopped()
    );
    assert_eq!(game.due(jiff::Timestamp::MAX), None, "no clock is due");
    let watched = f.relay.watch(None, true).await.expect("watch");
    let x1 = watched.iter().find(|g| g.id == "x1").expect("x1");
    assert_eq!(x1.standing, Standing::AwaitingArbiter);
    assert!(x1.stopped.is_some());
}

/// A player by radio is registered with their callsign, which the record keeps; a callsign is
/// one player's only, and a relay without a port reading APRS messages reaches no one by radio.
#[tokio::test]
async fn a_radio_player_is_registered_with_their_callsign() {
    let radio =
        "[[radio]]\nid = \"vhf\"\ntnc = \"127.0.0.1:9\"\ncallsign = \"N0CALL-1\"\naprs = true\n";
    let f = testing::spawn(&format!("{PLAYERS}\n{radio}")).await;
    let added = f
        .say(
            admin(),
            "PLAYER ADD hal REACH radio CALLSIGN n0call-7 APRSWIDTH 45",
        )
        .await;
    assert_eq!(added.status, Status::Done, "{}", added.text);
    let hal = f.relay.roster().get("hal").expect("hal");
    assert_eq!(
        hal.radio,
        Some(crate::config::PlayerRadio {
            callsign: "N0CALL-7".into(),
            width: 45
        })
    );
    let taken = f
        .say(admin(), "PLAYER ADD ivan REACH radio CALLSIGN N0CALL-7")
        .await;
    assert_eq!(taken.status, Status::Refused, "{}", taken.text);
    let missing = f.say(admin(), "PLAYER ADD jon REACH radio").await;
    assert_eq!(missing.status, Status::BadCommand, "{}", missing.text);
    assert!(missing.text.contains("callsign"), "{}", missing.text);
    let players = f.say(admin(), "PLAYERS").await;
    assert!(
        players
            .text
            .contains("hal \"hal\" iccf radio N0CALL-7 [registered]"),
        "{}",
        players.text
    );
    let conn = store::open_read_only(f.dir.path()).expect("read journal");
    let replayed = crate::journal::replay(&conn).expect("replay");
    let record = &replayed.registry.players["hal"];
    assert_eq!(
        (record.callsign.as_deref(), record.aprs_width),
        (Some("N0CALL-7"), Some(45))
    );

    let narrow = f.say(admin(), "PLAYER SET hal APRSWIDTH 67").await;
    assert_eq!(narrow.status, Status::Done, "{}", narrow.text);
    let hal = f.relay.roster().get("hal").expect("hal");
    assert_eq!(
        hal.radio.map(|r| (r.callsign, r.width)),
        Some(("N0CALL-7".into(), 67))
    );
    let to_tcp = f.say(admin(), "PLAYER SET hal REACH tcp").await;
    assert_eq!(to_tcp.status, Status::Done, "{}", to_tcp.text);
    assert_eq!(f.relay.roster().get("hal").expect("hal").radio, None);

    let without = testing::spawn(PLAYERS).await;
    let refused = without
        .say(admin(), "PLAYER ADD hal REACH radio CALLSIGN N0CALL-7")
        .await;
    assert_eq!(refused.status, Status::BadCommand, "{}", refused.text);
}
