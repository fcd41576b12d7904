//! Two linked nodes in one process, on a simulated line and clock, under seeded schedules of
//! players' actions, line faults and crashes; after each schedule the line heals and both
//! nodes must hold one record (docs/link.md, "One record").
//!
//! Each node is the real thing but for its line and its clock: a journal on disk, the relay
//! task, the link task's own code ([`LinkTask::frames_to_send`], [`LinkTask::on_frame`])
//! driven step by step at the simulation's time. The line between them is the bad-line
//! model's (drops, bit flips, duplicates, delays that reorder). Players act on their own
//! node's view of a game, so actions cross: a resignation on the keeping node while the
//! other's move is on the line, a draw offer against a move, a claim against the arbiter's
//! adjudication, a move against the clock running out, a leave against a move. A crash drops
//! a node whole (relay, link, session, everything not committed) and starts it again from its
//! journal.
//!
//! Every step is awaited to its end before the next, and the sessions take their nonces from
//! the seed, so a seed replays the same schedule:
//! `CCRELAY_SIM_SEED=N cargo test --lib link::simulation -- --nocapture` runs seed N alone,
//! `CCRELAY_SIM_SEEDS=N` sets how many the tests run.

mod check;
mod node;
mod slowpath;

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use jiff::{Timestamp, ToSpan};
use tracing::Instrument;

use super::badline::{self, BAD, CLEAN, Direction, Faults, Rng};
use crate::config::Config;
use crate::relay::{Reply, Status};
use node::{Node, player};

/// The players: `anna` plays on node 0, `boris` on node 1.
const PLAYERS: [&str; 2] = ["anna", "boris"];

/// The games: id, White, Black, whose node keeps the record (`authority`).
const GAMES: [(&str, &str, &str, &str); 3] = [
    ("g1", "anna", "boris", "white"),
    ("g2", "boris", "anna", "white"),
    ("g3", "anna", "boris", "black"),
];

/// The moves both players follow, from their own node's view of the game (Morphy's Opera
/// game, which ends in mate).
const MOVES: [&str; 33] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

/// The line: 2400 baud.
const BYTES_PER_SECOND: f64 = 240.0;
/// One step of the simulation's time.
const STEP: Duration = Duration::from_millis(20);
/// Steps with actions and faults; then the line heals, within at most `HEAL` steps.
const STEPS: u32 = 1500;
const HEAL: u32 = 30_000;
/// Per mille of steps: a player acts, a node crashes.
const ACTS: u64 = 40;
const CRASHES: u64 = 3;

const SECRET: &str = "simulated-link-secret";
const START: &str = "2027-01-01T00:00:00Z";

/// What a schedule did, for the summary.
#[derive(Debug, Default)]
pub(super) struct Outcome {
    pub actions: u32,
    /// Answered 250 (in the record) and 202 (sent to the keeping node).
    pub accepted: u32,
    pub proposed: u32,
    /// Proposals the keeping node refused (most of them crossed an action there).
    pub refused_there: u32,
    /// Moves played from conditional lines, on the keeping node and proposed from the other.
    pub line_answers: u32,
    pub crashes: u32,
    /// Record entries by kind, in every game's record on node 0.
    pub kinds: BTreeMap<&'static str, u32>,
    pub heal_steps: u32,
    /// A hash of every game's record, to see that a seed replays the same schedule.
    pub fingerprint: u64,
}

/// Node `i`'s configuration: its player local, the other across the link; `fec_bytes` of
/// error correction asked for on the link.
fn config(data: &std::path::Path, i: usize, fec_bytes: u64) -> Config {
    let hash = crate::auth::hash_secret_cheap("unused").expect("hash");
    let mut text = format!(
        "data_dir = {:?}\n[clock]\nmode = \"manual\"\nstart = \"{START}\"\ncheck_secs = 86400\n[admin]\nsecret_hash = {hash:?}\n",
        data.display().to_string()
    );
    for (j, p) in PLAYERS.iter().enumerate() {
        if i == j {
            text.push_str(&format!(
                "[[players]]\nid = {p:?}\nsecret_hash = {hash:?}\nnotation = \"iccf\"\n"
            ));
        } else {
            text.push_str(&format!(
                "[[players]]\nid = {p:?}\nreach = \"link\"\nlink = \"peer\"\n"
            ));
        }
    }
    for (id, white, black, authority) in GAMES {
        text.push_str(&format!(
            "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\nauthority = {authority:?}\n"
        ));
    }
    text.push_str(&format!(
        "[[links]]\nid = \"peer\"\nsecret = {SECRET:?}\ntransport = \"serial\"\ndevice = \"/dev/simulated\"\nbaud = 2400\nfec_bytes = {fec_bytes}\n"
    ));
    Config::from_toml(&text, data).expect("simulation config")
}

