//! The floor under a relayed move's cost: a server that speaks just enough of the line protocol
//! for `ccrelay bench --connect` and does nothing else. It checks no move, keeps no game, signs
//! nothing, and has no SQLite: a move is appended to a flat file, answered once a group of them
//! is on disk (`fdatasync`, as the daemon answers only after its commit), and pushed to the
//! opponent (as `ccrelay bench --fill` pairs them), whose `ACK` is answered at once.
//!
//! What it spends a move is what the wire, the runtime and a grouped sync cost on the machine
//! it runs on: the part of the daemon's cost that no work inside the daemon can remove.
//! Measured side by side with the daemon by `benches/relay-cost.sh` (`FLOOR=1`).
//!
//! With `--sqlite` it keeps, in place of the flat file, the daemon's own journal file (its
//! schema and settings, [`ccrelay::journal::store::open`]) and runs in each group commit the
//! three statements a relayed move needs and nothing else: the move's entry (hash-chained,
//! [`store::insert_entry`]), the opponent's outbox row ([`store::insert_outbox`], the push as
//! its body) and, for an `ACK`, the rows it delivers ([`store::mark_delivered`]), the `ACK`
//! answered only after that commit, as the daemon answers it. That is the floor the cost of a
//! move is judged against (`FLOOR=sqlite`): the wire, the runtime and the record, without
//! rules, notation, rendering, signatures or the log.
//! An instrument, not a server: it listens on 127.0.0.1 only and has none of the daemon's
//! limits (line length, deadlines, logins), which a benchmark's own client does not need.
//!
//! ```text
//! cargo run --release --example wire_floor -- DIR [--sqlite]   # prints "ccrelay listening on ADDR"
//! ccrelay bench --connect ADDR --games 1000 --plies 40 --rate 0
//! ```
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};

use ccrelay::journal::store;
use ccrelay::journal::{EntryKind, NewEntry, NewOutbox, Notice};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// Lines waiting to be written to one connection.
type Outgoing = mpsc::Sender<String>;

/// What waits for the next group commit.
enum Pending {
    /// A move to be made durable, with whom to tell once it is.
    Move {
        player: String,
        line: String,
        mover: Outgoing,
        /// The opponent, whose outbox row the move makes, online or not.
        reader: Option<String>,
        /// The opponent's queue, if logged in.
        opponent: Option<Outgoing>,
    },
    /// `player` received every push up to `upto` (the SQLite floor records it).
    Ack {
        player: String,
        upto: i64,
        reply: Outgoing,
    },
}

/// Every logged-in player's outgoing queue.
type Players = Arc<Mutex<HashMap<String, Outgoing>>>;

const QUEUE: usize = 1024;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), mode) = (args.next(), args.next()) else {
        return Err(std::io::Error::other("usage: wire_floor DIR [--sqlite]"));
    };
    let dir = std::path::PathBuf::from(dir);
    let (journal, moves) = mpsc::channel::<Pending>(QUEUE);
    let sqlite = match mode.as_deref() {
        None => false,
        Some("--sqlite") => true,
        Some(other) => return Err(std::io::Error::other(format!("unknown option {other}"))),
    };
    if sqlite {
        let mut conn = store::open(&dir).map_err(std::io::Error::other)?;
        let (mut seq, mut prev) = (0, [0; 32]);
        std::thread::spawn(move || {
            commit_groups(moves, |group| {
                record_group(&mut conn, group, &mut seq, &mut prev).ok()
            })
        });
    } else {
        std::fs::create_dir_all(&dir)?;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("moves"))?;
        let mut next_push = 0;
        std::thread::spawn(move || {
            commit_groups(moves, |group| write_moves(&mut file, group, &mut next_push))
        });
    }
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    println!("ccrelay listening on {}", listener.local_addr()?);
    let players: Players = Arc::default();
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(serve(stream, players.clone(), journal.clone(), sqlite));
    }
}

/// Takes each group of what is waiting, has `commit` make it durable (each move's push id, or
/// `None` to stop), then answers and pushes every one of them.
fn commit_groups(
    mut moves: mpsc::Receiver<Pending>,
    mut commit: impl FnMut(&[Pending]) -> Option<Vec<i64>>,
) {
    let mut group = Vec::new();
    while let Some(first) = moves.blocking_recv() {
        group.push(first);
        while let Ok(next) = moves.try_recv() {
            group.push(next);
        }
        let Some(ids) = commit(&group) else {
            return;
        };
        for (pending, id) in group.drain(..).zip(ids) {
            answer(pending, id);
        }
    }
}

