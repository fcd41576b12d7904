//! The line protocol from a player's side: a client on a real socket that reads replies and
//! keeps the pushes it meets on the way, and the calls tests make with it (one that must
//! succeed, a push waited for, a game's move count).

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A line-protocol client on a real socket.
pub struct Client {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// Pushed messages (`* id text`) read so far and not yet taken.
    pub pushes: Vec<(i64, String)>,
}

impl Client {
    pub fn connect(addr: SocketAddr) -> Client {
        Client::over(TcpStream::connect(addr).expect("connect"))
    }

    /// A client on a connection already open (from another address, through a proxy), once
    /// the daemon's greeting is read.
    pub fn over(stream: TcpStream) -> Client {
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let mut c = Client {
            reader: BufReader::new(stream.try_clone().expect("clone")),
            writer: stream,
            pushes: Vec::new(),
        };
        let (code, _) = c.read_reply();
        assert_eq!(code, 200);
        c
    }

    /// How long a read waits before it fails (20 seconds from the start): a test that waits
    /// longer for a push (a remote server's next poll) says so.
    pub fn set_read_timeout(&self, wait: Duration) {
        self.writer
            .set_read_timeout(Some(wait))
            .expect("read timeout");
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write");
    }

    /// Reads one line; `None` at end of stream.
    pub fn read_line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(line.trim_end_matches(['\r', '\n']).to_owned()),
            Err(e) => panic!("read: {e}"),
        }
    }

    /// Reads a reply (collecting pushes on the way): its code and text lines joined by `\n`.
    pub fn read_reply(&mut self) -> (u16, String) {
        let mut text = Vec::new();
        loop {
            let line = self
                .read_line()
                .expect("connection closed before the reply");
            if let Some(push) = line.strip_prefix("* ") {
                let (id, body) = push.split_once(' ').expect("push id");
                self.pushes
                    .push((id.parse().expect("push id"), body.to_owned()));
                continue;
            }
            let code: u16 = line
                .get(..3)
                .and_then(|c| c.parse().ok())
                .unwrap_or_else(|| panic!("bad reply line {line:?}"));
            text.push(line.get(4..).unwrap_or("").to_owned());
            if line.as_bytes().get(3) != Some(&b'-') {
                return (code, text.join("\n"));
            }
        }
    }

    pub fn call(&mut self, line: &str) -> (u16, String) {
        self.send_raw(format!("{line}\n").as_bytes());
        self.read_reply()
    }

    /// Waits for the next push.
    pub fn next_push(&mut self) -> (i64, String) {
        if !self.pushes.is_empty() {
            return self.pushes.remove(0);
        }
        let line = self
            .read_line()
            .expect("connection closed waiting for a push");
        let push = line
            .strip_prefix("* ")
            .unwrap_or_else(|| panic!("expected a push, got {line:?}"));
        let (id, body) = push.split_once(' ').expect("push id");
        (id.parse().expect("id"), body.to_owned())
    }
}

/// A call that must succeed (250); its text.
pub fn ok(client: &mut Client, line: &str) -> String {
    let (code, text) = client.call(line);
    assert_eq!(code, 250, "{line}: {text}");
    text
}

/// Skips pushes until one starting with `prefix`.
pub fn push_starting(client: &mut Client, prefix: &str) -> String {
    for _ in 0..20 {
        let (_, body) = client.next_push();
        if body.starts_with(prefix) {
            return body;
        }
    }
    panic!("no push starting with {prefix:?}");
}

/// Waits for a TCP push containing `needle`, skipping others.
pub fn push_with(client: &mut Client, needle: &str) -> String {
    loop {
        let (_, body) = client.next_push();
        if body.contains(needle) {
            return body;
        }
    }
}

/// The number of moves the daemon says a game has (from `GAMES`).
pub fn moves_in(client: &mut Client, game: &str) -> usize {
    let (code, text) = client.call("GAMES");
    assert_eq!(code, 250, "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{game} ")))
        .unwrap_or_else(|| panic!("{game} not listed: {text}"));
    let before = line.split(" moves,").next().expect("moves");
    before
        .rsplit(' ')
        .next()
        .expect("count")
        .parse()
        .expect("count")
}
