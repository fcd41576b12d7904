//! The link's protocol between two sessions over lines clean, noisy, reordering, slow and
//! 300 baud: every message delivered in order exactly once, sessions that do not establish or
//! that restart, hostile bytes, repeats and error correction, and what a line costs.

use std::collections::VecDeque;

use super::*;
use crate::transport::link::frame::Deframer;

fn timing() -> Timing {
    Timing {
        hello: Duration::from_millis(100),
        rto: Duration::from_millis(200),
        rto_min: Duration::from_millis(200),
        rto_cap: Duration::from_millis(800),
        rto_max: Duration::from_secs(2),
        ack_delay: Duration::from_millis(50),
        keepalive: Duration::from_secs(1),
        dead: Duration::from_secs(5),
        bytes_per_second: 10_000.0,
    }
}

/// Two ends, a lossy pipe between them driven by a seeded generator, and what each end
/// applied.
struct Pair {
    ends: [LinkSession; 2],
    applied: [Vec<Vec<u8>>; 2],
    now: Instant,
    rng: u64,
    /// Per mille of frames dropped, corrupted, duplicated, held back (0.05 to 3 s, so
    /// that they arrive after later ones).
    drop: u64,
    corrupt: u64,
    duplicate: u64,
    delay: u64,
    in_flight: [Vec<Vec<u8>>; 2],
    held_back: Vec<(Instant, usize, Vec<u8>)>,
}

impl Pair {
    fn new(secrets: [&[u8]; 2]) -> Pair {
        let now = Instant::now();
        Pair {
            ends: [
                LinkSession::new(secrets[0], 4, timing(), now),
                LinkSession::new(secrets[1], 4, timing(), now),
            ],
            applied: [Vec::new(), Vec::new()],
            now,
            rng: 0x9E37_79B9_7F4A_7C15,
            drop: 0,
            corrupt: 0,
            duplicate: 0,
            delay: 0,
            in_flight: [Vec::new(), Vec::new()],
            held_back: Vec::new(),
        }
    }

