//! The power-cut test: the real daemon (node A) with its data directory on the [`Layer`],
//! Alice and Boris playing over TCP, Mira by mail ([`super::mail`]), Vera on a linked node B
//! ([`super::peer`]), the power cut
//! at a seeded change (during start-up, play or rest), the daemon killed, the disk powered on
//! with only what was synced, and the daemon started again. After every cut, and at the end:
//!
//! - every move a player was answered `250` (or `RECORDED`, or `accepted` by mail) for by
//!   node A is in A's journal,
//!   and the journal holds each game's moves once, in order (nothing lost, nothing applied
//!   twice); at the end both nodes hold the same record of the linked games, with every move
//!   either node answered `250` or `202` for;
//! - every push owed to Boris arrives, under one id with one text, and none comes again after
//!   an `ACK` was answered `250` (delivered exactly once);
//! - `ccrelay journal verify --receipt` passes with every reply, push and full receipt the
//!   players saved.
//!
//! `CCRELAY_POWER_CUTS` (default 10) sets the number of cuts, `CCRELAY_POWER_SEED` the seed
//! (default: from the clock, printed); a failure prints the command that replays it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ccrelay::notation::{Iccf, uci};

use super::layer::{Layer, require_fuse};
use super::mail::Mailer;
use super::peer::{Linked, Peer, node_a_config};

use crate::support::config::{ALICE, BORIS, config_text};
use crate::support::daemon::Daemon;
use crate::support::games::long_game;
use crate::support::line::{Client, moves_in};
use crate::support::mail::lock;
use crate::support::process::ccrelay;

const GAMES: usize = 4;
/// Cuts in `cargo test`; `CCRELAY_POWER_CUTS=100` for the long run.
const FAST_CUTS: usize = 10;
/// A cut strikes at a change drawn from 1..=SPAN after it is armed (writes, truncations,
/// creates, renames, unlinks and syncs, SQLite's shared-memory file included): a round makes
/// 120 to 180, start-up first, so most cuts land in play, some in start-up, and a few after
/// the round's play (at rest).
const SPAN: u64 = 180;

/// xorshift64*: the seed fixes every cut point and pause.
struct Rng(u64);

impl Rng {
    /// Every seed its own sequence (splitmix64 of the seed; never zero).
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1)
    }
}

/// Prints how to replay the run when the test fails.
struct Replay(String);

impl Drop for Replay {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("power-cut test failed; replay it with: {}", self.0);
        }
    }
}

/// What the run did, for the report.
#[derive(Default, Debug)]
struct Tally {
    cuts: usize,
    in_start: usize,
    in_play: usize,
    at_rest: usize,
    /// Moves answered 250 (all of them found in the journal after every cut).
    acknowledged: usize,
    /// Moves in the journal no reply acknowledged (in flight when the power went).
    unacknowledged: usize,
    lost: usize,
    duplicated: usize,
    pushes: usize,
    syncs: u64,
    /// Plies of the linked games `l1` and `l2` at the end, and of the mail game `e1`.
    linked: [usize; 2],
    mail: usize,
}

/// What the players know and have saved, across cuts.
struct Players {
    /// Per game: half-moves acknowledged so far.
    acked: [usize; GAMES],
    /// Every push Boris saw (id -> text) and the highest id whose ACK was answered 250.
    boris_seen: BTreeMap<i64, String>,
    boris_acked: i64,
    /// Reply and push lines, and full receipts, as the players saved them.
    receipts: Vec<String>,
    violations: Vec<String>,
    linked: Linked,
    /// Game `e1` (Mira by mail, Boris): moves in the journal at the last power-on, and plies
    /// Boris was answered 250 for.
    e1: usize,
    e1_boris: usize,
}

