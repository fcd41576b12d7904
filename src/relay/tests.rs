//! The relay's state machine, driven through its handle with typed commands: a real journal in
//! a temporary directory, no sockets, no transports.

use super::*;
use crate::command::Command;
use crate::journal::{EntryKind, notice, store};

/// Players and a game; `HASH` stands for a cheap hash (these tests never log in).
const PLAYERS: &str = r#"
[clock]
mode = "manual"
start = "2027-01-01T00:00:00Z"

[admin]
secret_hash = "HASH"

[[players]]
id = "alice"
secret_hash = "HASH"
notation = "iccf"

[[players]]
id = "boris"
secret_hash = "HASH"
notation = "lan"
lang = "ru"

[[games]]
id = "g1"
white = "alice"
black = "boris"
"#;

type Fixture = testing::Spawned;

async fn relay() -> Fixture {
    testing::spawn(PLAYERS).await
}

fn player(id: &str) -> Sender {
    Sender {
        player: id.to_owned(),
        admin: false,
        channel: Channel::Tcp,
    }
}

fn admin() -> Sender {
    Sender {
        player: "admin".to_owned(),
        admin: true,
        channel: Channel::Tcp,
    }
}

impl Fixture {
    async fn say(&self, sender: Sender, line: &str) -> Reply {
        let command = Command::parse(line).expect(line);
        self.relay
            .call(Request::read_from(sender, command, line))
            .await
    }

    /// Every entry of the journal, read from its file: (kind, player, text).
    fn entries(&self) -> Vec<(EntryKind, String, String)> {
        let conn = store::open_read_only(self.dir.path()).expect("read journal");
        let mut out = Vec::new();
        store::for_each_entry(&conn, None, |e| {
            out.push((e.kind, e.player, e.text));
            Ok(())
        })
        .expect("entries");
        out
    }

    /// Each line said by its sender (`admin` or a player), each one done.
    async fn say_all(&self, lines: &[(&str, &str)]) {
        for (who, line) in lines {
            let sender = if *who == "admin" {
                admin()
            } else {
                player(who)
            };
            let reply = self.say(sender, line).await;
            assert_eq!(reply.status, Status::Done, "{line}: {}", reply.text);
        }
    }

    async fn waiting(&self, player: &str) -> Vec<String> {
        self.mailbox
            .waiting(player, 0, 100)
            .await
            .expect("outbox")
            .into_iter()
            .map(|m| self.mailbox.render(&m))
            .collect()
    }
}

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
            }),
            "a name has at most 100 characters",
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
    let shown = render::notice(&notice, &render::Reader::default());
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