    fn rand(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Frames end `from` sends: damaged on the way, queued for the other end.
    fn send(&mut self, from: usize, frames: Vec<Vec<u8>>) {
        for mut f in frames {
            if self.rand() % 1000 < self.drop {
                continue;
            }
            if self.rand() % 1000 < self.corrupt {
                let i = (self.rand() as usize) % f.len();
                f[i] ^= 1 << (self.rand() % 8);
            }
            if self.rand() % 1000 < self.duplicate {
                self.in_flight[from].push(f.clone());
            }
            if self.rand() % 1000 < self.delay {
                let late = Duration::from_millis(50 + self.rand() % 2950);
                self.held_back.push((self.now + late, from, f));
            } else {
                self.in_flight[from].push(f);
            }
        }
    }

    fn step(&mut self) {
        self.now += Duration::from_millis(50);
        let now = self.now;
        for (_, from, f) in self.held_back.extract_if(.., |(at, _, _)| *at <= now) {
            self.in_flight[from].push(f);
        }
        for i in 0..2 {
            let frames = self.ends[i].poll(self.now);
            self.send(i, frames);
        }
        for from in 0..2 {
            let to = 1 - from;
            let bytes: Vec<u8> = std::mem::take(&mut self.in_flight[from]).concat();
            let mut frames = Vec::new();
            Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
            for f in frames {
                let _ = self.ends[to].on_frame(&f, self.now);
                while let Some(m) = self.ends[to].take_message() {
                    self.applied[to].push(m);
                    self.ends[to].delivered(self.now);
                }
            }
        }
    }

    fn run(&mut self, messages: usize, steps: usize) {
        let mut next = [0usize; 2];
        for _ in 0..steps {
            for (i, (end, next)) in self.ends.iter_mut().zip(&mut next).enumerate() {
                while *next < messages && end.has_room() {
                    end.push(format!("{i}:{next}").into_bytes());
                    *next += 1;
                }
            }
            self.step();
            if next == [messages; 2]
                && self.ends.iter().all(|e| e.queued() == 0)
                && self.applied.iter().all(|a| a.len() == messages)
            {
                return;
            }
        }
    }

    fn expect_all(&self, messages: usize) {
        for to in 0..2 {
            let want: Vec<Vec<u8>> = (0..messages)
                .map(|n| format!("{}:{n}", 1 - to).into_bytes())
                .collect();
            assert_eq!(self.applied[to], want, "end {to}");
        }
    }
}

#[test]
fn a_clean_line_delivers_everything_in_order_once() {
    let mut p = Pair::new([b"s", b"s"]);
    p.run(50, 2000);
    p.expect_all(50);
    assert_eq!(p.ends[0].stats.bad_frames, 0);
}

#[test]
fn a_noisy_line_still_delivers_everything_in_order_exactly_once() {
    let mut p = Pair::new([b"s", b"s"]);
    p.drop = 50;
    p.corrupt = 30;
    p.duplicate = 30;
    p.run(200, 200_000);
    p.expect_all(200);
    let s = &p.ends[0].stats;
    assert!(s.retransmissions > 0 && s.bad_frames + p.ends[1].stats.bad_frames > 0);
    assert!(
        s.replays + p.ends[1].stats.replays > 0,
        "duplicates are caught as replays"
    );
}

/// Regression: frames the line delayed behind later ones (a radio hop, a proxy) came back
/// after the sequence numbers had wrapped: a stale acknowledgement released messages the
/// peer never had, and a stale copy of an old message was applied as a new one.
#[test]
fn a_line_that_reorders_still_delivers_everything_in_order_exactly_once() {
    for seed in 1..=20u64 {
        let mut p = Pair::new([b"s", b"s"]);
        p.rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        p.drop = 30;
        p.duplicate = 10;
        p.delay = 100;
        p.run(300, 200_000);
        p.expect_all(300);
    }
}

/// One end asks for error correction: the session takes it on both, and a line that
/// damages frames still delivers everything once, in order.
#[test]
fn error_correction_asked_by_one_end_is_used_by_both() {
    let mut p = Pair::new([b"s", b"s"]);
    p.ends[0] = LinkSession::new(b"s", 4, timing(), p.now).with_fec(4);
    p.corrupt = 200;
    p.run(100, 200_000);
    p.expect_all(100);
    assert_eq!((p.ends[0].fec(), p.ends[1].fec()), (4, 4));
}

#[test]
fn different_secrets_never_establish() {
    let mut p = Pair::new([b"one", b"two"]);
    p.run(3, 500);
    assert!(p.applied.iter().all(Vec::is_empty));
    assert!(!p.ends[0].is_established() && !p.ends[1].is_established());
}

#[test]
fn a_restarted_end_gets_a_new_session_and_unacked_messages_are_sent_again() {
    let mut p = Pair::new([b"s", b"s"]);
    p.run(5, 2000);
    p.expect_all(5);
    // End 0 loses everything it had not sent (a new process) and starts again.
    let now = p.now;
    p.ends[0] = LinkSession::new(b"s", 4, timing(), now);
    p.applied[1].clear();
    for n in 0..3 {
        p.ends[0].push(format!("0:{n}").into_bytes());
    }
    for _ in 0..200 {
        p.step();
    }
    assert_eq!(p.applied[1].len(), 3);
    assert!(p.ends[1].stats.sessions >= 2);
}

#[test]
fn frames_from_an_old_session_are_refused_in_a_new_one() {
    let mut p = Pair::new([b"s", b"s"]);
    // Record what end 0 sends in the first session.
    p.ends[0].push(b"0:0".to_vec());
    let mut recorded = Vec::new();
    for _ in 0..100 {
        p.now += Duration::from_millis(50);
        let out = p.ends[0].poll(p.now);
        recorded.extend(out.iter().cloned());
        p.send(0, out);
        let out = p.ends[1].poll(p.now);
        p.send(1, out);
        for from in 0..2 {
            let bytes: Vec<u8> = std::mem::take(&mut p.in_flight[from]).concat();
            let mut frames = Vec::new();
            Deframer::default().push(&bytes, |f| frames.push(f.to_vec()));
            for f in frames {
                let _ = p.ends[1 - from].on_frame(&f, p.now);
                while let Some(m) = p.ends[1 - from].take_message() {
                    p.applied[1 - from].push(m);
                    p.ends[1 - from].delivered(p.now);
                }
            }
        }
    }
    assert_eq!(p.applied[1], vec![b"0:0".to_vec()]);
    // End 1 starts again; the old frames, replayed, establish nothing and deliver nothing.
    let now = p.now;
    p.ends[1] = LinkSession::new(b"s", 4, timing(), now);
    let _ = p.ends[1].poll(now);
    p.applied[1].clear();
    for wire in &recorded {
        let mut frames = Vec::new();
        Deframer::default().push(wire, |f| frames.push(f.to_vec()));
        for f in frames {
            let _ = p.ends[1].on_frame(&f, now);
            assert!(p.ends[1].take_message().is_none());
        }
    }
    assert!(!p.ends[1].is_established());
    assert!(p.applied[1].is_empty());
}

#[test]
fn random_bytes_never_panic_and_never_deliver() {
    let now = Instant::now();
    let mut p = Pair::new([b"s", b"s"]);
    p.run(2, 2000);
    p.expect_all(2);
    let mut rng = 12345u64;
    for len in 0..200 {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng as u8
                })
                .collect();
            for end in &mut p.ends {
                let _ = end.on_frame(&bytes, now);
                assert!(end.take_message().is_none());
            }
            let mut fresh = LinkSession::new(b"s", 4, timing(), now);
            let _ = fresh.on_frame(&bytes, now);
        }
    }
    assert!(p.ends.iter().all(LinkSession::is_established));
}

