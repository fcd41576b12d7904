//! Every flood at once, while two players finish a game: connections up to and beyond
//! `limits.max_connections` held open without a word (from ten addresses, each within its
//! `limits.max_connections_per_address_before_login`), sessions that never read what they are
//! sent, lines far over `limits.max_line_bytes`, wrong logins from a hundred addresses (each
//! a full-cost Argon2id check until the address, or Alice's name, is over its limit on
//! failures), and a Maildir filling
//! with refused mail from ever new senders. Alice and Boris, logged in before it starts, play
//! on over TCP: each move must be answered, and reach the opponent, within 2 s. The daemon's
//! peak resident memory (VmHWM) must stay under a bound, and the journal must hold no more
//! refused mail than `email.rejected_journaled_per_hour`.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use crate::support::config::{ALICE, BORIS};
use crate::support::daemon::Daemon;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;
use crate::support::process::memory_kb;

const MB: u64 = 1000;
/// Each move answered, and pushed to the opponent, within this.
const MOVE_BOUND: Duration = Duration::from_secs(2);
/// The daemon's peak resident memory under all of it.
const PEAK_BOUND_MB: u64 = 200;
const MAX_CONNECTIONS: usize = 64;
/// Connections opened and held without a word, at once: beyond the limit.
const HOGS: usize = 150;
/// The addresses they come from, 127.0.0.102 to 127.0.0.111: 15 from each, within the 16 an
/// address may hold before login (one address alone would be refused past 16: `doors.rs`).
const HOG_SOURCES: std::ops::RangeInclusive<u8> = 102..=111;
/// Addresses the wrong logins come from: 127.0.0.2 to 127.0.0.101.
const LOGIN_SOURCES: std::ops::RangeInclusive<u8> = 2..=101;
const OVERSIZE_TASKS: usize = 8;
const SLOW_READERS_EACH: usize = 3;
const REJECTED_PER_HOUR: usize = 40;
const REJECTED_PER_SENDER: usize = 3;
/// Bad mails written into the Maildir before the game and during it.
const BAD_MAIL_FIRST: usize = 300;

/// What the attackers managed, counted.
#[derive(Default)]
struct Counts {
    hog_connections: AtomicU64,
    oversize_lines: AtomicU64,
    wrong_logins: AtomicU64,
    logins_told_429: AtomicU64,
    bad_mails: AtomicU64,
    slow_reader_lines: AtomicU64,
}

fn attack_config(dir: &Path, maildir: &Path) -> String {
    // Full-cost hashes, as a real club's configuration holds: every wrong login costs a real
    // Argon2id check.
    let hash = |s: &str| ccrelay::auth::hash_secret(s).expect("hash");
    format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n\
         [limits]\nmax_connections = {MAX_CONNECTIONS}\nmax_line_bytes = 1024\nlogin_timeout_secs = 3\n\
         failed_logins_per_minute = 2\npush_queue = 8\n\
         [admin]\nsecret_hash = {:?}\n\
         [email]\naddress = \"relay@ccrelay.test\"\npoll_interval_secs = 1\nmaildir = {:?}\n\
         rejected_journaled_per_sender_per_hour = {REJECTED_PER_SENDER}\nrejected_journaled_per_hour = {REJECTED_PER_HOUR}\n\
         [email.smtp]\nserver = \"127.0.0.1\"\nport = 25\ntls = \"none\"\n\
         [[players]]\nid = \"alice\"\nsecret_hash = {:?}\nnotation = \"san\"\n\
         [[players]]\nid = \"boris\"\nsecret_hash = {:?}\nnotation = \"san\"\n\
         [[games]]\nid = \"att-1\"\nwhite = \"alice\"\nblack = \"boris\"\n",
        dir.join("data").display().to_string(),
        hash("admin-secret"),
        maildir.display().to_string(),
        hash("alice-secret"),
        hash("boris-secret"),
    )
}

