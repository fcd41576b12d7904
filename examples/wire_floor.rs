//! The floor under a relayed move's cost: a server that speaks just enough of the line protocol
//! for `ccrelay bench --connect` and does nothing else. It checks no move, keeps no game, signs
//! nothing, and has no SQLite: a move is appended to a flat file, answered once a group of them
//! is on disk (`fdatasync`, as the daemon answers only after its commit), and pushed to the
//! opponent (as `ccrelay bench --fill` pairs them), whose `ACK` is answered at once.
//!
//! What it spends a move is what the wire, the runtime and a grouped sync cost on the machine
//! it runs on: the part of the daemon's cost that no work inside the daemon can remove.
//! Measured side by side with the daemon by `benches/relay-cost.sh` (`FLOOR=1`).
//! An instrument, not a server: it listens on 127.0.0.1 only and has none of the daemon's
//! limits (line length, deadlines, logins), which a benchmark's own client does not need.
//!
//! ```text
//! cargo run --release --example wire_floor -- DIR     # prints "ccrelay listening on ADDR"
//! ccrelay bench --connect ADDR --games 1000 --plies 40 --rate 0
//! ```
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// Lines waiting to be written to one connection.
type Outgoing = mpsc::Sender<String>;

/// A move to be made durable, with whom to tell once it is.
struct Pending {
    line: String,
    mover: Outgoing,
    opponent: Option<Outgoing>,
    push: String,
}

/// Every logged-in player's outgoing queue.
type Players = Arc<Mutex<HashMap<String, Outgoing>>>;

const QUEUE: usize = 1024;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or_else(|| std::io::Error::other("usage: wire_floor DIR"))?;
    std::fs::create_dir_all(&dir)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(std::path::Path::new(&dir).join("moves"))?;
    let (journal, moves) = mpsc::channel::<Pending>(QUEUE);
    std::thread::spawn(move || write_moves(file, moves));
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    println!("ccrelay listening on {}", listener.local_addr()?);
    let players: Players = Arc::default();
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(serve(stream, players.clone(), journal.clone()));
    }
}

/// Appends each group of moves waiting, syncs it, then answers and pushes every one of them.
fn write_moves(mut file: std::fs::File, mut moves: mpsc::Receiver<Pending>) {
    let mut group = Vec::new();
    while let Some(first) = moves.blocking_recv() {
        group.push(first);
        while let Ok(next) = moves.try_recv() {
            group.push(next);
        }
        let text: String = group.iter().map(|p| p.line.as_str()).collect();
        if file
            .write_all(text.as_bytes())
            .and_then(|()| file.sync_data())
            .is_err()
        {
            return;
        }
        for pending in group.drain(..) {
            let _ = pending.mover.try_send("250 recorded".to_owned());
            if let Some(opponent) = pending.opponent {
                let _ = opponent.try_send(pending.push);
            }
        }
    }
}

async fn serve(stream: TcpStream, players: Players, journal: mpsc::Sender<Pending>) {
    let (read, write) = stream.into_split();
    let (outgoing, queue) = mpsc::channel(QUEUE);
    let writer = tokio::spawn(write_lines(write, queue));
    let _ = outgoing.try_send("200 wire floor ready".to_owned());
    let mut lines = BufReader::new(read).lines();
    let mut player: Option<String> = None;
    let mut next_push = 0u64;
    while let Ok(Some(line)) = lines.next_line().await {
        let mut words = line.split(' ');
        match (words.next(), &player) {
            (Some("LOGIN"), _) => {
                let name = words.next().unwrap_or_default().to_owned();
                players
                    .lock()
                    .map(|mut p| p.insert(name.clone(), outgoing.clone()))
                    .ok();
                player = Some(name);
                let _ = outgoing.send("230 logged in".to_owned()).await;
            }
            (Some("MOVE"), Some(me)) => {
                let opponent = ccrelay::bench::opponent_of(me)
                    .and_then(|o| players.lock().ok().and_then(|p| p.get(&o).cloned()));
                next_push += 1;
                let pending = Pending {
                    line: format!("{me} {line}\n"),
                    mover: outgoing.clone(),
                    opponent,
                    push: format!("* {next_push} {}", line.get(5..).unwrap_or_default()),
                };
                if journal.send(pending).await.is_err() {
                    break;
                }
            }
            (Some("ACK"), Some(_)) => {
                let _ = outgoing.send("250 acknowledged".to_owned()).await;
            }
            _ => {
                let _ = outgoing.send("500 not understood".to_owned()).await;
            }
        }
    }
    if let Some(me) = player {
        players.lock().map(|mut p| p.remove(&me)).ok();
    }
    drop(outgoing);
    let _ = writer.await;
}

/// Writes what is queued, every line ready at once in one write.
async fn write_lines(
    mut write: tokio::net::tcp::OwnedWriteHalf,
    mut queue: mpsc::Receiver<String>,
) {
    let mut buf = Vec::new();
    while let Some(first) = queue.recv().await {
        buf.extend_from_slice(first.as_bytes());
        buf.push(b'\n');
        while let Ok(next) = queue.try_recv() {
            buf.extend_from_slice(next.as_bytes());
            buf.push(b'\n');
        }
        if write.write_all(&buf).await.is_err() {
            return;
        }
        buf.clear();
    }
}