#[test]
fn power_cuts_at_seeded_moments_lose_no_acknowledged_move_and_apply_none_twice() {
    require_fuse();
    let cuts: usize = std::env::var("CCRELAY_POWER_CUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FAST_CUTS);
    let seed: u64 = std::env::var("CCRELAY_POWER_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1886, |d| d.as_nanos() as u64)
        });
    let replay = Replay(format!(
        "CCRELAY_POWER_SEED={seed} CCRELAY_POWER_CUTS={cuts} cargo test --test integration powercut::play"
    ));
    eprintln!("power cuts: {cuts}, seed {seed}");
    let tally = run(seed, cuts);
    eprintln!(
        "power cuts: {} ({} in start-up, {} in play, {} at rest); moves acknowledged {} (linked games {:?}, by mail {}), lost {}, duplicated {}, in flight and kept {}; pushes {}; syncs {}",
        tally.cuts,
        tally.in_start,
        tally.in_play,
        tally.at_rest,
        tally.acknowledged,
        tally.linked,
        tally.mail,
        tally.lost,
        tally.duplicated,
        tally.unacknowledged,
        tally.pushes,
        tally.syncs
    );
    drop(replay);
}

fn run(seed: u64, cuts: usize) -> Tally {
    let dir = tempfile::tempdir().expect("tempdir");
    let mnt = dir.path().join("disk");
    std::fs::create_dir(&mnt).expect("mount point");
    let mut layer = Layer::mount(&mnt);
    let games: Vec<String> = (1..=GAMES).map(|i| format!("p{i}")).collect();
    let table: Vec<(&str, &str, &str)> = games
        .iter()
        .map(|g| (g.as_str(), "alice", "boris"))
        .collect();
    let config = dir.path().join("ccrelay.toml");
    let mut peer = Peer::new();
    // The mail tests take turns: one of them stops the mail servers.
    let _turn = lock();
    let mut mailer = Mailer::new();
    // The data directory is made by the daemon, on the disk that forgets.
    let text = config_text(&mnt.join("data"), &[ALICE, BORIS], &table)
        + &node_a_config(peer.port)
        + &mailer.config();
    std::fs::write(&config, text).expect("config");
    let saved = dir.path().join("receipts.txt");
    let mut rng = Rng::new(seed);
    let mut players = Players {
        acked: [0; GAMES],
        boris_seen: BTreeMap::new(),
        boris_acked: 0,
        receipts: Vec::new(),
        violations: Vec::new(),
        linked: Linked::default(),
        e1: 0,
        e1_boris: 0,
    };
    let mut tally = Tally::default();
    for round in 0..=cuts {
        if round > 0 {
            layer.power_on();
            check_disk(
                &config,
                &games,
                &mut players,
                &mut tally,
                &saved,
                round,
                mailer.acked,
            );
        }
        if round == cuts {
            break;
        }
        let cut_at = 1 + rng.below(SPAN);
        let kill_after = Duration::from_millis(rng.below(20));
        layer.arm(cut_at);
        let log = dir.path().join(format!("round-{round}.log"));
        let Some(mut daemon) = start(&config, &log) else {
            assert!(
                layer.wait_cut(Duration::ZERO),
                "round {round}: the daemon did not start, and the power was on: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            tally.in_start += 1;
            tally.cuts += 1;
            continue;
        };
        let pid = daemon.child.id();
        // Node B keeps its power: started afresh, it links to A at once, and Vera plays
        // whatever node A is doing.
        peer.restart();
        mailer.plays(players.e1);
        let played = std::thread::scope(|s| {
            s.spawn(|| {
                // The machine dies with its disk: the daemon is killed just after the cut.
                if layer.wait_cut(Duration::from_secs(300)) {
                    std::thread::sleep(kill_after);
                }
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            });
            let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                play(daemon.addr, &games, &mut players, &mut peer, round)
            }))
            .is_ok();
            let cut_in_play = layer.wait_cut(Duration::ZERO);
            layer.cut();
            (played, cut_in_play)
        });
        daemon.kill9();
        tally.cuts += 1;
        match played {
            (_, true) => tally.in_play += 1,
            (true, false) => tally.at_rest += 1,
            (false, false) => panic!(
                "round {round}: play failed with the power on: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            ),
        }
        tally.syncs = layer.counts().1;
    }
    assert!(
        players.violations.is_empty(),
        "{}",
        players.violations.join("\n")
    );
    // The end: the linked games settle on both nodes, and every White move reached Boris
    // exactly once.
    let daemon = start(&config, &dir.path().join("final.log")).expect("the daemon starts");
    let mut boris = daemon.login(&BORIS);
    peer.restart();
    let linked_plies = peer.settle(
        &mnt.join("data"),
        &mut boris,
        &mut players.linked,
        &mut players.violations,
    );
    assert!(
        players.violations.is_empty(),
        "{}",
        players.violations.join("\n")
    );
    let e1 = super::play::journal_moves(&mnt.join("data"))
        .get("e1")
        .map_or(0, Vec::len);
    mailer.settle(e1);
    let line = &long_game();
    let mut owed: Vec<(&str, usize)> = games
        .iter()
        .zip(players.acked)
        .map(|(g, n)| (g.as_str(), n))
        .collect();
    owed.push(("l2", linked_plies[1]));
    owed.push(("e1", e1));
    let white_moves: Vec<(String, String)> = owed
        .iter()
        .flat_map(|&(id, plies)| {
            (0..plies).step_by(2).map(move |ply| {
                (
                    format!("MOVE {id} {}. ", ply / 2 + 1),
                    format!("({})", Iccf::from_move(line[ply].1)),
                )
            })
        })
        .collect();
    // The last moves may still be on their way (pushed after their commit): waited for, up
    // to a minute.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        boris.call("GAMES");
        for (id, body) in std::mem::take(&mut boris.pushes) {
            assert!(id > players.boris_acked, "message {id} came again: {body}");
            players.boris_seen.insert(id, body);
        }
        match super::first_unpushed(&players.boris_seen, &white_moves) {
            None => break,
            Some(wanted) => assert!(Instant::now() < deadline, "{wanted}: never received"),
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    tally.pushes = white_moves.len();
    tally.acknowledged =
        players.acked.iter().sum::<usize>() + linked_plies[0] + linked_plies[1] + e1;
    tally.mail = e1;
    tally.linked = linked_plies;
    peer.verify();
    assert!(
        tally.in_play >= cuts / 4,
        "only {} of {cuts} cuts struck during play: {tally:?}",
        tally.in_play
    );
    tally
}

