//! The relay's state machine, driven through its handle with typed commands: a real journal in
//! a temporary directory, no sockets, no transports.

use super::*;
use crate::command::{Command, Notify};
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

mod iccf;
mod iccf_link;
mod notify;
mod play;
mod ratings;
mod record;
mod remote;
mod special_leave;
mod texts;
