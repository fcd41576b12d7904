//! A match over a slow, noisy path behind TCP buffers, played by two whole nodes on the
//! simulation's clock: what the link costs on such a line, everything counted (the handshake,
//! each game's start, the record coming back for a proposal, acknowledgements, resends), and
//! how long each move waits, from its sending to its arrival on the opponent's node.
//!
//! The match is the integration tests' (tests/integration/link.rs and link_slow.rs): anna on
//! node 0; boris and vera on node 1; games m1 (anna–boris) and m3 (anna–vera) kept on node 0,
//! m2 (vera–anna) on node 1, so half the moves are proposals whose record comes back. Rounds
//! as there: in each, every game's mover sends the game's next ply of one long game, and the
//! next round starts once every move is on its opponent's node and every proposal back in
//! its mover's record.
//!
//! The line is the bad-line model's ([`badline`]) with a TCP link's configuration on both
//! nodes: bytes the node writes wait in an unbounded buffer (the sockets' and a modem's) and
//! leave at the path's speed, which the node is not told. The figures of docs/link.md "A slow
//! TCP path": `cargo test --lib link::simulation::slowpath -- --nocapture`
//! (`CCRELAY_PATH_SEEDS=N` runs more seeds; `CCRELAY_PATH_PLIES=N` sets the plies).

use std::time::{Duration, Instant};

use jiff::Timestamp;

use super::super::badline::{self, BAD, CLEAN, Direction, Faults, Rng};
use super::super::session::Bytes;
use super::node::{Node, player};
use super::{SECRET, START, check, scratch};
use crate::config::Config;
use crate::relay::Status;

/// The games: id, White, Black (each kept by White's node).
const GAMES: [(&str, &str, &str); 3] = [
    ("m1", "anna", "boris"),
    ("m2", "vera", "anna"),
    ("m3", "anna", "vera"),
];

/// Which node a player is on.
fn node_of(player: &str) -> usize {
    usize::from(player != "anna")
}

/// The long game the integration tests play (133 plies, in UCI).
const LONG_GAME: &str = "d2d4 d7d5 g1f3 g8f6 e2e3 a7a6 c2c4 e7e6 b1c3 c7c5 d4c5 f8c5 a2a3 e8g8 b2b4 c5d6 c1b2 a6a5 c4c5 d6e7 c3a4 b8d7 f1b5 a5b4 a3b4 b7b6 e1g1 b6c5 b5d7 c8d7 a4c5 d7b5 f1e1 f6d7 d1d4 e7f6 d4d2 f6b2 a1a8 d8a8 c5d7 b5d7 d2b2 f7f6 h2h4 f8b8 h4h5 a8b7 e1b1 h7h6 b2d2 e6e5 f3h4 d7g4 b4b5 g4h5 b5b6 h5f7 d2b4 b7d7 f2f4 e5f4 e3f4 d5d4 b1d1 d4d3 b4e4 d3d2 h4f3 f7d5 e4d3 d7c6 f3d4 c6c1 d3d2 c1d2 d1d2 b8b6 d4f5 d5e6 f5e3 b6b4 g2g3 b4a4 g1f2 a4a2 d2a2 e6a2 f4f5 h6h5 g3g4 h5g4 f2g3 a2b1 g3g4 g8f7 g4f4 f7e7 e3f1 b1a2 f1g3 a2f7 g3e4 e7d7 e4c5 d7c6 c5e4 c6d5 e4g3 d5d4 g3e4 f7d5 e4g3 d5f7 g3e2 d4d3 e2g3 f7e8 g3e4 d3e2 e4c5 e8f7 c5e6 g7g5 f5g6 f7e6 g6g7 e2d3 g7g8n e6g8 f4f5 g8h7 f5f6";

/// The plies the issue measured: 3 games of 123 plies.
pub(super) const PLIES: usize = 123;

/// One step of the simulation's time.
const STEP: Duration = Duration::from_millis(20);
/// A match not over after this much simulated time did not finish.
const GIVE_UP: Duration = Duration::from_secs(3600);

/// Twice the noise: 6% of units dropped, 2% of bytes hit, 2% duplicated, 10% delayed.
pub(super) const TWICE_BAD: Faults = Faults {
    drop: 2 * BAD.drop,
    flip: 2 * BAD.flip,
    duplicate: 2 * BAD.duplicate,
    delay: 2 * BAD.delay,
    fec: 0,
};

