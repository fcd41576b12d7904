//! The linked node of the power-cut test: node B, on an ordinary disk (the other city keeps its
//! power), linked by TCP to node A, whose disk is cut. Vera plays on B: game `l1` against Alice
//! (White, so node A keeps its record) and `l2` against Boris (Vera is White: node B keeps it).
//! A move sent to the node that keeps the record is answered `202` once it is durable where it
//! was sent, then `RECORDED` when that node has it; a `250` or a `RECORDED` from node A must
//! survive A's cuts, and a `202` from A must reach B's record.
//!
//! Node A listens and B connects. B is started again (kill -9) at each round, once A is up:
//! a link whose line drops keeps backing off (up to 30 s) until a connection lasts 10 s, which
//! rounds a fraction of a second long never do; a fresh B connects at once, so link traffic
//! flows while the power is cut.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ccrelay::notation::{Iccf, uci};

use crate::support::config::ADMIN_SECRET;
use crate::support::daemon::Daemon;
use crate::support::games::long_game;
use crate::support::journal::assert_journal_verifies;
use crate::support::line::Client;

const SECRET: &str = "a shared secret of the two clubs";
pub const VERA_SECRET: &str = "vera-secret";
/// The linked games: (id, White, Black). Node A keeps `l1`, node B `l2`.
pub const LINKED: [(&str, &str, &str); 2] = [("l1", "alice", "vera"), ("l2", "vera", "boris")];

/// What the players of the linked games were told, across cuts.
#[derive(Default)]
pub struct Linked {
    /// Plies of `l1` node A said it recorded (Alice's 250, Vera's RECORDED): checked on A's
    /// disk after every cut.
    pub l1_acked: usize,
    /// Plies of `l1` and `l2` some node answered 250 or 202 for: both records hold them at the end.
    pub l1_promised: usize,
    pub l2_promised: usize,
    vera_pending: Option<usize>,
    pub boris_pending: Option<usize>,
    /// Every push Vera saw (id -> text), and the highest she acknowledged.
    vera_seen: BTreeMap<i64, String>,
    vera_acked: i64,
}

/// The moves `GAMES` lists for `game`; `None` if it does not list it.
pub fn moves_listed(client: &mut Client, game: &str) -> Option<usize> {
    let (code, text) = client.call("GAMES");
    assert_eq!(code, 250, "{text}");
    let line = text.lines().find(|l| l.starts_with(&format!("{game} ")))?;
    line.split(" moves,")
        .next()?
        .rsplit(' ')
        .next()?
        .parse()
        .ok()
}

/// Node B, and Vera logged in there.
pub struct Peer {
    _dir: tempfile::TempDir,
    config: PathBuf,
    node: Option<(Daemon, Client)>,
    /// Node A's link port.
    pub port: u16,
}

/// The lines node A's configuration adds for the link: Vera across it, the linked games.
pub fn node_a_config(port: u16) -> String {
    let mut text = "[[players]]\nid = \"vera\"\nreach = \"link\"\nlink = \"peer\"\n".to_owned();
    for (id, white, black) in LINKED {
        text.push_str(&format!(
            "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\n"
        ));
    }
    text.push_str(&format!(
        "[[links]]\nid = \"peer\"\nsecret = {SECRET:?}\nretransmit_ms = 150\nwindow = 4\ntransport = \"tcp\"\nlisten = \"127.0.0.1:{port}\"\n"
    ));
    text
}