/// Where the journals go: memory when the machine has it (fsync is the disk's business, not
/// this test's), else the temporary directory.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ccrelay-sim")
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .expect("temp dir")
}

struct World {
    rng: Rng,
    faults: Faults,
    start: Instant,
    /// The simulation's time on the line, from `start`.
    t: Duration,
    /// The relays' (manual) clock.
    clock: Timestamp,
    configs: [Config; 2],
    nodes: [Option<Node>; 2],
    line: [Direction; 2],
    outcome: Outcome,
    /// Entries a node answered 250 for, by their number there: each must outlive crashes.
    acknowledged: Vec<(usize, i64)>,
}

impl World {
    async fn new(seed: u64, dir: &std::path::Path) -> World {
        // Every other seed, node 1 asks for error correction (and so the session has it).
        let fec = if seed % 2 == 1 { 2 } else { 0 };
        let configs = [config(&dir.join("a"), 0, 0), config(&dir.join("b"), 1, fec)];
        let start = Instant::now();
        let clock: Timestamp = START.parse().expect("start");
        let mut nodes = [
            Some(Node::start(&configs[0], start, clock).await),
            Some(Node::start(&configs[1], start, clock).await),
        ];
        for (i, node) in nodes.iter_mut().enumerate() {
            if let Some(node) = node {
                node.link.session.seed_nonces(seed ^ (i as u64 + 1) << 32);
            }
        }
        World {
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            faults: BAD,
            start,
            t: Duration::ZERO,
            clock,
            configs,
            nodes,
            line: [Direction::default(), Direction::default()],
            outcome: Outcome::default(),
            acknowledged: Vec::new(),
        }
    }

    fn node(&self, i: usize) -> &Node {
        self.nodes[i].as_ref().expect("node running")
    }

    fn node_mut(&mut self, i: usize) -> &mut Node {
        self.nodes[i].as_mut().expect("node running")
    }

    /// One step of time: both links send what is due, the line carries it.
    async fn step(&mut self) {
        self.t += STEP;
        let now = self.start + self.t;
        for i in 0..2 {
            let frames = self
                .node_mut(i)
                .frames_to_send(now)
                .instrument(tracing::debug_span!("node", i))
                .await;
            badline::send(&mut self.line[i], &mut self.rng, self.faults, frames, now);
        }
        for from in 0..2 {
            let arrived = badline::carry(
                &mut self.line[from],
                &mut self.rng,
                self.faults,
                BYTES_PER_SECOND,
                STEP,
                now,
            );
            self.node_mut(1 - from)
                .receive(&arrived, now)
                .instrument(tracing::debug_span!("node", i = 1 - from))
                .await;
        }
    }

    /// Node `i` dies at once (kill -9: what its journal committed stays) and starts again.
    async fn crash(&mut self, i: usize) {
        self.outcome.crashes += 1;
        tracing::debug!(node = i, "crash");
        self.nodes[i] = None;
        let now = self.start + self.t;
        let mut node = Node::start(&self.configs[i], now, self.clock).await;
        let seed = self.rng.next();
        node.link.session.seed_nonces(seed);
        self.nodes[i] = Some(node);
    }

    /// Time passes on both nodes' clocks: minutes mostly, now and then days (so that the
    /// clock runs out on a player who waits).
    async fn time_passes(&mut self) {
        let (by, span) = if self.rng.per_mille(100) {
            let days = 1 + self.rng.below(30) as i64;
            (format!("+{days}d"), (days * 24).hours())
        } else {
            let minutes = 1 + self.rng.below(600) as i64;
            (format!("+{minutes}m"), minutes.minutes())
        };
        for i in 0..2 {
            let reply = self.node(i).admin_says(&format!("CLOCK {by}")).await;
            assert_eq!(reply.status, Status::Done, "{}", reply.text);
        }
        self.clock = self.clock.checked_add(span).expect("clock");
    }

