//! A session over an in-memory pipe of a few bytes, so that its writes wait on the client: a
//! real journal and relay in a temporary directory behind it, the administrator's session (no
//! login, no secret check), and the runtime's clock paused where a deadline is the subject.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::*;
use crate::auth::Verifier;
use crate::relay::Channel;

struct Fixture {
    ctx: Context,
    /// The journal's directory, removed when the fixture is dropped.
    _data_dir: tempfile::TempDir,
}

async fn fixture() -> Fixture {
    let spawned = crate::relay::testing::spawn("[admin]\nsecret_hash = \"HASH\"\n").await;
    let ctx = Context::new(
        Arc::new(spawned.config),
        spawned.relay,
        spawned.mailbox,
        CancellationToken::new(),
        TaskTracker::new(),
        Arc::new(Verifier::new(1)),
    );
    Fixture {
        ctx,
        _data_dir: spawned.dir,
    }
}

/// The administrator's session on one end of a pipe that holds `capacity` bytes; the
/// client's end is returned.
fn admin_session(ctx: &Context, capacity: usize) -> (LineSession<'_, DuplexStream>, DuplexStream) {
    let (client, server) = tokio::io::duplex(capacity);
    let peer = Peer {
        key: "test".to_owned(),
        channel: Channel::Tcp,
        printed: None,
        private_wire: true,
    };
    (LineSession::administrator(server, peer, ctx), client)
}

#[tokio::test(start_paused = true)]
async fn a_client_that_stops_reading_is_dropped_at_the_write_deadline() {
    let f = fixture().await;
    let (session, mut client) = admin_session(&f.ctx, 256);
    // One command whose reply is larger than the pipe: the reply waits on the client, gathered,
    // with nothing else to do; the session's idle limit (15 minutes) is far away.
    client.write_all(b"HELP\r\n").await.expect("write");
    assert!(HELP.len() > 1024);
    let started = tokio::time::Instant::now();
    let ended = session.run().await;
    let error = ended.expect_err("a session whose client stopped reading ends in an error");
    assert_eq!(error.kind(), io::ErrorKind::TimedOut, "{error}");
    assert_eq!(
        started.elapsed(),
        WRITE_TIMEOUT,
        "ended at the write deadline"
    );
    drop(client);
}

#[tokio::test]
async fn a_reply_larger_than_the_pipe_reaches_a_client_that_reads_slowly() {
    let f = fixture().await;
    let (session, client) = admin_session(&f.ctx, 16);
    let client = async move {
        let (read, mut write) = tokio::io::split(client);
        write.write_all(b"HELP\r\nQUIT\r\n").await.expect("write");
        let mut lines = BufReader::new(read).lines();
        let mut read = Vec::new();
        while let Some(line) = lines.next_line().await.expect("read") {
            read.push(line);
            tokio::task::yield_now().await;
        }
        read
    };
    let (ended, read) = tokio::join!(session.run(), client);
    ended.expect("the session ends cleanly");
    assert!(read[0].starts_with("200 ccrelay"), "{read:?}");
    let help: Vec<&str> = HELP.lines().collect();
    assert!(
        read.windows(help.len())
            .any(|w| w.iter().zip(&help).all(|(r, h)| r.ends_with(h))),
        "every line of the help arrives: {read:?}"
    );
    assert_eq!(read.last().map(String::as_str), Some("221 bye"));
}

#[tokio::test]
async fn a_session_is_told_when_the_daemon_stops() {
    let f = fixture().await;
    let (session, client) = admin_session(&f.ctx, 1024);
    let stop = f.ctx.shutdown.clone();
    let client = async move {
        let mut lines = BufReader::new(client).lines();
        let greeting = lines.next_line().await.expect("read");
        stop.cancel();
        let mut rest = Vec::new();
        while let Some(line) = lines.next_line().await.expect("read") {
            rest.push(line);
        }
        (greeting, rest)
    };
    let (ended, (greeting, rest)) = tokio::time::timeout(Duration::from_secs(10), async {
        tokio::join!(session.run(), client)
    })
    .await
    .expect("the session ends when the daemon stops");
    ended.expect("the session ends cleanly");
    assert!(greeting.is_some_and(|g| g.starts_with("200 ccrelay")));
    assert_eq!(rest, ["421 the relay is shutting down"]);
}

/// docs/protocol.md's words for an acknowledgement, numbers written without the formatter.
#[test]
fn an_acknowledgement_reads_as_the_protocol_doc_shows_it() {
    assert_eq!(acknowledged(11, 4), "acknowledged up to 11 (4 message(s))");
    assert_eq!(acknowledged(0, 0), "acknowledged up to 0 (0 message(s))");
    assert_eq!(
        acknowledged(i64::MAX, 1),
        format!("acknowledged up to {} (1 message(s))", i64::MAX)
    );
}