/// Ply `i` of the long game in ICCF numeric (`d2d4` is `4244`).
fn iccf(i: usize) -> String {
    let uci = LONG_GAME
        .split_whitespace()
        .nth(i)
        .expect("a ply of the long game");
    let b = uci.as_bytes();
    let square = |f: u8, r: u8| format!("{}{}", f - b'a' + 1, r - b'0');
    let mut s = format!("{}{}", square(b[0], b[1]), square(b[2], b[3]));
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

/// What a match cost and how long its moves waited.
#[derive(Debug, Default)]
pub(super) struct PathRun {
    /// Seconds each move waited, from its sending to its arrival on the opponent's node.
    pub waits: Vec<f64>,
    pub moves: u64,
    /// Bytes both nodes sent, by kind.
    pub bytes: Bytes,
    /// Whether every ply was played within [`GIVE_UP`].
    pub finished: bool,
    /// Simulated seconds the match took, and until both nodes' sessions were first up.
    pub seconds: f64,
    pub handshake: f64,
    /// Both nodes' counts together: sessions established, timeouts, resends after a gap and
    /// after a NAK, copies of what the receiver held already.
    pub sessions: u64,
    pub timeouts: u64,
    pub fast: u64,
    pub nak_resends: u64,
    pub repeats_in: u64,
    pub repaired: u64,
}

impl PathRun {
    pub fn per_move(&self) -> f64 {
        self.bytes.total() as f64 / self.moves.max(1) as f64
    }
}

/// Node `i`'s configuration: its players local, the others across a TCP link.
fn config(data: &std::path::Path, i: usize) -> Config {
    let hash = crate::auth::hash_secret_cheap("unused").expect("hash");
    let mut text = format!(
        "data_dir = {:?}\n[clock]\nmode = \"manual\"\nstart = \"{START}\"\ncheck_secs = 86400\n[admin]\nsecret_hash = {hash:?}\n",
        data.display().to_string()
    );
    for p in ["anna", "boris", "vera"] {
        if node_of(p) == i {
            text.push_str(&format!(
                "[[players]]\nid = {p:?}\nsecret_hash = {hash:?}\nnotation = \"iccf\"\n"
            ));
        } else {
            text.push_str(&format!(
                "[[players]]\nid = {p:?}\nreach = \"link\"\nlink = \"peer\"\n"
            ));
        }
    }
    for (id, white, black) in GAMES {
        text.push_str(&format!(
            "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\n"
        ));
    }
    // The address is never dialled: the simulation carries the link's frames itself.
    text.push_str(&format!(
        "[[links]]\nid = \"peer\"\nsecret = {SECRET:?}\ntransport = \"tcp\"\nconnect = \"127.0.0.1:9\"\n"
    ));
    Config::from_toml(&text, data).expect("slow path config")
}

/// Plays `plies` plies of each game over a path of `bytes_per_second` each way with `faults`.
pub(super) async fn play(
    seed: u64,
    faults: Faults,
    bytes_per_second: f64,
    plies: usize,
) -> PathRun {
    let dir = scratch();
    let configs = [
        config(&dir.path().join("a"), 0),
        config(&dir.path().join("b"), 1),
    ];
    let start = Instant::now();
    let clock: Timestamp = START.parse().expect("start");
    let mut nodes = [
        Node::start(&configs[0], start, clock).await,
        Node::start(&configs[1], start, clock).await,
    ];
    for (i, node) in nodes.iter_mut().enumerate() {
        node.link.session.seed_nonces(seed ^ ((i as u64 + 1) << 32));
    }
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut line = [Direction::default(), Direction::default()];
    let mut run = PathRun::default();
    let mut t = Duration::ZERO;
    // The round being played: when each game's move was sent, and whether it has arrived.
    let mut ply = 0;
    let mut sent: Vec<Option<Duration>> = vec![None; GAMES.len()];
    let mut arrived = vec![false; GAMES.len()];
    let mut plies_seen = [[0usize; 3]; 2];
    loop {
        if sent.iter().all(Option::is_none) {
            if ply == plies {
                run.finished = true;
                break;
            }
            for (g, (id, white, black)) in GAMES.iter().enumerate() {
                let mover = if ply % 2 == 0 { white } else { black };
                let line = format!("MOVE {id} {} {}", ply / 2 + 1, iccf(ply));
                let reply = nodes[node_of(mover)].say(player(mover), &line).await;
                assert!(
                    matches!(reply.status, Status::Done | Status::Proposed),
                    "{line} by {mover}: {}",
                    reply.text
                );
                sent[g] = Some(t);
                arrived[g] = false;
            }
        }
        t += STEP;
        if t > GIVE_UP {
            break;
        }
        let now = start + t;
        if run.handshake == 0.0 && nodes.iter().all(|n| n.link.session.is_established()) {
            run.handshake = t.as_secs_f64();
        }
        for (i, node) in nodes.iter_mut().enumerate() {
            let frames = node.frames_to_send(now).await;
            badline::send(&mut line[i], &mut rng, faults, frames, now);
        }
        for from in 0..2 {
            let bytes = badline::carry(
                &mut line[from],
                &mut rng,
                faults,
                bytes_per_second,
                STEP,
                now,
            );
            nodes[1 - from].receive(&bytes, now).await;
        }
        for (i, node) in nodes.iter().enumerate() {
            if let Ok(games) = node.relay.watch(None, true).await {
                for w in games {
                    if let Some(g) = GAMES.iter().position(|(id, _, _)| *id == w.id) {
                        plies_seen[i][g] = w.plies;
                    }
                }
            }
        }
        for (g, (_, white, black)) in GAMES.iter().enumerate() {
            let Some(at) = sent[g] else { continue };
            let (mover, opponent) = if ply % 2 == 0 {
                (white, black)
            } else {
                (black, white)
            };
            if !arrived[g] && plies_seen[node_of(opponent)][g] > ply {
                arrived[g] = true;
                run.waits.push((t - at).as_secs_f64());
                run.moves += 1;
            }
            // A proposal's record back on its mover's node ends the mover's wait.
            if arrived[g] && plies_seen[node_of(mover)][g] > ply {
                sent[g] = None;
            }
        }
        if sent.iter().all(Option::is_none) {
            ply += 1;
        }
    }
    run.seconds = t.as_secs_f64();
    for node in &nodes {
        let stats = &node.link.session.stats;
        run.bytes.add(&stats.bytes);
        run.sessions += stats.sessions;
        run.timeouts += stats.timeouts;
        run.fast += stats.fast_retransmissions;
        run.nak_resends += stats.nak_resends;
        run.repeats_in += stats.repeats_in;
        run.repaired += stats.repaired;
    }
    if run.finished {
        for (id, _, _) in GAMES {
            let (a, b) = (
                check::record_of(&nodes[0], id),
                check::record_of(&nodes[1], id),
            );
            assert_eq!(a, b, "seed {seed}: the records of {id} differ");
        }
    }
    run
}

/// What runs over one line measured together.
#[derive(Debug, Default)]
pub(super) struct Summary {
    /// Bytes both nodes sent, by kind, and the moves they relayed.
    pub bytes: Bytes,
    pub moves: u64,
    /// Every move's wait, sorted; and the first move's of every game.
    pub waits: Vec<f64>,
    pub first_moves: Vec<f64>,
    /// Runs that did not finish.
    pub unfinished: usize,
}

impl Summary {
    pub fn per_move(&self) -> f64 {
        self.bytes.total() as f64 / self.moves.max(1) as f64
    }

    /// The wait at percentile `p` (0 to 1), in seconds.
    pub fn wait(&self, p: f64) -> f64 {
        let at = ((self.waits.len() as f64 - 1.0) * p).round() as usize;
        self.waits.get(at).copied().unwrap_or(f64::INFINITY)
    }
}

/// Plays `seeds` runs and prints a line: bytes per move by kind, the waits' percentiles.
pub(super) async fn summary(
    label: &str,
    seeds: std::ops::Range<u64>,
    faults: Faults,
    bytes_per_second: f64,
    plies: usize,
) -> Summary {
    let mut sum = Summary::default();
    let runs = seeds.end - seeds.start;
    for seed in seeds {
        let run = play(seed, faults, bytes_per_second, plies).await;
        if std::env::var_os("CCRELAY_PATH_VERBOSE").is_some() {
            let worst = run.waits.iter().copied().fold(0.0, f64::max);
            println!(
                "  seed {seed}: {:.1} bytes a move, worst wait {worst:.1} s (first moves {:.1?}), handshake {:.1} s, {:.0} s, finished {}; sessions {}, timeouts {}, fast resends {} ({} after a NAK), copies received {}; repaired {}",
                run.per_move(),
                &run.waits[..run.waits.len().min(GAMES.len())],
                run.handshake,
                run.seconds,
                run.finished,
                run.sessions,
                run.timeouts,
                run.fast,
                run.nak_resends,
                run.repeats_in,
                run.repaired,
            );
        }
        sum.unfinished += usize::from(!run.finished);
        sum.bytes.add(&run.bytes);
        sum.moves += run.moves;
        sum.first_moves
            .extend(run.waits.iter().take(GAMES.len()).copied());
        sum.waits.extend(run.waits);
    }
    sum.waits.sort_by(f64::total_cmp);
    let m = sum.moves.max(1) as f64;
    let first = sum.first_moves.iter().copied().fold(0.0, f64::max);
    println!(
        "{label}: {runs} runs, {} moves{}: {:.1} bytes a move (first copies {:.1}, resends {:.1}, acks {:.1}, handshake {:.1}); wait p50 {:.1} s, p99 {:.1} s, max {:.1} s; a game's first move at most {first:.1} s",
        sum.moves,
        if sum.unfinished > 0 {
            format!(" ({} not finished)", sum.unfinished)
        } else {
            String::new()
        },
        sum.per_move(),
        sum.bytes.data as f64 / m,
        sum.bytes.resent as f64 / m,
        sum.bytes.acks as f64 / m,
        sum.bytes.handshake as f64 / m,
        sum.wait(0.5),
        sum.wait(0.99),
        sum.wait(1.0),
    );
    sum
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The targets on its line (300 bytes a second behind TCP buffers; 3 games of 123
/// plies): on a clean path no resend, every acknowledgement but a few riding on DATA, and
/// each game's first move there within a second and a half; with the noise at most
/// 40 bytes a relayed move, everything counted, and with twice that noise at most 60; the
/// 99th percentile of the moves' waits under 10 s, first moves included; every run finished
/// (and, in [`play`], one record on both nodes). Regression: a TCP link took the path for
/// 10 kB/s, capped its timeout at half a second and resent the whole window every half
/// second (50 bytes a move on a clean path, 90 with noise, 130 with twice the noise).
#[tokio::test]
async fn a_match_over_a_slow_tcp_path_stays_within_the_targets() {
    if std::env::var_os("CCRELAY_SIM_DEBUG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_test_writer()
            .try_init();
    }
    let seeds = env("CCRELAY_PATH_SEEDS", 2);
    let plies = env("CCRELAY_PATH_PLIES", PLIES as u64) as usize;
    let clean = summary("clean 300 B/s TCP", 1..2, CLEAN, 300.0, plies).await;
    assert_eq!(clean.unfinished, 0);
    assert_eq!(clean.bytes.resent, 0, "resends on a clean path");
    let acks = clean.bytes.acks as f64 / clean.moves as f64;
    assert!(acks < 1.0, "{acks:.1} bytes of standalone ACKs a move");
    let first = clean.first_moves.iter().copied().fold(0.0, f64::max);
    assert!(first < 1.5, "a game's first move waited {first:.1} s");
    for (label, faults, most) in [
        ("bad 300 B/s TCP", BAD, 40.0),
        ("twice as bad 300 B/s TCP", TWICE_BAD, 60.0),
    ] {
        let sum = summary(label, 1..1 + seeds, faults, 300.0, plies).await;
        assert_eq!(sum.unfinished, 0, "{label}: runs that did not finish");
        assert!(
            sum.per_move() <= most,
            "{label}: {:.1} bytes a move",
            sum.per_move()
        );
        assert!(
            sum.wait(0.99) < 10.0,
            "{label}: p99 {:.1} s",
            sum.wait(0.99)
        );
        let first = sum.first_moves.iter().copied().fold(0.0, f64::max);
        assert!(
            first < 10.0,
            "{label}: a game's first move waited {first:.1} s"
        );
    }
}
