//! `NOTIFY`: a player's mail when it is their move, as the relay records and queues it.

use super::*;
use crate::journal::notice::Notice;

/// Alice and Boris over TCP, Carol by mail; the relay sends mail and has a public address.
const NOTIFYING: &str = r#"
[clock]
mode = "manual"
start = "2027-01-01T00:00:00Z"

[http]
listen = "127.0.0.1:0"
public_url = "https://chess.example.org"

[email]
address = "relay@chess.example.org"
maildir = "/nonexistent"

[email.smtp]
server = "127.0.0.1"

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
reach = "email"

[players.email]
address = "carol@example.org"
token_hash = "HASH"

[[games]]
id = "g1"
white = "alice"
black = "boris"

[[games]]
id = "g2"
white = "boris"
black = "alice"
"#;

impl Fixture {
    /// The notices waiting for `player`'s mails, as data.
    async fn notices(&self, player: &str) -> Vec<Notice> {
        self.mailbox
            .waiting(&crate::relay::notify::reader(player), 0, 100)
            .await
            .expect("outbox")
            .into_iter()
            .map(|m| m.notice)
            .collect()
    }
}

fn your_move(game: &str) -> Notice {
    Notice::YourMove {
        game: game.to_owned(),
    }
}

#[tokio::test]
async fn a_mail_at_each_move_is_queued_when_the_opponent_moves() {
    let f = testing::spawn(NOTIFYING).await;
    let reply = f
        .say(player("alice"), "NOTIFY EACH Alice@Example.org")
        .await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    assert!(reply.text.contains("alice@example.org"), "{}", reply.text);
    assert_eq!(
        f.relay.roster().with("alice", |p| p.notify.clone()),
        Some(Some(Notify::Each {
            address: "alice@example.org".to_owned()
        }))
    );
    assert!(f.notices("alice").await.is_empty());
    f.say_all(&[("alice", "MOVE g1 e4"), ("boris", "MOVE g1 e5")])
        .await;
    assert_eq!(f.notices("alice").await, vec![your_move("g1")]);
    // Boris asked for nothing: his moves waiting make no mail.
    assert!(f.notices("boris").await.is_empty());
    // Boris's move in g2 waits for Alice too; his mail rows are his.
    f.say_all(&[("boris", "MOVE g2 d4")]).await;
    assert_eq!(
        f.notices("alice").await,
        vec![your_move("g1"), your_move("g2")]
    );
    // Off: no more rows; the line's pushes go on as before.
    f.say_all(&[
        ("alice", "NOTIFY OFF"),
        ("alice", "MOVE g1 Nf3"),
        ("boris", "MOVE g1 Nc6"),
    ])
    .await;
    assert_eq!(f.notices("alice").await.len(), 2);
    assert_eq!(
        f.relay.roster().with("alice", |p| p.notify.clone()),
        Some(None)
    );
    let kinds: Vec<EntryKind> = f.entries().into_iter().map(|(k, _, _)| k).collect();
    assert_eq!(kinds.iter().filter(|k| **k == EntryKind::Notify).count(), 2);
}

#[tokio::test]
async fn notify_is_refused_where_it_cannot_be_kept() {
    let f = testing::spawn(NOTIFYING).await;
    let reply = f
        .say(player("carol"), "NOTIFY EACH carol@example.org")
        .await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(reply.text.contains("by mail"), "{}", reply.text);
    let reply = f.say(admin(), "NOTIFY EACH a@example.org").await;
    assert_eq!(reply.status, Status::Forbidden, "{}", reply.text);
    let reply = f.say(player("alice"), "NOTIFY EACH a@[127.0.0.1]").await;
    assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
    let reply = f
        .say(
            player("alice"),
            "NOTIFY DIGEST 8 Nowhere/Atlantis a@example.org",
        )
        .await;
    assert_eq!(reply.status, Status::BadCommand, "{}", reply.text);
    assert!(reply.text.contains("time zone"), "{}", reply.text);
    // Off is refused to nobody.
    let reply = f.say(player("carol"), "NOTIFY OFF").await;
    assert_eq!(reply.status, Status::Done, "{}", reply.text);
    // Nothing refused was recorded as a setting.
    let notify = f
        .entries()
        .into_iter()
        .filter(|(k, _, _)| *k == EntryKind::Notify)
        .count();
    assert_eq!(notify, 1);

    // Without a public address for the links, no mail can be asked for.
    let without =
        testing::spawn(&NOTIFYING.replace("public_url = \"https://chess.example.org\"\n", ""))
            .await;
    let reply = without
        .say(player("alice"), "NOTIFY EACH alice@example.org")
        .await;
    assert_eq!(reply.status, Status::Refused, "{}", reply.text);
    assert!(reply.text.contains("public_url"), "{}", reply.text);
}

#[tokio::test]
async fn a_digest_comes_due_once_a_day_at_its_hour() {
    let f = testing::spawn(NOTIFYING).await;
    f.say_all(&[("alice", "NOTIFY DIGEST 8 alice@example.org")])
        .await;
    let digests = |f: &Fixture| {
        f.entries()
            .into_iter()
            .filter(|(k, _, _)| *k == EntryKind::NotifyDigest)
            .count()
    };
    // Before the hour: nothing.
    f.say_all(&[("admin", "CLOCK +7h")]).await;
    assert_eq!(digests(&f), 0);
    // Past it: the day's digest, with its mail (Alice is to move in g1).
    f.say_all(&[("admin", "CLOCK +2h")]).await;
    assert_eq!(digests(&f), 1);
    let due: jiff::Timestamp = "2027-01-01T08:00:00Z".parse().expect("time");
    assert_eq!(f.notices("alice").await, vec![Notice::Digest { due }]);
    // Later the same day: not again.
    f.say_all(&[("admin", "CLOCK +10h")]).await;
    assert_eq!(digests(&f), 1);
    // The next day's, with no game waiting for her: recorded, no mail.
    f.say_all(&[
        ("alice", "MOVE g1 e4"),
        ("boris", "MOVE g2 e4"),
        ("alice", "MOVE g2 e5"),
        ("admin", "CLOCK +1d"),
    ])
    .await;
    assert_eq!(digests(&f), 2);
    assert_eq!(f.notices("alice").await.len(), 1);
    // A player asking for a digest after the day's hour gets the next day's first.
    f.say_all(&[("boris", "NOTIFY DIGEST 0 boris@example.org")])
        .await;
    f.say_all(&[("admin", "CLOCK +1h")]).await;
    assert!(f.notices("boris").await.is_empty());
}
