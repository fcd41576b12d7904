//! Two real ccrelay nodes joined by a link, with a line simulator between them that drops,
//! corrupts, duplicates and delays what passes: over TCP, and over pseudo-terminal pairs as
//! serial lines. And a hand-driven peer that sends an illegal move, a forged frame and a
//! replayed frame to a real node.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ccrelay::transport::link::frame::{self, DATA, Deframer, Plain};
use ccrelay::transport::link::message::{self, Act, Body, Message, Side, game_code};
use ccrelay::transport::link::session::{LinkSession, Timing};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::support::daemon::{Daemon, admin};
use crate::support::games::LONG_GAME;
use crate::support::http::get;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;
use crate::support::link::{
    GAMES, Node, SECRET, local_of, middle, moves_of, node_config_with, rejected_in, settled,
};

/// Faults per chunk of bytes the simulator passes (per mille).
#[derive(Clone, Copy)]
struct Faults {
    drop: u64,
    corrupt: u64,
    duplicate: u64,
    delay: u64,
    seed: u64,
}

/// 5% of frames dropped, 2% corrupted (one bit), 2% duplicated, 10% delayed 5-50 ms.
const NOISY: Faults = Faults {
    drop: 50,
    corrupt: 20,
    duplicate: 20,
    delay: 100,
    seed: 1886,
};

/// What the simulator did, for the test's report.
#[derive(Default)]
struct Counts {
    chunks: AtomicU64,
    dropped: AtomicU64,
    corrupted: AtomicU64,
    duplicated: AtomicU64,
    bytes: AtomicU64,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn per_mille(&mut self, p: u64) -> bool {
        self.next() % 1000 < p
    }
}

