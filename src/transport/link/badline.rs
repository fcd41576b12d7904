//! A bad serial line on virtual time, for measuring the session protocol: two ends, a
//! full-duplex line of a given speed that drops, corrupts, duplicates and delays, and games
//! played over it. Figures it prints are those of docs/link.md "Cost on the wire":
//! `cargo test --release --lib link::badline -- --nocapture --test-threads 1`.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::frame::Deframer;
use super::message::{Act, Body, Message, Side};
use super::session::{LinkSession, Timing};

/// What the line does to what passes (per mille; `flip` per byte).
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    pub drop: u64,
    pub flip: u64,
    pub duplicate: u64,
    pub delay: u64,
    /// Reed–Solomon parity bytes both ends put on their frames ([`super::fec`]); 0: none.
    pub fec: u64,
}

/// The bad line: 3% of frames dropped, a bit flipped in 1% of bytes, 1% of frames
/// duplicated, 5% delayed (0.2 to 3 s, so they arrive out of order).
pub const BAD: Faults = Faults {
    drop: 30,
    flip: 10,
    duplicate: 10,
    delay: 50,
    fec: 0,
};

pub const CLEAN: Faults = Faults {
    drop: 0,
    flip: 0,
    duplicate: 0,
    delay: 0,
    fec: 0,
};

pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(super) fn per_mille(&mut self, p: u64) -> bool {
        self.next() % 1000 < p
    }
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One direction of the line.
#[derive(Default)]
pub(super) struct Direction {
    /// Bytes on their way, in order.
    wire: VecDeque<u8>,
    /// Frames held back, with the time they join the wire.
    delayed: Vec<(Instant, Vec<u8>)>,
    /// Fractional bytes of line time not yet used.
    credit: f64,
}

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Seconds each move waited, from its making to its application on the other end.
    pub waits: Vec<f64>,
    /// Bytes both ends sent.
    pub bytes: u64,
    pub moves: u64,
    pub retransmissions: u64,
    /// Sessions established, both ends together (2 when the line never needed a new one).
    pub sessions: u64,
    /// Seconds until both ends were established.
    pub handshake: f64,
}

fn move_message(game: u16, number: u16) -> Vec<u8> {
    Message::Proposal {
        game,
        side: if number.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        },
        number,
        age: 0,
        body: Body::Act(Act::Move {
            from: 12,
            to: 28,
            promotion: 0,
            draw_offer: false,
        }),
    }
    .encode()
}

/// Seconds a player thinks before answering, at most (uniformly from zero).
const THINK: f64 = 3.0;