#[test]
fn a_reflected_hello_is_ignored() {
    let now = Instant::now();
    let mut a = LinkSession::new(b"s", 4, timing(), now);
    let hello = a.poll(now).remove(0);
    let e = a.on_frame(&hello[..hello.len() - 1], now).unwrap_err();
    assert_eq!(e, FrameError::Payload("our own HELLO reflected"));
}

/// A move's message, as the link sends it.
fn move_message(n: u16) -> Vec<u8> {
    use crate::transport::link::message::{Act, Body, Message, Side};
    Message::Proposal {
        game: 0x1234,
        side: if n.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        },
        number: n,
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

/// Moves relayed over a simulated serial line of `bytes_per_second` each way (full
/// duplex), `moves[i]` sent by end `i`, on virtual time: (seconds taken, bytes each end
/// sent).
fn over_line(bytes_per_second: f64, moves: [u16; 2]) -> (f64, [u64; 2]) {
    let timing = Timing::for_line(bytes_per_second, 4);
    let (secs, stats) = over_path(bytes_per_second, timing, moves, move_message);
    (secs, [stats[0].bytes_out, stats[1].bytes_out])
}

/// `moves[i]` messages made by `message` sent by end `i` over a path of
/// `bytes_per_second` each way, whose ends time it with `t`, on virtual time (what each
/// end writes waits its turn, as behind a serial line's or a socket's buffer): seconds
/// taken, and each end's counts.
fn over_path(
    bytes_per_second: f64,
    t: Timing,
    moves: [u16; 2],
    message: fn(u16) -> Vec<u8>,
) -> (f64, [Stats; 2]) {
    let step = Duration::from_millis(5);
    let start = Instant::now();
    let mut now = start;
    let mut ends = [
        LinkSession::new(b"s", 4, t.clone(), now),
        LinkSession::new(b"s", 4, t, now),
    ];
    // Bytes waiting to go out on each direction, and how much of the next byte is sent.
    let mut wire: [VecDeque<u8>; 2] = [VecDeque::new(), VecDeque::new()];
    let mut credit = [0.0f64; 2];
    let mut deframers = [Deframer::default(), Deframer::default()];
    let mut pushed = [0u16; 2];
    let mut got = [0u16; 2];
    let mut handshake_bytes = [0u64; 2];
    while got[1] < moves[0] || got[0] < moves[1] {
        now += step;
        assert!(
            now.duration_since(start) < Duration::from_secs(100_000),
            "stuck"
        );
        for i in 0..2 {
            while pushed[i] < moves[i] && ends[i].has_room() {
                ends[i].push(message(pushed[i]));
                pushed[i] += 1;
            }
            let was = ends[i].is_established();
            let out = ends[i].poll(now);
            wire[i].extend(out.concat());
            if !was && ends[i].is_established() {
                handshake_bytes[i] = ends[i].stats.bytes_out;
            }
        }
        for from in 0..2 {
            credit[from] += bytes_per_second * step.as_secs_f64();
            let mut arrived = Vec::new();
            while credit[from] >= 1.0 {
                let Some(b) = wire[from].pop_front() else {
                    credit[from] = credit[from].min(1.0);
                    break;
                };
                credit[from] -= 1.0;
                arrived.push(b);
            }
            let to = 1 - from;
            let mut frames = Vec::new();
            deframers[to].push(&arrived, |f| frames.push(f.to_vec()));
            for f in frames {
                let _ = ends[to].on_frame(&f, now);
                while ends[to].take_message().is_some() {
                    got[to] += 1;
                    ends[to].delivered(now);
                }
            }
        }
    }
    let secs = now.duration_since(start).as_secs_f64();
    let [a, b] = ends;
    (secs, [a.stats, b.stats])
}

/// A message as long as a piece of a game's start written as text (the longest the link
/// sends often).
fn long_message(n: u16) -> Vec<u8> {
    let mut m = move_message(n);
    m.resize(60, b'x');
    m
}

/// Regression: a TCP link took its path for 10 kB/s and capped its timeout at half a
/// second, so on a path of 300 bytes a second, where a window of long frames waits
/// seconds in the buffers, every frame was sent again about every half second.
#[test]
fn a_clean_slow_path_behind_tcp_buffers_sees_no_resend() {
    for (moves, message) in [
        ([200, 0], move_message as fn(u16) -> Vec<u8>),
        ([100, 100], long_message),
    ] {
        let (_, stats) = over_path(300.0, Timing::for_tcp(4), moves, message);
        for s in &stats {
            assert_eq!(
                (s.retransmissions, s.fast_retransmissions, s.bytes.resent),
                (0, 0, 0),
                "{moves:?}: {s:?}"
            );
        }
    }
}

/// Copies of a message applied already (the peer did not hear our acknowledgement, or
/// sent again too soon) draw at most one ACK a round trip, not one each.
#[test]
fn repeats_draw_at_most_one_acknowledgement_a_round_trip() {
    let mut p = Pair::new([b"s", b"s"]);
    p.run(3, 2000);
    p.expect_all(3);
    // End 0 sends a message; end 1 applies it, and its acknowledgements are lost.
    p.ends[0].push(b"0:3".to_vec());
    let mut to_one = Vec::new();
    for _ in 0..4 {
        p.now += Duration::from_millis(20);
        let now = p.now;
        to_one.extend(p.ends[0].poll(now));
    }
    let deliver = |p: &mut Pair, frames: &[Vec<u8>]| {
        let now = p.now;
        let mut parts = Vec::new();
        Deframer::default().push(&frames.concat(), |f| parts.push(f.to_vec()));
        for f in parts {
            let _ = p.ends[1].on_frame(&f, now);
            while p.ends[1].take_message().is_some() {
                p.ends[1].delivered(now);
            }
        }
    };
    deliver(&mut p, &to_one);
    p.now += Duration::from_millis(100);
    let now = p.now;
    assert!(!p.ends[1].poll(now).is_empty(), "the acknowledgement");
    let acks = p.ends[1].stats.acks_out;
    // End 0 sends it again four times within the round trip (new counters: not the
    // line's duplicates); end 1 answers once at most.
    for _ in 0..4 {
        p.ends[0].send.resend_now();
        p.now += Duration::from_millis(10);
        let now = p.now;
        let again = p.ends[0].poll(now);
        assert!(!again.is_empty());
        deliver(&mut p, &again);
        let now = p.now;
        let _ = p.ends[1].poll(now);
    }
    assert_eq!(p.ends[1].stats.repeats_in, 4);
    assert!(
        p.ends[1].stats.acks_out <= acks + 1,
        "{:?}",
        p.ends[1].stats
    );
}

/// While frames arrive damaged, an end puts parity on its own (its peer tries a frame
/// both ways; the tag says which is right), and everything still arrives once, in order;
/// on a clean line no frame carries any.
#[test]
fn frames_carry_parity_while_the_line_damages_them_and_only_then() {
    let mut clean = Pair::new([b"s", b"s"]);
    clean.run(50, 5000);
    clean.expect_all(50);
    assert!(
        clean
            .ends
            .iter()
            .all(|e| !e.protect && e.stats.repaired == 0)
    );
    let mut noisy = Pair::new([b"s", b"s"]);
    noisy.corrupt = 150;
    noisy.run(200, 200_000);
    noisy.expect_all(200);
    assert!(
        noisy.ends.iter().all(|e| e.protect),
        "the line damages frames"
    );
    let repaired = noisy.ends[0].stats.repaired + noisy.ends[1].stats.repaired;
    assert!(repaired > 10, "{repaired} frames repaired");
    assert_eq!((noisy.ends[0].fec(), noisy.ends[1].fec()), (0, 0));
}

/// The line figures of docs/performance.md and docs/link.md. Run with
/// `cargo test --lib link::session::tests::throughput_at_300_baud -- --nocapture`.
#[test]
fn throughput_at_300_baud() {
    let bps = 30.0; // 300 baud, 8N1
    let n = 200;
    let (secs, bytes) = over_line(bps, [n, 0]);
    let per_move = (bytes[0] + bytes[1]) as f64 / f64::from(n);
    let one_way = f64::from(n) / secs * 60.0;
    println!(
        "one way: {n} moves in {secs:.0} s = {one_way:.1} moves/min; {per_move:.1} bytes per move both directions (sender {}, receiver {})",
        bytes[0], bytes[1]
    );
    let (secs2, bytes2) = over_line(bps, [n, n]);
    let both = f64::from(2 * n) / secs2 * 60.0;
    println!(
        "both ways: {} moves in {secs2:.0} s = {both:.1} moves/min in all; {:.1} bytes per move",
        2 * n,
        (bytes2[0] + bytes2[1]) as f64 / f64::from(2 * n)
    );
    // Near what the frame sizes allow: a move's DATA frame is 16 bytes (112.5 a minute at
    // 30 bytes a second), its ACK 10 on the other direction; both ways, the
    // acknowledgements ride on the DATA frames.
    assert!(one_way > 95.0 && one_way < 113.0, "{one_way}");
    assert!(both > 120.0, "{both}");
}