/// Copies `from` to `to`, damaging chunks as `faults` says, until either end fails.
async fn pump<R, W>(mut from: R, mut to: W, faults: Faults, seed: u64, counts: Arc<Counts>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut rng = Rng(faults.seed ^ seed | 1);
    let mut buf = [0u8; 256];
    loop {
        let n = match tokio::time::timeout(Duration::from_secs(120), from.read(&mut buf)).await {
            Ok(Ok(0)) | Err(_) => return,
            Ok(Ok(n)) => n,
            Ok(Err(e)) if e.raw_os_error() == Some(5) => {
                // A pseudo-terminal whose other end is not open yet (EIO): wait for it.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Ok(Err(_)) => return,
        };
        // Faults strike whole frames (each ends at a zero byte) or the bytes between: one
        // unit at a time, so the rates are per frame whatever the reads coalesced.
        for unit in buf[..n].split_inclusive(|&b| b == 0) {
            let mut chunk = unit.to_vec();
            counts.chunks.fetch_add(1, Ordering::Relaxed);
            if rng.per_mille(faults.drop) {
                counts.dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            if rng.per_mille(faults.corrupt) {
                let i = (rng.next() as usize) % chunk.len();
                chunk[i] ^= 1 << (rng.next() % 8);
                counts.corrupted.fetch_add(1, Ordering::Relaxed);
            }
            if rng.per_mille(faults.delay) {
                tokio::time::sleep(Duration::from_millis(5 + rng.next() % 45)).await;
            }
            let copies = if rng.per_mille(faults.duplicate) {
                counts.duplicated.fetch_add(1, Ordering::Relaxed);
                2
            } else {
                1
            };
            for _ in 0..copies {
                counts
                    .bytes
                    .fetch_add(chunk.len() as u64, Ordering::Relaxed);
                if to.write_all(&chunk).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// A TCP line simulator: node A connects to the first port, node B to the second; bytes pass
/// between each pair of connections, damaged, until one end closes, then it waits for both
/// again (a node restarted).
struct TcpSimulator {
    ports: (u16, u16),
    counts: Arc<Counts>,
    _runtime: tokio::runtime::Runtime,
}

impl TcpSimulator {
    fn start(faults: Faults) -> TcpSimulator {
        let counts = Arc::new(Counts::default());
        let c = counts.clone();
        let (ports, runtime) = middle(move |from, to, n| pump(from, to, faults, n, c.clone()));
        TcpSimulator {
            ports,
            counts,
            _runtime: runtime,
        }
    }
}

/// A node's config: its `local` players (secret = id + "-secret"), the `remote` ones across
/// link `peer`, the games, and the link table (a short retransmission timeout for the fast
/// lines of these tests, then `link`).
fn node_config(
    data: &Path,
    local: &[&str],
    remote: &[&str],
    games: &[(&str, &str, &str)],
    link: &str,
) -> String {
    node_config_with(
        data,
        local,
        remote,
        games,
        &format!("retransmit_ms = 150\nwindow = 4\n{link}"),
    )
}

fn start_node(local: &[&str], remote: &[&str], games: &[(&str, &str, &str)], link: &str) -> Node {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(
        &config,
        node_config(&dir.path().join("data"), local, remote, games, link),
    )
    .expect("write config");
    let daemon = Daemon::start(&config);
    Node {
        dir,
        config,
        daemon,
    }
}

fn login(node: &Node, player: &str) -> Client {
    let mut c = node.daemon.connect();
    let (code, text) = c.call(&format!("LOGIN {player} {player}-secret"));
    assert_eq!(code, 230, "{text}");
    c
}

/// Waits for a push that contains `needle`, keeping the others.
fn wait_push(client: &mut Client, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(i) = client.pushes.iter().position(|(_, b)| b.contains(needle)) {
            return client.pushes.remove(i).1;
        }
        assert!(
            Instant::now() < deadline,
            "no push with {needle:?}; pushes: {:?}",
            client.pushes
        );
        // `next_push` hands back kept pushes first: read past them.
        let kept = std::mem::take(&mut client.pushes);
        let push = client.next_push();
        client.pushes = kept;
        client.pushes.push(push);
    }
}

struct Match {
    nodes: [Node; 2],
    /// Each node's logged-in local players.
    clients: [Vec<(&'static str, Client)>; 2],
    plies: Vec<String>,
}

impl Match {
    fn start(links: [String; 2]) -> Match {
        let a = start_node(&["anna"], &["boris", "vera"], &GAMES, &links[0]);
        let b = start_node(&["boris", "vera"], &["anna"], &GAMES, &links[1]);
        let mut m = Match {
            nodes: [a, b],
            clients: [Vec::new(), Vec::new()],
            plies: LONG_GAME.split_whitespace().map(str::to_owned).collect(),
        };
        m.login_all();
        m
    }

    fn login_all(&mut self) {
        self.clients = [
            vec![("anna", login(&self.nodes[0], "anna"))],
            vec![
                ("boris", login(&self.nodes[1], "boris")),
                ("vera", login(&self.nodes[1], "vera")),
            ],
        ];
    }

    fn client(&mut self, player: &str) -> &mut Client {
        let node = local_of(player);
        &mut self.clients[node]
            .iter_mut()
            .find(|(p, _)| *p == player)
            .expect("logged in")
            .1
    }

    /// Game `g`'s ply `i` in ICCF (each game plays the long game from a different offset).
    fn ply(&self, g: usize, i: usize) -> String {
        let uci = &self.plies[i];
        let _ = g;
        let b = uci.as_bytes();
        let sq = |f: u8, r: u8| format!("{}{}", f - b'a' + 1, r - b'0');
        let mut s = format!("{}{}", sq(b[0], b[1]), sq(b[2], b[3]));
        if let Some(p) = b.get(4) {
            s.push(match p {
                b'q' => '1',
                b'r' => '2',
                b'b' => '3',
                _ => '4',
            });
        }
        s
    }

    /// Plays plies `range` in every game: in each round every game's mover sends its move,
    /// then every receiver waits for it. `between` runs after the moves of round `at` are
    /// sent and before they are awaited.
    fn play(
        &mut self,
        range: std::ops::Range<usize>,
        at: Option<usize>,
        between: &mut dyn FnMut(&mut Match),
    ) {
        for i in range {
            let mut expect = Vec::new();
            for (g, (id, white, black)) in GAMES.iter().enumerate() {
                let (mover, receiver) = if i % 2 == 0 {
                    (white, black)
                } else {
                    (black, white)
                };
                let mv = self.ply(g, i);
                let number = i / 2 + 1;
                let (code, text) = self.client(mover).call(&format!("MOVE {id} {number} {mv}"));
                assert!(
                    code == 250 || code == 202,
                    "{id} ply {i} {mv} by {mover}: {text}"
                );
                if code == 202 {
                    // Sent to the node that keeps the game's record: the mover hears when it
                    // is in it.
                    let dots = if i % 2 == 0 { "." } else { "..." };
                    expect.push((
                        *mover,
                        format!("RECORDED {id} your move {number}{dots} {mv} "),
                    ));
                }
                expect.push((
                    *receiver,
                    format!(
                        "MOVE {id} {number}{} {mv}",
                        if i % 2 == 0 { "." } else { "..." }
                    ),
                ));
            }
            if at == Some(i) {
                between(self);
            }
            for (receiver, needle) in expect {
                wait_push(self.client(receiver), &needle);
            }
        }
    }

    /// Both journals hold every game's moves, the same, and verify.
    fn check(&self, plies: usize) {
        for (id, _, _) in GAMES {
            settled(&self.nodes, id);
        }
        for (g, (id, white, black)) in GAMES.iter().enumerate() {
            let want: Vec<(String, String)> = (0..plies)
                .map(|i| {
                    let who = if i % 2 == 0 { white } else { black };
                    ((*who).to_owned(), self.ply(g, i))
                })
                .collect();
            let a = moves_of(&self.nodes[0].config, id);
            let b = moves_of(&self.nodes[1].config, id);
            assert_eq!(a, want, "node A, {id}");
            assert_eq!(b, want, "node B, {id}");
            for node in &self.nodes {
                // Nothing refused: no move was misapplied or applied twice.
                assert_eq!(
                    rejected_in(&node.config, id),
                    0,
                    "rejected entries in {id} at {}",
                    node.dir.path().display()
                );
            }
        }
        for node in &self.nodes {
            assert_journal_verifies(&node.config);
        }
    }
}

/// What the line carried, for docs/link.md: bytes per relayed move including handshakes,
/// acknowledgements, keepalives, retransmissions and the damage.
fn report(what: &str, plies: usize, c: &Counts) {
    let moves = plies * GAMES.len();
    let bytes = c.bytes.load(Ordering::Relaxed);
    eprintln!(
        "{what}: {moves} moves relayed; {bytes} bytes on the line = {:.1} per move; units {} dropped {} corrupted {} duplicated {}",
        bytes as f64 / moves as f64,
        c.chunks.load(Ordering::Relaxed),
        c.dropped.load(Ordering::Relaxed),
        c.corrupted.load(Ordering::Relaxed),
        c.duplicated.load(Ordering::Relaxed),
    );
}

fn tcp_links(sim: &TcpSimulator) -> [String; 2] {
    [
        format!(
            "transport = \"tcp\"\nconnect = \"127.0.0.1:{}\"\n",
            sim.ports.0
        ),
        format!(
            "transport = \"tcp\"\nconnect = \"127.0.0.1:{}\"\n",
            sim.ports.1
        ),
    ]
}

const PLIES: usize = 60;

#[test]
fn a_match_over_a_noisy_tcp_line_completes_with_identical_journals() {
    let sim = TcpSimulator::start(NOISY);
    let mut m = Match::start(tcp_links(&sim));
    let started = Instant::now();
    m.play(0..PLIES, None, &mut |_| {});
    m.check(PLIES);
    eprintln!("in {:?}", started.elapsed());
    report("noisy TCP", PLIES, &sim.counts);
    let c = &sim.counts;
    assert!(c.dropped.load(Ordering::Relaxed) > 0 && c.corrupted.load(Ordering::Relaxed) > 0);
}

#[test]
fn a_node_killed_mid_match_restarts_and_the_match_completes_the_same() {
    let sim = TcpSimulator::start(NOISY);
    let mut m = Match::start(tcp_links(&sim));
    // Round 15: moves sent on both nodes, then node B is killed before they are awaited.
    m.play(0..PLIES, Some(15), &mut |m| {
        m.nodes[1].restart();
        m.login_all();
    });
    // And node A, at another moment.
    m.check(PLIES);
    let more = PLIES + 10;
    m.play(PLIES..more, Some(PLIES + 3), &mut |m| {
        m.nodes[0].restart();
        m.login_all();
    });
    m.check(more);
}

/// Two serial lines made of pseudo-terminal pairs: each node opens a slave (through a
/// symbolic link, its "device"), the simulator pumps bytes between the two masters. Unplugging
/// closes both pairs and removes the device names, as pulling two USB adapters does.
struct PtyLines {
    devices: [PathBuf; 2],
    counts: Arc<Counts>,
    runtime: tokio::runtime::Runtime,
    pump: Option<tokio::task::JoinHandle<()>>,
    slaves: Vec<tokio_serial::SerialStream>,
    round: u64,
}

impl PtyLines {
    fn new(dir: &Path) -> PtyLines {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let mut lines = PtyLines {
            devices: [dir.join("ttyA"), dir.join("ttyB")],
            counts: Arc::new(Counts::default()),
            runtime,
            pump: None,
            slaves: Vec::new(),
            round: 0,
        };
        lines.plug();
        lines
    }

    fn plug(&mut self) {
        use tokio_serial::{SerialPort, SerialStream};
        self.round += 1;
        let round = self.round;
        let counts = self.counts.clone();
        let devices = self.devices.clone();
        let (pump, slaves) = self.runtime.block_on(async move {
            let (ma, sa) = SerialStream::pair().expect("pty pair");
            let (mb, sb) = SerialStream::pair().expect("pty pair");
            for (device, slave) in devices.iter().zip([&sa, &sb]) {
                std::os::unix::fs::symlink(slave.name().expect("name"), device).expect("symlink");
            }
            let (ar, aw) = tokio::io::split(ma);
            let (br, bw) = tokio::io::split(mb);
            let pump = tokio::spawn(async move {
                tokio::join!(
                    pump(ar, bw, NOISY, round * 2, counts.clone()),
                    pump(br, aw, NOISY, round * 2 + 1, counts)
                );
            });
            (pump, vec![sa, sb])
        });
        self.pump = Some(pump);
        // Held so that a master never reads EIO while its node has not opened the slave yet.
        self.slaves = slaves;
    }

    fn unplug(&mut self) {
        if let Some(pump) = self.pump.take() {
            pump.abort();
            let _ = self.runtime.block_on(pump);
        }
        self.slaves.clear();
        for d in &self.devices {
            let _ = std::fs::remove_file(d);
        }
    }

    fn links(&self) -> [String; 2] {
        self.devices.clone().map(|d| {
            format!(
                "transport = \"serial\"\ndevice = {:?}\nbaud = 9600\nparity = \"none\"\ndata_bits = 8\nstop_bits = 1\nflow_control = \"none\"\nexclusive = false\n",
                d.display().to_string()
            )
        })
    }
}

#[test]
fn a_match_over_noisy_serial_lines_survives_the_ports_being_pulled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lines = PtyLines::new(dir.path());
    let mut m = Match::start(lines.links());
    let plies = 30;
    // Round 12: the moves are accepted on their own nodes, then both ports vanish for a
    // while; the moves wait in the outboxes and go once the ports are back.
    m.play(0..plies, Some(12), &mut |_| {
        lines.unplug();
        // Longer than the nodes take to notice (3 s of silence): they find no device and
        // retry with backoff.
        std::thread::sleep(Duration::from_millis(4000));
        lines.plug();
    });
    m.check(plies);
    report("noisy serial", plies, &lines.counts);
    assert!(lines.counts.dropped.load(Ordering::Relaxed) > 0);
    assert_eq!(lines.round, 2);
}

/// Actions that cross on the line, forced: with both serial ports pulled, the players of both
/// nodes act in the same games, and each action waits in its node's outbox. When the ports
/// come back, the node that keeps each game orders what crossed, and both records say so.
#[test]
fn actions_that_cross_while_the_ports_are_pulled_end_in_one_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lines = PtyLines::new(dir.path());
    let mut m = Match::start(lines.links());
    m.play(0..5, None, &mut |_| {});
    let ok = |c: &mut Client, line: &str, code: u16| {
        let (got, text) = c.call(line);
        assert_eq!(got, code, "{line}: {text}");
    };
    let mut arbiter_b = admin(&m.nodes[1].daemon);
    // Black to move in every game, and the line is gone.
    lines.unplug();
    // m1, kept on A: boris (B) moves while anna (A) resigns. The resignation is recorded
    // first; the move arrives in a finished game and is refused.
    let mv = m.ply(0, 5);
    ok(m.client("boris"), &format!("MOVE m1 3 {mv}"), 202);
    ok(m.client("anna"), "RESIGN m1", 250);
    // m2, kept on B: anna (A) moves while B's arbiter adjudicates: refused the same way.
    let mv = m.ply(1, 5);
    ok(m.client("anna"), &format!("MOVE m2 3 {mv}"), 202);
    ok(&mut arbiter_b, "ADJUDICATE m2 1-0 the captains agreed", 250);
    // m3, kept on A: vera (B) moves while anna (A) offers a draw: both stand, offer first.
    let mv3 = m.ply(2, 5);
    ok(m.client("vera"), &format!("MOVE m3 3 {mv3}"), 202);
    ok(m.client("anna"), "DRAW m3 OFFER", 250);
    lines.plug();
    let refused = wait_push(m.client("boris"), "REFUSED m1");
    assert!(refused.contains("over"), "{refused}");
    let refused = wait_push(m.client("anna"), "REFUSED m2");
    assert!(refused.contains("over"), "{refused}");
    wait_push(
        m.client("vera"),
        &format!("RECORDED m3 your move 3... {mv3}"),
    );
    let kinds = |nodes: &[Node], id: &str| -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (record, result) = settled(nodes, id);
            let kinds: Vec<String> = record.into_iter().map(|(_, _, k, _)| k).collect();
            if id == "m3" || !result.contains('*') || Instant::now() > deadline {
                return kinds;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let tail = |k: &[String], n: usize| k[k.len().saturating_sub(n)..].to_vec();
    assert_eq!(
        tail(&kinds(&m.nodes, "m1"), 3),
        ["move", "resign", "result"]
    );
    assert_eq!(
        tail(&kinds(&m.nodes, "m2"), 3),
        ["move", "adjudication", "result"]
    );
    assert_eq!(tail(&kinds(&m.nodes, "m3"), 2), ["draw_offer", "move"]);
    // A conditional line on the node that does not keep the game: vera's answer to anna's
    // next move in m3 is proposed as soon as that move is recorded on B, and comes back.
    let (mv6, mv7) = (m.ply(2, 6), m.ply(2, 7));
    ok(m.client("vera"), &format!("IF m3 {mv6} {mv7}"), 250);
    ok(m.client("anna"), &format!("MOVE m3 4 {mv6}"), 250);
    wait_push(m.client("anna"), &format!("MOVE m3 4... {mv7}"));
    wait_push(
        m.client("vera"),
        &format!("RECORDED m3 your move 4... {mv7}"),
    );
    assert_eq!(
        tail(&kinds(&m.nodes, "m3"), 4),
        ["draw_offer", "move", "move", "move"]
    );
    let (record, _) = settled(&m.nodes, "m3");
    assert_eq!(record.iter().filter(|(_, _, k, _)| k == "move").count(), 8);
    for node in &m.nodes {
        assert_journal_verifies(&node.config);
    }
}

/// A peer driven by hand: the test holds the secret and speaks the protocol to a real node.
struct HandPeer<S> {
    stream: S,
    session: LinkSession,
    deframer: Deframer,
    /// Every byte this peer wrote, frame by frame.
    sent: Vec<Vec<u8>>,
    /// Messages received from the node.
    received: Vec<Message>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> HandPeer<S> {
    fn new(stream: S) -> Self {
        let timing = Timing {
            hello: Duration::from_millis(100),
            rto: Duration::from_millis(300),
            rto_min: Duration::from_millis(300),
            rto_cap: Duration::from_secs(1),
            rto_max: Duration::from_secs(2),
            ack_delay: Duration::from_millis(20),
            keepalive: Duration::from_secs(2),
            dead: Duration::from_secs(30),
            bytes_per_second: 100_000.0,
        };
        HandPeer {
            stream,
            session: LinkSession::new(SECRET.as_bytes(), 4, timing, Instant::now()),
            deframer: Deframer::default(),
            sent: Vec::new(),
            received: Vec::new(),
        }
    }

    async fn write(&mut self, frames: Vec<Vec<u8>>) {
        for f in frames {
            self.stream.write_all(&f).await.expect("write");
            self.sent.push(f);
        }
    }

    /// Runs the session for `for_`: answers, acknowledges, collects messages.
    async fn run(&mut self, for_: Duration) {
        let end = tokio::time::Instant::now() + for_;
        let mut buf = [0u8; 256];
        loop {
            let out = self.session.poll(Instant::now());
            self.write(out).await;
            let read = tokio::time::timeout(Duration::from_millis(30), self.stream.read(&mut buf));
            tokio::select! {
                r = read => {
                    if let Ok(Ok(n)) = r {
                        assert!(n > 0, "the node closed the line");
                        let mut frames = Vec::new();
                        self.deframer.push(&buf[..n], |f| frames.push(f.to_vec()));
                        for f in frames {
                            let _ = self.session.on_frame(&f, Instant::now());
                            while let Some(m) = self.session.take_message() {
                                self.received.push(Message::decode(&m).expect("a message we read"));
                                self.session.delivered(Instant::now());
                            }
                        }
                    }
                }
                () = tokio::time::sleep_until(end) => return,
            }
        }
    }

    /// Runs until `done` holds (or fails after 20 s).
    async fn until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(self) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            self.run(Duration::from_millis(50)).await;
        }
    }
}

/// Black's proposal `number`: the ICCF move `iccf`.
fn black_proposal(number: u16, iccf: &str) -> Message {
    let (from, to, promotion) = message::pack_iccf(iccf).expect("ICCF");
    Message::Proposal {
        game: game_code("h1"),
        side: Side::Black,
        number,
        age: 0,
        body: Body::Act(Act::Move {
            from,
            to,
            promotion,
            draw_offer: false,
        }),
    }
}

/// The moves of the record entries received, in order.
fn moves_received(received: &[Message]) -> Vec<(u8, String)> {
    received
        .iter()
        .filter_map(|m| match m {
            Message::Record {
                index,
                body:
                    Body::Act(Act::Move {
                        from,
                        to,
                        promotion,
                        ..
                    }),
                ..
            } => Some((*index, message::unpack_iccf(*from, *to, *promotion))),
            _ => None,
        })
        .collect()
}

/// This test is the node across the link, speaking the protocol by hand; node B keeps the
/// record of game h1 (boris is White there).
#[test]
fn an_illegal_proposal_is_refused_and_reported_forged_and_replayed_frames_are_ignored() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    // Node B: boris local (White, so B keeps the record); "hand" (Black) across the link.
    let games = [("h1", "boris", "hand")];
    let node = start_node(
        &["boris"],
        &["hand"],
        &games,
        &format!("transport = \"tcp\"\nconnect = \"127.0.0.1:{port}\"\n"),
    );
    let mut boris = login(&node, "boris");
    // A player across the link has no login here.
    let (code, text) = node.daemon.connect().call("LOGIN hand hand-secret");
    assert_ne!(code, 230, "{text}");
    let (code, text) = boris.call("MOVE h1 1. 5254");
    assert_eq!(code, 250, "{text}");
    let stream = runtime.block_on(async { listener.accept().await.unwrap().0 });
    let mut peer = HandPeer::new(stream);
    let done = Arc::new(AtomicBool::new(false));
    runtime.block_on(async {
        peer.until("the session", |p| p.session.is_established())
            .await;
        // The record so far: the game's start (in one message: its players and the usual
        // rules), then 1. e4.
        peer.until("1. e4 in the record", |p| {
            !moves_received(&p.received).is_empty()
        })
        .await;
        assert_eq!(moves_received(&peer.received), [(1, "5254".to_owned())]);
        let start = peer.received.iter().find_map(|m| match m {
            Message::Record {
                index: 0,
                body: Body::Start(start),
                ..
            } => Some(start.clone()),
            _ => None,
        });
        assert!(
            start
                .is_some_and(|s| (s.id.as_str(), s.white.as_str(), s.black.as_str())
                    == ("h1", "boris", "hand")),
            "{:?}",
            peer.received
        );
        // 1. A forged frame: d7-d5, legal, the next sequence number, sealed with a key that is
        // not the session's. Were it applied, the game would go on 1... d5.
        let forged_key = frame::derive_key(b"not the secret", b"session", &[]);
        let forged = frame::seal(
            &forged_key,
            0,
            1,
            frame::DEFAULT_TAG,
            &Plain::Data {
                seq: 0,
                ack: 0,
                message: black_proposal(0, "4745").encode(),
            },
        );
        peer.stream.write_all(&forged).await.unwrap();
        peer.run(Duration::from_millis(300)).await;
        // 2. e7-e5, legal: in the record, and back to us as its entry 2.
        peer.session.push(black_proposal(0, "5755").encode());
        peer.until("e7-e5 in the record", |p| {
            moves_received(&p.received).len() >= 2
        })
        .await;
        // 3. The same DATA frame again, byte for byte: a replay, dropped.
        let data_frame = peer
            .sent
            .iter()
            .rev()
            .find(|f| {
                let body = frame::cobs_decode(&f[..f.len() - 1]).unwrap_or_default();
                body.first().is_some_and(|head| head & 0xC0 == DATA)
            })
            .cloned()
            .expect("the DATA frame we sent");
        peer.stream.write_all(&data_frame).await.unwrap();
        // 4. The same proposal in a new frame (as after a restart): known by its id, not
        // applied twice.
        peer.session.push(black_proposal(0, "5755").encode());
        peer.until("the repeat acknowledged", |p| p.session.queued() == 0)
            .await;
        peer.run(Duration::from_millis(500)).await;
    });
    wait_push(&mut boris, "MOVE h1 1... 5755");
    let (code, text) = boris.call("MOVE h1 2 7163");
    assert_eq!(code, 250, "{text}");
    runtime.block_on(async {
        peer.until("2. Nf3 in the record", |p| {
            moves_received(&p.received).len() >= 3
        })
        .await;
        // 5. An illegal proposal with a valid tag: e7-e5 again (no pawn on e7 now).
        peer.session.push(black_proposal(1, "5755").encode());
        peer.until("the refusal", |p| {
            p.received
                .iter()
                .any(|m| matches!(m, Message::Refused { .. }))
        })
        .await;
        let Some(Message::Refused {
            number,
            reason,
            side,
            ..
        }) = peer
            .received
            .iter()
            .find(|m| matches!(m, Message::Refused { .. }))
        else {
            unreachable!()
        };
        assert_eq!((*number, *side), (1, Side::Black));
        assert!(!reason.is_empty(), "the refusal says why");
        eprintln!("refused: {reason}");
        // 6. The link goes on: 2... Nc6 is applied.
        peer.session.push(black_proposal(2, "2836").encode());
        peer.until("2... Nc6 in the record", |p| {
            moves_received(&p.received).len() >= 4
        })
        .await;
        // 7. A REFUSED for boris's move: the node that keeps the record is never refused.
        peer.session.push(
            Message::Refused {
                game: game_code("h1"),
                side: Side::White,
                number: 0,
                reason: "not legal here".to_owned(),
            }
            .encode(),
        );
        peer.until("the refusal acknowledged", |p| p.session.queued() == 0)
            .await;
        done.store(true, Ordering::Relaxed);
    });
    assert!(done.load(Ordering::Relaxed));
    assert_eq!(
        moves_received(&peer.received),
        [
            (1, "5254".to_owned()),
            (2, "5755".to_owned()),
            (3, "7163".to_owned()),
            (4, "2836".to_owned())
        ]
    );
    wait_push(&mut boris, "MOVE h1 2... 2836");
    // Node B's record: e4 e5 Nf3 Nc6 and nothing else; the illegal one journaled as rejected.
    let moves: Vec<String> = moves_of(&node.config, "h1")
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(moves, ["5254", "5755", "7163", "2836"]);
    assert_eq!(rejected_in(&node.config, "h1"), 1);
    boris.call("GAMES");
    assert!(
        boris.pushes.iter().all(|(_, b)| !b.contains("REFUSED")),
        "{:?}",
        boris.pushes
    );
    assert_journal_verifies(&node.config);
}

/// `/metrics` shows the link up, with bytes both ways (and its retransmission count).
fn assert_link_metrics(http: std::net::SocketAddr) {
    let response = get(http, "/metrics");
    let scrape = prometheus_parse::Scrape::parse(response.body.lines().map(|l| Ok(l.to_owned())))
        .expect("Prometheus text");
    let value = |metric: &str| {
        scrape
            .samples
            .iter()
            .find(|s| s.metric == metric && s.labels.get("link") == Some("peer"))
            .map(|s| match s.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => v,
                _ => -1.0,
            })
            .unwrap_or_else(|| panic!("no {metric} in {}", response.body))
    };
    let is_counter = |metric: &str| {
        scrape.samples.iter().any(|s| {
            s.metric == metric
                && s.labels.get("link") == Some("peer")
                && matches!(s.value, prometheus_parse::Value::Counter(_))
        })
    };
    assert_eq!(value("ccrelay_link_up"), 1.0);
    let bytes_out = value("ccrelay_link_bytes_out_total");
    assert!(bytes_out > 0.0);
    assert!(value("ccrelay_link_bytes_in_total") > 0.0);
    // Retransmissions are counted as a counter of whole frames sent again, each at least a
    // byte of what went out: never more than the bytes sent.
    assert!(
        is_counter("ccrelay_link_retransmissions_total"),
        "{}",
        response.body
    );
    let retransmissions = value("ccrelay_link_retransmissions_total");
    assert_eq!(retransmissions.fract(), 0.0, "{retransmissions}");
    assert!(
        retransmissions <= bytes_out,
        "{retransmissions} > {bytes_out}"
    );
}

#[test]
fn every_kind_of_action_crosses_a_link_where_one_node_listens() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // Node A serves /metrics too.
    let mut m = Match::start([
        format!(
            "transport = \"tcp\"\nlisten = \"127.0.0.1:{port}\"\n[http]\nlisten = \"127.0.0.1:0\"\n"
        ),
        format!("transport = \"tcp\"\nconnect = \"127.0.0.1:{port}\"\n"),
    ]);
    m.play(0..6, None, &mut |_| {});
    assert_link_metrics(m.nodes[0].daemon.http.expect("node A's HTTP server"));
    // Node A keeps m1 and m3 (anna is White there), node B keeps m2 (vera is White): an
    // action on the node that keeps its game is done at once (250), on the other it is sent
    // there (202) and its player hears when it is in the record.
    let ok = |c: &mut Client, line: &str, code: u16| {
        let (got, text) = c.call(line);
        assert_eq!(got, code, "{line}: {text}");
    };
    // m1: anna (node A) offers a draw; boris (node B) declines.
    ok(m.client("anna"), "DRAW m1 OFFER", 250);
    wait_push(m.client("boris"), "DRAW m1 offered by anna");
    ok(m.client("boris"), "DRAW m1 DECLINE", 202);
    wait_push(m.client("anna"), "DRAW m1 declined by boris");
    wait_push(m.client("boris"), "RECORDED m1 your draw decline");
    // A claim that does not hold travels too, and is refused by the node that keeps m1.
    ok(m.client("boris"), "CLAIM m1 THREEFOLD", 202);
    let refused = wait_push(m.client("boris"), "REFUSED m1");
    assert!(refused.contains("the other node refused"), "{refused}");
    // Leave: vera's games are m2 (kept on B, recorded there) and m3 (kept on A: sent there).
    ok(m.client("vera"), "LEAVE 2099-01-01 3", 250);
    wait_push(m.client("anna"), "LEAVE m2 vera");
    wait_push(m.client("anna"), "LEAVE m3 vera");
    wait_push(m.client("vera"), "RECORDED m3 your leave");
    // m2: vera (node B, White) resigns.
    ok(m.client("vera"), "RESIGN m2", 250);
    wait_push(m.client("anna"), "RESIGN m2 vera");
    // m3: anna moves and offers a draw with it; vera accepts.
    let mv = m.ply(2, 6);
    ok(m.client("anna"), &format!("MOVE m3 4 {mv} (=)"), 250);
    let push = wait_push(m.client("vera"), &format!("MOVE m3 4. {mv}"));
    assert!(push.contains("draw offered"), "{push}");
    ok(m.client("vera"), "DRAW m3 ACCEPT", 202);
    wait_push(m.client("anna"), "DRAW m3 accepted by vera");
    // m1: the arbiter of node B adjudicates it; node A records it, and both hold the result.
    let mut arbiter = admin(&m.nodes[1].daemon);
    ok(
        &mut arbiter,
        "ADJUDICATE m1 1/2-1/2 agreed by the captains",
        202,
    );
    for (id, result, kinds) in [
        (
            "m1",
            "1/2-1/2",
            &["draw_offer", "draw_decline", "adjudication", "result"][..],
        ),
        ("m2", "0-1", &["leave", "resign", "result"][..]),
        ("m3", "1/2-1/2", &["leave", "draw_accept", "result"][..]),
    ] {
        let deadline = Instant::now() + Duration::from_secs(60);
        let record = loop {
            let record = settled(&m.nodes, id);
            if record.1.contains(result) || Instant::now() > deadline {
                break record;
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        assert!(record.1.contains(result), "{id}: {}", record.1);
        assert_eq!(record.0[0].2, "game_start", "{id}: {:?}", record.0);
        assert_eq!(
            record.0.iter().filter(|(_, _, k, _)| k == "move").count(),
            6 + usize::from(id == "m3")
        );
        for kind in kinds {
            assert!(
                record.0.iter().any(|(_, _, k, _)| k == kind),
                "{id}: no {kind} in {:?}",
                record.0
            );
        }
    }
    for node in &m.nodes {
        assert_journal_verifies(&node.config);
    }
}

/// A draughts game between the clubs: its moves cross the noisy line as paths of square
/// numbers, and both journals hold the same record.
#[test]
fn a_draughts_game_crosses_the_link_as_square_paths() {
    let sim = TcpSimulator::start(NOISY);
    let [link_a, link_b] = tcp_links(&sim);
    let draughts =
        "[[games]]\nid = \"d1\"\ngame = \"draughts-ru\"\nwhite = \"anna\"\nblack = \"boris\"\n";
    let nodes: Vec<Node> = [
        (&["anna"], &["boris"], link_a),
        (&["boris"], &["anna"], link_b),
    ]
    .into_iter()
    .map(|(local, remote, link)| {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = dir.path().join("ccrelay.toml");
        let text = node_config(&dir.path().join("data"), local, remote, &[], &link);
        std::fs::write(&config, format!("{text}{draughts}")).expect("write config");
        let daemon = Daemon::start(&config);
        Node {
            dir,
            config,
            daemon,
        }
    })
    .collect();
    let mut anna = login(&nodes[0], "anna");
    let mut boris = login(&nodes[1], "boris");
    let plies = [
        ("c3-d4", "22-18"),
        ("f6-e5", "11-15"),
        ("d4:f6", "18x11"),
        ("g7:e5", "8x15"),
    ];
    for (i, (text, numeric)) in plies.iter().enumerate() {
        let (mover, opponent) = if i % 2 == 0 {
            (&mut anna, &mut boris)
        } else {
            (&mut boris, &mut anna)
        };
        // Node A keeps d1 (anna is White): boris's moves go there and come back.
        let (code, reply) = mover.call(&format!("MOVE d1 {text}"));
        assert_eq!(code, if i % 2 == 0 { 250 } else { 202 }, "{text}: {reply}");
        let push = wait_push(opponent, &format!("MOVE d1 {}", i / 2 + 1));
        assert!(push.contains(numeric), "{push}");
        if i % 2 == 1 {
            let recorded = wait_push(mover, &format!("RECORDED d1 your move {}... ", i / 2 + 1));
            assert!(recorded.contains(numeric), "{recorded}");
        }
    }
    settled(&nodes, "d1");
    let expected: Vec<(String, String)> = plies
        .iter()
        .enumerate()
        .map(|(i, (_, numeric))| {
            let player = if i % 2 == 0 { "anna" } else { "boris" };
            (player.to_owned(), (*numeric).to_owned())
        })
        .collect();
    drop((anna, boris));
    for node in &nodes {
        assert_eq!(moves_of(&node.config, "d1"), expected);
        assert_journal_verifies(&node.config);
    }
}