impl Peer {
    /// Node B's configuration; it is started by [`Peer::restart`].
    pub fn new() -> Peer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = tempfile::tempdir().expect("tempdir");
        let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
        let mut text = format!(
            "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[limits]\nlogin_attempts_per_minute = 1000\n[admin]\nsecret_hash = {:?}\n",
            dir.path().join("data").display().to_string(),
            hash(ADMIN_SECRET)
        );
        text.push_str(&format!(
            "[[players]]\nid = \"vera\"\nsecret_hash = {:?}\nnotation = \"iccf\"\n",
            hash(VERA_SECRET)
        ));
        for p in ["alice", "boris"] {
            text.push_str(&format!(
                "[[players]]\nid = {p:?}\nreach = \"link\"\nlink = \"peer\"\n"
            ));
        }
        for (id, white, black) in LINKED {
            text.push_str(&format!(
                "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\n"
            ));
        }
        text.push_str(&format!(
            "[[links]]\nid = \"peer\"\nsecret = {SECRET:?}\nretransmit_ms = 150\nwindow = 4\ntransport = \"tcp\"\nconnect = \"127.0.0.1:{port}\"\n"
        ));
        let config = dir.path().join("ccrelay.toml");
        std::fs::write(&config, text).expect("config");
        Peer {
            _dir: dir,
            config,
            node: None,
            port,
        }
    }

    /// Node B killed (if running) and started again, Vera logged in.
    pub fn restart(&mut self) {
        if let Some((mut daemon, _)) = self.node.take() {
            daemon.kill9();
        }
        let daemon = Daemon::start(&self.config);
        let mut vera = daemon.connect();
        assert_eq!(vera.call(&format!("LOGIN vera {VERA_SECRET}")).0, 230);
        self.node = Some((daemon, vera));
    }

    fn vera(&mut self) -> &mut Client {
        &mut self.node.as_mut().expect("node B runs").1
    }

    /// Vera's turn in a round: she reads what arrived, and moves where it is her turn.
    pub fn vera_plays(&mut self, linked: &mut Linked, violations: &mut Vec<String>) {
        let line = long_game();
        self.read_pushes(linked, violations);
        // Node B knows l1 once node A's record of its start has crossed the link.
        let n = moves_listed(self.vera(), "l1");
        linked.vera_pending = linked.vera_pending.filter(|&p| n.is_none_or(|n| p >= n));
        if let Some(n) = n
            && n % 2 == 1
            && n < line.len()
            && linked.vera_pending.is_none()
        {
            let (code, text) = self
                .vera()
                .call(&format!("MOVE l1 {}", Iccf::from_move(line[n].1)));
            match code {
                202 => {
                    linked.vera_pending = Some(n);
                    linked.l1_promised = linked.l1_promised.max(n + 1);
                }
                _ => violations.push(format!("vera's l1 ply {n}: {code} {text}")),
            }
        }
        let n = moves_listed(self.vera(), "l2").expect("node B keeps l2");
        if n.is_multiple_of(2) && n < line.len() {
            let (code, text) = self
                .vera()
                .call(&format!("MOVE l2 {}", uci::write(line[n].1)));
            match code {
                250 => linked.l2_promised = linked.l2_promised.max(n + 1),
                _ => violations.push(format!("vera's l2 ply {n}: {code} {text}")),
            }
        }
    }

    /// What node B's `GAMES` lists for `l1` and `l2`.
    pub fn views(&mut self) -> [Option<usize>; 2] {
        [
            moves_listed(self.vera(), "l1"),
            moves_listed(self.vera(), "l2"),
        ]
    }

    /// Takes Vera's pushes: a `RECORDED l1` is node A's word that her move is in its record.
    fn read_pushes(&mut self, linked: &mut Linked, violations: &mut Vec<String>) {
        self.vera().call("GAMES");
        let mut highest = linked.vera_acked;
        for (id, body) in std::mem::take(&mut self.vera().pushes) {
            if id <= linked.vera_acked {
                violations.push(format!(
                    "vera's message {id} came again after its ACK: {body}"
                ));
            }
            highest = highest.max(id);
            if body.starts_with("RECORDED l1 ")
                && let Some(p) = linked.vera_pending.take()
            {
                linked.l1_acked = linked.l1_acked.max(p + 1);
            }
            if body.starts_with("REFUSED") {
                violations.push(format!("vera was refused: {body}"));
            }
            if linked
                .vera_seen
                .insert(id, body.clone())
                .is_some_and(|earlier| earlier != body)
            {
                violations.push(format!("vera's message {id} changed: {body}"));
            }
        }
        if self.vera().call(&format!("ACK {highest}")).0 == 250 {
            linked.vera_acked = highest;
        }
    }

    /// Waits (up to a minute) until both nodes hold the same record of both linked games,
    /// with every promised move in it; then checks each holds each move once, in order, and
    /// that Vera got each of Alice's moves once. `node_a` is A's data directory; `boris` is
    /// Boris on A, whose pushes are read meanwhile.
    pub fn settle(
        &mut self,
        node_a: &Path,
        boris: &mut Client,
        linked: &mut Linked,
        violations: &mut Vec<String>,
    ) -> [usize; 2] {
        let deadline = Instant::now() + Duration::from_secs(60);
        let b_data = self.config.parent().expect("folder").join("data");
        loop {
            self.read_pushes(linked, violations);
            boris.call("GAMES");
            let a = super::play::journal_moves(node_a);
            let b = super::play::journal_moves(&b_data);
            let same = ["l1", "l2"].iter().all(|g| a.get(*g) == b.get(*g));
            let held = |g: &str| b.get(g).map_or(0, Vec::len);
            if same && held("l1") >= linked.l1_promised && held("l2") >= linked.l2_promised {
                let line = long_game();
                for (g, moves) in b.iter().filter(|(g, _)| g.starts_with('l')) {
                    let want: Vec<String> = line
                        .iter()
                        .take(moves.len())
                        .map(|(_, m)| Iccf::from_move(*m).to_string())
                        .collect();
                    assert_eq!(moves, &want, "{g}: the record is not the game's moves");
                }
                // Vera sees each of Alice's moves in l1 once (waited for: node B pushes a
                // move after it commits it).
                let alice: Vec<(String, String)> = (0..held("l1"))
                    .step_by(2)
                    .map(|ply| {
                        let iccf = Iccf::from_move(line[ply].1);
                        (format!("MOVE l1 {}. {iccf} ", ply / 2 + 1), String::new())
                    })
                    .collect();
                match super::first_unpushed(&linked.vera_seen, &alice) {
                    None => return [held("l1"), held("l2")],
                    Some(wanted) => assert!(
                        Instant::now() < deadline,
                        "{wanted}: in node B's record, never pushed to vera (she saw {:?})",
                        linked.vera_seen
                    ),
                }
            }
            assert!(
                Instant::now() < deadline,
                "the linked games did not settle: node A {a:?}, node B {b:?}, promised l1 {} l2 {}",
                linked.l1_promised,
                linked.l2_promised
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Node B's journal verifies too.
    pub fn verify(&mut self) {
        if let Some((mut daemon, _)) = self.node.take() {
            daemon.kill9();
        }
        assert_journal_verifies(&self.config);
    }
}