/// Starts the daemon, its log in `log`; `None` if it stopped before listening.
fn start(config: &Path, log: &Path) -> Option<Daemon> {
    let mut child = ccrelay()
        .args(["run", "--config"])
        .arg(config)
        .env("CCRELAY_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).expect("log"))
        .spawn()
        .expect("start ccrelay run");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    let _ = BufReader::new(stdout).read_line(&mut line);
    let Some(rest) = line.trim().strip_prefix("ccrelay listening on ") else {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    };
    let addr = rest
        .split(' ')
        .next()
        .and_then(|a| a.parse().ok())
        .expect("address");
    Some(Daemon {
        child,
        addr,
        http: None,
    })
}

/// After a power-on, before the daemon runs: the journal holds every acknowledged move and
/// each game's moves once, in order, and verifies with every receipt saved.
fn check_disk(
    config: &Path,
    games: &[String],
    players: &mut Players,
    tally: &mut Tally,
    saved: &PathBuf,
    round: usize,
    mail_acked: usize,
) {
    let data = config.parent().expect("folder").join("disk/data");
    if players.acked.iter().all(|&n| n == 0) && players.receipts.is_empty() {
        // Nothing promised yet. The journal may be missing, or cut while SQLite made it (a
        // hot rollback journal, which only a writer can undo: the next start does).
        return;
    }
    assert!(
        data.join("journal.sqlite3").exists(),
        "round {round}: the journal is gone, with {:?} moves acknowledged",
        players.acked
    );
    let line = long_game();
    let moves = journal_moves(&data);
    for (g, id) in games.iter().enumerate() {
        let got = moves.get(id.as_str()).cloned().unwrap_or_default();
        let want: Vec<String> = line
            .iter()
            .take(got.len())
            .map(|(_, m)| Iccf::from_move(*m).to_string())
            .collect();
        if got != want {
            tally.duplicated += 1;
            panic!("round {round}, {id}: the journal's moves {got:?} are not the game's {want:?}");
        }
        let acked = players.acked[g];
        if got.len() < acked {
            tally.lost += acked - got.len();
            panic!(
                "round {round}, {id}: {acked} moves acknowledged, {} in the journal",
                got.len()
            );
        }
        tally.unacknowledged += got.len() - acked;
        players.acked[g] = got.len();
    }
    // The linked games: A's record of l1 (it keeps it) holds what A acknowledged; its copy of
    // l2 (B keeps it) may lag, but never holds a move twice or out of order.
    for id in ["l1", "l2", "e1"] {
        let got = moves.get(id).cloned().unwrap_or_default();
        let want: Vec<String> = line
            .iter()
            .take(got.len())
            .map(|(_, m)| Iccf::from_move(*m).to_string())
            .collect();
        if got != want {
            tally.duplicated += 1;
            panic!("round {round}, {id}: the journal's moves {got:?} are not the game's {want:?}");
        }
    }
    let l1 = moves.get("l1").map_or(0, Vec::len);
    if l1 < players.linked.l1_acked {
        tally.lost += players.linked.l1_acked - l1;
        panic!(
            "round {round}, l1: {} moves recorded by node A, {l1} in its journal",
            players.linked.l1_acked
        );
    }
    // Game e1: every move acknowledged to Mira (by mail) or to Boris (250) is in it.
    let e1 = moves.get("e1").map_or(0, Vec::len);
    let e1_acked = players.e1_boris.max(mail_acked);
    if e1 < e1_acked {
        tally.lost += e1_acked - e1;
        panic!("round {round}, e1: {e1_acked} moves acknowledged, {e1} in the journal");
    }
    players.e1 = e1;
    std::fs::write(saved, players.receipts.join("\n") + "\n").expect("save the receipts");
    let mut verify = ccrelay();
    verify.args(["journal", "verify"]);
    if !players.receipts.is_empty() {
        verify.arg("--receipt").arg(saved);
    }
    let out = verify
        .arg("--config")
        .arg(config)
        .output()
        .expect("journal verify");
    assert!(
        out.status.success(),
        "round {round}: journal verify --receipt: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each game's moves in the journal, in order, in ICCF.
pub(super) fn journal_moves(data: &Path) -> BTreeMap<String, Vec<String>> {
    let conn = rusqlite::Connection::open_with_flags(
        data.join("journal.sqlite3"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the journal");
    let mut stmt = conn
        .prepare("SELECT game, iccf FROM entries WHERE kind = 'move' ORDER BY seq")
        .expect("query");
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })
        .expect("moves");
    for row in rows {
        let (game, iccf) = row.expect("row");
        out.entry(game).or_default().push(iccf.unwrap_or_default());
    }
    out
}

/// One round of play: Alice moves in every game where White is to move, Boris logs in, reads
/// what he missed, acknowledges it, and answers. The power may go at any point in this.
fn play(
    addr: std::net::SocketAddr,
    games: &[String],
    players: &mut Players,
    peer: &mut Peer,
    round: usize,
) {
    let line = long_game();
    let mut alice = Client::connect(addr);
    assert_eq!(alice.call(&format!("LOGIN alice {}", ALICE.secret)).0, 230);
    let mut boris = Client::connect(addr);
    assert_eq!(boris.call(&format!("LOGIN boris {}", BORIS.secret)).0, 230);
    // The link catches up (up to a second and a half): both nodes see the same linked games.
    let deadline = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < deadline {
        let on_a = [
            super::peer::moves_listed(&mut alice, "l1"),
            super::peer::moves_listed(&mut boris, "l2"),
        ];
        if on_a.iter().all(Option::is_some) && on_a == peer.views() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    peer.vera_plays(&mut players.linked, &mut players.violations);
    for (g, id) in games.iter().enumerate() {
        let ply = players.acked[g];
        if ply.is_multiple_of(2) && ply < line.len() {
            let (code, text) = alice.call(&format!("MOVE {id} {}", uci::write(line[ply].1)));
            if code == 250 {
                players.acked[g] = ply + 1;
                players.receipts.push(format!("250 {text}"));
                // The full receipt of the move's entry, signed.
                if let Some(entry) = short_receipt_entry(&text) {
                    let (code, full) = alice.call(&format!("RECEIPT {entry}"));
                    if code == 250 {
                        players.receipts.push(full);
                    }
                }
            }
        }
    }
    // Alice in l1, which node A keeps: her move is in the record when answered 250.
    let n = moves_in(&mut alice, "l1");
    if n.is_multiple_of(2) && n < line.len() {
        let (code, text) = alice.call(&format!("MOVE l1 {}", uci::write(line[n].1)));
        if code == 250 {
            let linked = &mut players.linked;
            linked.l1_acked = linked.l1_acked.max(n + 1);
            linked.l1_promised = linked.l1_promised.max(n + 1);
            players.receipts.push(format!("250 {text}"));
        }
    }
    boris.call("GAMES");
    let mut highest = players.boris_acked;
    for (id, body) in std::mem::take(&mut boris.pushes) {
        if id <= players.boris_acked {
            players.violations.push(format!(
                "round {round}: message {id} came again after its ACK: {body}"
            ));
        }
        if players
            .boris_seen
            .insert(id, body.clone())
            .is_some_and(|earlier| earlier != body)
        {
            players
                .violations
                .push(format!("round {round}: message {id} changed: {body}"));
        }
        players.receipts.push(format!("* {id} {body}"));
        highest = highest.max(id);
    }
    if boris.call(&format!("ACK {highest}")).0 == 250 {
        players.boris_acked = highest;
    }
    for (g, id) in games.iter().enumerate() {
        let ply = players.acked[g];
        if !ply.is_multiple_of(2) && ply < line.len() {
            let (code, text) = boris.call(&format!("MOVE {id} {}", Iccf::from_move(line[ply].1)));
            if code == 250 {
                players.acked[g] = ply + 1;
                players.receipts.push(format!("250 {text}"));
            }
        }
    }
    // Boris in e1, against Mira by mail.
    if let Some(n) = super::peer::moves_listed(&mut boris, "e1")
        && !n.is_multiple_of(2)
        && n < line.len()
    {
        let (code, text) = boris.call(&format!("MOVE e1 {}", Iccf::from_move(line[n].1)));
        if code == 250 {
            players.e1_boris = players.e1_boris.max(n + 1);
            players.receipts.push(format!("250 {text}"));
        }
    }
    // Boris in l2, which node B keeps: 202 once his proposal is durable on A; A sends it.
    // (Node A knows l2 once node B's record of its start has crossed the link.)
    let n = super::peer::moves_listed(&mut boris, "l2");
    let linked = &mut players.linked;
    linked.boris_pending = linked.boris_pending.filter(|&p| n.is_none_or(|n| p >= n));
    if let Some(n) = n
        && !n.is_multiple_of(2)
        && n < line.len()
        && linked.boris_pending.is_none()
    {
        let (code, _) = boris.call(&format!("MOVE l2 {}", Iccf::from_move(line[n].1)));
        if code == 202 {
            linked.boris_pending = Some(n);
            linked.l2_promised = linked.l2_promised.max(n + 1);
        }
    }
}

/// The entry number of the short receipt a reply ends with (`r17:3fa9c2d1e0b4`).
fn short_receipt_entry(text: &str) -> Option<i64> {
    let word = text.split_whitespace().last()?;
    word.strip_prefix('r')?.split(':').next()?.parse().ok()
}