/// `games` games between the two ends, `plies` plies each: White (end 0) moves, the move
/// crosses, Black (end 1) answers after thinking up to [`THINK`] seconds, and so on. Returns
/// every move's wait and the bytes spent.
pub fn play(seed: u64, faults: Faults, bytes_per_second: f64, games: u16, plies: u16) -> Outcome {
    let step = Duration::from_millis(5);
    let start = Instant::now();
    let mut now = start;
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let timing = Timing::for_line(bytes_per_second, 4);
    let fec = faults.fec as usize;
    let mut ends = [
        LinkSession::new(b"secret", 4, timing.clone(), now).with_fec(fec),
        LinkSession::new(b"secret", 4, timing, now).with_fec(fec),
    ];
    let mut line = [Direction::default(), Direction::default()];
    let mut deframers = [Deframer::default(), Deframer::default()];
    // Per end: messages waiting for room in the session, with the game and when made.
    let mut outbox: [VecDeque<Vec<u8>>; 2] = [VecDeque::new(), VecDeque::new()];
    // Per game: the next ply, when it is due to be made, and when the last one was made.
    let mut next_ply = vec![0u16; usize::from(games)];
    // The games start once the session is up (its handshake is timed apart).
    let mut due: Vec<Option<Instant>> = vec![None; usize::from(games)];
    let mut started = false;
    let mut made: Vec<Instant> = vec![start; usize::from(games)];
    let mut out = Outcome::default();
    let total = u64::from(games) * u64::from(plies);
    let trace = std::env::var("BADLINE_TRACE")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        == Some(seed);
    while out.moves < total {
        now += step;
        assert!(
            now.duration_since(start) < Duration::from_secs(200_000),
            "stuck (seed {seed})"
        );
        if !started && ends.iter().all(LinkSession::is_established) {
            started = true;
            out.handshake = now.duration_since(start).as_secs_f64();
            for (g, due) in due.iter_mut().enumerate() {
                *due = Some(now + Duration::from_millis(g as u64 * 300));
            }
        }
        for g in 0..usize::from(games) {
            if let Some(at) = due[g]
                && now >= at
            {
                let ply = next_ply[g];
                let by = usize::from(ply % 2);
                outbox[by].push_back(move_message(g as u16, ply));
                made[g] = now;
                due[g] = None;
            }
        }
        for i in 0..2 {
            while ends[i].has_room() {
                let Some(m) = outbox[i].pop_front() else {
                    break;
                };
                ends[i].push(m);
            }
            let frames = ends[i].poll(now);
            if trace && !frames.is_empty() {
                let t = now.duration_since(start).as_secs_f64();
                for f in &frames {
                    println!("{t:8.2} {i} sends {:02x?}", f);
                }
                println!("{t:8.2} {i} {}", ends[i].describe());
            }
            send(&mut line[i], &mut rng, faults, frames, now);
        }
        for (from, direction) in line.iter_mut().enumerate() {
            let to = 1 - from;
            let arrived = carry(direction, &mut rng, faults, bytes_per_second, step, now);
            let mut frames = Vec::new();
            deframers[to].push(&arrived, |f| frames.push(f.to_vec()));
            for f in frames {
                let r = ends[to].on_frame(&f, now);
                if trace {
                    let t = now.duration_since(start).as_secs_f64();
                    println!(
                        "{t:8.2} {to} got {:02x?} -> {:?}; {}",
                        f,
                        r.map(|i| i.acked),
                        ends[to].describe()
                    );
                }
                while let Some(m) = ends[to].take_message() {
                    ends[to].delivered(now);
                    if trace {
                        println!("   applied {:?}", Message::decode(&m));
                    }
                    applied(
                        &m,
                        now,
                        &mut next_ply,
                        &mut due,
                        &made,
                        plies,
                        &mut rng,
                        &mut out,
                    );
                }
            }
        }
    }
    out.bytes = ends[0].stats.bytes_out + ends[1].stats.bytes_out;
    out.retransmissions = ends[0].stats.retransmissions + ends[1].stats.retransmissions;
    out.sessions = ends[0].stats.sessions + ends[1].stats.sessions;
    out
}

/// A move arrived and is applied, unless it is a repeat: the next ply of its game is due
/// after some thought.
#[allow(clippy::too_many_arguments)]
fn applied(
    m: &[u8],
    now: Instant,
    next_ply: &mut [u16],
    due: &mut [Option<Instant>],
    made: &[Instant],
    plies: u16,
    rng: &mut Rng,
    out: &mut Outcome,
) {
    let Ok(Message::Proposal { game, number, .. }) = Message::decode(m) else {
        return;
    };
    let g = game as usize;
    if number != next_ply[g] || due[g].is_some() {
        return;
    }
    let wait = now.duration_since(made[g]).as_secs_f64();
    if wait > 20.0 && std::env::var_os("BADLINE_VERBOSE").is_some() {
        println!("    game {g} ply {number} waited {wait:.1} s");
    }
    out.waits.push(wait);
    out.moves += 1;
    next_ply[g] += 1;
    if next_ply[g] < plies {
        let think = THINK * rng.below(1000) as f64 / 1000.0;
        due[g] = Some(now + Duration::from_secs_f64(think));
    }
}

/// Frames an end sends: dropped, duplicated or held back as the faults say.
pub(super) fn send(
    dir: &mut Direction,
    rng: &mut Rng,
    faults: Faults,
    frames: Vec<Vec<u8>>,
    now: Instant,
) {
    for f in frames {
        if rng.per_mille(faults.drop) {
            continue;
        }
        let copies = if rng.per_mille(faults.duplicate) {
            2
        } else {
            1
        };
        for _ in 0..copies {
            if rng.per_mille(faults.delay) {
                let late = Duration::from_millis(200 + rng.below(2800));
                dir.delayed.push((now + late, f.clone()));
            } else {
                dir.wire.extend(&f);
            }
        }
    }
}