/// A refused mail: from a sender no player has, `n`-th of its kind.
fn bad_mail(maildir: &Path, n: usize) {
    // Every third from one persistent sender; the rest each from a new one.
    let from = if n.is_multiple_of(3) {
        "mallory@evil.test".to_owned()
    } else {
        format!("spammer-{n}@evil{}.test", n % 97)
    };
    let mail = format!(
        "From: {from}\r\nTo: relay@ccrelay.test\r\nSubject: att-1 key:guess{n}\r\nMessage-ID: <bad-{n}@evil.test>\r\n\r\n1. e4\r\n"
    );
    let name = format!("{}.bad{n}.attack", std::process::id());
    let tmp = maildir.join("tmp").join(&name);
    std::fs::write(&tmp, mail).expect("write mail");
    std::fs::rename(&tmp, maildir.join("new").join(&name)).expect("deliver mail");
}

async fn hog(source: Ipv4Addr, addr: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    while !stop.load(Ordering::Relaxed) {
        let connect = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from((source, 0)))?;
            socket.connect(addr).await
        };
        let Ok(Ok(mut stream)) = tokio::time::timeout(Duration::from_secs(5), connect).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        counts.hog_connections.fetch_add(1, Ordering::Relaxed);
        // Say nothing; read until the daemon closes it (no login in time) or we stop.
        let mut buf = [0u8; 512];
        loop {
            match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break,
                Ok(Ok(_)) => {}
                Err(_) if stop.load(Ordering::Relaxed) => return,
                Err(_) => {}
            }
        }
    }
}

async fn oversize(addr: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    let line = vec![b'x'; 256 << 10];
    while !stop.load(Ordering::Relaxed) {
        let Ok(Ok(stream)) =
            tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect(addr))
                .await
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let (rd, mut wr) = stream.into_split();
        let mut rd = BufReader::new(rd);
        let mut reply = String::new();
        for _ in 0..8 {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let sent = async {
                wr.write_all(&line).await?;
                wr.write_all(b"\r\n").await
            };
            if !matches!(
                tokio::time::timeout(Duration::from_secs(5), sent).await,
                Ok(Ok(()))
            ) {
                break;
            }
            counts.oversize_lines.fetch_add(1, Ordering::Relaxed);
            reply.clear();
            let _ = tokio::time::timeout(Duration::from_secs(2), rd.read_line(&mut reply)).await;
        }
    }
}

