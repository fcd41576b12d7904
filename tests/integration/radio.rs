//! Over packet radio: two real ccrelay nodes, each with its own Direwolf (Debian's software
//! TNC) on a radio channel with noise that the test owns (support/radio.rs), play a game over
//! the node link carried in AX.25 UI frames; a node and a TNC are restarted in the middle.
//! Both records end equal, nothing lost or doubled; the bytes on air and the wait per move are
//! printed (docs/radio.md has the figures and the command).

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::daemon::Daemon;
use crate::support::games::LONG_GAME;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;
use crate::support::link::{Node, moves_of, node_config_with, rejected_in, settled};
use crate::support::process::ccrelay;
use crate::support::radio::{Channel, Direwolf, require_direwolf};

const CALLS: [&str; 2] = ["N0CALL-1", "N0CALL-2"];
const GAME: (&str, &str, &str) = ("m1", "anna", "boris");

/// The link table's transport keys and the node's radio port on TNC `kiss`.
fn radio_link(kiss: u16, me: &str, peer: &str) -> String {
    format!(
        "transport = \"radio\"\nradio = \"vhf\"\npeer = \"{peer}\"\n\
         [[radio]]\nid = \"vhf\"\ntnc = \"127.0.0.1:{kiss}\"\ncallsign = \"{me}\"\n"
    )
}

fn start_node(dir: &Path, local: &str, remote: &str, link: &str) -> Node {
    let dir = tempfile::tempdir_in(dir).expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let text = node_config_with(&dir.path().join("data"), &[local], &[remote], &[GAME], link);
    std::fs::write(&config, text).expect("write config");
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

/// Ply `i` of the long game in ICCF.
fn iccf(i: usize) -> String {
    let uci = LONG_GAME.split_whitespace().nth(i).expect("ply").as_bytes();
    let sq = |f: u8, r: u8| format!("{}{}", f - b'a' + 1, r - b'0');
    format!("{}{}", sq(uci[0], uci[1]), sq(uci[2], uci[3]))
}

/// How many moves of the game a node's journal holds; none while it does not know the game
/// (the node that does not keep it starts it when the start comes over the air).
fn moves_held(config: &Path) -> usize {
    let out = ccrelay()
        .args([
            "journal", "export", "--game", GAME.0, "--format", "text", "--config",
        ])
        .arg(config)
        .output()
        .expect("export");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('#') && l.split_whitespace().nth(4) == Some("move"))
        .count()
}

/// Waits until both nodes' journals hold `n` moves of the game.
fn both_hold(nodes: &[Node; 2], n: usize, tnc: &[Direwolf; 2]) {
    let deadline = Instant::now() + Duration::from_secs(150);
    loop {
        let held = nodes.each_ref().map(|node| moves_held(&node.config));
        if held.iter().all(|&h| h >= n) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "move {n} not on both nodes ({held:?}); TNC A's log:\n{}\nTNC B's log:\n{}",
            tnc[0].log(),
            tnc[1].log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The median and the 99th percentile.
fn p50_p99(waits: &mut [Duration]) -> (Duration, Duration) {
    waits.sort();
    let at = |q: f64| waits[((waits.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Noise as the standard deviation of the channel's Gaussian noise, in sample units
/// (`CCRELAY_RADIO_NOISE`; a transmission reaches the receiver at about 2800 RMS).
fn noise() -> u32 {
    std::env::var("CCRELAY_RADIO_NOISE")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1400)
}

#[test]
fn a_game_over_packet_radio_with_noise_survives_a_node_and_a_tnc_restart() {
    require_direwolf();
    let plies: usize = std::env::var("CCRELAY_RADIO_PLIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16);
    let channel = Channel::start(noise());
    let root = tempfile::tempdir().expect("tempdir");
    let mut tnc = [0, 1]
        .map(|i| Direwolf::start(&root.path().join(format!("tnc{i}")), &channel, i, CALLS[i]));
    let mut nodes = [
        start_node(
            root.path(),
            "anna",
            "boris",
            &radio_link(tnc[0].kiss, CALLS[0], CALLS[1]),
        ),
        start_node(
            root.path(),
            "boris",
            "anna",
            &radio_link(tnc[1].kiss, CALLS[1], CALLS[0]),
        ),
    ];
    let mut clients = [login(&nodes[0], "anna"), login(&nodes[1], "boris")];
    let mut waits = Vec::new();
    let started = Instant::now();
    for i in 0..plies {
        let mover = i % 2;
        let mv = iccf(i);
        let sent = Instant::now();
        let (code, text) = clients[mover].call(&format!("MOVE m1 {} {mv}", i / 2 + 1));
        assert!(code == 250 || code == 202, "ply {i} {mv}: {text}");
        if i == plies / 3 {
            // Node B killed with anna's move on its way to it.
            nodes[1].restart();
            clients[1] = login(&nodes[1], "boris");
        }
        if i == 2 * plies / 3 + 1 {
            // Node A's TNC killed with boris's proposal on its way to it.
            tnc[0].restart();
        }
        both_hold(&nodes, i + 1, &tnc);
        waits.push(sent.elapsed());
    }
    let elapsed = started.elapsed();
    let (record, _) = settled(&nodes, GAME.0);
    assert!(!record.is_empty());
    let want: Vec<(String, String)> = (0..plies)
        .map(|i| ([GAME.1, GAME.2][i % 2].to_owned(), iccf(i)))
        .collect();
    for node in &nodes {
        assert_eq!(moves_of(&node.config, GAME.0), want);
        assert_eq!(
            rejected_in(&node.config, GAME.0),
            0,
            "nothing refused, nothing doubled"
        );
        assert_journal_verifies(&node.config);
    }
    let air = channel.air_seconds();
    let (p50, p99) = p50_p99(&mut waits);
    let (sent, heard) = tnc
        .each_ref()
        .map(Direwolf::frames)
        .into_iter()
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "radio link, noise {}: {plies} moves in {elapsed:.1?}; on air A {:.1} s, B {:.1} s = {:.0} bytes a move at 1200 baud (preambles included); {:.1} frames sent a move, {:.0}% of them decoded; wait per move p50 {p50:.1?} p99 {p99:.1?}",
        noise(),
        air[0],
        air[1],
        (air[0] + air[1]) * 150.0 / plies as f64,
        sent as f64 / plies as f64,
        100.0 * heard as f64 / sent.max(1) as f64,
    );
}