    /// A player (or the arbiter) on a random node does something in a random game, from what
    /// their node shows of it.
    async fn act(&mut self) {
        let i = self.rng.below(2) as usize;
        let (game, white, _, _) = GAMES[self.rng.below(GAMES.len() as u64) as usize];
        let me = PLAYERS[i];
        let view = match self.node(i).relay.watch(Some(game), true).await {
            Ok(mut games) if !games.is_empty() => Some(games.remove(0)),
            _ => None,
        };
        let plies = view.as_ref().map_or(0, |v| v.plies);
        let my_turn = view
            .as_ref()
            .is_some_and(|v| (v.to_move == shakmaty::Color::White) == (white == me));
        let roll = self.rng.below(100);
        let line = match roll {
            0..60 => {
                if !my_turn && !self.rng.per_mille(100) {
                    return;
                }
                let Some(mv) = MOVES.get(plies) else { return };
                let offer = if self.rng.per_mille(100) { " (=)" } else { "" };
                format!("MOVE {game} {mv}{offer}")
            }
            60..66 => format!("DRAW {game} OFFER"),
            66..71 => format!("DRAW {game} ACCEPT"),
            71..74 => format!("DRAW {game} DECLINE"),
            74..75 => format!("RESIGN {game}"),
            75..78 => match MOVES.get(plies) {
                Some(mv) if self.rng.per_mille(500) => format!("CLAIM {game} THREEFOLD {mv}"),
                _ => format!("CLAIM {game} THREEFOLD"),
            },
            78..86 => {
                let long = self.rng.per_mille(300);
                let text = if long {
                    "a longer message, which crosses the line in several pieces: ".repeat(3)
                } else {
                    "good luck".to_owned()
                };
                format!("MSG {game} {text}")
            }
            86..88 if !my_turn && plies + 1 < MOVES.len() => {
                // A conditional line: the opponent's expected move and the answer.
                format!("IF {game} {} {}", MOVES[plies], MOVES[plies + 1])
            }
            86..88 => {
                let first = self
                    .clock
                    .checked_add((24 * (1 + self.rng.below(5)) as i64).hours());
                let first = first.expect("date").strftime("%Y-%m-%d");
                format!("LEAVE {first} {}", 1 + self.rng.below(10))
            }
            88..89 => {
                let line = format!("ADJUDICATE {game} 1/2-1/2 by the arbiter of node {i}");
                let reply = self.node(i).admin_says(&line).await;
                self.record_reply(i, &reply);
                return;
            }
            _ => {
                self.time_passes().await;
                return;
            }
        };
        let reply = self.node(i).say(player(me), &line).await;
        self.record_reply(i, &reply);
    }

    fn record_reply(&mut self, node: usize, reply: &Reply) {
        self.outcome.actions += 1;
        match reply.status {
            Status::Done => {
                self.outcome.accepted += 1;
                if let Some(receipt) = &reply.receipt {
                    self.acknowledged.push((node, receipt.seq));
                }
            }
            Status::Proposed => self.outcome.proposed += 1,
            _ => {}
        }
    }

    /// Every entry a node answered 250 for is in its journal (and, when part of a game's
    /// record, in the other node's too, since the records are equal).
    fn acknowledged_kept(&self) -> Result<(), String> {
        for i in 0..2 {
            let seqs: std::collections::HashSet<i64> = check::entries(self.node(i), None)
                .into_iter()
                .map(|e| e.seq)
                .collect();
            if let Some((_, seq)) = self
                .acknowledged
                .iter()
                .find(|(n, seq)| *n == i && !seqs.contains(seq))
            {
                return Err(format!(
                    "node {i} answered 250 for entry {seq}, which it lost"
                ));
            }
        }
        Ok(())
    }

    /// What the schedule left: record entries by kind, refusals, the records' hash.
    fn tally(&mut self) {
        let mut hasher = DefaultHasher::new();
        for (game, _, _, _) in GAMES {
            let record = check::record_of(self.node(0), game);
            format!("{record:?}").hash(&mut hasher);
            for (_, _, kind, _, _) in record {
                *self.outcome.kinds.entry(kind.as_str()).or_default() += 1;
            }
        }
        self.outcome.fingerprint = hasher.finish();
        for i in 0..2 {
            for e in check::entries(self.node(i), None) {
                if e.text.starts_with("refused by the other node") {
                    self.outcome.refused_there += 1;
                }
                if e.channel == "conditional" {
                    self.outcome.line_answers += 1;
                }
            }
        }
    }