async fn wrong_logins(source: Ipv4Addr, addr: SocketAddr, stop: Arc<AtomicBool>, c: Arc<Counts>) {
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let attempt = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from((source, 0)))?;
            let stream = socket.connect(addr).await?;
            let (rd, mut wr) = stream.into_split();
            let mut rd = BufReader::new(rd);
            let mut line = String::new();
            rd.read_line(&mut line).await?;
            // Every other guess at Alice (stopped by the limit per player after a few), the
            // rest at names never tried before (stopped only by the limit per address).
            let name = if n.is_multiple_of(2) {
                "alice".to_owned()
            } else {
                format!("guest{}-{n}", source.octets()[3])
            };
            wr.write_all(format!("LOGIN {name} wrong-{n}\r\n").as_bytes())
                .await?;
            line.clear();
            rd.read_line(&mut line).await?;
            Ok::<_, std::io::Error>(line)
        };
        match tokio::time::timeout(Duration::from_secs(15), attempt).await {
            Ok(Ok(line)) if line.starts_with("429") => {
                c.logins_told_429.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Ok(line)) if line.starts_with("430") => {
                c.wrong_logins.fetch_add(1, Ordering::Relaxed);
            }
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// A session logged in as `player` that sends `SHOW` over and over and never reads a byte:
/// its replies and pushes pile up until the daemon's write deadline drops it.
async fn slow_reader(
    addr: SocketAddr,
    player: &'static str,
    stop: Arc<AtomicBool>,
    c: Arc<Counts>,
) {
    let Ok(mut stream) = tokio::net::TcpStream::connect(addr).await else {
        return;
    };
    let login = format!("LOGIN {player} {player}-secret\r\n");
    if stream.write_all(login.as_bytes()).await.is_err() {
        return;
    }
    while !stop.load(Ordering::Relaxed) {
        match tokio::time::timeout(Duration::from_secs(1), stream.write_all(b"SHOW att-1\r\n"))
            .await
        {
            Ok(Ok(())) => {
                c.slow_reader_lines.fetch_add(1, Ordering::Relaxed);
            }
            // The daemon dropped it, or its buffers are full: stay connected, unread.
            Ok(Err(_)) => return,
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Rejected journal entries from mail, and how many by the persistent sender.
fn rejected_mail_entries(config: &Path) -> (usize, usize) {
    let data = config.parent().unwrap().join("data/journal.sqlite3");
    let conn =
        rusqlite::Connection::open_with_flags(data, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("journal");
    let count = |sql: &str| -> usize {
        conn.query_row(sql, [], |r| r.get::<_, i64>(0))
            .expect("count") as usize
    };
    (
        count("SELECT COUNT(*) FROM entries WHERE kind = 'rejected' AND channel = 'email'"),
        count(
            "SELECT COUNT(*) FROM entries WHERE kind = 'rejected' AND channel = 'email' AND player = 'mallory@evil.test'",
        ),
    )
}

#[test]
fn two_players_finish_a_game_under_every_flood_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let maildir = dir.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(&config, attack_config(dir.path(), &maildir)).expect("config");
    let daemon = Daemon::start_logging(&config, "error");
    let (pid, addr) = (daemon.child.id(), daemon.addr);
    let (_, before) = memory_kb(pid);

    // The players log in before the storm (a login under it may wait for a secret check).
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);

    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new(Counts::default());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    for n in 0..BAD_MAIL_FIRST {
        bad_mail(&maildir, n);
    }
    counts
        .bad_mails
        .fetch_add(BAD_MAIL_FIRST as u64, Ordering::Relaxed);
    let mut tasks = Vec::new();
    for _ in 0..SLOW_READERS_EACH {
        for player in ["alice", "boris"] {
            tasks.push(runtime.spawn(slow_reader(addr, player, stop.clone(), counts.clone())));
        }
    }
    let hog_sources: Vec<u8> = HOG_SOURCES.collect();
    for n in 0..HOGS {
        let source = Ipv4Addr::new(127, 0, 0, hog_sources[n % hog_sources.len()]);
        tasks.push(runtime.spawn(hog(source, addr, stop.clone(), counts.clone())));
    }
    for _ in 0..OVERSIZE_TASKS {
        tasks.push(runtime.spawn(oversize(addr, stop.clone(), counts.clone())));
    }
    for i in LOGIN_SOURCES {
        let source = Ipv4Addr::new(127, 0, 0, i);
        tasks.push(runtime.spawn(wrong_logins(source, addr, stop.clone(), counts.clone())));
    }
    // More bad mail all along, and the memory sampled.
    let sampler = {
        let (stop, counts, maildir) = (stop.clone(), counts.clone(), maildir.clone());
        std::thread::spawn(move || {
            let mut highest = 0;
            let mut n = BAD_MAIL_FIRST;
            while !stop.load(Ordering::Relaxed) {
                highest = highest.max(memory_kb(pid).1);
                bad_mail(&maildir, n);
                n += 1;
                counts.bad_mails.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(25));
            }
            highest
        })
    };
    // Let the storm build up first.
    std::thread::sleep(Duration::from_secs(5));

    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O",
    ];
    let mut slowest = Duration::ZERO;
    let mut latencies = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        // A player thinks a little: the storm goes on between moves.
        std::thread::sleep(Duration::from_millis(400));
        let (mover, opponent) = if i % 2 == 0 {
            (&mut alice, &mut boris)
        } else {
            (&mut boris, &mut alice)
        };
        let start = Instant::now();
        let (code, text) = mover.call(&format!("MOVE att-1 {mv}"));
        let answered = start.elapsed();
        assert_eq!(code, 250, "{mv}: {text}");
        let push = wait_move_push(opponent);
        let pushed = start.elapsed();
        assert!(push.contains("MOVE att-1"), "{push}");
        latencies.push((answered, pushed));
        slowest = slowest.max(pushed);
        assert!(
            answered < MOVE_BOUND && pushed < MOVE_BOUND,
            "move {mv}: answered in {answered:?}, pushed in {pushed:?} under attack"
        );
    }
    let (code, text) = alice.call("SHOW att-1");
    assert_eq!(code, 250, "{text}");

    stop.store(true, Ordering::Relaxed);
    let sampled = sampler.join().expect("sampler");
    runtime.block_on(async {
        for t in tasks {
            let _ = tokio::time::timeout(Duration::from_secs(20), t).await;
        }
    });
    drop(runtime);
    let (peak, after) = memory_kb(pid);

    // The daemon still serves a newcomer.
    let mut late = Client::connect(addr);
    assert_eq!(late.call("HELP").0, 214);
    // Wait for the Maildir to be read to the end, then count what the journal holds.
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(maildir.join("new")).map_or(0, |d| d.count()) > 0 {
        assert!(
            Instant::now() < deadline,
            "the Maildir was not read in time"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_millis(500));
    let (rejected, by_mallory) = rejected_mail_entries(&config);
    eprintln!(
        "attack: {} held connections, {} oversize lines, {} wrong logins checked + {} told 429, \
         {} slow-reader lines, {} bad mails ({rejected} journaled, {by_mallory} of them by the \
         persistent sender); moves answered/pushed in {:?}; slowest push {slowest:?}; resident before {} MB, \
         highest sampled {} MB, after {} MB; peak (VmHWM) {} MB",
        counts.hog_connections.load(Ordering::Relaxed),
        counts.oversize_lines.load(Ordering::Relaxed),
        counts.wrong_logins.load(Ordering::Relaxed),
        counts.logins_told_429.load(Ordering::Relaxed),
        counts.slow_reader_lines.load(Ordering::Relaxed),
        counts.bad_mails.load(Ordering::Relaxed),
        latencies
            .iter()
            .map(|(a, p)| format!("{}/{}ms", a.as_millis(), p.as_millis()))
            .collect::<Vec<_>>(),
        before / MB,
        sampled / MB,
        after / MB,
        peak / MB,
    );
    // The attack really happened, at every door.
    assert!(
        counts.hog_connections.load(Ordering::Relaxed) as usize > MAX_CONNECTIONS,
        "connections beyond the limit"
    );
    assert!(counts.oversize_lines.load(Ordering::Relaxed) > 0);
    assert!(counts.wrong_logins.load(Ordering::Relaxed) >= 20);
    assert!(counts.bad_mails.load(Ordering::Relaxed) as usize > REJECTED_PER_HOUR * 5);
    // And what it cost.
    assert!(
        rejected <= REJECTED_PER_HOUR,
        "{rejected} refused mails journaled"
    );
    assert!(
        by_mallory <= REJECTED_PER_SENDER,
        "{by_mallory} from one sender"
    );
    assert!(
        rejected > 0,
        "refused mail is still journaled within the bound"
    );
    assert!(
        peak < PEAK_BOUND_MB * MB,
        "peak resident {} MB under attack",
        peak / MB
    );
    drop(daemon);
    assert_journal_verifies(&config);
}

/// The next push that reports a move, skipping others (a game-start notice).
fn wait_move_push(client: &mut Client) -> String {
    for _ in 0..10 {
        let (_, body) = client.next_push();
        if body.starts_with("MOVE ") {
            return body;
        }
    }
    panic!("no move pushed");
}