/// Appends a group's moves to the flat file and syncs it; push ids counted from 1.
fn write_moves(
    file: &mut std::fs::File,
    group: &[Pending],
    next_push: &mut i64,
) -> Option<Vec<i64>> {
    let mut text = String::new();
    for pending in group {
        if let Pending::Move { player, line, .. } = pending {
            text.push_str(&format!("{player} {line}\n"));
        }
    }
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .ok()?;
    Some(
        group
            .iter()
            .map(|_| {
                *next_push += 1;
                *next_push
            })
            .collect(),
    )
}

/// One commit of the journal's three statements: an entry and an outbox row a move, a delete
/// an `ACK`; each move's push id.
fn record_group(
    conn: &mut rusqlite::Connection,
    group: &[Pending],
    seq: &mut i64,
    prev: &mut [u8; 32],
) -> Result<Vec<i64>, ccrelay::journal::JournalError> {
    let tx = conn.transaction()?;
    let mut ids = Vec::with_capacity(group.len());
    for pending in group {
        match pending {
            Pending::Move {
                player,
                line,
                reader,
                ..
            } => {
                let mut words = line.split(' ').skip(1);
                let game = words.next().unwrap_or_default().to_owned();
                let text = words.next().unwrap_or_default().to_owned();
                let entry = store::insert_entry(
                    &tx,
                    *seq + 1,
                    prev,
                    NewEntry {
                        time: jiff::Timestamp::now(),
                        game: game.clone(),
                        player: player.clone(),
                        channel: "tcp".to_owned(),
                        kind: EntryKind::Move,
                        text: line.clone(),
                        iccf: Some(text),
                        san: None,
                        detail: String::new(),
                        key: None,
                        credential: None,
                        langs: None,
                    },
                )?;
                (*seq, *prev) = (entry.seq, entry.hash);
                ids.push(match reader {
                    Some(reader) => {
                        // The line as the row's body, written as it is.
                        let out = NewOutbox::notice(reader, Notice::Legacy { text: line.clone() });
                        store::insert_outbox(&tx, &out, &game, entry.seq)?
                    }
                    None => 0,
                });
            }
            Pending::Ack { player, upto, .. } => {
                store::mark_delivered(&tx, player, *upto)?;
                ids.push(0);
            }
        }
    }
    tx.commit()?;
    Ok(ids)
}

/// Tells the mover their move is recorded and pushes it (as push `id`) to the opponent, or
/// answers an `ACK`.
fn answer(pending: Pending, id: i64) {
    match pending {
        Pending::Move {
            line,
            mover,
            opponent,
            ..
        } => {
            let _ = mover.try_send("250 recorded".to_owned());
            if let Some(opponent) = opponent {
                let _ = opponent.try_send(format!("* {id} {}", line.get(5..).unwrap_or_default()));
            }
        }
        Pending::Ack { reply, .. } => {
            let _ = reply.try_send("250 acknowledged".to_owned());
        }
    }
}

async fn serve(stream: TcpStream, players: Players, journal: mpsc::Sender<Pending>, sqlite: bool) {
    let (read, write) = stream.into_split();
    let (outgoing, queue) = mpsc::channel(QUEUE);
    let writer = tokio::spawn(write_lines(write, queue));
    let _ = outgoing.try_send("200 wire floor ready".to_owned());
    let mut lines = BufReader::new(read).lines();
    let mut player: Option<String> = None;
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
                let reader = ccrelay::bench::opponent_of(me);
                let opponent = reader
                    .as_ref()
                    .and_then(|o| players.lock().ok()?.get(o).cloned());
                let pending = Pending::Move {
                    player: me.clone(),
                    line,
                    mover: outgoing.clone(),
                    reader,
                    opponent,
                };
                if journal.send(pending).await.is_err() {
                    break;
                }
            }
            (Some("ACK"), Some(me)) if sqlite => {
                let upto = words
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(i64::MAX);
                let pending = Pending::Ack {
                    player: me.clone(),
                    upto,
                    reply: outgoing.clone(),
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