/// What one step of line time delivers, with bits flipped on the way.
pub(super) fn carry(
    dir: &mut Direction,
    rng: &mut Rng,
    faults: Faults,
    bytes_per_second: f64,
    step: Duration,
    now: Instant,
) -> Vec<u8> {
    let mut i = 0;
    while i < dir.delayed.len() {
        if dir.delayed[i].0 <= now {
            let (_, f) = dir.delayed.swap_remove(i);
            dir.wire.extend(f);
        } else {
            i += 1;
        }
    }
    dir.credit += bytes_per_second * step.as_secs_f64();
    let mut arrived = Vec::new();
    while dir.credit >= 1.0 {
        let Some(mut b) = dir.wire.pop_front() else {
            dir.credit = dir.credit.min(1.0);
            break;
        };
        dir.credit -= 1.0;
        if rng.per_mille(faults.flip) {
            b ^= 1 << rng.below(8);
        }
        arrived.push(b);
    }
    arrived
}

/// Waits' percentiles and bytes per move over `runs` seeded runs.
pub fn summary(
    label: &str,
    runs: u64,
    faults: Faults,
    bps: f64,
    games: u16,
    plies: u16,
) -> (f64, f64, f64, f64) {
    let mut waits = Vec::new();
    let mut bytes = 0;
    let mut moves = 0;
    let mut retx = 0;
    let mut sessions = 0;
    let mut handshakes = Vec::new();
    for seed in 1..=runs {
        let o = play(seed, faults, bps, games, plies);
        sessions += o.sessions;
        handshakes.push(o.handshake);
        if std::env::var_os("BADLINE_VERBOSE").is_some() {
            let worst = o.waits.iter().copied().fold(0.0, f64::max);
            println!(
                "  seed {seed}: worst wait {worst:.1} s, {} retransmissions, {} sessions",
                o.retransmissions, o.sessions
            );
        }
        waits.extend(o.waits);
        bytes += o.bytes;
        moves += o.moves;
        retx += o.retransmissions;
    }
    waits.sort_by(f64::total_cmp);
    let pct = |p: f64| waits[((waits.len() as f64 - 1.0) * p) as usize];
    let (p50, p99, max) = (pct(0.5), pct(0.99), pct(1.0));
    let per_move = bytes as f64 / moves as f64;
    handshakes.sort_by(f64::total_cmp);
    println!(
        "{label}: {runs} runs, {moves} moves: wait p50 {p50:.1} s, p99 {p99:.1} s, max {max:.1} s; {per_move:.1} bytes per move both ways; {retx} retransmissions; {sessions} sessions; handshake p50 {:.1} s, max {:.1} s",
        handshakes[handshakes.len() / 2],
        handshakes[handshakes.len() - 1],
    );
    (p50, p99, max, per_move)
}

/// The figures of docs/link.md, and the targets on the bad line: no move waits more
/// than 10 s at the 99th percentile, none stalls.
#[test]
fn moves_on_the_bad_line() {
    let (_, p99, max, bytes) = summary("clean 300 baud", 20, CLEAN, 30.0, 3, 40);
    assert!(
        p99 < 2.0 && max < 3.0 && bytes < 30.0,
        "{p99} {max} {bytes}"
    );
    let runs = std::env::var("BADLINE_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let (_, p99, max, _) = summary("bad 300 baud", runs, BAD, 30.0, 3, 40);
    assert!(p99 <= 10.0, "p99 {p99} s");
    assert!(max < 30.0, "a move stalled {max} s");
    // Forward error correction: 2 or 4 parity bytes a frame.
    for fec in [2, 4] {
        let faults = Faults { fec, ..BAD };
        summary(
            &format!("bad 300 baud, FEC {fec} bytes"),
            runs,
            faults,
            30.0,
            3,
            40,
        );
    }
}