    /// Whether the match has settled: both links idle, one record per game, every
    /// proposal decided. `Err` says what still differs.
    async fn settled(&self) -> Result<(), String> {
        let (a, b) = (self.node(0), self.node(1));
        if !a.link_idle() || !b.link_idle() {
            return Err("the link still has messages to send".to_owned());
        }
        for (game, _, _, _) in GAMES {
            let (ra, rb) = (check::record_of(a, game), check::record_of(b, game));
            if ra != rb {
                return Err(format!(
                    "{game}: the records differ\nnode 0: {ra:#?}\nnode 1: {rb:#?}"
                ));
            }
        }
        for (game, white, black, authority) in GAMES {
            let keeper_plays = if authority == "white" { white } else { black };
            let k = PLAYERS
                .iter()
                .position(|p| *p == keeper_plays)
                .expect("player");
            let (keeper, other) = (self.node(k), self.node(1 - k));
            check::proposals_decided(other, keeper, game, white, black).await?;
        }
        Ok(())
    }
}

/// Runs schedule `seed`: actions, faults and crashes for [`STEPS`] steps, then a clean line
/// until the match settles. `Err` says what went wrong.
pub(super) async fn run(seed: u64) -> Result<Outcome, String> {
    let dir = scratch();
    let mut world = World::new(seed, dir.path()).await;
    for _ in 0..STEPS {
        world.step().await;
        if world.rng.per_mille(ACTS) {
            world.act().await;
        }
        if world.rng.per_mille(CRASHES) {
            let i = world.rng.below(2) as usize;
            world.crash(i).await;
        }
    }
    world.faults = CLEAN;
    let mut last = String::new();
    for n in 0..HEAL {
        world.step().await;
        if n % 50 == 49 {
            match world.settled().await {
                Ok(()) => {
                    world.outcome.heal_steps = n + 1;
                    break;
                }
                Err(why) => last = why,
            }
        }
        if n == HEAL - 1 {
            return Err(format!("not settled after the line healed: {last}"));
        }
    }
    for i in 0..2 {
        check::verify(world.node(i)).map_err(|e| format!("node {i}: journal verify: {e}"))?;
    }
    world.acknowledged_kept()?;
    world.tally();
    Ok(world.outcome)
}

/// The seeds to run: `CCRELAY_SIM_SEED` alone, or `count` (`CCRELAY_SIM_SEEDS` overrides)
/// from `first`.
fn seeds(first: u64, count: u64) -> Vec<u64> {
    if let Some(seed) = std::env::var("CCRELAY_SIM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return if seed >= first && seed < first + 1_000_000 {
            vec![seed]
        } else {
            Vec::new()
        };
    }
    let count = std::env::var("CCRELAY_SIM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(count);
    (first..first + count).collect()
}

async fn run_all(first: u64, count: u64) {
    if std::env::var_os("CCRELAY_SIM_DEBUG").is_some() {
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_test_writer()
            .try_init();
    }
    let mut total = Outcome::default();
    let seeds = seeds(first, count);
    for &seed in &seeds {
        match run(seed).await {
            Ok(o) => {
                total.actions += o.actions;
                total.accepted += o.accepted;
                total.proposed += o.proposed;
                total.refused_there += o.refused_there;
                total.line_answers += o.line_answers;
                total.crashes += o.crashes;
                for (kind, n) in o.kinds {
                    *total.kinds.entry(kind).or_default() += n;
                }
                total.heal_steps = total.heal_steps.max(o.heal_steps);
            }
            Err(why) => panic!(
                "simulation seed {seed} failed: {why}\nreproduce: CCRELAY_SIM_SEED={seed} cargo test --lib link::simulation -- --nocapture"
            ),
        }
    }
    println!(
        "{} schedules from seed {first}: {} actions ({} answered 250, {} sent to the keeping node, {} of those refused there), {} moves from conditional lines, {} crashes; record entries {:?}; longest heal {} s",
        seeds.len(),
        total.actions,
        total.accepted,
        total.proposed,
        total.refused_there,
        total.line_answers,
        total.crashes,
        total.kinds,
        (total.heal_steps as u64 * STEP.as_millis() as u64) / 1000,
    );
}

/// Seeds 0.. and 1,000,000.. in two tests, so that the two cores share them.
#[tokio::test]
async fn one_record_after_any_schedule_part_1() {
    run_all(0, 250).await;
}

#[tokio::test]
async fn one_record_after_any_schedule_part_2() {
    run_all(1_000_000, 250).await;
}

/// A seed is a schedule: run twice, it leaves the same records.
#[tokio::test]
async fn a_seed_replays_the_same_schedule() {
    let first = run(7).await.expect("seed 7");
    let again = run(7).await.expect("seed 7 again");
    assert_eq!(first.fingerprint, again.fingerprint);
    assert_eq!(first.crashes, again.crashes);
    assert!(first.crashes > 0 && first.kinds.len() > 3, "{first:?}");
}
